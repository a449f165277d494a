/* iochart-view.c: range, device, lanes and bins of one chart */
#include <string.h>
#include "iochart-view.h"
#include "iochart-format.h"
#include "iochart-blocks.h"
#include "../analysis/iochart-bin-index.h"
#include "../analysis/iochart-bins-private.h"

struct _IochartView {
  IochartCapture     *capture;
  IochartViewOptions  options;
  int                 device;
  gint64              from_ns, to_ns;
  guint               width, n_columns;
  IochartLanes       *lanes;
  guint               n_lanes_wanted;
  IochartSteal       *steal;
  IochartBins        *bins;
  GArray             *requests;    /* what the index found for the range, or NULL: all (or none needed) */
  const IochartLaneIndex *lane_index;  /* the lanes' and the legend's, when it serves them */
  int                 highlight_lane;
  IochartBins        *highlight;
  gboolean            has_counts;  /* counts below computed with the rest (no lane index) */
  IochartCounts       counts;
};

/* A chart's analyses without an index, on a large capture, run on two threads: the steal sweep
 * on one, the lanes and the one walk of the bins on the other (the caller's), and then, whichever
 * comes first to it, the legend's counts. Each fills figures of its own, summed in the same order
 * as one thread would. */
typedef struct {
  IochartView               *view;
  const IochartStealOptions *steal_options;
  IochartSteal              *steal;
  gint                       next;    /* the next part to take */
} Jobs;

/* Below this many requests the analyses take less time than starting a thread. */
#define VIEW_THREAD_MIN_REQUESTS 2000

static void
jobs_rest (Jobs *j)
{
  IochartView *v = j->view;

  if (g_atomic_int_add (&j->next, 1) == 0)
    {
      iochart_counts_compute_among (v->capture, NULL, 0, v->device, v->from_ns, v->to_ns, &v->counts);
      v->has_counts = TRUE;
    }
}

static gpointer
jobs_side (gpointer data)
{
  Jobs *j = data;

  j->steal = iochart_steal_new (j->view->capture, j->steal_options);
  jobs_rest (j);
  return NULL;
}

/* The lane holding process; when it has none (the head of an expanded lane that issued no I/O of its
 * own), the first lane of its expanded family, so a highlight survives the expansion. */
static int
highlight_lane (IochartLanes *lanes, guint32 process)
{
  int lane;

  if (process == IOCHART_NO_PROCESS)
    return -1;
  if ((lane = iochart_lanes_lane_of_process (lanes, process)) >= 0)
    return lane;
  for (guint l = 0; l < iochart_lanes_get_n_lanes (lanes); l++)
    if (iochart_lanes_get_lane (lanes, l)->expanded_from == process)
      return l;
  return -1;
}

/* The lanes asked for; past the most one image holds, the biggest stay and the rest fold. */
static void
view_lanes (IochartView *view, IochartLanesOptions *lanes)
{
  view->lanes = iochart_lanes_new (view->capture, lanes);
  view->n_lanes_wanted = iochart_lanes_get_n_lanes (view->lanes);
  if (view->n_lanes_wanted > IOCHART_VIEW_MAX_LANES)
    {
      lanes->top_n = IOCHART_VIEW_MAX_LANES - 1;
      iochart_lanes_free (view->lanes);
      view->lanes = iochart_lanes_new (view->capture, lanes);
    }
}

