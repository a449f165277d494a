/* iochart-bootchart-chart.c: the layout of the boot chart */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <archive.h>
#include <archive_entry.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include "iochart-output.h"
#include "iochart-format.h"
#include "render/iochart-blocks.h"

#include "iochart-bootchart-chart.h"
#include "iochart-error.h"
#include "iochart-loader.h"
#include "analysis/iochart-bins.h"
#include "analysis/iochart-steal.h"
#include "render/iochart-cairo.h"
#include "render/iochart-png.h"
#include "render/iochart-svg.h"

#define NS_PER_S      1e9
#define MARGIN        12.0
#define LEFT          150.0     /* strip titles and ticks */
#define RIGHT         24.0
#define FONT          11.0
#define FONT_SMALL    10.0
#define ROW           15.0      /* process row pitch: taller than a 10 px label's box */
#define BAR_TOP       2.0
#define BAR_H         11.0
#define BAND_H        4.0       /* the I/O band at the bottom of a bar */
#define MIN_PLOT      200
#define PNG_MAX       32767.0   /* cairo image surfaces */
#define IDLE_BUSY     0.10      /* "idle" for boot done: under 10% busy */

/* Dark for CPU and orange for waiting on the disk, in the strips and on the bars alike; the
 * class colours (iochart_class_color) are kept for block I/O only. */
typedef struct {
  IochartBlocksColors base;
  guint32 life, running, dstate, sys, mem_used, mem_cache, link, milestone, done, label_bg, disk, util;
} Palette;

static const Palette light = {
  .base = { .bg = 0xffffffff, .fg = 0x202020ff, .dim = 0x606060ff, .grid = 0xe4e4e4ff, .frame = 0xb0b0b0ff,
            .steal_shade = 0xd55e0026 },
  .life = 0xdcdcdcff, .running = 0x303030ff, .dstate = 0xe69f00ff, .sys = 0x8a8a8aff,
  .mem_used = 0x606060ff, .mem_cache = 0xc4c4c4ff, .link = 0x9a9a9aff, .milestone = 0x505050ff,
  .done = 0x202020ff, .label_bg = 0xffffffcc, .disk = 0x8a8a8aff,
  .util = 0x202020ff,
};
static const Palette dark = {
  .base = { .bg = 0x1c1c20ff, .fg = 0xe6e6e6ff, .dim = 0xa0a0a0ff, .grid = 0x34343aff, .frame = 0x5a5a60ff,
            .steal_shade = 0xd55e0040 },
  .life = 0x3a3a40ff, .running = 0xe0e0e0ff, .dstate = 0xe69f00ff, .sys = 0x909096ff,
  .mem_used = 0xb0b0b0ff, .mem_cache = 0x55555cff, .link = 0x707078ff, .milestone = 0xb0b0b0ff,
  .done = 0xe6e6e6ff, .label_bg = 0x1c1c20cc, .disk = 0x909096ff,
  .util = 0xe6e6e6ff,
};

#define stack_order iochart_blocks_stack_order
#define with_alpha  iochart_rgba_with_alpha

/* ---- units ---- */

/* Seconds since boot with as many decimals as the span needs. */
static char *
fmt_s (double ns)
{
  double s = ns / NS_PER_S;

  if (fabs (s) >= 100)
    return g_strdup_printf ("%.0f s", s);
  if (fabs (s) >= 1)
    return g_strdup_printf ("%.1f s", s);
  return g_strdup_printf ("%.0f ms", ns / 1e6);
}

/* A time since boot told apart at a hundredth of span_ns: "1968.87 s" in a 2 s capture that
 * starts long after boot, where fmt_s() gives "1969 s" for both ends. */
static char *
fmt_s_in (double ns, double span_ns)
{
  int decimals = 0;

  if (fabs (ns) < 100 * span_ns || span_ns <= 0)
    return fmt_s (ns);
  while (decimals < 6 && span_ns < 100 * pow (10, 9 - decimals))
    decimals++;
  return g_strdup_printf ("%.*f s", decimals, ns / NS_PER_S);
}

/* ---- annotations ---- */

static void resolve_range (IochartBootchart *bc, const IochartBootchartChartOptions *o, gint64 *from, gint64 *to);

/* "12", "12s", "1.5 s", "500ms", "250us", "2m": FALSE when text is no time. */
static gboolean
parse_time (const char *text, gint64 *ns)
{
  static const struct { const char *unit; double scale; } units[] = {
    { "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "µs", 1e3 }, { "ns", 1 }, { "m", 60e9 },
    { "min", 60e9 },
  };
  char *end = NULL;
  double v;

  if (!g_ascii_isdigit (text[0]) && !(text[0] == '.' && g_ascii_isdigit (text[1])))
    return FALSE;
  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (end == text || errno != 0 || v < 0 || v > 1e7)
    return FALSE;
  while (*end == ' ')
    end++;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (end, units[i].unit) == 0)
      {
        *ns = (gint64) llround (v * units[i].scale);
        return TRUE;
      }
  return FALSE;
}

gboolean
iochart_bootchart_chart_annotation_parse (const char *text, IochartBootchartChartAnnotation *a,
                                          GError **error)
{
  const char *eq = strchr (text, '=');
  g_autofree char *what = g_strstrip (g_strndup (text, eq ? (gsize) (eq - text) : strlen (text)));
  g_autofree char *label = eq ? g_strstrip (g_strdup (eq + 1)) : NULL;
  gint64 ns;

  memset (a, 0, sizeof *a);
  a->time_ns = IOCHART_TIME_UNKNOWN;
  if (what[0] == '\0' || (label != NULL && label[0] == '\0') || !g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': bad annotation: give TIME_OR_PROCESS[=LABEL], e.g. 12.5s=fsck or gdm=login",
                   text);
      return FALSE;
    }
  if (parse_time (what, &ns))
    a->time_ns = ns;
  else if (g_ascii_isdigit (what[0]))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': bad annotation time: give seconds since boot such as 12, 12.5s or 800ms "
                   "(pid:N for a process id)", what);
      return FALSE;
    }
  else
    {
      if (g_str_has_prefix (what, "pid:"))
        {
          gint64 pid;
          if (!g_ascii_string_to_signed (what + 4, 10, 0, G_MAXINT32, &pid, NULL))
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                           "'%s': bad annotation: pid:N wants a process id", what);
              return FALSE;
            }
        }
      a->process = g_strdup (what);
    }
  a->label = label ? g_steal_pointer (&label) : g_strdup (what);
  return TRUE;
}

void
iochart_bootchart_chart_annotation_clear (IochartBootchartChartAnnotation *a)
{
  g_clear_pointer (&a->process, g_free);
  g_clear_pointer (&a->label, g_free);
}

static void
annotation_clear_func (gpointer data)
{
  iochart_bootchart_chart_annotation_clear (data);
}

GArray *
iochart_bootchart_chart_annotations_new (void)
{
  GArray *a = g_array_new (FALSE, TRUE, sizeof (IochartBootchartChartAnnotation));

  g_array_set_clear_func (a, annotation_clear_func);
  return a;
}

gboolean
iochart_bootchart_chart_annotations_parse_file (const char *path, GArray *annotations,
                                                GError **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) local = NULL;

  if (!g_file_get_contents (path, &text, NULL, &local))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot read annotations: %s", path,
                   local->message);
      return FALSE;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      IochartBootchartChartAnnotation a;
      char *line = g_strstrip (lines[i]);

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (!iochart_bootchart_chart_annotation_parse (line, &a, &local))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': line %u: %s", path, i + 1,
                       local->message);
          return FALSE;
        }
      g_array_append_val (annotations, a);
    }
  return TRUE;
}

/* ---- boot done ---- */

static float
disk_busy_at (IochartBootchart *bc, guint sample)
{
  GPtrArray *disks = iochart_bootchart_get_disks (bc);
  float busy = 0;

  for (guint d = 0; d < disks->len; d++)
    {
      IochartBootchartDisk *disk = g_ptr_array_index (disks, d);
      if (sample < disk->samples->len)
        busy = MAX (busy, g_array_index (disk->samples, IochartBootchartDiskSample, sample).util);
    }
  return busy;
}

gboolean
iochart_bootchart_chart_find_boot_done (IochartBootchart *bc, gint64 window_ns, gint64 *done_ns)
{
  GArray *cpu = iochart_bootchart_get_cpu_samples (bc);
  gint64 idle_since = IOCHART_TIME_UNKNOWN;

  /* disk samples are per interval like CPU samples and share their timestamps */
  for (guint i = 0; i < cpu->len; i++)
    {
      const IochartBootchartCpuSample *s = &g_array_index (cpu, IochartBootchartCpuSample, i);
      gboolean idle = s->user + s->sys + s->iowait < IDLE_BUSY && disk_busy_at (bc, i) < IDLE_BUSY;

      if (!idle)
        {
          idle_since = IOCHART_TIME_UNKNOWN;
          continue;
        }
      if (idle_since == IOCHART_TIME_UNKNOWN)
        /* the sample covers the interval since the previous one */
        idle_since = i > 0 ? g_array_index (cpu, IochartBootchartCpuSample, i - 1).time_ns : s->time_ns;
      if (s->time_ns - idle_since >= window_ns)
        {
          *done_ns = idle_since;
          return TRUE;
        }
    }
  return FALSE;
}

