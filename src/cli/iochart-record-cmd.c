/* iochart-record-cmd.c: `iochart record --bootchart -o OUT [--duration S | --until-idle] [--hz N]`
 *
 * Samples /proc as bootchartd does (stat, diskstats, meminfo, every /proc/PID/stat, command
 * lines) into bootchart logs, and records block and sched events in a private tracefs instance
 * into events.dat (trace-cmd .dat v6), all in the folder OUT, or in the archive OUT when it ends
 * in .tgz. Timestamps: uptime in centiseconds for the logs, the tracefs "mono" clock for the
 * events: the same clock while the machine does not suspend.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <archive.h>
#include <archive_entry.h>
#include <tracefs.h>
#include <glib/gstdio.h>

#include "iochart-cli-private.h"
#include "readers/iochart-dat-writer.h"

static volatile sig_atomic_t stop_requested;

static void
on_signal (int sig)
{
  stop_requested = 1;
}

typedef struct {
  GString *stat, *diskstats, *meminfo, *ps, *cmdline;
  GHashTable *seen_cmdline;      /* pids whose command line is logged */
  struct tracefs_instance *inst;
  struct tracefs_cpu **cpus;
  int n_cpus;
  IochartDatWriter *dat;
  guint8 *page;
  guint64 last_busy[2];          /* cpu busy and total ticks, for --until-idle */
  guint64 last_sectors;
} Recorder;

static const char * const block_events[] = {
  "block_rq_issue", "block_rq_complete", "block_rq_insert", "block_bio_queue",
  "block_rq_merge", "block_bio_backmerge",
};
static const char * const sched_events[] = {
  "sched_process_fork", "sched_process_exec", "sched_process_exit",
};

static gint64
uptime_cs (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_BOOTTIME, &ts);
  return ts.tv_sec * 100 + ts.tv_nsec / 10000000;
}

static void
append_file (GString *out, const char *path)
{
  g_autofree char *text = NULL;
  gsize len;
  if (g_file_get_contents (path, &text, &len, NULL))
    g_string_append_len (out, text, len);
}

static void
log_cmdline (Recorder *r, const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/cmdline", pid);
  g_autofree char *exe_path = g_strdup_printf ("/proc/%s/exe", pid);
  g_autofree char *args = NULL;
  g_autofree char *exe = g_file_read_link (exe_path, NULL);
  gsize len = 0;

  if (!g_file_get_contents (path, &args, &len, NULL) || len == 0)
    return;   /* kernel threads: no command line, keep trying is pointless but cheap */
  g_hash_table_add (r->seen_cmdline, g_strdup (pid));
  g_string_append_printf (r->cmdline, "%s\n:%s\n:", pid, exe ? exe : "");
  g_string_append_len (r->cmdline, args, len);
  g_string_append (r->cmdline, "\n\n");
}

static void
sample (Recorder *r)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  gint64 t = uptime_cs ();

  g_string_append_printf (r->stat, "%" G_GINT64_FORMAT "\n", t);
  append_file (r->stat, "/proc/stat");
  g_string_append_c (r->stat, '\n');
  g_string_append_printf (r->diskstats, "%" G_GINT64_FORMAT "\n", t);
  append_file (r->diskstats, "/proc/diskstats");
  g_string_append_c (r->diskstats, '\n');
  g_string_append_printf (r->meminfo, "%" G_GINT64_FORMAT "\n", t);
  append_file (r->meminfo, "/proc/meminfo");
  g_string_append_c (r->meminfo, '\n');

  g_string_append_printf (r->ps, "%" G_GINT64_FORMAT "\n", t);
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      if (!g_ascii_isdigit (name[0]))
        continue;
      g_autofree char *path = g_strdup_printf ("/proc/%s/stat", name);
      append_file (r->ps, path);
      if (!g_hash_table_contains (r->seen_cmdline, name))
        log_cmdline (r, name);
    }
  g_string_append_c (r->ps, '\n');
}

