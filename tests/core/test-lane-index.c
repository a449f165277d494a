/* Unit tests of the lane index: lanes (every figure, "others" included) and legend counts asked of
 * it equal the walk over every request, for random ranges over captures with process trees
 * (short-lived children folding into their parents), many lanes folding into "others", four
 * classes, short, long, instant, unfinished and never-issued requests on two devices; and over
 * the samples. */
#include <math.h>
#include <string.h>
#include "synthetic-requests.h"
#include "iochart-loader.h"
#include "analysis/iochart-lane-index-private.h"
#include "analysis/iochart-lanes.h"
#include "analysis/iochart-summary.h"

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

/* Every grouping, and the default one with its two biggest lanes expanded: the index serves
 * each (its runs built for the grouping on first use), and equals the walk. */
static void
check_groupings (IochartCapture *c, const IochartLaneIndex *index, gint64 from, gint64 to, guint variant)
{
  static const IochartGroupBy groupings[] = { IOCHART_GROUP_TREE, IOCHART_GROUP_PID, IOCHART_GROUP_COMM,
                                              IOCHART_GROUP_PARENT, IOCHART_GROUP_CLASS };
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) plain = NULL;
  guint32 expand[2];
  guint n_expand = 0;

  lo.device = iochart_lane_index_get_device (index);
  lo.top_n = variant % 2 ? 3 : 0;
  for (guint g = 0; g < G_N_ELEMENTS (groupings); g++)
    {
      lo.group_by = groupings[g];
      g_assert_true (iochart_lane_index_serves (index, c, &lo));
      check_lanes (c, index, &lo, from, to);
    }
  lo.group_by = IOCHART_GROUP_TREE;
  lo.from_ns = from;
  lo.to_ns = to;
  plain = iochart_lanes_new (c, &lo);
  for (guint l = 0; l < iochart_lanes_get_n_lanes (plain) && n_expand < 2; l++)
    if (!iochart_lanes_get_lane (plain, l)->others && iochart_lanes_get_lane (plain, l)->head != IOCHART_NO_PROCESS)
      expand[n_expand++] = iochart_lanes_get_lane (plain, l)->head;
  lo.expand = expand;
  lo.n_expand = MAX (n_expand, 1) - (variant % 3 == 0 && n_expand == 2);
  if (n_expand > 0)
    check_lanes (c, index, &lo, from, to);
}

static guint
check_range (IochartCapture *c, const IochartLaneIndex *index, gint64 from, gint64 to, guint variant)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  static const gint32 pids[] = { 101, 1003 };
  const char * const comms[] = { "tar", NULL };
  guint folded;

  check_counts (c, index, from, to);
  lo.top_n = 4;
  folded = check_lanes (c, index, &lo, from, to);
  switch (variant % 3)
    {
    case 0: lo.top_n = 0; break;
    case 1: lo.order = IOCHART_LANE_ORDER_BYTES; lo.top_n = 12; break;
    default: lo.pids = pids; lo.n_pids = G_N_ELEMENTS (pids); lo.comms = comms; lo.top_n = 2; break;
    }
  check_lanes (c, index, &lo, from, to);
  /* every grouping on a third of the ranges (ASan's build runs them too) */
  if (variant % 3 == 0)
    check_groupings (c, index, from, to, variant / 3);
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

/* Ranges bounded at request span ends (and a nanosecond either side) over a capture whose big
 * processes hold thousands of requests: the searches of a stream through its every 64th time
 * (a window of 63 between two of them) must land where the plain search over every time does,
 * ties and window edges included. */
static void
test_span_bounds (void)
{
  g_autoptr(IochartCapture) c = tree_capture (7, 30000);
  g_autoptr(GRand) r = g_rand_new_with_seed (7);
  guint n = iochart_capture_get_n_requests (c), done = 0;

  for (guint device = 0; device < iochart_capture_get_n_devices (c); device++)
    {
      g_autoptr(IochartLaneIndex) index = iochart_lane_index_new (c, device);

      for (guint t = 0; t < 200; t++)
        {
          IochartRequest x, y;
          gint64 xa, xb, ya, yb, from, to;

          iochart_capture_get_request (c, g_rand_int_range (r, 0, n), &x);
          iochart_capture_get_request (c, g_rand_int_range (r, 0, n), &y);
          if (!_iochart_lanes_request_span (&x, &xa, &xb) || !_iochart_lanes_request_span (&y, &ya, &yb))
            continue;
          from = (g_rand_boolean (r) ? xa : xb) + g_rand_int_range (r, -1, 2);
          to = (g_rand_boolean (r) ? ya : yb) + g_rand_int_range (r, -1, 2);
          check_range (c, index, MIN (from, to), MAX (from, to), t);
          done++;
        }
    }
  g_assert_cmpuint (done, >, 250);
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

/* Real captures of every kind (../shared, when there): the kernel's own request lives. */
static void
test_shared (void)
{
  static const char * const captures[] = { "hdd-bfq-idle-vs-normal-5s.dat", "blktrace-bfq-idle-vs-normal-3s",
                                           "hdd-blk-bfq-idle-vs-normal-5s.txt", "seed-bfq-idle-vs-normal.dat" };
  guint done = 0;

  for (guint i = 0; i < G_N_ELEMENTS (captures); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "..", "shared", "captures",
                                                captures[i], NULL);
      const char *paths[] = { path, NULL };
      IochartLoadOptions lo = { 0 };
      g_autoptr(GError) error = NULL;
      g_autoptr(IochartCapture) c = NULL;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      c = iochart_load (paths, &lo, &error);
      g_assert_no_error (error);
      check_capture (c, i, 6);
      done++;
    }
  if (done == 0)
    g_test_skip ("no ../shared captures");
}

/* What the index costs a request: reported, and bounded: 36 bytes for the spans by start and by
 * end (with the greatest end so far, and bytes and issues), 27 for the strips' lives, 14 for the
 * issue times, 24 a run of outstanding time (on this capture's sparse requests about one a
 * request, on a busy device far fewer: 77 bytes a request in all on bench/'s). */
static void
test_size (void)
{
  g_autoptr(IochartCapture) c = tree_capture (5, 20000);
  g_autoptr(IochartLaneIndex) index = iochart_lane_index_new (c, 0);
  double per = (double) iochart_lane_index_get_size (index) / iochart_lane_index_get_n_requests (index);

  g_test_message ("%.1f bytes a request", per);
  g_assert_cmpfloat (per, <, 130);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lane-index/random-ranges", test_random_ranges);
  g_test_add_func ("/lane-index/span-bounds", test_span_bounds);
  g_test_add_func ("/lane-index/samples", test_samples);
  g_test_add_func ("/lane-index/shared", test_shared);
  g_test_add_func ("/lane-index/size", test_size);
  return g_test_run ();
}
