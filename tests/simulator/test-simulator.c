/* Unit tests of the what-if simulator: the engine, the workload graph, the policies' invariants
 * and the classic report's slowdowns on a synthetic `find -exec cat` pair. */
#include <string.h>
#include "sim-synth.h"
#include "sim-hand.h"
#include "simulator/iochart-simulator.h"

#define NORMAL_FILES 600

/* The normal reader is pid 1000 (`find`), the competitor's find the first pid after its cats. */
static const SynthReader pair[] = {
  { IOCHART_CLASS_BE, NORMAL_FILES, 0, 1 },
  { IOCHART_CLASS_IDLE, NORMAL_FILES * 2, 4 * 1024 * 1024, 2 },
};

static guint32
process_of_pid (IochartCapture *c, gint32 pid)
{
  for (guint i = 0; i < iochart_capture_get_n_processes (c); i++)
    if (iochart_capture_get_process (c, i)->pid == pid)
      return i;
  g_assert_not_reached ();
}

/* How long `find` (pid) ran: from its fork to its exit. */
static double
reader_s (IochartCapture *c, gint32 pid)
{
  const IochartProcess *p = iochart_capture_get_process (c, process_of_pid (c, pid));

  g_assert_cmpint (p->exit_ns, !=, IOCHART_TIME_UNKNOWN);
  return (p->exit_ns - p->start_ns) / 1e9;
}

static IochartCapture *
run (IochartCapture *c, const char *policy, const char *model, const char *drop, const char *set_class,
     IochartSimStats *stats)
{
  IochartSimWorkloadOptions o = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
  const char *drops[] = { drop, NULL };
  IochartClassRule rule = { 0 };
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  IochartCapture *out;

  o.drop = drop ? drops : NULL;
  if (set_class)
    {
      g_assert_true (iochart_class_rule_parse (set_class, &rule, &error));
      o.set_class = &rule;
      o.n_set_class = 1;
    }
  wl = iochart_sim_workload_new (c, &o, &error);
  g_assert_no_error (error);
  dev = iochart_sim_device_new (wl, model, &error);
  g_assert_no_error (error);
  out = iochart_sim_run (wl, dev, policy, stats, &error);
  g_assert_no_error (error);
  iochart_class_rule_clear (&rule);
  return out;
}

static gint32
competitor_pid (void)
{
  return 1000 + NORMAL_FILES + 1;
}

static void
slowdowns (const char *policy, double *with_idle, double *with_normal)
{
  g_autoptr(IochartCapture) c = synth_capture (pair, G_N_ELEMENTS (pair));
  g_autofree char *drop = g_strdup_printf ("%d", competitor_pid ());
  g_autofree char *be = g_strdup_printf ("%d=be", competitor_pid ());
  g_autoptr(IochartCapture) alone = run (c, policy, "hdd:capacity=4", drop, NULL, NULL);
  g_autoptr(IochartCapture) idle = run (c, policy, "hdd:capacity=4", NULL, NULL, NULL);
  g_autoptr(IochartCapture) normal = run (c, policy, "hdd:capacity=4", NULL, be, NULL);
  double t = reader_s (alone, 1000);

  *with_idle = reader_s (idle, 1000) / t;
  *with_normal = reader_s (normal, 1000) / t;
  g_test_message ("%s: alone %.2f s, with an idle reader %.2f s (%.2fx), with a normal one %.2f s (%.2fx)",
                  policy, t, reader_s (idle, 1000), *with_idle, reader_s (normal, 1000), *with_normal);
}

static void
test_cfq_slowdowns (void)
{
  double idle, normal;

  slowdowns ("cfq", &idle, &normal);
  g_assert_cmpfloat (idle, >=, 1.5);
  g_assert_cmpfloat (idle, <=, 2.0);
  g_assert_cmpfloat (normal, >=, 1.9);
  g_assert_cmpfloat (normal, <=, 2.4);
}

static void
test_idle_gate_protects (void)
{
  double idle, normal;

  slowdowns ("idle-gate+cfq", &idle, &normal);
  g_assert_cmpfloat (idle, <=, 1.05);
  slowdowns ("idle-gate", &idle, &normal);
  g_assert_cmpfloat (idle, <=, 1.05);
}

static IochartCapture *
pair_capture (void)
{
  return synth_capture (pair, G_N_ELEMENTS (pair));
}

/* Same input, same output: every request's times, run after run. */
static void
test_deterministic (void)
{
  g_autoptr(IochartCapture) c = pair_capture ();
  static const char *policies[] = { "cfq", "bfq", "mq-deadline", "idle-gate+cfq", "noop" };

  for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
    {
      g_autoptr(IochartCapture) a = run (c, policies[k], "hdd", NULL, NULL, NULL);
      g_autoptr(IochartCapture) b = run (c, policies[k], "hdd", NULL, NULL, NULL);

      g_assert_cmpuint (iochart_capture_get_n_requests (a), ==, iochart_capture_get_n_requests (b));
      for (guint i = 0; i < iochart_capture_get_n_requests (a); i++)
        {
          IochartRequest x, y;

          iochart_capture_get_request (a, i, &x);
          iochart_capture_get_request (b, i, &y);
          g_assert_cmpint (x.queue_ns, ==, y.queue_ns);
          g_assert_cmpint (x.issue_ns, ==, y.issue_ns);
          g_assert_cmpint (x.complete_ns, ==, y.complete_ns);
          g_assert_cmpuint (x.sector, ==, y.sector);
        }
    }
}

