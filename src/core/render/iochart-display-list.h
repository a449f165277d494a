/* iochart-display-list.h: what a chart draws, independent of where it is drawn
 *
 * The chart renderer lays a view out into a flat list of rects, lines, polygons, text and
 * raster images, each with an optional tooltip and metadata; the cairo backend (PNG, PDF, the
 * GTK widget) and the SVG writer each walk the same list. Groups nest items under one tooltip.
 * Coordinates are pixels, y down. Colours are 0xRRGGBBAA.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every label is drawn and measured in this face, so layouts (and goldens) are stable. */
#define IOCHART_FONT_FAMILY "DejaVu Sans"

typedef enum {
  IOCHART_DL_RECT,
  IOCHART_DL_LINE,        /* x,y -> x2,y2 */
  IOCHART_DL_POLYGON,     /* points, filled */
  IOCHART_DL_POLYLINE,    /* points, stroked */
  IOCHART_DL_TEXT,        /* x,y: anchor point on the baseline; w,h: the measured box */
  IOCHART_DL_IMAGE,       /* x,y,w,h; ARGB32 pixels (premultiplied, cairo's layout) */
  IOCHART_DL_GROUP_BEGIN, /* tooltip/meta apply to everything until the matching end */
  IOCHART_DL_GROUP_END,
} IochartDlKind;

typedef enum {
  IOCHART_ANCHOR_START,
  IOCHART_ANCHOR_MIDDLE,
  IOCHART_ANCHOR_END,
} IochartAnchor;

typedef struct {
  IochartDlKind kind;
  double        x, y, w, h;
  double        x2, y2;
  guint32       fill;          /* 0: none */
  guint32       stroke;        /* 0: none */
  double        line_width;
  gboolean      dashed;
  double       *points;        /* x0,y0,x1,y1,... */
  guint         n_points;
  char         *text;
  double        font_size;
  gboolean      bold;
  IochartAnchor anchor;
  guint8       *pixels;        /* IMAGE: stride * h_px bytes */
  int           width_px, height_px, stride;
  char         *tooltip;       /* SVG <title>, widget tooltips */
  char         *meta;          /* "lane:3", "episode:12": what an item stands for */
} IochartDlItem;

typedef struct _IochartDisplayList IochartDisplayList;

IochartDisplayList *iochart_display_list_new      (double               width,
                                                   double               height);
void                iochart_display_list_free     (IochartDisplayList  *dl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartDisplayList, iochart_display_list_free)

double              iochart_display_list_get_width  (IochartDisplayList *dl);
double              iochart_display_list_get_height (IochartDisplayList *dl);
void                iochart_display_list_set_height (IochartDisplayList *dl,
                                                     double              height);
guint32             iochart_display_list_get_background (IochartDisplayList *dl);
void                iochart_display_list_set_background (IochartDisplayList *dl,
                                                         guint32             rgba);

guint               iochart_display_list_get_n_items (IochartDisplayList *dl);
const IochartDlItem *iochart_display_list_get_item  (IochartDisplayList *dl,
                                                     guint               i);

/* Moves every item of from to the end of dl, leaving from empty. */
void                iochart_display_list_append_list (IochartDisplayList *dl,
                                                      IochartDisplayList *from);

/* Moves every item by (dx, dy): charts stacked one above the other. */
void                iochart_display_list_translate   (IochartDisplayList *dl,
                                                      double              dx,
                                                      double              dy);
/* Each adder returns the new item so that callers can set tooltip/meta with the setters. */
IochartDlItem      *iochart_display_list_rect     (IochartDisplayList  *dl,
                                                   double x, double y, double w, double h,
                                                   guint32 fill, guint32 stroke);
IochartDlItem      *iochart_display_list_line     (IochartDisplayList  *dl,
                                                   double x, double y, double x2, double y2,
                                                   guint32 stroke, double line_width);
/* Takes points (x,y pairs). */
IochartDlItem      *iochart_display_list_polygon  (IochartDisplayList  *dl,
                                                   double              *points,
                                                   guint                n_points,
                                                   guint32              fill);
IochartDlItem      *iochart_display_list_polyline (IochartDisplayList  *dl,
                                                   double              *points,
                                                   guint                n_points,
                                                   guint32              stroke,
                                                   double               line_width);
