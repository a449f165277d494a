/* iochart-chart.c: the layout of the headless chart */
#include <math.h>
#include <string.h>
#include "iochart-chart.h"
#include "iochart-summary.h"
#include "iochart-format.h"
#include "iochart-blocks.h"
#include "iochart-time-split.h"

#define STEAL_COLOR IOCHART_STEAL_COLOR

typedef struct {
  IochartBlocksColors base;
  guint32             stripe, life, highlight;
  guint32             classes[IOCHART_N_CLASSES];
  /* the latency strip's median lines, opaque and 4.5:1 against bg at least (WCAG's for text): at
   * half alpha the class colours reached 2.2:1 on white and 1.7:1 on the dark ground */
  guint32             median_fg, median_idle;
  /* its p99 lines, the bold ones: a step further from bg than the medians (6:1 or more), so the
   * bold line reads strongest; the class colours themselves reached 3.3:1 (be, dark) and 3.4:1
   * (idle, light) */
  guint32             p99_fg, p99_idle;
} Palette;

/* Class colours: Okabe-Ito, told apart under every common colour-vision deficiency; each 3:1
 * against its ground at least (WCAG's for graphics), and each coloured class of a hue of its own. */
static const Palette light = {
  .base = { .bg = 0xffffffff, .fg = 0x202020ff, .dim = 0x606060ff, .grid = 0xe4e4e4ff, .frame = 0xb0b0b0ff,
            .steal_shade = 0xd55e0026 },
  .stripe = 0xf5f5f5ff, .life = 0xc8c8c8ff, .highlight = 0xfdf0c2ff,
  /* be's blue itself (5.2:1); idle's green darkened 17% toward black (4.8:1, the green 3.4:1) */
  .median_fg = 0x0072b2ff, .median_idle = 0x00835fff,
  /* be's blue darkened 17% toward black (6.9:1), idle's green 30% (6.2:1) */
  .p99_fg = 0x005f94ff, .p99_idle = 0x006f50ff,
  .classes = {
    [IOCHART_CLASS_NONE]    = 0x8a8a8aff,   /* grey (3.5:1; 999999 was 2.8:1) */
    [IOCHART_CLASS_RT]      = 0xcc79a7ff,   /* reddish purple (3.1:1) */
    [IOCHART_CLASS_BE]      = 0x0072b2ff,   /* blue (5.2:1) */
    [IOCHART_CLASS_IDLE]    = 0x009e73ff,   /* bluish green (3.4:1) */
    /* the dark theme's yellow darkened (3.6:1): sky blue (56b4e9) was be's hue, 2.3:1 on white */
    [IOCHART_CLASS_UNKNOWN] = 0x9e8600ff,
  },
};
static const Palette dark = {
  .base = { .bg = 0x1c1c20ff, .fg = 0xe6e6e6ff, .dim = 0xa0a0a0ff, .grid = 0x34343aff, .frame = 0x5a5a60ff,
            .steal_shade = 0xd55e0018 },
  .stripe = 0x24242aff, .life = 0x55555cff, .highlight = 0x3d3a22ff,
  /* be's blue lightened 21% toward white (4.8:1, the blue 3.3:1); idle's green itself (5.0:1) */
  .median_fg = 0x3690c2ff, .median_idle = 0x009e73ff,
  /* be's blue lightened 35% toward white (6.1:1), idle's green 20% (6.3:1) */
  .p99_fg = 0x59a3cdff, .p99_idle = 0x33b18fff,
  .classes = {
    [IOCHART_CLASS_NONE]    = 0x999999ff,
    [IOCHART_CLASS_RT]      = 0xcc79a7ff,
    [IOCHART_CLASS_BE]      = 0x0072b2ff,
    [IOCHART_CLASS_IDLE]    = 0x009e73ff,
    /* on a dark ground sky blue reads as be's blue: yellow, the other Okabe-Ito hue far from all */
    [IOCHART_CLASS_UNKNOWN] = 0xf0e442ff,
  },
};

#define MARGIN        IOCHART_BLOCKS_MARGIN
#define FONT          IOCHART_BLOCKS_FONT
#define FONT_SMALL    IOCHART_BLOCKS_FONT_SMALL
#define LINE          16.0
#define LANE_HEIGHT   30.0
/* strip subtitles span the label column: their rows are clear of the top and bottom ticks (the
 * title, beside the top one, is cut to its side) */
#define STRIP_ROOM    iochart_blocks_label_room (&c->b, NULL)

#define stack_order   iochart_blocks_stack_order
#define with_alpha    iochart_rgba_with_alpha

typedef struct {
  IochartBlocks             b;
  IochartView              *view;
  IochartCapture           *capture;
  IochartBins              *bins;
  IochartBins              *hl;       /* the highlighted lane's own bins, or NULL */
  guint8                    alpha;    /* of everything else while a lane is highlighted */
  IochartSteal             *steal;
  const IochartStealDevice *sdev;
  IochartLanes             *lanes;
  IochartTimeSplits        *splits;   /* NULL without scheduler events */
  const Palette            *pal;
  const char               *class_hint; /* the style's, or NULL */
} Chart;

/* The time split bar under a lane's name: running, waiting for a CPU, for I/O, other D, asleep. */

gboolean
iochart_theme_from_name (const char *name, IochartTheme *theme)
{
  if (g_strcmp0 (name, "light") == 0)
    *theme = IOCHART_THEME_LIGHT;
  else if (g_strcmp0 (name, "dark") == 0)
    *theme = IOCHART_THEME_DARK;
  else
    return FALSE;
  return TRUE;
}

const IochartBlocksColors *
iochart_chart_colors (IochartTheme theme)
{
  return theme == IOCHART_THEME_DARK ? &dark.base : &light.base;
}

guint32
iochart_class_color (IochartTheme theme, IochartClass klass)
{
  return (theme == IOCHART_THEME_DARK ? &dark : &light)->classes[MIN (klass, IOCHART_N_CLASSES - 1)];
}

/* ---- units ---- */

static char *
fmt_dev (IochartCapture *capture, int device)
{
  const IochartDevice *d;

  /* a capture with events but no block request has no device: its chart is empty, not absent */
  if (device < 0 || (guint) device >= iochart_capture_get_n_devices (capture))
    return g_strdup ("none");
  d = iochart_capture_get_device (capture, device);
  if (d->name)
    return g_strdup_printf ("%u,%u (%s)", IOCHART_DEV_MAJOR (d->dev), IOCHART_DEV_MINOR (d->dev), d->name);
  return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (d->dev), IOCHART_DEV_MINOR (d->dev));
}

static char *
fmt_process (IochartCapture *capture, guint32 p)
{
  const IochartProcess *proc;

  if (p == IOCHART_NO_PROCESS || p >= iochart_capture_get_n_processes (capture))
    return g_strdup ("unknown process");
  proc = iochart_capture_get_process (capture, p);
  return g_strdup_printf ("%s[%d]", proc->comm ? proc->comm : "?", proc->pid);
}

/* ---- labels: collected, then placed so that no two ever overlap ---- */

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

/* ---- geometry helpers ---- */

static double
col_x (Chart *c, double col)
{
  return c->b.x0 + col;
}

static double
time_x (Chart *c, gint64 ns)
{
  return iochart_blocks_time_x (&c->b, ns);
}

/* Stacked areas from base_y; scale is pixels per unit, negative to grow upwards. Opaque, each
 * class is drawn from the base up to its top where it has any, the upper classes first: where two
 * classes meet inside a pixel the lower one's edge covers the upper one, which the background did
 * not show through (between two bands, each covering its share of the pixel, it did: a light
 * seam). Translucent, each is the band over the classes under it (overlapping, they would mix). */
static void
stacked (Chart *c, double *const series[IOCHART_N_CLASSES], double base_y, double scale,
         guint8 alpha, const char *what)
{
  guint8 a = alpha * c->alpha / 255;
  g_autofree double *cum = g_new (double, (gsize) c->b.n * (G_N_ELEMENTS (stack_order) + 1));
  g_autofree double *top = g_new (double, c->b.n);

  /* (the rows above the first are written below) */
  memset (cum, 0, c->b.n * sizeof (double));

  /* cum + s * n: the classes under the s-th in the stack */
  for (guint s = 0; s < G_N_ELEMENTS (stack_order); s++)
    for (guint i = 0; i < c->b.n; i++)
      cum[(s + 1) * c->b.n + i] = cum[s * c->b.n + i] + (series[stack_order[s]] ? series[stack_order[s]][i] : 0);
  for (guint o = 0; o < G_N_ELEMENTS (stack_order); o++)
    {
      guint s = a == 0xff ? G_N_ELEMENTS (stack_order) - 1 - o : o;
      IochartClass k = stack_order[s];
      const double *under = cum + s * c->b.n, *over = cum + (s + 1) * c->b.n;
      g_autofree char *tip = NULL;

      if (series[k] == NULL)
        continue;
      for (guint i = 0; i < c->b.n; i++)
        top[i] = a == 0xff && series[k][i] <= 0 ? 0 : over[i];
      tip = g_strdup_printf ("%s, %s class", what, iochart_class_name (k));
      iochart_blocks_area (&c->b, a == 0xff ? NULL : under, top, base_y, -scale, with_alpha (c->pal->classes[k], a),
                           tip);
    }
}

