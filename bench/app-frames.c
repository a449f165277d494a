/* app-frames.c N [BEFORE_EVERY] | app-frames.c --open PATH...: the app timeline's frame times on a
 * synthetic N-request capture, or the app's open time of a capture.
 *
 * Frames: plays a scripted zoom and pan (Ctrl+wheel steps around moving pointers, then pans, then
 * zooms out) into a 1400x900 surface. Each frame is the exact chart of its range: laid out from
 * the device's bin index (built once, as the app does at load) and drawn with cairo, as
 * IochartTimelineView's worker and snapshot do. Prints the index's build time and bytes, the exact
 * frame's p50/p99 against the 16 ms goal, and, every BEFORE_EVERY frames, the exact chart laid out
 * without the index (the app before it) and the warped last chart (what the app shows meanwhile).
 *
 * Both with the app's malloc settings (iochart_heap_init).
 *
 * --open: loads the capture as the app's load worker does (read, the charted device's bin index,
 * the steal analysis of the episode list from it), then lays out and draws the first frame (the
 * whole capture); prints the best of 3 CPU times in seconds (load, index, steal, first frame,
 * all) and the best wall time of all on one line for app-frames.sh to compare with
 * `iochart info`'s.
 *
 * Environment: APP_FRAMES_PER_FRAME=1 prints each frame's span, layout and frame time;
 * APP_FRAMES_CHECKSUM=1 each frame's display list's SHA-256 (diff two builds' outputs);
 * APP_FRAMES_PIXELS=1 each frame's pixels' SHA-256 (diff two builds' paint);
 * APP_FRAMES_REPEAT=N lays out only the whole capture N times (for callgrind), APP_FRAMES_SPAN=F with it
 * only its middle F;
 * APP_FRAMES_PAINT_REPEAT=N paints only the whole capture's chart N times (for callgrind). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "synthetic-capture.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"
#include "iochart-loader.h"
#include "iochart-heap.h"

#define WIDTH 1400
#define HEIGHT 900

/* CPU time of the process in ms: on a shared machine wall time measures the neighbours; every
 * thread counts (the view sweeps idle steal in a thread of its own on a large capture) */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* CPU time of the process in s (the reader's merge thread counts, as in `iochart info`'s) */
static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static double
quantile (GArray *v, double q)
{
  g_array_sort (v, cmp_double);
  return v->len ? g_array_index (v, double, (guint) MIN (v->len - 1, q * v->len)) : 0;
}

static IochartDisplayList *
exact (IochartCapture *c, IochartBinIndex *index, gint64 from, gint64 to)
{
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autoptr(IochartView) view = NULL;

  vo.width = WIDTH;
  vo.from_ns = from;
  vo.to_ns = to;
  vo.lanes.top_n = 24;
  vo.index = index;
  view = iochart_view_new (c, &vo);
  return iochart_chart_draw (view, NULL);
}