/* Moves the full pages of the ring buffers to the writer, so a long boot does not overrun. */
static void
drain (Recorder *r, gboolean flush)
{
  int page_size = getpagesize ();
  for (int cpu = 0; cpu < r->n_cpus; cpu++)
    {
      if (r->cpus[cpu] == NULL)
        continue;
      while ((flush ? tracefs_cpu_flush (r->cpus[cpu], r->page)
                    : tracefs_cpu_read (r->cpus[cpu], r->page, true)) > 0)
        iochart_dat_writer_add_pages (r->dat, cpu, r->page, page_size, NULL);
    }
}

static gboolean
start_tracing (Recorder *r, GError **error)
{
  g_autofree char *name = g_strdup_printf ("iochart-record-%d", getpid ());
  const char *systems[] = { "block", "sched", NULL };

  if (tracefs_tracing_dir () == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
      return FALSE;
    }
  r->inst = tracefs_instance_create (name);
  if (r->inst == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "cannot create the tracefs instance '%s': %s", name, g_strerror (errno));
      return FALSE;
    }
  tracefs_trace_off (r->inst);
  tracefs_instance_file_write (r->inst, "buffer_size_kb", "8192");
  tracefs_instance_file_write (r->inst, "trace_clock", "mono");
  for (guint i = 0; i < G_N_ELEMENTS (block_events); i++)
    tracefs_event_enable (r->inst, "block", block_events[i]);
  for (guint i = 0; i < G_N_ELEMENTS (sched_events); i++)
    tracefs_event_enable (r->inst, "sched", sched_events[i]);

  r->n_cpus = sysconf (_SC_NPROCESSORS_CONF);
  r->dat = iochart_dat_writer_new (r->n_cpus, getpagesize ());
  if (!iochart_dat_writer_add_tracefs_metadata (r->dat, systems, FALSE, error))
    return FALSE;
  g_autofree char *clock = tracefs_instance_file_read (r->inst, "trace_clock", NULL);
  if (clock != NULL)
    iochart_dat_writer_set_trace_clock (r->dat, clock);
  r->page = g_malloc (getpagesize ());
  r->cpus = g_new0 (struct tracefs_cpu *, r->n_cpus);
  for (int cpu = 0; cpu < r->n_cpus; cpu++)
    r->cpus[cpu] = tracefs_cpu_open (r->inst, cpu, true);
  tracefs_trace_on (r->inst);
  return TRUE;
}

static void
stop_tracing (Recorder *r)
{
  if (r->inst == NULL)
    return;
  tracefs_trace_off (r->inst);
  if (r->dat != NULL)
    drain (r, TRUE);
  for (int cpu = 0; r->cpus && cpu < r->n_cpus; cpu++)
    if (r->cpus[cpu] != NULL)
      tracefs_cpu_close (r->cpus[cpu]);
  g_clear_pointer (&r->cpus, g_free);
  tracefs_instance_destroy (r->inst);
  tracefs_instance_free (r->inst);
  r->inst = NULL;
}

