/* iochart-blocks.h: the building blocks every chart is made of
 *
 * The I/O chart, the boot chart and the app's timeline compose the same pieces on one time
 * axis: header lines, a legend of swatches, framed strips with a title, subtitles and ticks,
 * areas and lines over pixel columns, the time ruler with its grid, section headings and run
 * shading across all strips. A chart fills an IochartBlocks (its plot geometry, time range and
 * colours), lays itself out with these calls and finishes into one display list.
 */
#pragma once

#include "iochart-display-list.h"
#include "iochart-labels.h"
#include "iochart-types.h"
#include "analysis/iochart-time-split.h"

G_BEGIN_DECLS

#define IOCHART_BLOCKS_MARGIN     12.0
#define IOCHART_BLOCKS_FONT       11.0
#define IOCHART_BLOCKS_FONT_SMALL 10.0
#define IOCHART_STEAL_COLOR       0xd55e00ffu   /* vermillion */

/* The colours every block uses; charts extend it with their own. */
typedef struct {
  guint32 bg, fg, dim, grid, frame, steal_shade;
} IochartBlocksColors;

typedef struct {
  IochartDisplayList        *under;     /* grid and shading, drawn first */
  IochartDisplayList        *dl;
  IochartLabels             *labels;    /* placed last, never overlapping */
  double                     width;
  double                     x0;        /* left of the plot */
  guint                      n;         /* plot columns */
  gint64                     from_ns, to_ns;
  gint64                     origin_ns; /* tick labels count from here */
  double                     y;         /* layout cursor */
  double                     plot_top, plot_bottom;
  const IochartBlocksColors *colors;
} IochartBlocks;

/* Stacking order of classes, bottom up: idle on top of the foreground it competes with. */
extern const IochartClass iochart_blocks_stack_order[IOCHART_N_CLASSES];

guint32  iochart_rgba_with_alpha      (guint32 rgba, guint8 alpha);

/* What the time-split bar's colours mean, for a section's note. */
#define IOCHART_BLOCKS_TIME_SPLIT_HELP "Bar under a name: its time running (strongest grey), waiting for a " \
                                       "CPU (orange), for I/O (brown), in other D state (tan), asleep (faint grey)."

void     iochart_blocks_init          (IochartBlocks *b, const IochartBlocksColors *colors,
                                       double width, double x0, guint n,
                                       gint64 from_ns, gint64 to_ns, gint64 origin_ns);
/* Frees what init made; safe after finish. */
void     iochart_blocks_clear         (IochartBlocks *b);
/* The chart as one list: background, under, items, then the labels that fit. */
IochartDisplayList *iochart_blocks_finish (IochartBlocks *b);

void     iochart_blocks_label         (IochartBlocks *b, double x, double y, const char *text,
                                       double size, gboolean bold, IochartAnchor anchor,
                                       guint32 fill, int priority, const char *tooltip);
double   iochart_blocks_time_x        (IochartBlocks *b, gint64 ns);
double   iochart_blocks_ns_per_column (IochartBlocks *b);
/* The x a column's value is drawn at: the plot's edges for the first and last. */
double   iochart_blocks_col_center    (IochartBlocks *b, guint i);
/* Drops the middle of runs of points at one height (x,y pairs). */
void     iochart_blocks_simplify      (GArray *points);

/* The area between lo (NULL: 0) and hi, a pixel column wide per value, drawn at base_y - v * scale;
 * NULL when empty. */
IochartDlItem *iochart_blocks_area    (IochartBlocks *b, const double *lo, const double *hi,
                                       double base_y, double scale, guint32 fill, const char *tooltip);
IochartDlItem *iochart_blocks_polyline (IochartBlocks *b, const double *v, double base_y, double scale,
                                        guint32 stroke, double line_width, const char *tooltip);

/* The width left of the plot for a strip's labels, beside tick labels as wide as widest_tick
 * (NULL: none beside them). */
double   iochart_blocks_label_room    (IochartBlocks *b, const char *widest_tick);
/* The least strip height that shows all of the subtitles (NULL-terminated), each wrapped to room. */
double   iochart_blocks_subtitles_height (const char *const *subtitles, double room);
/* A framed strip: the title (cut to room and the top tick's side, with the full text as tooltip),
 * subtitle lines wrapped to room (NULL-terminated; those past its height cut), and the top,
 * middle and bottom tick labels left of the plot. */
void     iochart_blocks_strip_frame   (IochartBlocks *b, double top, double h, double room,
                                       const char *title, const char *const *subtitles,
                                       const char *top_tick, const char *mid_tick,
                                       const char *bottom_tick);

/* Tick labels of the time axis at y_labels; with grid, vertical lines over the plot. */
void     iochart_blocks_time_axis     (IochartBlocks *b, double y_labels, gboolean grid);
/* One tick label: in the unit the step needs, seconds once the axis reaches them. */
char    *iochart_blocks_format_tick   (double rel_ns, double step_ns, double last_ns);

/* Words of text on as many lines as width needs (a word wider than a line is cut with "…"). */
GPtrArray *iochart_text_wrap          (const char *text, double size, gboolean bold, double width);

/* A header line across the chart, wrapped to its width; the cursor ends on its last baseline. */
void     iochart_blocks_header_line   (IochartBlocks *b, const char *text, double size,
                                       gboolean bold, guint32 color, const char *tooltip);
/* A bold section heading and a note under it, wrapped to the chart's width; the cursor moves below. */
void     iochart_blocks_section_title (IochartBlocks *b, const char *title, const char *subtitle);

typedef struct {
  const char *text;
  guint32     color;     /* 0: a note without a swatch */
  const char *tooltip;
} IochartLegendItem;

/* Swatches with their labels, wrapped onto as many lines as the width needs. */
void     iochart_blocks_legend        (IochartBlocks *b, const IochartLegendItem *items, guint n_items,
                                       guint32 swatch_frame);

/* Runs of columns with a value above 0 (one-column gaps bridged) shaded across the plot;
 * tip gives each run's tooltip and meta. */
typedef void (*IochartBlocksRunTip) (IochartBlocks *b, guint c0, guint c1, char **tooltip, char **meta,
                                     gpointer user_data);
void     iochart_blocks_shade_runs    (IochartBlocks *b, const double *columns, double min_width,
                                       IochartBlocksRunTip tip, gpointer user_data);

/* A labelled vertical line at a time: "boot done", a user's annotation, the longest steal episode. */
typedef struct {
  gint64      ns;
  const char *label;
  const char *tooltip;
  gboolean    strong;    /* bold label, solid line; others are dashed */
} IochartBlocksMark;

/* Mark labels in rows from top, each in the first row where it fits so that none overlap, with a
 * tick down to the plot; returns the band's height. marks are in time order. */
double   iochart_blocks_marks_band    (IochartBlocks *b, const IochartBlocksMark *marks, guint n_marks,
                                       double top, guint32 color, guint32 strong_color);
/* The marks' lines across the plot, from plot_top to plot_bottom. */
void     iochart_blocks_mark_lines    (IochartBlocks *b, const IochartBlocksMark *marks, guint n_marks,
                                       guint32 color, guint32 strong_color);

/* Where a lane's or a process's time went: a 2-pixel bar w wide at (x, y), a piece per share of
 * its time split, its tooltip "where WHOSE time went: 12% running · …". Nothing when s has no life. */
void     iochart_blocks_time_split_bar (IochartBlocks *b, double x, double y, double w,
                                        const IochartTimeSplit *s, const char *whose);

G_END_DECLS