/* Every policy completes every request of the workload, and the result is a capture. */
static void
test_policies_complete (void)
{
  g_autoptr(IochartCapture) c = pair_capture ();
  static const char *policies[] = { "noop", "cfq", "bfq", "mq-deadline", "idle-gate", "idle-gate+bfq",
                                    "idle-gate:gap=10ms,k=2,starve=1s+mq-deadline",
                                    "cfq:slice_idle=0,low_latency=off,quantum=4" };

  for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
    {
      IochartSimStats st;
      g_autoptr(IochartCapture) out = run (c, policies[k], "hdd", NULL, NULL, &st);

      g_assert_cmpuint (iochart_capture_get_n_requests (out), ==, iochart_capture_get_n_requests (c));
      g_assert_cmpuint (st.requests, ==, iochart_capture_get_n_requests (c));
      g_assert_nonnull (strstr (iochart_capture_get_name (out), "synth ("));
    }
}

/* CFQ's idle class: one idle request in flight at most, none dispatched while a non-idle request
 * waits, and no sync slice longer than its length plus the request that ran over. */
static void
test_cfq_invariants (void)
{
  g_autoptr(IochartCapture) c = pair_capture ();
  g_autoptr(IochartCapture) sched = NULL, fifo = NULL;
  IochartSimStats st, st_fifo;

  sched = run (c, "cfq", "hdd:depth=4", NULL, NULL, &st);
  g_assert_cmpuint (st.max_idle_in_flight, ==, 1);
  g_assert_cmpuint (st.idle_dispatch_while_fg_queued, ==, 0);
  g_assert_cmpint (st.max_slice_ns, >, 0);
  g_assert_cmpint (st.max_slice_ns, <=, st.max_slice_base_ns + 30 * SYNTH_MS);
  g_assert_cmpint (st.max_slice_base_ns, <=, 180 * SYNTH_MS);
  /* the check itself catches a policy without the rule: noop on a device that takes four */
  fifo = run (c, "noop", "hdd:depth=4", NULL, NULL, &st_fifo);
  g_assert_cmpuint (st_fifo.max_idle_in_flight + st_fifo.idle_dispatch_while_fg_queued, >=, 1);
}

/* mq-deadline serves the idle class only when nothing of a higher class is queued or in flight. */
static void
test_deadline_class_order (void)
{
  g_autoptr(IochartCapture) c = pair_capture ();
  IochartSimStats st;
  g_autoptr(IochartCapture) out = run (c, "mq-deadline", "hdd:depth=4", NULL, NULL, &st);

  g_assert_cmpuint (st.idle_dispatch_while_fg_queued, ==, 0);
}

/* --drop removes the process with its descendants; --set-class gives them the class. */
static void
test_drop_and_set_class (void)
{
  g_autoptr(IochartCapture) c = pair_capture ();
  g_autofree char *drop = g_strdup_printf ("%d", competitor_pid ());
  g_autofree char *rt = g_strdup_printf ("%d=rt:2", competitor_pid ());
  g_autoptr(IochartCapture) dropped = run (c, "noop", "hdd", drop, NULL, NULL);
  g_autoptr(IochartCapture) raised = run (c, "noop", "hdd", NULL, rt, NULL);
  guint n_idle = 0, n_rt = 0;

  for (guint i = 0; i < iochart_capture_get_n_requests (dropped); i++)
    {
      IochartRequest r;

      iochart_capture_get_request (dropped, i, &r);
      g_assert_cmpint (r.klass, ==, IOCHART_CLASS_BE);
    }
  for (guint i = 0; i < iochart_capture_get_n_requests (raised); i++)
    {
      IochartRequest r;

      iochart_capture_get_request (raised, i, &r);
      g_assert_cmpint (r.klass, !=, IOCHART_CLASS_IDLE);
      n_rt += r.klass == IOCHART_CLASS_RT && r.level == 2;
    }
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r;

      iochart_capture_get_request (c, i, &r);
      n_idle += r.klass == IOCHART_CLASS_IDLE;
    }
  g_assert_cmpuint (n_rt, ==, n_idle);
  g_assert_cmpuint (iochart_capture_get_n_requests (dropped), ==, iochart_capture_get_n_requests (c) - n_idle);
  /* the competitor's `cat`s went with it: their lives are the observed ones, with no I/O */
  g_assert_cmpuint (iochart_capture_get_process (dropped, process_of_pid (dropped, competitor_pid () + 1))->requests, ==, 0);
}

/* noop on the observed service of a device that served one request at a time gives back the
 * observed completions (here the alone reader, timed so by the generator). */
static void
test_noop_observed_reproduces (void)
{
  g_autoptr(IochartCapture) c = synth_capture (pair, 1);
  g_autoptr(IochartCapture) out = run (c, "noop", "observed", NULL, NULL, NULL);
  gint64 t0 = iochart_capture_get_start_ns (c), worst = 0;

  g_assert_cmpuint (iochart_capture_get_n_requests (out), ==, iochart_capture_get_n_requests (c));
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest a, b;

      iochart_capture_get_request (c, i, &a);
      iochart_capture_get_request (out, i, &b);
      g_assert_cmpuint (a.sector, ==, b.sector);
      worst = MAX (worst, ABS (b.complete_ns - a.complete_ns) * 100 / MAX (a.complete_ns - t0, 1));
    }
  g_assert_cmpint (worst, <, 1);
}

