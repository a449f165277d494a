/* test-time-split.c: task states from sched_switch/sched_wakeup text, and the split they give
 *
 * One process (cat, pid 100) forked at 1.000 s, exiting at 1.010 s: woken, runs 2 ms, sleeps in
 * D for 3 ms of which its read is outstanding 2 ms, woken and waits 1 ms for the CPU, runs 1 ms,
 * sleeps 2 ms, runs to exit. The same trace in the kernel's text form and in trace-cmd report's
 * must give the same split, exactly.
 */
#include <unistd.h>
#include <glib/gstdio.h>
#include "iochart-loader.h"
#include "analysis/iochart-time-split.h"
#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-chart.h"

static const char kernel_text[] =
  "# tracer: nop\n"
  "  sh-99 [000] ..... 1.000000: sched_process_fork: comm=sh pid=99 child_comm=sh child_pid=100\n"
  "  sh-99 [000] ..... 1.000000: sched_wakeup_new: comm=sh pid=100 prio=120 target_cpu=001\n"
  "  <idle>-0 [001] ..... 1.000000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=sh next_pid=100 next_prio=120\n"
  "  cat-100 [001] ..... 1.001000: block_bio_queue: 7,0 R 2048 + 8 [cat]\n"
  "  cat-100 [001] ..... 1.001000: block_rq_insert: 7,0 R 4096 () 2048 + 8 be,0,4 [cat]\n"
  "  cat-100 [001] ..... 1.001000: block_rq_issue: 7,0 R 4096 () 2048 + 8 be,0,4 [cat]\n"
  "  cat-100 [001] ..... 1.002000: sched_switch: prev_comm=cat prev_pid=100 prev_prio=120 prev_state=D ==> next_comm=swapper/1 next_pid=0 next_prio=120\n"
  "  <idle>-0 [001] ..... 1.003000: block_rq_complete: 7,0 R () 2048 + 8 be,0,4 [0]\n"
  "  <idle>-0 [001] ..... 1.003000: sched_wakeup: comm=cat pid=100 prio=120 target_cpu=001\n"
  "  <idle>-0 [001] ..... 1.003000: sched_wakeup: comm=cat pid=100 prio=120 target_cpu=001\n"
  "  dd-200 [001] ..... 1.004000: sched_switch: prev_comm=dd prev_pid=200 prev_prio=120 prev_state=R+ ==> next_comm=cat next_pid=100 next_prio=120\n"
  "  cat-100 [001] ..... 1.005000: sched_switch: prev_comm=cat prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=dd next_pid=200 next_prio=120\n"
  "  dd-200 [001] ..... 1.007000: sched_wakeup: comm=cat pid=100 prio=120 target_cpu=001\n"
  "  dd-200 [001] ..... 1.007000: sched_switch: prev_comm=dd prev_pid=200 prev_prio=120 prev_state=S ==> next_comm=cat next_pid=100 next_prio=120\n"
  "  cat-100 [001] ..... 1.010000: sched_process_exit: comm=cat pid=100 prio=120 group_dead=true\n"
  "  cat-100 [001] ..... 1.010000: sched_switch: prev_comm=cat prev_pid=100 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120\n";

static const char report_text[] =
  "cpus=2\n"
  "              sh-99    [000]     1.000000: sched_process_fork:   comm=sh pid=99 child_comm=sh child_pid=100\n"
  "              sh-99    [000]     1.000000: sched_wakeup_new:     sh:100 [120] CPU:001\n"
  "          <idle>-0     [001]     1.000000: sched_switch:         swapper/1:0 [120] R ==> sh:100 [120]\n"
  "             cat-100   [001]     1.001000: block_bio_queue:      7,0 R 2048 + 8 [cat]\n"
  "             cat-100   [001]     1.001000: block_rq_insert:      7,0 R 4096 () 2048 + 8 0x2,0,4 [cat]\n"
  "             cat-100   [001]     1.001000: block_rq_issue:       7,0 R 4096 () 2048 + 8 0x2,0,4 [cat]\n"
  "             cat-100   [001]     1.002000: sched_switch:         cat:100 [120] D ==> swapper/1:0 [120]\n"
  "          <idle>-0     [001]     1.003000: block_rq_complete:    7,0 R () 2048 + 8 0x2,0,4 [0]\n"
  "          <idle>-0     [001]     1.003000: sched_wakeup:         cat:100 [120] CPU:001\n"
  "          <idle>-0     [001]     1.003000: sched_wakeup:         cat:100 [120] success=1 CPU:001\n"
  "              dd-200   [001]     1.004000: sched_switch:         dd:200 [120] R+ ==> cat:100 [120]\n"
  "             cat-100   [001]     1.005000: sched_switch:         cat:100 [120] S ==> dd:200 [120]\n"
  "              dd-200   [001]     1.007000: sched_wakeup:         cat:100 [120] CPU:001\n"
  "              dd-200   [001]     1.007000: sched_switch:         dd:200 [120] S ==> cat:100 [120]\n"
  "             cat-100   [001]     1.010000: sched_process_exit:   comm=cat pid=100 prio=120\n"
  "             cat-100   [001]     1.010000: sched_switch:         cat:100 [120] X ==> swapper/1:0 [120]\n";

