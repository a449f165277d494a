/* iochart-recorder.c: a private tracefs instance feeding the .dat writer (see the header) */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <tracefs.h>

#include "iochart-recorder.h"
#include "iochart-error.h"
#include "readers/iochart-dat-writer.h"

#define INSTANCE_PREFIX "iochart-record-"
#define TRACEFS_PATH "/sys/kernel/tracing"

typedef struct {
  const char *system;
  const char *name;
  guint       what;      /* which option asks for it */
} Event;

enum { WANT_ALWAYS, WANT_FULL, WANT_SCHED };

static const Event events[] = {
  { "block", "block_bio_queue", WANT_ALWAYS },
  { "block", "block_bio_backmerge", WANT_ALWAYS },
  { "block", "block_bio_frontmerge", WANT_FULL },
  { "block", "block_rq_insert", WANT_ALWAYS },
  { "block", "block_rq_issue", WANT_ALWAYS },
  { "block", "block_rq_merge", WANT_ALWAYS },
  { "block", "block_rq_complete", WANT_ALWAYS },
  { "block", "block_rq_requeue", WANT_FULL },
  { "block", "block_split", WANT_FULL },
  { "sched", "sched_process_fork", WANT_ALWAYS },
  { "sched", "sched_process_exec", WANT_ALWAYS },
  { "sched", "sched_process_exit", WANT_ALWAYS },
  { "syscalls", "sys_enter_ioprio_set", WANT_FULL },
  { "sched", "sched_switch", WANT_SCHED },
  { "sched", "sched_wakeup", WANT_SCHED },
  { "sched", "sched_wakeup_new", WANT_SCHED },
};

struct _IochartRecorder {
  struct tracefs_instance *inst;
  struct tracefs_cpu     **cpus;
  guint                    n_cpus;
  guint                    page_size;
  guint8                  *page;
  IochartDatWriter        *dat;
  GPtrArray               *missing;      /* char*, NULL-terminated */
  GPtrArray               *metadata;     /* "system/event" of the enabled events */
  IochartRecorderPageFunc  page_func;
  gpointer                 page_data;
  gboolean                 stopped;
  IochartRecorderStats     final;        /* taken at stop, before the instance goes */
};