/* The fit learns the generator's disk back: its media rate and a small error. */
static void
test_fit (void)
{
  g_autoptr(IochartCapture) c = synth_capture (pair, 1);
  g_autoptr(IochartSimWorkload) wl = iochart_sim_workload_new (c, NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartSimDevice) dev = iochart_sim_device_new (wl, "fit", &error);
  const IochartSimFit *f;

  g_assert_no_error (error);
  f = iochart_sim_device_get_fit (dev);
  g_assert_nonnull (f);
  g_assert_false (f->one_at_a_time);
  g_test_message ("fit: %u alone, %.1f MB/s, error %.3f ms = %.2f%% of %.2f ms", f->n_alone,
                  f->rate_bytes_per_s / 1e6, f->demerit_ms, f->demerit_pct, f->mean_ms);
  g_assert_cmpfloat (fabs (f->rate_bytes_per_s / (120.0 * 1024 * 1024) - 1), <, 0.15);
  g_assert_cmpfloat (f->demerit_pct, <, 5);
}

static void
test_bad_specs (void)
{
  static const char *bad[] = { "nope", "cfq:nokey=1", "cfq:slice_idle=abc", "cfq+idle-gate", "noop+cfq",
                               "cfq:quantum", "idle-gate:k=0", "" };
  g_autoptr(IochartCapture) c = pair_capture ();
  g_autoptr(IochartSimWorkload) wl = iochart_sim_workload_new (c, NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (iochart_sim_policy_check (bad[i], &error));
      g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
    }
  for (guint i = 0; i < 3; i++)
    {
      static const char *models[] = { "tape", "hdd:rpm=1", "ssd:channels=x" };
      g_autoptr(GError) error = NULL;
      g_autoptr(IochartSimDevice) dev = iochart_sim_device_new (wl, models[i], &error);

      g_assert_null (dev);
      g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
    }
  g_assert_true (iochart_sim_policy_check ("idle-gate:gap=50ms+cfq:slice_idle=4ms", NULL));
}

/* ---- hand-made workloads for the policies' semantics ---- */

/* `dd`: one process reading n requests of nr sectors one after the other from region, thinking
 * think_ns after each; pid as given. */
static void
hand_dd (Synth *s, gint32 pid, guint64 region, guint n, guint32 nr, gint64 think_ns)
{
  gint32 ioprio = IOCHART_IOPRIO_MAKE (IOCHART_CLASS_BE, 4);
  gint64 t = SYNTH_MS;

  s->head = region;
  synth_put (s, (SynthEvent) { .ts = 0, .kind = S_FORK, .pid = pid, .ppid = 1, .comm = "dd" });
  for (guint i = 0; i < n; i++)
    t = synth_read (s, t, pid, "dd", region + (guint64) i * nr, nr, "R", ioprio) + think_ns;
  synth_put (s, (SynthEvent) { .ts = t, .kind = S_EXIT, .pid = pid });
}

static void
fill_two_dd (Synth *s)
{
  hand_dd (s, 2000, 0, 3000, 256, 200000);
  hand_dd (s, 2001, 4ull << 20, 3000, 256, 200000);
}

/* a reader that thinks 1 ms between its requests: without idling it loses its turn each time */
static void
fill_two_thinking (Synth *s)
{
  hand_dd (s, 2000, 0, 1500, 256, 1000000);
  hand_dd (s, 2001, 4ull << 20, 1500, 256, 1000000);
}

/* 2000 reads 4 KiB requests, 2001 256 KiB ones */
static void
fill_small_and_big (Synth *s)
{
  hand_dd (s, 2000, 0, 20000, 8, 100000);
  hand_dd (s, 2001, 4ull << 20, 1500, 512, 100000);
}

/* four readers always busy and one that reads 4 KiB every 50 ms (pid 2010) */
static void
fill_four_dd_and_interactive (Synth *s)
{
  for (guint i = 0; i < 4; i++)
    hand_dd (s, 2000 + i, (guint64) i << 21, 1000, 256, 200000);
  hand_dd (s, 2010, 5ull << 21, 40, 8, 50 * SYNTH_MS);
}

static IochartCapture *
run_groups (IochartCapture *c, const char *policy, const char *const *groups, IochartSimStats *stats)
{
  IochartSimWorkloadOptions o = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  g_autoptr(GError) error = NULL;
  IochartCapture *out;

  o.set_group = groups;
  wl = iochart_sim_workload_new (c, &o, &error);
  g_assert_no_error (error);
  dev = iochart_sim_device_new (wl, "hdd:capacity=4", &error);
  g_assert_no_error (error);
  out = iochart_sim_run (wl, dev, policy, stats, &error);
  g_assert_no_error (error);
  return out;
}

