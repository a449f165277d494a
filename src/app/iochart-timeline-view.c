/* iochart-timeline-view.c: zoom, pan, selection and tooltips over the core's chart */
#include <glib/gi18n.h>
#include <math.h>
#include "iochart-timeline-view.h"
#include "render/iochart-cairo.h"
#include "render/iochart-chart.h"
#include "bootchart/iochart-bootchart-chart.h"

/* The app shows more lanes than a headless chart's default: it scrolls. */
#define APP_TOP_LANES 24
/* The worker draws a chart up to this many pixels into an image the frames then copy. */
#define MAX_IMAGE_PIXELS (16 << 20)

struct _IochartTimelineView {
  GtkWidget           parent_instance;
  IochartCapture     *capture;
  IochartBootchart   *bootchart;
  int                 device;
  GArray             *pids;
  GStrv               comms;
  gboolean            dark;
  gint64              full_from, full_to;
  gint64              from, to;
  gboolean            has_selection;
  gint64              sel_from, sel_to;
  int                 lane;
  guint32             highlight;       /* head of the clicked lane: its requests stand out */
  IochartLaneOrder    order;
  GArray             *expanded;        /* guint32 heads of the lanes shown as their processes */
  /* the last chart drawn, for dl_from..dl_to at dl_width; a newer one may be in the works */
  IochartView        *view;
  IochartDisplayList *dl;
  cairo_surface_t    *image;           /* dl drawn by the worker at image_scale, or NULL */
  int                 image_scale;
  IochartBinIndex    *index;           /* the charted device's, built by the first layout */
  gboolean            index_auto;      /* built for the device picked when none is chosen */
  int                 dl_width;
  gint64              dl_from, dl_to;
  guint               generation;      /* bumped by every change of data, filter or style */
  guint               dl_generation;
  gboolean            building;
  IochartCapture     *building_capture; /* the capture that layout reads (not held) */
  gint               *building_read;   /* the layout's: set once it no longer reads it */
  int                 want_width;
  GtkAdjustment      *vadj;            /* the scrolled window's, while mapped: a scroll redraws */
  /* pointer and drag state */
  double              pointer_x;
  enum { DRAG_NONE, DRAG_SELECT, DRAG_PAN } drag;
  double              drag_x;
  gint64              drag_from, drag_to;
  double              pinch_anchor;
};

G_DEFINE_FINAL_TYPE (IochartTimelineView, iochart_timeline_view, GTK_TYPE_WIDGET)

