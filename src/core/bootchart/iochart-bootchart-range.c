/* iochart-bootchart-range.c: per-process, per-disk and CPU figures of a boot chart in a time range */
#include <glib/gi18n-lib.h>
#include "iochart-bootchart-range.h"
#include "iochart-bootchart-private.h"
#include "iochart-format.h"
#include <math.h>

/* proc_ps.log counts CPU time in clock ticks of USER_HZ 100, as the parser reads it */
#define NS_PER_TICK 1e7

/* How much of [a, b] lies in [from, to]. */
static gint64
overlap (gint64 a, gint64 b, gint64 from, gint64 to)
{
  return MAX (MIN (b, to) - MAX (a, from), 0);
}

static int
gint64_cmp (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The times of proc_ps.log's samples: a process's first sample counts its CPU since the one
 * before, whether or not it was listed then. */
static GArray *
sample_times (IochartBootchart *bc)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  GArray *times = g_array_new (FALSE, FALSE, sizeof (gint64));
  GPtrArray *all = iochart_bootchart_get_processes (bc);

  for (guint i = 0; i < all->len; i++)
    {
      const IochartBootchartProcess *p = g_ptr_array_index (all, i);
      for (guint k = 0; k < p->samples->len; k++)
        {
          const gint64 *t = &g_array_index (p->samples, IochartBootchartProcSample, k).time_ns;
          if (g_hash_table_add (seen, (gpointer) t))
            g_array_append_val (times, *t);
        }
    }
  g_array_sort (times, gint64_cmp);
  return times;
}

/* The sample time before t (t itself when it is the first). */
static gint64
time_before (GArray *times, gint64 t)
{
  guint lo = 0, hi = times->len;

  while (lo < hi)   /* the first index whose time is >= t */
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (times, gint64, mid) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? g_array_index (times, gint64, lo - 1) : t;
}

typedef struct {
  IochartBootchartRangeProcess *rp;
  gint64 from, to;
} SplitWalk;

static void
add_state (gint64 start_ns, gint64 end_ns, IochartTaskState state, gpointer data)
{
  SplitWalk *w = data;
  gint64 ns = overlap (start_ns, end_ns, w->from, w->to);
  IochartSplitKind kind;

  switch (state)
    {
    case IOCHART_TASK_RUNNING: kind = IOCHART_SPLIT_RUNNING; break;
    case IOCHART_TASK_RUNNABLE: kind = IOCHART_SPLIT_RUNNABLE; break;
    case IOCHART_TASK_UNINTERRUPTIBLE: kind = IOCHART_SPLIT_OTHER_D; break;
    case IOCHART_TASK_SLEEPING: kind = IOCHART_SPLIT_SLEEP; break;
    default: return;   /* gone */
    }
  w->rp->split.ns[kind] += ns;
  w->rp->split.life_ns += ns;
}

static gboolean
process_figures (IochartBootchart *bc, const IochartBootchartProcess *p, GArray *times, gint64 from, gint64 to,
                 IochartBootchartRangeProcess *rp)
{
  SplitWalk w = { rp, from, to };
  double cpu = 0;

  *rp = (IochartBootchartRangeProcess) { .process = p };
  if (p->samples->len == 0 || p->start_ns >= to || p->start_ns + p->duration_ns < from)
    return FALSE;
  for (guint k = 0; k < p->samples->len; k++)
    {
      const IochartBootchartProcSample *s = &g_array_index (p->samples, IochartBootchartProcSample, k);
      gint64 prev = k > 0 ? s[-1].time_ns : time_before (times, s->time_ns);

      if (s->time_ns > prev)
        {
          /* proc_ps.log's rates came from whole ticks: the interval's CPU is a whole number of them
           * (taskstats counts nanoseconds) */
          double tick = bc->taskstats_only ? 1 : NS_PER_TICK;
          double used = round ((double) (s->user + s->sys) * (s->time_ns - prev) / tick) * tick;
          cpu += used * overlap (prev, s->time_ns, from, to) / (s->time_ns - prev);
        }
    }
  rp->cpu_ns = (gint64) (cpu + 0.5);
  _iochart_bootchart_process_states (p, iochart_bootchart_get_end_ns (bc), add_state, &w);
  rp->d_state_ns = rp->split.ns[IOCHART_SPLIT_OTHER_D];
  return rp->split.life_ns > 0 || rp->cpu_ns > 0;
}

static gboolean
is_busy (const IochartBootchartRangeProcess *rp)
{
  return rp->cpu_ns > 0 || rp->split.life_ns > rp->split.ns[IOCHART_SPLIT_SLEEP];
}