/* Busy CPU share and sectors moved since the last call: the boot is done when both rest. */
static gboolean
is_idle (Recorder *r)
{
  g_autofree char *stat = NULL, *disk = NULL;
  guint64 v[8] = { 0 }, total = 0, sectors = 0;
  gboolean idle;

  if (g_file_get_contents ("/proc/stat", &stat, NULL, NULL))
    sscanf (stat, "cpu %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
            " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
            &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
  for (int i = 0; i < 7; i++)
    total += v[i];
  guint64 busy = total - v[3] - v[4];
  if (g_file_get_contents ("/proc/diskstats", &disk, NULL, NULL))
    {
      g_auto(GStrv) lines = g_strsplit (disk, "\n", -1);
      for (char **l = lines; *l; l++)
        {
          char dev[64];
          guint64 rs = 0, ws = 0;
          if (sscanf (*l, "%*u %*u %63s %*u %*u %" G_GUINT64_FORMAT " %*u %*u %*u %" G_GUINT64_FORMAT,
                      dev, &rs, &ws) == 3)
            sectors += rs + ws;
        }
    }
  double share = total > r->last_busy[1]
                 ? (double) (busy - r->last_busy[0]) / (total - r->last_busy[1]) : 1.0;
  idle = r->last_busy[1] != 0 && share < 0.10 && sectors == r->last_sectors;
  r->last_busy[0] = busy;
  r->last_busy[1] = total;
  r->last_sectors = sectors;
  return idle;
}

static char *
make_header (void)
{
  GString *h = g_string_new ("version = iochart " PACKAGE_VERSION "\n");
  struct utsname u;
  g_autofree char *cmdline = NULL, *cpuinfo = NULL;
  g_autofree char *host = g_strdup (g_get_host_name ());
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%c");
  const char *model = "unknown";
  g_autofree char *model_line = NULL;

  g_string_append_printf (h, "title = Boot chart for %s (%s)\n", host, date);
  if (uname (&u) == 0)
    g_string_append_printf (h, "system.uname = %s %s %s %s\n", u.sysname, u.release, u.version,
                            u.machine);
  g_autofree char *pretty = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  if (pretty != NULL)
    g_string_append_printf (h, "system.release = %s\n", pretty);
  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL))
    {
      const char *m = strstr (cpuinfo, "model name");
      if (m != NULL)
        {
          const char *colon = strchr (m, ':');
          model_line = g_strndup (colon + 2, strcspn (colon + 2, "\n"));
          model = model_line;
        }
    }
  g_string_append_printf (h, "system.cpu = model name : %s (%ld)\n", model,
                          sysconf (_SC_NPROCESSORS_ONLN));
  if (g_file_get_contents ("/proc/cmdline", &cmdline, NULL, NULL))
    g_string_append_printf (h, "system.kernel.options = %s", cmdline);
  return g_string_free (h, FALSE);
}

typedef struct {
  const char *name;
  const char *data;
  gsize len;
} Member;

static gboolean
write_bundle (const char *out, const Member *members, guint n, const char *dat_path,
              GError **error)
{
  if (!g_str_has_suffix (out, ".tgz") && !g_str_has_suffix (out, ".tar.gz"))
    {
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *path = g_build_filename (out, members[i].name, NULL);
          g_autoptr(GError) local = NULL;
          if (!g_file_set_contents (path, members[i].data, members[i].len, &local))
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, local->message);
              return FALSE;
            }
        }
      return TRUE;
    }

  struct archive *a = archive_write_new ();
  g_autofree char *dat = NULL;
  gsize dat_len = 0;
  archive_write_add_filter_gzip (a);
  archive_write_set_format_pax_restricted (a);
  if (archive_write_open_filename (a, out) != ARCHIVE_OK)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", out, archive_error_string (a));
      archive_write_free (a);
      return FALSE;
    }
  for (guint i = 0; i <= n; i++)
    {
      const char *name = i < n ? members[i].name : "events.dat";
      const char *data = i < n ? members[i].data : NULL;
      gsize len = i < n ? members[i].len : 0;
      if (i == n && (dat_path == NULL || !g_file_get_contents (dat_path, &dat, &dat_len, NULL)))
        break;
      if (i == n)
        data = dat, len = dat_len;
      struct archive_entry *e = archive_entry_new ();
      archive_entry_set_pathname (e, name);
      archive_entry_set_size (e, len);
      archive_entry_set_filetype (e, AE_IFREG);
      archive_entry_set_perm (e, 0644);
      archive_entry_set_mtime (e, time (NULL), 0);
      archive_write_header (a, e);
      archive_write_data (a, data, len);
      archive_entry_free (e);
    }
  archive_write_close (a);
  archive_write_free (a);
  return TRUE;
}

