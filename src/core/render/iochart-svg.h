/* iochart-svg.h: the display list as SVG with real <text> and <title> tooltips
 *
 * cairo's SVG surface writes text as glyph paths, which nobody can search or copy, so the SVG
 * backend is our own writer.
 */
#pragma once

#include "iochart-display-list.h"

G_BEGIN_DECLS

char     *iochart_svg_to_string (IochartDisplayList *dl,
                                 gsize              *len);
gboolean  iochart_svg_write     (IochartDisplayList *dl,
                                 const char         *path,
                                 GError            **error);

G_END_DECLS
