/* iochart-png.h: a cairo image surface written as PNG, fast: charts are flat colour, so zlib's
 * fastest level with run-length matching and the "up" filter lose little size against cairo's
 * own writer (zlib's default level, adaptive filters) and take a fraction of its time. */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* A blank ARGB32 image surface to draw a chart into, as cairo_image_surface_create() gives,
 * but in huge pages where the kernel has them: a chart's image is megabytes, and faulting it
 * in 4 KiB at a time cost as much as drawing it. */
cairo_surface_t *iochart_png_surface_new (int width,
                                          int height);

/* Writes an ARGB32 or RGB24 image surface: RGB when every pixel is opaque, else RGBA with the
 * alpha unpremultiplied, as cairo_surface_write_to_png() does. */
gboolean iochart_png_write (cairo_surface_t *image,
                            const char      *path,
                            GError         **error);

/* The same PNG in memory; NULL only when zlib fails. */
GBytes          *iochart_png_encode (cairo_surface_t *image);
/* The PNG of ARGB32 pixels as cairo lays them out, without cairo (an SVG's embedded image: an
 * SVG needs no cairo, and loading it took 5-8 ms of a large capture's --svg). */
GBytes          *iochart_png_encode_argb32 (const guint8 *pixels,
                                            int           width,
                                            int           height,
                                            int           stride);

/* Draws an image with cairo: cr's user space is the image's pixels. */
typedef void (*IochartPngDrawFunc) (cairo_t *cr,
                                    gpointer data);

/* Writes the width × height image that draw makes, the same file as drawing it on one surface
 * and writing that, but drawn a strip at a time, each strip compressed while it is in a core's
 * cache, on every core: draw is called once a strip, from several threads at once, with the
 * strip's rows in its clip. */
gboolean         iochart_png_write_drawn (int                 width,
                                          int                 height,
                                          IochartPngDrawFunc  draw,
                                          gpointer            data,
                                          const char         *path,
                                          GError            **error);

G_END_DECLS
