/* iochart-font-metrics-private.h: text widths of the pinned DejaVu Sans faces from a table
 * (iochart-font-metrics.c) */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether the font files at the pinned paths are the ones the table was made from (their sizes
 * and the checksums of their head tables). */
gboolean _iochart_font_metrics_files_match (void);
/* What cairo_text_extents() gives as x_advance for text in the pinned face at font_size, the
 * same double; FALSE when the table lacks the size or a character (or text is not UTF-8). */
gboolean _iochart_font_metrics_width       (const char *text,
                                            double      font_size,
                                            gboolean    bold,
                                            double     *width);
/* What cairo_font_extents() gives for the regular face at font_size; FALSE without the size. */
gboolean _iochart_font_metrics_extents     (double      font_size,
                                            double     *ascent,
                                            double     *descent);

/* The font files the table was measured from */
typedef struct {
  const char *path;        /* where Debian's fonts-dejavu-core puts it */
  gint64      size;        /* bytes */
  guint32     head_offset; /* of the head table */
  guint32     checksum;    /* its checkSumAdjustment: a checksum of the whole file */
} IochartPinnedFace;

G_END_DECLS
