/* Unit tests of the lane index: lanes (every figure, "others" included) and legend counts asked of
 * it equal the walk over every request, for random ranges over captures with process trees
 * (short-lived children folding into their parents), many lanes folding into "others", four
 * classes, short, long, instant, unfinished and never-issued requests on two devices; and over
 * the samples. */
#include <math.h>
#include <string.h>
#include "iochart-capture-private.h"
#include "iochart-loader.h"
#include "analysis/iochart-lane-index.h"
#include "analysis/iochart-lanes.h"
#include "analysis/iochart-summary.h"

typedef enum { EV_FORK, EV_BLOCK, EV_EXIT } EvKind;

typedef struct {
  gint64             ts;
  EvKind             kind;
  IochartBlockAction action;
  guint              rq;
  gint32             pid, parent;
} Ev;

typedef struct {
  guint32   dev;
  guint64   sector;
  guint32   nr;
  IochartOp op;
  gint32    pid;
  gint32    ioprio;
} Life;

static int
ev_cmp (gconstpointer a, gconstpointer b)
{
  const Ev *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->action != y->action)
    return x->action < y->action ? -1 : 1;
  return x->rq < y->rq ? -1 : x->rq > y->rq;
}

/* mostly tens of µs to ms, some zero, some seconds */
static gint64
random_span (GRand *r)
{
  double u = g_rand_double (r);

  if (u < 0.05)
    return 0;
  if (u < 0.07)
    return g_rand_int_range (r, 1, 6000) * G_GINT64_CONSTANT (1000000);
  return (gint64) exp (g_rand_double_range (r, log (1000), log (5e7)));
}

#define N_LONG 30
#define N_SHORT 300

static void
add_request (GRand *r, GArray *evs, Life *l, guint i, gint32 pid, gint64 t)
{
  static const IochartOp ops[] = { IOCHART_OP_READ, IOCHART_OP_READ, IOCHART_OP_WRITE, IOCHART_OP_DISCARD,
                                   IOCHART_OP_FLUSH };
  gboolean queued = g_rand_double (r) < 0.9, issued = g_rand_double (r) < 0.98,
           done = g_rand_double (r) < 0.97;
  guint klass = g_rand_int_range (r, 0, 4);

  l->dev = IOCHART_DEV_MAKE (8, g_rand_double (r) < 0.8 ? 0 : 16);
  l->sector = (guint64) i * 4096;
  l->op = ops[g_rand_int_range (r, 0, G_N_ELEMENTS (ops))];
  l->nr = l->op == IOCHART_OP_FLUSH ? 0 : 8 * g_rand_int_range (r, 1, 64);
  l->pid = pid;
  /* a process keeps mostly one class */
  l->ioprio = g_rand_double (r) < 0.8 ? (gint32) IOCHART_IOPRIO_MAKE (1 + pid % 3, 4)
              : klass == 0 ? -1 : (gint32) IOCHART_IOPRIO_MAKE (klass, 4);
  if (queued)
    g_array_append_val (evs, ((Ev) { t, EV_BLOCK, IOCHART_BLOCK_QUEUE, i }));
  t += random_span (r) / 8;
  g_array_append_val (evs, ((Ev) { t, EV_BLOCK, IOCHART_BLOCK_INSERT, i }));
  if (!issued)
    return;
  t += random_span (r) / 2;
  g_array_append_val (evs, ((Ev) { t, EV_BLOCK, IOCHART_BLOCK_ISSUE, i }));
  if (done)
    g_array_append_val (evs, ((Ev) { t + random_span (r), EV_BLOCK, IOCHART_BLOCK_COMPLETE, i }));
}

