/* render-scale.c N: the chart of a synthetic N-request capture (default 5,000,000), through the
 * builder as readers feed it. Prints the time of the view (lanes, bins, steal), the drawing into
 * the display list, the SVG and PNG backends, and the SVG's size (goals: drawing well under a
 * second, SVG under 2 MB). */
#include <stdio.h>
#include <stdlib.h>
#include "synthetic-capture.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"
#include "render/iochart-svg.h"

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

int
main (int argc, char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 5000000;
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartView) view = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autofree char *svg = NULL;
  gsize len;
  double t0, t1, t2, t3, t4, t5;

  t0 = now ();
  c = synthetic_capture (n);
  t1 = now ();
  view = iochart_view_new (c, &vo);
  t2 = now ();
  dl = iochart_chart_draw (view, NULL);
  t3 = now ();
  svg = iochart_svg_to_string (dl, &len);
  t4 = now ();
  if (!iochart_cairo_write_png (dl, "/dev/null", NULL))
    fprintf (stderr, "png failed\n");
  t5 = now ();
  printf ("requests:            %u\n", iochart_capture_get_n_requests (c));
  printf ("build capture:       %.3f s\n", t1 - t0);
  printf ("view (lanes, bins, steal): %.3f s\n", t2 - t1);
  printf ("draw (display list): %.3f s, %u items\n", t3 - t2, iochart_display_list_get_n_items (dl));
  printf ("svg backend:         %.3f s, %.0f KB\n", t4 - t3, len / 1024.0);
  printf ("png backend:         %.3f s\n", t5 - t4);
  return 0;
}