static gboolean
ensure_tracefs (GError **error)
{
  if (geteuid () != 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "recording needs root (tracefs instances are root's): run it with sudo");
      return FALSE;
    }
  if (g_file_test (TRACEFS_PATH "/instances", G_FILE_TEST_IS_DIR))
    return TRUE;
  if (mount ("nodev", TRACEFS_PATH, "tracefs", 0, NULL) != 0
      || !g_file_test (TRACEFS_PATH "/instances", G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "tracefs is not mounted and mounting it failed (%s): mount it with "
                   "'mount -t tracefs nodev " TRACEFS_PATH "' (kernel option CONFIG_FTRACE)",
                   g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

/* Instances of recorders that died without removing theirs (SIGKILL, a crash). */
static void
remove_stale_instances (void)
{
  g_autoptr(GDir) d = g_dir_open (TRACEFS_PATH "/instances", 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      guint64 pid;
      if (!g_str_has_prefix (name, INSTANCE_PREFIX)
          || !g_ascii_string_to_unsigned (name + strlen (INSTANCE_PREFIX), 10, 1, G_MAXINT32, &pid, NULL)
          || kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      struct tracefs_instance *old = tracefs_instance_alloc (NULL, name);
      if (old != NULL)
        {
          tracefs_instance_destroy (old);
          tracefs_instance_free (old);
        }
    }
}

static gboolean
wanted (const IochartRecorderOptions *o, const Event *e)
{
  switch (e->what)
    {
    case WANT_FULL:
      return !o->block_only;
    case WANT_SCHED:
      return o->sched;
    default:
      return TRUE;
    }
}

static char *
device_filter (const IochartRecorderOptions *o)
{
  GString *f = g_string_new (NULL);

  for (guint i = 0; i < o->n_devices; i++)
    g_string_append_printf (f, "%sdev == %u", i ? " || " : "", o->devices[i]);
  return g_string_free (f, FALSE);
}

static void
enable_events (IochartRecorder *self, const IochartRecorderOptions *o)
{
  g_autofree char *filter = o->n_devices > 0 ? device_filter (o) : NULL;

  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      const Event *e = &events[i];
      if (!wanted (o, e))
        continue;
      if (tracefs_event_enable (self->inst, e->system, e->name) != 0)
        {
          g_ptr_array_add (self->missing, g_strdup_printf ("%s:%s", e->system, e->name));
          continue;
        }
      g_ptr_array_add (self->metadata, g_strdup_printf ("%s/%s", e->system, e->name));
      if (filter != NULL && strcmp (e->system, "block") == 0)
        {
          g_autofree char *file = g_strdup_printf ("events/block/%s/filter", e->name);
          tracefs_instance_file_write (self->inst, file, filter);
        }
    }
  g_autofree char *format = tracefs_event_file_read (self->inst, "block", "block_rq_issue",
                                                     "format", NULL);
  if (format != NULL && strstr (format, " ioprio;") == NULL)
    g_ptr_array_add (self->missing, g_strdup ("the ioprio field of block requests (Linux 6.11 "
                                              "and later): classes come from ioprio_set and fork"));
}

IochartRecorder *
iochart_recorder_new (const IochartRecorderOptions *options, GError **error)
{
  static const IochartRecorderOptions defaults = { .sched = TRUE };
  const IochartRecorderOptions *o = options ? options : &defaults;
  g_autoptr(IochartRecorder) self = NULL;
  g_autofree char *name = g_strdup_printf (INSTANCE_PREFIX "%d", (int) getpid ());
  g_autofree char *kb = g_strdup_printf ("%u", o->buffer_kb ? o->buffer_kb : 16384);

  if (!ensure_tracefs (error))
    return NULL;
  remove_stale_instances ();
  self = g_new0 (IochartRecorder, 1);
  self->missing = g_ptr_array_new_with_free_func (g_free);
  self->metadata = g_ptr_array_new_with_free_func (g_free);
  self->inst = tracefs_instance_create (name);
  if (self->inst == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "cannot create the tracefs instance '%s': %s", name, g_strerror (errno));
      return NULL;
    }
  tracefs_trace_off (self->inst);
  tracefs_instance_file_write (self->inst, "buffer_size_kb", kb);
  tracefs_instance_file_write (self->inst, "trace_clock", "mono");
  enable_events (self, o);
  g_ptr_array_add (self->missing, NULL);
  g_ptr_array_add (self->metadata, NULL);

  self->n_cpus = sysconf (_SC_NPROCESSORS_CONF);
  self->page_size = getpagesize ();
  self->dat = iochart_dat_writer_new (self->n_cpus, self->page_size);
  if (!iochart_dat_writer_add_tracefs_metadata (self->dat, (const char * const *) self->metadata->pdata,
                                                FALSE, error))
    return NULL;
  g_autofree char *clock = tracefs_instance_file_read (self->inst, "trace_clock", NULL);
  if (clock != NULL)
    iochart_dat_writer_set_trace_clock (self->dat, clock);
  self->page = g_malloc (self->page_size);
  self->cpus = g_new0 (struct tracefs_cpu *, self->n_cpus);
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    self->cpus[cpu] = tracefs_cpu_open (self->inst, cpu, true);
  return g_steal_pointer (&self);
}

static void
remove_instance (IochartRecorder *self)
{
  if (self->inst == NULL)
    return;
  tracefs_trace_off (self->inst);
  for (guint cpu = 0; self->cpus != NULL && cpu < self->n_cpus; cpu++)
    g_clear_pointer (&self->cpus[cpu], tracefs_cpu_close);
  tracefs_instance_destroy (self->inst);
  g_clear_pointer (&self->inst, tracefs_instance_free);
}

void
iochart_recorder_free (IochartRecorder *self)
{
  if (self == NULL)
    return;
  remove_instance (self);
  g_free (self->cpus);
  g_free (self->page);
  g_clear_pointer (&self->dat, iochart_dat_writer_free);
  g_ptr_array_unref (self->missing);
  g_ptr_array_unref (self->metadata);
  g_free (self);
}

const char * const *
iochart_recorder_get_missing (IochartRecorder *self)
{
  return (const char * const *) self->missing->pdata;
}

guint
iochart_recorder_get_n_cpus (IochartRecorder *self)
{
  return self->n_cpus;
}

guint
iochart_recorder_get_page_size (IochartRecorder *self)
{
  return self->page_size;
}

const char *
iochart_recorder_get_tracing_dir (IochartRecorder *self)
{
  return tracefs_tracing_dir ();
}

void
iochart_recorder_set_page_func (IochartRecorder *self, IochartRecorderPageFunc func, gpointer user_data)
{
  self->page_func = func;
  self->page_data = user_data;
}

void
iochart_recorder_start (IochartRecorder *self)
{
  g_return_if_fail (self->inst != NULL);
  tracefs_trace_on (self->inst);
}

static gboolean
take_pages (IochartRecorder *self, gboolean flush, GError **error)
{
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      if (self->cpus[cpu] == NULL)
        continue;
      while ((flush ? tracefs_cpu_flush (self->cpus[cpu], self->page)
                    : tracefs_cpu_read (self->cpus[cpu], self->page, true)) > 0)
        {
          if (!iochart_dat_writer_add_pages (self->dat, cpu, self->page, self->page_size, error))
            return FALSE;
          if (self->page_func != NULL)
            self->page_func (cpu, self->page, self->page_size, self->page_data);
        }
    }
  return TRUE;
}