static IochartCapture *
tree_capture (guint32 seed, guint n)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (seed);
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("tree");
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autofree Life *lives = g_new0 (Life, n);
  static const char * const names[] = { "find", "make", "tar", "rsync", "cat", "cc1" };
  gint64 span = G_GINT64_CONSTANT (20000000000);   /* 20 s */
  gint64 child_start[N_SHORT], child_life[N_SHORT];
  guint i = 0;

  for (guint p = 0; p < N_LONG; p++)
    g_array_append_val (evs, ((Ev) { 0, EV_FORK, 0, 0, 100 + p, 1 }));
  for (guint c = 0; c < N_SHORT; c++)
    {
      child_start[c] = g_rand_int_range (r, 1, 1900000) * G_GINT64_CONSTANT (10000);
      child_life[c] = g_rand_int_range (r, 1, 500) * G_GINT64_CONSTANT (100000);
      g_array_append_val (evs, ((Ev) { child_start[c], EV_FORK, 0, 0, 1000 + c, 100 + c % N_LONG }));
      g_array_append_val (evs, ((Ev) { child_start[c] + child_life[c], EV_EXIT, 0, 0, 1000 + c, 0 }));
    }
  /* a third of the requests from short-lived children, the rest from long-lived processes of
   * very different sizes (so that some fold into "others" in one range and not another) */
  for (; i < n / 3; i++)
    {
      guint c = g_rand_int_range (r, 0, N_SHORT);
      add_request (r, evs, &lives[i], i, 1000 + c,
                   child_start[c] + (gint64) (g_rand_double (r) * child_life[c] * 0.8));
    }
  for (; i < n; i++)
    {
      guint p = (guint) (N_LONG * pow (g_rand_double (r), 2.5));
      add_request (r, evs, &lives[i], i, 100 + MIN (p, N_LONG - 1), g_rand_int_range (r, 0, span / 10000) * 10000);
    }
  g_array_sort (evs, ev_cmp);
  for (guint e = 0; e < evs->len; e++)
    {
      const Ev *ev = &g_array_index (evs, Ev, e);
      IochartBlockEvent be = IOCHART_BLOCK_EVENT_INIT;
      const Life *l;

      if (ev->kind == EV_FORK)
        {
          _iochart_builder_fork (b, ev->ts, ev->parent, ev->pid, names[ev->pid % G_N_ELEMENTS (names)]);
          continue;
        }
      if (ev->kind == EV_EXIT)
        {
          _iochart_builder_exit (b, ev->ts, ev->pid);
          continue;
        }
      l = &lives[ev->rq];
      be.ts_ns = ev->ts;
      be.dev = l->dev;
      be.sector = l->sector;
      be.nr_sector = l->nr;
      be.op = l->op;
      be.pid = l->pid;
      be.comm = names[l->pid % G_N_ELEMENTS (names)];
      be.comm_len = strlen (be.comm);
      be.ioprio = ev->action == IOCHART_BLOCK_QUEUE ? -1 : l->ioprio;
      _iochart_builder_block (b, ev->action, &be);
    }
  return _iochart_builder_finish (b);
}

static void
assert_same_lanes (IochartLanes *got, IochartLanes *want, IochartCapture *c)
{
  g_assert_cmpuint (iochart_lanes_get_n_lanes (got), ==, iochart_lanes_get_n_lanes (want));
  g_assert_cmpint (iochart_lanes_get_group_by (got), ==, iochart_lanes_get_group_by (want));
  for (guint i = 0; i < iochart_lanes_get_n_lanes (want); i++)
    {
      const IochartLane *a = iochart_lanes_get_lane (got, i), *b = iochart_lanes_get_lane (want, i);

      g_assert_cmpstr (a->label, ==, b->label);
      g_assert_cmpuint (a->head, ==, b->head);
      g_assert_cmpint (a->others, ==, b->others);
      g_assert_cmpint (a->klass, ==, b->klass);
      g_assert_cmpuint (a->class_mask, ==, b->class_mask);
      g_assert_cmpuint (a->n_processes, ==, b->n_processes);
      g_assert_cmpuint (a->n_requests, ==, b->n_requests);
      g_assert_cmpuint (a->bytes, ==, b->bytes);
      g_assert_cmpint (a->first_io_ns, ==, b->first_io_ns);
      g_assert_cmpint (a->last_io_ns, ==, b->last_io_ns);
      g_assert_cmpint (a->start_ns, ==, b->start_ns);
      g_assert_cmpint (a->exit_ns, ==, b->exit_ns);
      g_assert_cmpint (a->outstanding_ns, ==, b->outstanding_ns);
      g_assert_cmpuint (a->expanded_from, ==, b->expanded_from);
    }
  for (guint p = 0; p < iochart_capture_get_n_processes (c); p++)
    g_assert_cmpint (iochart_lanes_lane_of_process (got, p), ==, iochart_lanes_lane_of_process (want, p));
}

/* The lanes with the index equal those walking every request; returns how many lanes folded. */
static guint
check_lanes (IochartCapture *c, const IochartLaneIndex *index, const IochartLanesOptions *base, gint64 from,
             gint64 to)
{
  IochartLanesOptions lo = *base;
  g_autoptr(IochartLanes) walk = NULL, fast = NULL;
  guint n;

  lo.device = iochart_lane_index_get_device (index);
  lo.from_ns = from;
  lo.to_ns = to;
  walk = iochart_lanes_new (c, &lo);
  lo.index = index;
  fast = iochart_lanes_new (c, &lo);
  assert_same_lanes (fast, walk, c);
  n = iochart_lanes_get_n_lanes (walk);
  return n > 0 && iochart_lanes_get_lane (walk, n - 1)->others;
}

