/* bootchart-bench.c: time to read a bootchart capture into the model (tree built, default
 * pruning), then to read it and write its chart as SVG, then PNG, best of N runs, in
 * milliseconds. With a bundle of `iochart record --bootchart`, its events.dat is the block I/O.
 * Usage: bootchart-bench CAPTURE [RUNS [OUT_PREFIX]]  (OUT_PREFIX.svg/.png are kept) */
#include <stdio.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-chart.h"
#include "render/iochart-cairo.h"
#include "render/iochart-svg.h"

static double
ms_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1000.0;
}

int
main (int argc, char **argv)
{
  int runs = argc > 2 ? atoi (argv[2]) : 5;
  const char *prefix = argc > 3 ? argv[3] : NULL;
  g_autofree char *svg = NULL, *png = NULL, *tmp = NULL;
  double best_read = 1e9, best_svg = 1e9, best_png = 1e9;
  guint processes = 0, nodes = 0, items = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bootchart-bench CAPTURE [RUNS [OUT_PREFIX]]\n");
      return 2;
    }
  if (prefix == NULL)
    prefix = tmp = g_build_filename (g_get_tmp_dir (), "iochart-bootchart-bench", NULL);
  svg = g_strconcat (prefix, ".svg", NULL);
  png = g_strconcat (prefix, ".png", NULL);
  for (int i = 0; i < runs; i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(IochartBootchart) bc = iochart_bootchart_load (argv[1], &error);
      g_autoptr(IochartCapture) io = NULL;
      g_autoptr(IochartDisplayList) dl = NULL;
      double read;

      if (bc == NULL)
        {
          fprintf (stderr, "iochart: %s\n", error->message);
          return 2;
        }
      read = ms_since (t0);
      io = iochart_bootchart_chart_load_bundle_io (argv[1], &error);
      if (error)
        {
          fprintf (stderr, "iochart: %s\n", error->message);
          return 2;
        }
      dl = iochart_bootchart_chart_draw (bc, io, NULL, &error);
      if (dl == NULL || !iochart_svg_write (dl, svg, &error))
        {
          fprintf (stderr, "iochart: %s\n", error->message);
          return 2;
        }
      best_read = MIN (best_read, read);
      best_svg = MIN (best_svg, ms_since (t0));
      t0 = g_get_monotonic_time ();
      if (!iochart_bootchart_chart_write (bc, io, NULL, NULL, png, NULL, &error))
        {
          fprintf (stderr, "iochart: %s\n", error->message);
          return 2;
        }
      best_png = MIN (best_png, ms_since (t0));
      processes = iochart_bootchart_get_processes (bc)->len;
      nodes = iochart_bootchart_get_tree (bc)->len;
      items = iochart_display_list_get_n_items (dl);
    }
  printf ("read: %.1f ms best of %d (%u processes, %u tree roots)\n", best_read, runs, processes, nodes);
  printf ("read+svg: %.1f ms best of %d (%u display items)\n", best_svg, runs, items);
  printf ("png (draw+encode, model loaded): %.1f ms best of %d\n", best_png, runs);
  if (tmp)
    {
      g_unlink (svg);
      g_unlink (png);
    }
  return 0;
}
