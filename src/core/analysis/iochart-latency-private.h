/* iochart-latency-private.h: the percentile work on plain values, for tests */
#pragma once

#include "iochart-latency.h"

G_BEGIN_DECLS

/* Fills kind's figures in the rows of every grouping from values[0..n) (request i's span, or
 * IOCHART_TIME_UNKNOWN to leave it out), with one sort of the values shared by all groupings.
 * groups[i * n_groupings + g] is request i's group in grouping g (the groupings' own group
 * arrays are not read): one place for all of a request's groups. */
void _iochart_latency_compute_values (const gint64           *values,
                                      gsize                   n,
                                      const gint32           *groups,
                                      IochartLatencyGrouping *groupings,
                                      guint                   n_groupings,
                                      IochartLatencyKind      kind);

G_END_DECLS
