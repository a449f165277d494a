/* iochart-radix-private.h: the indexes' sort of (key, value) pairs by key, in linear time */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint64 key;
  guint64 value;
} IochartRadixPair;

/* Sorts a by the low `bits` of key, stably (LSD radix on 16-bit digits). */
void _iochart_radix_sort (IochartRadixPair *a,
                          gsize             n,
                          guint             bits);

G_END_DECLS