IochartView *
iochart_view_new (IochartCapture *capture, const IochartViewOptions *options)
{
  IochartViewOptions defaults = IOCHART_VIEW_OPTIONS_INIT;
  IochartStealOptions steal = IOCHART_STEAL_OPTIONS_INIT;
  IochartStealJob *steal_job;
  IochartLanesOptions lanes;
  IochartBinIndex *index;
  IochartView *view;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  if (options == NULL)
    options = &defaults;

  view = g_new0 (IochartView, 1);
  view->capture = g_object_ref (capture);
  view->options = *options;
  if (options->index)
    iochart_bin_index_ref (options->index);
  view->device = options->device >= 0 ? options->device
                 : options->index ? iochart_bin_index_get_device (options->index) : iochart_steal_pick_device (capture);
  view->from_ns = options->from_ns != IOCHART_TIME_UNKNOWN ? options->from_ns
                                                           : iochart_capture_get_start_ns (capture);
  view->to_ns = options->to_ns != IOCHART_TIME_UNKNOWN ? options->to_ns
                                                       : iochart_capture_get_end_ns (capture);
  if (view->to_ns <= view->from_ns)
    view->to_ns = view->from_ns + 1;
  view->width = MAX (options->width, IOCHART_VIEW_MIN_WIDTH);
  view->n_columns = view->width - iochart_view_label_width (view->width) - IOCHART_VIEW_RIGHT_MARGIN;

  index = view->device >= 0 && options->index && iochart_bin_index_get_capture (options->index) == capture &&
          iochart_bin_index_get_device (options->index) == view->device ? options->index : NULL;
  lanes = options->lanes;
  lanes.device = view->device;
  lanes.from_ns = view->from_ns;
  lanes.to_ns = view->to_ns;
  lanes.index = index ? iochart_bin_index_get_lane_index (index) : NULL;
  view->lane_index = iochart_lane_index_serves (lanes.index, capture, &lanes) ? lanes.index : NULL;
  /* with the device's index, every analysis walks only what meets the range; the lanes, the
   * legend and the steal sweep ask their own indexes, which cost processes, not requests */
  if (index && (view->lane_index == NULL || iochart_bin_index_get_steal_events (index) == NULL))
    view->requests = iochart_bin_index_find_all (index, view->from_ns, view->to_ns);
  lanes.requests = view->requests ? (const guint32 *) view->requests->data : NULL;
  lanes.n_requests = view->requests ? view->requests->len : 0;

  /* idle steal needs no lanes: on a large capture it runs beside the lanes and bins */
  steal.device = view->device;
  steal.from_ns = view->from_ns;
  steal.to_ns = view->to_ns;
  steal.gap_ns = options->steal_gap_ns;
  steal.n_columns = view->n_columns;
  steal.requests = lanes.requests;
  steal.n_requests = lanes.n_requests;
  steal.index = index;
  if (index == NULL)
    {
      Jobs jobs = { view, &steal };
      GThread *side = NULL;

      if (view->device >= 0)
        view->bins = _iochart_bins_new_empty (view->from_ns, view->to_ns, view->n_columns, IOCHART_VIEW_SECTOR_ROWS,
                                              options->latency);
      if (iochart_capture_get_n_requests (capture) >= VIEW_THREAD_MIN_REQUESTS && g_get_num_processors () > 1)
        side = g_thread_new ("iochart-view", jobs_side, &jobs);
      view_lanes (view, &lanes);
      if (view->bins)
        _iochart_bins_walk (view->bins, capture, view->device, view->lanes);
      if (side)
        {
          jobs_rest (&jobs);
          g_thread_join (side);
        }
      else
        jobs_side (&jobs);
      view->steal = jobs.steal;
    }
  else
    {
      steal_job = iochart_steal_start (capture, &steal);
      view_lanes (view, &lanes);
      view->bins = iochart_bins_new_indexed (index, view->requests, view->from_ns, view->to_ns, view->n_columns,
                                             IOCHART_VIEW_SECTOR_ROWS, view->lanes, options->latency);
      view->steal = iochart_steal_finish (steal_job);
    }
  view->highlight_lane = highlight_lane (view->lanes, options->highlight);
  if (view->bins && view->highlight_lane >= 0)
    view->highlight = iochart_bins_new_lane (view->bins, capture, view->device, index, view->lanes,
                                             view->highlight_lane);
  return view;
}

void
iochart_view_free (IochartView *view)
{
  if (view == NULL)
    return;
  g_clear_object (&view->capture);
  g_clear_pointer (&view->options.index, iochart_bin_index_unref);
  g_clear_pointer (&view->lanes, iochart_lanes_free);
  g_clear_pointer (&view->steal, iochart_steal_free);
  g_clear_pointer (&view->bins, iochart_bins_free);
  g_clear_pointer (&view->requests, g_array_unref);
  g_clear_pointer (&view->highlight, iochart_bins_free);
  g_free (view);
}

