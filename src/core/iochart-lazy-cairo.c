/* iochart-lazy-cairo.c: cairo, loaded on first drawing (iochart-lazy-private.h)
 *
 * cairo pulls in fontconfig, freetype, pixman, libpng, X11 and xcb, 18 of the 37 libraries
 * `iochart` loaded at start, and resolving their symbols was half of the start-up of every run,
 * drawing or not (`iochart info`, `--version`). Only the `iochart` executable links this
 * library; programs that draw with cairo themselves (the app, tests, benchmarks) link cairo.
 */
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
#include <libdeflate.h>
#include "iochart-lazy-private.h"

G_STATIC_ASSERT (CAIRO_VERSION_MAJOR == 1);
/* the checksums of PNG files (render/iochart-png.c): loaded with cairo, on the thread that
 * loads cairo while the capture is read (iochart_text_prepare); loaded when the PNG asked for it,
 * its dlopen was 0.5-1 ms on the main thread between drawing and compressing */
static IochartLazyLib libdeflate = IOCHART_LAZY_LIB_INIT ("libdeflate.so.0");
static IochartLazyLib libcairo = IOCHART_LAZY_LIB_INIT_WITH ("libcairo.so.2", &libdeflate);
/* cairo's own: loaded with it, asked for directly by the faces of charts (iochart-fonts.c) */
static IochartLazyLib libfontconfig = IOCHART_LAZY_LIB_INIT ("libfontconfig.so.1");

#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libcairo, ret, name, params, args)