/* ---- the chart ---- */


typedef struct {
  IochartBootchartProcess *node;
  int     parent_row;        /* -1: a root, or its parent is not shown */
  double  y;
  guint8 *io_mask;           /* n columns, 1 << class of requests on the device, or NULL */
  guint64 io_bytes[IOCHART_N_CLASSES];
  guint   io_requests;
  gint64  io_first_ns, io_last_ns;  /* its requests on the device (bootchart time) */
  IochartTimeSplit split;    /* where the time of the capture processes it shows went */
} Row;

typedef struct {
  IochartCapture           *capture;
  gint64                    offset_ns;  /* bootchart time = capture time + offset */
  char                     *alignment;  /* how the clocks were matched, for the header */
  int                       device;
  IochartBins              *bins;
  IochartSteal             *steal;
  const IochartStealDevice *sdev;
  guint32                  *row_of_process;   /* capture process -> row + 1, 0: none yet,
                                                * G_MAXUINT32: not in the chart */
  GHashTable               *rows_by_pid;      /* pid -> GArray of row indices */
  GHashTable               *procs_by_pid;     /* pid -> GPtrArray of parsed processes */
  guint64                   other_bytes[IOCHART_N_CLASSES];
  guint                     other_requests;
  guint8                   *other_mask;
} Io;

typedef struct {
  IochartBootchart                   *bc;
  const IochartBootchartChartOptions *o;
  const Palette                      *pal;
  IochartBlocks                       b;        /* from_ns, to_ns: since boot */
  GArray                             *rows;     /* Row */
  gboolean                            has_done;
  gint64                              done_ns;
  gint64                              window_ns;
  Io                                  io;
  gboolean                            has_io;
  gboolean                            has_splits;
} Chart;

static void
label_full (Chart *c, double x, double y, const char *text, double size, gboolean bold,
            IochartAnchor anchor, guint32 fill, int priority, const char *tooltip)
{
  iochart_blocks_label (&c->b, x, y, text, size, bold, anchor, fill, priority, tooltip);
}

static void
label (Chart *c, double x, double y, const char *text, double size, IochartAnchor anchor,
       guint32 fill, int priority)
{
  label_full (c, x, y, text, size, FALSE, anchor, fill, priority, NULL);
}

static double
time_x (Chart *c, gint64 ns)
{
  return iochart_blocks_time_x (&c->b, ns);
}

static double
ns_per_col (Chart *c)
{
  return iochart_blocks_ns_per_column (&c->b);
}

/* Column of a time, clamped to the plot. */
static guint
col_of (Chart *c, gint64 ns)
{
  double col = floor (((double) ns - c->b.from_ns) / ns_per_col (c));
  return (guint) CLAMP (col, 0, c->b.n - 1);
}

/* ---- time series ---- */

/* Values that hold over (t[i-1], t[i]] averaged over each column (NaN where none). */
typedef struct {
  double *sum;
  double *ns;
} Cols;

static void
cols_init (Chart *c, Cols *cols)
{
  cols->sum = g_new0 (double, c->b.n);
  cols->ns = g_new0 (double, c->b.n);
}

static void
cols_add (Chart *c, Cols *cols, gint64 a, gint64 b, double v)
{
  a = MAX (a, c->b.from_ns);
  b = MIN (b, c->b.to_ns);
  if (b <= a)
    return;
  iochart_columns_spread (cols->sum, c->b.n, c->b.from_ns, ns_per_col (c), a, b, v);
  iochart_columns_spread (cols->ns, c->b.n, c->b.from_ns, ns_per_col (c), a, b, 1);
}

/* Turns sums into means; columns with no data take the previous value. */
static double *
cols_finish (Chart *c, Cols *cols)
{
  double last = 0;

  for (guint i = 0; i < c->b.n; i++)
    {
      if (cols->ns[i] > 0)
        last = cols->sum[i] /= cols->ns[i];
      else
        cols->sum[i] = last;
    }
  g_free (cols->ns);
  return cols->sum;
}

static IochartDlItem *
area (Chart *c, const double *lo, const double *hi, double base_y, double scale, guint32 fill,
      const char *tooltip)
{
  return iochart_blocks_area (&c->b, lo, hi, base_y, scale, fill, tooltip);
}

static void
polyline (Chart *c, const double *v, double base_y, double scale, guint32 stroke, const char *tooltip)
{
  iochart_blocks_polyline (&c->b, v, base_y, scale, stroke, 1.2, tooltip);
}

static void
strip_frame (Chart *c, double top, double h, const char *title, const char *subtitle,
             const char *subtitle2, const char *top_tick, const char *bottom_tick)
{
  const char *lines[] = { subtitle, subtitle2, NULL };

  /* ticks sit at the top and bottom, subtitles between */
  iochart_blocks_strip_frame (&c->b, top, h, c->b.x0 - MARGIN - 6, title, lines,
                              top_tick, NULL, bottom_tick);
}

static void
cpu_strip (Chart *c)
{
  GArray *cpu = iochart_bootchart_get_cpu_samples (c->bc);
  double h = 70, top = c->b.y, base = top + h;
  Cols user, sys, wait;
  g_autofree double *u = NULL, *us = NULL, *usw = NULL;

  if (cpu->len < 2)
    return;
  cols_init (c, &user);
  cols_init (c, &sys);
  cols_init (c, &wait);
  for (guint i = 1; i < cpu->len; i++)
    {
      const IochartBootchartCpuSample *p = &g_array_index (cpu, IochartBootchartCpuSample, i - 1);
      const IochartBootchartCpuSample *s = &g_array_index (cpu, IochartBootchartCpuSample, i);
      cols_add (c, &user, p->time_ns, s->time_ns, s->user);
      cols_add (c, &sys, p->time_ns, s->time_ns, s->user + s->sys);
      cols_add (c, &wait, p->time_ns, s->time_ns, MIN (s->user + s->sys + s->iowait, 1.0));
    }
  u = cols_finish (c, &user);
  us = cols_finish (c, &sys);
  usw = cols_finish (c, &wait);
  strip_frame (c, top, h, "CPU", "user, system", "I/O wait (orange)", "100%", "0");
  area (c, NULL, u, base, h, c->pal->running, "CPU: user");
  area (c, u, us, base, h, c->pal->sys, "CPU: system");
  area (c, us, usw, base, h, with_alpha (c->pal->dstate, 0xd0), "CPU: I/O wait");
  c->b.y += h;
}

/* "vda (254,0)": the trace's name for the device, else the bootchart's disk of that number. */
static char *
io_device_name (Chart *c, gboolean with_number)
{
  const IochartDevice *dev = iochart_capture_get_device (c->io.capture, c->io.device);
  GPtrArray *disks = iochart_bootchart_get_disks (c->bc);
  const char *name = dev->name;

  for (guint i = 0; i < disks->len && name == NULL; i++)
    {
      IochartBootchartDisk *d = g_ptr_array_index (disks, i);
      if (IOCHART_DEV_MAKE (d->major, d->minor) == dev->dev)
        name = d->name;
    }
  if (name == NULL)
    return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev));
  if (!with_number)
    return g_strdup (name);
  return g_strdup_printf ("%s (%u,%u)", name, IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev));
}