IochartCapture *iochart_view_get_capture (IochartView *view) { return view->capture; }
int iochart_view_get_device (IochartView *view) { return view->device; }
gint64 iochart_view_get_from_ns (IochartView *view) { return view->from_ns; }
gint64 iochart_view_get_to_ns (IochartView *view) { return view->to_ns; }
guint iochart_view_get_width (IochartView *view) { return view->width; }
guint iochart_view_get_n_columns (IochartView *view) { return view->n_columns; }
guint iochart_view_get_label_width (IochartView *view) { return view->width - view->n_columns - IOCHART_VIEW_RIGHT_MARGIN; }

guint
iochart_view_label_width (guint width)
{
  /* 250 at 1,100 px, 170 at 700: a fifth of what the chart loses */
  double w = IOCHART_VIEW_LABEL_WIDTH - (1100.0 - MAX (width, IOCHART_VIEW_MIN_WIDTH)) / 5;

  return (guint) CLAMP (w, IOCHART_VIEW_LABEL_WIDTH_MIN, IOCHART_VIEW_LABEL_WIDTH);
}
IochartLanes *iochart_view_get_lanes (IochartView *view) { return view->lanes; }

/* The lane of lanes that stands for like of another range's lanes, or -1. */
static int
same_lane (IochartLanes *lanes, const IochartLane *like)
{
  int l = -1;

  if (!like->others && like->head != IOCHART_NO_PROCESS)
    l = iochart_lanes_lane_of_process (lanes, like->head);
  else
    for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes) && l < 0; i++)
      {
        const IochartLane *o = iochart_lanes_get_lane (lanes, i);
        /* a class's lane, by class */
        if (o->others == like->others && o->head == IOCHART_NO_PROCESS && (like->others || o->klass == like->klass))
          l = (int) i;
      }
  if (l >= 0 && iochart_lanes_get_lane (lanes, l)->others != like->others)
    return -1;
  return l;
}

const IochartLane *
iochart_view_lane_in_range (IochartView *view, guint lane, gint64 from_ns, gint64 to_ns, IochartLanes **lanes)
{
  IochartLanesOptions o;
  const IochartLane *like;
  int l;

  g_return_val_if_fail (view != NULL, NULL);
  g_return_val_if_fail (lanes != NULL, NULL);
  g_return_val_if_fail (lane < iochart_lanes_get_n_lanes (view->lanes), NULL);
  like = iochart_lanes_get_lane (view->lanes, lane);
  o = view->options.lanes;
  o.device = view->device;
  o.from_ns = from_ns;
  o.to_ns = to_ns;
  o.index = view->lane_index;
  o.requests = NULL;
  o.n_requests = 0;
  /* a lane of its own in the view keeps one in the range, whatever the others did there */
  if (!like->others)
    o.top_n = 0;
  *lanes = iochart_lanes_new (view->capture, &o);
  l = same_lane (*lanes, like);
  return l >= 0 ? iochart_lanes_get_lane (*lanes, l) : NULL;
}
guint iochart_view_get_n_lanes_wanted (IochartView *view) { return view->n_lanes_wanted; }
IochartSteal *iochart_view_get_steal (IochartView *view) { return view->steal; }
IochartBins *iochart_view_get_bins (IochartView *view) { return view->bins; }
GArray *iochart_view_get_requests (IochartView *view) { return view->requests; }

void
iochart_view_get_counts (IochartView *view, IochartCounts *counts)
{
  if (view->has_counts)
    *counts = view->counts;
  else if (view->lane_index)
    iochart_lane_index_counts (view->lane_index, view->from_ns, view->to_ns, counts);
  else
    iochart_counts_compute_among (view->capture, view->requests ? (const guint32 *) view->requests->data : NULL,
                                  view->requests ? view->requests->len : 0, view->device, view->from_ns,
                                  view->to_ns, counts);
}
int iochart_view_get_highlight_lane (IochartView *view) { return view->highlight_lane; }
IochartBins *iochart_view_get_highlight_bins (IochartView *view) { return view->highlight; }
const IochartViewOptions *iochart_view_get_options (IochartView *view) { return &view->options; }