/* The highlighted lane's part of a strip, drawn at full strength over the faded whole. */
static void
stacked_lane (Chart *c, double *const series[IOCHART_N_CLASSES], double base_y, double scale, guint8 alpha,
              const char *what)
{
  guint8 saved = c->alpha;
  g_autofree char *tip = g_strdup_printf ("%s of the highlighted lane", what);

  c->alpha = 0xff;
  stacked (c, series, base_y, scale, alpha, tip);
  c->alpha = saved;
}

/* ---- time axis ---- */

static void
time_axis (Chart *c, double y_labels, gboolean grid)
{
  iochart_blocks_time_axis (&c->b, y_labels, grid);
}

/* ---- strips ---- */

static void
strip_frame (Chart *c, double top, double h, const char *title, const char *subtitle,
             const char *top_tick, const char *mid_tick, const char *bottom_tick)
{
  const char *subtitles[] = { subtitle, NULL };

  iochart_blocks_strip_frame (&c->b, top, h, STRIP_ROOM, title, subtitles, top_tick, mid_tick, bottom_tick);
}

static double
series_max (double *const series[IOCHART_N_CLASSES], guint n)
{
  double max = 0;

  for (guint i = 0; i < n; i++)
    {
      double sum = 0;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        sum += series[k] ? series[k][i] : 0;
      max = MAX (max, sum);
    }
  return max;
}

/* The sum over columns and classes. */
static double
series_total (double *const series[IOCHART_N_CLASSES], guint n)
{
  double sum = 0;

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    for (guint i = 0; series[k] && i < n; i++)
      sum += series[k][i];
  return sum;
}

/* Per-second rates of per-column sums. */
static void
rates (Chart *c, double *const in[IOCHART_N_CLASSES], double *out[IOCHART_N_CLASSES], double per)
{
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      out[k] = g_new (double, c->b.n);
      for (guint i = 0; i < c->b.n; i++)
        out[k][i] = in[k][i] / (iochart_bins_column_ns (c->bins, i) / per);
    }
}

static void
free_series (double *s[IOCHART_N_CLASSES])
{
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    g_clear_pointer (&s[k], g_free);
}

static void
throughput_strip (Chart *c)
{
  double *in[2][IOCHART_N_CLASSES], *rd[IOCHART_N_CLASSES], *wr[IOCHART_N_CLASSES];
  double *hl_rd[IOCHART_N_CLASSES] = { NULL }, *hl_wr[IOCHART_N_CLASSES] = { NULL };
  double h = 100, top = c->b.y, max_r, max_w, max, br, bw;
  g_autofree char *top_tick = NULL, *bottom_tick = NULL;

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      in[0][k] = c->bins->bytes[k][0];
      in[1][k] = c->bins->bytes[k][1];
    }
  br = series_total (in[0], c->b.n);
  bw = series_total (in[1], c->b.n);
  rates (c, in[0], rd, 1e9);
  rates (c, in[1], wr, 1e9);
  if (c->hl)
    {
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          in[0][k] = c->hl->bytes[k][0];
          in[1][k] = c->hl->bytes[k][1];
        }
      rates (c, in[0], hl_rd, 1e9);
      rates (c, in[1], hl_wr, 1e9);
    }
  max_r = series_max (rd, c->b.n);
  max_w = series_max (wr, c->b.n);

  if (max_w > 0 && max_r > 0)
    {
      /* reads grow up from a baseline, writes down from it, each with its own labelled scale.
       * Each side gets room by the bytes it moved in view (at least a quarter), not by its peak:
       * a peak is one column's, so one fast sync write would take three quarters of the strip at
       * 2500 px and less at 700, and a trickle of journal writes must not flatten the reads */
      double nr = iochart_nice_ceil_bytes (max_r), nw = iochart_nice_ceil_bytes (max_w);
      double hr = h * CLAMP (br / (br + bw), 0.25, 0.75), base = top + hr;
      g_autofree char *r = iochart_format_bytes (nr), *w = iochart_format_bytes (nw);

      top_tick = g_strdup_printf ("%s/s", r);
      bottom_tick = g_strdup_printf ("%s/s", w);
      strip_frame (c, top, h, "Throughput", "read\u00a0↑  write\u00a0↓", top_tick, NULL, bottom_tick);
      label (c, c->b.x0 - 5, base + 4, "0", FONT_SMALL, IOCHART_ANCHOR_END, c->pal->base.dim, 4);
      stacked (c, rd, base, -hr / nr, 0xff, "read throughput");
      stacked (c, wr, base, (h - hr) / nw, 0xa0, "write throughput");
      if (c->hl)
        {
          stacked_lane (c, hl_rd, base, -hr / nr, 0xff, "read throughput");
          stacked_lane (c, hl_wr, base, (h - hr) / nw, 0xa0, "write throughput");
        }
      iochart_display_list_line (c->b.dl, c->b.x0, base, c->b.x0 + c->b.n, base, c->pal->base.frame, 1);
    }
  else
    {
      gboolean writes = max_w > 0;
      g_autofree char *m = NULL;

      max = iochart_nice_ceil_bytes (MAX (max_r, max_w));
      m = iochart_format_bytes (max);
      top_tick = g_strdup_printf ("%s/s", m);
      strip_frame (c, top, h, "Throughput", writes ? "writes (no reads)" : "reads (no writes)",
                   top_tick, NULL, "0");
      stacked (c, writes ? wr : rd, top + h, -h / max, writes ? 0xa0 : 0xff,
               writes ? "write throughput" : "read throughput");
      if (c->hl)
        stacked_lane (c, writes ? hl_wr : hl_rd, top + h, -h / max, writes ? 0xa0 : 0xff,
                      writes ? "write throughput" : "read throughput");
    }
  free_series (rd);
  free_series (wr);
  free_series (hl_rd);
  free_series (hl_wr);
  c->b.y += h;
}

/* hl: the highlighted lane's part of in, or NULL. */
static void
simple_strip (Chart *c, const char *title, const char *subtitle, double *const in[IOCHART_N_CLASSES],
              double *const hl[IOCHART_N_CLASSES], double per, double h, const char *unit, const char *what)
{
  double *v[IOCHART_N_CLASSES], max;
  g_autofree char *top_tick = NULL;

  rates (c, in, v, per);
  max = iochart_nice_ceil (series_max (v, c->b.n));
  top_tick = max >= 10 ? g_strdup_printf ("%.0f%s", max, unit) : g_strdup_printf ("%g%s", max, unit);
  strip_frame (c, c->b.y, h, title, subtitle, top_tick, NULL, "0");
  stacked (c, v, c->b.y + h, -h / max, 0xff, what);
  free_series (v);
  if (hl)
    {
      rates (c, hl, v, per);
      stacked_lane (c, v, c->b.y + h, -h / max, 0xff, what);
      free_series (v);
    }
  c->b.y += h;
}

/* Quantile of a 5-column window: per-pixel percentiles of a few requests are mostly noise. */
/* The latency of five columns around one (smoothing single outliers), as one histogram that
 * slides along the columns: a column's buckets are added once and taken away once. */
typedef struct {
  guint32 merged[IOCHART_LAT_BUCKETS];
  guint64 total;
} LatWindow;

/* Each column's completions of group g (fewer than 2^32), summed once for the scale and the
 * window, which ask for each column up to three times. */
static guint32 *
lat_column_totals (const IochartBins *bins)
{
  guint n = bins->n_columns;
  guint32 *totals = g_new (guint32, MAX ((gsize) n * IOCHART_N_LAT_GROUPS, 1));

  for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
    for (guint i = 0; i < n; i++)
      {
        const guint32 *restrict h = bins->latency[g] + (gsize) i * IOCHART_LAT_BUCKETS;
        guint32 total = 0;

        /* a loop of a fixed length, without a product, so that it takes a vector at a time */
        for (guint k = 0; k < IOCHART_LAT_BUCKETS; k++)
          total += h[k];
        totals[(gsize) g * n + i] = total;
      }
  return totals;
}

static void
lat_window_add (LatWindow *w, const IochartBins *bins, IochartLatGroup g, const guint32 *totals, guint j, int sign)
{
  const guint32 *restrict h = bins->latency[g] + (gsize) j * IOCHART_LAT_BUCKETS;
  guint32 *restrict merged = w->merged;
  guint32 total = totals[j];

  /* most columns of a zoomed-in chart have no completions */
  if (total == 0)
    return;
  if (sign > 0)
    for (guint k = 0; k < IOCHART_LAT_BUCKETS; k++)
      merged[k] += h[k];
  else
    for (guint k = 0; k < IOCHART_LAT_BUCKETS; k++)
      merged[k] -= h[k];
  w->total += sign * (gint64) total;
}

/* The bucket's geometric middle. */
static double
lat_bucket_ns (guint k)
{
  return exp2 (IOCHART_LAT_MIN_LOG2 + (k + 0.5) / IOCHART_LAT_SUB);
}

/* Per column i, the median and the p99 of the window of columns i - 2 .. i + 2, or -1 (both
 * from one slide of the window and one pass over its buckets). */
