/* iochart-fonts-private.h: for the measuring of text and tests of iochart-fonts.c */
#pragma once

#include "iochart-fonts.h"

G_BEGIN_DECLS

/* Forgets the faces made: the next are our own configuration's when own, looking in folders
 * with its caches in cache_folder (NULL, NULL: the usual ones), else cairo's toy faces as the
 * system configures them. */
void     _iochart_fonts_reset        (gboolean            own,
                                      const char * const *folders,
                                      const char         *cache_folder);
/* Whether the faces in use came from our own configuration (FALSE: the system's). */
gboolean _iochart_fonts_own_in_use   (void);
/* Whether text may be measured from the table of the pinned faces (iochart-font-metrics.c): our
 * own configuration is asked for, in the usual folders, and would find the pinned files. */
gboolean _iochart_fonts_pinned_in_use (void);

G_END_DECLS
