/* Unit tests of the bin index: bins answered from it equal the walk over every request, for
 * random ranges and widths over captures with short, long (over 4.3 s), instant, unfinished,
 * flush and unqueued requests on two devices. */
#include <math.h>
#include <string.h>
#include "synthetic-requests.h"
#include "analysis/iochart-bin-index-private.h"
#include "analysis/iochart-bins.h"
#include "analysis/iochart-bins-private.h"
#include "analysis/iochart-lane-index-private.h"
#include "analysis/iochart-steal-private.h"
#include "analysis/iochart-summary.h"

static const char *
reader_writer (gint32 pid)
{
  return pid % 3 ? "reader" : "writer";
}

static IochartCapture *
random_capture (guint32 seed, guint n)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (seed);
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("random");
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autofree Life *lives = g_new0 (Life, n);
  static const IochartOp ops[] = { IOCHART_OP_READ, IOCHART_OP_READ, IOCHART_OP_WRITE, IOCHART_OP_DISCARD,
                                   IOCHART_OP_FLUSH };

  for (guint i = 0; i < n; i++)
    {
      Life *l = &lives[i];
      gint64 t = g_rand_int_range (r, 0, 2000000) * G_GINT64_CONSTANT (10000);   /* 20 s */
      gboolean queued = g_rand_double (r) < 0.9, done = g_rand_double (r) < 0.97;
      guint klass = g_rand_int_range (r, 0, 4);

      l->dev = IOCHART_DEV_MAKE (8, g_rand_double (r) < 0.8 ? 0 : 16);
      l->sector = (guint64) i * 4096 + (g_rand_double (r) < 0.01 ? G_GUINT64_CONSTANT (1) << 36 : 0);
      l->op = ops[g_rand_int_range (r, 0, G_N_ELEMENTS (ops))];
      l->nr = l->op == IOCHART_OP_FLUSH ? 0 : 8 * g_rand_int_range (r, 1, 64);
      l->pid = 100 + g_rand_int_range (r, 0, 40);
      l->ioprio = klass == 0 ? -1 : (gint32) IOCHART_IOPRIO_MAKE (klass, 4);
      if (queued)
        g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_QUEUE, i }));
      t += random_span (r, 0.03) / 8;
      g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_INSERT, i }));
      t += random_span (r, 0.03) / 2;
      g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_ISSUE, i }));
      if (done)
        g_array_append_val (evs, ((Ev) { t + random_span (r, 0.03), IOCHART_BLOCK_COMPLETE, i }));
    }
  feed_events (b, evs, lives, reader_writer);
  return _iochart_builder_finish (b);
}

/* Spread sums agree up to rounding: the index subtracts running sums of the whole device. */
static void
assert_near (const double *got, const double *want, guint n, double scale)
{
  for (guint i = 0; i < n; i++)
    if (fabs (got[i] - want[i]) > 1e-9 * scale + 1e-6 * fabs (want[i]) + 1e-6)
      g_error ("column %u: index %.9g, walk %.9g", i, got[i], want[i]);
}

static void
assert_same_bins (const IochartBins *got, const IochartBins *want, double scale_bytes, double scale_ns)
{
  guint n = want->n_columns;

  g_assert_cmpuint (got->n_columns, ==, n);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      assert_near (got->bytes[k][0], want->bytes[k][0], n, scale_bytes);
      assert_near (got->bytes[k][1], want->bytes[k][1], n, scale_bytes);
      assert_near (got->inflight_ns[k], want->inflight_ns[k], n, scale_ns);
      for (guint i = 0; i < n; i++)
        g_assert_cmpfloat (got->completions[k][i], ==, want->completions[k][i]);
      g_assert_cmpmem (got->sectors[k], (gsize) n * want->sector_rows * 4,
                       want->sectors[k], (gsize) n * want->sector_rows * 4);
    }
  for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
    g_assert_cmpmem (got->latency[g], (gsize) n * IOCHART_LAT_BUCKETS * 4,
                     want->latency[g], (gsize) n * IOCHART_LAT_BUCKETS * 4);
  g_assert_cmpuint (got->min_sector, ==, want->min_sector);
  g_assert_cmpuint (got->max_sector, ==, want->max_sector);
  g_assert_cmpint (got->sector_trimmed, ==, want->sector_trimmed);
  g_assert_cmpuint (got->n_lanes, ==, want->n_lanes);
  for (guint l = 0; l < want->n_lanes; l++)
    {
      assert_near (got->lane_service_ns[l], want->lane_service_ns[l], n, scale_ns);
      assert_near (got->lane_wait_ns[l], want->lane_wait_ns[l], n, scale_ns);
      g_assert_cmpmem (got->lane_classes[l], n, want->lane_classes[l], n);
    }
}

/* How check_range groups its lanes, how many it keeps (0: every one), which it expands. */
static IochartGroupBy check_group = IOCHART_GROUP_TREE;
static guint check_top_n = 12;
static const guint32 *check_expand;
static guint check_n_expand;

static void
check_range (IochartCapture *c, const IochartBinIndex *index, int device, gint64 from, gint64 to, guint width,
             IochartLatencyKind kind)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) lanes = NULL;
  g_autoptr(IochartBins) want = NULL, got = NULL, whole = NULL;
  double bytes = 0, flight = 0;

  lo.device = device;
  lo.from_ns = from;
  lo.to_ns = to;
  lo.group_by = check_group;
  lo.top_n = check_top_n;
  lo.expand = check_expand;
  lo.n_expand = check_n_expand;
  lanes = iochart_lanes_new (c, &lo);
  want = iochart_bins_new_full (c, device, from, to, width, 37, lanes, kind);
  got = iochart_bins_new_indexed (index, NULL, from, to, width, 37, lanes, kind);
  /* the scale of rounding: the device's running sums over the whole capture */
  whole = iochart_bins_new (c, device, iochart_capture_get_start_ns (c) - 1, iochart_capture_get_end_ns (c) + 1,
                            1, 1, NULL);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      bytes += whole->bytes[k][0][0] + whole->bytes[k][1][0];
      flight += whole->inflight_ns[k][0];
    }
  assert_same_bins (got, want, bytes, flight);
}

/* check_range() with lanes grouped by class, none folded: a few strips of many times each. */
static void
check_range_by_class (IochartCapture *c, const IochartBinIndex *index, gint64 from, gint64 to, guint width)
{
  IochartGroupBy group = check_group;
  guint top_n = check_top_n;

  check_group = IOCHART_GROUP_CLASS;
  check_top_n = 0;
  check_range (c, index, 0, from, to, width, IOCHART_LATENCY_Q2C);
  check_group = group;
  check_top_n = top_n;
}