static void
disk_strip (Chart *c)
{
  GPtrArray *disks = iochart_bootchart_get_disks (c->bc);
  double h = 70, top = c->b.y, base = top + h, max = 0, scale;
  Cols tput, util;
  g_autofree double *t = NULL, *ut = NULL;
  double *by_class[IOCHART_N_CLASSES] = { 0 };
  g_autofree char *top_tick = NULL, *m = NULL, *sub = NULL;
  IochartBootchartDisk *disk = iochart_bootchart_get_main_disk (c->bc);

  if (disk == NULL && !c->has_io)
    return;
  cols_init (c, &tput);
  cols_init (c, &util);
  /* throughput summed over the whole disks (as bootchart does); utilisation of the busiest */
  for (guint d = 0; d < disks->len; d++)
    {
      IochartBootchartDisk *disk = g_ptr_array_index (disks, d);
      for (guint i = 1; i < disk->samples->len; i++)
        {
          const IochartBootchartDiskSample *p = &g_array_index (disk->samples, IochartBootchartDiskSample, i - 1);
          const IochartBootchartDiskSample *s = &g_array_index (disk->samples, IochartBootchartDiskSample, i);
          cols_add (c, &tput, p->time_ns, s->time_ns, s->read_bytes_per_s + s->write_bytes_per_s);
        }
    }
  if (disk)
    for (guint i = 1; i < disk->samples->len; i++)
      {
        const IochartBootchartDiskSample *p = &g_array_index (disk->samples, IochartBootchartDiskSample, i - 1);
        const IochartBootchartDiskSample *s = &g_array_index (disk->samples, IochartBootchartDiskSample, i);
        cols_add (c, &util, p->time_ns, s->time_ns, MIN (s->util, 1.0));
      }
  t = cols_finish (c, &tput);
  ut = cols_finish (c, &util);

  if (c->has_io && c->io.bins)
    {
      /* bytes per column of the block trace, per class, as bytes/s */
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          by_class[k] = g_new (double, c->b.n);
          for (guint i = 0; i < c->b.n; i++)
            by_class[k][i] = (c->io.bins->bytes[k][0][i] + c->io.bins->bytes[k][1][i])
                             / (iochart_bins_column_ns (c->io.bins, i) / NS_PER_S);
        }
    }
  for (guint i = 0; i < c->b.n; i++)
    {
      double sum = 0;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        sum += by_class[k] ? by_class[k][i] : 0;
      max = MAX (max, MAX (sum, t[i]));
    }
  max = iochart_nice_ceil_bytes (MAX (max, 1024));
  m = iochart_format_bytes (max);
  top_tick = g_strdup_printf ("%s/s", m);
  scale = h / max;
  if (by_class[0])
    {
      g_autofree char *dev = io_device_name (c, FALSE);
      sub = g_strdup_printf ("%s by I/O class", dev);
      strip_frame (c, top, h, "Disk", sub, "grey: diskstats, line: busy", top_tick, "0");
      /* bootchart's own figure behind, in grey: what the trace did not see stays visible */
      area (c, NULL, t, base, scale, with_alpha (c->pal->disk, 0x60), "disk throughput (diskstats, all disks)");
      {
        g_autofree double *cum = g_new0 (double, c->b.n);
        g_autofree double *next = g_new0 (double, c->b.n);
        for (guint s = 0; s < G_N_ELEMENTS (stack_order); s++)
          {
            IochartClass k = stack_order[s];
            g_autofree char *tip = g_strdup_printf ("block I/O throughput, %s class", iochart_class_name (k));
            for (guint i = 0; i < c->b.n; i++)
              next[i] = cum[i] + by_class[k][i];
            area (c, cum, next, base, scale, iochart_class_color (c->o->theme, k), tip);
            memcpy (cum, next, c->b.n * sizeof (double));
          }
      }
    }
  else
    {
      sub = g_strdup_printf ("read+write%s", disks->len > 1 ? ", all disks" : "");
      strip_frame (c, top, h, "Disk", sub, "line: busy", top_tick, "0");
      area (c, NULL, t, base, scale, c->pal->disk, "disk throughput (read + write)");
    }
  if (disk)
    {
      g_autofree char *tip = g_strdup_printf ("%s busy (utilisation, 0–100%% of the strip)", disk->name);
      polyline (c, ut, base, h, c->pal->util, tip);
    }
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    g_free (by_class[k]);
  c->b.y += h;
}

static void
mem_strip (Chart *c)
{
  GArray *mem = iochart_bootchart_get_mem_samples (c->bc);
  double h = 50, top = c->b.y, base = top + h, scale = 0;
  Cols used, cache;
  g_autofree double *u = NULL, *uc = NULL;
  g_autofree char *t = NULL, *p = NULL, *sub = NULL;
  double peak = 0;

  if (mem->len < 2)
    return;
  /* scaled to the most memory in use (with buffers and cache), as pybootchartgui does: a boot
   * that used 1 GiB of 24 would be a hairline under MemTotal (the header tells that) */
  for (guint i = 0; i < mem->len; i++)
    {
      const IochartBootchartMemSample *s = &g_array_index (mem, IochartBootchartMemSample, i);

      scale = MAX (scale, (s->total_kb - MIN (s->free_kb, s->total_kb)) * 1024.0);
    }
  if (scale <= 0)
    return;
  cols_init (c, &used);
  cols_init (c, &cache);
  for (guint i = 1; i < mem->len; i++)
    {
      const IochartBootchartMemSample *p = &g_array_index (mem, IochartBootchartMemSample, i - 1);
      const IochartBootchartMemSample *s = &g_array_index (mem, IochartBootchartMemSample, i);
      double bc = (s->buffers_kb + s->cached_kb) * 1024.0;
      double un = s->total_kb * 1024.0 - s->free_kb * 1024.0 - bc;
      cols_add (c, &used, p->time_ns, s->time_ns, MAX (un, 0));
      cols_add (c, &cache, p->time_ns, s->time_ns, MAX (un, 0) + bc);
    }
  u = cols_finish (c, &used);
  uc = cols_finish (c, &cache);
  t = iochart_format_bytes (scale);
  for (guint i = 0; i < c->b.n; i++)
    peak = MAX (peak, u[i]);
  p = iochart_format_bytes (peak);
  sub = g_strdup_printf ("used (peak %s)", p);
  /* the dark palette draws cache darker than what is used */
  strip_frame (c, top, h, "Memory", sub, c->o->theme == IOCHART_THEME_DARK ? "cache (darker)" : "cache (lighter)", t, "0");
  area (c, NULL, u, base, h / scale, c->pal->mem_used, "memory used (not buffers or cache)");
  area (c, u, uc, base, h / scale, c->pal->mem_cache, "memory in buffers and page cache");
  c->b.y += h;
}

/* ---- block I/O of the same boot ---- */

static void
align_io (Chart *c)
{
  c->io.alignment = iochart_bootchart_align_io (c->bc, c->io.capture, &c->io.offset_ns);
}

static void
index_processes (Chart *c)
{
  GPtrArray *all = iochart_bootchart_get_processes (c->bc);

  c->io.procs_by_pid = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < all->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (all, i);
      GPtrArray *list = g_hash_table_lookup (c->io.procs_by_pid, GINT_TO_POINTER (p->pid));
      if (list == NULL)
        g_hash_table_insert (c->io.procs_by_pid, GINT_TO_POINTER (p->pid), list = g_ptr_array_new ());
      g_ptr_array_add (list, p);
    }
  c->io.rows_by_pid = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  for (guint r = 0; r < c->rows->len; r++)
    {
      Row *row = &g_array_index (c->rows, Row, r);
      GArray *list = g_hash_table_lookup (c->io.rows_by_pid, GINT_TO_POINTER (row->node->pid));
      if (list == NULL)
        g_hash_table_insert (c->io.rows_by_pid, GINT_TO_POINTER (row->node->pid),
                             list = g_array_new (FALSE, FALSE, sizeof (guint)));
      g_array_append_val (list, r);
    }
}

static gint64
end_of (const IochartBootchartProcess *p)
{
  return p->start_ns + p->duration_ns;
}

/* The parsed process of pid alive at t (one sample period of slack), else the nearest. */
static IochartBootchartProcess *
parsed_at (Chart *c, gint32 pid, gint64 t)
{
  GPtrArray *list = g_hash_table_lookup (c->io.procs_by_pid, GINT_TO_POINTER (pid));
  gint64 slack = iochart_bootchart_get_sample_period_ns (c->bc), best_d = G_MAXINT64;
  IochartBootchartProcess *best = NULL;

  for (guint i = 0; list && i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      gint64 d = t < p->start_ns - slack ? p->start_ns - t : t > end_of (p) + slack ? t - end_of (p) : 0;
      if (d < best_d)
        best_d = d, best = p;
    }
  return best_d <= 60 * (gint64) NS_PER_S ? best : NULL;
}

static int
row_of_node (Chart *c, const IochartBootchartProcess *p)
{
  GArray *list = g_hash_table_lookup (c->io.rows_by_pid, GINT_TO_POINTER (p->pid));

  for (guint i = 0; list && i < list->len; i++)
    {
      guint r = g_array_index (list, guint, i);
      const IochartBootchartProcess *n = g_array_index (c->rows, Row, r).node;
      /* a node's life covers that of the process it was cloned from */
      if (n->start_ns <= p->start_ns && end_of (n) >= end_of (p))
        return (int) r;
    }
  return -1;
}

/* The row showing a parsed process: its own node, else (pruned or merged) the same-name child
 * node it was folded into, else the nearest shown ancestor. */
static int
row_of_parsed (Chart *c, IochartBootchartProcess *p)
{
  IochartBootchartProcess *prev = NULL;

  for (IochartBootchartProcess *cur = p; cur; prev = cur, cur = cur->parent)
    {
      int r = row_of_node (c, cur);

      if (r < 0)
        continue;
      if (prev != NULL)
        {
          IochartBootchartProcess *node = g_array_index (c->rows, Row, r).node;
          for (guint k = 0; k < node->children->len; k++)
            {
              IochartBootchartProcess *ch = g_ptr_array_index (node->children, k);
              if (strcmp (ch->cmd, prev->cmd) == 0 && ch->start_ns <= prev->start_ns && end_of (ch) >= end_of (prev))
                {
                  int rc = row_of_node (c, ch);
                  if (rc >= 0)
                    return rc;
                }
            }
        }
      return r;
    }
  return -1;
}

static guint32
row_of_request (Chart *c, guint32 process, gint64 t)
{
  Io *io = &c->io;
  const IochartProcess *p;
  IochartBootchartProcess *parsed;
  int r;

  if (process == IOCHART_NO_PROCESS)
    return G_MAXUINT32;
  if (io->row_of_process[process] != 0)
    return io->row_of_process[process] == G_MAXUINT32 ? G_MAXUINT32 : io->row_of_process[process] - 1;
  p = iochart_capture_get_process (io->capture, process);
  parsed = parsed_at (c, p->pid, p->start_ns != IOCHART_TIME_UNKNOWN ? p->start_ns + io->offset_ns : t);
  r = parsed ? row_of_parsed (c, parsed) : -1;
  io->row_of_process[process] = r < 0 ? G_MAXUINT32 : (guint32) r + 1;
  return r < 0 ? G_MAXUINT32 : (guint32) r;
}

