/* Unit tests of the what-if simulator: the engine, the workload graph, the policies' invariants
 * and the classic report's slowdowns on a synthetic `find -exec cat` pair. */
#include <string.h>
#include "sim-synth.h"
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
  return g_test_run ();
}