static void
disk_figures (IochartBootchart *bc, const IochartBootchartDisk *d, gint64 from, gint64 to,
              IochartBootchartRangeDisk *rd)
{
  double read = 0, written = 0, busy = 0, span_s = (to - from) / 1e9;
  gint64 prev = iochart_bootchart_get_start_ns (bc);

  for (guint k = 0; k < d->samples->len; k++)
    {
      const IochartBootchartDiskSample *s = &g_array_index (d->samples, IochartBootchartDiskSample, k);
      double o = overlap (prev, s->time_ns, from, to) / 1e9;

      read += s->read_bytes_per_s * o;
      written += s->write_bytes_per_s * o;
      busy += s->util * o;
      prev = s->time_ns;
    }
  *rd = (IochartBootchartRangeDisk) {
    .disk = d, .read_bytes = (guint64) (read + 0.5), .written_bytes = (guint64) (written + 0.5),
    .read_bytes_per_s = read / span_s, .write_bytes_per_s = written / span_s, .util = busy / span_s,
  };
}

static void
cpu_figures (IochartBootchart *bc, IochartBootchartRange *r)
{
  GArray *cpu = iochart_bootchart_get_cpu_samples (bc);
  gint64 prev = iochart_bootchart_get_start_ns (bc);
  double span = r->to_ns - r->from_ns;

  for (guint k = 0; k < cpu->len; k++)
    {
      const IochartBootchartCpuSample *s = &g_array_index (cpu, IochartBootchartCpuSample, k);
      double o = overlap (prev, s->time_ns, r->from_ns, r->to_ns) / span;

      r->cpu_user += s->user * o;
      r->cpu_sys += s->sys * o;
      r->cpu_iowait += s->iowait * o;
      prev = s->time_ns;
    }
}

static int
cmp_process (gconstpointer a, gconstpointer b)
{
  const IochartBootchartRangeProcess *x = a, *y = b;

  if (x->cpu_ns != y->cpu_ns)
    return (x->cpu_ns < y->cpu_ns) - (x->cpu_ns > y->cpu_ns);
  if (x->d_state_ns != y->d_state_ns)
    return (x->d_state_ns < y->d_state_ns) - (x->d_state_ns > y->d_state_ns);
  return (x->process->pid > y->process->pid) - (x->process->pid < y->process->pid);
}

IochartBootchartRange *
iochart_bootchart_range_new (IochartBootchart *bc, gint64 from_ns, gint64 to_ns)
{
  IochartBootchartRange *r;
  GPtrArray *all, *disks;
  g_autoptr(GArray) times = NULL;

  g_return_val_if_fail (IOCHART_IS_BOOTCHART (bc), NULL);
  if (from_ns == IOCHART_TIME_UNKNOWN || from_ns < iochart_bootchart_get_start_ns (bc))
    from_ns = iochart_bootchart_get_start_ns (bc);
  if (to_ns == IOCHART_TIME_UNKNOWN || to_ns > iochart_bootchart_get_end_ns (bc))
    to_ns = iochart_bootchart_get_end_ns (bc);
  if (from_ns >= to_ns)
    return NULL;
  r = g_new0 (IochartBootchartRange, 1);
  r->from_ns = from_ns;
  r->to_ns = to_ns;
  r->processes = g_array_new (FALSE, FALSE, sizeof (IochartBootchartRangeProcess));
  r->disks = g_array_new (FALSE, FALSE, sizeof (IochartBootchartRangeDisk));
  cpu_figures (bc, r);
  disks = iochart_bootchart_get_disks (bc);
  g_array_set_size (r->disks, disks->len);
  for (guint i = 0; i < disks->len; i++)
    disk_figures (bc, g_ptr_array_index (disks, i), from_ns, to_ns,
                  &g_array_index (r->disks, IochartBootchartRangeDisk, i));
  times = sample_times (bc);
  all = iochart_bootchart_get_processes (bc);
  for (guint i = 0; i < all->len; i++)
    {
      IochartBootchartRangeProcess rp;

      if (!process_figures (bc, g_ptr_array_index (all, i), times, from_ns, to_ns, &rp))
        continue;
      if (is_busy (&rp))
        g_array_append_val (r->processes, rp);
      else
        r->n_asleep++;
    }
  g_array_sort (r->processes, cmp_process);
  return r;
}

void
iochart_bootchart_range_free (IochartBootchartRange *r)
{
  if (r == NULL)
    return;
  g_array_unref (r->processes);
  g_array_unref (r->disks);
  g_free (r);
}

IochartSteal *
iochart_bootchart_range_steal (IochartBootchart *bc, IochartCapture *io, gint64 offset_ns, gint64 from_ns,
                               gint64 to_ns)
{
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;

  g_return_val_if_fail (IOCHART_IS_BOOTCHART (bc), NULL);
  g_return_val_if_fail (io != NULL, NULL);
  so.device = iochart_bootchart_io_device (bc, io);
  if (so.device < 0)
    return NULL;
  so.from_ns = from_ns - offset_ns;
  so.to_ns = to_ns - offset_ns;
  return iochart_steal_new (io, &so);
}

static guint
n_shown (const IochartBootchartRange *r, guint top)
{
  return top == 0 ? r->processes->len : MIN (top, r->processes->len);
}