/* How much sooner 2000 ended than 2001. */
static double
end_ratio (IochartCapture *c, const char *policy, const char *const *groups)
{
  g_autoptr(IochartCapture) out = run_groups (c, policy, groups, NULL);
  double a = reader_s (out, 2000), b = reader_s (out, 2001);

  g_test_message ("%s%s%s: 2000 ran %.2f s, 2001 %.2f s", policy, groups ? " with " : "",
                  groups ? groups[0] : "", a, b);
  return a / b;
}

/* --set-group: two readers always busy share the disk by their groups' weights (2.6.35's
 * cfq_group vdisktime); in the root group alone they share it evenly. */
static void
test_cfq_group_weights (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_two_dd);
  static const char *const heavy_a[] = { "2000=a:1000", "2001=b:100", NULL };
  static const char *const heavy_b[] = { "2000=a:100", "2001=b:1000", NULL };
  static const char *const even[] = { "2000=a:500", "2001=b:500", NULL };
  double none = end_ratio (c, "cfq", NULL), a = end_ratio (c, "cfq", heavy_a), b = end_ratio (c, "cfq", heavy_b);
  double same = end_ratio (c, "cfq", even);

  g_assert_cmpfloat (fabs (none - 1), <, 0.1);
  g_assert_cmpfloat (fabs (same - 1), <, 0.1);
  g_assert_cmpfloat (a, <, 0.7);
  g_assert_cmpfloat (b, >, 1 / 0.7);
}

/* group_idle (2.6.37): without queue idling, a group keeps the disk over its reader's think
 * time only with it, and only then do the weights count. */
static void
test_cfq_group_idle (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_two_thinking);
  static const char *const heavy_a[] = { "2000=a:1000", "2001=b:100", NULL };
  double off = end_ratio (c, "cfq:slice_idle=0", heavy_a);
  double on = end_ratio (c, "cfq:slice_idle=0,group_idle=8ms", heavy_a);

  g_assert_cmpfloat (fabs (off - 1), <, 0.1);
  g_assert_cmpfloat (on, <, 0.7);
}

/* iops_mode: groups are charged requests, not time, so the reader of big requests gets more of
 * the disk than in time mode. */
static void
test_cfq_iops_mode (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_small_and_big);
  static const char *const groups[] = { "2000=a", "2001=b", NULL };
  g_autoptr(IochartCapture) time = run_groups (c, "cfq", groups, NULL);
  g_autoptr(IochartCapture) iops = run_groups (c, "cfq:iops_mode=1", groups, NULL);

  g_test_message ("big reader: %.2f s by time, %.2f s by requests", reader_s (time, 2001), reader_s (iops, 2001));
  g_assert_cmpfloat (reader_s (iops, 2001), <, 0.7 * reader_s (time, 2001));
}

/* The longest a request of pid waited, queue to completion. */
static double
max_wait_ms (IochartCapture *c, gint32 pid)
{
  guint32 proc = process_of_pid (c, pid);
  gint64 worst = 0;

  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r;

      iochart_capture_get_request (c, i, &r);
      if (r.process == proc)
        worst = MAX (worst, r.complete_ns - r.queue_ns);
    }
  return worst / 1e6;
}

/* low_latency shrinks the slices when many queues are busy (300 ms of target latency over five
 * queues: 60 ms each instead of 100), so a reader that comes back now and then waits less. */
static void
test_cfq_low_latency (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_four_dd_and_interactive);
  g_autoptr(IochartCapture) on = run_groups (c, "cfq", NULL, NULL);
  g_autoptr(IochartCapture) off = run_groups (c, "cfq:low_latency=0", NULL, NULL);

  g_test_message ("the occasional reader waited at most %.0f ms with low_latency, %.0f ms without",
                  max_wait_ms (on, 2010), max_wait_ms (off, 2010));
  g_assert_cmpfloat (max_wait_ms (on, 2010), <, 0.75 * max_wait_ms (off, 2010));
}

/* Writes queued out of order go to the disk in sector order under cfq and bfq; a backward seek
 * within back_seek_max costs back_seek_penalty times its distance. */
static const gint64 out_of_order[] = { 0, 1000, -500, 3000, -20000, 50000 };

static void
fill_out_of_order (Synth *s)
{
  gint32 ioprio = IOCHART_IOPRIO_MAKE (IOCHART_CLASS_BE, 4);
  guint64 base = 1 << 20;

  synth_put (s, (SynthEvent) { .ts = 0, .kind = S_FORK, .pid = 2000, .ppid = 1, .comm = "flush" });
  for (guint i = 0; i < G_N_ELEMENTS (out_of_order); i++)
    synth_read (s, SYNTH_MS + i * 1000, 2000, "flush", base + out_of_order[i], 8, "W", ioprio);
  synth_put (s, (SynthEvent) { .ts = 500 * SYNTH_MS, .kind = S_EXIT, .pid = 2000 });
}

static void
issue_order (IochartCapture *c, const char *policy, gint64 *order)
{
  g_autoptr(IochartCapture) out = run_groups (c, policy, NULL, NULL);
  guint n = iochart_capture_get_n_requests (out);
  g_autofree IochartRequest *r = g_new (IochartRequest, n);

  g_assert_cmpuint (n, ==, G_N_ELEMENTS (out_of_order));
  for (guint i = 0; i < n; i++)
    iochart_capture_get_request (out, i, &r[i]);
  for (guint i = 0; i < n; i++)
    {
      guint rank = 0;

      for (guint k = 0; k < n; k++)
        rank += r[k].issue_ns < r[i].issue_ns;
      order[rank] = (gint64) r[i].sector - (1 << 20);
    }
}

