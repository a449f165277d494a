/* iochart-chart.h: a view laid out as one picture, into a display list
 *
 * Top to bottom on one time axis: a header (capture, device, span, totals per class, idle steal
 * figures and the legend), throughput stacked by class (reads up, writes down), IOPS, requests in
 * flight, latency p50/p99, the stolen share, the sector map, then one lane per process group.
 * Intervals where idle I/O took device capacity from waiting foreground I/O are shaded across
 * every strip.
 */
#pragma once

#include "iochart-display-list.h"
#include "iochart-blocks.h"
#include "iochart-view.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_THEME_LIGHT,
  IOCHART_THEME_DARK,
} IochartTheme;

typedef struct {
  const char              *title;       /* NULL: the capture's name */
  IochartTheme             theme;
  const IochartBlocksMark *marks;       /* labelled lines at times on the capture's clock, in time order */
  guint                    n_marks;
  gboolean                 fixed_ruler; /* a widget keeps iochart_chart_draw_ruler() above: no top axis */
  /* what the header tells its reader to do, in the words of where it is read; NULL: the CLI's */
  const char              *device_hint; /* how to choose the device: "--device" */
  const char              *class_hint;  /* about requests with no class: "give --class, or a capture
                                         * of the same run that has it" */
} IochartChartStyle;

#define IOCHART_CHART_STYLE_INIT { .title = NULL, .theme = IOCHART_THEME_LIGHT, .marks = NULL, .n_marks = 0, \
                                   .fixed_ruler = FALSE, .device_hint = NULL, .class_hint = NULL }

gboolean            iochart_theme_from_name (const char              *name,
                                             IochartTheme            *theme);

IochartDisplayList *iochart_chart_draw      (IochartView             *view,
                                             const IochartChartStyle *style);

/* The time ruler over a drawn chart's plot (the I/O chart or the boot chart) for from..to,
 * height pixels tall, for a widget that keeps it in view while the chart scrolls; ticks count
 * from origin_ns. */
IochartDisplayList *iochart_chart_draw_ruler (IochartDisplayList      *chart,
                                              gint64                   from_ns,
                                              gint64                   to_ns,
                                              gint64                   origin_ns,
                                              IochartTheme             theme,
                                              double                   height);

/* The theme's base colours, for other charts drawn with the same blocks (diff, report). */
const IochartBlocksColors *iochart_chart_colors (IochartTheme theme);

/* The colour-blind-safe (Okabe-Ito) colour of a class in a theme, 0xRRGGBBAA. */
guint32             iochart_class_color     (IochartTheme             theme,
                                             IochartClass             klass);

G_END_DECLS
