/* Unit tests of the latency percentiles: the radix sort and the walk of every grouping in sorted
 * order give what sorting each group's values and taking nearest ranks gives, on random values
 * and on inputs made to hurt (all equal, sorted, reversed, two values, negative and extreme
 * spans, empty groups, requests left out). */
#include <stdlib.h>
#include <string.h>
#include "analysis/iochart-latency-private.h"

static int
cmp_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The figures of one group the plain way: sort, then nearest rank. */
static IochartLatencyStats
reference (const gint64 *values, const gint32 *group, gsize n, gint32 k)
{
  g_autofree gint64 *v = g_new (gint64, MAX (n, 1));
  IochartLatencyStats st = { 0 };
  static const guint pcts[] = { 50, 95, 99 };
  gint64 *out[] = { &st.p50_ns, &st.p95_ns, &st.p99_ns };
  gsize m = 0;
  guint64 sum = 0;

  for (gsize i = 0; i < n; i++)
    if (values[i] != IOCHART_TIME_UNKNOWN && group[i] == k)
      {
        v[m++] = values[i];
        sum += (guint64) values[i];
      }
  st.n = m;
  if (m == 0)
    {
      st.min_ns = st.avg_ns = st.p50_ns = st.p95_ns = st.p99_ns = st.max_ns = IOCHART_TIME_UNKNOWN;
      return st;
    }
  qsort (v, m, sizeof *v, cmp_i64);
  st.min_ns = v[0];
  st.max_ns = v[m - 1];
  st.avg_ns = (gint64) sum / (gint64) m;
  for (guint p = 0; p < G_N_ELEMENTS (pcts); p++)
    *out[p] = v[(m * pcts[p] + 99) / 100 - 1];
  return st;
}

/* Runs the computation with n_groupings groupings of values and checks every group and kind. */
static void
check (const gint64 *values, gsize n, gint32 *const *group_of, const guint *n_groups, guint n_groupings)
{
  IochartLatencyGrouping g[8];

  g_assert_cmpuint (n_groupings, <=, G_N_ELEMENTS (g));
  for (guint j = 0; j < n_groupings; j++)
    {
      g[j].group = group_of[j];
      g[j].n_groups = n_groups[j];
      g[j].rows = g_new0 (IochartLatencyRow, MAX (n_groups[j], 1));
    }
  _iochart_latency_compute_values (values, n, g, n_groupings, IOCHART_LATENCY_D2C);
  for (guint j = 0; j < n_groupings; j++)
    {
      for (guint k = 0; k < n_groups[j]; k++)
        {
          IochartLatencyStats want = reference (values, group_of[j], n, k);
          const IochartLatencyStats *got = &g[j].rows[k].kind[IOCHART_LATENCY_D2C];

          g_assert_cmpuint (got->n, ==, want.n);
          g_assert_cmpint (got->min_ns, ==, want.min_ns);
          g_assert_cmpint (got->avg_ns, ==, want.avg_ns);
          g_assert_cmpint (got->p50_ns, ==, want.p50_ns);
          g_assert_cmpint (got->p95_ns, ==, want.p95_ns);
          g_assert_cmpint (got->p99_ns, ==, want.p99_ns);
          g_assert_cmpint (got->max_ns, ==, want.max_ns);
        }
      g_free (g[j].rows);
    }
}

/* values with three groupings: everything, one of `classes` groups (some left out), and
 * `many` small groups; in runs of one group, as a process's requests come, when runs. */
static void
check_three_runs (const gint64 *values, gsize n, guint classes, guint many, gboolean runs, GRand *r)
{
  g_autofree gint32 *all = g_new (gint32, MAX (n, 1));
  g_autofree gint32 *cls = g_new (gint32, MAX (n, 1));
  g_autofree gint32 *small = g_new (gint32, MAX (n, 1));
  gint32 *groups[] = { all, cls, small };
  guint n_groups[] = { 1, classes, many };

  for (gsize i = 0; i < n; i++)
    {
      all[i] = 0;
      cls[i] = g_rand_int_range (r, -1, classes);
      small[i] = g_rand_int_range (r, 0, many);
      if (runs && i > 0 && g_rand_int_range (r, 0, 8) != 0)
        {
          cls[i] = cls[i - 1];
          small[i] = small[i - 1];
        }
    }
  check (values, n, groups, n_groups, 3);
}

