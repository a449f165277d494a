/* iochart-lane-index.h: a device's requests indexed once for the lanes, their strips and the
 * legend counts
 *
 * Built once per device at load (the bin index builds it beside its own, in the app's load
 * worker), so that a chart's lanes, lane strips and legend cost processes or groups, not the
 * requests in view:
 * - per process and class (a stream), the requests' lane spans (iochart-lanes.c's span: first of
 *   queue or insert, to completion) sorted by start and by end, with the running greatest end and
 *   bytes and issues with running totals every 16: the requests meeting [from, to] are those
 *   starting by `to` less those ended before `from`, so a process's figures are two searches;
 * - per group of the lanes' grouping and class (a strip), the requests' lives as the bins see
 *   them (start, issue, completion), each sorted with running sums: a lane's strips
 *   (iochart_bin_index_fill_lanes: time queued and in flight, classes met, per column) are a few
 *   searches per column of its groups, however many processes they hold; the folded lane is the
 *   device's less the others. The default grouping's are built at load, another's (by pid, name,
 *   parent or class, or lanes expanded) on its first use, and kept;
 * - time with I/O outstanding: the device's timeline cut where the set of groups (of the default
 *   grouping, iochart_lanes_new's group by tree) with I/O outstanding changes, each run filed
 *   under its set with running lengths, so that a lane's outstanding time (or the "others"
 *   lane's, whatever folds into it) is a sum over the sets met, each one two searches; another
 *   grouping gets each group's own runs, built on its first use and kept;
 * - per class and operation, issue times with running counts and bytes every 16: the legend's
 *   counts (iochart_counts_compute's) of any range.
 * Every figure equals the walk over every request (the strips up to rounding).
 */
#pragma once

#include "iochart-capture.h"
#include "iochart-summary.h"
#include "iochart-lanes.h"

G_BEGIN_DECLS

typedef struct _IochartLaneIndex IochartLaneIndex;

IochartLaneIndex *iochart_lane_index_new           (IochartCapture         *capture,
                                                    int                     device);
void              iochart_lane_index_free          (IochartLaneIndex       *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartLaneIndex, iochart_lane_index_free)

int               iochart_lane_index_get_device    (const IochartLaneIndex *index);
/* Requests of the device the lanes can draw (a known life). */
guint             iochart_lane_index_get_n_requests (const IochartLaneIndex *index);
/* Bytes the index holds. */
gsize             iochart_lane_index_get_size      (const IochartLaneIndex *index);
/* TRUE when it still describes capture (a live capture grows after). */
gboolean          iochart_lane_index_covers        (const IochartLaneIndex *index,
                                                    IochartCapture         *capture);

/* TRUE when iochart_lanes_new (capture, options) takes its figures from the index (options->index
 * may be unset): the same device, the capture as it was indexed; any grouping. */
gboolean          iochart_lane_index_serves        (const IochartLaneIndex *index,
                                                    IochartCapture         *capture,
                                                    const IochartLanesOptions *options);

/* iochart_counts_compute (capture, device, from_ns, to_ns, counts), from the index. */
void              iochart_lane_index_counts        (const IochartLaneIndex *index,
                                                    gint64                  from_ns,
                                                    gint64                  to_ns,
                                                    IochartCounts          *counts);

G_END_DECLS