FORWARD (void, cairo_clip, (cairo_t *cr), (cr))
FORWARD (void, cairo_clip_extents, (cairo_t *cr, double *x1, double *y1, double *x2, double *y2), (cr, x1, y1, x2, y2))
FORWARD (void, cairo_close_path, (cairo_t *cr), (cr))
FORWARD (cairo_t *, cairo_create, (cairo_surface_t *target), (target))
FORWARD (void, cairo_destroy, (cairo_t *cr), (cr))
FORWARD (void, cairo_fill, (cairo_t *cr), (cr))
FORWARD (void, cairo_fill_preserve, (cairo_t *cr), (cr))
FORWARD (void, cairo_font_extents, (cairo_t *cr, cairo_font_extents_t *extents), (cr, extents))
FORWARD (cairo_font_options_t *, cairo_font_options_create, (void), ())
FORWARD (void, cairo_font_options_destroy, (cairo_font_options_t *options), (options))
FORWARD (void, cairo_font_options_set_hint_metrics, (cairo_font_options_t *options, cairo_hint_metrics_t hint_metrics), (options, hint_metrics))
FORWARD (void, cairo_font_options_set_hint_style, (cairo_font_options_t *options, cairo_hint_style_t hint_style), (options, hint_style))
FORWARD (int, cairo_format_stride_for_width, (cairo_format_t format, int width), (format, width))
FORWARD (cairo_surface_t *, cairo_get_group_target, (cairo_t *cr), (cr))
FORWARD (void, cairo_get_matrix, (cairo_t *cr, cairo_matrix_t *matrix), (cr, matrix))
FORWARD (void, cairo_get_current_point, (cairo_t *cr, double *x, double *y), (cr, x, y))
FORWARD (cairo_scaled_font_t *, cairo_get_scaled_font, (cairo_t *cr), (cr))
FORWARD (cairo_surface_t *, cairo_get_target, (cairo_t *cr), (cr))
FORWARD (void, cairo_glyph_free, (cairo_glyph_t *glyphs), (glyphs))
FORWARD (cairo_pattern_t *, cairo_get_source, (cairo_t *cr), (cr))
FORWARD (void, cairo_identity_matrix, (cairo_t *cr), (cr))
FORWARD (cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height), (format, width, height))
FORWARD (cairo_surface_t *, cairo_image_surface_create_for_data, (unsigned char *data, cairo_format_t format, int width, int height, int stride), (data, format, width, height, stride))
FORWARD (unsigned char *, cairo_image_surface_get_data, (cairo_surface_t *surface), (surface))
FORWARD (cairo_format_t, cairo_image_surface_get_format, (cairo_surface_t *surface), (surface))
FORWARD (int, cairo_image_surface_get_height, (cairo_surface_t *surface), (surface))
FORWARD (int, cairo_image_surface_get_stride, (cairo_surface_t *surface), (surface))
FORWARD (int, cairo_image_surface_get_width, (cairo_surface_t *surface), (surface))
FORWARD (cairo_bool_t, cairo_in_fill, (cairo_t *cr, double x, double y), (cr, x, y))
FORWARD (cairo_bool_t, cairo_in_stroke, (cairo_t *cr, double x, double y), (cr, x, y))
FORWARD (void, cairo_line_to, (cairo_t *cr, double x, double y), (cr, x, y))
FORWARD (void, cairo_mask_surface, (cairo_t *cr, cairo_surface_t *surface, double x, double y), (cr, surface, x, y))
FORWARD (void, cairo_move_to, (cairo_t *cr, double x, double y), (cr, x, y))
FORWARD (void, cairo_new_path, (cairo_t *cr), (cr))
FORWARD (void, cairo_paint, (cairo_t *cr), (cr))
FORWARD (void, cairo_pattern_set_filter, (cairo_pattern_t *pattern, cairo_filter_t filter), (pattern, filter))
FORWARD (cairo_surface_t *, cairo_pdf_surface_create, (const char *filename, double width_in_points, double height_in_points), (filename, width_in_points, height_in_points))
FORWARD (void, cairo_pdf_surface_set_metadata, (cairo_surface_t *surface, cairo_pdf_metadata_t metadata, const char *utf8), (surface, metadata, utf8))
FORWARD (void, cairo_pdf_surface_set_size, (cairo_surface_t *surface, double width_in_points, double height_in_points), (surface, width_in_points, height_in_points))
FORWARD (void, cairo_rectangle, (cairo_t *cr, double x, double y, double width, double height), (cr, x, y, width, height))
FORWARD (void, cairo_restore, (cairo_t *cr), (cr))
FORWARD (void, cairo_save, (cairo_t *cr), (cr))
FORWARD (void, cairo_scale, (cairo_t *cr, double sx, double sy), (cr, sx, sy))
FORWARD (void, cairo_scaled_font_destroy, (cairo_scaled_font_t *scaled_font), (scaled_font))
FORWARD (void, cairo_scaled_font_glyph_extents, (cairo_scaled_font_t *scaled_font, const cairo_glyph_t *glyphs, int num_glyphs, cairo_text_extents_t *extents), (scaled_font, glyphs, num_glyphs, extents))
FORWARD (cairo_scaled_font_t *, cairo_scaled_font_reference, (cairo_scaled_font_t *scaled_font), (scaled_font))
FORWARD (cairo_status_t, cairo_scaled_font_status, (cairo_scaled_font_t *scaled_font), (scaled_font))
FORWARD (cairo_status_t, cairo_scaled_font_text_to_glyphs, (cairo_scaled_font_t *scaled_font, double x, double y, const char *utf8, int utf8_len, cairo_glyph_t **glyphs, int *num_glyphs, cairo_text_cluster_t **clusters, int *num_clusters, cairo_text_cluster_flags_t *cluster_flags), (scaled_font, x, y, utf8, utf8_len, glyphs, num_glyphs, clusters, num_clusters, cluster_flags))
FORWARD (void, cairo_set_dash, (cairo_t *cr, const double *dashes, int num_dashes, double offset), (cr, dashes, num_dashes, offset))
FORWARD (void, cairo_set_font_options, (cairo_t *cr, const cairo_font_options_t *options), (cr, options))
FORWARD (void, cairo_set_font_size, (cairo_t *cr, double size), (cr, size))
FORWARD (void, cairo_set_line_join, (cairo_t *cr, cairo_line_join_t line_join), (cr, line_join))
FORWARD (void, cairo_set_line_width, (cairo_t *cr, double width), (cr, width))
FORWARD (void, cairo_set_operator, (cairo_t *cr, cairo_operator_t op), (cr, op))
FORWARD (void, cairo_set_source_rgba, (cairo_t *cr, double red, double green, double blue, double alpha), (cr, red, green, blue, alpha))
FORWARD (void, cairo_set_source_surface, (cairo_t *cr, cairo_surface_t *surface, double x, double y), (cr, surface, x, y))
FORWARD (void, cairo_show_page, (cairo_t *cr), (cr))
FORWARD (void, cairo_show_glyphs, (cairo_t *cr, const cairo_glyph_t *glyphs, int num_glyphs), (cr, glyphs, num_glyphs))
FORWARD (void, cairo_show_text, (cairo_t *cr, const char *utf8), (cr, utf8))
FORWARD (const char *, cairo_status_to_string, (cairo_status_t status), (status))
FORWARD (void, cairo_stroke, (cairo_t *cr), (cr))
FORWARD (void, cairo_surface_destroy, (cairo_surface_t *surface), (surface))
FORWARD (void, cairo_surface_finish, (cairo_surface_t *surface), (surface))
FORWARD (void, cairo_surface_flush, (cairo_surface_t *surface), (surface))
FORWARD (void, cairo_surface_get_device_offset, (cairo_surface_t *surface, double *x_offset, double *y_offset), (surface, x_offset, y_offset))
FORWARD (void, cairo_surface_get_device_scale, (cairo_surface_t *surface, double *x_scale, double *y_scale), (surface, x_scale, y_scale))
FORWARD (cairo_bool_t, cairo_surface_has_show_text_glyphs, (cairo_surface_t *surface), (surface))
FORWARD (cairo_surface_type_t, cairo_surface_get_type, (cairo_surface_t *surface), (surface))
FORWARD (void, cairo_surface_mark_dirty, (cairo_surface_t *surface), (surface))
FORWARD (void, cairo_surface_set_device_scale, (cairo_surface_t *surface, double x_scale, double y_scale), (surface, x_scale, y_scale))
FORWARD (cairo_status_t, cairo_surface_set_user_data, (cairo_surface_t *surface, const cairo_user_data_key_t *key, void *user_data, cairo_destroy_func_t destroy), (surface, key, user_data, destroy))
FORWARD (cairo_status_t, cairo_surface_status, (cairo_surface_t *surface), (surface))
FORWARD (void, cairo_text_extents, (cairo_t *cr, const char *utf8, cairo_text_extents_t *extents), (cr, utf8, extents))
FORWARD (void, cairo_translate, (cairo_t *cr, double tx, double ty), (cr, tx, ty))
FORWARD (void, cairo_user_to_device, (cairo_t *cr, double *x, double *y), (cr, x, y))
FORWARD (void, cairo_user_to_device_distance, (cairo_t *cr, double *dx, double *dy), (cr, dx, dy))
FORWARD (void, cairo_font_face_destroy, (cairo_font_face_t *font_face), (font_face))
FORWARD (cairo_font_face_t *, cairo_get_font_face, (cairo_t *cr), (cr))
FORWARD (cairo_font_face_t *, cairo_font_face_reference, (cairo_font_face_t *font_face), (font_face))
FORWARD (cairo_status_t, cairo_font_face_status, (cairo_font_face_t *font_face), (font_face))
FORWARD (cairo_font_face_t *, cairo_ft_font_face_create_for_pattern, (FcPattern *pattern), (pattern))
FORWARD (void, cairo_set_font_face, (cairo_t *cr, cairo_font_face_t *font_face), (cr, font_face))
FORWARD (cairo_font_face_t *, cairo_toy_font_face_create, (const char *family, cairo_font_slant_t slant, cairo_font_weight_t weight), (family, slant, weight))

