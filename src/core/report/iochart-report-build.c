/* iochart-report-build.c: the report's sections, each from figures the analyses already give */
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include "iochart-report-build.h"
#include "iochart-error.h"
#include "iochart-format.h"
#include "iochart-summary.h"
#include "analysis/iochart-steal.h"
#include "analysis/iochart-lanes.h"
#include "render/iochart-view.h"
#include "render/iochart-chart.h"
#include "simulator/iochart-simulator.h"
#include "simulator/iochart-sim-compare.h"

#define TOP_EPISODES 20
#define ZOOMED       3
#define TOP_LANES    10

typedef struct {
  gint64  ns;          /* on the I/O capture's clock, or since boot for the boot chart */
  char   *label;
  char   *tooltip;
  char   *where;       /* "I/O chart", "boot chart" */
  char   *source;      /* "user", "automatic" */
  gboolean strong;
} Mark;

typedef struct {
  const IochartReportOptions *o;
  IochartReport              *report;
  IochartCapture             *io;
  IochartBootchart           *bc;
  int                         device;
  gint64                      start_ns;
  IochartSteal               *steal;
  const IochartStealDevice   *sd;
  IochartLanes               *lanes;     /* the summary's: every lane of the device */
  IochartSummary             *summary;   /* of the device, every lane and process */
  GArray                     *marks;      /* Mark, I/O chart */
  GArray                     *boot_marks; /* Mark, boot chart: listed only, the boot chart draws its own */
  guint                       width;
} Build;

static void
mark_clear (gpointer data)
{
  Mark *m = data;

  g_free (m->label);
  g_free (m->tooltip);
  g_free (m->where);
  g_free (m->source);
}

static int
mark_cmp (gconstpointer a, gconstpointer b)
{
  const Mark *x = a, *y = b;

  return (x->ns > y->ns) - (x->ns < y->ns);
}

static char *
rel_s (gint64 ns)
{
  return g_strdup_printf ("%.3f s", ns / 1e9);
}

static char *
dev_text (IochartCapture *c, guint device)
{
  guint32 dev = iochart_capture_get_device (c, device)->dev;

  return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));
}

static const char *
lane_label_of_process (Build *b, guint32 process)
{
  int l = process != IOCHART_NO_PROCESS ? iochart_lanes_lane_of_process (b->lanes, process) : -1;

  return l >= 0 ? iochart_lanes_get_lane (b->lanes, l)->label : NULL;
}

static char *
process_text (Build *b, guint32 process)
{
  const IochartProcess *p;
  const char *lane;

  if (process == IOCHART_NO_PROCESS)
    return g_strdup ("?");
  p = iochart_capture_get_process (b->io, process);
  lane = lane_label_of_process (b, process);
  if (lane != NULL && !g_str_has_prefix (lane, p->comm ? p->comm : "?"))
    return g_strdup_printf ("%s[%d] in %s", p->comm ? p->comm : "?", p->pid, lane);
  return lane ? g_strdup (lane) : g_strdup_printf ("%s[%d]", p->comm ? p->comm : "?", p->pid);
}

/* ---- annotations ---- */

static void
add_mark (GArray *marks, gint64 ns, char *label, char *tooltip, const char *where, const char *source, gboolean strong)
{
  Mark m = { ns, label, tooltip, g_strdup (where), g_strdup (source), strong };

  g_array_append_val (marks, m);
}

/* The earliest sight of a process of that name ("pid:N" for a pid): its fork, else its first I/O. */
static gint64
process_first_seen (IochartCapture *c, const char *what)
{
  gint64 pid = g_str_has_prefix (what, "pid:") ? g_ascii_strtoll (what + 4, NULL, 10) : -1;
  gint64 best = IOCHART_TIME_UNKNOWN;

  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r;
      const IochartProcess *p;
      gint64 t;

      iochart_capture_get_request (c, i, &r);
      if (r.process == IOCHART_NO_PROCESS)
        continue;
      p = iochart_capture_get_process (c, r.process);
      if (pid >= 0 ? p->pid != pid : g_strcmp0 (p->comm, what) != 0)
        continue;
      t = p->start_ns != IOCHART_TIME_UNKNOWN ? p->start_ns
          : r.queue_ns != IOCHART_TIME_UNKNOWN ? r.queue_ns : r.issue_ns;
      if (t != IOCHART_TIME_UNKNOWN && (best == IOCHART_TIME_UNKNOWN || t < best))
        best = t;
    }
  return best;
}

