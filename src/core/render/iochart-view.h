/* iochart-view.h: what one chart shows: a time range of one device, its lanes and its bins
 *
 * The view model sits between the capture and the drawing: it fixes the range, the device and the
 * width, groups processes into lanes (rows) and aggregates requests per pixel column (bins), so a
 * drawing costs pixels, not events. The headless renderer draws one view; the GTK widget builds a
 * new one per zoom.
 */
#pragma once

#include "iochart-capture.h"
#include "../analysis/iochart-lanes.h"
#include "../analysis/iochart-steal.h"
#include "../analysis/iochart-bins.h"
#include "../analysis/iochart-latency.h"
#include "../analysis/iochart-summary.h"

G_BEGIN_DECLS

/* The plot area leaves room for labels on the left (this much in a chart 1,100 px or wider,
 * less in a narrower one: iochart_view_label_width) and right. */
#define IOCHART_VIEW_LABEL_WIDTH  250
#define IOCHART_VIEW_LABEL_WIDTH_MIN 170
#define IOCHART_VIEW_RIGHT_MARGIN 24
#define IOCHART_VIEW_MIN_WIDTH    640
#define IOCHART_VIEW_SECTOR_ROWS  110
/* Lanes one chart draws at most, so that it stays inside cairo's 32767 px images. */
#define IOCHART_VIEW_MAX_LANES    1000

typedef struct {
  int                 device;      /* capture device index; -1: the one the steal analysis picks */
  gint64              from_ns;     /* absolute; IOCHART_TIME_UNKNOWN: the capture's start */
  gint64              to_ns;       /* absolute; IOCHART_TIME_UNKNOWN: the capture's end */
  guint               width;       /* whole image, pixels */
  IochartLanesOptions lanes;       /* device and range are set by the view */
  gint64              steal_gap_ns;
  IochartLatencyKind  latency;     /* what the latency strip shows: Q2C unless asked */
  guint32             highlight;   /* the lane holding this process (else the first of the family
                                    * expanded from it) shows its requests apart in every strip;
                                    * IOCHART_NO_PROCESS: none */
  IochartBinIndex    *index;       /* the device's bin index (with device -1: the picked device's), */
                                   /* or NULL: every analysis walks every request */
} IochartViewOptions;

#define IOCHART_VIEW_OPTIONS_INIT { .device = -1, .from_ns = IOCHART_TIME_UNKNOWN, \
                                    .to_ns = IOCHART_TIME_UNKNOWN, .width = 1600, \
                                    .lanes = IOCHART_LANES_OPTIONS_INIT, .steal_gap_ns = -1, \
                                    .latency = IOCHART_LATENCY_Q2C, .highlight = IOCHART_NO_PROCESS }

typedef struct _IochartView IochartView;

/* The label column of a chart this wide: 250 px from 1,100 px on, down to 170 px at 700 px and
 * narrower, so that a narrow window's plot keeps most of its width. */
guint           iochart_view_label_width  (guint                     width);

IochartView    *iochart_view_new          (IochartCapture           *capture,
                                           const IochartViewOptions *options);
void            iochart_view_free         (IochartView              *view);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartView, iochart_view_free)

IochartCapture *iochart_view_get_capture  (IochartView *view);
/* Device index, or -1 when the capture has no device. */
int             iochart_view_get_device   (IochartView *view);
gint64          iochart_view_get_from_ns  (IochartView *view);
gint64          iochart_view_get_to_ns    (IochartView *view);
guint           iochart_view_get_width    (IochartView *view);
guint           iochart_view_get_n_columns (IochartView *view);
guint           iochart_view_get_label_width (IochartView *view);
IochartLanes   *iochart_view_get_lanes    (IochartView *view);
/* One of the view's lanes over another range (a selection inside the view): the view's lanes
 * made again over [from_ns, to_ns], with the same device, grouping, filters and expanded lanes
 * and none folded but into the folded lane (when lane is it), and in them the lane of the same
 * head process (the same class, or the folded lane, when it has none). NULL when that lane
 * issued nothing in the range; *lanes holds the figures (free it) either way. */
const IochartLane *iochart_view_lane_in_range (IochartView   *view,
                                               guint          lane,
                                               gint64         from_ns,
                                               gint64         to_ns,
                                               IochartLanes **lanes);
/* Lanes the options asked for: more than drawn when they passed IOCHART_VIEW_MAX_LANES. */
guint           iochart_view_get_n_lanes_wanted (IochartView *view);
/* Idle steal on the view's device, in its range, with per-column figures. */
IochartSteal   *iochart_view_get_steal    (IochartView *view);
/* NULL when the capture has no device. */
IochartBins    *iochart_view_get_bins     (IochartView *view);
/* The highlighted lane (-1: none) and its own bins (same columns and sector band; NULL: none). */
int             iochart_view_get_highlight_lane (IochartView *view);
IochartBins    *iochart_view_get_highlight_bins (IochartView *view);
const IochartViewOptions *iochart_view_get_options (IochartView *view);
/* The capture requests the view's analyses walked (its index's find_all), or NULL: all, or none
 * when its indexes answered them. */
GArray         *iochart_view_get_requests (IochartView *view);
/* The legend's counts: iochart_counts_compute() of the view's device and range. */
void            iochart_view_get_counts   (IochartView *view,
                                           IochartCounts *counts);
/* For a tooltip: the requests of lane whose lives (queue to completion) meet [from_ns, to_ns], the
 * pixel under the pointer. The one in flight at its middle (else the nearest) in full: process,
 * class with its level and what told it, op, size, sector, queue/insert/issue/complete times (the
 * first since origin_ns, each next one after the one before), and how many more; NULL: none. */
char           *iochart_view_describe_requests (IochartView *view,
                                                int          lane,
                                                gint64       from_ns,
                                                gint64       to_ns,
                                                gint64       origin_ns);
/* For a tooltip over the strips: the pixel column holding at_ns, its time since origin_ns and what
 * its bins hold: the bytes read and written per class with the rate, the completions with theirs,
 * the requests in flight on average, the latency's p50 and p99 ("at 1.2 s, over 2.1 ms\nread 64 KiB
 * (31 MiB/s): be 64 KiB\n…"); NULL outside the view. */
char           *iochart_view_describe_column (IochartView *view,
                                              gint64       at_ns,
                                              gint64       origin_ns);

G_END_DECLS