static void
test_random_ranges (void)
{
  for (guint32 seed = 1; seed <= 2; seed++)
    {
      g_autoptr(IochartCapture) c = random_capture (seed, 3000);
      g_autoptr(GRand) r = g_rand_new_with_seed (seed * 7);
      gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);

      g_assert_cmpuint (iochart_capture_get_n_devices (c), ==, 2);
      for (int device = 0; device < 2; device++)
        for (IochartLatencyKind kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
          {
            g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, device, kind);

            g_assert_cmpuint (iochart_bin_index_get_n_requests (index), >, 100);
            g_assert_cmpint (iochart_bin_index_has_latency (index, kind), ==,
                             kind == IOCHART_LATENCY_Q2C || kind == IOCHART_LATENCY_D2C);
            check_range (c, index, device, start, end, 1126, kind);
            /* few columns: the lanes' streams are searched per column rather than passed over */
            check_range (c, index, device, start, end, 3, kind);
            check_range (c, index, device, start + (end - start) / 3, end - (end - start) / 5, 2, kind);
            for (guint t = 0; t < 25; t++)
              {
                gint64 span = (gint64) exp (g_rand_double_range (r, log (10), log ((double) (end - start) * 1.2)));
                gint64 from = start - (end - start) / 20 + (gint64) (g_rand_double (r) * (end - start));
                guint width = g_rand_int_range (r, 1, 2000);

                check_range (c, index, device, from, from + span, width, kind);
              }
          }
    }
}

/* Completions per column are counted directly when a column holds few of them and taken as the
 * difference of stored prefixes (every 512 completions, from the nearer one) when it holds many:
 * widths from one column of 10,000 completions to columns of a few, and ranges that mix both
 * in one chart, count what the walk counts. */