static gboolean
user_marks (Build *b, GError **error)
{
  for (guint i = 0; i < b->o->n_annotations; i++)
    {
      const IochartBootchartChartAnnotation *a = &b->o->annotations[i];
      gint64 ns = IOCHART_TIME_UNKNOWN;

      if (b->bc != NULL)
        {
          g_autofree char *at = a->process ? NULL : rel_s (a->time_ns);
          add_mark (b->boot_marks, a->process ? IOCHART_TIME_UNKNOWN : a->time_ns, g_strdup (a->label),
                    a->process ? g_strdup_printf ("at the start of %s", a->process) : g_strdup_printf ("%s after boot", at),
                    "boot chart", "user", FALSE);
        }
      /* a time is since boot when there is a boot chart: it draws it, with the block I/O merged */
      if (b->io == NULL || (b->bc != NULL && a->process == NULL))
        continue;
      if (a->process == NULL)
        {
          gint64 span = iochart_capture_get_end_ns (b->io) - b->start_ns;
          g_autofree char *why = iochart_bootchart_chart_annotation_unseen (a->label, a->time_ns, 0, span, 0, span,
                                                                            "the capture", " from its start");
          if (why != NULL)
            g_warning ("%s", why);
          ns = b->start_ns + a->time_ns;
        }
      else if ((ns = process_first_seen (b->io, a->process)) == IOCHART_TIME_UNKNOWN)
        {
          if (b->bc != NULL)
            continue;   /* a process of the boot chart only */
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                       "'%s': annotation names no process of '%s' (give a command name, pid:N or a time)",
                       a->process, iochart_capture_get_name (b->io));
          return FALSE;
        }
      add_mark (b->marks, ns, g_strdup (a->label),
                a->process ? g_strdup_printf ("%s: %s first seen", a->label, a->process) : g_strdup (a->label),
                "I/O chart", "user", FALSE);
    }
  return TRUE;
}

static void
automatic_marks (Build *b)
{
  gint64 first = IOCHART_TIME_UNKNOWN, last = IOCHART_TIME_UNKNOWN;
  const IochartStealEpisode *longest = NULL;

  for (guint i = 0; i < iochart_capture_get_n_requests (b->io); i++)
    {
      IochartRequest r;
      gint64 s;

      iochart_capture_get_request (b->io, i, &r);
      if (r.klass != IOCHART_CLASS_IDLE || r.device != (guint) b->device)
        continue;
      s = r.queue_ns != IOCHART_TIME_UNKNOWN ? r.queue_ns : r.insert_ns != IOCHART_TIME_UNKNOWN ? r.insert_ns : r.issue_ns;
      if (s != IOCHART_TIME_UNKNOWN && (first == IOCHART_TIME_UNKNOWN || s < first))
        first = s;
      if (r.complete_ns != IOCHART_TIME_UNKNOWN && (last == IOCHART_TIME_UNKNOWN || r.complete_ns > last))
        last = r.complete_ns;
    }
  if (first != IOCHART_TIME_UNKNOWN)
    add_mark (b->marks, first, g_strdup ("first idle I/O"), g_strdup ("the first idle-class request queued"),
              "I/O chart", "automatic", FALSE);
  if (last != IOCHART_TIME_UNKNOWN)
    add_mark (b->marks, last, g_strdup ("last idle I/O"), g_strdup ("the last idle-class request completed"),
              "I/O chart", "automatic", FALSE);
  for (guint e = 0; e < iochart_steal_get_n_episodes (b->steal); e++)
    {
      const IochartStealEpisode *ep = iochart_steal_get_episode (b->steal, e);

      if (ep->device == (guint) b->device &&
          (longest == NULL || ep->end_ns - ep->start_ns > longest->end_ns - longest->start_ns))
        longest = ep;
    }
  if (longest != NULL)
    {
      g_autofree char *len = iochart_format_duration (longest->end_ns - longest->start_ns);
      g_autofree char *stolen = iochart_format_duration (longest->stolen_ns);

      add_mark (b->marks, longest->start_ns, g_strdup_printf ("longest steal episode (%s)", len),
                g_strdup_printf ("the longest idle-steal episode: %s long, %s stolen", len, stolen),
                "I/O chart", "automatic", TRUE);
    }
  g_array_sort (b->marks, mark_cmp);
}

static void
boot_done_mark (Build *b)
{
  gint64 done;

  if (iochart_bootchart_chart_find_boot_done (b->bc, IOCHART_BOOTCHART_DEFAULT_DONE_WINDOW_NS, &done))
    add_mark (b->boot_marks, done, g_strdup ("boot done"),
              g_strdup ("CPU and disks stayed under 10% busy for 2 s from here"), "boot chart", "automatic", TRUE);
}

/* ---- summary ---- */

static char *
verdict (Build *b)
{
  g_autofree char *dev = NULL, *stolen = NULL, *active = NULL;
  IochartCounts counts;
  guint64 idle, fg;
  double pct;

  if (b->io == NULL)
    return g_strdup ("This capture holds no block I/O: the boot chart alone tells how the boot went.");
  dev = dev_text (b->io, b->device);
  iochart_counts_compute (b->io, b->device, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, &counts);
  idle = counts.by_class[IOCHART_CLASS_IDLE].requests;
  fg = counts.issued.requests - idle;
  if (b->sd != NULL && iochart_steal_device_is_unknown (b->sd))
    return g_strdup_printf ("No figure for %s: some requests have no known class (BFQ level 7 is idle or best-effort 7), "
                            "so what idle-class I/O took cannot be told; give --class rules.", dev);
  if (idle == 0)
    return g_strdup_printf ("No idle-class I/O reached %s: nothing could take the disk from the other work.", dev);
  if (b->sd == NULL || b->sd->foreground_active_ns == 0 || fg == 0)
    return g_strdup_printf ("Only idle-class I/O used %s while it ran: it had the disk to itself and held nobody up.", dev);
  pct = 100.0 * b->sd->stolen_ns / b->sd->foreground_active_ns;
  stolen = iochart_format_duration (b->sd->stolen_ns);
  active = iochart_format_duration (b->sd->foreground_active_ns);
  if (pct >= 5)
    return g_strdup_printf ("Idle-class I/O took %.1f%% of the time other I/O was waiting for %s (%s of %s, in %u episode%s): "
                            "the idle class did not keep out of the way of the rest.", pct, dev, stolen, active,
                            b->sd->n_episodes, b->sd->n_episodes == 1 ? "" : "s");
  if (pct >= 1)
    return g_strdup_printf ("Idle-class I/O took a small share, %.1f%%, of the time other I/O was waiting for %s (%s of %s).",
                            pct, dev, stolen, active);
  return g_strdup_printf ("Idle-class I/O stayed out of the way on %s: it took %.2f%% of the time other I/O was waiting (%s of %s).",
                          dev, pct, stolen, active);
}

