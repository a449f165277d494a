/* iochart-radix.c: LSD radix sort of pairs, 16 bits a pass */
#include <string.h>
#include "iochart-radix-private.h"

void
_iochart_radix_sort (IochartRadixPair *a, gsize n, guint bits)
{
  g_autofree IochartRadixPair *tmp = g_new (IochartRadixPair, MAX (n, 1));
  g_autofree gsize *count = g_new (gsize, 65536);
  IochartRadixPair *src = a, *dst = tmp;

  if (n < 2)
    return;
  for (guint shift = 0; shift < bits; shift += 16)
    {
      gsize sum = 0;

      memset (count, 0, 65536 * sizeof (gsize));
      for (gsize i = 0; i < n; i++)
        count[(src[i].key >> shift) & 0xffff]++;
      if (count[(src[0].key >> shift) & 0xffff] == n)
        continue;   /* every key has this digit: nothing to move */
      for (guint d = 0; d < 65536; d++)
        {
          gsize c = count[d];
          count[d] = sum;
          sum += c;
        }
      for (gsize i = 0; i < n; i++)
        dst[count[(src[i].key >> shift) & 0xffff]++] = src[i];
      {
        IochartRadixPair *t = src;
        src = dst;
        dst = t;
      }
    }
  if (src != a)
    memcpy (a, src, n * sizeof (IochartRadixPair));
}

static inline gint64
record_key (const guint8 *records, gsize i, gsize size, gsize key_offset)
{
  gint64 k;

  memcpy (&k, records + i * size + key_offset, sizeof k);
  return k;
}

/* Below this many records an insertion sort beats the radix sort's 512 KiB of counts. */
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
  gint64 min, max;
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
  min = max = record_key (r, 0, size, key_offset);
  for (i = 1; i < n; i++)
    {
      gint64 k = record_key (r, i, size, key_offset);
      min = MIN (min, k);
      max = MAX (max, k);
    }
  /* keys as unsigned offsets from the least: any two gint64 are less than 2^64 apart */
  pairs = g_new (IochartRadixPair, n);
  for (i = 0; i < n; i++)
    pairs[i] = (IochartRadixPair) { (guint64) record_key (r, i, size, key_offset) - (guint64) min, i };
  _iochart_radix_sort (pairs, n, g_bit_storage ((guint64) max - (guint64) min));
  sorted = g_malloc (n * size);
  for (i = 0; i < n; i++)
    memcpy (sorted + i * size, r + pairs[i].value * size, size);
  memcpy (r, sorted, n * size);
}
