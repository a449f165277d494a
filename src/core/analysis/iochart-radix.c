/* iochart-radix.c: the indexes' stable linear-time sorts of pairs and records by a 64-bit key */
#include <string.h>
#include "iochart-radix-private.h"

/* Below this many pairs an insertion sort beats the passes' counts. */
#define PAIRS_SMALL 64
/* The LSD passes' digits: 2^11 counts stay in the first-level cache, where 16-bit digits'
 * 65536 scattered destinations missed it on every write. */
#define DIGIT_BITS  11
#define N_DIGITS    (1u << DIGIT_BITS)
/* At most 2^25 buckets (128 MiB of counts, for 64M keys or more): 10M requests' keys still land
 * a few to a bucket, where 2^20 put dozens in each and failed the work test. */
#define BUCKET_MAX_BITS 25

static void
insertion_sort_pairs (IochartRadixPair *a, gsize n, guint64 mask)
{
  for (gsize i = 1; i < n; i++)
    {
      IochartRadixPair p = a[i];
      gsize j = i;

      for (; j > 0 && (a[j - 1].key & mask) > (p.key & mask); j--)
        a[j] = a[j - 1];
      a[j] = p;
    }
}

/* Keys spread over their range (times, mostly): one stable pass into about n / 2 buckets by the
 * top bits of key - min, then a stable insertion sort of each. Nearly sorted input moves nearly in
 * order, so the pass writes a few places at a time. FALSE (nothing moved) when the buckets are
 * too full for that. */
static gboolean
bucket_sort_pairs (IochartRadixPair *a, gsize n, guint64 mask, guint64 min, guint64 range)
{
  guint bits = 1, key_bits = g_bit_storage (range), shift;
  guint64 work = 0;
  g_autofree guint32 *start = NULL, *next = NULL;
  g_autofree IochartRadixPair *tmp = NULL;

  if (n > G_MAXUINT32)
    return FALSE;
  while (bits < BUCKET_MAX_BITS && ((gsize) 1 << bits) < n / 2)
    bits++;
  shift = key_bits > bits ? key_bits - bits : 0;
  start = g_new0 (guint32, ((gsize) 1 << bits) + 1);
  for (gsize i = 0; i < n; i++)
    start[(((a[i].key & mask) - min) >> shift) + 1]++;
  for (gsize d = 0; d < ((gsize) 1 << bits); d++)
    {
      work += (guint64) start[d + 1] * start[d + 1];
      start[d + 1] += start[d];
    }
  if (work > (guint64) n * 16)
    return FALSE;
  tmp = g_new (IochartRadixPair, n);
  next = g_memdup2 (start, sizeof (guint32) << bits);
  for (gsize i = 0; i < n; i++)
    tmp[next[((a[i].key & mask) - min) >> shift]++] = a[i];
  for (gsize d = 0; d < ((gsize) 1 << bits); d++)
    if (start[d + 1] - start[d] > 1)
      insertion_sort_pairs (tmp + start[d], start[d + 1] - start[d], mask);
  memcpy (a, tmp, n * sizeof (IochartRadixPair));
  return TRUE;
}

/* LSD radix on DIGIT_BITS digits of key - min: stable, O(n) whatever the keys; every digit's
 * counts from one pass. */