/* A time since origin_ns, or what follows a time before it ("+23 µs"). */
static char *
since (gint64 t, gint64 ref)
{
  g_autofree char *d = iochart_format_duration ((double) llabs (t - ref));

  return g_strdup_printf ("%s%s", t < ref ? "-" : "", d);
}

static void
describe (IochartView *view, const IochartRequest *rq, gint64 origin_ns, GString *out)
{
  static const struct { const char *what; gsize at; } steps[] = {
    { "queued", G_STRUCT_OFFSET (IochartRequest, queue_ns) },
    { "inserted", G_STRUCT_OFFSET (IochartRequest, insert_ns) },
    { "issued", G_STRUCT_OFFSET (IochartRequest, issue_ns) },
    { "completed", G_STRUCT_OFFSET (IochartRequest, complete_ns) },
  };
  const IochartProcess *p = rq->process < iochart_capture_get_n_processes (view->capture)
                            ? iochart_capture_get_process (view->capture, rq->process) : NULL;
  g_autofree char *size = iochart_format_bytes (rq->bytes);
  g_autofree char *offset = iochart_format_bytes ((double) rq->sector * 512);
  gint64 prev = IOCHART_TIME_UNKNOWN;

  if (p)
    g_string_append_printf (out, "%s[%d]", p->comm ? p->comm : "?", p->pid);
  else
    g_string_append (out, "unknown process");
  g_string_append_printf (out, " · %s", iochart_class_name (rq->klass));
  if (rq->klass == IOCHART_CLASS_RT || rq->klass == IOCHART_CLASS_BE)
    g_string_append_printf (out, " %u", rq->level);
  g_string_append_printf (out, " (from %s)\n%s %s at sector %" G_GUINT64_FORMAT " (%s)",
                          iochart_class_source_name (rq->class_source), iochart_op_name (rq->op), size, rq->sector,
                          offset);
  if (rq->merges > 0)
    g_string_append_printf (out, ", %u merged", rq->merges);
  g_string_append_c (out, '\n');
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      gint64 t = G_STRUCT_MEMBER (gint64, rq, steps[i].at);
      g_autofree char *when = NULL;

      if (t == IOCHART_TIME_UNKNOWN)
        continue;
      when = prev == IOCHART_TIME_UNKNOWN ? since (t, origin_ns) : since (t, prev);
      g_string_append_printf (out, "%s%s %s%s", prev == IOCHART_TIME_UNKNOWN ? "" : " · ", steps[i].what,
                              prev == IOCHART_TIME_UNKNOWN || t < prev ? "" : "+", when);
      prev = t;
    }
}

char *
iochart_view_describe_requests (IochartView *view, int lane, gint64 from_ns, gint64 to_ns, gint64 origin_ns)
{
  g_autoptr(GArray) found = view->options.index ? iochart_bin_index_find (view->options.index, from_ns, to_ns) : NULL;
  guint n = found ? found->len : iochart_capture_get_n_requests (view->capture), hits = 0;
  gint64 mid = from_ns + (to_ns - from_ns) / 2, best_d = G_MAXINT64;
  IochartRequest best = { 0 };
  GString *out;

  if (view->device < 0 || lane < 0 || (guint) lane >= iochart_lanes_get_n_lanes (view->lanes))
    return NULL;
  for (guint j = 0; j < n; j++)
    {
      IochartRequest rq;
      gint64 start, d;

      iochart_capture_get_request (view->capture, found ? g_array_index (found, guint32, j) : j, &rq);
      start = rq.queue_ns != IOCHART_TIME_UNKNOWN ? rq.queue_ns
              : rq.insert_ns != IOCHART_TIME_UNKNOWN ? rq.insert_ns : rq.issue_ns;
      if (rq.device != (guint) view->device || start == IOCHART_TIME_UNKNOWN ||
          rq.complete_ns == IOCHART_TIME_UNKNOWN || start > to_ns || rq.complete_ns < from_ns ||
          rq.process == IOCHART_NO_PROCESS || iochart_lanes_lane_of_process (view->lanes, rq.process) != lane)
        continue;
      hits++;
      /* the one in flight at the pointer, else the nearest */
      d = mid < start ? start - mid : mid > rq.complete_ns ? mid - rq.complete_ns : 0;
      if (d < best_d)
        best_d = d, best = rq;
    }
  if (hits == 0)
    return NULL;
  out = g_string_new (NULL);
  describe (view, &best, origin_ns, out);
  if (hits > 1)
    g_string_append_printf (out, "\nand %u more request%s under the pointer", hits - 1, hits == 2 ? "" : "s");
  return g_string_free (out, FALSE);
}