static void __attribute__ ((noinline))
paint (IochartDisplayList *dl, cairo_surface_t *surface, gint64 from, gint64 to, gboolean warped)
{
  cairo_t *cr = cairo_create (surface);

  cairo_rectangle (cr, 0, 0, WIDTH, HEIGHT);
  cairo_clip (cr);
  if (warped)
    iochart_cairo_draw_warped (dl, cr, from, to);
  else
    iochart_cairo_draw (dl, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
}

/* APP_FRAMES_REPEAT=N: lays out only the widest frame (the whole capture) N times, for callgrind
 * (--toggle-collect=repeat_layout) to count that frame's layout alone */
static int __attribute__ ((noinline))
repeat_layout (IochartCapture *c, IochartBinIndex *index, gint64 from, gint64 to, int n)
{
  double t0 = cpu_ms ();

  for (int i = 0; i < n; i++)
    iochart_display_list_free (exact (c, index, from, to));
  printf ("layout of the range: %.2f ms each (CPU, %d runs)\n", (cpu_ms () - t0) / MAX (n, 1), n);
  return 0;
}

/* APP_FRAMES_PAINT_REPEAT=N: paints the widest frame's chart N times, for callgrind
 * (--toggle-collect=paint) to count that frame's paint alone */
static int
repeat_paint (IochartDisplayList *dl, cairo_surface_t *surface, int n)
{
  double t0;

  paint (dl, surface, 0, 0, FALSE);   /* fontconfig's first load is no frame's */
  t0 = cpu_ms ();
  for (int i = 0; i < n; i++)
    paint (dl, surface, 0, 0, FALSE);
  printf ("paint of the whole capture: %.3f ms each (CPU, %d runs)\n", (cpu_ms () - t0) / MAX (n, 1), n);
  return 0;
}

static int
open_times (char **paths)
{
  double best[6] = { G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE, G_MAXDOUBLE };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);

  for (int run = 0; run < 3; run++)
    {
      IochartLoadOptions lo = { 0 };
      IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
      g_autoptr(GError) error = NULL;
      g_autoptr(IochartCapture) c = NULL;
      g_autoptr(IochartSteal) steal = NULL;
      g_autoptr(IochartBinIndex) index = NULL;
      IochartDisplayList *dl;
      double t0 = cpu_s (), t1, t2, t3, t4;
      gint64 wall = g_get_monotonic_time ();

      c = iochart_load ((const char * const *) paths, &lo, &error);
      if (c == NULL)
        {
          fprintf (stderr, "error: %s\n", error->message);
          return 2;
        }
      /* what the app's load worker does after reading: the episode list's steal, the index */
      t1 = cpu_s ();
      so.device = iochart_steal_pick_device (c);
      index = iochart_bin_index_new (c, so.device, IOCHART_LATENCY_Q2C);
      t2 = cpu_s ();
      so.index = index;
      steal = iochart_steal_new (c, &so);
      t3 = cpu_s ();
      /* then the timeline's first frame: the whole capture */
      dl = exact (c, index, iochart_capture_get_start_ns (c), iochart_capture_get_end_ns (c));
      paint (dl, surface, 0, 0, FALSE);
      iochart_display_list_free (dl);
      t4 = cpu_s ();
      best[0] = MIN (best[0], t1 - t0);
      best[1] = MIN (best[1], t2 - t1);
      best[2] = MIN (best[2], t3 - t2);
      best[3] = MIN (best[3], t4 - t3);
      best[4] = MIN (best[4], t4 - t0);
      best[5] = MIN (best[5], (g_get_monotonic_time () - wall) / 1e6);
      if (run == 0)
        fprintf (stderr, "requests: %u, index %zu bytes = %.1f bytes/request\n", iochart_capture_get_n_requests (c),
                 iochart_bin_index_get_size (index),
                 (double) iochart_bin_index_get_size (index) / MAX (iochart_bin_index_get_n_requests (index), 1));
    }
  cairo_surface_destroy (surface);
  /* load, index, steal, first frame, all; wall */
  printf ("%.3f %.3f %.3f %.3f %.3f %.3f\n", best[0], best[1], best[2], best[3], best[4], best[5]);
  return 0;
}