#undef FORWARD
#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libfontconfig, ret, name, params, args)

FORWARD (FcBool, FcConfigBuildFonts, (FcConfig *config), (config))
FORWARD (FcConfig *, FcConfigCreate, (void), ())
FORWARD (void, FcConfigDestroy, (FcConfig *config), (config))
FORWARD (FcBool, FcConfigParseAndLoadFromMemory, (FcConfig *config, const FcChar8 *buffer, FcBool complain), (config, buffer, complain))
FORWARD (FcBool, FcConfigSubstitute, (FcConfig *config, FcPattern *p, FcMatchKind kind), (config, p, kind))
FORWARD (void, FcDefaultSubstitute, (FcPattern *pattern), (pattern))
FORWARD (FcPattern *, FcFontMatch, (FcConfig *config, FcPattern *p, FcResult *result), (config, p, result))
FORWARD (FcBool, FcPatternAddInteger, (FcPattern *p, const char *object, int i), (p, object, i))
FORWARD (FcBool, FcPatternAddString, (FcPattern *p, const char *object, const FcChar8 *s), (p, object, s))
FORWARD (FcPattern *, FcPatternCreate, (void), ())
FORWARD (void, FcPatternDestroy, (FcPattern *p), (p))
FORWARD (FcResult, FcPatternGetInteger, (const FcPattern *p, const char *object, int n, int *i), (p, object, n, i))
FORWARD (FcResult, FcPatternGetString, (const FcPattern *p, const char *object, int n, FcChar8 **s), (p, object, n, s))

#undef FORWARD
#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libdeflate, ret, name, params, args)

FORWARD (uint32_t, libdeflate_adler32, (uint32_t adler, const void *buffer, size_t len), (adler, buffer, len))
FORWARD (uint32_t, libdeflate_crc32, (uint32_t crc, const void *buffer, size_t len), (crc, buffer, len))