static void
test_completion_blocks (void)
{
  g_autoptr(IochartCapture) c = random_capture (17, 50000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (17);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  static const guint widths[] = { 1, 3, 7, 15, 20, 30, 35, 40, 60, 150, 500, 1300 };

  g_assert_cmpuint (iochart_bin_index_get_n_requests (index), >, 9000);
  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    check_range (c, index, 0, start, end, widths[i], IOCHART_LATENCY_Q2C);
  for (guint t = 0; t < 20; t++)
    {
      /* a few to a few thousand completions a column */
      gint64 span = (gint64) ((end - start) * g_rand_double_range (r, 0.001, 1.0));
      gint64 from = start + (gint64) (g_rand_double (r) * (end - start - span));

      check_range (c, index, 0, from, from + span, g_rand_int_range (r, 1, 400), IOCHART_LATENCY_Q2C);
    }
}

/* The sector band's 1% cut of the sample is its sorted place, found without sorting: on samples
 * with ties, runs and reversed orders it is what a sort gives. */
static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static void
test_sector_band_select (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (23);

  for (guint t = 0; t < 200; t++)
    {
      guint n = t < 10 ? 100 + t : (guint) g_rand_int_range (r, 100, 20000);
      guint shape = t % 5;
      g_autoptr(GArray) sample = g_array_new (FALSE, FALSE, sizeof (IochartSectorSpan));
      g_autofree guint64 *starts = g_new (guint64, n), *ends = g_new (guint64, n);
      g_autoptr(IochartBins) bins = _iochart_bins_new_empty (0, 1000, 10, 10, IOCHART_LATENCY_Q2C);
      guint64 min = G_MAXUINT64, max = 0, lo, hi;
      guint cut = MAX (n / 100, 1);

      for (guint i = 0; i < n; i++)
        {
          IochartSectorSpan span;

          /* random, few distinct values, ascending, descending, all equal but the outliers */
          span.start = shape == 0 ? (guint64) g_rand_int (r) * 8
                       : shape == 1 ? (guint64) g_rand_int_range (r, 0, 4) * 1000
                       : shape == 2 ? (guint64) i * 8 : shape == 3 ? (guint64) (n - i) * 8
                       : i % 97 == 0 ? (guint64) g_rand_int (r) : 4096;
          span.end = span.start + (shape == 1 ? 8 : (guint64) g_rand_int_range (r, 1, 2048));
          g_array_append_val (sample, span);
          starts[i] = span.start;
          ends[i] = span.end;
          min = MIN (min, span.start);
          max = MAX (max, span.end);
        }
      qsort (starts, n, sizeof (guint64), cmp_u64);
      qsort (ends, n, sizeof (guint64), cmp_u64);
      lo = starts[cut];
      hi = ends[n - 1 - cut];
      /* an outlier far out, so that the band is trimmed when the cut leaves room */
      max = MAX (max, G_GUINT64_CONSTANT (1) << 38);
      _iochart_bins_set_band (bins, min, max, n, sample);
      if (hi > lo && (double) (hi - lo) * 2 < (double) (max - min))
        {
          g_assert_true (bins->sector_trimmed);
          g_assert_cmpuint (bins->max_sector, ==, hi);
          g_assert_cmpuint (bins->min_sector, ==, lo < (hi - lo) / 4 ? 0 : lo);
        }
      else
        g_assert_false (bins->sector_trimmed);
    }
}

/* Maps of many rows (over 256, over the index's 4096 row buckets, over the rows its bucket table
 * holds, which it leaves to the walk) and of one: the index puts each request in the walk's row,
 * and zeroes the cells it counts in (meson's MALLOC_PERTURB_ leaves them dirty otherwise). */
static void
test_sector_rows (void)
{
  g_autoptr(IochartCapture) c = random_capture (29, 20000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  static const struct { guint rows, columns; } maps[] = {
    { 1, 300 }, { 2, 300 }, { 110, 300 }, { 300, 300 }, { 1000, 300 }, { 5000, 40 }, { 70000, 3 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (maps); i++)
    for (guint part = 1; part <= 4; part *= 2)
      {
        gint64 to = start + (end - start) / part;
        gsize bytes = (gsize) maps[i].columns * maps[i].rows * 4;
        g_autoptr(IochartBins) want = iochart_bins_new_full (c, 0, start, to, maps[i].columns, maps[i].rows, NULL,
                                                             IOCHART_LATENCY_Q2C);
        g_autoptr(IochartBins) got = iochart_bins_new_indexed (index, NULL, start, to, maps[i].columns, maps[i].rows,
                                                               NULL, IOCHART_LATENCY_Q2C);

        g_assert_cmpuint (got->min_sector, ==, want->min_sector);
        g_assert_cmpuint (got->max_sector, ==, want->max_sector);
        for (guint k = 0; k < IOCHART_N_CLASSES; k++)
          g_assert_cmpmem (got->sectors[k], bytes, want->sectors[k], bytes);
      }
}

/* The index counts the map's cells a block of 32 columns at a time (every level's requests in them
 * before the next block's): widths of under one block, one, one and a bit, and many with a part
 * block last, all counts (1 a request) and sampled ones (2^level), give the walk's cells. */
static void
test_sector_column_blocks (void)
{
  g_autoptr(IochartCapture) c = random_capture (31, 30000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  static const guint widths[] = { 1, 31, 32, 33, 64, 95, 1400 };
  static const guint cells[] = { 0, 500 };
  guint sampled = 0;

  for (guint s = 0; s < G_N_ELEMENTS (cells); s++)
    {
      _iochart_bins_set_sector_cells (cells[s]);
      for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
        for (guint part = 1; part <= 3; part++)
          {
            gint64 from = start + (end - start) / 7 * (part - 1), to = end - (end - start) / 5 * (part - 1);
            guint n = widths[i];
            g_autoptr(IochartBins) want = iochart_bins_new_full (c, 0, from, to, n, 110, NULL, IOCHART_LATENCY_Q2C);
            g_autoptr(IochartBins) got = iochart_bins_new_indexed (index, NULL, from, to, n, 110, NULL,
                                                                   IOCHART_LATENCY_Q2C);

            g_assert_cmpuint (got->sector_level, ==, want->sector_level);
            sampled += want->sector_level > 0;
            for (guint k = 0; k < IOCHART_N_CLASSES; k++)
              g_assert_cmpmem (got->sectors[k], (gsize) n * 110 * 4, want->sectors[k], (gsize) n * 110 * 4);
          }
    }
  _iochart_bins_set_sector_cells (0);
  g_assert_cmpuint (sampled, >, 0);
}

/* Lanes of every grouping, with a process tree (forks) or without, and the tree's two biggest
 * lanes expanded: the strips still equal the walk's. */
static void
test_lane_groupings (void)
{
  static const IochartGroupBy groups[] = { IOCHART_GROUP_CLASS, IOCHART_GROUP_PID, IOCHART_GROUP_COMM,
                                           IOCHART_GROUP_PARENT, IOCHART_GROUP_TREE, IOCHART_GROUP_TREE };

  for (guint tree = 0; tree < 2; tree++)
    {
      g_autoptr(IochartCapture) c = tree ? tree_capture (4, 3000) : random_capture (4, 3000);
      g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
      g_autoptr(GRand) r = g_rand_new_with_seed (4);
      gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
      IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
      g_autoptr(IochartLanes) plain = NULL;
      guint32 expand[2];
      guint n_expand = 0;

      lo.device = 0;
      plain = iochart_lanes_new (c, &lo);
      g_assert_cmpint (iochart_lanes_get_group_by (plain), ==, tree ? IOCHART_GROUP_TREE : IOCHART_GROUP_COMM);
      for (guint l = 0; l < iochart_lanes_get_n_lanes (plain) && n_expand < 2; l++)
        if (!iochart_lanes_get_lane (plain, l)->others)
          expand[n_expand++] = iochart_lanes_get_lane (plain, l)->head;
      for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
        for (guint top = 0; top < 4; top++)
          {
            check_group = groups[g];
            check_top_n = top % 2 ? 3 : 0;
            /* the last: the tree's biggest lanes expanded into a lane per process */
            check_expand = g + 1 == G_N_ELEMENTS (groups) ? expand : NULL;
            check_n_expand = check_expand ? n_expand : 0;
            /* the biggest lane as the device's less the others, or every lane summed */
            _iochart_lane_index_set_rest_factor (top >= 2 ? 0 : G_MAXUINT);
            check_range (c, index, 0, start, end, 700, IOCHART_LATENCY_Q2C);
            for (guint t = 0; t < 6; t++)
              {
                gint64 span = (gint64) exp (g_rand_double_range (r, log (1000), log ((double) (end - start))));
                gint64 from = start + (gint64) (g_rand_double (r) * (end - start));

                check_range (c, index, 0, from, from + span, g_rand_int_range (r, 1, 1500), IOCHART_LATENCY_Q2C);
              }
          }
    }
  check_group = IOCHART_GROUP_TREE;
  check_top_n = 12;
  check_expand = NULL;
  check_n_expand = 0;
  _iochart_lane_index_set_rest_factor (2000);
}

/* Lanes of many requests each (grouped by class: a few strips of thousands of times), asked of
 * ranges whose ends and columns fall anywhere among the strips' search samples (every 64th
 * time): per column searches (few columns) and passes (many) give the walk's strips. */
static void
test_lane_samples (void)
{
  g_autoptr(IochartCapture) c = random_capture (37, 40000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (37);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);

  for (guint t = 0; t < 40; t++)
    {
      gint64 span = (gint64) exp (g_rand_double_range (r, log (1e6), log ((double) (end - start))));
      gint64 from = start + (gint64) (g_rand_double (r) * (end - start - span));

      check_range_by_class (c, index, from, from + span,
                            t % 2 ? g_rand_int_range (r, 1, 8) : g_rand_int_range (r, 8, 1500));
    }
}

static IochartCapture *burst_capture (guint32 seed, guint n);

/* Per column searches that start where the last column's stride would land: on bursts (columns of
 * many times next to columns of none, so that the guess falls short, right and past), tens to
 * hundreds of columns, the walk's strips. */
static void
test_lane_strides (void)
{
  g_autoptr(IochartCapture) c = burst_capture (45, 4000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (45);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);

  for (guint t = 0; t < 30; t++)
    {
      gint64 span = (gint64) ((end - start) * g_rand_double_range (r, 0.3, 1));
      gint64 from = start + (gint64) (g_rand_double (r) * (end - start - span));

      check_range_by_class (c, index, from, from + span, g_rand_int_range (r, 20, 300));
    }
}

/* Device 0's lanes of [from, to]: its top 3 and the rest. */
static IochartLanes *
top_lanes (IochartCapture *c, gint64 from, gint64 to)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;

  lo.device = 0;
  lo.from_ns = from;
  lo.to_ns = to;
  lo.top_n = 3;
  return iochart_lanes_new (c, &lo);
}

/* The strips and the lanes filled together (the device's time queued kept for the folded lane)
 * are the same doubles as filled apart, the folded lane taken as the device's less the others. */
static void
test_fill_with_lanes (void)
{
  g_autoptr(IochartCapture) c = random_capture (31, 6000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (31);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint with_lanes = 0;

  _iochart_lane_index_set_rest_factor (0);
  for (guint t = 0; t < 30; t++)
    {
      g_autoptr(IochartLanes) lanes = NULL;
      g_autoptr(IochartBins) apart = NULL, together = NULL;
      gint64 span = t == 0 ? end - start : (gint64) exp (g_rand_double_range (r, log (1000), log ((double) (end - start))));
      gint64 from = t == 0 ? start : start + (gint64) (g_rand_double (r) * (end - start));
      guint n = t == 0 ? 1 : g_rand_int_range (r, 1, 1500);

      lanes = top_lanes (c, from, from + span);
      /* filled together (as the bins from the index are), then the same bins cleared and filled apart */
      together = iochart_bins_new_indexed (index, NULL, from, from + span, n, 7, lanes, IOCHART_LATENCY_Q2C);
      apart = iochart_bins_new_indexed (index, NULL, from, from + span, n, 7, lanes, IOCHART_LATENCY_Q2C);
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          memset (apart->bytes[k][0], 0, n * 8);
          memset (apart->bytes[k][1], 0, n * 8);
          memset (apart->inflight_ns[k], 0, n * 8);
          memset (apart->completions[k], 0, n * 8);
        }
      for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
        memset (apart->latency[g], 0, (gsize) n * IOCHART_LAT_BUCKETS * 4);
      for (guint l = 0; l < apart->n_lanes; l++)
        {
          memset (apart->lane_wait_ns[l], 0, n * 8);
          memset (apart->lane_service_ns[l], 0, n * 8);
          memset (apart->lane_classes[l], 0, n);
        }
      iochart_bin_index_fill (index, apart);
      iochart_bin_index_fill_lanes (index, apart, lanes);
      g_assert_cmpuint (together->n_lanes, ==, apart->n_lanes);
      with_lanes += apart->n_lanes > 0;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          g_assert_cmpmem (together->bytes[k][0], n * 8, apart->bytes[k][0], n * 8);
          g_assert_cmpmem (together->bytes[k][1], n * 8, apart->bytes[k][1], n * 8);
          g_assert_cmpmem (together->inflight_ns[k], n * 8, apart->inflight_ns[k], n * 8);
          g_assert_cmpmem (together->completions[k], n * 8, apart->completions[k], n * 8);
        }
      for (guint l = 0; l < apart->n_lanes; l++)
        {
          g_assert_cmpmem (together->lane_wait_ns[l], n * 8, apart->lane_wait_ns[l], n * 8);
          g_assert_cmpmem (together->lane_service_ns[l], n * 8, apart->lane_service_ns[l], n * 8);
          g_assert_cmpmem (together->lane_classes[l], n, apart->lane_classes[l], n);
        }
    }
  g_assert_cmpuint (with_lanes, >, 20);
  _iochart_lane_index_set_rest_factor (2000);
}

/* The folded lane's device counts taken from what the frame's spread and completions found at
 * the same column edges equal the counts searched there (asserted inside at every frame), over
 * ranges and widths whose edges fall anywhere (whole, odd and one-column widths), and most of the
 * counts are taken, not searched (both the starts' and the completions' edges). */
static void
test_kept_edges (void)
{
  g_autoptr(IochartCapture) c = random_capture (41, 20000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (41);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint kept = 0, edges = 0;

  _iochart_lane_index_set_rest_factor (0);
  _iochart_bin_index_set_check_edges (&kept);
  for (guint t = 0; t < 40; t++)
    {
      g_autoptr(IochartLanes) lanes = NULL;
      g_autoptr(IochartBins) bins = NULL;
      gint64 span = t == 0 ? end - start : (gint64) exp (g_rand_double_range (r, log (1000), log ((double) (end - start))));
      gint64 from = t == 0 ? start : start - 1000 + (gint64) (g_rand_double (r) * (end - start));
      guint n = t % 3 == 0 ? 1400 : g_rand_int_range (r, 1, 1500);

      lanes = top_lanes (c, from, from + span);
      bins = iochart_bins_new_indexed (index, NULL, from, from + span, n, 7, lanes, IOCHART_LATENCY_Q2C);
      edges += bins->n_lanes > 0 ? 2 * (n + 1) : 0;
    }
  _iochart_bin_index_set_check_edges (NULL);
  _iochart_lane_index_set_rest_factor (2000);
  g_assert_cmpuint (edges, >, 0);
  g_assert_cmpuint (kept, >=, edges / 10 * 9);
}

/* Over 8,192 requests in a range the sector band is decided on a sample: the index takes the
 * walk's (the requests' own levels choose it), scanned or from its stored positions. */
static void
test_sector_sample (void)
{
  g_autoptr(IochartCapture) c = random_capture (9, 60000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (9);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint trimmed = 0;

  for (guint t = 0; t < 12; t++)
    {
      /* the whole capture (level 3: stored), halves and quarters (levels 1-2: scanned) */
      gint64 span = t == 0 ? end - start : (end - start) / (2 + t % 3);
      gint64 from = t == 0 ? start : start + (gint64) (g_rand_double (r) * (end - start - span));
      g_autoptr(IochartBins) want = iochart_bins_new_full (c, 0, from, from + span, 700, 37, NULL,
                                                           IOCHART_LATENCY_Q2C);
      g_autoptr(IochartBins) got = iochart_bins_new_indexed (index, NULL, from, from + span, 700, 37, NULL,
                                                             IOCHART_LATENCY_Q2C);

      g_assert_cmpuint (got->min_sector, ==, want->min_sector);
      g_assert_cmpuint (got->max_sector, ==, want->max_sector);
      g_assert_cmpint (got->sector_trimmed, ==, want->sector_trimmed);
      trimmed += want->sector_trimmed;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        g_assert_cmpmem (got->sectors[k], (gsize) 700 * 37 * 4, want->sectors[k], (gsize) 700 * 37 * 4);
    }
  /* 1% of the requests sit at 2^36: the band leaves them out */
  g_assert_cmpuint (trimmed, >=, 6);
}

/* Over a range of more requests than the cells count (made small here), the index counts the
 * cells' sample level, stored or scanned, as the walk does: the same cells, each sampled request
 * as 2^level of them, on random ranges at zooms that take every level from 0 to 6. */
static void
test_sector_cells (void)
{
  g_autoptr(IochartCapture) c = random_capture (13, 60000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (13);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint seen_level[8] = { 0 };

  _iochart_bins_set_sector_cells (200);
  for (guint t = 0; t < 60; t++)
    {
      gint64 span = (gint64) ((end - start) / exp2 (t % 8)), from = start;
      guint64 weight = 0, n = 0;

      if (t > 0)
        from += (gint64) (g_rand_double (r) * (end - start - span));
      {
        g_autoptr(IochartBins) want = iochart_bins_new_full (c, 0, from, from + span, 500, 41, NULL,
                                                             IOCHART_LATENCY_Q2C);
        g_autoptr(IochartBins) got = iochart_bins_new_indexed (index, NULL, from, from + span, 500, 41, NULL,
                                                               IOCHART_LATENCY_Q2C);

        g_assert_cmpuint (got->sector_level, ==, want->sector_level);
        g_assert_cmpuint (got->min_sector, ==, want->min_sector);
        g_assert_cmpuint (got->max_sector, ==, want->max_sector);
        seen_level[MIN (want->sector_level, 7)]++;
        for (guint k = 0; k < IOCHART_N_CLASSES; k++)
          {
            g_assert_cmpmem (got->sectors[k], (gsize) 500 * 41 * 4, want->sectors[k], (gsize) 500 * 41 * 4);
            for (gsize i = 0; i < (gsize) 500 * 41; i++)
              weight += want->sectors[k][i];
          }
        /* the sample stands for the requests of the range: about as many in all (a sample of a few
         * hundred: within half) */
        for (guint k = 0; k < IOCHART_N_CLASSES; k++)
          for (guint i = 0; i < 500; i++)
            n += (guint64) want->completions[k][i];
        if (want->sector_level > 0)
          g_assert_cmpfloat (fabs ((double) weight - n), <, 0.5 * n);
      }
    }
  _iochart_bins_set_sector_cells (0);
  /* every scanned level, and stored ones (from 3 on) */
  for (guint l = 0; l <= 6; l++)
    g_assert_cmpuint (seen_level[l], >, 0);
}

/* find() returns exactly the requests whose life meets the range, in capture order. */
static void
test_find (void)
{
  g_autoptr(IochartCapture) c = random_capture (11, 4000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (5);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);

  for (guint t = 0; t < 200; t++)
    {
      gint64 from = start + (gint64) (g_rand_double (r) * (end - start));
      gint64 to = from + (gint64) exp (g_rand_double_range (r, 0, log ((double) (end - start))));
      g_autoptr(GArray) found = iochart_bin_index_find (index, from, to);
      g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (guint32));

      for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
        {
          IochartRequest rq;
          gint64 s;

          iochart_capture_get_request (c, i, &rq);
          s = rq.queue_ns != IOCHART_TIME_UNKNOWN ? rq.queue_ns : rq.insert_ns != IOCHART_TIME_UNKNOWN ? rq.insert_ns
                                                                                                         : rq.issue_ns;
          if (rq.device != 0 || rq.complete_ns == IOCHART_TIME_UNKNOWN || rq.issue_ns == IOCHART_TIME_UNKNOWN ||
              rq.complete_ns < rq.issue_ns)
            continue;
          s = MIN (s, rq.issue_ns);
          if (s <= to && rq.complete_ns >= from)
            g_array_append_val (want, i);
        }
      g_assert_cmpmem (found->data, found->len * 4, want->data, want->len * 4);
    }
}

static void
assert_same_shares (GArray *got, GArray *want)
{
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    {
      const IochartStealShare *a = &g_array_index (got, IochartStealShare, i);
      const IochartStealShare *b = &g_array_index (want, IochartStealShare, i);

      /* F-encoded sums: an idle request issued after the range adds and takes its F back, in
       * the walk only, so its rounding may differ by a nanosecond */
      g_assert_cmpint (llabs (a->stolen_ns - b->stolen_ns), <=, 1);
      if (a->process != b->process)
        g_assert_cmpint (llabs (a->stolen_ns - b->stolen_ns), <=, 1);
    }
}

/* The steal of a range swept from the index's sorted events equals the walk over every request:
 * figures, columns, per-process shares and every episode with its idle and waiting processes;
 * stolen times within tol ns (from the running sums: differences of the device's integrals). */
static void
assert_same_steal (IochartSteal *got, IochartSteal *want, int device, guint n_columns, gint64 tol)
{
  const IochartStealDevice *a = iochart_steal_find_device (got, device), *b = iochart_steal_find_device (want, device);

  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_cmpint (llabs (a->stolen_ns - b->stolen_ns), <=, tol);
  g_assert_cmpint (a->foreground_active_ns, ==, b->foreground_active_ns);
  g_assert_cmpuint (a->n_episodes, ==, b->n_episodes);
  g_assert_cmpuint (a->idle_requests, ==, b->idle_requests);
  g_assert_cmpuint (a->unknown_requests, ==, b->unknown_requests);
  /* the columns are differences of the device's running integrals: the same up to rounding */
  if (n_columns > 0)
    {
      double span = (double) (iochart_capture_get_end_ns (iochart_steal_get_capture (want)) -
                              iochart_capture_get_start_ns (iochart_steal_get_capture (want)));

      assert_near (a->stolen_columns, b->stolen_columns, n_columns, span);
      assert_near (a->active_columns, b->active_columns, n_columns, span);
    }
  assert_same_shares (a->idle, b->idle);
  g_assert_cmpuint (iochart_steal_get_n_episodes (got), ==, iochart_steal_get_n_episodes (want));
  for (guint i = 0; i < iochart_steal_get_n_episodes (want); i++)
    {
      const IochartStealEpisode *x = iochart_steal_get_episode (got, i), *y = iochart_steal_get_episode (want, i);

      g_assert_cmpint (x->start_ns, ==, y->start_ns);
      g_assert_cmpint (x->end_ns, ==, y->end_ns);
      g_assert_cmpint (llabs (x->stolen_ns - y->stolen_ns), <=, tol);
      assert_same_shares (x->idle, y->idle);
      g_assert_cmpmem (x->waiting->data, x->waiting->len * 4, y->waiting->data, y->waiting->len * 4);
    }
}

/* The events read: the walk's and the index's, summed. */
static guint64 steal_read[2];

static void
check_steal (IochartCapture *c, const IochartBinIndex *index, int device, gint64 from, gint64 to, guint n_columns,
             gint64 tol)
{
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) walk = NULL, fast = NULL;

  so.device = device;
  so.from_ns = from;
  so.to_ns = to;
  so.n_columns = n_columns;
  walk = iochart_steal_new (c, &so);
  so.index = index;
  fast = iochart_steal_new (c, &so);
  assert_same_steal (fast, walk, device, n_columns, tol);
  steal_read[0] += _iochart_steal_get_n_read (walk);
  steal_read[1] += _iochart_steal_get_n_read (fast);
}

/* Random ranges and widths of a capture, each of its devices. */
static guint
steal_ranges_of (IochartCapture *c, guint32 seed, gint64 tol)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (seed);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint ranges = 0;

  for (int device = 0; device < (int) iochart_capture_get_n_devices (c); device++)
    {
      g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, device, IOCHART_LATENCY_Q2C);

      g_assert_nonnull (iochart_bin_index_get_steal_events (index));
      check_steal (c, index, device, start, end, 1126, tol);
      check_steal (c, index, device, start - 1000000000, end + 1000000000, 7, tol);
      check_steal (c, index, device, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, 0, tol);
      check_steal (c, index, device, IOCHART_TIME_UNKNOWN, start + (end - start) / 3, 0, tol);
      check_steal (c, index, device, start + (end - start) / 3, IOCHART_TIME_UNKNOWN, 0, tol);
      for (guint t = 0; t < 40; t++)
        {
          gint64 span = (gint64) exp (g_rand_double_range (r, log (10), log ((double) (end - start))));
          gint64 from = start - (end - start) / 20 + (gint64) (g_rand_double (r) * (end - start));

          check_steal (c, index, device, from, from + span, g_rand_int_range (r, 1, 2000), tol);
          ranges++;
        }
    }
  return ranges;
}

/* The same over seeds' random captures of n requests. */
static guint
steal_ranges (guint32 seed0, guint32 seed1, guint n, gint64 tol)
{
  guint ranges = 0;

  for (guint32 seed = seed0; seed <= seed1; seed++)
    {
      g_autoptr(IochartCapture) c = random_capture (seed, n);

      ranges += steal_ranges_of (c, seed, tol);
    }
  return ranges;
}

static const char *
burst_comm (gint32 pid)
{
  return pid >= 300 ? "idle-reader" : "reader";
}

/* Bursts every 5 ms: two foreground requests of 7 processes outstanding for 0.2-2.5 ms each
 * within 3 ms, and mostly an idle one of 3 processes in flight among them, so that an episode's
 * stolen time comes in stretches with gaps (every 37th pause ends the episode), and a foreground
 * process waits in some stretches and not in others. */
static IochartCapture *
burst_capture (guint32 seed, guint n)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (seed);
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("bursts");
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autofree Life *lives = g_new0 (Life, 3 * n);
  gint64 t0 = 0;

  for (guint j = 0; j < 3 * n; j++)
    {
      gboolean idle = j % 3 == 2;
      gint64 at = t0 + g_rand_int_range (r, 0, 3000) * G_GINT64_CONSTANT (1000);
      gint64 end = at + g_rand_int_range (r, idle ? 0 : 200, idle ? 1500 : 2500) * G_GINT64_CONSTANT (1000);

      lives[j] = (Life) { IOCHART_DEV_MAKE (8, 0), (guint64) j * 4096, 8, IOCHART_OP_READ,
                          idle ? 300 + g_rand_int_range (r, 0, 3) : 200 + g_rand_int_range (r, 0, 7),
                          IOCHART_IOPRIO_MAKE (idle ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE, idle ? 7 : 4) };
      if (!idle || g_rand_double (r) < 0.8)
        {
          g_array_append_val (evs, ((Ev) { at, IOCHART_BLOCK_INSERT, j }));
          g_array_append_val (evs, ((Ev) { at + (idle ? 0 : 50000), IOCHART_BLOCK_ISSUE, j }));
          g_array_append_val (evs, ((Ev) { MAX (end, at + (idle ? 0 : 50000)), IOCHART_BLOCK_COMPLETE, j }));
        }
      if (idle)
        t0 += (j / 3 % 37 == 36 ? 30 : 5) * G_GINT64_CONSTANT (1000000);
    }
  feed_events (b, evs, lives, burst_comm);
  return _iochart_builder_finish (b);
}

