/* iochart-export.h: a capture's requests in the formats other tools read
 *
 * CSV (one row per request, for DuckDB, Spark and spreadsheets), JSON (the same rows) and the Chrome
 * trace-event JSON that ui.perfetto.dev and chrome://tracing open (one track group per lane, one
 * slice per request coloured by class, counter tracks for throughput and the stolen share). Any of
 * them may be zstd-compressed through libarchive.
 */
#pragma once

#include "iochart-capture.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_EXPORT_CSV,
  IOCHART_EXPORT_JSON,
  IOCHART_EXPORT_PERFETTO,
} IochartExportFormat;

gboolean iochart_export_format_from_name (const char          *name,
                                          IochartExportFormat *format);

/* The CSV header, also the JSON rows' keys, in order. */
extern const char * const iochart_export_columns[];

typedef struct {
  IochartExportFormat format;
  gboolean            zstd;        /* compress the output */
  guint               n_counter_columns;  /* perfetto: counter samples over the span; 0: one per 10 ms */
} IochartExportOptions;

/* Writes to path ("-": standard output). */
gboolean iochart_export_write (IochartCapture             *capture,
                               const IochartExportOptions *options,
                               const char                 *path,
                               GError                    **error);

G_END_DECLS