enum { CHANGED, SELECTION_CHANGED, LANE_ACTIVATED, DRAWN, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- building the chart, in a worker thread ----
 *
 * A frame never waits for the core: it draws the last chart warped to the current range
 * (iochart_cairo_draw_warped) while a worker lays out the exact one. */

typedef struct {
  IochartCapture   *capture;
  IochartBootchart *bootchart;
  int               device;
  GArray           *pids;
  gboolean          dark;
  guint32           highlight;
  IochartLaneOrder  order;
  GArray           *expanded;
  gint64            from, to;
  guint             width;
  gboolean          exporting;   /* no fixed ruler above it: the chart draws its own top axis */
  int               scale;       /* the widget's scale factor: the image's pixels per unit */
  guint             generation;
  IochartBinIndex  *index;     /* the device's index, or NULL: the worker builds it */
  gboolean          index_auto;
  IochartView      *view;      /* results */
  IochartDisplayList *dl;
  cairo_surface_t  *image;
  gint              read;        /* the capture is read (atomic): the image is being drawn */
  GError           *error;
} Build;

static void
build_free (Build *b)
{
  g_clear_object (&b->capture);
  g_clear_object (&b->bootchart);
  g_clear_pointer (&b->pids, g_array_unref);
  g_clear_pointer (&b->index, iochart_bin_index_unref);
  g_clear_pointer (&b->expanded, g_array_unref);
  g_clear_pointer (&b->view, iochart_view_free);
  g_clear_pointer (&b->dl, iochart_display_list_free);
  g_clear_pointer (&b->image, cairo_surface_destroy);
  g_clear_error (&b->error);
  g_free (b);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Build, build_free)

/* The index of the device the chart shows, built once: zoom and pan then cost pixels. */
static void
ensure_index (Build *b)
{
  int device;

  /* with no device chosen the index is the picked one's: picking again walks every request */
  if (b->index && (b->device < 0 ? b->index_auto : iochart_bin_index_get_device (b->index) == b->device))
    return;
  device = b->device >= 0 ? b->device : iochart_steal_pick_device (b->capture);
  g_clear_pointer (&b->index, iochart_bin_index_unref);
  if (device >= 0)
    b->index = iochart_bin_index_new (b->capture, device, IOCHART_LATENCY_Q2C);
  b->index_auto = b->device < 0;
}

static IochartDisplayList *
draw_chart (Build *b, IochartView **view_out, GError **error)
{
  if (b->bootchart)
    {
      IochartBootchartChartOptions o = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;

      o.width = b->width;
      o.theme = b->dark ? IOCHART_THEME_DARK : IOCHART_THEME_LIGHT;
      o.from_ns = b->from;
      o.to_ns = b->to;
      o.fixed_ruler = !b->exporting;
      return iochart_bootchart_chart_draw (b->bootchart, b->capture, &o, error);
    }
  else
    {
      IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
      IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
      IochartView *view;
      IochartDisplayList *dl;

      vo.width = b->width;
      vo.device = b->device;
      vo.from_ns = b->from;
      vo.to_ns = b->to;
      vo.lanes.top_n = APP_TOP_LANES;
      ensure_index (b);
      vo.index = b->index;
      vo.lanes.order = b->order;
      vo.highlight = b->highlight;
      if (b->expanded && b->expanded->len > 0)
        {
          vo.lanes.expand = (const guint32 *) b->expanded->data;
          vo.lanes.n_expand = b->expanded->len;
        }
      if (b->pids && b->pids->len > 0)
        {
          vo.lanes.pids = (const gint32 *) b->pids->data;
          vo.lanes.n_pids = b->pids->len;
        }
      style.theme = b->dark ? IOCHART_THEME_DARK : IOCHART_THEME_LIGHT;
      style.fixed_ruler = !b->exporting;
      /* the app has no --device nor --class: say what its reader can do there */
      style.device_hint = _("the device list");
      style.class_hint = _("open blktrace files with a .dat of the same run: it has them");
      view = iochart_view_new (b->capture, &vo);
      dl = iochart_chart_draw (view, &style);
      if (view_out)
        *view_out = view;
      else
        iochart_view_free (view);
      return dl;
    }
}

static Build *
build_new (IochartTimelineView *self, int width)
{
  Build *b = g_new0 (Build, 1);

  b->capture = self->capture ? g_object_ref (self->capture) : NULL;
  b->bootchart = self->bootchart ? g_object_ref (self->bootchart) : NULL;
  b->device = self->device;
  b->pids = self->pids ? g_array_ref (self->pids) : NULL;
  b->dark = self->dark;
  b->highlight = self->highlight;
  b->order = self->order;
  b->expanded = self->expanded ? g_array_ref (self->expanded) : NULL;
  b->from = self->from;
  b->to = self->to;
  b->width = MAX (width, IOCHART_VIEW_MIN_WIDTH);
  b->generation = self->generation;
  b->index = self->index ? iochart_bin_index_ref (self->index) : NULL;
  b->index_auto = self->index_auto;
  b->scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  return b;
}

/* The chart in pixels, drawn here rather than by every frame on the UI thread (4-6 ms of CPU a
 * 1400x900 frame, bench/app-frames.c: the strips' areas, the labels, the shading); NULL when too
 * big to keep. */
static cairo_surface_t *
draw_image (IochartDisplayList *dl, int scale)
{
  int width = (int) ceil (iochart_display_list_get_width (dl) * scale);
  int height = (int) ceil (iochart_display_list_get_height (dl) * scale);

  if (width <= 0 || height <= 0 || (gint64) width * height > MAX_IMAGE_PIXELS)
    return NULL;
  return iochart_cairo_draw_image (dl, width, height, scale);
}

static void
build_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Build *b = data;

  b->dl = draw_chart (b, &b->view, &b->error);
  g_atomic_int_set (&b->read, TRUE);
  if (b->dl)
    b->image = draw_image (b->dl, b->scale);
  g_task_return_boolean (task, TRUE);
}

static void start_build (IochartTimelineView *self);
static void lane_follow_highlight (IochartTimelineView *self);

static gboolean
up_to_date (IochartTimelineView *self)
{
  return self->dl && self->dl_width == self->want_width && self->dl_from == self->from &&
         self->dl_to == self->to && self->dl_generation == self->generation;
}

static void
build_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (source);
  Build *b = g_task_get_task_data (G_TASK (result));
  double old_height = self->dl ? iochart_display_list_get_height (self->dl) : -1;

  self->building = FALSE;
  self->building_capture = NULL;
  self->building_read = NULL;
  if (b->dl)
    {
      g_clear_pointer (&self->dl, iochart_display_list_free);
      g_clear_pointer (&self->image, cairo_surface_destroy);
      g_clear_pointer (&self->view, iochart_view_free);
      self->dl = g_steal_pointer (&b->dl);
      self->image = g_steal_pointer (&b->image);
      self->image_scale = b->scale;
      self->view = g_steal_pointer (&b->view);
      self->dl_width = b->width;
      self->dl_from = b->from;
      self->dl_to = b->to;
      self->dl_generation = b->generation;
      lane_follow_highlight (self);
    }
  else
    g_warning ("%s", b->error ? b->error->message : "no chart");
  /* an index built before the data changed (a live capture grows in place) is stale */
  if (b->index && b->index != self->index && b->capture == self->capture && b->generation == self->generation)
    {
      g_clear_pointer (&self->index, iochart_bin_index_unref);
      self->index = iochart_bin_index_ref (b->index);
      self->index_auto = b->index_auto;
    }
  if (!up_to_date (self) && b->dl == NULL && b->generation == self->generation)
    ;   /* the same request failed: do not loop on it */
  else if (!up_to_date (self))
    start_build (self);
  if (self->dl && iochart_display_list_get_height (self->dl) != old_height)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  else if (!(self->building && b->generation != self->generation))
    gtk_widget_queue_draw (GTK_WIDGET (self));
  /* else the data changed during the layout (a live update): the next one draws */
  g_signal_emit (self, signals[DRAWN], 0);
}

