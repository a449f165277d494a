/* iochart-sim-sort.c: stable sorts by a nanosecond time, in linear time
 *
 * The workload and each run sort millions of records by time (submissions, completions, a
 * timeline's entries); a comparison sort spent most of a run there. An LSD radix sort over the
 * keys' span (times relative to the smallest) takes a few passes of 8 or 16 bits, and keeps the
 * order of equal keys, so records made in index order come out as a sort by (time, index).
 */
#include <string.h>
#include "iochart-sim-private.h"

#define SMALL 64   /* items: below, insertion sort whatever the order */

static inline gint64
key_at (const guint8 *item, gsize key_offset)
{
  gint64 k;

  memcpy (&k, item + key_offset, sizeof k);
  return k;
}

/* Stable insertion sort that gives up (FALSE) once it has moved items further than budget places
 * in all: the arrays the simulator sorts are mostly in order already (requests by submission
 * come by issue, completions of a disk that serves one at a time in submission order), and for
 * them this is one pass. What it did stays valid: a stable sort may follow. */
static gboolean
insertion (guint8 *v, guint n, gsize size, gsize key_offset, guint64 budget)
{
  guint8 tmp[64];
  guint64 moved = 0;

  g_assert (size <= sizeof tmp);
  for (guint i = 1; i < n; i++)
    {
      gint64 k = key_at (v + i * size, key_offset);
      guint j = i;

      if (key_at (v + (j - 1) * size, key_offset) <= k)
        continue;
      while (j > 0 && key_at (v + (j - 1) * size, key_offset) > k)
        j--;
      if ((moved += i - j) > budget)
        return FALSE;
      memcpy (tmp, v + i * size, size);
      memmove (v + (j + 1) * size, v + j * size, (gsize) (i - j) * size);
      memcpy (v + j * size, tmp, size);
    }
  return TRUE;
}

/* One counting pass on bits [shift, shift + bits) of key - min, from src to dst. The size is a
 * constant at each call, so the copies are a few moves. */
static inline G_GNUC_UNUSED void
pass (const guint8 *src, guint8 *dst, guint n, gsize size, gsize key_offset, gint64 min, guint shift,
      guint bits, guint32 *count)
{
  guint32 mask = (1u << bits) - 1, sum = 0;

  memset (count, 0, sizeof (guint32) << bits);
  for (guint i = 0; i < n; i++)
    count[(((guint64) key_at (src + i * size, key_offset) - (guint64) min) >> shift) & mask]++;
  for (guint d = 0; d <= mask; d++)
    {
      guint32 c = count[d];
      count[d] = sum;
      sum += c;
    }
  for (guint i = 0; i < n; i++)
    {
      const guint8 *item = src + i * size;
      guint d = (((guint64) key_at (item, key_offset) - (guint64) min) >> shift) & mask;

      memcpy (dst + (gsize) count[d]++ * size, item, size);
    }
}

static void
passes (guint8 *v, guint8 *tmp, guint n, gsize size, gsize key_offset, gint64 min, guint n_bits,
        guint bits, guint32 *count)
{
  guint8 *src = v, *dst = tmp;

  for (guint shift = 0; shift < n_bits; shift += bits)
    {
      switch (size)   /* the sizes the simulator sorts, as constants */
        {
        case 16: pass (src, dst, n, 16, key_offset, min, shift, bits, count); break;
        case 24: pass (src, dst, n, 24, key_offset, min, shift, bits, count); break;
        default: pass (src, dst, n, size, key_offset, min, shift, bits, count); break;
        }
      guint8 *t = src;
      src = dst;
      dst = t;
    }
  if (src != v)
    memcpy (v, src, (gsize) n * size);
}

#define MAX_RUNS 64

/* The starts of the ascending runs, or 0 when there are more than MAX_RUNS. */
static guint
find_runs (const guint8 *v, guint n, gsize size, gsize key_offset, guint *starts)
{
  guint n_runs = 1;

  starts[0] = 0;
  for (guint i = 1; i < n; i++)
    if (key_at (v + i * size, key_offset) < key_at (v + (i - 1) * size, key_offset))
      {
        if (n_runs == MAX_RUNS)
          return 0;
        starts[n_runs++] = i;
      }
  starts[n_runs] = n;
  return n_runs;
}

/* Stable merge of src[a, b) and src[b, c) into dst[a, c). */
static void
merge (const guint8 *src, guint8 *dst, guint a, guint b, guint c, gsize size, gsize key_offset)
{
  guint i = a, j = b, k = a;

  while (i < b && j < c)
    {
      gboolean right = key_at (src + j * size, key_offset) < key_at (src + i * size, key_offset);

      memcpy (dst + (gsize) k++ * size, src + (gsize) (right ? j++ : i++) * size, size);
    }
  memcpy (dst + (gsize) k * size, src + (gsize) i * size, (gsize) (b - i) * size);
  k += b - i;
  memcpy (dst + (gsize) k * size, src + (gsize) j * size, (gsize) (c - j) * size);
}

/* A few sorted runs (a timeline made of a few ordered sources) merge in log2(runs) passes. */
static void
merge_runs (guint8 *v, guint n, gsize size, gsize key_offset, guint *starts, guint n_runs)
{
  g_autofree guint8 *tmp = g_malloc ((gsize) n * size);
  guint8 *src = v, *dst = tmp;

  while (n_runs > 1)
    {
      guint out = 0;

      for (guint r = 0; r < n_runs; r += 2)
        {
          if (r + 1 < n_runs)
            merge (src, dst, starts[r], starts[r + 1], starts[r + 2], size, key_offset);
          else
            memcpy (dst + (gsize) starts[r] * size, src + (gsize) starts[r] * size,
                    (gsize) (starts[r + 1] - starts[r]) * size);
          starts[out++] = starts[r];
        }
      starts[out] = n;
      n_runs = out;
      guint8 *t = src;
      src = dst;
      dst = t;
    }
  if (src != v)
    memcpy (v, src, (gsize) n * size);
}

void
_iochart_sim_sort_by_ns (void *items, guint n, gsize size, gsize key_offset)
{
  guint starts[MAX_RUNS + 1], n_runs;
  guint8 *v = items;
  gint64 min, max;
  guint n_bits = 0, bits;
  guint32 *count;
  guint8 *tmp;

  if (n < SMALL)
    {
      insertion (v, n, size, key_offset, G_MAXUINT64);
      return;
    }
  if ((n_runs = find_runs (v, n, size, key_offset, starts)) > 0)
    {
      merge_runs (v, n, size, key_offset, starts, n_runs);
      return;
    }
  if (insertion (v, n, size, key_offset, 4 * (guint64) n))
    return;
  min = max = key_at (v, key_offset);
  for (guint i = 1; i < n; i++)
    {
      gint64 k = key_at (v + i * size, key_offset);
      min = MIN (min, k);
      max = MAX (max, k);
    }
  while (n_bits < 64 && ((guint64) max - (guint64) min) >> n_bits)
    n_bits++;
  if (n_bits == 0)
    return;
  /* wide digits pay only when the array outnumbers their counters */
  bits = n >= (1u << 16) ? 16 : 8;
  count = g_new (guint32, 1u << bits);
  tmp = g_malloc ((gsize) n * size);
  passes (v, tmp, n, size, key_offset, min, n_bits, bits, count);
  g_free (tmp);
  g_free (count);
}
