/* iochart-range-panel.h: the figures of the selected range, per class, process and lane, and the
 * steal episodes to jump to; every figure comes from the core (summary, steal, lanes) */
#pragma once

#include <adwaita.h>
#include "iochart-summary.h"
#include "analysis/iochart-steal.h"
#include "analysis/iochart-lanes.h"
#include "bootchart/iochart-bootchart-range.h"

G_BEGIN_DECLS

#define IOCHART_TYPE_RANGE_PANEL (iochart_range_panel_get_type ())
G_DECLARE_FINAL_TYPE (IochartRangePanel, iochart_range_panel, IOCHART, RANGE_PANEL, GtkBox)

GtkWidget *iochart_range_panel_new          (void);
/* The range's figures: summary (taken) and steal of the same device and range (steal may be NULL). */
void       iochart_range_panel_set_figures  (IochartRangePanel    *self,
                                             const char           *range_text,
                                             IochartSummary       *summary,
                                             IochartSteal         *steal);
/* A boot chart's range: its processes, disks and CPU (range, taken), and the block I/O of the same
 * boot in that range (summary, taken; NULL without one) with its idle steal on the device the
 * chart draws (steal, NULL without block I/O). No lanes or steal episodes. */
void       iochart_range_panel_set_boot_figures (IochartRangePanel     *self,
                                                 const char            *range_text,
                                                 IochartBootchartRange *range,
                                                 IochartSummary        *summary,
                                                 IochartSteal          *steal);
/* The boot chart's range figures it was given last, for tests; NULL for an I/O chart. */
const IochartBootchartRange *iochart_range_panel_get_boot_range (IochartRangePanel *self);
/* The clicked lane (lane of the view's lanes, or -1), with its figures over [from_ns, to_ns]:
 * the selection when selected, as the lanes' table has them, else the view (figures may be the
 * view's lane itself); figures NULL when the lane issued nothing there. */
void       iochart_range_panel_set_lane     (IochartRangePanel    *self,
                                             IochartLanes         *lanes,
                                             int                   lane,
                                             const IochartLane    *figures,
                                             gint64                from_ns,
                                             gint64                to_ns,
                                             gboolean              selected);
/* Episodes of the whole capture: a row each, "episode-activated" (index) when chosen. */
void       iochart_range_panel_set_episodes (IochartRangePanel    *self,
                                             IochartSteal         *steal,
                                             gint64                origin_ns);
/* What the panel shows, for tests: the summary it was given last. */
const IochartSummary *iochart_range_panel_get_summary (IochartRangePanel *self);
/* The idle steal line and the lanes' grid (a lane's row, then its latency line), as shown. */
const char           *iochart_range_panel_get_steal_text (IochartRangePanel *self);
/* The clicked lane's figures, as shown. */
const char           *iochart_range_panel_get_lane_text  (IochartRangePanel *self);
/* Scrolls the clicked lane's figures into view; TRUE when it had to. */
gboolean              iochart_range_panel_reveal_lane    (IochartRangePanel *self);
GtkGrid              *iochart_range_panel_get_lane_grid  (IochartRangePanel *self);

G_END_DECLS