static void
start_build (IochartTimelineView *self)
{
  g_autoptr(GTask) task = NULL;
  Build *b;

  if (self->building || (!self->capture && !self->bootchart) || self->want_width <= 0)
    return;
  self->building = TRUE;
  self->building_capture = self->capture;
  task = g_task_new (self, NULL, build_done, NULL);
  b = build_new (self, self->want_width);
  self->building_read = &b->read;
  g_task_set_task_data (task, b, (GDestroyNotify) build_free);
  g_task_run_in_thread (task, build_thread);
}

/* Asks for the chart at width for the current range; the frame meanwhile warps the last one. */
static void
ensure_chart (IochartTimelineView *self, int width)
{
  if (width > 0)
    self->want_width = width;
  if (!up_to_date (self))
    start_build (self);
}

static void
invalidate (IochartTimelineView *self)
{
  ensure_chart (self, self->want_width);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[CHANGED], 0);
}

/* A change that makes the last chart wrong, not only off in time. */
static void
invalidate_all (IochartTimelineView *self)
{
  self->generation++;
  invalidate (self);
}

gboolean
iochart_timeline_view_is_drawing (IochartTimelineView *self)
{
  return self->building || !up_to_date (self);
}

IochartDisplayList *
iochart_timeline_view_draw_at (IochartTimelineView *self, guint width, GError **error)
{
  g_autoptr(Build) b = build_new (self, width);

  b->exporting = TRUE;
  return draw_chart (b, NULL, error);
}

/* ---- time and pixels ---- */

static gboolean
plot_axis (IochartTimelineView *self, double *x0, double *w)
{
  gint64 from, to;

  return self->dl && iochart_display_list_get_time_axis (self->dl, x0, w, &from, &to) && *w > 0;
}

static gint64
time_at (IochartTimelineView *self, double x)
{
  double x0, w;

  if (!plot_axis (self, &x0, &w))
    return self->from;
  x = CLAMP (x, x0, x0 + w);
  return self->from + (gint64) ((x - x0) / w * (double) (self->to - self->from));
}

static double
x_of (IochartTimelineView *self, gint64 t)
{
  double x0, w;

  if (!plot_axis (self, &x0, &w))
    return 0;
  return x0 + (double) (t - self->from) / (double) (self->to - self->from) * w;
}

/* ---- range ---- */

void
iochart_timeline_view_set_range (IochartTimelineView *self, gint64 from, gint64 to)
{
  gint64 span = MAX (to - from, IOCHART_TIMELINE_MIN_SPAN_NS);
  gint64 full = self->full_to - self->full_from;

  g_return_if_fail (IOCHART_IS_TIMELINE_VIEW (self));
  span = MIN (span, MAX (full, 1));
  from = CLAMP (from, self->full_from, self->full_to - span);
  if (from == self->from && from + span == self->to)
    return;
  self->from = from;
  self->to = from + span;
  invalidate (self);
}

void
iochart_timeline_view_get_range (IochartTimelineView *self, gint64 *from, gint64 *to)
{
  *from = self->from;
  *to = self->to;
}

void
iochart_timeline_view_get_full_range (IochartTimelineView *self, gint64 *from, gint64 *to)
{
  *from = self->full_from;
  *to = self->full_to;
}

void
iochart_timeline_view_zoom (IochartTimelineView *self, double factor, double anchor)
{
  double span = (double) (self->to - self->from);
  double t = self->from + anchor * span, new_span = span / factor;

  iochart_timeline_view_set_range (self, (gint64) (t - anchor * new_span), (gint64) (t + (1 - anchor) * new_span));
}

void
iochart_timeline_view_pan (IochartTimelineView *self, double fraction)
{
  gint64 d = (gint64) (fraction * (double) (self->to - self->from));

  iochart_timeline_view_set_range (self, self->from + d, self->to + d);
}

void
iochart_timeline_view_set_full_range (IochartTimelineView *self, gint64 from, gint64 to)
{
  self->full_from = from;
  self->full_to = MAX (to, from + 1);
  iochart_timeline_view_set_range (self, MAX (self->from, from), MIN (self->to, self->full_to));
}

void
iochart_timeline_view_zoom_fit (IochartTimelineView *self)
{
  iochart_timeline_view_set_range (self, self->full_from, self->full_to);
}

/* ---- selection and lanes ---- */

gboolean
iochart_timeline_view_get_selection (IochartTimelineView *self, gint64 *from, gint64 *to)
{
  *from = self->has_selection ? self->sel_from : self->from;
  *to = self->has_selection ? self->sel_to : self->to;
  return self->has_selection;
}