static void
latency_window (Chart *c, const IochartBins *bins, const guint32 *all_totals, IochartLatGroup g, double *p50,
                double *p99)
{
  LatWindow w = { 0 };
  const guint32 *totals = all_totals + (gsize) g * bins->n_columns;

  for (guint i = 0; i < c->b.n; i++)
    {
      guint64 acc = 0, want50, want99;
      guint k = 0;

      for (guint j = i == 0 ? 0 : i + 2; j <= i + 2 && j < c->b.n; j++)
        lat_window_add (&w, bins, g, totals, j, 1);
      if (i >= 3)
        lat_window_add (&w, bins, g, totals, i - 3, -1);
      p50[i] = p99[i] = -1;
      if (w.total == 0)
        continue;
      want50 = MAX ((guint64) ceil (0.5 * w.total), 1);
      want99 = MAX ((guint64) ceil (0.99 * w.total), 1);
      for (; k < IOCHART_LAT_BUCKETS; k++)
        if ((acc += w.merged[k]) >= want50)
          {
            p50[i] = lat_bucket_ns (k);
            break;
          }
      /* acc now counts buckets 0 .. k */
      if (k < IOCHART_LAT_BUCKETS && acc >= want99)
        {
          p99[i] = lat_bucket_ns (k);
          continue;
        }
      for (k++; k < IOCHART_LAT_BUCKETS; k++)
        if ((acc += w.merged[k]) >= want99)
          {
            p99[i] = lat_bucket_ns (k);
            break;
          }
    }
}

/* Over the columns of a group (each its own histogram, as iochart_bins_latency_quantile takes
 * it), the least bucket of a median and the greatest of a p99 (-1: no column has any). */
static void
column_quantile_range (const IochartBins *bins, const guint32 *all_totals, IochartLatGroup g, int *k50, int *k99)
{
  const guint32 *totals = all_totals + (gsize) g * bins->n_columns;

  *k50 = *k99 = -1;
  for (guint i = 0; i < bins->n_columns; i++)
    {
      const guint32 *h = bins->latency[g] + (gsize) i * IOCHART_LAT_BUCKETS;
      guint64 total = totals[i], acc = 0, want50, want99;
      guint k = 0;

      if (total == 0)
        continue;
      want50 = MAX ((guint64) ceil (0.5 * total), 1);
      want99 = MAX ((guint64) ceil (0.99 * total), 1);
      while ((acc += h[k]) < want50)
        k++;
      if (*k50 < 0 || (int) k < *k50)
        *k50 = (int) k;
      while (acc < want99)
        acc += h[++k];
      *k99 = MAX (*k99, (int) k);
    }
}

/* Columns without completions a latency line spans: 4 (a gap as narrow as its window's 5 columns
 * would hardly show), more in a wide chart, where sparse I/O made the line dashes of a few pixels
 * with gaps as long, hard to see: a gap shows once it is 1/256 of the plot. */
static guint
latency_bridge (Chart *c)
{
  return MAX (4, c->b.n / 256);
}

static void
latency_line (Chart *c, const IochartBins *bins, const double *values, double lo, double hi, double top,
              double h, guint32 color, double width, gboolean dashed, const char *tip)
{
  /* while a lane is highlighted, the whole device's lines fade */
  if (bins == c->bins)
    color = with_alpha (color, (color & 0xff) * c->alpha / 255);
  g_autoptr(GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  guint gap = 0, bridge = latency_bridge (c);

  for (guint i = 0; i <= c->b.n; i++)
    {
      double v = i < c->b.n ? values[i] : -1;

      if (v > 0)
        {
          double pt[2] = { col_x (c, i + 0.5), top + h - (log10 (v) - lo) / (hi - lo) * h };
          g_array_append_vals (pts, pt, 2);
          gap = 0;
          continue;
        }
      if (++gap <= bridge && i < c->b.n)
        continue;
      if (pts->len >= 2)
        {
          guint np;
          IochartDlItem *item;

          if (pts->len == 2)
            {
              /* a lone column: a short dash, not an invisible point */
              double pt[2] = { g_array_index (pts, double, 0) + 1, g_array_index (pts, double, 1) };
              g_array_index (pts, double, 0) -= 1;
              g_array_append_vals (pts, pt, 2);
            }
          iochart_blocks_simplify (pts);
          np = pts->len / 2;
          item = iochart_display_list_polyline (c->b.dl, (double *) g_array_free (g_steal_pointer (&pts), FALSE),
                                                np, color, width);
          item->dashed = dashed;
          iochart_dl_item_set_tooltip (item, tip);
          pts = g_array_new (FALSE, FALSE, sizeof (double));
        }
    }
}

static void
latency_strip (Chart *c)
{
  double h = 80, top = c->b.y, lo = INFINITY, hi = -INFINITY;
  guint n = c->b.n;
  g_autofree double *v = g_new (double, 4 * (gsize) n);
  double *fg50 = v, *fg99 = v + n, *idle50 = v + 2 * n, *idle99 = v + 3 * n;
  g_autofree guint32 *totals = lat_column_totals (c->bins), *hl_totals = NULL;

  /* the scale: the least column median and the greatest column p99 (log10 keeps their order) */
  for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
    {
      int k50, k99;

      column_quantile_range (c->bins, totals, g, &k50, &k99);
      if (k50 >= 0)
        lo = MIN (lo, log10 (lat_bucket_ns (k50)));
      if (k99 >= 0)
        hi = MAX (hi, log10 (lat_bucket_ns (k99)));
    }
  if (!isfinite (lo) || !isfinite (hi))
    {
      lo = 6;
      hi = 7;
    }
  lo = floor (lo);
  hi = MAX (ceil (hi), lo + 1);

  {
    static const char *const what[IOCHART_N_LATENCY_KINDS] = {
      "Q2I: queue to insert", "I2D: in the scheduler", "D2C: on the device", "Q2C: queue to completion" };
    const char *subtitles[] = { what[c->bins->latency_kind], "p99 bold, median thin", "non-idle solid, idle dashed", NULL };
    double widest = 0, room;

    /* a decade tick beside every row: the labels keep left of the widest; and the strip grows
     * (a narrow chart's) until they all show */
    for (double d = lo; d <= hi + 1e-9; d++)
      {
        g_autofree char *text = iochart_format_duration (pow (10, d));
        widest = MAX (widest, iochart_text_width (text, FONT_SMALL, FALSE));
      }
    room = iochart_blocks_label_room (&c->b, NULL) - widest;
    h = MAX (h, iochart_blocks_subtitles_height (subtitles, room));
    iochart_blocks_strip_frame (&c->b, top, h, room, "Latency", subtitles, NULL, NULL, NULL);
  }
  for (double d = lo; d <= hi + 1e-9; d++)
    {
      double y = top + h - (d - lo) / (hi - lo) * h;
      g_autofree char *text = iochart_format_duration (pow (10, d));

      if (d > lo && d < hi)
        iochart_display_list_line (c->b.dl, c->b.x0, y, c->b.x0 + c->b.n, y, c->pal->base.grid, 1);
      label (c, c->b.x0 - 5, d == hi ? y + 9 : d == lo ? y : y + 4, text, FONT_SMALL, IOCHART_ANCHOR_END,
             c->pal->base.dim, 4);
    }
  latency_window (c, c->bins, totals, IOCHART_LAT_FOREGROUND, fg50, fg99);
  latency_window (c, c->bins, totals, IOCHART_LAT_IDLE, idle50, idle99);
  latency_line (c, c->bins, fg99, lo, hi, top, h, c->pal->p99_fg, 1.5,
                FALSE, "p99 latency of non-idle requests");
  latency_line (c, c->bins, fg50, lo, hi, top, h, c->pal->median_fg, 1,
                FALSE, "median latency of non-idle requests");
  /* idle dashed: the two classes often wait alike, and solid lines on one another hide one */
  latency_line (c, c->bins, idle99, lo, hi, top, h, c->pal->p99_idle, 1.5,
                TRUE, "p99 latency of idle requests");
  latency_line (c, c->bins, idle50, lo, hi, top, h, c->pal->median_idle, 1,
                TRUE, "median latency of idle requests");
  if (c->hl)
    {
      hl_totals = lat_column_totals (c->hl);
      latency_window (c, c->hl, hl_totals, IOCHART_LAT_FOREGROUND, fg50, fg99);
      latency_window (c, c->hl, hl_totals, IOCHART_LAT_IDLE, idle50, idle99);
      latency_line (c, c->hl, fg99, lo, hi, top, h, c->pal->p99_fg, 2,
                    FALSE, "p99 latency of the highlighted lane");
      latency_line (c, c->hl, idle99, lo, hi, top, h, c->pal->p99_idle, 2,
                    TRUE, "p99 latency of the highlighted lane");
    }
  c->b.y += h;
}

static void
steal_strip (Chart *c)
{
  double h = 50, top = c->b.y;
  double *active[IOCHART_N_CLASSES] = { 0 }, *stolen[IOCHART_N_CLASSES] = { 0 };

  strip_frame (c, top, h, "Idle steal", "stolen share; grey: fg waiting", "100%", NULL, "0");
  if (c->sdev && c->sdev->active_columns)
    {
      active[IOCHART_CLASS_NONE] = g_new (double, c->b.n);
      stolen[IOCHART_CLASS_NONE] = g_new (double, c->b.n);
      for (guint i = 0; i < c->b.n; i++)
        {
          double w = iochart_bins_column_ns (c->bins, i);
          active[IOCHART_CLASS_NONE][i] = MIN (c->sdev->active_columns[i] / w, 1.0);
          stolen[IOCHART_CLASS_NONE][i] = MIN (c->sdev->stolen_columns[i] / w, 1.0);
        }
      stacked (c, active, top + h, -h, 0x50, "foreground I/O outstanding");
      {
        guint before = iochart_display_list_get_n_items (c->b.dl);
        stacked (c, stolen, top + h, -h, 0xff, "idle steal");
        if (iochart_display_list_get_n_items (c->b.dl) > before)
          {
            IochartDlItem *item = (IochartDlItem *) iochart_display_list_get_item (c->b.dl, before);
            item->fill = STEAL_COLOR;
            iochart_dl_item_set_tooltip (item, "share of the device taken by idle I/O while foreground I/O was outstanding");
          }
      }
      free_series (active);
      free_series (stolen);
    }
  c->b.y += h;
}

/* The highlighted lane's cells of the sector map, a pixel each, would hide among the others':
 * a 3-pixel mark each, under one tooltip (a few thousand at most). */
static void
sector_marks (Chart *c, double top)
{
  guint rows = c->hl->sector_rows, n = 0;

  iochart_display_list_begin_group (c->b.dl, "requests of the highlighted lane", NULL);
  for (guint r = 0; r < rows; r++)
    for (guint i = 0; i < c->b.n && n < 5000; i++)
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        if (c->hl->sectors[k][(gsize) r * c->b.n + i] > 0)
          {
            iochart_display_list_rect (c->b.dl, col_x (c, i) - 1, top + rows - 1 - r - 1, 3, 3, c->pal->classes[k], 0);
            n++;
            break;
          }
  iochart_display_list_end_group (c->b.dl);
}

/* A sparse map's cells (a small capture's few requests) as 3x3 marks: a lone pixel in a strip
 * 110 high goes unseen. The cells keep their own pixel; a mark's rim only fills empty pixels, the
 * first cell's in row order first. */
static void
sector_sparse_marks (guint32 *px, guint n, guint rows)
{
  g_autofree guint32 *cells = g_memdup2 (px, (gsize) n * rows * 4);

  for (guint y = 0; y < rows; y++)
    for (guint x = 0; x < n; x++)
      {
        guint32 v = cells[(gsize) y * n + x];

        if (v == 0)
          continue;
        for (guint yy = y ? y - 1 : 0; yy <= MIN (y + 1, rows - 1); yy++)
          for (guint xx = x ? x - 1 : 0; xx <= MIN (x + 1, n - 1); xx++)
            if (px[(gsize) yy * n + xx] == 0)
              px[(gsize) yy * n + xx] = v;
      }
}

/* The sector map's bottom and top ticks: a narrow band far into a big device read the same
 * ("23 TiB" twice); then both in the top's unit with the decimals that tell them apart. */
static void
sector_ticks (double lo_bytes, double hi_bytes, char **lo, char **hi)
{
  static const char * const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
  double div = 1024;
  guint u = 0;

  *lo = lo_bytes > 0 ? iochart_format_bytes (lo_bytes) : g_strdup ("0");
  *hi = iochart_format_bytes (hi_bytes);
  if (strcmp (*lo, *hi) != 0 || hi_bytes < 1024)
    return;
  while (hi_bytes / div >= 1024 && u + 1 < G_N_ELEMENTS (units))
    {
      div *= 1024;
      u++;
    }
  for (int decimals = 1; decimals <= 6 && strcmp (*lo, *hi) == 0; decimals++)
    {
      g_free (*lo);
      g_free (*hi);
      *lo = g_strdup_printf ("%.*f %s", decimals, lo_bytes / div, units[u]);
      *hi = g_strdup_printf ("%.*f %s", decimals, hi_bytes / div, units[u]);
    }
}

/* Per cell of a row (at: its first cell), any class's count (0: none), a class at a time;
 * returns the classes with a cell in the row (1 << class), the only ones a cell there can take. */
static guint
sector_row_any (guint32 *restrict any, const IochartBins *bins, gsize at, guint n)
{
  guint mask = 0;

  memset (any, 0, n * sizeof (guint32));
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      const guint32 *restrict s = bins->sectors[k] + at;
      guint32 seen = 0;

      /* a class the bins count no cell of: zero throughout */
      if (!(bins->sector_classes & (1u << k)))
        continue;
      for (guint i = 0; i < n; i++)
        {
          any[i] |= s[i];
          seen |= s[i];
        }
      mask |= seen ? 1u << k : 0;
    }
  return mask;
}