static void
mark (Chart *c, guint8 **mask, gint64 a, gint64 b, IochartClass k)
{
  guint c0 = col_of (c, a), c1 = col_of (c, b);

  if (*mask == NULL)
    *mask = g_new0 (guint8, c->b.n);
  for (guint i = c0; i <= c1; i++)
    (*mask)[i] |= 1u << k;
}

/* Each request of the charted device onto the bar of its process, from issue to completion. */
static void
assign_requests (Chart *c)
{
  Io *io = &c->io;
  guint n = iochart_capture_get_n_requests (io->capture);

  io->row_of_process = g_new0 (guint32, iochart_capture_get_n_processes (io->capture));
  for (guint i = 0; i < n; i++)
    {
      IochartRequest rq;
      gint64 a, b;
      guint32 r;

      iochart_capture_get_request (io->capture, i, &rq);
      /* counted as iochart_counts_compute() counts: issued requests, an issue each */
      if (rq.device != io->device || rq.issues == 0)
        continue;
      a = rq.issue_ns + io->offset_ns;
      b = (rq.complete_ns != IOCHART_TIME_UNKNOWN ? rq.complete_ns : rq.issue_ns) + io->offset_ns;
      if (b < c->b.from_ns || a > c->b.to_ns)
        continue;
      r = row_of_request (c, rq.process, a);
      if (r == G_MAXUINT32)
        {
          io->other_bytes[rq.klass] += (guint64) rq.issues * rq.bytes;
          io->other_requests += rq.issues;
          mark (c, &io->other_mask, a, b, rq.klass);
          continue;
        }
      {
        Row *row = &g_array_index (c->rows, Row, r);
        row->io_bytes[rq.klass] += (guint64) rq.issues * rq.bytes;
        row->io_first_ns = row->io_requests ? MIN (row->io_first_ns, a) : a;
        row->io_last_ns = row->io_requests ? MAX (row->io_last_ns, b) : b;
        row->io_requests += rq.issues;
        mark (c, &row->io_mask, a, b, rq.klass);
      }
    }
}

/* Where each row's time went: the sum of the time splits of the capture processes it shows (from
 * sched events, or the states the bootchart's samples lent the capture), as a lane's in the I/O
 * chart. */
static void
split_rows (Chart *c)
{
  Io *io = &c->io;
  g_autoptr(IochartTimeSplits) splits = NULL;

  if (!iochart_capture_has_task_states (io->capture)
      || (splits = iochart_time_splits_new (io->capture, c->b.from_ns - io->offset_ns,
                                            c->b.to_ns - io->offset_ns)) == NULL)
    return;
  for (guint i = 0; i < iochart_capture_get_n_processes (io->capture); i++)
    {
      const IochartTimeSplit *s = iochart_time_splits_get_process (splits, i);
      gint64 first_ns;
      IochartTaskState state;
      guint32 r;
      Row *row;

      if (s->life_ns <= 0 || iochart_capture_get_n_task_changes (io->capture, i) == 0)
        continue;
      iochart_capture_get_task_change (io->capture, i, 0, &first_ns, &state);
      if ((r = row_of_request (c, i, first_ns + io->offset_ns)) == G_MAXUINT32)
        continue;
      row = &g_array_index (c->rows, Row, r);
      for (guint k = 0; k < IOCHART_N_SPLITS; k++)
        row->split.ns[k] += s->ns[k];
      row->split.life_ns += s->life_ns;
      c->has_splits = TRUE;
    }
}

static void
setup_io (Chart *c, IochartCapture *capture)
{
  Io *io = &c->io;
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;

  io->capture = capture;
  index_processes (c);
  align_io (c);
  io->device = iochart_bootchart_io_device (c->bc, capture);
  if (io->device < 0)
    return;
  c->has_io = TRUE;
  io->bins = iochart_bins_new (capture, io->device, c->b.from_ns - io->offset_ns, c->b.to_ns - io->offset_ns,
                               c->b.n, 1, NULL);
  so.device = io->device;
  so.from_ns = c->b.from_ns - io->offset_ns;
  so.to_ns = c->b.to_ns - io->offset_ns;
  so.gap_ns = c->o->steal_gap_ns;
  so.n_columns = c->b.n;
  io->steal = iochart_steal_new (capture, &so);
  io->sdev = iochart_steal_find_device (io->steal, io->device);
  assign_requests (c);
  split_rows (c);
}

static void
clear_io (Io *io)
{
  g_clear_pointer (&io->alignment, g_free);
  g_clear_pointer (&io->bins, iochart_bins_free);
  g_clear_pointer (&io->steal, iochart_steal_free);
  g_clear_pointer (&io->row_of_process, g_free);
  g_clear_pointer (&io->rows_by_pid, g_hash_table_unref);
  g_clear_pointer (&io->procs_by_pid, g_hash_table_unref);
  g_clear_pointer (&io->other_mask, g_free);
}

/* ---- processes ---- */

static void
collect_rows (Chart *c, GPtrArray *list, int parent_row)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      int me = parent_row;

      /* a process outside the range is not drawn; its children still are, linked upwards */
      if (p->start_ns <= c->b.to_ns && end_of (p) >= c->b.from_ns)
        {
          Row row = { .node = p, .parent_row = parent_row };
          g_array_append_val (c->rows, row);
          me = (int) c->rows->len - 1;
        }
      collect_rows (c, p->children, me);
    }
}

static char *
io_summary (const guint64 bytes[IOCHART_N_CLASSES], gboolean short_form)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (stack_order); i++)
    {
      IochartClass k = stack_order[i];
      g_autofree char *b = NULL;

      if (bytes[k] == 0)
        continue;
      b = iochart_format_bytes (bytes[k]);
      g_string_append_printf (s, "%s%s %s", s->len ? (short_form ? ", " : ", ") : "", b,
                              iochart_class_name (k));
    }
  return g_string_free (s, FALSE);
}

static char *
row_tooltip (Chart *c, Row *row)
{
  IochartBootchartProcess *p = row->node;
  GString *t = g_string_new (NULL);
  g_autofree char *s0 = fmt_s (p->start_ns), *s1 = fmt_s (end_of (p)), *d = fmt_s (p->duration_ns);
  guint n_r = 0, n_d = 0;

  g_string_append_printf (t, "%s [%d]", p->cmd, p->pid);
  if (p->n_merged)
    g_string_append_printf (t, " + %u more folded in", p->n_merged);
  g_string_append_printf (t, "\n%s – %s after boot (%s)", s0, s1, d);
  if (p->args && p->args[0])
    {
      g_autofree char *args = g_strjoinv (" ", p->args);
      g_string_append_printf (t, "\n%s", args);
    }
  for (guint i = 0; i < p->samples->len; i++)
    {
      const IochartBootchartProcSample *s = &g_array_index (p->samples, IochartBootchartProcSample, i);
      n_d += s->state == 'D';
      n_r += s->state != 'D' && (s->state == 'R' || s->user + s->sys > 0.01);
    }
  g_string_append_printf (t, "\n%u samples: running in %u, in D state (waiting for I/O) in %u",
                          p->samples->len, n_r, n_d);
  if (p->cpu_ns >= 0)
    {
      g_autofree char *cpu = fmt_s (p->cpu_ns);
      g_string_append_printf (t, "\nCPU time %s", cpu);
    }
  if (p->blkio_delay_ns >= 0)
    {
      g_autofree char *bd = fmt_s (p->blkio_delay_ns);
      g_string_append_printf (t, ", block I/O delay %s", bd);
    }
  if (row->io_requests)
    {
      g_autofree char *io = io_summary (row->io_bytes, FALSE);
      g_string_append_printf (t, "\nblock I/O: %s in %u request%s", io, row->io_requests,
                              row->io_requests == 1 ? "" : "s");
    }
  return g_string_free (t, FALSE);
}

/* Per column, the strongest state of the samples in it: 0 sleeping, 1-4 running (CPU
 * quarters), 5 waiting for I/O (D). */
static void
state_columns (Chart *c, IochartBootchartProcess *p, guint8 *level, guint *lo, guint *hi)
{
  gint64 prev = p->start_ns;

  *lo = col_of (c, p->start_ns);
  *hi = col_of (c, end_of (p));
  memset (level + *lo, 0, *hi - *lo + 1);
  for (guint i = 0; i < p->samples->len; i++)
    {
      const IochartBootchartProcSample *s = &g_array_index (p->samples, IochartBootchartProcSample, i);
      double cpu = s->user + s->sys;
      guint8 v = s->state == 'D' ? 5
                 : (s->state == 'R' || cpu > 0.01) ? (guint8) CLAMP (ceil (MIN (cpu, 1.0) * 4), 1, 4) : 0;
      gint64 a = MIN (prev, s->time_ns);

      prev = s->time_ns;
      if (v == 0 || s->time_ns < c->b.from_ns || a > c->b.to_ns)
        continue;
      for (guint k = col_of (c, a); k <= col_of (c, s->time_ns); k++)
        level[k] = MAX (level[k], v);
    }
}