/* A column edge's integral that goes on from the last edge's walk (zoomed in, many edges share a
 * check's 64 events) gives the columns of a walk from the check at every edge, bit for bit. */
static void
test_steal_edge_resume (void)
{
  g_autoptr(IochartCapture) c = burst_capture (43, 3000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(GRand) r = g_rand_new_with_seed (43);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint stolen = 0;

  for (guint t = 0; t < 300; t++)
    {
      IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
      g_autoptr(IochartSteal) resumed = NULL, fresh = NULL;
      const IochartStealDevice *a, *b;
      gint64 span = (gint64) exp (g_rand_double_range (r, log (1e4), log ((double) (end - start))));

      so.device = 0;
      so.from_ns = start + (gint64) (g_rand_double (r) * (end - start - span));
      so.to_ns = so.from_ns + span;
      so.n_columns = g_rand_int_range (r, 1, 2000);
      so.index = index;
      resumed = iochart_steal_new (c, &so);
      g_assert_true (_iochart_steal_set_edge_resume (FALSE));
      fresh = iochart_steal_new (c, &so);
      g_assert_false (_iochart_steal_set_edge_resume (TRUE));
      a = iochart_steal_find_device (resumed, 0);
      b = iochart_steal_find_device (fresh, 0);
      g_assert_cmpmem (a->stolen_columns, so.n_columns * sizeof (double), b->stolen_columns,
                       so.n_columns * sizeof (double));
      g_assert_cmpmem (a->active_columns, so.n_columns * sizeof (double), b->active_columns,
                       so.n_columns * sizeof (double));
      for (guint i = 0; i < so.n_columns; i++)
        stolen += a->stolen_columns[i] > 0;
    }
  /* the columns compared are not all empty */
  g_assert_cmpuint (stolen, >, 1000);
}

/* The bins from the index keep sector cells for the classes the device has only (be and idle
 * here): the others read zero, one shared block, and every class's cells are the walk's. */
static void
test_sector_classes (void)
{
  g_autoptr(IochartCapture) c = burst_capture (44, 2000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);
  guint want_classes = 1u << IOCHART_CLASS_BE | 1u << IOCHART_CLASS_IDLE;

  g_assert_cmpuint (iochart_bin_index_get_sector_classes (index), ==, want_classes);
  for (guint t = 0; t < 4; t++)
    {
      gint64 from = start + (end - start) * t / 8, to = end - (end - start) * t / 8;
      g_autoptr(IochartBins) got = iochart_bins_new_indexed (index, NULL, from, to, 700, 37, NULL,
                                                            IOCHART_LATENCY_Q2C);
      g_autoptr(IochartBins) want = iochart_bins_new_full (c, 0, from, to, 700, 37, NULL, IOCHART_LATENCY_Q2C);
      guint64 counted = 0;

      g_assert_cmpuint (got->sector_classes, ==, want_classes);
      g_assert_cmpuint (want->sector_classes, ==, IOCHART_BINS_ALL_CLASSES);
      g_assert_true (got->sectors[IOCHART_CLASS_NONE] == got->sectors[IOCHART_CLASS_RT]);
      g_assert_true (got->sectors[IOCHART_CLASS_NONE] == got->sectors[IOCHART_CLASS_UNKNOWN]);
      g_assert_true (got->sectors[IOCHART_CLASS_BE] != got->sectors[IOCHART_CLASS_IDLE]);
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          g_assert_cmpmem (got->sectors[k], (gsize) 700 * 37 * 4, want->sectors[k], (gsize) 700 * 37 * 4);
          for (guint i = 0; i < 700 * 37; i++)
            counted += want->sectors[k][i];
        }
      g_assert_cmpuint (counted, >, 1000);
    }
}