/* Per cell of a row (at: its first cell), the classes' total count and the first class with the
 * most (0 where the cell has none), a class at a time: loops over the row that take a vector of
 * cells at a time, where a cell's loop over its classes branched on each (a wide frame fills
 * 100k cells). */
static void
sector_row_best (const IochartBins *bins, gsize at, guint n, guint32 *restrict total, guint32 *restrict best,
                 guint32 *restrict k_best)
{
  gboolean first = TRUE;

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      const guint32 *restrict s = bins->sectors[k] + at;

      /* a class the bins count no cell of: zero throughout */
      if (!(bins->sector_classes & (1u << k)))
        continue;
      /* the first class sets the cells (a later one with more takes them: more than 0 first) */
      if (first)
        for (guint i = 0; i < n; i++)
          {
            total[i] = best[i] = s[i];
            k_best[i] = k;
          }
      else
        for (guint i = 0; i < n; i++)
          {
            guint32 v = s[i], more = v > best[i];

            total[i] += v;
            best[i] = more ? v : best[i];
            k_best[i] = more ? k : k_best[i];
          }
      first = FALSE;
    }
  if (first)
    memset (total, 0, n * sizeof (guint32));
}

/* Each class's colour at every alpha as cairo's ARGB32 (native-endian, premultiplied): a cell
 * of the map costs a lookup, not three divisions (a wide frame fills 100k cells). */
static guint32 *
sector_inks (const Chart *c)
{
  guint32 *inks = g_new (guint32, IOCHART_N_CLASSES * 256);

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      guint32 rgba = c->pal->classes[k];

      for (guint32 a = 0; a < 256; a++)
        inks[k * 256 + a] = a << 24 | ((rgba >> 24) * a / 255) << 16 | (((rgba >> 16) & 0xff) * a / 255) << 8 |
                            (((rgba >> 8) & 0xff) * a / 255);
    }
  return inks;
}

/* One pixel per column and sector band, coloured by the class with most requests there; a
 * sparse map's at full strength, as marks (sector_sparse_marks). */
static void
sector_strip (Chart *c)
{
  guint rows = c->bins->sector_rows, stride = c->b.n * 4;
  double h = rows + 4, top = c->b.y;
  /* (without a highlighted lane, every pixel is written below) */
  guint8 *pixels = c->hl ? g_new0 (guint8, (gsize) stride * rows) : g_new (guint8, (gsize) stride * rows);
  /* each row's any-class counts, kept from the empty check for the pass that draws */
  g_autofree guint32 *any_rows = g_new (guint32, (gsize) c->b.n * rows), *any_hl = g_new (guint32, c->b.n);
  g_autofree guint32 *inks = sector_inks (c);
  g_autofree guint *masks = g_new (guint, rows);
  g_autofree guint32 *cell_total = g_new (guint32, 3 * (gsize) c->b.n);
  guint32 *cell_best = cell_total + c->b.n, *cell_class = cell_best + c->b.n;
  guint dense[32], filled = 0, checked = 0;
  gboolean sparse;
  g_autofree char *max = NULL, *min = NULL;
  const char *subtitles[] = { "offset on the device",
                              c->bins->sector_trimmed ? "zoomed to 98% of requests,"
                              : c->bins->min_sector > 0 ? "zoomed to the offsets used" : NULL,
                              c->bins->sector_trimmed ? "the rest at its edges" : NULL, NULL };

  sector_ticks ((double) c->bins->min_sector * 512, (double) c->bins->max_sector * 512, &min, &max);
  iochart_blocks_strip_frame (&c->b, top, h, STRIP_ROOM, "Sector map", subtitles, max, NULL, min);
  /* fewer filled cells than columns: a pass over the empty check alone, stopped at the bound */
  for (; checked < rows && filled < c->b.n; checked++)
    {
      guint32 *any = any_rows + (gsize) checked * c->b.n;

      masks[checked] = sector_row_any (any, c->bins, (gsize) checked * c->b.n, c->b.n);
      for (guint i = 0; i < c->b.n; i++)
        filled += any[i] != 0;
    }
  sparse = filled < c->b.n;
  /* a dense map's alpha by floor (log2 (count)) */
  for (guint b = 0; b < 32; b++)
    dense[b] = MIN (255, 130 + 40 * b) * c->alpha / 255;
  for (guint r = 0; r < rows && c->hl == NULL; r++)
    {
      guint32 *px = (guint32 *) (pixels + (gsize) (rows - 1 - r) * stride);

      sector_row_best (c->bins, (gsize) r * c->b.n, c->b.n, cell_total, cell_best, cell_class);
      for (guint i = 0; i < c->b.n; i++)
        /* floor (log2 (total)), as the bit it tops */
        px[i] = cell_total[i] == 0 ? 0
                : inks[cell_class[i] * 256 + (sparse ? c->alpha : dense[31 - __builtin_clz (cell_total[i])])];
    }
  /* with a lane highlighted, its cells take their class at full strength */
  for (guint r = 0; r < rows && c->hl; r++)
    {
      gsize at = (gsize) r * c->b.n;
      guint32 *any = any_rows + at;
      guint mask;

      /* most cells are empty: a pass over the row's classes at once passes them */
      if (r >= checked)
        masks[r] = sector_row_any (any, c->bins, at, c->b.n);
      mask = masks[r];
      if (c->hl)
        {
          mask |= sector_row_any (any_hl, c->hl, at, c->b.n);
          for (guint i = 0; i < c->b.n; i++)
            any[i] |= any_hl[i];
        }
      for (guint i = 0; i < c->b.n; i++)
        {
          guint32 best = 0, total = 0, a, mine = 0;
          guint k_best = 0;
          guint8 *px = pixels + (gsize) (rows - 1 - r) * stride + i * 4;

          if (any[i] == 0)
            continue;
          /* a class with no cell in the row has none here: it changes nothing below */
          for (guint m = mask; m; m &= m - 1)
            {
              guint k = (guint) __builtin_ctz (m);
              guint32 v = c->bins->sectors[k][at + i];
              guint32 own = c->hl ? c->hl->sectors[k][at + i] : 0;

              total += v;
              /* a cell of the highlighted lane takes its class, at full strength */
              if (own > mine)
                mine = own, k_best = k;
              else if (v > best && mine == 0)
                best = v, k_best = k;
            }
          if (total == 0)
            continue;
          /* floor (log2 (total)), as the bit it tops (a frame has 100k cells) */
          a = mine > 0 ? 255 : sparse ? c->alpha : dense[31 - __builtin_clz (total)];
          *(guint32 *) px = inks[k_best * 256 + a];
        }
    }
  if (sparse)
    sector_sparse_marks ((guint32 *) pixels, c->b.n, rows);
  /* inset, so that the lowest and highest sectors do not hide under the frame */
  iochart_display_list_image (c->b.dl, c->b.x0, top + 2, c->b.n, rows, pixels, c->b.n, rows, stride);
  if (c->hl)
    sector_marks (c, top + 2);
  c->b.y += h;
}