/* "read 64 KiB (31 MiB/s): be 48 KiB, idle 16 KiB", or nothing when the column moved none. */
static void
describe_bytes (const IochartBins *bins, guint i, guint dir, double column_ns, GString *out)
{
  double total = 0;
  g_autofree char *all = NULL, *rate = NULL;
  const char *sep = ": ";

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    total += bins->bytes[k][dir][i];
  if (total <= 0)
    return;
  all = iochart_format_bytes (total);
  rate = iochart_format_bytes (total / column_ns * 1e9);
  g_string_append_printf (out, "\n%s %s (%s/s)", dir == 0 ? "read" : "written", all, rate);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (bins->bytes[k][dir][i] > 0)
      {
        g_autofree char *b = iochart_format_bytes (bins->bytes[k][dir][i]);
        g_string_append_printf (out, "%s%s %s", sep, iochart_class_name (k), b);
        sep = ", ";
      }
}

char *
iochart_view_describe_column (IochartView *view, gint64 at_ns, gint64 origin_ns)
{
  const IochartBins *bins = view->bins;
  double column_ns, done = 0, inflight = 0, at;
  g_autofree char *from = NULL, *width = NULL;
  GString *out;
  guint column;

  if (bins == NULL || bins->n_columns == 0 || at_ns < bins->from_ns || at_ns > bins->to_ns)
    return NULL;
  column = MIN ((guint) ((double) (at_ns - bins->from_ns) / bins->ns_per_column), bins->n_columns - 1);
  column_ns = iochart_bins_column_ns (bins, column);
  /* to the column's precision: "at 1.763 s", not "at 1.8 s" */
  at = (double) (bins->from_ns - origin_ns) + column * bins->ns_per_column;
  from = iochart_blocks_format_tick (at, column_ns, at);
  width = iochart_format_duration (column_ns);
  out = g_string_new (NULL);
  g_string_append_printf (out, "at %s, over %s", from, width);
  describe_bytes (bins, column, 0, column_ns, out);
  describe_bytes (bins, column, 1, column_ns, out);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      done += bins->completions[k][column];
      inflight += bins->inflight_ns[k][column];
    }
  if (done > 0)
    {
      g_autofree char *n = iochart_format_plural ((guint64) done, "request completed", "requests completed");
      g_string_append_printf (out, "\n%s (%.0f/s)", n, done / column_ns * 1e9);
    }
  if (inflight > 0)
    g_string_append_printf (out, "\n%.1f in flight on average", inflight / column_ns);
  for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
    {
      double p50 = iochart_bins_latency_quantile (bins, g, column, 0.5);
      double p99 = iochart_bins_latency_quantile (bins, g, column, 0.99);

      if (p50 >= 0)
        {
          g_autofree char *a = iochart_format_duration (p50), *b = iochart_format_duration (p99);
          g_string_append_printf (out, "\n%s latency p50 %s, p99 %s", g == IOCHART_LAT_IDLE ? "idle" : "non-idle", a, b);
        }
    }
  if (!strchr (out->str, '\n'))
    g_string_append (out, "\nno I/O on the device");
  return g_string_free (out, FALSE);
}
