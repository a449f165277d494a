/* iochart-radix-private.h: the indexes' sort of (key, value) pairs by key, in linear time */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 key;
  guint64 value;
} IochartRadixPair;

/* Sorts a by the low `bits` of key, stably, in linear time: input in order costs one look, keys
 * spread over their range one pass into buckets of a few, others an LSD radix sort of 11-bit
 * digits of the key less the least. */
void _iochart_radix_sort (IochartRadixPair *a,
                          gsize             n,
                          guint             bits);

/* Sorts n records of `size` bytes by the gint64 at key_offset in each, stably (as a merge sort
 * does), in linear time: records already in order cost one look, a few cost an insertion sort,
 * others a radix sort of (key, position) pairs and one gather. */
void _iochart_radix_sort_records (gpointer records,
                                  gsize    n,
                                  gsize    size,
                                  gsize    key_offset);

G_END_DECLS
