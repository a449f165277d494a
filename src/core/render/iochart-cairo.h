/* iochart-cairo.h: the display list drawn through cairo (PNG, PDF, the GTK widget) */
#pragma once

#include <cairo.h>
#include "iochart-display-list.h"

G_BEGIN_DECLS

/* Draws every item on cr in display-list pixels; the caller sets any scale or offset. */
void     iochart_cairo_draw       (IochartDisplayList *dl,
                                   cairo_t            *cr);

gboolean iochart_cairo_write_png  (IochartDisplayList *dl,
                                   const char         *path,
                                   GError            **error);
/* PDF readers refuse pages over 200 inches: a taller chart gets more pages. */
#define IOCHART_PDF_MAX_PAGE_HEIGHT 14400.0

gboolean iochart_cairo_write_pdf  (IochartDisplayList *dl,
                                   const char         *path,
                                   GError            **error);

G_END_DECLS