/* Steal from the index's sorted events: random ranges and widths, both devices, gaps. */
static void
test_steal (void)
{
  g_test_message ("%u ranges", steal_ranges (30, 32, 3000, 0));
}

/* Latency buckets from their bounds equal the definition's log2: around every bound, at every
 * power of two and at random from 0 to past the last bucket. */
static void
test_latency_bucket (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (11);

  for (gint64 x = -3; x < 5000; x++)
    g_assert_cmpuint (iochart_bins_latency_bucket (x), ==, _iochart_bins_latency_bucket_log2 (x));
  for (guint k = 0; k < 62; k++)
    for (gint64 d = -2; d <= 2; d++)
      {
        gint64 x = (G_GINT64_CONSTANT (1) << k) + d;
        g_assert_cmpuint (iochart_bins_latency_bucket (x), ==, _iochart_bins_latency_bucket_log2 (x));
      }
  for (guint b = 1; b < IOCHART_LAT_BUCKETS; b++)
    {
      /* around the bound, 2^(10 + b / 4): the definition's bucket steps there */
      gint64 at = (gint64) exp2 (IOCHART_LAT_MIN_LOG2 + (double) b / IOCHART_LAT_SUB);

      g_assert_cmpuint (_iochart_bins_latency_bucket_log2 (at - 3), ==, b - 1);
      g_assert_cmpuint (_iochart_bins_latency_bucket_log2 (at + 3), ==, b);
      for (gint64 x = at - 3; x <= at + 3; x++)
        g_assert_cmpuint (iochart_bins_latency_bucket (x), ==, _iochart_bins_latency_bucket_log2 (x));
    }
  for (guint i = 0; i < 1000000; i++)
    {
      gint64 x = (gint64) exp (g_rand_double_range (r, 0, log (1e13)));
      g_assert_cmpuint (iochart_bins_latency_bucket (x), ==, _iochart_bins_latency_bucket_log2 (x));
    }
}

