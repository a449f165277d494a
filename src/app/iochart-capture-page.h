/* iochart-capture-page.h: one tab: loading with progress and Cancel, the reader's error, or the
 * chart with its filters, time ruler and the selection's figures */
#pragma once

#include <adwaita.h>
#include "iochart-timeline-view.h"
#include "iochart-range-panel.h"
#include "iochart-whatif-panel.h"

G_BEGIN_DECLS

#define IOCHART_TYPE_CAPTURE_PAGE (iochart_capture_page_get_type ())
G_DECLARE_FINAL_TYPE (IochartCapturePage, iochart_capture_page, IOCHART, CAPTURE_PAGE, GtkBox)

IochartCapturePage  *iochart_capture_page_new           (void);
/* Loads the files (one capture, side captures of the same run with it) in a worker thread. */
void                 iochart_capture_page_load          (IochartCapturePage *self,
                                                         GFile             **files,
                                                         int                 n_files);
void                 iochart_capture_page_cancel        (IochartCapturePage *self);
/* A capture built elsewhere (a live recording's), shown as a loaded one under title. */
void                 iochart_capture_page_show_capture  (IochartCapturePage *self,
                                                         IochartCapture     *capture,
                                                         const char         *title);
/* The capture shown grew, in place or into capture (a newer copy): the chart, the device list
 * and (with episodes) the steal episodes follow; the selection stays, and the range too or,
 * with follow_span_ns > 0, it becomes the last follow_span_ns. The figures are the caller's to
 * update (iochart_capture_page_update_figures). */
void                 iochart_capture_page_capture_changed (IochartCapturePage *self,
                                                         IochartCapture     *capture,
                                                         gboolean            episodes,
                                                         gint64              follow_span_ns);
const char          *iochart_capture_page_get_title     (IochartCapturePage *self);
gboolean             iochart_capture_page_is_loading    (IochartCapturePage *self);
gboolean             iochart_capture_page_is_ready      (IochartCapturePage *self);
/* The error the load ended with, or NULL. */
const GError        *iochart_capture_page_get_error     (IochartCapturePage *self);
/* "zoom-in", "zoom-out", "zoom-fit", "zoom-selection", "pan-left", "pan-right", "find",
 * "sort-first-io", "sort-bytes", "sort-stolen", "expand-lane" (the clicked lane, or fold it back),
 * "whatif-run" (the what-if panel's choices), "whatif-cancel". */
void                 iochart_capture_page_activate      (IochartCapturePage *self,
                                                         const char         *action);
/* The view as SVG, PNG or PDF (by the name's extension), through the CLI's backends. */
gboolean             iochart_capture_page_export        (IochartCapturePage *self,
                                                         const char         *path,
                                                         GError            **error);
/* Puts the clicked lane's figures (the core's summary over the selection, else the view) on the
 * clipboard and returns them; NULL without a lane. */
char                *iochart_capture_page_copy_lane     (IochartCapturePage *self);
/* The device filter (a capture device index, -1: the busiest) and the class filter (an
 * IochartClass, -1: every class), as chosen in their drop-downs. */
void                 iochart_capture_page_set_filters   (IochartCapturePage *self,
                                                         int                 device,
                                                         int                 klass);
void                 iochart_capture_page_set_search    (IochartCapturePage *self,
                                                         const char         *text);
/* Recomputes the side panel's figures now (they follow the selection after a short delay). */
void                 iochart_capture_page_update_figures (IochartCapturePage *self);
IochartTimelineView *iochart_capture_page_get_timeline  (IochartCapturePage *self);
IochartRangePanel   *iochart_capture_page_get_panel     (IochartCapturePage *self);
IochartWhatifPanel  *iochart_capture_page_get_whatif    (IochartCapturePage *self);
/* The simulated runs' charts under the observed one (IochartTimelineView). */
GPtrArray           *iochart_capture_page_get_sim_views (IochartCapturePage *self);

G_END_DECLS