static void
test_sector_order (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_out_of_order);
  static const gint64 cfq[] = { 0, 1000, 3000, -500, -20000, 50000 };
  static const gint64 penalty[] = { 0, 1000, 3000, 50000, -20000, -500 };
  gint64 got[G_N_ELEMENTS (out_of_order)];

  issue_order (c, "noop", got);
  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    g_assert_cmpint (got[i], ==, out_of_order[i]);
  issue_order (c, "cfq", got);
  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    g_assert_cmpint (got[i], ==, cfq[i]);
  issue_order (c, "cfq:back_seek_penalty=100", got);
  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    g_assert_cmpint (got[i], ==, penalty[i]);
  /* bfq_choose_req is the same */
  issue_order (c, "bfq", got);
  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    g_assert_cmpint (got[i], ==, cfq[i]);
  issue_order (c, "bfq:back_seek_penalty=100", got);
  for (guint i = 0; i < G_N_ELEMENTS (got); i++)
    g_assert_cmpint (got[i], ==, penalty[i]);
}

static void
test_bad_groups (void)
{
  g_autoptr(IochartCapture) c = pair_capture ();
  static const char *const bad[][2] = { { "1000=a:99", NULL }, { "1000=", NULL }, { "=a", NULL },
                                        { "nosuch=a", NULL }, { "1000=a:x", NULL } };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      IochartSimWorkloadOptions o = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
      g_autoptr(GError) error = NULL;
      g_autoptr(IochartSimWorkload) wl = NULL;

      o.set_group = bad[i];
      wl = iochart_sim_workload_new (c, &o, &error);
      g_assert_null (wl);
      g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
    }
}

/* Two processes reading alternate 128 KiB pieces of one file (2000 the even ones, 2001 the odd). */
static void
fill_interleaved (Synth *s)
{
  gint32 ioprio = IOCHART_IOPRIO_MAKE (IOCHART_CLASS_BE, 4);

  for (gint32 k = 0; k < 2; k++)
    {
      gint64 t = SYNTH_MS;

      s->head = 0;
      synth_put (s, (SynthEvent) { .ts = 0, .kind = S_FORK, .pid = 2000 + k, .ppid = 1, .comm = "reader" });
      for (guint i = 0; i < 1000; i++)
        t = synth_read (s, t, 2000 + k, "reader", (guint64) (2 * i + k) * 256, 256, "R", ioprio) + 200000;
      synth_put (s, (SynthEvent) { .ts = t, .kind = S_EXIT, .pid = 2000 + k });
    }
}

/* Close cooperators: CFQ serves the queue whose next request is at the head instead of idling
 * for the other, and merges them, so the file is read in order as noop reads it; idling on each
 * reader in turn would seek at every request. */
static void
test_cfq_cooperators (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_interleaved);
  g_autoptr(IochartCapture) cfq = run_groups (c, "cfq", NULL, NULL);
  g_autoptr(IochartCapture) noop = run_groups (c, "noop", NULL, NULL);
  double t = MAX (reader_s (cfq, 2000), reader_s (cfq, 2001)), ref = MAX (reader_s (noop, 2000), reader_s (noop, 2001));

  g_test_message ("interleaved readers: %.2f s under cfq, %.2f s under noop", t, ref);
  g_assert_cmpfloat (t, <, 1.2 * ref);
}

/* two random readers (sync-noidle) and a sequential one (2010, sync) */
static void
fill_seeky_and_sequential (Synth *s)
{
  gint32 ioprio = IOCHART_IOPRIO_MAKE (IOCHART_CLASS_BE, 4);
  GRand *rng = g_rand_new_with_seed (7);

  for (gint32 k = 0; k < 2; k++)
    {
      gint64 t = SYNTH_MS;

      synth_put (s, (SynthEvent) { .ts = 0, .kind = S_FORK, .pid = 2000 + k, .ppid = 1, .comm = "random" });
      for (guint i = 0; i < 300; i++)
        t = synth_read (s, t, 2000 + k, "random", (guint64) g_rand_int_range (rng, 0, 1 << 22) * 2, 8, "R", ioprio) + 200000;
      synth_put (s, (SynthEvent) { .ts = t, .kind = S_EXIT, .pid = 2000 + k });
    }
  hand_dd (s, 2010, 3ull << 22, 10000, 256, 100000);
  g_rand_free (rng);
}

/* The workload trees: the random readers share the sync-noidle workload's slice (two thirds of
 * the target latency) back to back, instead of one request each per round of the sequential
 * reader's 100 ms slices (300 requests: 30 s). */
static void
test_cfq_workload_trees (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_seeky_and_sequential);
  g_autoptr(IochartCapture) out = run_groups (c, "cfq", NULL, NULL);
  double r = MAX (reader_s (out, 2000), reader_s (out, 2001));

  g_test_message ("random readers %.2f s, sequential reader %.2f s", r, reader_s (out, 2010));
  g_assert_cmpfloat (r, <, 12);
}