static void
summary_tables (Build *b)
{
  g_autoptr(IochartSummary) all = iochart_summary_new (b->io, -1, 1);
  const IochartSummary *one = b->summary;
  const char *dcols[] = { "device", "name", "requests", "bytes", "read", "written", NULL };
  const char *ccols[] = { "class", "requests", "bytes", NULL };
  g_autofree char *dev = dev_text (b->io, b->device);
  g_autofree char *span = iochart_format_duration (all->span_ns);
  g_autofree char *head = g_strdup_printf ("Block I/O over %s, %" G_GUINT64_FORMAT " events, %u devices.",
                                           span, all->events, all->devices->len);

  iochart_report_text (b->report, head);
  iochart_report_table (b->report, dcols);
  for (guint i = 0; i < all->devices->len; i++)
    {
      const IochartSummaryDevice *d = &g_array_index (all->devices, IochartSummaryDevice, i);
      g_autofree char *dn = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (d->dev), IOCHART_DEV_MINOR (d->dev));
      g_autofree char *n = iochart_format_count (d->counts.issued.requests);
      g_autofree char *by = iochart_format_bytes (d->counts.issued.bytes);
      g_autofree char *rd = iochart_format_bytes (d->counts.by_op[IOCHART_OP_READ].bytes);
      g_autofree char *wr = iochart_format_bytes (d->counts.by_op[IOCHART_OP_WRITE].bytes);
      const char *row[] = { dn, d->name ? d->name : "", n, by, rd, wr };

      iochart_report_table_row (b->report, row);
    }
  {
    g_autofree char *t = g_strdup_printf ("Per priority class on %s (the device the rest of the report is about):", dev);
    iochart_report_text (b->report, t);
  }
  iochart_report_table (b->report, ccols);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      g_autofree char *n = NULL, *by = NULL;
      const char *row[3];

      if (one->counts.by_class[k].requests == 0)
        continue;
      n = iochart_format_count (one->counts.by_class[k].requests);
      by = iochart_format_bytes (one->counts.by_class[k].bytes);
      row[0] = iochart_class_name (k);
      row[1] = n;
      row[2] = by;
      iochart_report_table_row (b->report, row);
    }
  if (b->sd != NULL)
    {
      g_autofree char *stolen = iochart_format_duration (b->sd->stolen_ns);
      g_autofree char *active = iochart_format_duration (b->sd->foreground_active_ns);
      g_autofree char *t = g_strdup_printf ("Idle steal on %s: %s stolen of %s with other I/O outstanding (%.1f%%), "
                                            "in %u episode%s. Stolen time is the share of the disk idle-class requests "
                                            "held while other requests were waiting.",
                                            dev, stolen, active,
                                            b->sd->foreground_active_ns ? 100.0 * b->sd->stolen_ns / b->sd->foreground_active_ns : 0.0,
                                            b->sd->n_episodes, b->sd->n_episodes == 1 ? "" : "s");
      iochart_report_text (b->report, t);
    }
}

static void
boot_summary (Build *b)
{
  gint64 done;
  g_autofree char *span = iochart_format_duration (iochart_bootchart_get_end_ns (b->bc) - iochart_bootchart_get_start_ns (b->bc));
  g_autofree char *t = NULL;

  if (iochart_bootchart_chart_find_boot_done (b->bc, IOCHART_BOOTCHART_DEFAULT_DONE_WINDOW_NS, &done))
    {
      g_autofree char *at = rel_s (done);
      t = g_strdup_printf ("Boot chart: %u samples over %s; boot done at %s after boot (CPU and disks under 10%% busy for 2 s from there).",
                           iochart_bootchart_get_n_samples (b->bc), span, at);
    }
  else
    t = g_strdup_printf ("Boot chart: %u samples over %s; CPU or disks never settled before the capture ended, so there is no \"boot done\".",
                         iochart_bootchart_get_n_samples (b->bc), span);
  iochart_report_text (b->report, t);
}

/* ---- charts ---- */

