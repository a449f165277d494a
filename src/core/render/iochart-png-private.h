/* iochart-png-private.h: the PNG writer with its number of threads chosen (tests) */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* iochart_png_encode() on at most max_bands threads: the same bytes for any max_bands. */
GBytes *_iochart_png_encode_with (cairo_surface_t *image,
                                  guint            max_bands);

G_END_DECLS
