/* iochart-format.h: how figures read, the same in `info`, the charts and the boot chart */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "512 B", "1.5 KiB", "263 MiB": one decimal below 10 of a unit */
char    *iochart_format_bytes     (double   bytes);
/* "0 s", "250 ns", "1.5 µs", "12 ms", "1.5 s" */
char    *iochart_format_duration  (double   ns);
/* "5,476" */
char    *iochart_format_count     (guint64  n);
/* "1 request", "2,048 requests": a count and its noun, singular or plural. */
char    *iochart_format_plural    (guint64     n,
                                   const char *one,
                                   const char *many);

/* The 1-2-5 step at or above v, for axis scales. */
double   iochart_nice_ceil        (double   v);
/* The same in binary units: 1, 2 or 5 times a power of 1024. */
double   iochart_nice_ceil_bytes  (double   v);

G_END_DECLS