void
iochart_timeline_view_set_selection (IochartTimelineView *self, gint64 from, gint64 to)
{
  self->has_selection = TRUE;
  self->sel_from = MIN (from, to);
  self->sel_to = MAX (from, to);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
iochart_timeline_view_clear_selection (IochartTimelineView *self)
{
  self->has_selection = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
iochart_timeline_view_zoom_to_selection (IochartTimelineView *self)
{
  if (self->has_selection)
    iochart_timeline_view_set_range (self, self->sel_from, self->sel_to);
}

int
iochart_timeline_view_get_highlighted_lane (IochartTimelineView *self)
{
  return self->lane;
}

guint32
iochart_timeline_view_get_highlighted_process (IochartTimelineView *self)
{
  return self->highlight;
}

/* The lane holding the highlighted process in the chart drawn now (zooms change lane indices). */
static void
lane_follow_highlight (IochartTimelineView *self)
{
  if (self->highlight != IOCHART_NO_PROCESS && self->view)
    self->lane = iochart_view_get_highlight_lane (self->view);
}

void
iochart_timeline_view_activate_lane (IochartTimelineView *self, int lane)
{
  IochartLanes *lanes = self->view ? iochart_view_get_lanes (self->view) : NULL;

  if (lanes == NULL || lane < 0 || (guint) lane >= iochart_lanes_get_n_lanes (lanes))
    lane = -1;
  self->lane = lane;
  self->highlight = lane >= 0 ? iochart_lanes_get_lane (lanes, lane)->head : IOCHART_NO_PROCESS;
  invalidate_all (self);
  g_signal_emit (self, signals[LANE_ACTIVATED], 0, self->lane);
}

void
iochart_timeline_view_set_lane_order (IochartTimelineView *self, IochartLaneOrder order)
{
  if (self->order == order)
    return;
  self->order = order;
  invalidate_all (self);
}

IochartLaneOrder
iochart_timeline_view_get_lane_order (IochartTimelineView *self)
{
  return self->order;
}

static gboolean
find_expanded (IochartTimelineView *self, guint32 head, guint *index)
{
  for (guint i = 0; self->expanded && i < self->expanded->len; i++)
    if (g_array_index (self->expanded, guint32, i) == head)
      {
        *index = i;
        return TRUE;
      }
  return FALSE;
}

gboolean
iochart_timeline_view_is_expanded (IochartTimelineView *self, guint32 head)
{
  guint i;

  return head != IOCHART_NO_PROCESS && find_expanded (self, head, &i);
}

void
iochart_timeline_view_set_expanded (IochartTimelineView *self, guint32 head, gboolean expanded)
{
  /* a new array each time: a worker may be reading the last one */
  GArray *next = self->expanded ? g_array_copy (self->expanded) : g_array_new (FALSE, FALSE, sizeof (guint32));
  guint i;

  if (head == IOCHART_NO_PROCESS || expanded == iochart_timeline_view_is_expanded (self, head))
    {
      g_array_unref (next);
      return;
    }
  if (expanded)
    g_array_append_val (next, head);
  else if (find_expanded (self, head, &i))
    g_array_remove_index (next, i);
  g_clear_pointer (&self->expanded, g_array_unref);
  self->expanded = next;
  invalidate_all (self);
}

/* The group of the lane whose row holds y, or NULL: a click on its name or between its requests
 * means it too (only its drawn requests and class mark answer a hit). A row is its group's rects'
 * extent, the class mark's, and the few pixels to the next row. */
static const IochartDlItem *
lane_at_y (IochartTimelineView *self, double y)
{
  const IochartDlItem *group = NULL;
  double y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;

  for (guint i = 0; self->dl && i < iochart_display_list_get_n_items (self->dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (self->dl, i);

      if (item->kind == IOCHART_DL_GROUP_BEGIN)
        {
          group = item->meta && g_str_has_prefix (item->meta, "lane:") ? item : NULL;
          y0 = G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
        }
      else if (item->kind == IOCHART_DL_GROUP_END)
        {
          if (group && y >= y0 - 4 && y < y1 + 4)
            return group;
          group = NULL;
        }
      else if (group && item->kind == IOCHART_DL_RECT)
        {
          y0 = MIN (y0, item->y);
          y1 = MAX (y1, item->y + item->h);
        }
    }
  return NULL;
}

static void
click (IochartTimelineView *self, double x, double y)
{
  const IochartDlItem *hit = self->dl ? iochart_display_list_hit (self->dl, x, y) : NULL;

  if (hit && hit->meta && g_str_has_prefix (hit->meta, "episode:") && self->view)
    {
      const IochartStealEpisode *ep = iochart_steal_get_episode (iochart_view_get_steal (self->view),
                                                                 atoi (hit->meta + 8));
      iochart_timeline_view_set_selection (self, ep->start_ns, ep->end_ns);
      return;
    }
  if (!(hit && hit->meta && g_str_has_prefix (hit->meta, "lane:")))
    hit = lane_at_y (self, y);
  iochart_timeline_view_activate_lane (self, hit ? atoi (hit->meta + 5) : -1);
}

/* ---- data and filters ---- */

void
iochart_timeline_view_set_data (IochartTimelineView *self, IochartCapture *capture, IochartBootchart *bootchart)
{
  if (capture != self->capture && !(self->index && iochart_bin_index_get_capture (self->index) == capture))
    g_clear_pointer (&self->index, iochart_bin_index_unref);
  g_set_object (&self->capture, capture);
  g_set_object (&self->bootchart, bootchart);
  if (bootchart)
    {
      self->full_from = iochart_bootchart_get_start_ns (bootchart);
      self->full_to = iochart_bootchart_get_end_ns (bootchart);
    }
  else if (capture)
    {
      self->full_from = iochart_capture_get_start_ns (capture);
      self->full_to = iochart_capture_get_end_ns (capture);
    }
  self->full_to = MAX (self->full_to, self->full_from + 1);
  self->from = self->full_from;
  self->to = self->full_to;
  self->has_selection = FALSE;
  self->lane = -1;
  self->highlight = IOCHART_NO_PROCESS;
  g_clear_pointer (&self->expanded, g_array_unref);
  invalidate_all (self);
}

void
iochart_timeline_view_set_index (IochartTimelineView *self, IochartBinIndex *index)
{
  if (index)
    iochart_bin_index_ref (index);
  g_clear_pointer (&self->index, iochart_bin_index_unref);
  self->index = index;
  self->index_auto = TRUE;
}

/* Process i of old in now: a live capture's update may have dropped processes that left its
 * window and numbered the rest again (the same pid started at the same time); IOCHART_NO_PROCESS
 * when it was dropped. */
static guint32
renumbered (IochartCapture *old, IochartCapture *now, guint32 i)
{
  const IochartProcess *p;
  guint n = iochart_capture_get_n_processes (now);

  if (i == IOCHART_NO_PROCESS || i >= iochart_capture_get_n_processes (old))
    return IOCHART_NO_PROCESS;
  p = iochart_capture_get_process (old, i);
  if (i < n && iochart_capture_get_process (now, i)->pid == p->pid &&
      iochart_capture_get_process (now, i)->start_ns == p->start_ns)
    return i;
  /* dropping only moves processes down */
  for (guint j = MIN (i, n); j-- > 0;)
    if (iochart_capture_get_process (now, j)->pid == p->pid && iochart_capture_get_process (now, j)->start_ns == p->start_ns)
      return j;
  return IOCHART_NO_PROCESS;
}

/* The clicked lane and the expanded ones follow their processes into the new numbering. */
static void
follow_processes (IochartTimelineView *self, IochartCapture *capture)
{
  GArray *next;

  self->highlight = renumbered (self->capture, capture, self->highlight);
  if (self->expanded == NULL)
    return;
  /* a new array: a layout in a worker may hold the old one */
  next = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < self->expanded->len; i++)
    {
      guint32 head = renumbered (self->capture, capture, g_array_index (self->expanded, guint32, i));

      if (head != IOCHART_NO_PROCESS)
        g_array_append_val (next, head);
    }
  g_array_unref (self->expanded);
  self->expanded = next;
}

void
iochart_timeline_view_data_changed (IochartTimelineView *self, IochartCapture *capture, gint64 follow_span_ns)
{
  if (self->capture == NULL || self->bootchart != NULL)
    return;
  follow_processes (self, capture);
  g_set_object (&self->capture, capture);
  /* the requests changed: the index is built again with the next layout */
  g_clear_pointer (&self->index, iochart_bin_index_unref);
  self->full_from = iochart_capture_get_start_ns (self->capture);
  self->full_to = MAX (iochart_capture_get_end_ns (self->capture), self->full_from + 1);
  if (follow_span_ns > 0)
    {
      gint64 span = CLAMP (follow_span_ns, IOCHART_TIMELINE_MIN_SPAN_NS, self->full_to - self->full_from);

      self->from = self->full_to - span;
      self->to = self->full_to;
    }
  else if (self->from < self->full_from)
    {
      /* a window dropped what the view showed: its earliest data, not an empty chart before it */
      gint64 span = MIN (self->to - self->from, self->full_to - self->full_from);

      self->from = self->full_from;
      self->to = self->full_from + span;
    }
  /* no frame until the new chart is laid out: the last one warped to the new range would show
   * the old data, a full redraw for nothing, ten times a second (build_done draws) */
  self->generation++;
  ensure_chart (self, self->want_width);
  if (!self->building)
    gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[CHANGED], 0);
}

gboolean
iochart_timeline_view_is_reading (IochartTimelineView *self, IochartCapture *capture)
{
  return self->building && self->building_capture == capture && !g_atomic_int_get (self->building_read);
}

void
iochart_timeline_view_set_filter (IochartTimelineView *self, int device, GArray *pids, GStrv comms)
{
  self->device = device;
  g_clear_pointer (&self->pids, g_array_unref);
  self->pids = pids ? g_array_ref (pids) : NULL;
  g_strfreev (self->comms);
  self->comms = g_strdupv (comms);
  invalidate_all (self);
}

void
iochart_timeline_view_set_dark (IochartTimelineView *self, gboolean dark)
{
  if (self->dark == dark)
    return;
  self->dark = dark;
  invalidate_all (self);
}

IochartView *
iochart_timeline_view_get_view (IochartTimelineView *self)
{
  return self->view;
}

IochartDisplayList *
iochart_timeline_view_get_display_list (IochartTimelineView *self)
{
  return self->dl;
}

gint64
iochart_timeline_view_get_origin_ns (IochartTimelineView *self)
{
  return self->bootchart ? 0 : self->capture ? iochart_capture_get_start_ns (self->capture) : 0;
}

/* ---- GtkWidget ---- */

static GtkSizeRequestMode
get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *min, int *nat, int *min_baseline,
         int *nat_baseline)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *min = IOCHART_VIEW_MIN_WIDTH;
      *nat = 1200;
      return;
    }
  ensure_chart (self, for_size > 0 ? for_size : self->want_width > 0 ? self->want_width : 1200);
  /* the last chart's height until the new one is drawn: the frame does not wait */
  *min = *nat = self->dl ? (int) iochart_display_list_get_height (self->dl) : 400;
}