static void
state_runs (Chart *c, const guint8 *level, guint lo, guint hi, double y)
{
  static const guint8 alpha[] = { 0, 0x50, 0x88, 0xc0, 0xff };

  for (guint i = lo; i <= hi;)
    {
      guint j = i + 1;

      while (j <= hi && level[j] == level[i])
        j++;
      if (level[i] > 0)
        {
          guint32 fill = level[i] == 5 ? c->pal->dstate : with_alpha (c->pal->running, alpha[level[i]]);
          iochart_display_list_rect (c->b.dl, c->b.x0 + i, y + BAR_TOP, j - i, BAR_H, fill, 0);
        }
      i = j;
    }
}

/* The band of requests by class at the bottom of a bar: columns split between the classes in
 * them, in stacking order. */
static void
io_band (Chart *c, const guint8 *mask, double y)
{
  for (guint i = 0; i < c->b.n;)
    {
      guint j = i + 1, n_k = 0, s = 0;

      while (j < c->b.n && mask[j] == mask[i])
        j++;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        n_k += (mask[i] >> k) & 1;
      for (guint o = 0; o < G_N_ELEMENTS (stack_order) && n_k; o++)
        if (mask[i] & (1u << stack_order[o]))
          {
            double h = BAND_H / n_k;
            double w = MAX (j - i, 1.5);
            iochart_display_list_rect (c->b.dl, c->b.x0 + i, y + BAR_TOP + BAR_H - (s + 1) * h, w, h,
                                       iochart_class_color (c->o->theme, stack_order[o]), 0);
            s++;
          }
      i = j;
    }
}

static char *
row_label (Chart *c, Row *row)
{
  IochartBootchartProcess *p = row->node;
  GString *s = g_string_new (p->cmd);

  if (p->n_merged)
    g_string_append_printf (s, " (+%u)", p->n_merged);
  if (row->io_requests)
    {
      g_autofree char *io = io_summary (row->io_bytes, TRUE);
      g_string_append_printf (s, " · %s", io);
    }
  return g_string_free (s, FALSE);
}

/* Left of the bar when there is room (nothing is drawn before a process starts), else right of
 * it, else over it on a backing. Returns where the text starts; *w its width. */
static double
place_row_label (Chart *c, const char *text, double x_start, double x_end, double y, const char *tip, double *w)
{
  double baseline = y + BAR_TOP + BAR_H - 2;
  double right = c->b.x0 + c->b.n;

  *w = iochart_text_width (text, FONT_SMALL, FALSE);
  if (x_start - 4 - *w >= c->b.x0 + 2)
    {
      label_full (c, x_start - 4, baseline, text, FONT_SMALL, FALSE, IOCHART_ANCHOR_END, c->pal->base.fg, 2, tip);
      return x_start - 4 - *w;
    }
  if (x_end + 4 + *w <= right - 2 && x_end - x_start < 3 * *w)
    {
      label_full (c, x_end + 4, baseline, text, FONT_SMALL, FALSE, IOCHART_ANCHOR_START, c->pal->base.fg, 2, tip);
      return x_end + 4;
    }
  {
    g_autofree char *fit = iochart_text_ellipsize (text, FONT_SMALL, FALSE, right - x_start - 6);

    *w = iochart_text_width (fit, FONT_SMALL, FALSE);
    iochart_display_list_rect (c->b.dl, x_start + 2, y + BAR_TOP, *w + 4, BAR_H, c->pal->label_bg, 0);
    label_full (c, x_start + 4, baseline, fit, FONT_SMALL, FALSE, IOCHART_ANCHOR_START, c->pal->base.fg, 2,
                strcmp (fit, text) ? text : tip);
    return x_start + 4;
  }
}

/* The dashed line from a parent's bar down to where its child starts, at x from y0 to y1: cut
 * where it would cross the name of a row between them (names: x and width per row, in row
 * order), which stays readable; a name on the child's own row ends left of its start or begins
 * right of it. */
static void
parent_link (Chart *c, GArray *names, double x, double y0, double y1)
{
  double ascent, descent, y = y0;

  iochart_font_extents (FONT_SMALL, &ascent, &descent);
  for (guint r = 0; r < names->len / 2; r++)
    {
      double nx = g_array_index (names, double, 2 * r), nw = g_array_index (names, double, 2 * r + 1);
      double baseline = g_array_index (c->rows, Row, r).y + BAR_TOP + BAR_H - 2;
      double top = baseline - ascent - 1, bottom = baseline + descent + 1;

      if (x < nx - 2 || x > nx + nw + 2 || bottom <= y || top >= y1)
        continue;
      /* (not the pixel left between two names: a dot, not a line) */
      if (top > y + 2)
        iochart_display_list_line (c->b.under, x, y, x, top, c->pal->link, 1)->dashed = TRUE;
      y = MAX (y, bottom);
    }
  if (y1 > y)
    iochart_display_list_line (c->b.under, x, y, x, y1, c->pal->link, 1)->dashed = TRUE;
}

static void
processes_section (Chart *c)
{
  g_autofree guint8 *level = g_new0 (guint8, c->b.n);
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (double));

  if (c->rows->len == 0)
    return;
  c->b.y += 8;
  label_full (c, MARGIN, c->b.y + 11, "Processes", FONT, TRUE, IOCHART_ANCHOR_START, c->pal->base.fg, 1, NULL);
  {
    g_autofree char *sub = g_strdup_printf ("%u shown", c->rows->len);
    label (c, MARGIN, c->b.y + 25, sub, FONT_SMALL, IOCHART_ANCHOR_START, c->pal->base.dim, 1);
  }
  for (guint r = 0; r < c->rows->len; r++)
    {
      Row *row = &g_array_index (c->rows, Row, r);
      IochartBootchartProcess *p = row->node;
      double x0 = time_x (c, MAX (p->start_ns, c->b.from_ns)), x1 = time_x (c, MIN (end_of (p), c->b.to_ns));
      g_autofree char *tip = NULL, *text = NULL, *meta = NULL;
      guint lo, hi;

      row->y = c->b.y + r * ROW;
      /* a process is seen at samples only: its I/O shows it lived longer */
      if (row->io_requests)
        {
          x0 = MIN (x0, time_x (c, MAX (row->io_first_ns, c->b.from_ns)));
          x1 = MAX (x1, time_x (c, MIN (row->io_last_ns, c->b.to_ns)));
        }
      x1 = MAX (x1, x0 + 1);
      tip = row_tooltip (c, row);
      meta = g_strdup_printf ("pid:%d", p->pid);
      iochart_display_list_begin_group (c->b.dl, tip, meta);
      iochart_display_list_rect (c->b.dl, x0, row->y + BAR_TOP, x1 - x0, BAR_H, c->pal->life, 0);
      state_columns (c, p, level, &lo, &hi);
      state_runs (c, level, lo, hi, row->y);
      if (row->io_mask)
        io_band (c, row->io_mask, row->y);
      iochart_display_list_end_group (c->b.dl);
      text = row_label (c, row);
      {
        double w, x = place_row_label (c, text, x0, x1, row->y, NULL, &w);
        double box[2] = { x, w };

        /* where its time went, under its name as under a lane's in the I/O chart */
        iochart_blocks_time_split_bar (&c->b, x, row->y + ROW - 2, w, &row->split, "its");
        g_array_append_vals (names, box, 2);
      }
      if (row->parent_row >= 0 && p->start_ns >= c->b.from_ns)
        {
          Row *parent = &g_array_index (c->rows, Row, row->parent_row);
          parent_link (c, names, x0, parent->y + BAR_TOP + BAR_H, row->y + BAR_TOP + BAR_H / 2);
        }
    }
  c->b.y += c->rows->len * ROW;
  if (c->has_io && c->io.other_mask)
    {
      g_autofree char *io = io_summary (c->io.other_bytes, TRUE);
      g_autofree char *text = g_strdup_printf ("block I/O of processes not in the tree · %s", io);
      g_autofree char *n = iochart_format_plural (c->io.other_requests, "request", "requests");
      g_autofree char *tip = g_strdup_printf ("%s by processes the bootchart did not sample "
                                              "(started and ended between samples, kernel threads, or "
                                              "outside its process list)", n);
      iochart_display_list_begin_group (c->b.dl, tip, "others");
      io_band (c, c->io.other_mask, c->b.y);
      iochart_display_list_end_group (c->b.dl);
      label_full (c, c->b.x0 - 5, c->b.y + BAR_TOP + BAR_H - 2, "other I/O", FONT_SMALL, FALSE,
                  IOCHART_ANCHOR_END, c->pal->base.dim, 2, text);
      c->b.y += ROW;
    }
}

/* ---- time grid, milestones, steal ---- */

static void
time_axis (Chart *c, double y_labels, gboolean grid)
{
  iochart_blocks_time_axis (&c->b, y_labels, grid);
}

typedef struct {
  gint64   ns;
  char    *label;
  char    *tooltip;
  gboolean done;
} Milestone;

static void
milestone_clear (gpointer data)
{
  Milestone *m = data;
  g_free (m->label);
  g_free (m->tooltip);
}

static int
milestone_cmp (gconstpointer a, gconstpointer b)
{
  const Milestone *x = a, *y = b;
  return (x->ns > y->ns) - (x->ns < y->ns);
}