/* Requests every 10 us, each queued, issued 50 us and completed 200 us later, every third one
 * idle, with a pause now and then: the starts, issues and ends each come in time order, and
 * many times of one stream equal another's (as bench/'s synthetic captures). */
static IochartCapture *
steady_capture (guint n)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("steady");
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autofree Life *lives = g_new0 (Life, n);
  gint64 t = 0;

  for (guint j = 0; j < n; j++)
    {
      gboolean idle = j % 3 == 2;

      lives[j] = (Life) { IOCHART_DEV_MAKE (8, 0), (guint64) j * 4096, 8, IOCHART_OP_READ,
                          idle ? 300 + j % 2 : 200 + j % 7,
                          IOCHART_IOPRIO_MAKE (idle ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE, idle ? 7 : 4) };
      g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_INSERT, j }));
      g_array_append_val (evs, ((Ev) { t + 50000, IOCHART_BLOCK_ISSUE, j }));
      g_array_append_val (evs, ((Ev) { t + 200000, IOCHART_BLOCK_COMPLETE, j }));
      t += j % 97 == 96 ? 30000000 : 10000;
    }
  feed_events (b, evs, lives, burst_comm);
  return _iochart_builder_finish (b);
}

/* Streams in time order with many equal times across them (as bench/'s synthetic captures): the
 * same steal as the walk's over every range. */
