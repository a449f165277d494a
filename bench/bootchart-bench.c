/* bootchart-bench.c: time to read a bootchart capture into the model (tree built, default
 * pruning), best of N runs, in milliseconds. Usage: bootchart-bench CAPTURE [RUNS] */
#include <stdio.h>
#include <stdlib.h>

#include "bootchart/iochart-bootchart.h"

int
main (int argc, char **argv)
{
  int runs = argc > 2 ? atoi (argv[2]) : 5;
  double best = 1e9;
  guint processes = 0, nodes = 0;

  if (argc < 2)
    {
      fprintf (stderr, "usage: bootchart-bench CAPTURE [RUNS]\n");
      return 2;
    }
  for (int i = 0; i < runs; i++)
    {
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      g_autoptr(IochartBootchart) bc = iochart_bootchart_load (argv[1], &error);
      gint64 t1 = g_get_monotonic_time ();
      if (bc == NULL)
        {
          fprintf (stderr, "iochart: %s\n", error->message);
          return 2;
        }
      best = MIN (best, (t1 - t0) / 1000.0);
      processes = iochart_bootchart_get_processes (bc)->len;
      nodes = iochart_bootchart_get_tree (bc)->len;
    }
  printf ("read: %.1f ms best of %d (%u processes, %u tree roots)\n", best, runs, processes, nodes);
  return 0;
}