/* ---- lanes ---- */

/* A lane's figures: in full (long_form, its tooltip), else a line for room px. */
static char *
lane_facts (Chart *c, const IochartLane *lane, gboolean long_form, double room)
{
  gint64 from = iochart_view_get_from_ns (c->view), to = iochart_view_get_to_ns (c->view);
  gint64 life = iochart_lane_get_life_ns (lane, from, to);
  g_autofree char *bytes = iochart_format_bytes (lane->bytes);
  g_autofree char *out = iochart_format_duration (lane->outstanding_ns);
  g_autofree char *lived = iochart_format_duration (life);
  g_autofree char *rq = iochart_format_count (lane->n_requests);
  g_autofree char *procs = iochart_format_count (lane->n_processes);
  double pct = life > 0 ? 100.0 * lane->outstanding_ns / life : 0;
  g_autofree char *klass = iochart_lane_class_text (lane);

  if (!long_form)
    {
      /* the lane's subline: the longest of these that fits its room (the tooltip has them all) */
      char *forms[] = {
        g_strdup_printf ("%s · %s · I/O %s of %s (%.0f%%)", klass, bytes, out, lived, pct),
        g_strdup_printf ("%s · %s · I/O %s (%.0f%%)", klass, bytes, out, pct),
        g_strdup_printf ("%s · %s · I/O %.0f%%", klass, bytes, pct),
        g_strdup_printf ("%s · %s", klass, bytes),
      };
      guint n = G_N_ELEMENTS (forms), i = 0;
      char *line;

      while (i + 1 < n && iochart_text_width (forms[i], FONT_SMALL, FALSE) > room)
        i++;
      line = iochart_text_ellipsize (forms[i], FONT_SMALL, FALSE, room);
      for (guint k = 0; k < n; k++)
        g_free (forms[k]);
      return line;
    }
  return g_strdup_printf ("%s\nclass %s, %s in %s request%s, %s process%s\n"
                          "I/O outstanding %s of %s %s (%.1f%%)",
                          lane->label, klass, bytes, rq, lane->n_requests == 1 ? "" : "s", procs,
                          lane->n_processes == 1 ? "" : "es", out, lived,
                          iochart_lane_get_life_ns (lane, from, to) > 0 &&
                          (lane->start_ns != IOCHART_TIME_UNKNOWN || lane->exit_ns != IOCHART_TIME_UNKNOWN)
                          ? "of life" : "between first and last I/O", pct);
}

/* A lane's name for room px: whole if it fits, else without what its descendants ran or the
 * folded lanes' processes ("find[15442] + 24", not "find[15442] + 24 ×…"; "others: 2 lanes",
 * not "others: 2 lanes, 2 p…"; the tooltip has it), else its process's name cut before the pid
 * and count, which tell it apart ("make-te…[12394] + 1", not "make-text-sampl[1…"), else cut at
 * the end. */
static char *
lane_name (const IochartLane *lane, double room)
{
  const char *label = lane->label, *plus = strstr (label, "] + ");
  /* "find[15442] + 24", "others: 2 lanes" */
  const char *end = plus ? strchr (plus + 4, ' ') : strstr (label, ", ");
  g_autofree char *shorter = end ? g_strndup (label, end - label) : g_strdup (label);
  const char *tail = strchr (shorter, '[');

  if (iochart_text_width (label, FONT, TRUE) <= room)
    return g_strdup (label);
  if (iochart_text_width (shorter, FONT, TRUE) <= room)
    return g_steal_pointer (&shorter);
  if (tail && tail > shorter && iochart_text_width (tail, FONT, TRUE) < room * 0.7)
    {
      g_autofree char *name = g_strndup (shorter, tail - shorter);
      g_autofree char *cut = iochart_text_ellipsize (name, FONT, TRUE, room - iochart_text_width (tail, FONT, TRUE));

      return g_strconcat (cut, tail, NULL);
    }
  return iochart_text_ellipsize (label, FONT, TRUE, room);
}

static guint
pick_class (guint8 mask, IochartClass fallback)
{
  if (mask & (1u << fallback))
    return fallback;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (mask & (1u << k))
      return k;
  return fallback;
}

/* Columns with the same class and density level become one rect. */
static void
lane_band (Chart *c, const double *busy_ns, const guint8 *classes, IochartClass fallback,
           double y, double h, const guint8 *alphas, guint n_levels)
{
  guint i = 0;

  while (i < c->b.n)
    {
      double frac = busy_ns[i] / iochart_bins_column_ns (c->bins, i);
      guint level, k, j;

      if (classes[i] == 0 || busy_ns[i] <= 0)
        {
          i++;
          continue;
        }
      level = MAX (MIN ((guint) ceil (frac * n_levels), n_levels), 1);
      k = pick_class (classes[i], fallback);
      for (j = i + 1; j < c->b.n; j++)
        {
          double f2 = busy_ns[j] / iochart_bins_column_ns (c->bins, j);
          guint l2 = MAX (MIN ((guint) ceil (f2 * n_levels), n_levels), 1);
          if (classes[j] == 0 || busy_ns[j] <= 0 || l2 != level || pick_class (classes[j], fallback) != k)
            break;
        }
      iochart_display_list_rect (c->b.dl, col_x (c, i), y, j - i, h,
                                 with_alpha (c->pal->classes[k], alphas[level - 1] * c->alpha / 255), 0);
      i = j;
    }
}

static void
split_bar (Chart *c, guint lane, double x, double y, double w)
{
  IochartTimeSplit s;

  iochart_time_splits_get_lane (c->splits, c->lanes, lane, &s);
  iochart_blocks_time_split_bar (&c->b, x, y, w, &s, "its processes'");
}

