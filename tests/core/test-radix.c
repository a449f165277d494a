/* Unit tests of the indexes' record sort: the same order as a stable comparison sort (GLib's merge
 * sort, which the lane index and the steal events used), ties kept in their first order, for
 * sorted, nearly sorted, small and wide-ranging inputs. */
#include <string.h>
#include "analysis/iochart-radix-private.h"

/* A record shaped like the lane index's lives: the key not first, a tag to see ties' order. */
typedef struct {
  gint64  other;
  gint64  key;
  guint32 tag;
  guint32 pad;
} Rec;

static int
rec_cmp (gconstpointer a, gconstpointer b)
{
  const Rec *x = a, *y = b;
  return (x->key > y->key) - (x->key < y->key);
}

static void
check_same_as_merge_sort (GArray *recs)
{
  g_autoptr(GArray) want = g_array_copy (recs);

  g_array_sort (want, rec_cmp);   /* stable */
  _iochart_radix_sort_records (recs->data, recs->len, sizeof (Rec), G_STRUCT_OFFSET (Rec, key));
  g_assert_cmpuint (recs->len, ==, want->len);
  for (guint i = 0; i < recs->len; i++)
    {
      g_assert_cmpint (g_array_index (recs, Rec, i).key, ==, g_array_index (want, Rec, i).key);
      g_assert_cmpuint (g_array_index (recs, Rec, i).tag, ==, g_array_index (want, Rec, i).tag);
    }
}

static GArray *
make (guint n, gint64 (*key) (GRand *r, guint i), GRand *r)
{
  GArray *recs = g_array_sized_new (FALSE, TRUE, sizeof (Rec), n);

  for (guint i = 0; i < n; i++)
    {
      Rec rec = { g_rand_int (r), key (r, i), i, 0 };
      g_array_append_val (recs, rec);
    }
  return recs;
}

static gint64 key_few (GRand *r, guint i) { (void) i; return g_rand_int_range (r, 0, 8); }
static gint64 key_sorted (GRand *r, guint i) { (void) r; return (gint64) i * 10; }
static gint64 key_nearly (GRand *r, guint i) { return (gint64) i * 1000 + g_rand_int_range (r, -3000, 3000); }
static gint64 key_wide (GRand *r, guint i)
{
  (void) i;
  switch (g_rand_int_range (r, 0, 4))
    {
    case 0: return G_MININT64;
    case 1: return G_MAXINT64;
    case 2: return g_rand_int_range (r, -5, 5);
    default: return (gint64) ((guint64) g_rand_int (r) << 32 | g_rand_int (r));
    }
}

static void
test_radix_records (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (7);
  gint64 (*keys[]) (GRand *, guint) = { key_few, key_sorted, key_nearly, key_wide };
  guint sizes[] = { 0, 1, 2, 5, 63, 64, 65, 1000, 100000 };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        g_autoptr(GArray) recs = make (sizes[s], keys[k], r);
        check_same_as_merge_sort (recs);
      }
}

/* The steal events' pairs and the lane index's times: a key at offset 0 of 16- and 8-byte records. */
static void
test_radix_records_key_first (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (11);
  gint64 v[3000], want[3000];
  gint64 pairs[2 * 3000];

  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      v[i] = want[i] = g_rand_int_range (r, -100000, 100000);
      pairs[2 * i] = v[i] / 100;
      pairs[2 * i + 1] = i;
    }
  _iochart_radix_sort_records (v, G_N_ELEMENTS (v), sizeof (gint64), 0);
  for (guint i = 1; i < G_N_ELEMENTS (want); i++)
    for (guint j = i; j > 0 && want[j - 1] > want[j]; j--)
      {
        gint64 t = want[j];
        want[j] = want[j - 1];
        want[j - 1] = t;
      }
  g_assert_cmpmem (v, sizeof v, want, sizeof want);
  _iochart_radix_sort_records (pairs, G_N_ELEMENTS (v), 2 * sizeof (gint64), 0);
  for (guint i = 1; i < G_N_ELEMENTS (v); i++)
    {
      g_assert_cmpint (pairs[2 * (i - 1)], <=, pairs[2 * i]);
      if (pairs[2 * (i - 1)] == pairs[2 * i])
        g_assert_cmpint (pairs[2 * (i - 1) + 1], <, pairs[2 * i + 1]);   /* ties keep their order */
    }
}

static int
pair_cmp (gconstpointer a, gconstpointer b)
{
  const IochartRadixPair *x = a, *y = b;
  guint64 p = x->key & ((G_GUINT64_CONSTANT (1) << 48) - 1), q = y->key & ((G_GUINT64_CONSTANT (1) << 48) - 1);
  return (p > q) - (p < q);
}

/* Pairs by the low 48 bits of their keys (bits above set at random, as the bin index's flags
 * are), ties in order: keys spread (the bucket pass), clustered (too full for it: the LSD
 * passes), nearly sorted and small. */
static void
test_radix_pairs (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (3);
  guint sizes[] = { 2, 40, 64, 1000, 200000 };

  for (guint kind = 0; kind < 4; kind++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        guint n = sizes[s];
        g_autoptr(GArray) got = g_array_sized_new (FALSE, FALSE, sizeof (IochartRadixPair), n);
        g_autoptr(GArray) want = NULL;

        for (guint i = 0; i < n; i++)
          {
            guint64 k;
            IochartRadixPair p;

            switch (kind)
              {
              case 0: k = (guint64) g_rand_int (r) << 14 | g_rand_int_range (r, 0, 1 << 14); break;
              case 1: k = (guint64) g_rand_int_range (r, 0, 4) << 44 | g_rand_int_range (r, 0, 50); break;
              case 2: k = (guint64) i * 10000 + g_rand_int_range (r, 0, 30000); break;
              default: k = g_rand_int_range (r, 0, 3); break;
              }
            p.key = (guint64) g_rand_int_range (r, 0, 1 << 16) << 48 | k;
            p.value = i;
            g_array_append_val (got, p);
          }
        want = g_array_copy (got);
        g_array_sort (want, pair_cmp);   /* stable */
        _iochart_radix_sort ((IochartRadixPair *) got->data, n, 48);
        g_assert_cmpmem (got->data, n * sizeof (IochartRadixPair), want->data, n * sizeof (IochartRadixPair));
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/radix/pairs", test_radix_pairs);
  g_test_add_func ("/radix/records", test_radix_records);
  g_test_add_func ("/radix/records-key-first", test_radix_records_key_first);
  return g_test_run ();
}