static IochartBootchartProcess *
find_process (IochartBootchart *bc, const char *what)
{
  GPtrArray *all = iochart_bootchart_get_processes (bc);
  IochartBootchartProcess *best = NULL;
  gint64 pid = -1;

  if (g_str_has_prefix (what, "pid:"))
    pid = g_ascii_strtoll (what + 4, NULL, 10);
  for (guint i = 0; i < all->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (all, i);
      g_autofree char *exe = p->exe ? g_path_get_basename (p->exe) : NULL;
      gboolean match = pid >= 0 ? p->pid == pid : strcmp (p->cmd, what) == 0 || g_strcmp0 (exe, what) == 0;

      if (match && (best == NULL || p->start_ns < best->start_ns))
        best = p;
    }
  return best;
}

static gboolean
collect_milestones (Chart *c, GArray *ms, GError **error)
{
  if (c->has_done)
    {
      g_autofree char *at = fmt_s (c->done_ns), *win = fmt_s (c->window_ns);
      Milestone m = { c->done_ns, g_strdup_printf ("boot done %s", at),
                      g_strdup_printf ("boot done at %s after boot: from here CPU and disks stayed under "
                                       "10%% busy for %s", at, win), TRUE };
      g_array_append_val (ms, m);
    }
  for (guint i = 0; i < c->o->n_annotations; i++)
    {
      const IochartBootchartChartAnnotation *a = &c->o->annotations[i];
      Milestone m = { a->time_ns, g_strdup (a->label), NULL, FALSE };

      if (a->process)
        {
          IochartBootchartProcess *p = find_process (c->bc, a->process);
          if (p == NULL)
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                           "'%s': annotation names no process of '%s' (give a command name, pid:N or a time)",
                           a->process, iochart_bootchart_get_path (c->bc));
              g_free (m.label);
              return FALSE;
            }
          m.ns = p->start_ns;
          {
            g_autofree char *at = fmt_s (p->start_ns);
            m.tooltip = g_strdup_printf ("%s: %s [%d] started at %s", a->label, p->cmd, p->pid, at);
          }
        }
      else
        {
          g_autofree char *at = fmt_s (a->time_ns);
          m.tooltip = g_strdup_printf ("%s at %s after boot", a->label, at);
        }
      g_array_append_val (ms, m);
    }
  g_array_sort (ms, milestone_cmp);
  return TRUE;
}

/* Seconds with the decimals that tell apart times within span_ns. */
static char *
fmt_s_within (gint64 ns, gint64 span_ns)
{
  int decimals = span_ns >= 100 * NS_PER_S ? 0 : span_ns >= 10 * NS_PER_S ? 1 : 2;

  return g_strdup_printf ("%.*f s", decimals, (double) ns / NS_PER_S);
}

char *
iochart_bootchart_chart_annotation_unseen (const char *label, gint64 at_ns, gint64 from_ns, gint64 to_ns,
                                           gint64 start_ns, gint64 end_ns, const char *what, const char *since)
{
  gboolean outside = at_ns < start_ns || at_ns > end_ns;
  gint64 a_ns = outside ? start_ns : from_ns, b_ns = outside ? end_ns : to_ns;
  g_autofree char *at = NULL, *a = NULL, *b = NULL;

  if (at_ns >= from_ns && at_ns <= to_ns)
    return NULL;
  at = fmt_s_within (at_ns, b_ns - a_ns);
  a = fmt_s_within (a_ns, b_ns - a_ns);
  b = fmt_s_within (b_ns, b_ns - a_ns);
  if (outside)
    return g_strdup_printf ("annotation '%s' at %s is %s %s, which spans %s to %s%s: not drawn", label, at,
                            at_ns < start_ns ? "before the start of" : "past the end of", what, a, b, since);
  return g_strdup_printf ("annotation '%s' at %s is outside the range drawn, %s to %s%s: not drawn", label, at,
                          a, b, since);
}

void
iochart_bootchart_chart_warn_annotations (IochartBootchart *bc, const IochartBootchartChartOptions *options)
{
  gint64 from, to;

  resolve_range (bc, options, &from, &to);
  for (guint i = 0; i < options->n_annotations; i++)
    {
      const IochartBootchartChartAnnotation *a = &options->annotations[i];
      IochartBootchartProcess *p = a->process ? find_process (bc, a->process) : NULL;
      g_autofree char *why = NULL;

      if (a->process != NULL && p == NULL)
        continue;
      why = iochart_bootchart_chart_annotation_unseen (a->label, p ? p->start_ns : a->time_ns, from, to,
                                                       iochart_bootchart_get_start_ns (bc),
                                                       iochart_bootchart_get_end_ns (bc), "the boot chart", " after boot");
      if (why != NULL)
        g_warning ("%s", why);
    }
}

/* Milestones are the blocks' marks: labels in rows above the strips, lines across them. */
static GArray *
marks_of (GArray *ms)
{
  GArray *marks = g_array_sized_new (FALSE, TRUE, sizeof (IochartBlocksMark), ms->len);

  for (guint i = 0; i < ms->len; i++)
    {
      Milestone *m = &g_array_index (ms, Milestone, i);
      IochartBlocksMark mark = { m->ns, m->label, m->tooltip, m->done };

      g_array_append_val (marks, mark);
    }
  return marks;
}

static double
milestone_band (Chart *c, GArray *ms, double top)
{
  g_autoptr(GArray) marks = marks_of (ms);

  return iochart_blocks_marks_band (&c->b, (IochartBlocksMark *) marks->data, marks->len, top,
                                    c->pal->milestone, c->pal->done);
}

static void
milestone_lines (Chart *c, GArray *ms)
{
  g_autoptr(GArray) marks = marks_of (ms);

  iochart_blocks_mark_lines (&c->b, (IochartBlocksMark *) marks->data, marks->len, c->pal->milestone, c->pal->done);
}

static void
steal_tip (IochartBlocks *b, guint c0, guint c1, char **tooltip, char **meta, gpointer user_data)
{
  Chart *c = user_data;
  const IochartStealDevice *d = c->io.sdev;
  double stolen = 0, active = 0;
  g_autofree char *s = NULL, *a = NULL, *t0 = NULL, *t1 = NULL;

  for (guint k = c0; k < c1; k++)
    {
      stolen += d->stolen_columns[k];
      active += d->active_columns[k];
    }
  s = g_strdup_printf ("%.1f ms", stolen / 1e6);
  a = g_strdup_printf ("%.1f ms", active / 1e6);
  t0 = fmt_s (c->b.from_ns + c0 * ns_per_col (c));
  t1 = fmt_s (c->b.from_ns + c1 * ns_per_col (c));
  *tooltip = g_strdup_printf ("idle steal %s – %s: idle-class I/O took %s of the device while "
                              "foreground I/O was outstanding for %s", t0, t1, s, a);
  *meta = g_strdup ("steal");
}

static void
shade_steal (Chart *c)
{
  const IochartStealDevice *d = c->io.sdev;

  if (!d || !d->stolen_columns || d->stolen_ns == 0)
    return;
  iochart_blocks_shade_runs (&c->b, d->stolen_columns, 2, steal_tip, c);
}

/* ---- header ---- */

static void
header_line (Chart *c, const char *text, double size, gboolean bold, guint32 color, const char *tip)
{
  iochart_blocks_header_line (&c->b, text, size, bold, color, tip);
}

/* "model name\t: Intel(R) Core(TM)2 CPU   6600 @ 2.40GHz\n..." -> the model, spaces folded */
static char *
cpu_model (IochartBootchart *bc)
{
  const char *v = iochart_bootchart_get_header_value (bc, "system.cpu");
  g_autofree char *first = NULL;
  const char *colon;
  g_auto(GStrv) words = NULL;

  if (v == NULL)
    return NULL;
  first = g_strndup (v, strcspn (v, "\n"));
  colon = strchr (first, ':');
  words = g_strsplit_set (colon ? colon + 1 : first, " \t", -1);
  {
    GString *s = g_string_new (NULL);
    for (guint i = 0; words[i]; i++)
      if (words[i][0])
        g_string_append_printf (s, "%s%s", s->len ? " " : "", words[i]);
    /* "(2)" after the model is the collector's CPU count, given apart */
    if (s->len > 4 && s->str[s->len - 1] == ')' && strrchr (s->str, '(') &&
        g_ascii_isdigit (strrchr (s->str, '(')[1]))
      {
        g_string_truncate (s, strrchr (s->str, '(') - s->str);
        while (s->len && s->str[s->len - 1] == ' ')
          g_string_truncate (s, s->len - 1);
      }
    return g_string_free (s, FALSE);
  }
}

static void
legend (Chart *c)
{
  IochartLegendItem items[16];
  guint n = 0;
  gboolean classes[IOCHART_N_CLASSES] = { 0 };

  items[n++] = (IochartLegendItem) { c->o->theme == IOCHART_THEME_DARK ? "running (lighter: more CPU)"
                                                                      : "running (darker: more CPU)", c->pal->running };
  items[n++] = (IochartLegendItem) { "waiting for I/O (D state)", c->pal->dstate };
  items[n++] = (IochartLegendItem) { "sleeping", c->pal->life };
  if (c->has_io)
    {
      for (guint r = 0; r < c->rows->len; r++)
        for (guint k = 0; k < IOCHART_N_CLASSES; k++)
          classes[k] |= g_array_index (c->rows, Row, r).io_bytes[k] > 0;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        classes[k] |= c->io.other_bytes[k] > 0;
      for (guint s = 0; s < G_N_ELEMENTS (stack_order); s++)
        if (classes[stack_order[s]])
          {
            static char names[IOCHART_N_CLASSES][32];
            g_snprintf (names[stack_order[s]], sizeof names[0], "%s-class I/O",
                        iochart_class_name (stack_order[s]));
            items[n++] = (IochartLegendItem) { names[stack_order[s]], iochart_class_color (c->o->theme, stack_order[s]) };
          }
      if (c->io.sdev && c->io.sdev->stolen_ns > 0)
        items[n++] = (IochartLegendItem) { "idle steal (shaded)", with_alpha (0xd55e00ff, 0x80) };
    }
  iochart_blocks_legend (&c->b, items, n, c->pal->base.frame);
}