/* 2000 reads in bursts of five requests with a pause of 20 ms; 2001 and 2002 read all the time */
static void
fill_bursty_and_dd (Synth *s)
{
  gint32 ioprio = IOCHART_IOPRIO_MAKE (IOCHART_CLASS_BE, 4);
  gint64 t = SYNTH_MS;

  s->head = 0;
  synth_put (s, (SynthEvent) { .ts = 0, .kind = S_FORK, .pid = 2000, .ppid = 1, .comm = "bursty" });
  for (guint i = 0; i < 1500; i++)
    t = synth_read (s, t, 2000, "bursty", (guint64) i * 256, 256, "R", ioprio) + (i % 5 == 4 ? 20 * SYNTH_MS : 100000);
  synth_put (s, (SynthEvent) { .ts = t, .kind = S_EXIT, .pid = 2000 });
  hand_dd (s, 2001, 4ull << 20, 6000, 256, 100000);
  hand_dd (s, 2002, 6ull << 20, 6000, 256, 100000);
}

/* slice_resid: a reader whose idle window ran out early in its slice comes back with what was
 * left of it, ahead of the reader that waits on the tree: it waits one slice of another reader
 * (100 ms), not two. */
static void
test_cfq_slice_resid (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_bursty_and_dd);
  g_autoptr(IochartCapture) out = run_groups (c, "cfq", NULL, NULL);

  g_test_message ("the bursty reader waited at most %.0f ms", max_wait_ms (out, 2000));
  g_assert_cmpfloat (max_wait_ms (out, 2000), <, 150);
}

/* ---- BFQ ---- */

static void
hand_reader_at (Synth *s, gint32 pid, IochartClass klass, gint64 start, guint64 region, guint n, guint32 nr,
                gint64 think_ns, gboolean random)
{
  gint32 ioprio = IOCHART_IOPRIO_MAKE (klass, klass == IOCHART_CLASS_IDLE ? 7 : 4);
  GRand *rng = g_rand_new_with_seed (pid);
  gint64 t = start + SYNTH_MS;

  s->head = region;
  synth_put (s, (SynthEvent) { .ts = start, .kind = S_FORK, .pid = pid, .ppid = 1, .comm = "reader" });
  for (guint i = 0; i < n; i++)
    {
      guint64 sector = random ? region + (guint64) g_rand_int_range (rng, 0, 1 << 20) * 2 : region + (guint64) i * nr;

      t = synth_read (s, t, pid, "reader", sector, nr, "R", ioprio) + think_ns;
    }
  synth_put (s, (SynthEvent) { .ts = t, .kind = S_EXIT, .pid = pid });
  g_rand_free (rng);
}

/* two readers always busy; at 12 s a third one (2002) reads 600 requests, then at 14 s a burst
 * of twenty short processes (2100-2119), 20 ms apart, reads four requests each */
static void
fill_late_reader_and_burst (Synth *s)
{
  hand_reader_at (s, 2000, IOCHART_CLASS_BE, 0, 0, 12000, 256, 200000, FALSE);
  hand_reader_at (s, 2001, IOCHART_CLASS_BE, 0, 4ull << 20, 12000, 256, 200000, FALSE);
  hand_reader_at (s, 2002, IOCHART_CLASS_BE, 12000 * SYNTH_MS, 6ull << 20, 600, 256, 200000, FALSE);
  for (guint i = 0; i < 20; i++)
    hand_reader_at (s, 2100 + i, IOCHART_CLASS_BE, (14000 + 20 * i) * SYNTH_MS, (7ull << 20) + i * 4096, 4, 64,
                    200000, FALSE);
}

/* The mean time a request of pid waited, queue to completion, in ms. */
static double
mean_wait_ms (IochartCapture *c, gint32 pid, gint64 after_ns)
{
  guint32 proc = process_of_pid (c, pid);
  double sum = 0;
  guint n = 0;

  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r;

      iochart_capture_get_request (c, i, &r);
      if (r.process == proc && r.queue_ns - iochart_capture_get_start_ns (c) >= after_ns)
        sum += (r.complete_ns - r.queue_ns) / 1e6, n++;
    }
  return n ? sum / n : 0;
}

/* Weight raising: a reader that starts late is interactive (its weight 30 times, and it preempts)
 * all its 0.7 s, longer than the 300 ms soft real-time raising a new queue may get instead, so it
 * ends far sooner than with low_latency off; but of a burst of short processes only the first
 * seven are raised. */
static void
test_bfq_weight_raising (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_late_reader_and_burst);
  g_autoptr(IochartCapture) on = run_groups (c, "bfq", NULL, NULL);
  g_autoptr(IochartCapture) off = run_groups (c, "bfq:low_latency=0", NULL, NULL);
  double first = 0, late = 0;

  g_test_message ("late reader: %.2f s raised, %.2f s with low_latency off",
                  reader_s (on, 2002), reader_s (off, 2002));
  g_assert_cmpfloat (reader_s (on, 2002), <, 0.5 * reader_s (off, 2002));
  for (guint i = 0; i < 7; i++)
    first += mean_wait_ms (on, 2100 + i, 0) / 7;
  for (guint i = 10; i < 20; i++)
    late += mean_wait_ms (on, 2100 + i, 0) / 10;
  g_test_message ("burst: the first seven waited %.1f ms a request, the last ten %.1f ms", first, late);
  g_assert_cmpfloat (late, >, 2 * first);
}