static IochartDisplayList *
chart_of (Build *b, IochartCapture *capture, gint64 from, gint64 to, guint top, const char *title, gboolean with_marks)
{
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
  g_autoptr(IochartView) view = NULL;
  g_autoptr(GArray) marks = g_array_new (FALSE, TRUE, sizeof (IochartBlocksMark));

  vo.device = b->device;
  vo.from_ns = from;
  vo.to_ns = to;
  vo.width = b->width;
  vo.lanes.top_n = top;
  view = iochart_view_new (capture, &vo);
  for (guint i = 0; with_marks && i < b->marks->len; i++)
    {
      const Mark *m = &g_array_index (b->marks, Mark, i);
      IochartBlocksMark bm = { m->ns, m->label, m->tooltip, m->strong };

      g_array_append_val (marks, bm);
    }
  style.title = title;
  style.marks = (const IochartBlocksMark *) marks->data;
  style.n_marks = marks->len;
  return iochart_chart_draw (view, &style);
}

static IochartDisplayList *
io_chart (Build *b, gint64 from, gint64 to, guint top, const char *title, gboolean with_marks)
{
  return chart_of (b, b->io, from, to, top, title, with_marks);
}

static gboolean
charts (Build *b, GError **error)
{
  iochart_report_heading (b->report, 2, "charts", "Charts");
  if (b->io != NULL)
    {
      g_autofree char *cap = NULL, *dev = dev_text (b->io, b->device);

      cap = g_strdup_printf ("The I/O chart of %s: throughput, IOPS, requests in flight, latency, idle steal and the "
                             "sector map over time, then one lane per process group, each request from queueing to "
                             "completion coloured by class. Shaded: idle steal. Dashed lines: annotations.", dev);
      iochart_report_chart (b->report, io_chart (b, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, 12, b->o->title, TRUE), cap);
    }
  if (b->bc != NULL)
    {
      IochartBootchartChartOptions bo = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
      IochartDisplayList *dl;

      bo.width = b->width;
      bo.title = b->o->title;
      bo.annotations = b->o->annotations;
      bo.n_annotations = b->o->n_annotations;
      iochart_bootchart_chart_warn_annotations (b->bc, &bo);
      if ((dl = iochart_bootchart_chart_draw (b->bc, b->io, &bo, error)) == NULL)
        return FALSE;
      iochart_report_chart (b->report, dl,
                            "The boot chart: CPU and I/O wait, disk throughput, memory, and one bar per process "
                            "(dark: running, orange: waiting for the disk), with the block I/O of the same boot.");
    }
  return TRUE;
}

/* ---- episodes ---- */

static int
cmp_episode_stolen (gconstpointer a, gconstpointer b)
{
  const IochartStealEpisode *x = *(const IochartStealEpisode * const *) a, *y = *(const IochartStealEpisode * const *) b;

  if (x->stolen_ns != y->stolen_ns)
    return x->stolen_ns < y->stolen_ns ? 1 : -1;
  return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static char *
waiting_text (Build *b, const IochartStealEpisode *ep)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  GString *s = g_string_new (NULL);

  for (guint i = 0; ep->waiting && i < ep->waiting->len; i++)
    {
      char *t = process_text (b, g_array_index (ep->waiting, guint32, i));

      if (g_hash_table_contains (seen, t))
        {
          g_free (t);
          continue;
        }
      g_ptr_array_add (names, t);
      g_hash_table_add (seen, t);
    }
  for (guint i = 0; i < MIN (names->len, 3u); i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) g_ptr_array_index (names, i));
  if (names->len > 3)
    g_string_append_printf (s, " and %u more", names->len - 3);
  return g_string_free (s, FALSE);
}

static void
episodes (Build *b)
{
  g_autoptr(GPtrArray) eps = g_ptr_array_new ();
  const char *cols[] = { "#", "start", "length", "stolen", "idle process", "who waited", NULL };
  g_autofree char *intro = NULL;

  iochart_report_heading (b->report, 2, "episodes", "Idle-steal episodes");
  for (guint e = 0; e < iochart_steal_get_n_episodes (b->steal); e++)
    if (iochart_steal_get_episode (b->steal, e)->device == (guint) b->device)
      g_ptr_array_add (eps, (gpointer) iochart_steal_get_episode (b->steal, e));
  if (eps->len == 0)
    {
      iochart_report_text (b->report, "No episode: idle-class I/O never held the disk while other I/O waited.");
      return;
    }
  g_ptr_array_sort (eps, cmp_episode_stolen);
  intro = g_strdup_printf ("%u episode%s (stolen intervals closer than 8 ms joined); %s by stolen time, start in "
                           "seconds from the capture's start:", eps->len, eps->len == 1 ? "" : "s",
                           eps->len > TOP_EPISODES ? "the 20 worst" : "all");
  iochart_report_text (b->report, intro);
  iochart_report_table (b->report, cols);
  for (guint i = 0; i < MIN (eps->len, (guint) TOP_EPISODES); i++)
    {
      const IochartStealEpisode *ep = g_ptr_array_index (eps, i);
      g_autofree char *n = g_strdup_printf ("%u", i + 1), *start = rel_s (ep->start_ns - b->start_ns);
      g_autofree char *len = iochart_format_duration (ep->end_ns - ep->start_ns);
      g_autofree char *stolen = g_strdup_printf ("%.1f ms", ep->stolen_ns / 1e6);
      g_autofree char *idle = process_text (b, ep->idle_process), *waited = waiting_text (b, ep);
      const char *row[] = { n, start, len, stolen, idle, waited };

      iochart_report_table_row (b->report, row);
    }
  for (guint i = 0; i < MIN (eps->len, (guint) ZOOMED); i++)
    {
      const IochartStealEpisode *ep = g_ptr_array_index (eps, i);
      gint64 len = ep->end_ns - ep->start_ns, pad = MAX (len / 2, 5000000);
      g_autofree char *id = g_strdup_printf ("episode-%u", i + 1);
      g_autofree char *h = g_strdup_printf ("Episode %u, zoomed", i + 1);
      g_autofree char *start = rel_s (ep->start_ns - b->start_ns), *dur = iochart_format_duration (len);
      g_autofree char *stolen = iochart_format_duration (ep->stolen_ns);
      g_autofree char *title = g_strdup_printf ("Episode %u: %s stolen in %s from %s", i + 1, stolen, dur, start);
      g_autofree char *padding = iochart_format_duration (pad);
      g_autofree char *cap = g_strdup_printf ("Episode %u of the table, with %s either side.", i + 1, padding);

      iochart_report_heading (b->report, 3, id, h);
      iochart_report_chart (b->report, io_chart (b, MAX (ep->start_ns - pad, b->start_ns),
                                                 MIN (ep->end_ns + pad, iochart_capture_get_end_ns (b->io)), 8, title, FALSE),
                            cap);
    }
}