static void
io_header (Chart *c)
{
  g_autofree char *base = iochart_capture_get_name (c->io.capture)
                          ? g_path_get_basename (iochart_capture_get_name (c->io.capture)) : g_strdup ("trace");
  guint64 bytes[IOCHART_N_CLASSES] = { 0 };
  g_autofree char *by_class = NULL, *line = NULL, *dname = NULL;
  guint64 total = 0;

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    for (guint i = 0; i < c->b.n; i++)
      {
        bytes[k] += (guint64) (c->io.bins->bytes[k][0][i] + c->io.bins->bytes[k][1][i]);
        total += (guint64) (c->io.bins->bytes[k][0][i] + c->io.bins->bytes[k][1][i]);
      }
  by_class = io_summary (bytes, FALSE);
  dname = io_device_name (c, TRUE);
  line = g_strdup_printf ("Block I/O (%s) on %s: %s · %s", base, dname,
                          total ? by_class : "no request in this range", c->io.alignment);
  header_line (c, line, FONT, FALSE, c->pal->base.fg, NULL);
  if (c->io.sdev && c->io.sdev->stolen_ns > 0)
    {
      const IochartStealDevice *d = c->io.sdev;
      g_autofree char *s = g_strdup_printf ("%.1f ms", d->stolen_ns / 1e6);
      g_autofree char *a = fmt_s (d->foreground_active_ns);
      g_autofree char *st = g_strdup_printf ("Idle steal on %s: %s stolen = %.1f%% of the %s with foreground I/O "
                                             "outstanding, %u episode%s (shaded)", dname, s,
                                             100.0 * d->stolen_ns / MAX (d->foreground_active_ns, 1), a,
                                             d->n_episodes, d->n_episodes == 1 ? "" : "s");
      header_line (c, st, FONT, TRUE, c->pal == &dark ? 0xff8a3dff : 0xb34700ff, NULL);
    }
  if (c->has_splits)
    header_line (c, iochart_capture_task_states_are_sampled (c->io.capture)
                    ? IOCHART_BLOCKS_TIME_SPLIT_HELP " (from the bootchart's samples, for processes in the trace)"
                    : IOCHART_BLOCKS_TIME_SPLIT_HELP " (from sched events)", FONT_SMALL, FALSE, c->pal->base.dim, NULL);
}

static void
header (Chart *c)
{
  IochartBootchart *bc = c->bc;
  const char *title = c->o->title ? c->o->title : iochart_bootchart_get_header_value (bc, "title");
  const char *uname = iochart_bootchart_get_header_value (bc, "system.uname");
  const char *release = iochart_bootchart_get_header_value (bc, "system.release");
  const char *cmdline = iochart_bootchart_get_header_value (bc, "system.kernel.options");
  g_autofree char *cpu = cpu_model (bc);
  g_autofree char *sys = NULL, *boot = NULL, *s0 = NULL, *s1 = NULL, *per = NULL, *win = NULL;
  double span;
  g_autofree char *n_all = iochart_format_count (iochart_bootchart_get_processes (bc)->len);
  GString *line = g_string_new (NULL);
  GArray *mem = iochart_bootchart_get_mem_samples (bc);
  double mem_total = 0;

  for (guint i = 0; i < mem->len; i++)
    mem_total = MAX (mem_total, g_array_index (mem, IochartBootchartMemSample, i).total_kb * 1024.0);
  c->b.y = MARGIN;
  header_line (c, title && title[0] ? title : "Boot chart", 16, TRUE, c->pal->base.fg, NULL);
  if (uname)
    g_string_append (line, uname);
  if (release)
    g_string_append_printf (line, "%s%s", line->len ? " · " : "", release);
  g_string_append_printf (line, "%sCPU: %s (%u CPU%s)", line->len ? " · " : "", cpu ? cpu : "unknown",
                          iochart_bootchart_get_n_cpus (bc), iochart_bootchart_get_n_cpus (bc) == 1 ? "" : "s");
  if (mem_total > 0)
    {
      /* the memory strip is scaled to what the boot used: the machine's size is told here */
      g_autofree char *m = iochart_format_bytes (mem_total);
      g_string_append_printf (line, " · memory: %s", m);
    }
  header_line (c, line->str, FONT, FALSE, c->pal->base.dim, NULL);
  g_string_free (line, TRUE);
  if (cmdline && *g_strstrip ((char *) cmdline))
    {
      g_autofree char *k = g_strdup_printf ("Kernel command line: %s", cmdline);
      header_line (c, k, FONT, FALSE, c->pal->base.dim, NULL);
    }
  span = iochart_bootchart_get_end_ns (bc) - iochart_bootchart_get_start_ns (bc);
  s0 = fmt_s_in (iochart_bootchart_get_start_ns (bc), span);
  s1 = fmt_s_in (iochart_bootchart_get_end_ns (bc), span);
  per = g_strdup_printf ("%.0f ms", iochart_bootchart_get_sample_period_ns (bc) / 1e6);
  win = fmt_s (c->window_ns);
  if (c->has_done)
    {
      g_autofree char *d = fmt_s_in (c->done_ns, span);
      boot = g_strdup_printf ("Boot done at %s after boot (CPU and disks then idle for %s)", d, win);
    }
  else if (c->window_ns > 0)
    {
      g_autofree char *d = fmt_s_in (iochart_bootchart_get_end_ns (bc), span);
      boot = g_strdup_printf ("Boot still busy at the last sample, %s after boot (no %s idle stretch)", d, win);
    }
  else
    {
      g_autofree char *d = fmt_s_in (iochart_bootchart_get_end_ns (bc), span);
      boot = g_strdup_printf ("Last sample %s after boot", d);
    }
  sys = g_strdup_printf ("%s · samples %s – %s every %s · %s processes, %u bars", boot, s0, s1, per, n_all,
                         c->rows->len);
  header_line (c, sys, 12, TRUE, c->pal->base.fg, NULL);
  if (c->has_io)
    io_header (c);
  legend (c);
}

/* ---- drawing ---- */

static void
resolve_range (IochartBootchart *bc, const IochartBootchartChartOptions *o, gint64 *from, gint64 *to)
{
  gint64 start = iochart_bootchart_get_start_ns (bc), end = iochart_bootchart_get_end_ns (bc);

  *from = o->from_ns != IOCHART_TIME_UNKNOWN ? o->from_ns : start;
  *to = o->to_ns != IOCHART_TIME_UNKNOWN ? o->to_ns : end;
  if (*to <= *from)
    *to = *from + MAX (iochart_bootchart_get_sample_period_ns (bc), 1000000);
}

IochartDisplayList *
iochart_bootchart_chart_draw (IochartBootchart *bc, IochartCapture *io,
                              const IochartBootchartChartOptions *options, GError **error)
{
  IochartBootchartChartOptions defaults = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
  Chart c = { 0 };
  g_autoptr(GArray) ms = g_array_new (FALSE, TRUE, sizeof (Milestone));
  IochartDisplayList *dl = NULL;
  double axis_top, band_top;
  IochartBootchartTreeFlags saved_flags;
  int want_flags;

  g_return_val_if_fail (IOCHART_IS_BOOTCHART (bc), NULL);
  if (options == NULL)
    options = &defaults;
  g_array_set_clear_func (ms, milestone_clear);
  c.bc = bc;
  c.o = options;
  c.pal = options->theme == IOCHART_THEME_DARK ? &dark : &light;
  {
    double width = MAX (options->width ? options->width : IOCHART_BOOTCHART_DEFAULT_WIDTH, LEFT + RIGHT + MIN_PLOT);
    gint64 from, to;

    resolve_range (bc, options, &from, &to);
    /* bootchart time counts from boot: ticks read seconds since boot */
    iochart_blocks_init (&c.b, &c.pal->base, width, LEFT, (guint) (width - LEFT - RIGHT), from, to, 0);
  }
  c.window_ns = options->done_window_ns < 0 ? IOCHART_BOOTCHART_DEFAULT_DONE_WINDOW_NS : options->done_window_ns;
  c.has_done = c.window_ns > 0 && iochart_bootchart_chart_find_boot_done (bc, c.window_ns, &c.done_ns);
  /* with block I/O, same-name siblings keep their own bars: an idle-class reader and a
   * best-effort one of one name are the story */
  saved_flags = iochart_bootchart_get_tree_flags (bc);
  want_flags = options->tree_flags >= 0 ? options->tree_flags
               : io != NULL ? (int) (saved_flags & ~IOCHART_BOOTCHART_TREE_MERGE_SIBLINGS) : (int) saved_flags;
  if ((IochartBootchartTreeFlags) want_flags != saved_flags)
    iochart_bootchart_set_tree_flags (bc, want_flags);
  c.rows = g_array_new (FALSE, TRUE, sizeof (Row));

  collect_rows (&c, iochart_bootchart_get_tree (bc), -1);
  if (io != NULL)
    setup_io (&c, io);
  if (!collect_milestones (&c, ms, error))
    goto out;

  header (&c);
  c.b.y += 8;
  band_top = c.b.y;
  c.b.y += milestone_band (&c, ms, band_top);
  axis_top = c.b.y + 12;
  c.b.y += 18;
  c.b.plot_top = band_top;
  cpu_strip (&c);
  c.b.y += 8;
  disk_strip (&c);
  c.b.y += 8;
  mem_strip (&c);
  processes_section (&c);
  c.b.plot_bottom = c.b.y;
  if (!options->fixed_ruler)
    time_axis (&c, axis_top, FALSE);
  c.b.plot_top = axis_top + 4;
  time_axis (&c, c.b.y + 14, TRUE);
  c.b.y += 24;
  if (c.has_io)
    shade_steal (&c);
  c.b.plot_top = band_top;
  milestone_lines (&c, ms);

  dl = iochart_blocks_finish (&c.b);

out:
  for (guint r = 0; r < c.rows->len; r++)
    g_free (g_array_index (c.rows, Row, r).io_mask);
  g_array_unref (c.rows);
  iochart_blocks_clear (&c.b);
  clear_io (&c.io);
  if ((IochartBootchartTreeFlags) want_flags != saved_flags)
    iochart_bootchart_set_tree_flags (bc, saved_flags);
  return dl;
}