static void
lanes_section (Chart *c)
{
  guint n = iochart_lanes_get_n_lanes (c->lanes);
  const IochartViewOptions *o = iochart_view_get_options (c->view);
  /* a column busy 2% of its time must look faint, one busy all the time solid */
  static const guint8 service_alpha[] = { 0x28, 0x50, 0x80, 0xb0, 0xd8, 0xff };
  static const guint8 wait_alpha[] = { 0x18, 0x28, 0x38, 0x48, 0x58, 0x68 };
  static const char * const group_help[] = {
    "A lane is a process with its short-lived descendants",
    "A lane per process", "A lane per process name", "A lane per parent's children",
    "A lane per priority class",
  };
  IochartGroupBy by = iochart_lanes_get_group_by (c->lanes);
  const char *help = by == o->lanes.group_by ? group_help[by]
                     : "A lane per process name and class (no fork events to follow)";
  g_autofree char *title = NULL, *note = NULL;
  guint wanted;

  wanted = iochart_view_get_n_lanes_wanted (c->view);
  if (wanted > IOCHART_VIEW_MAX_LANES)
    {
      g_autofree char *w = iochart_format_count (wanted);
      title = g_strdup_printf ("Processes: the %u biggest of %s lanes; the rest folded into \"others\" "
                               "(one chart draws at most %u lanes: --top, --pid or --comm choose)",
                               n - 1, w, IOCHART_VIEW_MAX_LANES);
    }
  else if (o->lanes.top_n > 0 && n > o->lanes.top_n)
    title = g_strdup_printf ("Processes: top %u by bytes", o->lanes.top_n);
  else
    title = g_strdup ("Processes");
  if (o->lanes.order == IOCHART_LANE_ORDER_BYTES)
    {
      char *t = g_strconcat (title, ", most bytes first", NULL);
      g_free (title);
      title = t;
    }
  else if (o->lanes.order == IOCHART_LANE_ORDER_STOLEN)
    {
      char *t = g_strconcat (title, ", most time stolen by idle I/O first", NULL);
      g_free (title);
      title = t;
    }
  /* on a dark background more colour is brighter, not darker */
  note = g_strdup_printf ("%s. Upper band: queued; lower band: on the device (%s: busier); "
                          "grey line: its life (fork to exit, else first to last I/O).%s", help,
                          c->pal == &dark ? "brighter" : "darker", c->splits ? " " IOCHART_BLOCKS_TIME_SPLIT_HELP : "");
  c->b.y += 8;
  iochart_blocks_section_title (&c->b, title, note);

  for (guint l = 0; l < n; l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (c->lanes, l);
      double top;

      if (lane->expanded_from != IOCHART_NO_PROCESS &&
          (l == 0 || iochart_lanes_get_lane (c->lanes, l - 1)->expanded_from != lane->expanded_from))
        {
          /* an expanded lane's caption: whose processes follow */
          g_autofree char *head = fmt_process (c->capture, lane->expanded_from);
          g_autofree char *text = g_strdup_printf ("%s and its short-lived descendants, a lane each:", head);

          label (c, MARGIN + 2, c->b.y + 12, text, FONT_SMALL, IOCHART_ANCHOR_START, c->pal->base.dim, 1);
          c->b.y += 16;
        }
      top = c->b.y;
      g_autofree char *tip = lane_facts (c, lane, TRUE, 0);
      g_autofree char *meta = g_strdup_printf ("lane:%u", l);
      /* the processes of an expanded lane sit indented under a bracket */
      double indent = lane->expanded_from != IOCHART_NO_PROCESS ? 10 : 0;
      g_autofree char *name = lane_name (lane, c->b.x0 - MARGIN - 22 - indent);
      g_autofree char *facts = lane_facts (c, lane, FALSE, c->b.x0 - MARGIN - 22 - indent);
      gint64 a = lane->start_ns != IOCHART_TIME_UNKNOWN ? lane->start_ns : lane->first_io_ns;
      gint64 b = lane->exit_ns != IOCHART_TIME_UNKNOWN ? lane->exit_ns : lane->last_io_ns;
      double xa, xb;

      guint8 alpha = c->alpha;

      if (c->hl && (int) l == iochart_view_get_highlight_lane (c->view))
        {
          iochart_display_list_rect (c->b.under, 0, top, c->b.width, LANE_HEIGHT, c->pal->highlight, 0);
          c->alpha = 0xff;
        }
      else if (l % 2 == 0)
        iochart_display_list_rect (c->b.under, 0, top, c->b.width, LANE_HEIGHT, c->pal->stripe, 0);
      iochart_display_list_begin_group (c->b.dl, tip, meta);
      /* lifetime: from fork (or first I/O) to exit (or last I/O) */
      xa = MAX (time_x (c, a), c->b.x0);
      xb = MIN (time_x (c, b), c->b.x0 + c->b.n);
      if (lane->start_ns != IOCHART_TIME_UNKNOWN && lane->exit_ns == IOCHART_TIME_UNKNOWN)
        xb = c->b.x0 + c->b.n;
      if (xb > xa)
        iochart_display_list_rect (c->b.dl, xa, top + LANE_HEIGHT - 5, MAX (xb - xa, 1), 2, c->pal->life, 0);
      if (c->bins && l < c->bins->n_lanes)
        {
          lane_band (c, c->bins->lane_wait_ns[l], c->bins->lane_classes[l], lane->klass,
                     top + 6, 6, wait_alpha, G_N_ELEMENTS (wait_alpha));
          lane_band (c, c->bins->lane_service_ns[l], c->bins->lane_classes[l], lane->klass,
                     top + 12, LANE_HEIGHT - 18, service_alpha, G_N_ELEMENTS (service_alpha));
        }
      iochart_display_list_rect (c->b.dl, MARGIN - 6, top + 4, 4, LANE_HEIGHT - 8,
                                 c->pal->classes[MIN (lane->klass, IOCHART_N_CLASSES - 1)], 0);
      iochart_display_list_end_group (c->b.dl);
      if (indent > 0)
        {
          gboolean first = l == 0 || iochart_lanes_get_lane (c->lanes, l - 1)->expanded_from != lane->expanded_from;
          gboolean last = l + 1 == n || iochart_lanes_get_lane (c->lanes, l + 1)->expanded_from != lane->expanded_from;

          iochart_display_list_line (c->b.dl, MARGIN + 5, top + (first ? 4 : 0), MARGIN + 5,
                                     top + (last ? LANE_HEIGHT - 4 : LANE_HEIGHT), c->pal->base.dim, 1);
        }
      if (c->splits != NULL && !lane->others)
        split_bar (c, l, MARGIN + 2 + indent, top + LANE_HEIGHT - 2, c->b.x0 - MARGIN - 22 - indent);
      label_full (c, MARGIN + 2 + indent, top + 13, name, FONT, TRUE, IOCHART_ANCHOR_START, c->pal->base.fg, 1, tip);
      label_full (c, MARGIN + 2 + indent, top + 26, facts, FONT_SMALL, FALSE, IOCHART_ANCHOR_START, c->pal->base.dim, 1,
                  tip);
      c->alpha = alpha;
      c->b.y += LANE_HEIGHT;
    }
  if (n == 0)
    {
      label (c, c->b.x0 + 8, c->b.y + 14, "no process issued I/O on this device in this range", FONT,
             IOCHART_ANCHOR_START, c->pal->base.dim, 1);
      c->b.y += LANE_HEIGHT;
    }
}

/* ---- idle steal shading ---- */

typedef struct {
  Chart *c;
  guint  next_episode;
} ShadeState;

static void
shade_run (IochartBlocks *b, guint c0, guint c1, char **tooltip, char **meta_out, gpointer user_data)
{
  ShadeState *st = user_data;
  Chart *c = st->c;
  guint *next_episode = &st->next_episode;
  gint64 t0 = (gint64) (c->bins->from_ns + c0 * c->bins->ns_per_column);
  gint64 t1 = (gint64) (c->bins->from_ns + c1 * c->bins->ns_per_column);
  double stolen = 0, active = 0;
  g_autoptr(GHashTable) idle = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autoptr(GHashTable) waiting = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n_ep = 0, first_ep = G_MAXUINT, n = iochart_steal_get_n_episodes (c->steal);
  guint32 top_p = IOCHART_NO_PROCESS;
  double top_v = -1;
  GString *tip = g_string_new (NULL);
  g_autofree char *meta = NULL, *s_stolen = NULL, *s_active = NULL, *s_t0 = NULL, *s_t1 = NULL;

  for (guint i = c0; i < c1; i++)
    {
      stolen += c->sdev->stolen_columns[i];
      active += c->sdev->active_columns[i];
    }
  while (*next_episode < n && iochart_steal_get_episode (c->steal, *next_episode)->end_ns < t0)
    (*next_episode)++;
  for (guint e = *next_episode; e < n; e++)
    {
      const IochartStealEpisode *ep = iochart_steal_get_episode (c->steal, e);

      if (ep->start_ns > t1)
        break;
      if (ep->end_ns < t0)
        continue;
      n_ep++;
      first_ep = MIN (first_ep, e);
      for (guint k = 0; k < ep->idle->len; k++)
        {
          const IochartStealShare *sh = &g_array_index (ep->idle, IochartStealShare, k);
          gpointer key = GUINT_TO_POINTER (sh->process + 1);
          double *acc = g_hash_table_lookup (idle, key);
          if (!acc)
            g_hash_table_insert (idle, key, acc = g_new0 (double, 1));
          *acc += sh->stolen_ns;
          if (*acc > top_v)
            top_v = *acc, top_p = sh->process;
        }
      for (guint k = 0; k < ep->waiting->len; k++)
        g_hash_table_add (waiting, GUINT_TO_POINTER (g_array_index (ep->waiting, guint32, k) + 1));
    }

  s_stolen = iochart_format_duration (stolen);
  s_active = iochart_format_duration (active);
  s_t0 = iochart_format_duration (t0 - c->b.origin_ns);
  s_t1 = iochart_format_duration (t1 - c->b.origin_ns);
  g_string_append_printf (tip, "idle steal %s – %s: %s stolen while foreground I/O was outstanding for %s",
                          s_t0, s_t1, s_stolen, s_active);
  if (n_ep > 0)
    {
      g_autofree char *who = fmt_process (c->capture, top_p);
      g_autofree char *lane_name = NULL;
      int lane = iochart_lanes_lane_of_process (c->lanes, top_p);

      if (lane >= 0)
        lane_name = g_strdup (iochart_lanes_get_lane (c->lanes, lane)->label);
      g_string_append_printf (tip, "\n%u episode%s; most taken by idle %s%s%s%s\n%u non-idle process%s waited",
                              n_ep, n_ep == 1 ? "" : "s", who,
                              lane_name ? " (lane " : "", lane_name ? lane_name : "", lane_name ? ")" : "",
                              g_hash_table_size (waiting), g_hash_table_size (waiting) == 1 ? "" : "es");
      meta = g_strdup_printf ("episode:%u", first_ep);
    }
  *tooltip = g_string_free (tip, FALSE);
  *meta_out = g_steal_pointer (&meta);
}