static void
size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  ensure_chart (IOCHART_TIMELINE_VIEW (widget), width);
}

/* The chart's background, where a moved plot leaves a gap. */
static void
set_rgba_bg (IochartTimelineView *self, cairo_t *cr)
{
  guint32 c = iochart_display_list_get_background (self->dl);

  cairo_set_source_rgba (cr, ((c >> 24) & 0xff) / 255.0, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                         (c & 0xff) / 255.0);
}

/* The rows of the widget the scrolled window shows; all of them outside one. */
static void
visible_rows (IochartTimelineView *self, double *top, double *bottom)
{
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  double height = gtk_widget_get_height (GTK_WIDGET (self)), x, y;

  *top = 0;
  *bottom = height;
  if (sw == NULL || !gtk_widget_translate_coordinates (sw, GTK_WIDGET (self), 0, 0, &x, &y))
    return;
  *top = CLAMP (floor (y), 0, height);
  *bottom = CLAMP (ceil (y + gtk_widget_get_height (sw)), *top, height);
}

static void
scrolled (IochartTimelineView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
map (GtkWidget *widget)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (widget);
  GtkWidget *sw = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);

  GTK_WIDGET_CLASS (iochart_timeline_view_parent_class)->map (widget);
  if (sw == NULL)
    return;
  self->vadj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
  g_signal_connect_object (self->vadj, "value-changed", G_CALLBACK (scrolled), self, G_CONNECT_SWAPPED);
}