/* ---- pages and outputs ---- */

GArray *
iochart_bootchart_chart_get_pages (IochartBootchart *bc, const IochartBootchartChartOptions *options)
{
  GArray *pages = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 from, to, page;

  resolve_range (bc, options, &from, &to);
  g_array_append_vals (pages, (gint64[]) { from, to }, 2);
  page = options->page_ns;
  if (page == 0 && to - from > 180 * (gint64) NS_PER_S)
    page = 60 * (gint64) NS_PER_S;
  if (page <= 0 || to - from <= page)
    return pages;
  /* the overview first, then the detail */
  for (gint64 t = from; t < to; t += page)
    g_array_append_vals (pages, (gint64[]) { t, MIN (t + page, to) }, 2);
  return pages;
}

static gboolean
cairo_status_ok (cairo_status_t status, const char *path, GError **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path,
               status == CAIRO_STATUS_WRITE_ERROR ? g_strerror (errno) : cairo_status_to_string (status));
  return FALSE;
}

/* cairo's image surfaces stop at 32767 px a side: a taller chart is scaled down to fit. */
static double
png_scale (IochartDisplayList *dl)
{
  double w = iochart_display_list_get_width (dl), h = iochart_display_list_get_height (dl);

  return MIN (1.0, MIN (PNG_MAX / w, PNG_MAX / h));
}

/* Said with the path the user gave, not the temporary file's. */
static void
warn_png_scale (IochartDisplayList *dl, const char *path)
{
  double scale = png_scale (dl);

  if (scale < 1.0)
    g_warning ("'%s': the chart is %.0f×%.0f px, over PNG's limit here: scaled by %.2f (SVG and PDF keep it whole)",
               path, iochart_display_list_get_width (dl), iochart_display_list_get_height (dl), scale);
}


static gboolean
write_pdf (IochartBootchart *bc, IochartCapture *io, const IochartBootchartChartOptions *options,
           const char *path, GError **error)
{
  g_autoptr(GArray) pages = iochart_bootchart_chart_get_pages (bc, options);
  cairo_surface_t *surface = NULL;
  cairo_status_t status;
  gboolean ok = TRUE;

  errno = 0;
  for (guint i = 0; i < pages->len / 2 && ok; i++)
    {
      IochartBootchartChartOptions po = *options;
      g_autoptr(IochartDisplayList) dl = NULL;
      cairo_t *cr;

      po.from_ns = g_array_index (pages, gint64, 2 * i);
      po.to_ns = g_array_index (pages, gint64, 2 * i + 1);
      dl = iochart_bootchart_chart_draw (bc, io, &po, error);
      if (dl == NULL)
        {
          ok = FALSE;
          break;
        }
      if (surface == NULL)
        surface = cairo_pdf_surface_create (path, iochart_display_list_get_width (dl),
                                            iochart_display_list_get_height (dl));
      else
        cairo_pdf_surface_set_size (surface, iochart_display_list_get_width (dl),
                                    iochart_display_list_get_height (dl));
      cr = cairo_create (surface);
      iochart_cairo_draw (dl, cr);
      cairo_show_page (cr);
      cairo_destroy (cr);
    }
  if (surface == NULL)
    return FALSE;
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return ok && cairo_status_ok (status, path, error);
}

/* each written through a temporary file (iochart_output_replace) */
typedef struct {
  IochartBootchart                   *bc;
  IochartCapture                     *io;
  const IochartBootchartChartOptions *options;
} PdfJob;

static gboolean
png_to (const char *path, gpointer dl, GError **error)
{
  return iochart_cairo_png_file (dl, png_scale (dl), path, error);
}

static gboolean
pdf_to (const char *path, gpointer data, GError **error)
{
  PdfJob *job = data;

  return write_pdf (job->bc, job->io, job->options, path, error);
}

gboolean
iochart_bootchart_chart_write (IochartBootchart *bc, IochartCapture *io,
                               const IochartBootchartChartOptions *options, const char *svg_path,
                               const char *png_path, const char *pdf_path, GError **error)
{
  IochartBootchartChartOptions defaults = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
  g_autoptr(IochartDisplayList) dl = NULL;

  if (options == NULL)
    options = &defaults;
  iochart_bootchart_chart_warn_annotations (bc, options);
  if (svg_path || png_path)
    {
      dl = iochart_bootchart_chart_draw (bc, io, options, error);
      if (dl == NULL)
        return FALSE;
      if (svg_path && !iochart_svg_write (dl, svg_path, error))
        return FALSE;
      if (png_path)
        warn_png_scale (dl, png_path);
      if (png_path && !iochart_output_replace (png_path, png_to, dl, error))
        return FALSE;
    }
  return pdf_path == NULL || iochart_output_replace (pdf_path, pdf_to, &(PdfJob) { bc, io, options }, error);
}

/* ---- events.dat of a bundle ---- */

static gboolean
is_events_member (const char *name)
{
  g_auto(GStrv) parts = g_strsplit (name, "/", -1);
  guint n = 0, depth = 0;

  for (guint i = 0; parts[i]; i++)
    if (parts[i][0] && strcmp (parts[i], ".") != 0)
      n++;
  depth = n;
  return depth >= 1 && depth <= 2 && g_str_has_suffix (name, "events.dat") &&
         (strcmp (name, "events.dat") == 0 || g_str_has_suffix (name, "/events.dat"));
}

static IochartCapture *
load_one (const char *path, GError **error)
{
  const char *paths[] = { path, NULL };
  return iochart_load (paths, NULL, error);
}

IochartCapture *
iochart_bootchart_chart_load_bundle_io (const char *path, GError **error)
{
  struct archive *a;
  struct archive_entry *entry;
  IochartCapture *capture = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *direct = g_build_filename (path, "events.dat", NULL);
      g_autoptr(GDir) dir = NULL;
      const char *name;

      if (g_file_test (direct, G_FILE_TEST_IS_REGULAR))
        return load_one (direct, error);
      dir = g_dir_open (path, 0, NULL);
      while (dir && (name = g_dir_read_name (dir)))
        {
          g_autofree char *sub = g_build_filename (path, name, "events.dat", NULL);
          if (g_file_test (sub, G_FILE_TEST_IS_REGULAR))
            return load_one (sub, error);
        }
      return NULL;
    }

  a = archive_read_new ();
  archive_read_support_filter_all (a);
  archive_read_support_format_all (a);
  if (archive_read_open_filename (a, path, 65536) != ARCHIVE_OK)
    {
      archive_read_free (a);
      return NULL;
    }
  while (archive_read_next_header (a, &entry) == ARCHIVE_OK)
    {
      g_autofree char *dir = NULL, *tmp = NULL;
      int fd = -1;

      if (!is_events_member (archive_entry_pathname (entry)))
        continue;
      /* the .dat reader wants a file (libtracecmd maps it), named as in the bundle */
      dir = g_dir_make_tmp ("iochart-bundle-XXXXXX", NULL);
      if (dir)
        {
          tmp = g_build_filename (dir, "events.dat", NULL);
          fd = g_open (tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
        }
      if (fd < 0 || archive_read_data_into_fd (a, fd) != ARCHIVE_OK)
        {
          /* a cut bundle still has its boot chart: the samples come first */
          if (fd >= 0)
            g_warning ("'%s': its '%s' is cut or damaged: its block I/O is left out",
                       path, archive_entry_pathname (entry));
          else
            g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot extract '%s': %s",
                         path, archive_entry_pathname (entry), g_strerror (errno));
          if (fd >= 0)
            close (fd);
          if (tmp)
            g_unlink (tmp);
          if (dir)
            g_rmdir (dir);
          break;
        }
      close (fd);
      capture = load_one (tmp, error);
      g_unlink (tmp);
      g_rmdir (dir);
      break;
    }
  archive_read_free (a);
  return capture;
}
