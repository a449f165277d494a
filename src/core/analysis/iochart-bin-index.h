/* iochart-bin-index.h: a device's requests indexed once, so that bins cost pixels, not requests
 *
 * Built once per device when a capture is loaded (the app does it in its loading worker). The
 * chart's strips are sums over pixel columns: a series spread over request lives (bytes, time in
 * flight) is the difference of its running integral G at the column's two edges, and G(x) is a
 * stored prefix sum of whole requests plus the few requests still open at x, found by their start
 * time in lists kept per length class (a class holds spans within a factor of 4, so only a
 * bounded window of starts before x can still be open). Counts and latency histograms of
 * completions are differences of stored prefix counts, every 512 completions. Either way a
 * column costs O(log n) plus a bounded walk, whatever the zoom, and the answer is the exact sum
 * the walk over every request gives (the same columns, up to rounding of doubles).
 */
#pragma once

#include "iochart-capture.h"
#include "iochart-latency.h"
#include "iochart-steal.h"
#include "iochart-lane-index.h"

G_BEGIN_DECLS

typedef struct _IochartBinIndex IochartBinIndex;
typedef struct _IochartBins IochartBins;
struct _IochartLanes;

/* Indexes a device's requests (device: a capture device index); latency_kind is what the
 * latency columns will be asked of (histograms are kept for Q2C and D2C, which end at the
 * completion; other kinds are walked). */
IochartBinIndex   *iochart_bin_index_new          (IochartCapture     *capture,
                                                   int                 device,
                                                   IochartLatencyKind  latency_kind);
/* Shared between threads: a view being laid out in a worker keeps its index alive. */
IochartBinIndex   *iochart_bin_index_ref          (IochartBinIndex    *index);
void               iochart_bin_index_unref        (IochartBinIndex    *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartBinIndex, iochart_bin_index_unref)

IochartCapture    *iochart_bin_index_get_capture  (const IochartBinIndex *index);
int                iochart_bin_index_get_device   (const IochartBinIndex *index);
/* Requests indexed: those of the device with an issue and a completion. */
guint              iochart_bin_index_get_n_requests (const IochartBinIndex *index);
/* Bytes the index holds. */
gsize              iochart_bin_index_get_size     (const IochartBinIndex *index);
/* TRUE when the latency columns of that kind come from the index. */
gboolean           iochart_bin_index_has_latency  (const IochartBinIndex *index,
                                                   IochartLatencyKind     kind);

/* Capture request indices, ascending, of the indexed requests whose life (first of queue,
 * insert or issue, to completion) meets [from_ns, to_ns]. */
GArray            *iochart_bin_index_find         (const IochartBinIndex *index,
                                                   gint64                 from_ns,
                                                   gint64                 to_ns);
/* Every request of the device that any analysis of [from_ns, to_ns] may take, ascending: those
 * found above, and the few whose lives the index does not hold (no issue, or no completion, or a
 * time before what it counts as the start), which every range takes. An analysis given these
 * instead of every request gives the same figures. */
GArray            *iochart_bin_index_find_all     (const IochartBinIndex *index,
                                                   gint64                 from_ns,
                                                   gint64                 to_ns);

/* The device's steal events, sorted once (iochart_steal_new takes them through its index
 * option), or NULL. */
const IochartStealEvents *iochart_bin_index_get_steal_events (const IochartBinIndex *index);

/* The device's lane index (iochart-lane-index.h): lanes, lane strips and legend counts, built
 * beside the bins' (not counted in iochart_bin_index_get_size). */
const IochartLaneIndex   *iochart_bin_index_get_lane_index  (const IochartBinIndex *index);

/* Fills the per-column bytes, completions and in-flight figures of bins (allocated, zeroed,
 * with its range and columns set), and its latency histograms when has_latency says so. */
void               iochart_bin_index_fill         (const IochartBinIndex *index,
                                                   IochartBins           *bins);
/* The classes (1 << class) of the requests the sector map may count in a range (every class when
 * the index could not keep them and the caller walks). */
guint              iochart_bin_index_get_sector_classes (const IochartBinIndex *index);
/* Sets the sector map's band of bins (allocated, with its range, columns and rows set) and
 * zeroes and counts its cells, from the device's data requests by issue time (a pass over those
 * of the range, no capture request decoded); FALSE when the index could not keep them (a sector
 * past 2^40, a request of 8 GiB, issues over 78 hours apart) or the map has over 32768 rows:
 * the caller zeroes the cells and walks (iochart_sector_index_fill). */
gboolean           iochart_bin_index_fill_sectors (const IochartBinIndex *index,
                                                   IochartBins           *bins);
/* Fills the lanes' strips of bins (allocated for lanes, zeroed, its in-flight figures filled):
 * per lane, from the lane index's strips of its groups, a few searches per column each; the lane
 * of the most requests (the folded "others") is the device's less the rest. The walk's figures
 * up to rounding. */
void               iochart_bin_index_fill_lanes   (const IochartBinIndex *index,
                                                   IochartBins           *bins,
                                                   struct _IochartLanes  *lanes);
/* iochart_bin_index_fill, then iochart_bin_index_fill_lanes when lanes is not NULL: the same
 * figures, the device's time queued found once for both. */
void               iochart_bin_index_fill_with_lanes (const IochartBinIndex *index,
                                                      IochartBins           *bins,
                                                      struct _IochartLanes  *lanes);

G_END_DECLS
