/* iochart-diff-chart.h: two captures on one time scale, row by row, with what changed marked
 *
 * One row per device, class and lane of the diff: A's span from first I/O to last completion
 * above, B's below, on the aligned time axis; rows that changed are tinted, their label is bold
 * and says what changed, and moved ends are joined by a mark from A's to B's.
 */
#pragma once

#include "iochart-display-list.h"
#include "iochart-chart.h"
#include "analysis/iochart-diff.h"

G_BEGIN_DECLS

IochartDisplayList *iochart_diff_chart_draw (IochartDiff  *diff,
                                             const char   *name_a,
                                             const char   *name_b,
                                             guint         width,
                                             IochartTheme  theme);

G_END_DECLS