int
iochart_record_command (int argc, char **argv)
{
  gboolean bootchart = FALSE, until_idle = FALSE, no_events = FALSE;
  char *out = NULL;
  double duration = 0;
  int hz = 10;
  GOptionEntry entries[] = {
    { "bootchart", 0, 0, G_OPTION_ARG_NONE, &bootchart, "Record a boot chart (/proc samples and block events)", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Folder, or .tgz archive, to write", "OUT" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after S seconds (default 60)", "S" },
    { "until-idle", 0, 0, G_OPTION_ARG_NONE, &until_idle, "Stop once CPU and disks rest for 2 s", NULL },
    { "hz", 0, 0, G_OPTION_ARG_INT, &hz, "Samples per second (default 10)", "N" },
    { "no-events", 0, 0, G_OPTION_ARG_NONE, &no_events, "Do not record block/sched events", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("--bootchart -o OUT");
  g_autoptr(GError) error = NULL;
  g_autofree char *dat_path = NULL, *tmp_dir = NULL, *header = NULL;
  Recorder r = { 0 };
  int rc = IOCHART_EXIT_OK;

  g_option_context_set_summary (context, "Record a boot (or any period) as a bootchart bundle.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    goto usage;
  if (!bootchart || out == NULL || hz < 1 || hz > 1000 || duration < 0
      || (duration > 0 && until_idle))
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "usage: iochart record --bootchart -o OUT [--duration S | --until-idle] [--hz N]");
      goto usage;
    }
  if (duration == 0 && !until_idle)
    duration = 60;

  gboolean archive = g_str_has_suffix (out, ".tgz") || g_str_has_suffix (out, ".tar.gz");
  if (!archive && g_mkdir_with_parents (out, 0755) != 0)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", out, g_strerror (errno));
      goto usage;
    }
  if (archive)
    {
      tmp_dir = g_dir_make_tmp ("iochart-record-XXXXXX", &error);
      if (tmp_dir == NULL)
        goto usage;
    }
  dat_path = g_build_filename (archive ? tmp_dir : out, "events.dat", NULL);

  r.stat = g_string_new (NULL);
  r.diskstats = g_string_new (NULL);
  r.meminfo = g_string_new (NULL);
  r.ps = g_string_new (NULL);
  r.cmdline = g_string_new (NULL);
  r.seen_cmdline = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!no_events && !start_tracing (&r, &error))
    {
      stop_tracing (&r);
      rc = iochart_cli_report_error (error);
      goto out;
    }

  signal (SIGINT, on_signal);
  signal (SIGTERM, on_signal);
  gint64 start = g_get_monotonic_time (), idle_since = 0;
  gint64 step = G_USEC_PER_SEC / hz;
  for (gint64 next = start; !stop_requested; next += step)
    {
      sample (&r);
      if (r.inst != NULL)
        drain (&r, FALSE);
      gint64 now = g_get_monotonic_time ();
      if (duration > 0 && now - start >= duration * G_USEC_PER_SEC)
        break;
      if (until_idle)
        {
          if (!is_idle (&r))
            idle_since = 0;
          else if (idle_since == 0)
            idle_since = now;
          else if (now - idle_since >= 2 * G_USEC_PER_SEC && now - start >= G_USEC_PER_SEC)
            break;
        }
      if (next + step > now)
        g_usleep (next + step - now);
      else
        next = now;
    }
  stop_tracing (&r);

  header = make_header ();
  Member members[] = {
    { "header", header, strlen (header) },
    { "proc_stat.log", r.stat->str, r.stat->len },
    { "proc_diskstats.log", r.diskstats->str, r.diskstats->len },
    { "proc_meminfo.log", r.meminfo->str, r.meminfo->len },
    { "proc_ps.log", r.ps->str, r.ps->len },
    { "cmdline2.log", r.cmdline->str, r.cmdline->len },
  };
  if (r.dat != NULL && !iochart_dat_writer_write (r.dat, dat_path, &error))
    rc = iochart_cli_report_error (error);
  else if (!write_bundle (out, members, G_N_ELEMENTS (members), r.dat ? dat_path : NULL, &error))
    rc = iochart_cli_report_error (error);
  else
    fprintf (stderr, "iochart: wrote '%s'\n", out);

out:
  if (tmp_dir != NULL)
    {
      g_remove (dat_path);
      g_rmdir (tmp_dir);
    }
  g_clear_pointer (&r.dat, iochart_dat_writer_free);
  g_free (r.page);
  if (r.stat)
    {
      g_string_free (r.stat, TRUE);
      g_string_free (r.diskstats, TRUE);
      g_string_free (r.meminfo, TRUE);
      g_string_free (r.ps, TRUE);
      g_string_free (r.cmdline, TRUE);
      g_hash_table_unref (r.seen_cmdline);
    }
  g_free (out);
  return rc;

usage:
  g_free (out);
  return iochart_cli_report_error (error);
}