static void
test_steal_streams (void)
{
  g_autoptr(IochartCapture) c = steady_capture (20000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) all = NULL;

  so.device = 0;
  so.index = index;
  all = iochart_steal_new (c, &so);
  g_assert_cmpuint (iochart_steal_get_n_episodes (all), >, 150);   /* one between pauses */
  g_test_message ("%u ranges", steal_ranges_of (c, 7, 0));
}

/* A range's steal from the running sums (here on every range; on its own above 2^15 events)
 * equals the walk: the same episodes, cut ones too, with the same idle and waiting processes,
 * stolen times within a nanosecond of rounding. It reads only the events between a cut
 * episode's edge and its stolen time: a tenth of the walk's here, none on the whole range. */
static void
test_steal_sums (void)
{
  guint old = _iochart_steal_set_fast_min (0), ranges;
  g_autoptr(IochartCapture) c = random_capture (40, 3000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) fast = NULL;

  so.device = 0;
  so.from_ns = iochart_capture_get_start_ns (c);
  so.to_ns = iochart_capture_get_end_ns (c);
  so.index = index;
  fast = iochart_steal_new (c, &so);
  g_assert_cmpuint (iochart_steal_get_n_episodes (fast), >, 10);
  g_assert_cmpuint (_iochart_steal_get_n_read (fast), ==, 0);

  memset (steal_read, 0, sizeof steal_read);
  /* random captures (sparse and dense: episodes of seconds), and bursts: episodes of stretches */
  ranges = steal_ranges (40, 41, 3000, 1) + steal_ranges (42, 42, 30000, 1);
  for (guint32 seed = 43; seed <= 45; seed++)
    {
      g_autoptr(IochartCapture) bursts = burst_capture (seed, 4000);

      ranges += steal_ranges_of (bursts, seed, 1);
    }
  g_test_message ("%u ranges: events read %" G_GUINT64_FORMAT " by the walk, %" G_GUINT64_FORMAT " from the sums",
                  ranges, steal_read[0], steal_read[1]);
  g_assert_cmpuint (steal_read[1] * 10, <, steal_read[0]);
  _iochart_steal_set_fast_min (old);
}

/* Lanes, idle steal and counts walking only find_all's requests: the same figures. */
static void
check_among (IochartCapture *c, const IochartBinIndex *index, int device, gint64 from, gint64 to)
{
  g_autoptr(GArray) among = iochart_bin_index_find_all (index, from, to);
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartLanes) l1 = NULL, l2 = NULL;
  g_autoptr(IochartSteal) s1 = NULL, s2 = NULL;
  const IochartStealDevice *d1, *d2;
  IochartCounts c1, c2;

  lo.device = so.device = device;
  lo.from_ns = so.from_ns = from;
  lo.to_ns = so.to_ns = to;
  lo.top_n = 5;
  so.n_columns = 97;
  l1 = iochart_lanes_new (c, &lo);
  s1 = iochart_steal_new (c, &so);
  lo.requests = so.requests = (const guint32 *) among->data;
  lo.n_requests = so.n_requests = among->len;
  l2 = iochart_lanes_new (c, &lo);
  s2 = iochart_steal_new (c, &so);

  g_assert_cmpuint (iochart_lanes_get_n_lanes (l2), ==, iochart_lanes_get_n_lanes (l1));
  for (guint i = 0; i < iochart_lanes_get_n_lanes (l1); i++)
    {
      const IochartLane *a = iochart_lanes_get_lane (l1, i), *b = iochart_lanes_get_lane (l2, i);
      g_assert_cmpstr (b->label, ==, a->label);
      g_assert_cmpuint (b->bytes, ==, a->bytes);
      g_assert_cmpuint (b->n_requests, ==, a->n_requests);
      g_assert_cmpint (b->outstanding_ns, ==, a->outstanding_ns);
      g_assert_cmpint (b->first_io_ns, ==, a->first_io_ns);
      g_assert_cmpint (b->last_io_ns, ==, a->last_io_ns);
    }
  d1 = iochart_steal_find_device (s1, device);
  d2 = iochart_steal_find_device (s2, device);
  g_assert_true ((d1 == NULL) == (d2 == NULL));
  if (d1)
    {
      g_assert_cmpint (d2->stolen_ns, ==, d1->stolen_ns);
      g_assert_cmpint (d2->foreground_active_ns, ==, d1->foreground_active_ns);
      g_assert_cmpuint (d2->n_episodes, ==, d1->n_episodes);
      g_assert_cmpuint (d2->idle_requests, ==, d1->idle_requests);
      g_assert_cmpuint (d2->unknown_requests, ==, d1->unknown_requests);
      g_assert_cmpuint (d2->idle->len, ==, d1->idle->len);
      g_assert_cmpmem (d2->stolen_columns, 97 * sizeof (double), d1->stolen_columns, 97 * sizeof (double));
    }
  g_assert_cmpuint (iochart_steal_get_n_episodes (s2), ==, iochart_steal_get_n_episodes (s1));
  for (guint i = 0; i < iochart_steal_get_n_episodes (s1); i++)
    {
      const IochartStealEpisode *a = iochart_steal_get_episode (s1, i), *b = iochart_steal_get_episode (s2, i);
      g_assert_cmpint (b->start_ns, ==, a->start_ns);
      g_assert_cmpint (b->end_ns, ==, a->end_ns);
      g_assert_cmpint (b->stolen_ns, ==, a->stolen_ns);
    }
  iochart_counts_compute (c, device, from, to, &c1);
  iochart_counts_compute_among (c, (const guint32 *) among->data, among->len, device, from, to, &c2);
  g_assert_cmpmem (c2.by_class, sizeof c2.by_class, c1.by_class, sizeof c1.by_class);
  g_assert_cmpmem (&c2.issued, sizeof c2.issued, &c1.issued, sizeof c1.issued);
}