static void
check_three (const gint64 *values, gsize n, guint classes, guint many, GRand *r)
{
  check_three_runs (values, n, classes, many, FALSE, r);
}

static void
test_random (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (14);

  for (guint round = 0; round < 200; round++)
    {
      gsize n = g_rand_int_range (r, 0, round < 150 ? 300 : 20000);
      g_autofree gint64 *v = g_new (gint64, MAX (n, 1));
      /* spans from a few bits to 62, so that the sort takes from zero to five passes */
      guint bits = g_rand_int_range (r, 1, 63);

      for (gsize i = 0; i < n; i++)
        v[i] = g_rand_int_range (r, 0, 10) == 0 ? IOCHART_TIME_UNKNOWN
             : (gint64) (((guint64) g_rand_int (r) << 32 | g_rand_int (r)) >> (64 - bits));
      check_three (v, n, 5, 1 + round % 40, r);
      check_three_runs (v, n, 5, 1 + round % 40, TRUE, r);
    }
}

/* Thousands of groups in each grouping: the cells (requests with the same groups in every
 * grouping) outgrow their table many times over, and come both in runs and at random. */
static void
test_many_cells (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (21);
  const gsize n = 30000;
  g_autofree gint64 *v = g_new (gint64, n);

  for (gsize i = 0; i < n; i++)
    v[i] = g_rand_int_range (r, 0, 20) == 0 ? IOCHART_TIME_UNKNOWN : g_rand_int_range (r, 0, 1 << 30);
  check_three_runs (v, n, 3000, 5000, FALSE, r);
  check_three_runs (v, n, 3000, 5000, TRUE, r);
}

/* Six groupings of 4096 groups (13 bits each): more than a 64-bit key holds, so the cells are
 * found in two rounds, the second packing the first's cells with the groupings left. */
static void
test_wide_groupings (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (64);
  const gsize n = 3000;
  g_autofree gint64 *v = g_new (gint64, n);
  gint32 *groups[6];
  guint n_groups[6];

  for (guint j = 0; j < G_N_ELEMENTS (groups); j++)
    {
      groups[j] = g_new (gint32, n);
      n_groups[j] = 4096;
      for (gsize i = 0; i < n; i++)
        groups[j][i] = i > 0 && g_rand_int_range (r, 0, 3) == 0 ? groups[j][i - 1] : g_rand_int_range (r, -1, j < 3 ? 4096 : 4);
    }
  for (gsize i = 0; i < n; i++)
    v[i] = g_rand_int_range (r, 0, 20) == 0 ? IOCHART_TIME_UNKNOWN : g_rand_int_range (r, -1000, 1 << 30);
  check (v, n, groups, n_groups, G_N_ELEMENTS (groups));
  for (guint j = 0; j < G_N_ELEMENTS (groups); j++)
    g_free (groups[j]);
}

static void
test_adversarial (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (7);
  const gsize n = 5000;
  g_autofree gint64 *v = g_new (gint64, n);

  for (guint shape = 0; shape < 9; shape++)
    {
      for (gsize i = 0; i < n; i++)
        switch (shape)
          {
          case 0: v[i] = 1000; break;                                    /* all equal */
          case 1: v[i] = (gint64) i; break;                              /* sorted */
          case 2: v[i] = (gint64) (n - i); break;                        /* reversed */
          case 3: v[i] = i % 2 ? 0 : G_MAXINT64 - 1; break;              /* two values, widest span */
          case 4: v[i] = (gint64) i - 2500; break;                       /* negative spans */
          case 5: v[i] = i % 3 ? G_MININT64 + 1 + i : G_MAXINT64 - i; break; /* both extremes */
          case 6: v[i] = IOCHART_TIME_UNKNOWN; break;                    /* nothing counts */
          case 7: v[i] = i == n / 2 ? 5 : IOCHART_TIME_UNKNOWN; break;   /* one value */
          default: v[i] = (gint64) (i % 100) << 40; break;               /* few values, high bits */
          }
      check_three (v, n, 4, 37, r);
      check_three (v, 1, 4, 3, r);
      check_three (v, 0, 4, 3, r);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/latency/random", test_random);
  g_test_add_func ("/latency/adversarial", test_adversarial);
  g_test_add_func ("/latency/many-cells", test_many_cells);
  g_test_add_func ("/latency/wide-groupings", test_wide_groupings);
  return g_test_run ();
}