/* ---- lanes ---- */

static int
cmp_lane_bytes (gconstpointer a, gconstpointer b)
{
  const IochartLane *x = *(const IochartLane * const *) a, *y = *(const IochartLane * const *) b;

  return (x->bytes < y->bytes) - (x->bytes > y->bytes);
}

static int
cmp_lane_wait (gconstpointer a, gconstpointer b)
{
  const IochartLane *x = *(const IochartLane * const *) a, *y = *(const IochartLane * const *) b;

  return (x->outstanding_ns < y->outstanding_ns) - (x->outstanding_ns > y->outstanding_ns);
}

static void
lane_table (Build *b, GCompareFunc cmp)
{
  g_autoptr(GPtrArray) lanes = g_ptr_array_new ();
  const char *cols[] = { "lane", "class", "processes", "requests", "bytes", "I/O outstanding", "first I/O", "last completion", NULL };

  for (guint l = 0; l < iochart_lanes_get_n_lanes (b->lanes); l++)
    g_ptr_array_add (lanes, (gpointer) iochart_lanes_get_lane (b->lanes, l));
  g_ptr_array_sort (lanes, cmp);
  iochart_report_table (b->report, cols);
  for (guint i = 0; i < MIN (lanes->len, (guint) TOP_LANES); i++)
    {
      const IochartLane *l = g_ptr_array_index (lanes, i);
      g_autofree char *np = iochart_format_count (l->n_processes), *nr = iochart_format_count (l->n_requests);
      g_autofree char *by = iochart_format_bytes (l->bytes), *out = iochart_format_duration (l->outstanding_ns);
      g_autofree char *first = l->first_io_ns != IOCHART_TIME_UNKNOWN ? rel_s (l->first_io_ns - b->start_ns) : g_strdup ("-");
      g_autofree char *last = l->last_io_ns != IOCHART_TIME_UNKNOWN ? rel_s (l->last_io_ns - b->start_ns) : g_strdup ("-");
      const char *row[] = { l->label, iochart_class_name (l->klass), np, nr, by, out, first, last };

      iochart_report_table_row (b->report, row);
    }
}

static void lanes_by_latency (Build *b);

static void
lanes_section (Build *b)
{
  g_autofree char *dev = dev_text (b->io, b->device);
  g_autofree char *t = g_strdup_printf ("A lane is a process with its short-lived descendants (find and the cats it "
                                        "runs), on %s. I/O outstanding: the time some request of the lane was queued "
                                        "or on the device.", dev);

  iochart_report_heading (b->report, 2, "lanes", "Top lanes");
  iochart_report_text (b->report, t);
  iochart_report_heading (b->report, 3, "lanes-bytes", "By bytes");
  lane_table (b, cmp_lane_bytes);
  iochart_report_heading (b->report, 3, "lanes-wait", "By time waiting for I/O");
  lane_table (b, cmp_lane_wait);
  lanes_by_latency (b);
}

/* ---- latency: the summary's btt breakdown ---- */

static char *
lat (gint64 ns)
{
  return ns == IOCHART_TIME_UNKNOWN ? g_strdup ("-") : iochart_format_duration (ns);
}