/* two readers always busy and one reading 4 KiB every 50 ms (2010) for 30 s */
static void
fill_periodic (Synth *s)
{
  hand_reader_at (s, 2000, IOCHART_CLASS_BE, 0, 0, 15000, 256, 200000, FALSE);
  hand_reader_at (s, 2001, IOCHART_CLASS_BE, 0, 4ull << 20, 15000, 256, 200000, FALSE);
  hand_reader_at (s, 2010, IOCHART_CLASS_BE, 0, 6ull << 20, 600, 8, 50 * SYNTH_MS, FALSE);
}

/* Soft real-time: once the interactive raising is over (7 s), the periodic reader comes back
 * after its soft real-time deadline every time, is raised and preempts: it waits about one
 * request of the others, not their slots. */
static void
test_bfq_soft_real_time (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_periodic);
  g_autoptr(IochartCapture) on = run_groups (c, "bfq", NULL, NULL);
  g_autoptr(IochartCapture) off = run_groups (c, "bfq:low_latency=0", NULL, NULL);
  double a = mean_wait_ms (on, 2010, 10000 * SYNTH_MS), b = mean_wait_ms (off, 2010, 10000 * SYNTH_MS);

  g_test_message ("periodic reader after 10 s: %.1f ms a request raised, %.1f ms with low_latency off", a, b);
  g_assert_cmpfloat (a, <, 15);
  g_assert_cmpfloat (b, >, 3 * a);
}

/* Budget feedback: a reader that uses its whole budget gets the maximum; a `cat` that has no
 * more requests after one gets the service it had, no less than the minimum (max / 32). */
static void
test_bfq_budget_feedback (void)
{
  g_autoptr(IochartCapture) dd = hand_capture (fill_two_dd);
  g_autoptr(IochartCapture) cats = pair_capture ();
  IochartSimStats a, b;
  g_autoptr(IochartCapture) x = run_groups (dd, "bfq", NULL, &a);
  g_autoptr(IochartCapture) y = run_groups (cats, "bfq", NULL, &b);

  g_test_message ("budgets: %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " sectors for two dd, %" G_GUINT64_FORMAT
                  "-%" G_GUINT64_FORMAT " for find -exec cat", a.min_budget_sectors, a.max_budget_sectors,
                  b.min_budget_sectors, b.max_budget_sectors);
  g_assert_cmpuint (a.max_budget_sectors, ==, 16384);
  g_assert_cmpuint (b.min_budget_sectors, ==, 16384 / 32);
}

/* a random reader thinking 1 ms, and an idle-class reader (2001) */
static void
fill_seeky_and_idle (Synth *s)
{
  hand_reader_at (s, 2000, IOCHART_CLASS_BE, 0, 0, 3000, 8, SYNTH_MS, TRUE);
  hand_reader_at (s, 2001, IOCHART_CLASS_IDLE, 0, 4ull << 20, 300, 256, 200000, FALSE);
}

/* Injection: on a device that queues, while BFQ idles for the random reader, the idle-class
 * reader's requests go in one at a time; without it, one request every 200 ms (60 s). */
static void
test_bfq_injection (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_seeky_and_idle);
  g_autoptr(IochartSimWorkload) wl = iochart_sim_workload_new (c, NULL, NULL);
  g_autoptr(IochartSimDevice) dev = iochart_sim_device_new (wl, "hdd:capacity=4,depth=4", NULL);
  g_autoptr(IochartCapture) out = iochart_sim_run (wl, dev, "bfq", NULL, NULL);

  g_test_message ("random reader %.2f s, idle reader %.2f s", reader_s (out, 2000), reader_s (out, 2001));
  g_assert_cmpfloat (reader_s (out, 2001), <, 0.5 * reader_s (out, 2000));
}

/* Queue merging: interleaved readers go into one queue, read in order as noop reads it
 * (without weight raising, which would inject one reader's requests while idling for the other
 * and leave a single queue busy, where BFQ does not look for cooperators). */
static void
test_bfq_merging (void)
{
  g_autoptr(IochartCapture) c = hand_capture (fill_interleaved);
  g_autoptr(IochartCapture) bfq = run_groups (c, "bfq:low_latency=0", NULL, NULL);
  g_autoptr(IochartCapture) noop = run_groups (c, "noop", NULL, NULL);
  double t = MAX (reader_s (bfq, 2000), reader_s (bfq, 2001)), ref = MAX (reader_s (noop, 2000), reader_s (noop, 2001));

  g_test_message ("interleaved readers: %.2f s under bfq, %.2f s under noop", t, ref);
  g_assert_cmpfloat (t, <, 1.2 * ref);
}

/* ---- robustness ---- */

static guint32 random_seed;

/* six processes of random classes and levels, sync reads and async writes, sequential or
 * random, thinking 0-20 ms */
