/* iochart-cairo.h: the display list drawn through cairo (PNG, PDF, the GTK widget) */
#pragma once

#include <cairo.h>
#include "iochart-display-list.h"

G_BEGIN_DECLS

/* Draws every item on cr in display-list pixels; the caller sets any scale or offset. */
void     iochart_cairo_draw       (IochartDisplayList *dl,
                                   cairo_t            *cr);

/* The list drawn on a new ARGB32 image of width x height pixels at device scale scale (a
 * widget's pixels of a chart); NULL when cairo cannot make it. */
cairo_surface_t *iochart_cairo_draw_image (IochartDisplayList *dl,
                                           int                 width,
                                           int                 height,
                                           int                 scale);

/* Draws a chart laid out for another time range as the range from_ns..to_ns shows it: the plot
 * stretched and shifted, the labels left of it and what spans it (frames, stripes) kept. A widget shows this while the exact chart
 * of the new range is drawn in the background, so that a frame costs one drawing of a list. */
void     iochart_cairo_draw_warped (IochartDisplayList *dl,
                                    cairo_t            *cr,
                                    gint64              from_ns,
                                    gint64              to_ns);

/* Draws the header's text that tells the range (iochart_display_list_set_range_text) as it reads
 * for from_ns..to_ns over the one drawn: a frame that moves the pixels of a chart laid out for
 * another range keeps its header, but for the range shown. Nothing when the list has none. */
void     iochart_cairo_draw_range_text (IochartDisplayList *dl,
                                        cairo_t            *cr,
                                        gint64              from_ns,
                                        gint64              to_ns);

/* Draws only the rects and lines across the whole plot (strip frames, lane stripes, value grid
 * lines), which the warped drawing keeps in place: under a plot's pixels moved, they keep the
 * plot's edges where the moved pixels leave them bare. */
void     iochart_cairo_draw_spanning (IochartDisplayList *dl,
                                      cairo_t            *cr);

gboolean iochart_cairo_write_png  (IochartDisplayList *dl,
                                   const char         *path,
                                   GError            **error);

/* Writes the list drawn at scale to path itself (iochart_cairo_write_png() writes through a
 * temporary file): the image is the list's size times scale, rounded down. */
gboolean iochart_cairo_png_file   (IochartDisplayList *dl,
                                   double              scale,
                                   const char         *path,
                                   GError            **error);
/* PDF readers refuse pages over 200 inches: a taller chart gets more pages. */
#define IOCHART_PDF_MAX_PAGE_HEIGHT 14400.0

gboolean iochart_cairo_write_pdf  (IochartDisplayList *dl,
                                   const char         *path,
                                   GError            **error);

G_END_DECLS
