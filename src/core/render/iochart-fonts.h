/* iochart-fonts.h: the font faces charts are measured and drawn with */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* Selects IOCHART_FONT_FAMILY (bold or not) at font_size on cr. */
void     iochart_fonts_select        (cairo_t  *cr,
                                      double    font_size,
                                      gboolean  bold);

/* Asks for fonts found by a font configuration of our own: the usual font folders and their
 * caches, without the system's rules. fontconfig's reading of those rules (about 50 XML files)
 * was a third of a small chart's time. Output then does not follow the user's font settings
 * (hinting, subpixel order), which a file written for others should not anyway; when that
 * configuration lacks IOCHART_FONT_FAMILY in the weights charts use, the system's is used as
 * before. For programs that write files (the CLI); the app's text follows the desktop's
 * settings. Call before the first measurement. */
void     iochart_fonts_use_own_config (void);

G_END_DECLS