static IochartCapture *
load_text (const char *text)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int fd = g_file_open_tmp ("iochart-split-XXXXXX.txt", &path, &error);
  const char *paths[] = { path, NULL };
  IochartCapture *capture;

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, text, -1, &error));
  capture = iochart_load (paths, NULL, &error);
  g_assert_no_error (error);
  g_unlink (path);
  return capture;
}

static guint
find_pid (IochartCapture *capture, gint32 pid)
{
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    if (iochart_capture_get_process (capture, i)->pid == pid)
      return i;
  g_assert_not_reached ();
}

static void
check_split (const char *text)
{
  g_autoptr(IochartCapture) capture = load_text (text);
  g_autoptr(IochartTimeSplits) splits = NULL;
  const IochartTimeSplit *s;

  g_assert_true (iochart_capture_has_task_states (capture));
  splits = iochart_time_splits_new (capture, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN);
  g_assert_nonnull (splits);
  s = iochart_time_splits_get_process (splits, find_pid (capture, 100));
  /* running 1.000-1.002, 1.004-1.005, 1.007-1.010 */
  g_assert_cmpint (s->ns[IOCHART_SPLIT_RUNNING], ==, 6000000);
  /* runnable 1.003-1.004 (the second wakeup changes nothing) */
  g_assert_cmpint (s->ns[IOCHART_SPLIT_RUNNABLE], ==, 1000000);
  /* D 1.002-1.003 with the read outstanding 1.001-1.003 */
  g_assert_cmpint (s->ns[IOCHART_SPLIT_IO_WAIT], ==, 1000000);
  g_assert_cmpint (s->ns[IOCHART_SPLIT_OTHER_D], ==, 0);
  g_assert_cmpint (s->ns[IOCHART_SPLIT_SLEEP], ==, 2000000);
  g_assert_cmpint (s->life_ns, ==, 10000000);
  g_assert_cmpint (iochart_time_split_dominant_wait (s), ==, IOCHART_SPLIT_RUNNABLE);
  /* dd (200) had no I/O: no process, its states are dropped with it */
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    g_assert_cmpint (iochart_capture_get_process (capture, i)->pid, !=, 200);
}

static void
test_kernel_text (void)
{
  check_split (kernel_text);
}

static void
test_report_text (void)
{
  check_split (report_text);
}

/* Without scheduler events there is no split at all, not a split of zeros. */
static void
test_no_sched (void)
{
  g_autoptr(IochartCapture) capture = load_text (
    "  cat-100 [001] ..... 1.001000: block_rq_issue: 7,0 R 4096 () 2048 + 8 be,0,4 [cat]\n"
    "  <idle>-0 [001] ..... 1.003000: block_rq_complete: 7,0 R () 2048 + 8 be,0,4 [0]\n");

  g_assert_false (iochart_capture_has_task_states (capture));
  g_assert_null (iochart_time_splits_new (capture, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN));
}

/* The shipped bundle of `record --bootchart` (no sched events): its samples lend the states.
 * Both dd readers were sampled in D state with their direct reads outstanding. */
static void
test_bootchart_samples (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "samples",
                                            "bootchart-ionice.tgz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (path, &error);
  g_autoptr(IochartCapture) capture = iochart_bootchart_chart_load_bundle_io (path, &error);
  g_autoptr(IochartTimeSplits) splits = NULL;
  guint n_dd = 0;

  g_assert_no_error (error);
  g_assert_false (iochart_capture_has_task_states (capture));
  iochart_bootchart_lend_task_states (bc, capture);
  g_assert_true (iochart_capture_has_task_states (capture));
  g_assert_true (iochart_capture_task_states_are_sampled (capture));
  splits = iochart_time_splits_new (capture, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN);
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (capture, i);
      const IochartTimeSplit *s = iochart_time_splits_get_process (splits, i);
      gint64 sum = 0;

      for (guint k = 0; k < IOCHART_N_SPLITS; k++)
        sum += s->ns[k];
      g_assert_cmpint (sum, ==, s->life_ns);
      if (g_strcmp0 (p->comm, "dd") == 0 && p->requests > 0)
        {
          n_dd++;
          g_assert_cmpint (s->ns[IOCHART_SPLIT_IO_WAIT] + s->ns[IOCHART_SPLIT_OTHER_D], >, s->life_ns / 2);
        }
    }
  g_assert_cmpuint (n_dd, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/time-split/kernel-text", test_kernel_text);
  g_test_add_func ("/time-split/report-text", test_report_text);
  g_test_add_func ("/time-split/no-sched", test_no_sched);
  g_test_add_func ("/time-split/bootchart-samples", test_bootchart_samples);
  return g_test_run ();
}