static void
check_counts (IochartCapture *c, const IochartLaneIndex *index, gint64 from, gint64 to)
{
  IochartCounts want, got;

  iochart_counts_compute (c, iochart_lane_index_get_device (index), from, to, &want);
  iochart_lane_index_counts (index, from, to, &got);
  g_assert_cmpmem (&got, sizeof got, &want, sizeof want);
}

static guint
check_range (IochartCapture *c, const IochartLaneIndex *index, gint64 from, gint64 to, guint variant)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  static const gint32 pids[] = { 101, 1003 };
  const char * const comms[] = { "tar", NULL };
  guint32 expand = 0;
  guint folded;

  check_counts (c, index, from, to);
  lo.top_n = 4;
  folded = check_lanes (c, index, &lo, from, to);
  switch (variant % 5)
    {
    case 0: lo.top_n = 0; break;
    case 1: lo.order = IOCHART_LANE_ORDER_BYTES; lo.top_n = 12; break;
    case 2: lo.pids = pids; lo.n_pids = G_N_ELEMENTS (pids); lo.comms = comms; lo.top_n = 2; break;
    case 3: lo.group_by = IOCHART_GROUP_CLASS; break;   /* another grouping: walked */
    default:
      /* an expanded lane: walked too */
      lo.expand = &expand;
      lo.n_expand = 1;
      break;
    }
  check_lanes (c, index, &lo, from, to);
  return folded;
}

static void
check_capture (IochartCapture *c, guint32 seed, guint n_ranges)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (seed);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint folded = 0;

  for (guint device = 0; device < iochart_capture_get_n_devices (c); device++)
    {
      g_autoptr(IochartLaneIndex) index = iochart_lane_index_new (c, device);

      check_range (c, index, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, 0);
      check_range (c, index, start, end, 1);
      check_range (c, index, IOCHART_TIME_UNKNOWN, start + (end - start) / 3, 2);
      check_range (c, index, start + (end - start) / 3, IOCHART_TIME_UNKNOWN, 3);
      check_range (c, index, start - 1000, start - 1, 4);
      for (guint t = 0; t < n_ranges; t++)
        {
          gint64 span = (gint64) exp (g_rand_double_range (r, log (10), log ((double) MAX (end - start, 20))));
          gint64 from = start + (gint64) (g_rand_double (r) * (end - start));

          folded += check_range (c, index, from, from + span, t);
        }
    }
  g_test_message ("%u of the random ranges folded lanes into \"others\"", folded);
}

/* 240 random ranges of each device of each of three captures. */
static void
test_random_ranges (void)
{
  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(IochartCapture) c = tree_capture (seed, 6000);
      IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
      g_autoptr(IochartLanes) lanes = NULL;

      /* the capture is what the test means: a tree, short-lived processes folded, others */
      lo.top_n = 4;
      lanes = iochart_lanes_new (c, &lo);
      g_assert_cmpint (iochart_lanes_get_group_by (lanes), ==, IOCHART_GROUP_TREE);
      g_assert_true (iochart_lanes_get_lane (lanes, iochart_lanes_get_n_lanes (lanes) - 1)->others);
      check_capture (c, seed, 240);
    }
}

/* The samples of every kind: real trees, names, classes. */
static void
test_samples (void)
{
  static const char * const samples[] = { "ionice-bfq.dat", "ionice-mq-deadline.dat", "sim-none-idle-vs-normal.dat",
                                          "blk-ionice-loop.txt", "ftrace-ionice-loop.trace",
                                          "hdd-blktrace-5s.blkparse.txt" };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "samples", samples[i], NULL);
      const char *paths[] = { path, NULL };
      IochartLoadOptions lo = { 0 };
      g_autoptr(GError) error = NULL;
      g_autoptr(IochartCapture) c = iochart_load (paths, &lo, &error);

      g_assert_no_error (error);
      check_capture (c, i, 60);
    }
}

/* What the index costs a request: reported, and bounded. */
static void
test_size (void)
{
  g_autoptr(IochartCapture) c = tree_capture (5, 20000);
  g_autoptr(IochartLaneIndex) index = iochart_lane_index_new (c, 0);
  double per = (double) iochart_lane_index_get_size (index) / iochart_lane_index_get_n_requests (index);

  g_test_message ("%.1f bytes a request", per);
  g_assert_cmpfloat (per, <, 100);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lane-index/random-ranges", test_random_ranges);
  g_test_add_func ("/lane-index/samples", test_samples);
  g_test_add_func ("/lane-index/size", test_size);
  return g_test_run ();
}