int
main (int argc, char **argv)
{
  guint64 n;
  guint every;
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartBinIndex) index = NULL;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) layouts = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) paints = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) befores = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) warps = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  IochartDisplayList *dl;
  gint64 full_from, full_to, from, to, t;
  double t0;

  iochart_heap_init ();   /* as the app's main() does */
  if (argc > 2 && g_strcmp0 (argv[1], "--open") == 0)
    return open_times (argv + 2);
  n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1000000;
  every = argc > 2 ? atoi (argv[2]) : 10;

  t0 = g_get_monotonic_time ();
  c = synthetic_capture (n);
  printf ("requests: %u, capture built in %.2f s\n", iochart_capture_get_n_requests (c),
          (g_get_monotonic_time () - t0) / 1e6);
  t0 = cpu_ms ();
  index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  printf ("bin index: built in %.0f ms (CPU), %zu bytes = %.1f bytes/request (the model: 48)\n", cpu_ms () - t0,
          iochart_bin_index_get_size (index),
          (double) iochart_bin_index_get_size (index) / MAX (iochart_bin_index_get_n_requests (index), 1));
  printf ("  with its lane index (lanes, legend counts): %zu bytes = %.1f bytes/request\n",
          iochart_lane_index_get_size (iochart_bin_index_get_lane_index (index)),
          (double) iochart_lane_index_get_size (iochart_bin_index_get_lane_index (index)) /
          MAX (iochart_lane_index_get_n_requests (iochart_bin_index_get_lane_index (index)), 1));
  full_from = from = iochart_capture_get_start_ns (c);
  full_to = to = iochart_capture_get_end_ns (c);
  if (g_getenv ("APP_FRAMES_REPEAT") != NULL)
    {
      /* APP_FRAMES_SPAN=F: the middle F of the capture instead */
      double f = g_getenv ("APP_FRAMES_SPAN") ? g_ascii_strtod (g_getenv ("APP_FRAMES_SPAN"), NULL) : 1;

      if (f > 0 && f < 1)
        {
          from = full_from + (gint64) ((full_to - full_from) * (1 - f) / 2);
          to = from + (gint64) ((full_to - full_from) * f);
        }
      iochart_display_list_free (exact (c, index, from, to));   /* fontconfig's first load is no frame's */
      return repeat_layout (c, index, from, to, atoi (g_getenv ("APP_FRAMES_REPEAT")));
    }
  dl = exact (c, index, from, to);
  if (g_getenv ("APP_FRAMES_PAINT_REPEAT") != NULL)
    {
      repeat_paint (dl, surface, atoi (g_getenv ("APP_FRAMES_PAINT_REPEAT")));
      iochart_display_list_free (dl);
      cairo_surface_destroy (surface);
      return 0;
    }
  /* the app paints the whole capture when it opens (its open time below counts it): the first
   * paint's font set-up is no zoom or pan frame's */
  paint (dl, surface, from, to, FALSE);

  for (guint step = 0; step < 200; step++)
    {
      double span = (double) (to - from), anchor = 0.3 + 0.4 * ((step * 37) % 100) / 100.0;
      double cpu, lay;

      if (step < 80)        /* zoom in around the pointer */
        {
          double t_anchor = from + anchor * span, ns = span / 1.12;
          from = (gint64) (t_anchor - anchor * ns);
          to = (gint64) (t_anchor + (1 - anchor) * ns);
        }
      else if (step < 140)  /* pan right, then left */
        {
          gint64 d = (gint64) ((step < 110 ? 0.05 : -0.05) * span);
          from += d;
          to += d;
        }
      else                  /* zoom out */
        {
          double t_anchor = from + anchor * span, ns = MIN (span * 1.12, (double) (full_to - full_from));
          from = MAX ((gint64) (t_anchor - anchor * ns), full_from);
          to = MIN (from + (gint64) ns, full_to);
        }
      if (every > 0 && step % every == every - 1)
        {
          /* the app before the index: the warped last chart, and the exact one laid out walking */
          IochartDisplayList *before;

          cpu = cpu_ms ();
          paint (dl, surface, from, to, TRUE);
          g_array_append_val (warps, (double) { cpu_ms () - cpu });
          cpu = cpu_ms ();
          before = exact (c, NULL, from, to);
          g_array_append_val (befores, (double) { cpu_ms () - cpu });
          iochart_display_list_free (before);
        }
      t = g_get_monotonic_time ();
      cpu = cpu_ms ();
      iochart_display_list_free (dl);
      dl = exact (c, index, from, to);
      lay = cpu_ms () - cpu;
      paint (dl, surface, from, to, FALSE);
      cpu = cpu_ms () - cpu;
      g_array_append_val (layouts, lay);
      g_array_append_val (paints, (double) { cpu - lay });
      if (g_getenv ("APP_FRAMES_CHECKSUM") != NULL)   /* to diff two builds' frames, after the timing */
        {
          g_autofree char *text = iochart_display_list_to_text (dl);
          g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, text, -1);
          printf ("frame %3u: %s\n", step, sum);
        }
      if (g_getenv ("APP_FRAMES_PIXELS") != NULL)   /* the frames' pixels, to diff two builds' paint */
        {
          g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, cairo_image_surface_get_data (surface),
                                                              (gsize) cairo_image_surface_get_stride (surface) * HEIGHT);
          printf ("frame %3u pixels: %s\n", step, sum);
        }
      if (g_getenv ("APP_FRAMES_PER_FRAME") != NULL)
        printf ("frame %3u: span %.3f of the capture, layout %.2f ms, frame %.2f ms\n", step,
                (double) (to - from) / (full_to - full_from), lay, cpu);
      g_array_append_val (frames, cpu);
      g_array_append_val (walls, (double) { (g_get_monotonic_time () - t) / 1e3 });
    }
  {
    double p50 = quantile (frames, 0.5), p99 = quantile (frames, 0.99);
    printf ("exact frame (layout from the index + cairo, %dx%d), CPU: p50 %.2f ms  p99 %.2f ms  goal 16 ms  "
            "p99/goal %.2f\n", WIDTH, HEIGHT, p50, p99, p99 / 16.0);
    printf ("  of which layout: p50 %.2f ms  p99 %.2f ms; wall clock (load average counts): p50 %.2f ms  p99 %.2f ms\n",
            quantile (layouts, 0.5), quantile (layouts, 0.99), quantile (walls, 0.5), quantile (walls, 0.99));
    printf ("  of which paint (cairo): p50 %.2f ms  p99 %.2f ms\n", quantile (paints, 0.5), quantile (paints, 0.99));
    if (befores->len > 0)
      printf ("before the index (%u frames): exact layout walking every request p50 %.0f ms  p99 %.0f ms; "
              "warped last chart p50 %.2f ms  p99 %.2f ms\n", befores->len, quantile (befores, 0.5),
              quantile (befores, 0.99), quantile (warps, 0.5), quantile (warps, 0.99));
  }
  iochart_display_list_free (dl);
  cairo_surface_destroy (surface);
  return 0;
}