char *
iochart_bootchart_range_disk_text (const IochartBootchartRangeDisk *d, gboolean translated)
{
  static const char *format = N_("%s: %s read (%s/s), %s written (%s/s), %.1f%% busy");
  g_autofree char *rb = iochart_format_bytes (d->read_bytes), *wb = iochart_format_bytes (d->written_bytes);
  g_autofree char *rs = iochart_format_bytes (d->read_bytes_per_s);
  g_autofree char *ws = iochart_format_bytes (d->write_bytes_per_s);

  /* `info` prints English whatever the locale: scripts read it */
  return g_strdup_printf (translated ? g_dgettext (GETTEXT_PACKAGE, format) : format, d->disk->name, rb, rs, wb, ws,
                          100 * d->util);
}

void
iochart_bootchart_range_print (const IochartBootchartRange *r, guint top, GString *out)
{
  g_autofree char *span = iochart_format_duration (r->to_ns - r->from_ns);
  guint n = n_shown (r, top);

  g_string_append_printf (out, "range: %.3f s to %.3f s after boot (%s)\n", r->from_ns / 1e9, r->to_ns / 1e9, span);
  g_string_append_printf (out, "  %-15s user %.1f%%, system %.1f%%, I/O wait %.1f%%\n", "cpu:",
                          100 * r->cpu_user, 100 * r->cpu_sys, 100 * r->cpu_iowait);
  for (guint i = 0; i < r->disks->len; i++)
    {
      g_autofree char *line = iochart_bootchart_range_disk_text (&g_array_index (r->disks, IochartBootchartRangeDisk, i),
                                                                 FALSE);

      g_string_append_printf (out, "  %-15s %s\n", i == 0 ? "disks:" : "", line);
    }
  if (n == 0)
    {
      g_string_append_printf (out, "  no process ran or waited in this range (%u asleep)\n", r->n_asleep);
      return;
    }
  g_string_append_printf (out, "  %-32s %10s %10s %10s %10s %10s %10s\n", "process (most CPU first)", "cpu", "D state",
                          "running", "runnable", "in D", "asleep");
  for (guint i = 0; i < n; i++)
    {
      const IochartBootchartRangeProcess *p = &g_array_index (r->processes, IochartBootchartRangeProcess, i);
      g_autofree char *name = g_strdup_printf ("%s[%d]", p->process->cmd ? p->process->cmd : "?", p->process->pid);
      g_autofree char *cpu = iochart_format_duration (p->cpu_ns), *d = iochart_format_duration (p->d_state_ns);
      char *k[IOCHART_N_SPLITS];

      for (guint s = 0; s < IOCHART_N_SPLITS; s++)
        k[s] = iochart_format_duration (p->split.ns[s]);
      g_string_append_printf (out, "  %-32s %10s %10s %10s %10s %10s %10s\n", name, cpu, d, k[IOCHART_SPLIT_RUNNING],
                              k[IOCHART_SPLIT_RUNNABLE], k[IOCHART_SPLIT_OTHER_D], k[IOCHART_SPLIT_SLEEP]);
      for (guint s = 0; s < IOCHART_N_SPLITS; s++)
        g_free (k[s]);
    }
  if (n < r->processes->len)
    g_string_append_printf (out, "  (%u more: --all lists them)\n", r->processes->len - n);
  g_string_append_printf (out, "  (%u more asleep all the range)\n", r->n_asleep);
}

static void
member_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
member_double (JsonBuilder *b, const char *name, double v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_double_value (b, v);
}

void
iochart_bootchart_range_to_json (const IochartBootchartRange *r, guint top, JsonBuilder *b)
{
  json_builder_begin_object (b);
  member_int (b, "from_ns", r->from_ns);
  member_int (b, "to_ns", r->to_ns);
  member_int (b, "n_asleep", r->n_asleep);
  json_builder_set_member_name (b, "cpu");
  json_builder_begin_object (b);
  member_double (b, "user", r->cpu_user);
  member_double (b, "sys", r->cpu_sys);
  member_double (b, "iowait", r->cpu_iowait);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "disks");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->disks->len; i++)
    {
      const IochartBootchartRangeDisk *d = &g_array_index (r->disks, IochartBootchartRangeDisk, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, d->disk->name);
      member_int (b, "read_bytes", d->read_bytes);
      member_int (b, "written_bytes", d->written_bytes);
      member_double (b, "read_bytes_per_s", d->read_bytes_per_s);
      member_double (b, "write_bytes_per_s", d->write_bytes_per_s);
      member_double (b, "util", d->util);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_shown (r, top); i++)
    {
      const IochartBootchartRangeProcess *p = &g_array_index (r->processes, IochartBootchartRangeProcess, i);

      json_builder_begin_object (b);
      member_int (b, "pid", p->process->pid);
      json_builder_set_member_name (b, "cmd");
      json_builder_add_string_value (b, p->process->cmd);
      member_int (b, "start_ns", p->process->start_ns);
      member_int (b, "cpu_ns", p->cpu_ns);
      member_int (b, "d_state_ns", p->d_state_ns);
      json_builder_set_member_name (b, "split");
      iochart_time_split_to_json (&p->split, b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}
