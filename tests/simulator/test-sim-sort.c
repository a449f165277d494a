/* The simulator's stable sort by time (src/core/simulator/iochart-sim-sort.c) on every path it
 * takes (short, a few runs, nearly in order, radix), against qsort by (time, index). */
#include <stdlib.h>
#include "simulator/iochart-sim-private.h"

static int
by_ns_index (const void *a, const void *b)
{
  const IochartSimKeyed *x = a, *y = b;

  if (x->ns != y->ns)
    return x->ns < y->ns ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

typedef enum { RANDOM, FEW_VALUES, RUNS, NEARLY, HUGE_SPAN } Shape;

static void
check (Shape shape, guint n, guint32 seed)
{
  g_autofree IochartSimKeyed *v = g_new (IochartSimKeyed, MAX (n, 1));
  g_autofree IochartSimKeyed *want = g_new (IochartSimKeyed, MAX (n, 1));
  GRand *rng = g_rand_new_with_seed (seed);

  for (guint i = 0; i < n; i++)
    {
      gint64 t;

      switch (shape)
        {
        case RANDOM: t = g_rand_int_range (rng, 0, 1 << 30) * (gint64) 1000; break;
        case FEW_VALUES: t = g_rand_int_range (rng, 0, 5); break;
        case RUNS: t = (gint64) (i % (n / 7 + 1)) * 10 + g_rand_int_range (rng, 0, 3); break;
        case NEARLY: t = (gint64) i * 100 + g_rand_int_range (rng, 0, 250); break;
        default: t = g_rand_boolean (rng) ? G_MAXINT64 - g_rand_int (rng) : G_MININT64 + g_rand_int (rng); break;
        }
      v[i] = want[i] = (IochartSimKeyed) { t, i };
    }
  qsort (want, n, sizeof *want, by_ns_index);
  _iochart_sim_sort_keyed (v, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (v[i].ns, ==, want[i].ns);
      g_assert_cmpuint (v[i].index, ==, want[i].index);
    }
  g_rand_free (rng);
}

static void
test_shapes (void)
{
  static const guint sizes[] = { 0, 1, 2, 63, 64, 65, 1000, 70000 };

  for (guint s = RANDOM; s <= HUGE_SPAN; s++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      check (s, sizes[k], 7 + k);
}

/* A timeline entry of 24 bytes, sorted by the time in its middle. */
typedef struct {
  guint32 process;
  guint8  kind;
  gint64  ns;
  guint32 node;
} Entry;

static void
test_other_layout (void)
{
  Entry v[300];

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    v[i] = (Entry) { 1, 0, (gint64) ((i * 7919) % 100), i };
  _iochart_sim_sort_by_ns (v, G_N_ELEMENTS (v), sizeof (Entry), G_STRUCT_OFFSET (Entry, ns));
  for (guint i = 1; i < G_N_ELEMENTS (v); i++)
    g_assert_true (v[i - 1].ns < v[i].ns || (v[i - 1].ns == v[i].ns && v[i - 1].node < v[i].node));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim-sort/shapes", test_shapes);
  g_test_add_func ("/sim-sort/other-layout", test_other_layout);
  return g_test_run ();
}