static void
shade_steal (Chart *c)
{
  ShadeState st = { c, 0 };

  if (!c->sdev || !c->sdev->stolen_columns || c->sdev->stolen_ns == 0)
    return;
  iochart_blocks_shade_runs (&c->b, c->sdev->stolen_columns, 0, shade_run, &st);
}

/* ---- header ---- */

static void
header_line (Chart *c, const char *text, double size, gboolean bold, guint32 color, const char *tip)
{
  iochart_blocks_header_line (&c->b, text, size, bold, color, tip);
}

/* Class swatches with their totals: the legend and the totals in one line, counted as `info`
 * counts them (requests issued in the range). */
static void
legend_line (Chart *c)
{
  IochartCounts counts;
  IochartLegendItem items[IOCHART_N_CLASSES + 2];
  char *texts[IOCHART_N_CLASSES] = { 0 };
  guint n = 0;

  iochart_view_get_counts (c->view, &counts);
  for (guint s = 0; s < G_N_ELEMENTS (stack_order); s++)
    {
      IochartClass k = stack_order[s];
      const IochartCount *kc = &counts.by_class[k];
      g_autofree char *b = iochart_format_bytes (kc->bytes);
      g_autofree char *cnt = iochart_format_count (kc->requests);

      /* a class with nothing issued has nothing to point at ("idle: 0 B in 0 requests") */
      if (kc->requests == 0)
        continue;
      texts[s] = g_strdup_printf ("%s: %s in %s request%s", iochart_class_name (k), b, cnt,
                                  kc->requests == 1 ? "" : "s");
      items[n++] = (IochartLegendItem) { texts[s], c->pal->classes[k], NULL };
    }
  if (n == 0)
    items[n++] = (IochartLegendItem) { "no request issued in this range", 0, NULL };
  /* steal needs idle requests: one issued in the range, or one issued before that still ran */
  if (counts.by_class[IOCHART_CLASS_IDLE].requests > 0 || (c->sdev && c->sdev->stolen_ns > 0))
    items[n++] = (IochartLegendItem) { "idle steal (shaded)", with_alpha (STEAL_COLOR, 0x80), NULL };
  items[n++] = (IochartLegendItem) { c->pal == &dark ? "dim: queued, bright: on the device"
                                                      : "light: queued, dark: on the device", 0, NULL };
  iochart_blocks_legend (&c->b, items, n, 0);
  for (guint s = 0; s < G_N_ELEMENTS (texts); s++)
    g_free (texts[s]);
}

static char *
lane_or_process (Chart *c, guint32 p)
{
  int lane = iochart_lanes_lane_of_process (c->lanes, p);

  if (lane >= 0 && !iochart_lanes_get_lane (c->lanes, lane)->others)
    return g_strdup (iochart_lanes_get_lane (c->lanes, lane)->label);
  return fmt_process (c->capture, p);
}