static void
test_among (void)
{
  for (guint32 seed = 20; seed <= 22; seed++)
    {
      g_autoptr(IochartCapture) c = random_capture (seed, 3000);
      g_autoptr(GRand) r = g_rand_new_with_seed (seed);
      gint64 start = iochart_capture_get_start_ns (c), end = iochart_capture_get_end_ns (c);

      for (int device = 0; device < 2; device++)
        {
          g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, device, IOCHART_LATENCY_Q2C);

          check_among (c, index, device, start, end);
          if (device == 0)
            {
              /* the captures have idle steal to compare */
              g_autoptr(IochartSteal) st = iochart_steal_new (c, NULL);
              g_assert_cmpuint (iochart_steal_get_n_episodes (st), >, 10);
            }
          for (guint t = 0; t < 30; t++)
            {
              gint64 span = (gint64) exp (g_rand_double_range (r, log (10), log ((double) (end - start))));
              gint64 from = start + (gint64) (g_rand_double (r) * (end - start));

              check_among (c, index, device, from, from + span);
            }
        }
    }
}

/* The index stays modest: its bins (about 36 bytes a request), the steal events (8 bytes
 * each, two or three a request, and the issue times of idle requests) and the sector map's
 * requests (about 17 bytes each); the lanes' strips are the lane index's. */
/* The lane index and the steal events the bin index builds from its own passes over the
 * requests equal those built alone: the same bytes, and the whole device's steal the same (the
 * last capture large enough for the steal events' thread). */
static void
test_shared_passes (void)
{
  for (int seed = 1; seed <= 3; seed++)
    {
      g_autoptr(IochartCapture) c = random_capture (seed, seed < 3 ? 5000 : 150000);
      g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
      g_autoptr(IochartLaneIndex) lanes = iochart_lane_index_new (c, 0);
      IochartStealEvents *events = iochart_steal_events_new (c, 0);
      IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
      g_autoptr(IochartSteal) walked = NULL, indexed = NULL;

      g_test_message ("%u requests indexed", iochart_bin_index_get_n_requests (index));
      g_assert_cmpuint (iochart_lane_index_get_size (iochart_bin_index_get_lane_index (index)), ==,
                        iochart_lane_index_get_size (lanes));
      g_assert_cmpuint (iochart_steal_events_get_size (iochart_bin_index_get_steal_events (index)), ==,
                        iochart_steal_events_get_size (events));
      so.device = 0;
      walked = iochart_steal_new (c, &so);
      so.index = index;
      indexed = iochart_steal_new (c, &so);
      g_assert_cmpint (iochart_steal_get_primary (indexed)->stolen_ns, ==, iochart_steal_get_primary (walked)->stolen_ns);
      g_assert_cmpint (iochart_steal_get_primary (indexed)->foreground_active_ns, ==,
                       iochart_steal_get_primary (walked)->foreground_active_ns);
      g_assert_cmpuint (iochart_steal_get_n_episodes (indexed), ==, iochart_steal_get_n_episodes (walked));
      iochart_steal_events_free (events);
    }
}

static void
test_size (void)
{
  g_autoptr(IochartCapture) c = random_capture (3, 20000);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  double per = (double) iochart_bin_index_get_size (index) / iochart_bin_index_get_n_requests (index);

  g_test_message ("%.1f bytes a request", per);
  /* 83.9 before the steal events' search samples (8 bytes every 256 events: 0.1 a request), 84.0
   * before their checks every 32 events, not 64 (48 bytes every 64 events: 1.7 a request) */
  g_assert_cmpfloat (per, <, 85.9);
}

static void
test_empty (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("empty");
  g_autoptr(IochartCapture) c = _iochart_builder_finish (b);
  g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  g_autoptr(IochartBins) bins = iochart_bins_new_indexed (index, NULL, 0, 1000, 10, 4, NULL, IOCHART_LATENCY_Q2C);
  g_autoptr(GArray) found = iochart_bin_index_find (index, 0, 1000);

  g_assert_cmpuint (iochart_bin_index_get_n_requests (index), ==, 0);
  g_assert_cmpuint (found->len, ==, 0);
  g_assert_cmpfloat (bins->inflight_ns[IOCHART_CLASS_BE][0], ==, 0);
}

/* The next column's guess, which the searches ask memory for early: as far on again, and none
 * (n) when it would not be ahead (a search started over, or no step) or lies past the end. */
static void
test_next_guess (void)
{
  g_assert_cmpuint (_iochart_next_guess (10, 30, 100), ==, 50);
  g_assert_cmpuint (_iochart_next_guess (10, 30, 50), ==, 50);
  g_assert_cmpuint (_iochart_next_guess (10, 30, 51), ==, 50);
  g_assert_cmpuint (_iochart_next_guess (30, 30, 100), ==, 100);
  g_assert_cmpuint (_iochart_next_guess (50, 30, 100), ==, 100);
  g_assert_cmpuint (_iochart_next_guess (0, G_MAXUINT - 1, G_MAXUINT), ==, G_MAXUINT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bin-index/random-ranges", test_random_ranges);
  g_test_add_func ("/bin-index/find", test_find);
  g_test_add_func ("/bin-index/sector-sample", test_sector_sample);
  g_test_add_func ("/bin-index/sector-cells", test_sector_cells);
  g_test_add_func ("/bin-index/completion-blocks", test_completion_blocks);
  g_test_add_func ("/bin-index/sector-band-select", test_sector_band_select);
  g_test_add_func ("/bin-index/sector-rows", test_sector_rows);
  g_test_add_func ("/bin-index/sector-column-blocks", test_sector_column_blocks);
  g_test_add_func ("/bin-index/fill-with-lanes", test_fill_with_lanes);
  g_test_add_func ("/bin-index/kept-edges", test_kept_edges);
  g_test_add_func ("/bin-index/lane-samples", test_lane_samples);
  g_test_add_func ("/bin-index/lane-strides", test_lane_strides);
  g_test_add_func ("/bin-index/lane-groupings", test_lane_groupings);
  g_test_add_func ("/bin-index/among", test_among);
  g_test_add_func ("/bin-index/steal", test_steal);
  g_test_add_func ("/bin-index/steal-streams", test_steal_streams);
  g_test_add_func ("/bin-index/latency-bucket", test_latency_bucket);
  g_test_add_func ("/bin-index/steal-sums", test_steal_sums);
  g_test_add_func ("/bin-index/steal-edge-resume", test_steal_edge_resume);
  g_test_add_func ("/bin-index/sector-classes", test_sector_classes);
  g_test_add_func ("/bin-index/shared-passes", test_shared_passes);
  g_test_add_func ("/bin-index/size", test_size);
  g_test_add_func ("/bin-index/empty", test_empty);
  g_test_add_func ("/bin-index/next-guess", test_next_guess);
  return g_test_run ();
}
