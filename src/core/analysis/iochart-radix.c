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