static void
unmap (GtkWidget *widget)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (widget);

  if (self->vadj != NULL)
    g_signal_handlers_disconnect_by_func (self->vadj, scrolled, self);
  self->vadj = NULL;
  GTK_WIDGET_CLASS (iochart_timeline_view_parent_class)->unmap (widget);
}

/* The lines of text that start left of the plot and run into it (the lanes' section note) stay
 * whole where the plot moved: the image's pixels of their boxes as they are, as
 * iochart_cairo_draw_warped keeps them. */
static void
keep_lines (IochartTimelineView *self, cairo_t *cr, double x0, double header_bottom)
{
  gboolean any = FALSE;

  for (guint i = 0; i < iochart_display_list_get_n_items (self->dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (self->dl, i);
      double x, y, w, h;

      if (item->kind != IOCHART_DL_TEXT || item->x >= x0 || item->y < header_bottom)
        continue;
      iochart_dl_item_text_box (item, &x, &y, &w, &h);
      if (x + w <= x0)
        continue;
      cairo_rectangle (cr, x0, floor (y), ceil (x + w) - x0, ceil (y + h) - floor (y));
      any = TRUE;
    }
  if (!any)
    {
      cairo_new_path (cr);
      return;
    }
  cairo_save (cr);
  cairo_clip (cr);
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_paint (cr);
  cairo_restore (cr);
}

/* The worker's pixels of the chart: as they are for the range they were drawn for; for a range
 * close to it (a live update, a small zoom or pan before the next layout) the plot moved and
 * stretched as iochart_cairo_draw_warped moves it, text included. FALSE: none of them fits. */
static gboolean
paint_image (IochartTimelineView *self, cairo_t *cr, int width)
{
  double x0, w, scale, shift, header_bottom;

  if (self->image == NULL || self->dl_width != width ||
      self->image_scale != gtk_widget_get_scale_factor (GTK_WIDGET (self)) || self->to <= self->from ||
      !plot_axis (self, &x0, &w))
    return FALSE;
  scale = (double) (self->dl_to - self->dl_from) / (double) (self->to - self->from);
  shift = (double) (self->dl_from - self->from) / (double) (self->to - self->from) * w;
  if (scale < 0.9 || scale > 1.1 || fabs (shift) > w / 4)
    return FALSE;
  cairo_set_source_surface (cr, self->image, 0, 0);
  if (scale == 1 && shift == 0)
    {
      cairo_paint (cr);
      return TRUE;
    }
  /* the header and the lanes' names stay, the plot under the header moves (the app's time axis
   * is the ruler above the chart, not in it) */
  header_bottom = iochart_display_list_get_plot_top (self->dl);
  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, width, header_bottom);
  cairo_rectangle (cr, 0, header_bottom, x0, iochart_display_list_get_height (self->dl));
  cairo_clip (cr);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_save (cr);
  cairo_rectangle (cr, x0, header_bottom, width - x0, iochart_display_list_get_height (self->dl));
  cairo_clip (cr);
  set_rgba_bg (self, cr);
  cairo_paint (cr);
  /* the frames and stripes stay where they are; the pixels inside the plot's edges move over
   * them, so that the edge they leave bare still has its frame */
  iochart_cairo_draw_spanning (self->dl, cr);
  cairo_rectangle (cr, x0 + shift + scale, header_bottom, (w - 2) * scale, iochart_display_list_get_height (self->dl));
  cairo_clip (cr);
  cairo_translate (cr, x0 + shift, 0);
  cairo_scale (cr, scale, 1);
  cairo_translate (cr, -x0, 0);
  cairo_set_source_surface (cr, self->image, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_FAST);
  cairo_paint (cr);
  cairo_restore (cr);
  keep_lines (self, cr, x0, header_bottom);
  /* the header's pixels are the laid-out range's: its range reads the one shown */
  iochart_cairo_draw_range_text (self->dl, cr, self->from, self->to);
  return TRUE;
}

