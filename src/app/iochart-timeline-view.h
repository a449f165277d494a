/* iochart-timeline-view.h: the chart of one capture, zoomable, drawn from the core's display list
 *
 * The widget keeps a time range, a selection and the lane filters, builds the core's view and chart
 * for its width (the I/O chart, or the boot chart of a bootchart capture) and draws that display list
 * with cairo in its snapshot. Tooltips and lane clicks come from the same list.
 */
#pragma once

#include <gtk/gtk.h>
#include "iochart-capture.h"
#include "bootchart/iochart-bootchart.h"
#include "render/iochart-view.h"
#include "render/iochart-display-list.h"

G_BEGIN_DECLS

#define IOCHART_TYPE_TIMELINE_VIEW (iochart_timeline_view_get_type ())
G_DECLARE_FINAL_TYPE (IochartTimelineView, iochart_timeline_view, IOCHART, TIMELINE_VIEW, GtkWidget)

/* The narrowest range a zoom reaches. */
#define IOCHART_TIMELINE_MIN_SPAN_NS G_GINT64_CONSTANT (10000)

GtkWidget          *iochart_timeline_view_new            (void);
/* capture: the block I/O (may be NULL with a boot chart); bootchart: draws the boot chart. */
void                iochart_timeline_view_set_data       (IochartTimelineView *self,
                                                          IochartCapture      *capture,
                                                          IochartBootchart    *bootchart);
/* The bin index of the picked device of the capture set next (built in the load worker, so that
 * the first layout does not build it without progress); call it before set_data. */
void                iochart_timeline_view_set_index      (IochartTimelineView *self,
                                                          IochartBinIndex     *index);
/* device: capture index, -1 the one the chart picks; pids/comms: lanes kept (NULL: all). */
void                iochart_timeline_view_set_filter     (IochartTimelineView *self,
                                                          int                  device,
                                                          GArray              *pids,
                                                          GStrv                comms);
void                iochart_timeline_view_set_dark       (IochartTimelineView *self,
                                                          gboolean             dark);

/* Times are absolute capture times, or time since boot for a boot chart. */
void                iochart_timeline_view_get_full_range (IochartTimelineView *self,
                                                          gint64              *from_ns,
                                                          gint64              *to_ns);
/* Widens (or narrows) how far the view zooms out: the runs of a what-if share one time scale. */
void                iochart_timeline_view_set_full_range (IochartTimelineView *self,
                                                          gint64               from_ns,
                                                          gint64               to_ns);
void                iochart_timeline_view_get_range      (IochartTimelineView *self,
                                                          gint64              *from_ns,
                                                          gint64              *to_ns);
void                iochart_timeline_view_set_range      (IochartTimelineView *self,
                                                          gint64               from_ns,
                                                          gint64               to_ns);
/* Zooms by factor (>1 in) keeping the time under anchor (0..1 of the plot) in place. */
void                iochart_timeline_view_zoom           (IochartTimelineView *self,
                                                          double               factor,
                                                          double               anchor);
/* Pans by a fraction of the visible span (negative: earlier). */
void                iochart_timeline_view_pan            (IochartTimelineView *self,
                                                          double               fraction);
void                iochart_timeline_view_zoom_fit       (IochartTimelineView *self);

gboolean            iochart_timeline_view_get_selection  (IochartTimelineView *self,
                                                          gint64              *from_ns,
                                                          gint64              *to_ns);
void                iochart_timeline_view_set_selection  (IochartTimelineView *self,
                                                          gint64               from_ns,
                                                          gint64               to_ns);
void                iochart_timeline_view_clear_selection (IochartTimelineView *self);
void                iochart_timeline_view_zoom_to_selection (IochartTimelineView *self);
/* The lane clicked last in the chart drawn now, -1: none; its head process stays highlighted
 * (its requests drawn apart in every strip) through zooms and filters. */
int                 iochart_timeline_view_get_highlighted_lane (IochartTimelineView *self);
guint32             iochart_timeline_view_get_highlighted_process (IochartTimelineView *self);
/* As a click on lane (an index in the chart drawn now; -1 clears). */
void                iochart_timeline_view_activate_lane  (IochartTimelineView *self,
                                                          int                  lane);
void                iochart_timeline_view_set_lane_order (IochartTimelineView *self,
                                                          IochartLaneOrder     order);
IochartLaneOrder    iochart_timeline_view_get_lane_order (IochartTimelineView *self);
/* The lane headed by process head shown as one lane per process, or folded back. */
void                iochart_timeline_view_set_expanded   (IochartTimelineView *self,
                                                          guint32              head,
                                                          gboolean             expanded);
gboolean            iochart_timeline_view_is_expanded    (IochartTimelineView *self,
                                                          guint32              head);

/* The capture grew (a live recording), in place or into capture (a newer copy of it): the full
 * range follows it; the selection stays, and so does the visible range, or with
 * follow_span_ns > 0 it becomes the last follow_span_ns (one layout for both). Data derived
 * from the capture must be derived again. */
void                iochart_timeline_view_data_changed   (IochartTimelineView *self,
                                                          IochartCapture      *capture,
                                                          gint64               follow_span_ns);
/* TRUE while a worker lays out a chart from capture: whoever changes it in place (a live
 * recording) waits until it is done. */
gboolean            iochart_timeline_view_is_reading     (IochartTimelineView *self,
                                                          IochartCapture      *capture);

/* TRUE while the exact chart of the current range and filters is being laid out. */
gboolean            iochart_timeline_view_is_drawing     (IochartTimelineView *self);
/* Emitted ("drawn") when it arrives. What is drawn now (NULL before the first layout). The view is NULL for a boot chart. */
IochartView        *iochart_timeline_view_get_view       (IochartTimelineView *self);
IochartDisplayList *iochart_timeline_view_get_display_list (IochartTimelineView *self);
/* What the tooltip at (x, y) tells of the requests there when over a lane's band (the core's
 * iochart_view_describe_requests for the pixel's time), or NULL. */
char               *iochart_timeline_view_describe_at (IochartTimelineView *self,
                                                       double               x,
                                                       double               y);
/* Tick labels count from here: the capture's start, or boot. */
gint64              iochart_timeline_view_get_origin_ns  (IochartTimelineView *self);
/* The display list of the chart at width pixels, for export. */
IochartDisplayList *iochart_timeline_view_draw_at        (IochartTimelineView *self,
                                                          guint                width,
                                                          GError             **error);

G_END_DECLS