gboolean
iochart_recorder_drain (IochartRecorder *self, GError **error)
{
  return self->inst == NULL || take_pages (self, FALSE, error);
}

/* "overrun: 12" in a per_cpu/cpuN/stats text; 0 when absent. */
static guint64
stat_value (const char *text, const char *key)
{
  const char *p = text ? strstr (text, key) : NULL;

  return p != NULL ? g_ascii_strtoull (p + strlen (key), NULL, 10) : 0;
}

static char *
cpu_stats_text (IochartRecorder *self, guint cpu)
{
  g_autofree char *file = g_strdup_printf ("per_cpu/cpu%u/stats", cpu);

  return self->inst != NULL ? tracefs_instance_file_read (self->inst, file, NULL) : NULL;
}

static guint64
lost_in (const char *stats)
{
  return stat_value (stats, "\noverrun: ") + stat_value (stats, "\ncommit overrun: ")
         + stat_value (stats, "\ndropped events: ");
}

void
iochart_recorder_get_stats (IochartRecorder *self, IochartRecorderStats *stats)
{
  if (self->stopped)
    {
      *stats = self->final;
      return;
    }
  memset (stats, 0, sizeof *stats);
  stats->n_cpus = self->n_cpus;
  stats->bytes = iochart_dat_writer_get_data_size (self->dat);
  for (guint cpu = 0; cpu < self->n_cpus && self->inst != NULL; cpu++)
    {
      g_autofree char *text = cpu_stats_text (self, cpu);
      /* the stats file starts with "entries:"; a newline in front lets every key match alike */
      g_autofree char *lined = g_strconcat ("\n", text ? text : "", NULL);
      guint64 lost = lost_in (lined);
      stats->entries += stat_value (lined, "\nentries: ") + stat_value (lined, "\nread events: ");
      stats->lost += lost;
      if (cpu < G_N_ELEMENTS (stats->lost_per_cpu))
        stats->lost_per_cpu[cpu] = lost;
    }
}

gboolean
iochart_recorder_stop (IochartRecorder *self, GError **error)
{
  gboolean ok;

  if (self->inst == NULL)
    return TRUE;
  tracefs_trace_off (self->inst);
  ok = take_pages (self, FALSE, error) && take_pages (self, TRUE, error);
  for (guint cpu = 0; cpu < self->n_cpus; cpu++)
    {
      g_autofree char *text = cpu_stats_text (self, cpu);
      if (text != NULL)
        iochart_dat_writer_set_cpu_stats (self->dat, cpu, text);
    }
  iochart_recorder_get_stats (self, &self->final);
  remove_instance (self);
  self->stopped = TRUE;
  return ok;
}

gboolean
iochart_recorder_write (IochartRecorder *self, const char *path, GError **error)
{
  g_return_val_if_fail (self->stopped, FALSE);
  return iochart_dat_writer_write (self->dat, path, error);
}
