/* app-frames.c N [EXACT_EVERY]: frame times of the app's timeline on a synthetic N-request capture.
 *
 * Plays a scripted zoom and pan (Ctrl+wheel steps around moving pointers, then pans, then zooms
 * out) as IochartTimelineView does: each frame draws the last exact chart warped to the new range
 * (iochart_cairo_draw_warped) into a 1400x900 surface; every EXACT_EVERY frames the exact chart of
 * the range is laid out again, as the widget's worker does. Prints frame p50/p99 against the
 * 16 ms goal, and the exact chart's latency p50/p99. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "synthetic-capture.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"

#define WIDTH 1400
#define HEIGHT 900

/* CPU time of this thread in ms: on a shared machine wall time measures the neighbours */
static double
cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
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
exact (IochartCapture *c, gint64 from, gint64 to)
{
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autoptr(IochartView) view = NULL;

  vo.width = WIDTH;
  vo.from_ns = from;
  vo.to_ns = to;
  vo.lanes.top_n = 24;
  view = iochart_view_new (c, &vo);
  return iochart_chart_draw (view, NULL);
}

int
main (int argc, char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 1000000;
  guint every = argc > 2 ? atoi (argv[2]) : 10;
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(GArray) frames = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) walls = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) exacts = g_array_new (FALSE, FALSE, sizeof (double));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  IochartDisplayList *dl;
  gint64 full_from, full_to, from, to, t;
  double t0;

  t0 = g_get_monotonic_time ();
  c = synthetic_capture (n);
  printf ("requests: %u, capture built in %.2f s\n", iochart_capture_get_n_requests (c),
          (g_get_monotonic_time () - t0) / 1e6);
  full_from = from = iochart_capture_get_start_ns (c);
  full_to = to = iochart_capture_get_end_ns (c);
  t = g_get_monotonic_time ();
  dl = exact (c, from, to);
  g_array_append_val (exacts, (double) { (g_get_monotonic_time () - t) / 1e3 });

  for (guint step = 0; step < 200; step++)
    {
      double span = (double) (to - from), anchor = 0.3 + 0.4 * ((step * 37) % 100) / 100.0;
      cairo_t *cr;
      double ms, cpu;

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
      t = g_get_monotonic_time ();
      cpu = cpu_ms ();
      cr = cairo_create (surface);
      cairo_rectangle (cr, 0, 0, WIDTH, HEIGHT);
      cairo_clip (cr);
      iochart_cairo_draw_warped (dl, cr, from, to);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      ms = (g_get_monotonic_time () - t) / 1e3;
      g_array_append_val (walls, ms);
      ms = cpu_ms () - cpu;
      g_array_append_val (frames, ms);
      if (every > 0 && step % every == every - 1)
        {
          t = g_get_monotonic_time ();
          iochart_display_list_free (dl);
          dl = exact (c, from, to);
          g_array_append_val (exacts, (double) { (g_get_monotonic_time () - t) / 1e3 });
        }
    }
  {
    double p50 = quantile (frames, 0.5), p99 = quantile (frames, 0.99);
    printf ("frame (warped last chart, %dx%d), CPU: p50 %.2f ms  p99 %.2f ms  goal 16 ms  p99/goal %.2f\n",
            WIDTH, HEIGHT, p50, p99, p99 / 16.0);
    printf ("frame, wall clock (load average counts): p50 %.2f ms  p99 %.2f ms\n",
            quantile (walls, 0.5), quantile (walls, 0.99));
    printf ("exact chart in the worker (%u layouts): p50 %.0f ms  p99 %.0f ms\n", exacts->len,
            quantile (exacts, 0.5), quantile (exacts, 0.99));
  }
  iochart_display_list_free (dl);
  cairo_surface_destroy (surface);
  return 0;
}