static void
steal_lines (Chart *c)
{
  int device = iochart_view_get_device (c->view);
  g_autofree char *dev = fmt_dev (c->capture, device);
  const IochartStealDevice *d = c->sdev;
  g_autofree char *stolen = NULL, *active = NULL, *gap = NULL;
  GString *who;
  g_autoptr(GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  gboolean any_idle = FALSE, any_unknown = FALSE;
  g_autofree char *unknown = NULL, *episodes = NULL;

  if (d == NULL)
    return;
  unknown = iochart_format_count (d->unknown_requests);
  episodes = iochart_format_count (d->n_episodes);
  stolen = iochart_format_duration (d->stolen_ns);
  active = iochart_format_duration (d->foreground_active_ns);
  gap = iochart_format_duration (iochart_view_get_options (c->view)->steal_gap_ns >= 0
                 ? iochart_view_get_options (c->view)->steal_gap_ns : IOCHART_STEAL_DEFAULT_GAP_NS);
  any_idle = d->idle_requests > 0;
  any_unknown = iochart_steal_device_is_unknown (d);

  if (d->stolen_ns > 0)
    {
      g_autofree char *line = g_strdup_printf (
        "Idle steal on %s: %s stolen = %.1f%% of the %s with foreground I/O outstanding, %s episode%s (gaps < %s merged)",
        dev, stolen, 100.0 * d->stolen_ns / MAX (d->foreground_active_ns, 1), active, episodes,
        d->n_episodes == 1 ? "" : "s", gap);
      header_line (c, line, 12, TRUE, c->pal == &dark ? 0xff8a3dff : 0xb34700ff,
                   "stolen: at each instant with non-idle I/O outstanding, idle requests in flight take the share "
                   "n_idle / (n_idle + n_foreground_in_flight) of the device");
    }
  else
    {
      g_autofree char *line = any_idle
        ? g_strdup_printf ("No idle steal on %s: idle I/O never was on the device while foreground I/O was outstanding (%s of it)",
                           dev, active)
        : any_unknown
        ? g_strdup_printf ("Idle steal on %s unknown: %s requests have no class (%s)", dev, unknown,
                           c->class_hint ? c->class_hint : "give --class, or a capture of the same run that has it")
        : g_strdup_printf ("No idle steal on %s: no idle-class I/O here (foreground I/O outstanding for %s)", dev, active);
      header_line (c, line, 12, TRUE, c->pal->base.fg, NULL);
    }

  /* who took it: idle processes summed per lane, so 2,306 cats read as their find */
  if (d->idle->len > 0)
    {
      for (guint i = 0; i < d->idle->len; i++)
        {
          const IochartStealShare *sh = &g_array_index (d->idle, IochartStealShare, i);
          char *name = lane_or_process (c, sh->process);
          double *acc = g_hash_table_lookup (by_name, name);

          if (acc == NULL)
            {
              acc = g_new0 (double, 1);
              g_hash_table_insert (by_name, name, acc);
              g_ptr_array_add (names, name);
            }
          else
            g_free (name);
          *acc += sh->stolen_ns;
        }
      who = g_string_new ("Taken by idle: ");
      for (guint i = 0; i < names->len; i++)
        for (guint j = i + 1; j < names->len; j++)
          if (*(double *) g_hash_table_lookup (by_name, names->pdata[j]) >
              *(double *) g_hash_table_lookup (by_name, names->pdata[i]))
            {
              gpointer t = names->pdata[i];
              names->pdata[i] = names->pdata[j];
              names->pdata[j] = t;
            }
      for (guint i = 0; i < names->len && i < 4; i++)
        {
          double v = *(double *) g_hash_table_lookup (by_name, names->pdata[i]);
          g_autofree char *s = iochart_format_duration (v);
          g_string_append_printf (who, "%s%s %s (%.0f%%)", i ? " · " : "", (char *) names->pdata[i], s,
                                  100.0 * v / MAX (d->stolen_ns, 1));
        }
      if (names->len > 4)
        g_string_append_printf (who, " · %u more", names->len - 4);
      header_line (c, who->str, FONT, FALSE, c->pal->base.fg, NULL);
      g_string_free (who, TRUE);
    }

  /* victims or not: how much of their life the main foreground lanes had I/O outstanding */
  {
    GString *fg = g_string_new ("Foreground I/O outstanding: ");
    guint shown = 0;
    g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

    for (guint l = 0; l < iochart_lanes_get_n_lanes (c->lanes); l++)
      {
        const IochartLane *lane = iochart_lanes_get_lane (c->lanes, l);
        if (!lane->others && lane->klass != IOCHART_CLASS_IDLE)
          g_array_append_val (order, l);
      }
    for (guint i = 0; i < order->len; i++)
      for (guint j = i + 1; j < order->len; j++)
        if (iochart_lanes_get_lane (c->lanes, g_array_index (order, guint, j))->bytes >
            iochart_lanes_get_lane (c->lanes, g_array_index (order, guint, i))->bytes)
          {
            guint t = g_array_index (order, guint, i);
            g_array_index (order, guint, i) = g_array_index (order, guint, j);
            g_array_index (order, guint, j) = t;
          }
    for (guint i = 0; i < order->len && shown < 3; i++, shown++)
      {
        const IochartLane *lane = iochart_lanes_get_lane (c->lanes, g_array_index (order, guint, i));
        gint64 life = iochart_lane_get_life_ns (lane, iochart_view_get_from_ns (c->view),
                                                iochart_view_get_to_ns (c->view));
        g_autofree char *o = iochart_format_duration (lane->outstanding_ns);
        g_autofree char *lf = iochart_format_duration (life);

        g_string_append_printf (fg, "%s%s %s of %s (%.0f%%)", shown ? " · " : "", lane->label, o, lf,
                                life > 0 ? 100.0 * lane->outstanding_ns / life : 0);
      }
    if (shown > 0)
      header_line (c, fg->str, FONT, FALSE, c->pal->base.fg,
                   "time with any of the lane's requests queued or on the device, against its lifetime: "
                   "a process slowed by something else than the disk has a low figure");
    g_string_free (fg, TRUE);
  }
}

/* A wait below a tenth of the life slows nothing much: then the lane mostly ran or slept. */
static const char *
verdict (const IochartTimeSplit *s, IochartSplitKind wait)
{
  IochartSplitKind most = IOCHART_SPLIT_RUNNING;

  if (s->ns[wait] * 10 >= s->life_ns)
    return wait == IOCHART_SPLIT_RUNNABLE ? "CPU contention" : wait == IOCHART_SPLIT_IO_WAIT ? "I/O"
                                                                                              : "other D state";
  if (s->ns[IOCHART_SPLIT_SLEEP] > s->ns[most])
    most = IOCHART_SPLIT_SLEEP;
  return most == IOCHART_SPLIT_SLEEP ? "mostly asleep" : "mostly running";
}

/* The verdict on the main foreground lanes: did they wait for a CPU or for the disk? */
static void
time_split_lines (Chart *c)
{
  GString *line = g_string_new ("Where their time went: ");
  guint shown = 0;

  for (guint l = 0; l < iochart_lanes_get_n_lanes (c->lanes) && shown < 3; l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (c->lanes, l);
      IochartTimeSplit s;
      IochartSplitKind wait;

      if (lane->others || lane->klass == IOCHART_CLASS_IDLE)
        continue;
      iochart_time_splits_get_lane (c->splits, c->lanes, l, &s);
      if (s.life_ns <= 0)
        continue;
      wait = iochart_time_split_dominant_wait (&s);
      g_string_append_printf (line, "%s%s %.0f%% waiting for a CPU, %.0f%% for I/O: %s", shown ? " · " : "",
                              lane->label, 100.0 * s.ns[IOCHART_SPLIT_RUNNABLE] / s.life_ns,
                              100.0 * s.ns[IOCHART_SPLIT_IO_WAIT] / s.life_ns, verdict (&s, wait));
      shown++;
    }
  if (shown > 0)
    header_line (c, line->str, FONT, FALSE, c->pal->base.fg,
                 "from sched_switch and sched_wakeup: the share of each lane's life spent runnable "
                 "(waiting for a CPU) and in D state with its own I/O outstanding; the cause named is "
                 "the larger wait");
  g_string_free (line, TRUE);
}

static void
header (Chart *c, const IochartChartStyle *style)
{
  int device = iochart_view_get_device (c->view);
  gint64 from = iochart_view_get_from_ns (c->view), to = iochart_view_get_to_ns (c->view);
  g_autofree char *base = iochart_capture_get_name (c->capture)
                          ? g_path_get_basename (iochart_capture_get_name (c->capture)) : NULL;
  const char *title = style->title ? style->title : base;
  g_autofree char *s_from = iochart_format_duration (from - c->b.origin_ns);
  g_autofree char *s_to = iochart_format_duration (to - c->b.origin_ns);
  g_autofree char *s_span = iochart_format_duration (iochart_capture_get_end_ns (c->capture) - c->b.origin_ns);
  g_autofree char *dev = fmt_dev (c->capture, device);
  guint n_dev = iochart_capture_get_n_devices (c->capture);
  const char *device_hint = style->device_hint ? style->device_hint : "--device";
  g_autofree char *line = NULL, *chosen = NULL;

  if (n_dev > 1)
    chosen = iochart_view_get_options (c->view)->device >= 0
             ? g_strdup_printf (" (chosen with %s)", device_hint)
             : g_strdup_printf (" (of several: the one with the most processes issuing I/O; %s to choose)", device_hint);
  c->b.y = MARGIN;
  header_line (c, title ? title : "capture", 16, TRUE, c->pal->base.fg, NULL);
  if (n_dev == 0)
    line = g_strdup_printf ("no block requests in this capture (%" G_GUINT64_FORMAT " event%s) · %s – %s of a %s capture",
                            iochart_capture_get_n_events (c->capture),
                            iochart_capture_get_n_events (c->capture) == 1 ? "" : "s", s_from, s_to, s_span);
  else
    line = g_strdup_printf ("device %s%s · %s – %s of a %s capture",
                            dev,
                            chosen ? chosen : "", s_from, s_to, s_span);
  header_line (c, line, FONT, FALSE, c->pal->base.dim, NULL);
  legend_line (c);
  steal_lines (c);
  if (c->splits != NULL)
    time_split_lines (c);
}

IochartDisplayList *
iochart_chart_draw (IochartView *view, const IochartChartStyle *style)
{
  IochartChartStyle defaults = IOCHART_CHART_STYLE_INIT;
  Chart c = { 0 };
  IochartDisplayList *dl;
  double axis_top, band_top;

  g_return_val_if_fail (view != NULL, NULL);
  if (style == NULL)
    style = &defaults;

  c.view = view;
  c.capture = iochart_view_get_capture (view);
  c.bins = iochart_view_get_bins (view);
  c.hl = iochart_view_get_highlight_bins (view);
  c.alpha = c.hl ? 0x48 : 0xff;
  c.steal = iochart_view_get_steal (view);
  c.sdev = iochart_steal_get_primary (c.steal);
  c.lanes = iochart_view_get_lanes (view);
  c.splits = iochart_time_splits_new (c.capture, iochart_view_get_from_ns (view), iochart_view_get_to_ns (view));
  c.pal = style->theme == IOCHART_THEME_DARK ? &dark : &light;
  c.class_hint = style->class_hint;
  iochart_blocks_init (&c.b, &c.pal->base, iochart_view_get_width (view), iochart_view_get_label_width (view),
                       iochart_view_get_n_columns (view), iochart_view_get_from_ns (view),
                       iochart_view_get_to_ns (view), iochart_capture_get_start_ns (c.capture));

  header (&c, style);
  c.b.y += 10;
  band_top = c.b.y;
  c.b.y += iochart_blocks_marks_band (&c.b, style->marks, style->n_marks, band_top, c.pal->base.dim, c.pal->base.fg);
  axis_top = c.b.y + 10;
  /* a widget's fixed ruler shows the top axis: the chart keeps only its room for the ticks */
  c.b.y += style->fixed_ruler ? 6 : 16;
  c.b.plot_top = c.b.y;
  if (c.bins)
    {
      double *inflight[IOCHART_N_CLASSES];

      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        inflight[k] = c.bins->inflight_ns[k];
      throughput_strip (&c);
      c.b.y += 10;
      double *hl_inflight[IOCHART_N_CLASSES];

      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        hl_inflight[k] = c.hl ? c.hl->inflight_ns[k] : NULL;
      simple_strip (&c, "IOPS", "completions per second", c.bins->completions, c.hl ? c.hl->completions : NULL,
                    1e9, 50, "/s", "IOPS");
      c.b.y += 10;
      simple_strip (&c, "In flight", "requests on the device", inflight, c.hl ? hl_inflight : NULL, 1, 50, "",
                    "requests in flight");
      c.b.y += 10;
      latency_strip (&c);
      c.b.y += 10;
      steal_strip (&c);
      c.b.y += 10;
      sector_strip (&c);
    }
  lanes_section (&c);
  c.b.plot_bottom = c.b.y;
  if (!style->fixed_ruler)
    time_axis (&c, axis_top, FALSE);
  time_axis (&c, c.b.y + 14, TRUE);
  c.b.y += 24;
  if (c.bins)
    shade_steal (&c);
  c.b.plot_top = axis_top + 4;
  iochart_blocks_mark_lines (&c.b, style->marks, style->n_marks, c.pal->base.dim, c.pal->base.fg);

  dl = iochart_blocks_finish (&c.b);
  /* the header's range, which a warped frame of another range rewrites */
  iochart_display_list_set_range_text (dl, iochart_view_get_from_ns (view), iochart_view_get_to_ns (view),
                                       c.b.origin_ns);
  g_clear_pointer (&c.splits, iochart_time_splits_free);
  return dl;
}

IochartDisplayList *
iochart_chart_draw_ruler (IochartDisplayList *chart, gint64 from_ns, gint64 to_ns, gint64 origin_ns,
                          IochartTheme theme, double height)
{
  const Palette *pal = theme == IOCHART_THEME_DARK ? &dark : &light;
  IochartBlocks b;
  double x0, w;
  gint64 from, to;

  g_return_val_if_fail (chart != NULL && to_ns > from_ns, NULL);
  if (!iochart_display_list_get_time_axis (chart, &x0, &w, &from, &to))
    return NULL;
  iochart_blocks_init (&b, &pal->base, iochart_display_list_get_width (chart), x0, (guint) w, from_ns, to_ns,
                       origin_ns);
  b.plot_top = height - 5;
  b.plot_bottom = height;
  iochart_blocks_time_axis (&b, height - 8, TRUE);
  iochart_display_list_line (b.dl, 0, height - 0.5, b.width, height - 0.5, pal->base.frame, 1);
  b.y = height;
  return iochart_blocks_finish (&b);
}
