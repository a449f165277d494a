/* simulate-bench.c N: simulated requests per second per policy on a synthetic `find -exec cat`
 * pair of about N requests (src/core/synth/), each policy alone on one core, then all
 * in parallel threads as `iochart simulate` runs them; and the simulator's memory per request
 * next to the model's. A run counts whole: the replay and the capture it makes. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "synth/iochart-synth.h"
#include "simulator/iochart-simulator.h"

static const char *policies[] = { "noop", "cfq", "mq-deadline", "bfq", "idle-gate+cfq" };

typedef struct {
  IochartSimWorkload *wl;
  IochartSimDevice   *dev;
  const char         *policy;
  double              seconds;
  guint64             requests;
} Job;

/* CPU seconds of the calling thread: on a shared machine the wall clock says more about the others. */
static double
thread_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static gpointer
job_run (gpointer data)
{
  Job *j = data;
  double t0 = thread_cpu_s ();
  IochartSimStats st;
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) out = iochart_sim_run (j->wl, j->dev, j->policy, &st, &error);

  if (out == NULL)
    g_error ("%s: %s", j->policy, error->message);
  j->seconds = thread_cpu_s () - t0;
  j->requests = st.requests;
  return NULL;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 2000000;
  guint files = (guint) (n / 2 / (1 + 1.0 / 16 + 1.0 / 40));
  IochartSynthReader pair[] = { { IOCHART_CLASS_BE, files, 0, 1 }, { IOCHART_CLASS_IDLE, files, 4 * 1024 * 1024, 2 } };
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(IochartCapture) c = iochart_synth_capture (pair, 2);
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  Job jobs[G_N_ELEMENTS (policies)];
  GThread *threads[G_N_ELEMENTS (policies)];
  guint R = iochart_capture_get_n_requests (c), P = iochart_capture_get_n_processes (c);
  double wl_s, wall;

  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("capture: %u requests, %u processes (made in %.1f s)\n", R, P, (g_get_monotonic_time () - t0) / 1e6);
  wl_s = thread_cpu_s ();
  wl = iochart_sim_workload_new (c, NULL, NULL);
  dev = iochart_sim_device_new (wl, "hdd", NULL);
  wl_s = thread_cpu_s () - wl_s;
  printf ("workload extraction, once for every policy: %.2f CPU s (%.2f M requests/s)\n", wl_s, R / wl_s / 1e6);
  /* the graph: 24 B request + 4 source + 8 observed service per request, and per node (2 per
   * request) 4 pred + 8 gap + 1 live + 4 successor + 4 CSR start; a run: 4 times of 8 B per
   * request and the output store of 48 B */
  printf ("memory per request: the model %zu B; the workload %u B; a run %u B + its capture %zu B\n",
          iochart_capture_get_model_size (c) / R, 24 + 4 + 8 + 2 * (4 + 8 + 1 + 4 + 4), 3 * 8 + 8,
          (gsize) 48);
  printf ("requests per CPU second of the run's thread, the replay and the capture it makes:\n");
  printf ("%-16s %14s %14s %8s\n", "policy", "alone req/s", "parallel req/s", "vs 2M/s");
  for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
    {
      jobs[k] = (Job) { wl, dev, policies[k], 0, 0 };
      job_run (&jobs[k]);
    }
  {
    double alone[G_N_ELEMENTS (policies)];

    for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
      alone[k] = jobs[k].requests / jobs[k].seconds;
    t0 = g_get_monotonic_time ();
    for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
      threads[k] = g_thread_new ("sim", job_run, &jobs[k]);
    for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
      g_thread_join (threads[k]);
    wall = (g_get_monotonic_time () - t0) / 1e6;
    for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
      printf ("%-16s %14.0f %14.0f %7.2fx\n", policies[k], alone[k], jobs[k].requests / jobs[k].seconds,
              alone[k] / 2e6);
  }
  printf ("all %zu policies in parallel threads: %.2f s wall, %.2f M requests/s together\n",
          G_N_ELEMENTS (policies), wall, G_N_ELEMENTS (policies) * (double) R / wall / 1e6);
  return 0;
}