static void
snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;
  double x0, w, top, bottom;

  ensure_chart (self, width);
  if (self->dl == NULL)
    return;
  visible_rows (self, &top, &bottom);
  if (bottom <= top)
    return;
  /* a node the chart's full height costs its full surface every frame, in view or not */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, top, width, bottom - top));
  if (!paint_image (self, cr, width))
    iochart_cairo_draw_warped (self->dl, cr, self->from, self->to);
  if (self->has_selection && plot_axis (self, &x0, &w))
    {
      double a = CLAMP (x_of (self, self->sel_from), x0, x0 + w);
      double b = CLAMP (x_of (self, self->sel_to), x0, x0 + w);
      /* over the strips and lanes, not the title and legend lines above them (it tinted text) */
      double y0 = MIN (iochart_display_list_get_plot_top (self->dl), height);

      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.18);
      cairo_rectangle (cr, a, y0, MAX (b - a, 1), height - y0);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.9);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, floor (a) + 0.5, y0);
      cairo_line_to (cr, floor (a) + 0.5, height);
      cairo_move_to (cr, floor (b) + 0.5, y0);
      cairo_line_to (cr, floor (b) + 0.5, height);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static gboolean
query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (widget);
  const IochartDlItem *hit = self->dl ? iochart_display_list_hit (self->dl, x, y) : NULL;
  g_autofree char *figures = NULL, *text = NULL;

  /* between a lane's requests: its facts */
  if ((hit == NULL || hit->tooltip == NULL) && (hit = lane_at_y (self, y)) == NULL)
    return FALSE;
  /* over a lane's band: the request under the pointer first, then the lane's facts */
  if (hit->meta && g_str_has_prefix (hit->meta, "lane:") && self->view &&
      (figures = iochart_timeline_view_describe_at (self, x, y)))
    text = g_strdup_printf ("%s\n\n%s", figures, hit->tooltip);
  /* over a strip's area or line: what it shows, then the figures of the pixel's bins */
  else if ((hit->kind == IOCHART_DL_POLYGON || hit->kind == IOCHART_DL_POLYLINE) && self->view &&
           (figures = iochart_view_describe_column (self->view, time_at (self, x),
                                                    iochart_timeline_view_get_origin_ns (self))))
    text = g_strdup_printf ("%s\n%s", hit->tooltip, figures);
  gtk_tooltip_set_text (tooltip, text ? text : hit->tooltip);
  return TRUE;
}

char *
iochart_timeline_view_describe_at (IochartTimelineView *self, double x, double y)
{
  const IochartDlItem *hit = self->dl ? iochart_display_list_hit (self->dl, x, y) : NULL;
  double x0, w;
  gint64 px;

  if (hit == NULL || hit->meta == NULL || !g_str_has_prefix (hit->meta, "lane:") || self->view == NULL ||
      !plot_axis (self, &x0, &w) || x < x0 || x > x0 + w)
    return NULL;
  /* the pixel's time, a pixel either side: a request a pixel wide is hard to hit */
  px = (gint64) ((self->to - self->from) / w) + 1;
  return iochart_view_describe_requests (self->view, atoi (hit->meta + 5), time_at (self, x) - px,
                                         time_at (self, x) + 2 * px, iochart_timeline_view_get_origin_ns (self));
}

/* ---- input ---- */

static void
motion (GtkEventControllerMotion *controller, double x, double y, IochartTimelineView *self)
{
  self->pointer_x = x;
}

static double
anchor_at (IochartTimelineView *self, double x)
{
  double x0, w;

  if (!plot_axis (self, &x0, &w))
    return 0.5;
  return CLAMP ((x - x0) / w, 0, 1);
}

/* Whether the window around the chart has lanes to scroll up or down to: else the plain wheel,
 * with nothing to scroll, pans. */
static gboolean
lanes_scroll (IochartTimelineView *self)
{
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = sw ? gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw)) : NULL;

  return adj && gtk_adjustment_get_upper (adj) - gtk_adjustment_get_lower (adj) > gtk_adjustment_get_page_size (adj) + 1;
}

static gboolean
scroll (GtkEventControllerScroll *controller, double dx, double dy, IochartTimelineView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (state & GDK_CONTROL_MASK)
    {
      /* Ctrl+wheel zooms around the time under the pointer */
      iochart_timeline_view_zoom (self, pow (1.25, -dy), anchor_at (self, self->pointer_x));
      return TRUE;
    }
  if (dx != 0 || (state & GDK_SHIFT_MASK) || !lanes_scroll (self))
    {
      iochart_timeline_view_pan (self, 0.1 * (dx != 0 ? dx : dy));
      return TRUE;
    }
  return FALSE;   /* the scrolled window scrolls the lanes */
}

static void
drag_begin (GtkGestureDrag *gesture, double x, double y, IochartTimelineView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  double x0, w;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_from = self->from;
  self->drag_to = self->to;
  if (button == GDK_BUTTON_MIDDLE || (button == GDK_BUTTON_PRIMARY && (state & GDK_SHIFT_MASK)))
    self->drag = DRAG_PAN;
  else if (button == GDK_BUTTON_PRIMARY && plot_axis (self, &x0, &w))
    self->drag = DRAG_SELECT;
  else
    self->drag = DRAG_NONE;
}