static void
fill_random (Synth *s)
{
  GRand *rng = g_rand_new_with_seed (random_seed);
  static const char *rwbs[] = { "R", "RM", "W", "WS", "RA" };

  for (gint32 k = 0; k < 6; k++)
    {
      IochartClass klass = g_rand_int_range (rng, IOCHART_CLASS_RT, IOCHART_CLASS_IDLE + 1);
      gint32 ioprio = IOCHART_IOPRIO_MAKE (klass, g_rand_int_range (rng, 0, 8));
      gboolean sequential = g_rand_boolean (rng);
      guint64 pos = (guint64) k << 21;
      gint64 t = g_rand_int_range (rng, 0, 500) * SYNTH_MS;

      s->head = pos;
      synth_put (s, (SynthEvent) { .ts = t, .kind = S_FORK, .pid = 2000 + k, .ppid = 1, .comm = "rnd" });
      t += SYNTH_MS;
      for (guint i = 0; i < 60; i++)
        {
          guint32 nr = 8 << g_rand_int_range (rng, 0, 6);

          pos = sequential ? pos + nr : ((guint64) k << 21) + (guint64) g_rand_int_range (rng, 0, 1 << 20) * 2;
          t = synth_read (s, t, 2000 + k, "rnd", pos, nr, rwbs[g_rand_int_range (rng, 0, G_N_ELEMENTS (rwbs))], ioprio) +
              g_rand_int_range (rng, 0, 20) * SYNTH_MS;
        }
      synth_put (s, (SynthEvent) { .ts = t, .kind = S_EXIT, .pid = 2000 + k });
    }
  g_rand_free (rng);
}

/* Every policy and setting completes every request of random workloads, on devices that take
 * one, four or many at a time, with and without cgroups. */
static void
test_policies_random (void)
{
  static const char *policies[] = { "cfq", "cfq:slice_idle=0,group_idle=8ms", "cfq:iops_mode=1,low_latency=0",
                                    "cfq:back_seek_penalty=1,quantum=2", "bfq", "bfq:low_latency=0,slice_idle=0",
                                    "idle-gate+bfq", "idle-gate+cfq" };
  static const char *models[] = { "hdd:capacity=4", "hdd:capacity=4,depth=4", "ssd" };
  static const char *const groups[] = { "2001=a:100", "2002=b:1000", "2003=a", NULL };

  for (random_seed = 1; random_seed <= 12; random_seed++)
    {
      g_autoptr(IochartCapture) c = hand_capture (fill_random);

      for (guint g = 0; g < 2; g++)
        for (guint m = 0; m < G_N_ELEMENTS (models); m++)
          {
            IochartSimWorkloadOptions o = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
            g_autoptr(IochartSimWorkload) wl = NULL;
            g_autoptr(IochartSimDevice) dev = NULL;
            g_autoptr(GError) error = NULL;

            o.set_group = g ? groups : NULL;
            wl = iochart_sim_workload_new (c, &o, &error);
            g_assert_no_error (error);
            dev = iochart_sim_device_new (wl, models[m], &error);
            g_assert_no_error (error);
            for (guint k = 0; k < G_N_ELEMENTS (policies); k++)
              {
                IochartSimStats st;
                g_autoptr(IochartCapture) out = iochart_sim_run (wl, dev, policies[k], &st, &error);

                g_assert_no_error (error);
                g_assert_cmpuint (st.requests, ==, iochart_sim_workload_get_n_requests (wl));
              }
          }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/simulator/cfq-slowdowns", test_cfq_slowdowns);
  g_test_add_func ("/simulator/idle-gate-protects", test_idle_gate_protects);
  g_test_add_func ("/simulator/deterministic", test_deterministic);
  g_test_add_func ("/simulator/policies-complete", test_policies_complete);
  g_test_add_func ("/simulator/cfq-invariants", test_cfq_invariants);
  g_test_add_func ("/simulator/deadline-class-order", test_deadline_class_order);
  g_test_add_func ("/simulator/drop-and-set-class", test_drop_and_set_class);
  g_test_add_func ("/simulator/noop-observed-reproduces", test_noop_observed_reproduces);
  g_test_add_func ("/simulator/fit", test_fit);
  g_test_add_func ("/simulator/bad-specs", test_bad_specs);
  g_test_add_func ("/simulator/cfq-group-weights", test_cfq_group_weights);
  g_test_add_func ("/simulator/cfq-group-idle", test_cfq_group_idle);
  g_test_add_func ("/simulator/cfq-iops-mode", test_cfq_iops_mode);
  g_test_add_func ("/simulator/cfq-low-latency", test_cfq_low_latency);
  g_test_add_func ("/simulator/sector-order", test_sector_order);
  g_test_add_func ("/simulator/cfq-cooperators", test_cfq_cooperators);
  g_test_add_func ("/simulator/cfq-workload-trees", test_cfq_workload_trees);
  g_test_add_func ("/simulator/cfq-slice-resid", test_cfq_slice_resid);
  g_test_add_func ("/simulator/bfq-weight-raising", test_bfq_weight_raising);
  g_test_add_func ("/simulator/bfq-soft-real-time", test_bfq_soft_real_time);
  g_test_add_func ("/simulator/bfq-budget-feedback", test_bfq_budget_feedback);
  g_test_add_func ("/simulator/bfq-injection", test_bfq_injection);
  g_test_add_func ("/simulator/bfq-merging", test_bfq_merging);
  g_test_add_func ("/simulator/policies-random", test_policies_random);
  g_test_add_func ("/simulator/bad-groups", test_bad_groups);
  return g_test_run ();
}
