/* simulate-bench.c N: simulated requests per second per policy on a synthetic `find -exec cat`
 * pair of about N requests (src/core/synth/), each policy alone on one core, then all
 * in parallel threads as `iochart simulate` runs them; and the simulator's memory per request
 * next to the model's. A run counts whole: the replay and the capture it makes; "all in" adds
 * the workload extraction, as one `iochart simulate -p POLICY` pays it. */
#include <malloc.h>
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

/* Bytes malloc holds for the program, mapped chunks (large arrays) included. */
static gsize
heap_bytes (void)
{
  struct mallinfo2 m = mallinfo2 ();

  return m.uordblks + m.hblkhd;
}

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
  gsize in_use = heap_bytes ();
  g_autoptr(IochartCapture) c = iochart_synth_capture (pair, 2);
  gsize model_bytes = heap_bytes () - in_use;
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  Job jobs[G_N_ELEMENTS (policies)];
  GThread *threads[G_N_ELEMENTS (policies)];
  guint R = iochart_capture_get_n_requests (c), P = iochart_capture_get_n_processes (c);
  double wl_s, wall;
  gsize wl_bytes, out_bytes;

  setvbuf (stdout, NULL, _IOLBF, 0);
  printf ("capture: %u requests, %u processes (made in %.1f s)\n", R, P, (g_get_monotonic_time () - t0) / 1e6);
  wl_s = thread_cpu_s ();
  in_use = heap_bytes ();
  wl = iochart_sim_workload_new (c, NULL, NULL);
  wl_bytes = heap_bytes () - in_use;
  dev = iochart_sim_device_new (wl, "hdd", NULL);
  wl_s = thread_cpu_s () - wl_s;
  printf ("workload extraction, once for every policy: %.2f CPU s (%.2f M requests/s)\n", wl_s, R / wl_s / 1e6);
  /* a run: submit, issue and completion times and the arrival order per request, a fork and an
   * exit time per process, then the capture it makes (its 48-byte requests and its own copy of
   * the processes); measured: the workload and a run's capture */
  in_use = heap_bytes ();
  {
    g_autoptr(IochartCapture) one = iochart_sim_run (wl, dev, "noop", NULL, NULL);
    out_bytes = heap_bytes () - in_use;
  }
  printf ("memory per request, as malloc holds it: the model %zu B (%zu B of records); the workload %zu B; "
          "a run %u B + %.0f B of process times, and its capture %zu B\n", model_bytes / R,
          iochart_capture_get_model_size (c) / R, wl_bytes / R, 3 * 8 + 4, 2 * 8.0 * P / R, out_bytes / R);
  printf ("requests per CPU second of the run's thread, the replay and the capture it makes:\n");
  printf ("%-16s %14s %14s %14s %8s\n", "policy", "alone req/s", "all in req/s", "parallel req/s",
          "all in vs 2M/s");
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
      {
        double all_in = jobs[k].requests / (jobs[k].requests / alone[k] + wl_s);

        printf ("%-16s %14.0f %14.0f %14.0f %7.2fx\n", policies[k], alone[k], all_in,
                jobs[k].requests / jobs[k].seconds, all_in / 2e6);
      }
  }
  printf ("all %zu policies in parallel threads: %.2f s wall, %.2f M requests/s together\n",
          G_N_ELEMENTS (policies), wall, G_N_ELEMENTS (policies) * (double) R / wall / 1e6);
  return 0;
}