static void
drag_update (GtkGestureDrag *gesture, double dx, double dy, IochartTimelineView *self)
{
  double x0, w;

  if (self->drag == DRAG_PAN && plot_axis (self, &x0, &w))
    {
      gint64 d = (gint64) (-dx / w * (double) (self->drag_to - self->drag_from));
      iochart_timeline_view_set_range (self, self->drag_from + d, self->drag_to + d);
    }
  else if (self->drag == DRAG_SELECT && fabs (dx) >= 3)
    {
      self->has_selection = TRUE;
      self->sel_from = time_at (self, MIN (self->drag_x, self->drag_x + dx));
      self->sel_to = time_at (self, MAX (self->drag_x, self->drag_x + dx));
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
drag_end (GtkGestureDrag *gesture, double dx, double dy, IochartTimelineView *self)
{
  if (self->drag == DRAG_SELECT)
    {
      double sx, sy;

      if (fabs (dx) < 3 && fabs (dy) < 3 && gtk_gesture_drag_get_start_point (gesture, &sx, &sy))
        click (self, sx, sy);
      else
        g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
  self->drag = DRAG_NONE;
}

/* Pinch: the span at the gesture's start divided by its scale, around the time between the fingers. */
static void
pinch_begin (GtkGesture *gesture, GdkEventSequence *sequence, IochartTimelineView *self)
{
  double x, y;

  self->drag_from = self->from;
  self->drag_to = self->to;
  /* the point between the fingers, when the gesture has an event to tell it */
  self->pinch_anchor = gtk_gesture_get_last_event (gesture, gtk_gesture_get_last_updated_sequence (gesture)) &&
                       gtk_gesture_get_bounding_box_center (gesture, &x, &y) ? anchor_at (self, x) : 0.5;
}

static void
pinch_scale_changed (GtkGestureZoom *gesture, double scale, IochartTimelineView *self)
{
  double span = (double) (self->drag_to - self->drag_from), new_span;
  double t = (double) self->drag_from + self->pinch_anchor * span;

  if (scale <= 0)
    return;
  new_span = span / scale;
  iochart_timeline_view_set_range (self, (gint64) (t - self->pinch_anchor * new_span),
                                   (gint64) (t + (1 - self->pinch_anchor) * new_span));
}

static gboolean
key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
             IochartTimelineView *self)
{
  switch (keyval)
    {
    case GDK_KEY_plus: case GDK_KEY_equal: case GDK_KEY_KP_Add:
      iochart_timeline_view_zoom (self, 1.5, 0.5);
      return TRUE;
    case GDK_KEY_minus: case GDK_KEY_KP_Subtract:
      iochart_timeline_view_zoom (self, 1 / 1.5, 0.5);
      return TRUE;
    case GDK_KEY_Left:
      iochart_timeline_view_pan (self, -0.2);
      return TRUE;
    case GDK_KEY_Right:
      iochart_timeline_view_pan (self, 0.2);
      return TRUE;
    case GDK_KEY_Home: case GDK_KEY_0:
      iochart_timeline_view_zoom_fit (self);
      return TRUE;
    case GDK_KEY_Escape:
      iochart_timeline_view_clear_selection (self);
      return TRUE;
    default:
      return FALSE;
    }
}

static void
iochart_timeline_view_finalize (GObject *object)
{
  IochartTimelineView *self = IOCHART_TIMELINE_VIEW (object);

  g_clear_pointer (&self->dl, iochart_display_list_free);
  g_clear_pointer (&self->image, cairo_surface_destroy);
  g_clear_pointer (&self->view, iochart_view_free);
  g_clear_pointer (&self->index, iochart_bin_index_unref);
  g_clear_object (&self->capture);
  g_clear_object (&self->bootchart);
  g_clear_pointer (&self->pids, g_array_unref);
  g_clear_pointer (&self->expanded, g_array_unref);
  g_strfreev (self->comms);
  G_OBJECT_CLASS (iochart_timeline_view_parent_class)->finalize (object);
}

static void
iochart_timeline_view_class_init (IochartTimelineViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = iochart_timeline_view_finalize;
  widget_class->get_request_mode = get_request_mode;
  widget_class->measure = measure;
  widget_class->size_allocate = size_allocate;
  widget_class->snapshot = snapshot;
  widget_class->map = map;
  widget_class->unmap = unmap;
  widget_class->query_tooltip = query_tooltip;
  signals[DRAWN] = g_signal_new ("drawn", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                   NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                             0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[LANE_ACTIVATED] = g_signal_new ("lane-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                          NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
iochart_timeline_view_init (IochartTimelineView *self)
{
  GtkEventController *controller;
  GtkGesture *drag;

  self->device = -1;
  self->lane = -1;
  self->highlight = IOCHART_NO_PROCESS;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
  drag = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  drag = gtk_gesture_zoom_new ();
  g_signal_connect (drag, "begin", G_CALLBACK (pinch_begin), self);
  g_signal_connect (drag, "scale-changed", G_CALLBACK (pinch_scale_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

GtkWidget *
iochart_timeline_view_new (void)
{
  return g_object_new (IOCHART_TYPE_TIMELINE_VIEW, NULL);
}
