/* iochart-labels.h: labels collected while a chart is laid out, placed last so that none overlap
 *
 * Every chart adds its labels with a priority; placing draws them into a display list in the
 * order they were added, leaving out any that would overlap one of higher priority (a lower
 * number), so that no two text boxes of a chart ever intersect.
 */
#pragma once

#include "iochart-display-list.h"

G_BEGIN_DECLS

typedef struct _IochartLabels IochartLabels;

IochartLabels *iochart_labels_new   (void);
void           iochart_labels_free  (IochartLabels      *labels);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartLabels, iochart_labels_free)

void           iochart_labels_add   (IochartLabels      *labels,
                                     double              x,
                                     double              y,
                                     const char         *text,
                                     double              font_size,
                                     gboolean            bold,
                                     IochartAnchor       anchor,
                                     guint32             fill,
                                     int                 priority,
                                     const char         *tooltip);

/* Draws the labels that fit into dl and empties the list; returns how many were left out. */
guint          iochart_labels_place (IochartLabels      *labels,
                                     IochartDisplayList *dl);

G_END_DECLS