static void
lsd_sort_pairs (IochartRadixPair *a, gsize n, guint64 mask, guint64 min, guint64 range)
{
  guint n_passes = (g_bit_storage (range) + DIGIT_BITS - 1) / DIGIT_BITS;
  g_autofree IochartRadixPair *tmp = g_new (IochartRadixPair, n);
  g_autofree gsize *count = g_new0 (gsize, (gsize) n_passes * N_DIGITS);
  IochartRadixPair *src = a, *dst = tmp;

  for (gsize i = 0; i < n; i++)
    {
      guint64 k = (a[i].key & mask) - min;

      for (guint p = 0; p < n_passes; p++)
        count[p * N_DIGITS + ((k >> (p * DIGIT_BITS)) & (N_DIGITS - 1))]++;
    }
  for (guint p = 0; p < n_passes; p++)
    {
      gsize *c = count + p * N_DIGITS, sum = 0;
      guint shift = p * DIGIT_BITS;

      if (c[(((src[0].key & mask) - min) >> shift) & (N_DIGITS - 1)] == n)
        continue;   /* every key has this digit: nothing to move */
      for (guint d = 0; d < N_DIGITS; d++)
        {
          gsize v = c[d];
          c[d] = sum;
          sum += v;
        }
      for (gsize i = 0; i < n; i++)
        dst[c[(((src[i].key & mask) - min) >> shift) & (N_DIGITS - 1)]++] = src[i];
      {
        IochartRadixPair *t = src;
        src = dst;
        dst = t;
      }
    }
  if (src != a)
    memcpy (a, src, n * sizeof (IochartRadixPair));
}

void
_iochart_radix_sort (IochartRadixPair *a, gsize n, guint bits)
{
  guint64 mask = bits >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << bits) - 1;
  guint64 min, max;
  gsize i;

  for (i = 1; i < n; i++)
    if ((a[i].key & mask) < (a[i - 1].key & mask))
      break;
  if (i >= n)
    return;   /* in order already: the indexes' input often is */
  if (n < PAIRS_SMALL)
    {
      insertion_sort_pairs (a, n, mask);
      return;
    }
  min = max = a[0].key & mask;
  for (i = 1; i < n; i++)
    {
      min = MIN (min, a[i].key & mask);
      max = MAX (max, a[i].key & mask);
    }
  if (!bucket_sort_pairs (a, n, mask, min, max - min))
    lsd_sort_pairs (a, n, mask, min, max - min);
}

static inline gint64
record_key (const guint8 *records, gsize i, gsize size, gsize key_offset)
{
  gint64 k;

  memcpy (&k, records + i * size + key_offset, sizeof k);
  return k;
}

/* Below this many records an insertion sort in place beats the pairs and the gather. */
#define RECORDS_SMALL 64

static void
insertion_sort_records (guint8 *r, gsize n, gsize size, gsize key_offset)
{
  g_autofree guint8 *held = g_malloc (size);

  for (gsize i = 1; i < n; i++)
    {
      gint64 k = record_key (r, i, size, key_offset);
      gsize j = i;

      if (record_key (r, i - 1, size, key_offset) <= k)
        continue;
      memcpy (held, r + i * size, size);
      for (; j > 0 && record_key (r, j - 1, size, key_offset) > k; j--)
        ;
      memmove (r + (j + 1) * size, r + j * size, (i - j) * size);
      memcpy (r + j * size, held, size);
    }
}

void
_iochart_radix_sort_records (gpointer records, gsize n, gsize size, gsize key_offset)
{
  guint8 *r = records;
  gsize i;
  g_autofree IochartRadixPair *pairs = NULL;
  g_autofree guint8 *sorted = NULL;

  for (i = 1; i < n; i++)
    if (record_key (r, i, size, key_offset) < record_key (r, i - 1, size, key_offset))
      break;
  if (i >= n)
    return;
  if (n < RECORDS_SMALL)
    {
      insertion_sort_records (r, n, size, key_offset);
      return;
    }
  /* the sign bit flipped: signed order as unsigned */
  pairs = g_new (IochartRadixPair, n);
  for (i = 0; i < n; i++)
    pairs[i] = (IochartRadixPair) { (guint64) record_key (r, i, size, key_offset) ^ (G_GUINT64_CONSTANT (1) << 63), i };
  _iochart_radix_sort (pairs, n, 64);
  sorted = g_malloc (n * size);
  for (i = 0; i < n; i++)
    memcpy (sorted + i * size, r + pairs[i].value * size, size);
  memcpy (r, sorted, n * size);
}