static void
latency_section (Build *b)
{
  const IochartSummaryDevice *sd = &g_array_index (b->summary->devices, IochartSummaryDevice, b->device);
  const char *cols[] = { "class", "span", "requests", "avg", "p50", "p95", "p99", "max", NULL };
  g_autofree char *dev = dev_text (b->io, b->device);
  g_autofree char *t = g_strdup_printf ("Where each request's time went on %s, as btt breaks it down: Q2I queued to "
                                        "inserted (waiting for a request or a plug), I2D in the scheduler, D2C on the "
                                        "device, Q2C the whole wait. A span counts when the capture saw both its ends.", dev);

  iochart_report_heading (b->report, 2, "latency", "Latency by class");
  iochart_report_text (b->report, t);
  iochart_report_table (b->report, cols);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    for (guint kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
      {
        const IochartLatencyStats *st = &sd->class_latency[k].kind[kind];
        g_autofree char *n = NULL, *avg = NULL, *p50 = NULL, *p95 = NULL, *p99 = NULL, *max = NULL;
        g_autofree char *span = g_ascii_strup (iochart_latency_kind_name (kind), -1);

        if (st->n == 0)
          continue;
        n = iochart_format_count (st->n);
        avg = lat (st->avg_ns), p50 = lat (st->p50_ns), p95 = lat (st->p95_ns), p99 = lat (st->p99_ns);
        max = lat (st->max_ns);
        {
          const char *row[] = { iochart_class_name (k), span, n, avg, p50, p95, p99, max };
          iochart_report_table_row (b->report, row);
        }
      }
}

static int
cmp_lane_p99 (gconstpointer a, gconstpointer b)
{
  const IochartSummaryLane *x = *(const IochartSummaryLane * const *) a, *y = *(const IochartSummaryLane * const *) b;
  gint64 px = x->latency.kind[IOCHART_LATENCY_Q2C].p99_ns, py = y->latency.kind[IOCHART_LATENCY_Q2C].p99_ns;

  return (px < py) - (px > py);
}

static void
lanes_by_latency (Build *b)
{
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  const char *cols[] = { "lane", "class", "requests", "Q2I avg", "I2D avg", "D2C avg", "Q2C avg", "Q2C p50", "Q2C p95",
                         "Q2C p99", "Q2C max", NULL };

  for (guint i = 0; i < b->summary->lane_rows->len; i++)
    {
      IochartSummaryLane *sl = &g_array_index (b->summary->lane_rows, IochartSummaryLane, i);

      if (sl->latency.kind[IOCHART_LATENCY_Q2C].n > 0)
        g_ptr_array_add (rows, sl);
    }
  g_ptr_array_sort (rows, cmp_lane_p99);
  iochart_report_heading (b->report, 3, "lanes-latency", "By latency (queue to complete p99), with the breakdown");
  iochart_report_table (b->report, cols);
  for (guint i = 0; i < MIN (rows->len, (guint) TOP_LANES); i++)
    {
      const IochartSummaryLane *sl = g_ptr_array_index (rows, i);
      const IochartLatencyStats *k = sl->latency.kind, *q = &k[IOCHART_LATENCY_Q2C];
      g_autofree char *n = iochart_format_count (q->n);
      g_autofree char *q2i = lat (k[IOCHART_LATENCY_Q2I].avg_ns), *i2d = lat (k[IOCHART_LATENCY_I2D].avg_ns);
      g_autofree char *d2c = lat (k[IOCHART_LATENCY_D2C].avg_ns), *avg = lat (q->avg_ns), *p50 = lat (q->p50_ns);
      g_autofree char *p95 = lat (q->p95_ns), *p99 = lat (q->p99_ns), *max = lat (q->max_ns);
      const char *row[] = { sl->l->label, iochart_class_name (sl->l->klass), n, q2i, i2d, d2c, avg, p50, p95, p99, max };

      iochart_report_table_row (b->report, row);
    }
}

/* ---- what if: the simulator's replays ---- */

static char *
end_change (const IochartSimFigures *obs, const IochartSimFigures *sim)
{
  g_autofree char *d = NULL;

  if (obs->end_ns == IOCHART_TIME_UNKNOWN || sim->end_ns == IOCHART_TIME_UNKNOWN)
    return g_strdup ("-");
  if (obs->end_ns == sim->end_ns)
    return g_strdup ("same");
  d = iochart_format_duration (ABS (sim->end_ns - obs->end_ns));
  return g_strdup_printf ("%s %s", d, sim->end_ns < obs->end_ns ? "earlier" : "later");
}

/* The lane the sentence is about: the non-idle lane with the most bytes. */
static int
foreground_lane (Build *b, const IochartSimFigures *obs)
{
  int best = -1;

  for (guint l = 0; l < iochart_lanes_get_n_lanes (b->lanes); l++)
    if (iochart_lanes_get_lane (b->lanes, l)->klass != IOCHART_CLASS_IDLE && obs[l].requests > 0 &&
        (best < 0 || obs[l].bytes > obs[best].bytes))
      best = l;
  return best;
}

static gboolean
what_if_one (Build *b, IochartSimWorkload *wl, IochartSimDevice *dev, const char *spec, const IochartSimFigures *obs,
             const IochartStealDevice *obs_steal, GError **error)
{
  guint n_lanes = iochart_lanes_get_n_lanes (b->lanes);
  g_autofree IochartSimFigures *sim = g_new0 (IochartSimFigures, MAX (n_lanes, 1));
  IochartSimFigures sim_classes[IOCHART_N_CLASSES];
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autofree char *described = iochart_sim_policy_describe (spec, 1);
  g_autofree char *id = NULL, *h = NULL, *sentence = NULL, *stolen_a = NULL, *stolen_b = NULL, *title = NULL;
  const IochartStealDevice *sd;
  const char *cols[] = { "lane", "class", "observed end", "simulated end", "change", "q2c p99 observed", "q2c p99 simulated", NULL };
  IochartSimStats stats;
  int fg;

  if ((c = iochart_sim_run (wl, dev, spec, &stats, error)) == NULL)
    return FALSE;
  iochart_sim_figures_lanes (c, b->device, b->lanes, sim, sim_classes);
  so.device = b->device;
  steal = iochart_steal_new (c, &so);
  sd = iochart_steal_find_device (steal, b->device);
  id = g_strdup_printf ("what-if-%s", spec);
  g_strcanon (id, "abcdefghijklmnopqrstuvwxyz0123456789-", '-');
  h = g_strdup_printf ("Under %s", spec);
  iochart_report_heading (b->report, 3, id, h);
  stolen_a = iochart_format_duration (obs_steal ? obs_steal->stolen_ns : 0);
  stolen_b = iochart_format_duration (sd ? sd->stolen_ns : 0);
  fg = foreground_lane (b, obs);
  if (fg >= 0)
    {
      g_autofree char *change = end_change (&obs[fg], &sim[fg]);
      sentence = g_strdup_printf ("Under %s, %s (%s) would end %s%s; idle steal %s instead of %s.", spec,
                                  iochart_lanes_get_lane (b->lanes, fg)->label,
                                  iochart_class_name (iochart_lanes_get_lane (b->lanes, fg)->klass),
                                  change, strcmp (change, "same") == 0 ? " as observed" : "", stolen_b, stolen_a);
    }
  else
    sentence = g_strdup_printf ("Under %s: idle steal %s instead of %s.", spec, stolen_b, stolen_a);
  iochart_report_verdict (b->report, sentence);
  {
    g_autofree char *t = g_strdup_printf ("Policy as simulated: %s.", described);
    iochart_report_text (b->report, t);
  }
  iochart_report_table (b->report, cols);
  for (guint l = 0; l < MIN (n_lanes, (guint) TOP_LANES); l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (b->lanes, l);
      g_autofree char *ea = obs[l].end_ns != IOCHART_TIME_UNKNOWN ? rel_s (obs[l].end_ns - b->start_ns) : g_strdup ("-");
      g_autofree char *eb = sim[l].end_ns != IOCHART_TIME_UNKNOWN ? rel_s (sim[l].end_ns - b->start_ns) : g_strdup ("-");
      g_autofree char *ch = end_change (&obs[l], &sim[l]);
      g_autofree char *pa = obs[l].requests ? lat (obs[l].q2c_p99_ns) : g_strdup ("-");
      g_autofree char *pb = sim[l].requests ? lat (sim[l].q2c_p99_ns) : g_strdup ("-");
      const char *row[] = { lane->label, iochart_class_name (lane->klass), ea, eb, ch, pa, pb };

      if (obs[l].requests == 0 && sim[l].requests == 0)
        continue;
      iochart_report_table_row (b->report, row);
    }
  title = g_strdup_printf ("%s, replayed under %s", b->o->title ? b->o->title : iochart_capture_get_name (b->io), spec);
  iochart_report_chart (b->report, chart_of (b, c, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, 12, title, FALSE),
                        "The same workload replayed by the simulator (closed loop: each process waits for its I/O as it did) "
                        "under this policy, on a device model fitted to the capture.");
  return TRUE;
}

static gboolean
what_if (Build *b, GError **error)
{
  IochartSimWorkloadOptions wo = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  guint n_lanes = iochart_lanes_get_n_lanes (b->lanes);
  g_autofree IochartSimFigures *obs = g_new0 (IochartSimFigures, MAX (n_lanes, 1));
  IochartSimFigures obs_classes[IOCHART_N_CLASSES];
  g_autofree char *t = NULL;

  wo.device = b->device;
  if ((wl = iochart_sim_workload_new (b->io, &wo, error)) == NULL ||
      (dev = iochart_sim_device_new (wl, "fit", error)) == NULL)
    return FALSE;
  iochart_sim_figures_lanes (b->io, b->device, b->lanes, obs, obs_classes);
  iochart_report_heading (b->report, 2, "what-if", "What if");
  t = g_strdup_printf ("The capture's %u requests replayed by the simulator under other policies, on a device model "
                       "fitted to the capture (%s). Simulated, not measured: I/O time only, CPU contention is not modelled.",
                       iochart_sim_workload_get_n_requests (wl), iochart_sim_device_describe (dev));
  iochart_report_text (b->report, t);
  for (guint i = 0; b->o->simulate[i]; i++)
    if (!what_if_one (b, wl, dev, b->o->simulate[i], obs, b->sd, error))
      return FALSE;
  return TRUE;
}

/* ---- annotations, reproduction ---- */

static void
annotations_section (Build *b)
{
  const char *cols[] = { "time", "annotation", "source", "chart", NULL };

  iochart_report_heading (b->report, 2, "annotations", "Annotations");
  if (b->marks->len + b->boot_marks->len == 0)
    {
      iochart_report_text (b->report, "None.");
      return;
    }
  iochart_report_text (b->report, "Times in seconds from the capture's start (the I/O chart) or since boot (the boot chart).");
  iochart_report_table (b->report, cols);
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *marks = pass == 0 ? b->marks : b->boot_marks;

      for (guint i = 0; i < marks->len; i++)
        {
          const Mark *m = &g_array_index (marks, Mark, i);
          g_autofree char *at = m->ns == IOCHART_TIME_UNKNOWN ? g_strdup ("-")
                                : rel_s (pass == 0 ? m->ns - b->start_ns : m->ns);
          const char *row[] = { at, m->label, m->source, m->where };

          iochart_report_table_row (b->report, row);
        }
    }
}

