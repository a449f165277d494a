/* iochart-png-private.h: the PNG writer with its number of threads chosen (tests) */
#pragma once

#include <cairo.h>
#include <glib.h>
#include "iochart-png.h"

G_BEGIN_DECLS

/* iochart_png_encode() on at most max_bands threads: the same bytes for any max_bands. */
GBytes *_iochart_png_encode_with (cairo_surface_t *image,
                                  guint            max_bands);

/* iochart_png_write_drawn()'s file, in memory, on at most max_threads threads. */
GBytes *_iochart_png_encode_drawn_with (int                width,
                                        int                height,
                                        IochartPngDrawFunc draw,
                                        gpointer           data,
                                        guint              max_threads);

/* TRUE: rows are filtered by the generic loop even where SSSE3's is used (tests compare them). */
void    _iochart_png_use_generic_filter (gboolean generic);

G_END_DECLS