IochartDlItem      *iochart_display_list_text     (IochartDisplayList  *dl,
                                                   double x, double y,
                                                   const char          *text,
                                                   double               font_size,
                                                   gboolean             bold,
                                                   IochartAnchor        anchor,
                                                   guint32              fill);
/* Takes pixels. */
IochartDlItem      *iochart_display_list_image    (IochartDisplayList  *dl,
                                                   double x, double y, double w, double h,
                                                   guint8              *pixels,
                                                   int width_px, int height_px, int stride);
IochartDlItem      *iochart_display_list_begin_group (IochartDisplayList *dl,
                                                      const char        *tooltip,
                                                      const char        *meta);
void                iochart_display_list_end_group   (IochartDisplayList *dl);

void                iochart_dl_item_set_tooltip   (IochartDlItem       *item,
                                                   const char          *tooltip);
void                iochart_dl_item_set_meta      (IochartDlItem       *item,
                                                   const char          *meta);

/* The box a text item covers: from its measured advance and the font's ascent and descent. */
void                iochart_dl_item_text_box      (const IochartDlItem *item,
                                                   double *x, double *y, double *w, double *h);

/* Headless text measurement in IOCHART_FONT_FAMILY (cairo's font API on an image surface, or
 * the same figures from a table of the pinned faces: iochart-font-metrics.c). */
double              iochart_text_width            (const char          *text,
                                                   double               font_size,
                                                   gboolean             bold);
/* Starts what the first measurement needs (loading cairo, fontconfig reading its configuration:
 * milliseconds) on a thread of its own, for a program to call before it loads a capture that it
 * will draw; the first measurement waits for it. Nothing when the pinned faces' table measures
 * and the program draws nothing with cairo (cairo_drawing FALSE: SVG only). */
void                iochart_text_prepare          (gboolean             cairo_drawing);
/* Ascent and descent of the font at a size. */
void                iochart_font_extents          (double               font_size,
                                                   double              *ascent,
                                                   double              *descent);
/* Cuts text at a character boundary and adds "…" so that it fits max_width. */
char               *iochart_text_ellipsize        (const char          *text,
                                                   double               font_size,
                                                   gboolean             bold,
                                                   double               max_width);

/* Indices of the first pair of text items whose boxes intersect; FALSE when none do. */
gboolean            iochart_display_list_find_text_overlap (IochartDisplayList *dl,
                                                            guint              *a,
                                                            guint              *b);

/* Where the chart's time axis lies: the plot's left and width in pixels and the times at its
 * edges; charts set it, widgets map the pointer through it. FALSE when the list has none. */
void                iochart_display_list_set_time_axis (IochartDisplayList *dl,
                                                        double x0, double width,
                                                        gint64 from_ns, gint64 to_ns);
gboolean            iochart_display_list_get_time_axis (IochartDisplayList *dl,
                                                        double *x0, double *width,
                                                        gint64 *from_ns, gint64 *to_ns);
/* The text that tells the range the list shows ("0 s – 1.8 s" in "device 7,1 · 0 s – 1.8 s of a
 * 1.8 s capture"): the first text holding the ends of from_ns..to_ns counted from origin_ns, as
 * durations read. A drawing of the list for another range (iochart_cairo_draw_warped) writes
 * that range's ends there. FALSE when no text holds them. */
gboolean            iochart_display_list_set_range_text (IochartDisplayList *dl,
                                                         gint64              from_ns,
                                                         gint64              to_ns,
                                                         gint64              origin_ns);
/* That text as it reads for the range from_ns..to_ns, and in *item its index; NULL when the list
 * has none. */
char               *iochart_display_list_range_text     (IochartDisplayList *dl,
                                                         gint64              from_ns,
                                                         gint64              to_ns,
                                                         guint              *item);
/* Where the plot's rows start: what lies above (title, legend) is no part of the time axis. */
void                iochart_display_list_set_plot_top  (IochartDisplayList *dl,
                                                        double              y);
double              iochart_display_list_get_plot_top  (IochartDisplayList *dl);
/* The topmost item at (x, y) that has a tooltip or meta; an item inside a group answers with
 * its group when it has neither. NULL when none. */
const IochartDlItem *iochart_display_list_hit         (IochartDisplayList *dl,
                                                        double x, double y);

/* A stable, line-per-item dump for golden tests. */
char               *iochart_display_list_to_text  (IochartDisplayList  *dl);

G_END_DECLS