static int
cmp_path (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

char *
iochart_report_checksums (const char * const *paths, GError **error)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; paths && paths[i]; i++)
    {
      g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

      if (g_file_test (paths[i], G_FILE_TEST_IS_DIR))
        {
          g_autoptr(GDir) dir = g_dir_open (paths[i], 0, error);
          const char *name;

          if (dir == NULL)
            return g_string_free (out, TRUE), NULL;
          while ((name = g_dir_read_name (dir)) != NULL)
            g_ptr_array_add (files, g_build_filename (paths[i], name, NULL));
          g_ptr_array_sort (files, cmp_path);
        }
      else
        g_ptr_array_add (files, g_strdup (paths[i]));
      for (guint f = 0; f < files->len; f++)
        {
          const char *path = g_ptr_array_index (files, f);
          g_autoptr(GMappedFile) map = NULL;
          g_autofree char *sum = NULL;

          if (g_file_test (path, G_FILE_TEST_IS_DIR))
            continue;
          if ((map = g_mapped_file_new (path, FALSE, error)) == NULL)
            return g_string_free (out, TRUE), NULL;
          sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guchar *) g_mapped_file_get_contents (map),
                                             g_mapped_file_get_length (map));
          g_string_append_printf (out, "%s  %s\n", sum, path);
        }
    }
  return g_string_free (out, FALSE);
}

static gboolean
reproduce (Build *b, GError **error)
{
  g_autofree char *sums = iochart_report_checksums (b->o->paths, error);

  if (sums == NULL)
    return FALSE;
  iochart_report_heading (b->report, 2, "reproduce", "How to reproduce this report");
  iochart_report_text (b->report, "Made by iochart " PACKAGE_VERSION " with this command line:");
  iochart_report_code (b->report, b->o->command_line ? b->o->command_line : "");
  iochart_report_text (b->report, "from captures with these SHA-256 checksums (sha256sum -c reads these lines):");
  g_strchomp (sums);
  iochart_report_code (b->report, sums);
  return TRUE;
}

IochartReport *
iochart_report_build (IochartCapture *io, IochartBootchart *bc, const IochartReportOptions *o, GError **error)
{
  g_autoptr(IochartReport) report = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(GArray) marks = g_array_new (FALSE, TRUE, sizeof (Mark));
  g_autoptr(GArray) boot_marks = g_array_new (FALSE, TRUE, sizeof (Mark));
  g_autofree char *v = NULL;
  Build b = { o, NULL, io, bc, -1, 0, NULL, NULL, NULL, NULL, marks, boot_marks, o->width ? o->width : 1600 };

  g_return_val_if_fail (io != NULL || bc != NULL, NULL);
  g_array_set_clear_func (marks, mark_clear);
  g_array_set_clear_func (boot_marks, mark_clear);
  report = iochart_report_new (o->title ? o->title
                               : io ? iochart_capture_get_name (io) : iochart_bootchart_get_path (bc));
  b.report = report;
  if (io != NULL)
    {
      IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
      IochartSummaryOptions sumo = IOCHART_SUMMARY_OPTIONS_INIT;

      b.device = o->device >= 0 ? o->device : iochart_steal_pick_device (io);
      if (b.device < 0)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': no request on any device",
                       iochart_capture_get_name (io));
          return NULL;
        }
      b.start_ns = iochart_capture_get_start_ns (io);
      so.device = b.device;
      steal = iochart_steal_new (io, &so);
      b.steal = steal;
      b.sd = iochart_steal_find_device (steal, b.device);
      sumo.device = b.device;
      sumo.top = 0;
      summary = iochart_summary_new_full (io, &sumo);
      b.summary = summary;
      b.lanes = summary->lanes;
    }
  if (!user_marks (&b, error))
    return NULL;
  if (io != NULL)
    automatic_marks (&b);
  if (bc != NULL)
    boot_done_mark (&b);

  iochart_report_heading (report, 2, "summary", "Summary");
  v = verdict (&b);
  iochart_report_verdict (report, v);
  if (bc != NULL)
    boot_summary (&b);
  if (io != NULL)
    summary_tables (&b);
  if (!charts (&b, error))
    return NULL;
  if (io != NULL)
    {
      episodes (&b);
      latency_section (&b);
      lanes_section (&b);
      if (o->simulate != NULL && o->simulate[0] != NULL && !what_if (&b, error))
        return NULL;
    }
  annotations_section (&b);
  if (!reproduce (&b, error))
    return NULL;
  return g_steal_pointer (&report);
}
