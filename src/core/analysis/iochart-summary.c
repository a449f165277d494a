/* iochart-summary.c: per device, class, lane and process figures of a capture */
#include <stdlib.h>
#include <string.h>
#include "iochart-summary.h"
#include "iochart-capture-private.h"
#include "iochart-latency-private.h"
#include "iochart-steal.h"
#include "iochart-format.h"

/* ---- counts ---- */

gboolean
iochart_counts_request_in (const IochartRequest *rq, int device, gint64 from_ns, gint64 to_ns)
{
  if (rq->issues == 0 || (device >= 0 && rq->device != (guint) device))
    return FALSE;
  if (from_ns != IOCHART_TIME_UNKNOWN && rq->issue_ns < from_ns)
    return FALSE;
  return to_ns == IOCHART_TIME_UNKNOWN || rq->issue_ns < to_ns;
}

static void
count_add (IochartCount *c, guint64 requests, guint64 bytes)
{
  c->requests += requests;
  c->bytes += bytes;
}

static void
counts_add_request (IochartCounts *c, const IochartRequest *rq)
{
  guint64 bytes = (guint64) rq->issues * rq->bytes;

  count_add (&c->issued, rq->issues, bytes);
  count_add (&c->by_op[MIN (rq->op, IOCHART_N_OPS - 1)], rq->issues, bytes);
  count_add (&c->by_class[MIN (rq->klass, IOCHART_N_CLASSES - 1)], rq->issues, bytes);
  c->reissued += rq->issues - 1;
}

void
iochart_counts_compute (IochartCapture *capture, int device, gint64 from_ns, gint64 to_ns, IochartCounts *counts)
{
  iochart_counts_compute_among (capture, NULL, 0, device, from_ns, to_ns, counts);
}

void
iochart_counts_compute_among (IochartCapture *capture, const guint32 *requests, guint n_requests, int device,
                              gint64 from_ns, gint64 to_ns, IochartCounts *counts)
{
  guint n = requests ? n_requests : iochart_capture_get_n_requests (capture);

  memset (counts, 0, sizeof *counts);
  for (guint j = 0; j < n; j++)
    {
      IochartRequest rq;

      _iochart_capture_unpack (capture, requests ? requests[j] : j, &rq);
      if (rq.issues == 0 && (device < 0 || rq.device == (guint) device))
        counts->never_issued++;
      else if (iochart_counts_request_in (&rq, device, from_ns, to_ns))
        counts_add_request (counts, &rq);
    }
}

/* ---- building the summary ---- */

static int
cmp_process (const void *a, const void *b)
{
  const IochartSummaryProcess *x = a, *y = b;

  if (x->count.bytes != y->count.bytes)
    return x->count.bytes < y->count.bytes ? 1 : -1;
  if (x->count.requests != y->count.requests)
    return x->count.requests < y->count.requests ? 1 : -1;
  return x->p->pid - y->p->pid;
}

static int
cmp_lane (const void *a, const void *b)
{
  const IochartSummaryLane *x = a, *y = b;

  if (x->count.bytes != y->count.bytes)
    return x->count.bytes < y->count.bytes ? 1 : -1;
  if (x->count.requests != y->count.requests)
    return x->count.requests < y->count.requests ? 1 : -1;
  return (int) x->lane - (int) y->lane;
}

static void
init_devices (IochartSummary *s, IochartCapture *capture)
{
  s->devices = g_array_new (FALSE, TRUE, sizeof (IochartSummaryDevice));
  g_array_set_size (s->devices, iochart_capture_get_n_devices (capture));
  for (guint i = 0; i < s->devices->len; i++)
    {
      IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, i);

      d->dev = iochart_capture_get_device (capture, i)->dev;
      d->name = iochart_capture_get_device (capture, i)->name;
    }
}

static GArray *
init_processes (IochartCapture *capture)
{
  guint n = iochart_capture_get_n_processes (capture);
  GArray *procs = g_array_sized_new (FALSE, TRUE, sizeof (IochartSummaryProcess), n);

  g_array_set_size (procs, n);
  for (guint i = 0; i < n; i++)
    {
      g_array_index (procs, IochartSummaryProcess, i).process = i;
      g_array_index (procs, IochartSummaryProcess, i).p = iochart_capture_get_process (capture, i);
    }
  return procs;
}

/* Counts per device, per process and for the summary, and fills the latency groups: device,
 * device × class, class, process and lane of every request that counts, and the spans of every
 * request (values[kind * n + i]) from the same unpacking. */
static void
count_requests (IochartSummary *s, IochartCapture *capture, GArray *procs, gint32 **groups, gint64 *values,
                IochartCount *lane_counts)
{
  const IochartSummaryOptions *o = &s->options;
  guint n = iochart_capture_get_n_requests (capture);
  const IochartRequestRec *recs = (const IochartRequestRec *) capture->requests->data;
  gboolean filter = s->requests != NULL;

  for (guint i = 0; i < n; i++)
    {
      IochartRequest rq;
      gboolean mine;

      _iochart_rec_unpack (capture, &recs[i], &rq);
      for (guint kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
        values[(gsize) kind * n + i] = _iochart_latency_of (&rq, kind);
      for (guint g = 0; g < 5; g++)
        groups[g][i] = -1;
      /* a filtered-out lane's request counts nowhere, as it is drawn nowhere */
      if (filter && iochart_lanes_lane_of_request (s->lanes, &rq) < 0)
        continue;
      if (filter)
        g_array_append_val (s->requests, i);
      if (rq.issues == 0)
        {
          if (s->device < 0 || rq.device == (guint) s->device)
            s->counts.never_issued++;
          continue;
        }
      if (!iochart_counts_request_in (&rq, -1, o->from_ns, o->to_ns))
        continue;
      counts_add_request (&g_array_index (s->devices, IochartSummaryDevice, rq.device).counts, &rq);
      groups[0][i] = rq.device;
      groups[1][i] = rq.device * IOCHART_N_CLASSES + MIN (rq.klass, IOCHART_N_CLASSES - 1);
      mine = s->device < 0 || rq.device == (guint) s->device;
      if (!mine)
        continue;
      counts_add_request (&s->counts, &rq);
      groups[2][i] = MIN (rq.klass, IOCHART_N_CLASSES - 1);
      if (rq.process != IOCHART_NO_PROCESS)
        {
          IochartSummaryProcess *sp = &g_array_index (procs, IochartSummaryProcess, rq.process);

          count_add (&sp->count, rq.issues, (guint64) rq.issues * rq.bytes);
          groups[3][i] = rq.process;
        }
      groups[4][i] = iochart_lanes_lane_of_request (s->lanes, &rq);
      if (groups[4][i] >= 0)
        count_add (&lane_counts[groups[4][i]], rq.issues, (guint64) rq.issues * rq.bytes);
    }
}

static void
compute_latency (IochartSummary *s, IochartCapture *capture, GArray *procs)
{
  guint n = iochart_capture_get_n_requests (capture), n_dev = s->devices->len;
  guint n_lanes = iochart_lanes_get_n_lanes (s->lanes);
  g_autofree IochartLatencyRow *dev_rows = g_new0 (IochartLatencyRow, MAX (n_dev, 1));
  g_autofree IochartLatencyRow *dev_class_rows = g_new0 (IochartLatencyRow, MAX (n_dev, 1) * IOCHART_N_CLASSES);
  g_autofree IochartLatencyRow *proc_rows = g_new0 (IochartLatencyRow, MAX (procs->len, 1));
  g_autofree IochartLatencyRow *lane_rows = g_new0 (IochartLatencyRow, MAX (n_lanes, 1));
  g_autofree IochartCount *lane_counts = g_new0 (IochartCount, MAX (n_lanes, 1));
  gint32 *groups[5];
  g_autofree gint64 *values = g_new (gint64, (gsize) MAX (n, 1) * IOCHART_N_LATENCY_KINDS);
  IochartLatencyGrouping g[5] = {
    { NULL, n_dev, dev_rows },
    { NULL, n_dev * IOCHART_N_CLASSES, dev_class_rows },
    { NULL, IOCHART_N_CLASSES, s->class_latency },
    { NULL, procs->len, proc_rows },
    { NULL, n_lanes, lane_rows },
  };

  for (guint i = 0; i < 5; i++)
    g[i].group = groups[i] = g_new (gint32, MAX (n, 1));
  count_requests (s, capture, procs, groups, values, lane_counts);
  if (s->options.text_only && s->group_by != IOCHART_GROUP_PID)
    {
      g[3] = g[4];   /* no process rows are printed */
      _iochart_latency_compute_all (values, n, g, 4);
    }
  else
    _iochart_latency_compute_all (values, n, g, 5);
  for (guint d = 0; d < n_dev; d++)
    {
      IochartSummaryDevice *sd = &g_array_index (s->devices, IochartSummaryDevice, d);

      sd->latency = dev_rows[d];
      memcpy (sd->class_latency, &dev_class_rows[d * IOCHART_N_CLASSES], sizeof sd->class_latency);
    }
  for (guint i = 0; i < procs->len; i++)
    g_array_index (procs, IochartSummaryProcess, i).latency = proc_rows[i];
  s->lane_rows = g_array_sized_new (FALSE, TRUE, sizeof (IochartSummaryLane), n_lanes);
  for (guint i = 0; i < n_lanes; i++)
    {
      IochartSummaryLane row = { i, iochart_lanes_get_lane (s->lanes, i), lane_counts[i], lane_rows[i] };

      if (row.count.requests > 0)
        g_array_append_val (s->lane_rows, row);
    }
  for (guint i = 0; i < 5; i++)
    g_free (groups[i]);
}

static void
btt_rows (IochartSummary *s, IochartCapture *capture)
{
  s->btt_devices = g_array_new (FALSE, TRUE, sizeof (IochartSummaryBtt));
  s->btt_processes = g_array_new (FALSE, TRUE, sizeof (IochartSummaryBtt));
  for (guint i = 0; i < iochart_capture_get_n_btt_devices (capture); i++)
    {
      const IochartBttFigures *f = iochart_capture_get_btt_device (capture, i);
      IochartSummaryBtt row = { iochart_capture_get_device (capture, f->index)->dev, NULL, f->q2c, f->d2c };

      if (f->q2c.n > 0 && (s->device < 0 || (int) f->index == s->device))
        g_array_append_val (s->btt_devices, row);
    }
  for (guint i = 0; i < iochart_capture_get_n_btt_processes (capture); i++)
    {
      const IochartBttFigures *f = iochart_capture_get_btt_process (capture, i);
      IochartSummaryBtt row = { 0, f->comm, f->q2c, f->d2c };

      g_array_append_val (s->btt_processes, row);
    }
}

static void
add_time_splits (IochartSummary *s, IochartCapture *capture)
{
  g_autoptr(IochartTimeSplits) splits = iochart_time_splits_new (capture, s->options.from_ns,
                                                                  s->options.to_ns);

  s->has_time_split = splits != NULL;
  s->time_split_sampled = iochart_capture_task_states_are_sampled (capture);
  for (guint i = 0; splits != NULL && i < s->processes->len; i++)
    {
      IochartSummaryProcess *sp = &g_array_index (s->processes, IochartSummaryProcess, i);
      sp->split = *iochart_time_splits_get_process (splits, sp->process);
    }
}

IochartSummary *
iochart_summary_new_full (IochartCapture *capture, const IochartSummaryOptions *options)
{
  IochartSummary *s = g_new0 (IochartSummary, 1);
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(GArray) procs = init_processes (capture);
  gint64 start = iochart_capture_get_start_ns (capture), end = iochart_capture_get_end_ns (capture);

  s->options = *options;
  s->events = iochart_capture_get_n_events (capture);
  s->start_ns = start;
  s->wall_start_ns = iochart_capture_get_wall_start_ns (capture);
  s->span_ns = start == IOCHART_TIME_UNKNOWN ? 0 : end - start;
  s->device = options->device;
  s->primary = options->device >= 0 ? options->device : iochart_steal_pick_device (capture);
  init_devices (s, capture);

  lo.group_by = options->group_by;
  lo.top_n = 0;
  lo.device = options->device;
  lo.from_ns = options->from_ns;
  lo.to_ns = options->to_ns;
  lo.pids = options->pids;
  lo.n_pids = options->n_pids;
  lo.comms = options->comms;
  if (iochart_summary_options_filter (options))
    s->requests = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 64);   /* data never NULL: steal
                                                                             * options read NULL as all */
  s->lanes = iochart_lanes_new (capture, &lo);
  s->group_by = iochart_lanes_get_group_by (s->lanes);
  compute_latency (s, capture, procs);

  g_array_sort (procs, cmp_process);
  while (procs->len > 0 && g_array_index (procs, IochartSummaryProcess, procs->len - 1).count.requests == 0)
    g_array_set_size (procs, procs->len - 1);
  s->n_processes_with_io = procs->len;
  if (options->top > 0 && procs->len > options->top)
    g_array_set_size (procs, options->top);
  s->processes = g_steal_pointer (&procs);
  add_time_splits (s, capture);
  g_array_sort (s->lane_rows, cmp_lane);
  s->n_lanes = s->lane_rows->len;
  if (options->top > 0 && s->lane_rows->len > options->top)
    g_array_set_size (s->lane_rows, options->top);

  btt_rows (s, capture);
  s->issued_without_completion = iochart_capture_get_n_unmatched_issues (capture);
  s->completed_without_issue = iochart_capture_get_n_unmatched_completions (capture);
  s->requeues = iochart_capture_get_n_requeues (capture);
  s->lost_events = iochart_capture_get_n_lost_events (capture);
  s->request_store_bytes = iochart_capture_get_request_store_size (capture);
  s->model_bytes = iochart_capture_get_model_size (capture);
  s->n_requests = iochart_capture_get_n_requests (capture);
  /* the caller's: s->requests tells a filtered summary from now on */
  s->options.pids = NULL;
  s->options.comms = NULL;
  return s;
}

IochartSummary *
iochart_summary_new (IochartCapture *capture, int dev_index, guint top)
{
  IochartSummaryOptions o = IOCHART_SUMMARY_OPTIONS_INIT;

  o.device = dev_index;
  o.top = top;
  return iochart_summary_new_full (capture, &o);
}

IochartSummary *
iochart_summary_new_range (IochartCapture *capture, int dev_index, guint top, gint64 from_ns, gint64 to_ns)
{
  IochartSummaryOptions o = IOCHART_SUMMARY_OPTIONS_INIT;

  o.device = dev_index;
  o.top = top;
  o.from_ns = from_ns;
  o.to_ns = to_ns;
  return iochart_summary_new_full (capture, &o);
}

void
iochart_summary_free (IochartSummary *s)
{
  if (s == NULL)
    return;
  g_clear_pointer (&s->devices, g_array_unref);
  g_clear_pointer (&s->processes, g_array_unref);
  g_clear_pointer (&s->lane_rows, g_array_unref);
  g_clear_pointer (&s->lanes, iochart_lanes_free);
  g_clear_pointer (&s->btt_devices, g_array_unref);
  g_clear_pointer (&s->btt_processes, g_array_unref);
  g_clear_pointer (&s->requests, g_array_unref);
  g_free (s);
}

gboolean
iochart_summary_options_filter (const IochartSummaryOptions *options)
{
  return options->n_pids > 0 || (options->comms && options->comms[0]);
}

/* ---- JSON ---- */

static void
json_count (JsonBuilder *b, const char *name, const IochartCount *c)
{
  if (name != NULL)
    json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "requests");
  json_builder_add_int_value (b, c->requests);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, c->bytes);
  json_builder_end_object (b);
}

static void
json_ns (JsonBuilder *b, const char *name, gint64 ns)
{
  json_builder_set_member_name (b, name);
  if (ns == IOCHART_TIME_UNKNOWN)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, ns);
}

static void
json_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
json_latency (JsonBuilder *b, const IochartLatencyRow *row)
{
  json_builder_set_member_name (b, "latency");
  json_builder_begin_object (b);
  for (guint k = 0; k < IOCHART_N_LATENCY_KINDS; k++)
    {
      const IochartLatencyStats *st = &row->kind[k];

      json_builder_set_member_name (b, iochart_latency_kind_name (k));
      json_builder_begin_object (b);
      json_int (b, "n", st->n);
      json_ns (b, "avg_ns", st->avg_ns);
      json_ns (b, "min_ns", st->min_ns);
      json_ns (b, "p50_ns", st->p50_ns);
      json_ns (b, "p95_ns", st->p95_ns);
      json_ns (b, "p99_ns", st->p99_ns);
      json_ns (b, "max_ns", st->max_ns);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

static char *
dev_string (guint32 dev)
{
  return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));
}

static void
json_counts_members (JsonBuilder *b, const IochartCounts *c)
{
  json_int (b, "requests", c->issued.requests);
  json_int (b, "bytes", c->issued.bytes);
  for (guint op = 0; op < IOCHART_N_OPS; op++)
    json_count (b, iochart_op_name (op), &c->by_op[op]);
  json_int (b, "reissued", c->reissued);
}

/* `classes`: {CLASS: {requests, bytes, latency}} for the summary and for each device. */
static void
json_classes (JsonBuilder *b, const IochartCounts *counts, const IochartLatencyRow *latency)
{
  json_builder_set_member_name (b, "classes");
  json_builder_begin_object (b);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      json_builder_set_member_name (b, iochart_class_name (k));
      json_builder_begin_object (b);
      json_int (b, "requests", counts->by_class[k].requests);
      json_int (b, "bytes", counts->by_class[k].bytes);
      json_latency (b, &latency[k]);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

static void
json_devices (const IochartSummary *s, JsonBuilder *b)
{
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->devices->len; i++)
    {
      const IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, i);
      g_autofree char *dev = dev_string (d->dev);

      if (s->device >= 0 && (int) i != s->device)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "dev");
      json_builder_add_string_value (b, dev);
      if (d->name)
        {
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, d->name);
        }
      json_counts_members (b, &d->counts);
      json_classes (b, &d->counts, d->class_latency);
      json_latency (b, &d->latency);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
json_classes_used (JsonBuilder *b, guint mask)
{
  json_builder_set_member_name (b, "classes_used");
  json_builder_begin_array (b);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (mask & (1u << k))
      json_builder_add_string_value (b, iochart_class_name (k));
  json_builder_end_array (b);
}

static void
json_process (const IochartSummaryProcess *sp, gboolean with_split, JsonBuilder *b)
{
  const IochartProcess *p = sp->p;
  const IochartLatencyRow *lat = &sp->latency;

  json_builder_begin_object (b);
  json_int (b, "pid", p->pid);
  json_builder_set_member_name (b, "comm");
  json_builder_add_string_value (b, p->comm ? p->comm : "");
  json_builder_set_member_name (b, "class");
  json_builder_add_string_value (b, iochart_class_name (p->klass));
  json_int (b, "level", p->level);
  json_builder_set_member_name (b, "class_source");
  json_builder_add_string_value (b, iochart_class_source_name (p->class_source));
  json_classes_used (b, p->class_mask);
  json_int (b, "ppid", p->ppid);
  json_int (b, "requests", sp->count.requests);
  json_int (b, "bytes", sp->count.bytes);
  json_ns (b, "q2c_p50_ns", lat->kind[IOCHART_LATENCY_Q2C].p50_ns);
  json_ns (b, "q2c_p99_ns", lat->kind[IOCHART_LATENCY_Q2C].p99_ns);
  json_ns (b, "d2c_p50_ns", lat->kind[IOCHART_LATENCY_D2C].p50_ns);
  json_ns (b, "d2c_p99_ns", lat->kind[IOCHART_LATENCY_D2C].p99_ns);
  json_latency (b, lat);
  if (with_split)
    {
      json_builder_set_member_name (b, "time_split");
      iochart_time_split_to_json (&sp->split, b);
    }
  json_builder_end_object (b);
}

static void
json_lane (IochartCapture *capture, const IochartSummaryLane *sl, JsonBuilder *b)
{
  const IochartLane *l = sl->l;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, l->label);
  if (l->head != IOCHART_NO_PROCESS)
    json_int (b, "head_pid", iochart_capture_get_process (capture, l->head)->pid);
  json_builder_set_member_name (b, "class");
  json_builder_add_string_value (b, iochart_class_name (l->klass));
  json_classes_used (b, l->class_mask);
  json_int (b, "processes", l->n_processes);
  json_int (b, "requests", sl->count.requests);
  json_int (b, "bytes", sl->count.bytes);
  json_ns (b, "first_io_ns", l->first_io_ns);
  json_ns (b, "last_io_ns", l->last_io_ns);
  json_latency (b, &sl->latency);
  json_builder_end_object (b);
}

static void
json_btt_stat (JsonBuilder *b, const char *name, const IochartBttStat *st)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_ns (b, "min_ns", st->n ? st->min_ns : IOCHART_TIME_UNKNOWN);
  json_ns (b, "avg_ns", st->n ? st->sum_ns / (gint64) st->n : IOCHART_TIME_UNKNOWN);
  json_ns (b, "max_ns", st->n ? st->max_ns : IOCHART_TIME_UNKNOWN);
  json_int (b, "n", st->n);
  json_builder_end_object (b);
}

void
iochart_summary_btt_to_json (const IochartSummary *s, JsonBuilder *b)
{
  json_builder_set_member_name (b, "btt");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->btt_devices->len; i++)
    {
      const IochartSummaryBtt *r = &g_array_index (s->btt_devices, IochartSummaryBtt, i);
      g_autofree char *dev = dev_string (r->dev);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "dev");
      json_builder_add_string_value (b, dev);
      json_btt_stat (b, "q2c", &r->q2c);
      json_btt_stat (b, "d2c", &r->d2c);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->btt_processes->len; i++)
    {
      const IochartSummaryBtt *r = &g_array_index (s->btt_processes, IochartSummaryBtt, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "comm");
      json_builder_add_string_value (b, r->comm);
      json_btt_stat (b, "q2c", &r->q2c);
      json_btt_stat (b, "d2c", &r->d2c);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

void
iochart_summary_to_json (const IochartSummary *s, JsonBuilder *b)
{
  json_int (b, "events", s->events);
  json_ns (b, "start_ns", s->start_ns);
  json_ns (b, "wall_start_ns", s->wall_start_ns);
  json_int (b, "span_ns", s->span_ns);
  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  json_counts_members (b, &s->counts);
  json_int (b, "never_issued", s->counts.never_issued);
  json_builder_end_object (b);
  json_devices (s, b);
  json_classes (b, &s->counts, s->class_latency);
  json_int (b, "processes_with_io", s->n_processes_with_io);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->processes->len; i++)
    json_process (&g_array_index (s->processes, IochartSummaryProcess, i), s->has_time_split, b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "group_by");
  json_builder_add_string_value (b, iochart_group_by_name (s->group_by));
  json_int (b, "lanes_with_io", s->n_lanes);
  json_builder_set_member_name (b, "lanes");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->lane_rows->len; i++)
    json_lane (iochart_lanes_get_capture (s->lanes), &g_array_index (s->lane_rows, IochartSummaryLane, i), b);
  json_builder_end_array (b);
  iochart_summary_btt_to_json (s, b);
  json_builder_set_member_name (b, "unmatched");
  json_builder_begin_object (b);
  json_int (b, "issued_without_completion", s->issued_without_completion);
  json_int (b, "completed_without_issue", s->completed_without_issue);
  json_int (b, "requeues", s->requeues);
  json_builder_end_object (b);
  json_int (b, "lost_events", s->lost_events);
  if (s->has_time_split)
    {
      json_builder_set_member_name (b, "time_split_source");
      json_builder_add_string_value (b, s->time_split_sampled ? "bootchart-samples" : "sched");
    }
  json_builder_set_member_name (b, "memory");
  json_builder_begin_object (b);
  json_int (b, "requests_stored", s->n_requests);
  json_int (b, "request_store_bytes", s->request_store_bytes);
  json_int (b, "model_bytes", s->model_bytes);
  json_builder_end_object (b);
}

/* ---- text ---- */

static char *
ms_text (gint64 ns)
{
  return ns == IOCHART_TIME_UNKNOWN ? g_strdup ("-") : iochart_format_duration (ns);
}

static char *
ops_text (const IochartCounts *c)
{
  GString *out = g_string_new (NULL);

  for (guint op = 0; op < IOCHART_N_OPS; op++)
    {
      g_autofree char *n = iochart_format_count (c->by_op[op].requests);
      g_autofree char *bytes = iochart_format_bytes (c->by_op[op].bytes);

      if (c->by_op[op].requests == 0 && op != IOCHART_OP_READ && op != IOCHART_OP_WRITE)
        continue;
      g_string_append_printf (out, "%s%s %s", out->len ? ", " : "", iochart_op_name (op), n);
      if (op != IOCHART_OP_FLUSH)
        g_string_append_printf (out, " / %s", bytes);
    }
  if (c->reissued > 0)
    g_string_append_printf (out, "; %" G_GUINT64_FORMAT " issued again", c->reissued);
  return g_string_free (out, FALSE);
}

static char *
device_label (guint32 dev, const char *name)
{
  return g_strdup_printf ("%u,%u%s%s", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev), name ? " " : "", name ? name : "");
}

static void
print_devices (const IochartSummary *s, GString *out)
{
  g_string_append (out, "devices:\n");
  for (guint i = 0; i < s->devices->len; i++)
    {
      const IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, i);
      g_autofree char *label = device_label (d->dev, d->name);
      g_autofree char *n = iochart_format_count (d->counts.issued.requests);
      g_autofree char *bytes = iochart_format_bytes (d->counts.issued.bytes);
      g_autofree char *ops = ops_text (&d->counts);

      if (s->device >= 0 && (int) i != s->device)
        continue;
      g_string_append_printf (out, "  %-14s %9s request%s %11s  (%s)\n", label, n,
                              d->counts.issued.requests == 1 ? " " : "s", bytes, ops);
    }
}

static void
print_latency_rows (GString *out, const char *label, const IochartLatencyRow *row)
{
  for (guint k = 0; k < IOCHART_N_LATENCY_KINDS; k++)
    {
      const IochartLatencyStats *st = &row->kind[k];
      g_autofree char *n = iochart_format_count (st->n);
      g_autofree char *avg = ms_text (st->avg_ns), *p50 = ms_text (st->p50_ns), *p95 = ms_text (st->p95_ns);
      g_autofree char *p99 = ms_text (st->p99_ns), *max = ms_text (st->max_ns);
      g_autofree char *upper = g_ascii_strup (iochart_latency_kind_name (k), -1);

      g_string_append_printf (out, "  %-14s %-4s %9s %10s %10s %10s %10s %10s\n", k == 0 ? label : "", upper, n,
                              avg, p50, p95, p99, max);
    }
}

static void
print_latency (const IochartSummary *s, GString *out)
{
  g_string_append (out, "latency (Q2I: queue to insert, I2D: in the scheduler, D2C: on the device, Q2C: all):\n");
  g_string_append_printf (out, "  %-14s %-4s %9s %10s %10s %10s %10s %10s\n", "", "", "n", "avg", "p50", "p95", "p99", "max");
  for (guint i = 0; i < s->devices->len; i++)
    {
      const IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, i);
      g_autofree char *label = device_label (d->dev, d->name);

      if ((s->device < 0 || (int) i == s->device) && d->counts.issued.requests > 0)
        print_latency_rows (out, label, &d->latency);
    }
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (s->counts.by_class[k].requests > 0)
      print_latency_rows (out, iochart_class_name (k), &s->class_latency[k]);
}

char *
iochart_summary_class_line (const IochartSummary *s)
{
  static const IochartClass order[] = { IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_IDLE, IOCHART_CLASS_UNKNOWN };
  const IochartSummaryDevice *d;
  GString *out;
  g_autofree char *label = NULL;

  if (s->primary < 0 || (guint) s->primary >= s->devices->len)
    return NULL;
  d = &g_array_index (s->devices, IochartSummaryDevice, s->primary);
  if (d->counts.by_class[IOCHART_CLASS_BE].requests == 0 && d->counts.by_class[IOCHART_CLASS_IDLE].requests == 0)
    return NULL;
  label = device_label (d->dev, d->name);
  out = g_string_new (NULL);
  g_string_append_printf (out, "waited on %s (p50 / p99):", label);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      const IochartLatencyRow *row = &d->class_latency[order[i]];
      g_autofree char *s50 = ms_text (row->kind[IOCHART_LATENCY_I2D].p50_ns);
      g_autofree char *s99 = ms_text (row->kind[IOCHART_LATENCY_I2D].p99_ns);
      g_autofree char *d50 = ms_text (row->kind[IOCHART_LATENCY_D2C].p50_ns);
      g_autofree char *d99 = ms_text (row->kind[IOCHART_LATENCY_D2C].p99_ns);

      if (d->counts.by_class[order[i]].requests == 0)
        continue;
      g_string_append_printf (out, "%s %s %s / %s in the scheduler, %s / %s on the device",
                              out->str[out->len - 1] == ':' ? "" : ";", iochart_class_name (order[i]),
                              s50, s99, d50, d99);
    }
  return g_string_free (out, FALSE);
}

static const char *
class_text (IochartClass klass, guint level, char *buf, gsize size)
{
  if (klass == IOCHART_CLASS_NONE || klass >= IOCHART_CLASS_UNKNOWN)
    return iochart_class_name (klass);
  g_snprintf (buf, size, "%s%u", iochart_class_name (klass), level);
  return buf;
}

static void
latency_cells (GString *out, const IochartLatencyRow *row)
{
  static const IochartLatencyKind kinds[] = { IOCHART_LATENCY_I2D, IOCHART_LATENCY_D2C, IOCHART_LATENCY_Q2C };

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autofree char *p50 = ms_text (row->kind[kinds[i]].p50_ns);
      g_autofree char *p99 = ms_text (row->kind[kinds[i]].p99_ns);

      g_string_append_printf (out, " %9s %9s", p50, p99);
    }
  g_string_append_c (out, '\n');
}

static void
print_processes (const IochartSummary *s, GString *out)
{
  g_string_append_printf (out, "processes (%u of %u with I/O, by bytes):\n", s->processes->len, s->n_processes_with_io);
  g_string_append_printf (out, "  %8s %-16s %-7s %-14s %9s %11s %9s %9s %9s %9s %9s %9s\n", "pid", "comm", "class",
                          "source", "requests", "bytes", "I2D p50", "p99", "D2C p50", "p99", "Q2C p50", "p99");
  for (guint i = 0; i < s->processes->len; i++)
    {
      const IochartSummaryProcess *sp = &g_array_index (s->processes, IochartSummaryProcess, i);
      g_autofree char *bytes = iochart_format_bytes (sp->count.bytes);
      char buf[16];

      g_string_append_printf (out, "  %8d %-16s %-7s %-14s %9" G_GUINT64_FORMAT " %11s",
                              sp->p->pid, sp->p->comm ? sp->p->comm : "?",
                              class_text (sp->p->klass, sp->p->level, buf, sizeof buf),
                              iochart_class_source_name (sp->p->class_source), sp->count.requests, bytes);
      latency_cells (out, &sp->latency);
    }
}

static void
print_lanes_head (GString *out)
{
  g_string_append_printf (out, "  %-34s %-7s %9s %11s %9s %9s %9s %9s %9s %9s\n", "lane", "class", "requests", "bytes",
                          "I2D p50", "p99", "D2C p50", "p99", "Q2C p50", "p99");
}

static void print_lane_row (const IochartSummaryLane *sl, GString *out);

static void
print_lanes (const IochartSummary *s, GString *out)
{
  g_string_append_printf (out, "lanes (%u of %u with I/O, grouped by %s, by bytes):\n", s->lane_rows->len, s->n_lanes,
                          iochart_group_by_name (s->group_by));
  print_lanes_head (out);
  for (guint i = 0; i < s->lane_rows->len; i++)
    print_lane_row (&g_array_index (s->lane_rows, IochartSummaryLane, i), out);
}

gboolean
iochart_summary_print_lane (const IochartSummary *s, guint32 process, GString *out)
{
  int lane = iochart_lanes_lane_of_process (s->lanes, process);
  const IochartSummaryLane *sl = NULL;
  g_autofree char *from = NULL, *to = NULL, *name = NULL;

  for (guint i = 0; i < s->lane_rows->len && lane >= 0; i++)
    if (g_array_index (s->lane_rows, IochartSummaryLane, i).lane == (guint) lane)
      sl = &g_array_index (s->lane_rows, IochartSummaryLane, i);
  if (sl == NULL)
    return FALSE;
  name = g_path_get_basename (iochart_capture_get_name (iochart_lanes_get_capture (s->lanes)));
  g_string_append_printf (out, "%s: %s\n", name, sl->l->label);
  from = iochart_format_duration ((s->options.from_ns != IOCHART_TIME_UNKNOWN ? s->options.from_ns : s->start_ns) -
                                  s->start_ns);
  to = iochart_format_duration (s->options.to_ns != IOCHART_TIME_UNKNOWN ? s->options.to_ns - s->start_ns
                                                                         : s->span_ns);
  if (s->device >= 0)
    {
      const IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, s->device);
      g_string_append_printf (out, "device %u,%u, requests issued from %s to %s\n", IOCHART_DEV_MAJOR (d->dev),
                              IOCHART_DEV_MINOR (d->dev), from, to);
    }
  else
    g_string_append_printf (out, "every device, requests issued from %s to %s\n", from, to);
  print_lanes_head (out);
  print_lane_row (sl, out);
  return TRUE;
}

static void
print_lane_row (const IochartSummaryLane *sl, GString *out)
{
  g_autofree char *bytes = iochart_format_bytes (sl->count.bytes);
  glong len = g_utf8_strlen (sl->l->label, -1);
  /* a long name keeps its start and says it was cut */
  g_autofree char *cut = g_utf8_substring (sl->l->label, 0, MIN (len, 33));
  g_autofree char *label = len > 34 ? g_strconcat (cut, "…", NULL) : g_strdup (sl->l->label);
  glong pad = 34 - g_utf8_strlen (label, -1);
  g_autofree char *n = iochart_format_count (sl->count.requests);

  g_string_append_printf (out, "  %s%*s %-7s %9s %11s", label, (int) MAX (pad, 0), "",
                          iochart_class_name (sl->l->klass), n, bytes);
  latency_cells (out, &sl->latency);
}

/* Each listed process's life as shares, from the scheduler's events. */
static void
print_time_split (const IochartSummary *s, GString *out)
{
  g_string_append_printf (out, "time split (%s; share of each life):\n", s->time_split_sampled
                          ? "bootchart samples: coarse, a state holds a whole sample period"
                          : "sched_switch/sched_wakeup");
  g_string_append_printf (out, "  %8s %-16s %10s %8s %9s %8s %8s %8s\n", "pid", "comm", "life",
                          "running", "runnable", "io wait", "other D", "sleep");
  for (guint i = 0; i < s->processes->len; i++)
    {
      const IochartSummaryProcess *sp = &g_array_index (s->processes, IochartSummaryProcess, i);
      g_autofree char *life = iochart_format_duration (sp->split.life_ns);
      double l = MAX (sp->split.life_ns, 1);

      if (sp->split.life_ns == 0)
        continue;
      g_string_append_printf (out, "  %8d %-16s %10s %7.1f%% %8.1f%% %7.1f%% %7.1f%% %7.1f%%\n",
                              sp->p->pid, sp->p->comm ? sp->p->comm : "?", life,
                              100 * sp->split.ns[IOCHART_SPLIT_RUNNING] / l,
                              100 * sp->split.ns[IOCHART_SPLIT_RUNNABLE] / l,
                              100 * sp->split.ns[IOCHART_SPLIT_IO_WAIT] / l,
                              100 * sp->split.ns[IOCHART_SPLIT_OTHER_D] / l,
                              100 * sp->split.ns[IOCHART_SPLIT_SLEEP] / l);
    }
}

void
iochart_summary_print (const IochartSummary *s, GString *out)
{
  g_autofree char *span = iochart_format_duration (s->span_ns);
  g_autofree char *model = iochart_format_bytes (s->model_bytes);
  g_autofree char *issued = iochart_format_count (s->counts.issued.requests);
  g_autofree char *bytes = iochart_format_bytes (s->counts.issued.bytes);
  g_autofree char *class_line = iochart_summary_class_line (s);

  g_string_append_printf (out, "events: %" G_GUINT64_FORMAT "   span: %s   requests: %s issued, %s   model: %s (%.1f bytes an event)\n",
                          s->events, span, issued, bytes, model,
                          s->events ? (double) s->model_bytes / s->events : 0.0);
  if (s->wall_start_ns != IOCHART_TIME_UNKNOWN)
    {
      g_autoptr(GDateTime) t = g_date_time_new_from_unix_utc (s->wall_start_ns / 1000000000);
      g_autofree char *when = t ? g_date_time_format (t, "%Y-%m-%d %H:%M:%S UTC") : NULL;

      if (when != NULL)
        g_string_append_printf (out, "recorded: %s\n", when);
    }
  print_devices (s, out);
  g_string_append (out, "classes:\n");
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (s->counts.by_class[k].requests > 0)
      {
        g_autofree char *n = iochart_format_count (s->counts.by_class[k].requests);
        g_autofree char *b = iochart_format_bytes (s->counts.by_class[k].bytes);

        g_string_append_printf (out, "  %-14s %9s request%s %11s\n", iochart_class_name (k), n,
                                s->counts.by_class[k].requests == 1 ? " " : "s", b);
      }
  print_latency (s, out);
  if (class_line != NULL)
    g_string_append_printf (out, "%s\n", class_line);
  if (s->group_by == IOCHART_GROUP_PID)
    print_processes (s, out);
  else
    print_lanes (s, out);
  if (s->has_time_split)
    print_time_split (s, out);
  g_string_append_printf (out, "unmatched: %" G_GUINT64_FORMAT " issued without completion, %" G_GUINT64_FORMAT
                          " completed without issue, %" G_GUINT64_FORMAT " queued or inserted but never issued; %"
                          G_GUINT64_FORMAT " requeues\n",
                          s->issued_without_completion, s->completed_without_issue, s->counts.never_issued, s->requeues);
  if (s->lost_events > 0)
    g_string_append_printf (out, "lost: %" G_GUINT64_FORMAT " events dropped by the kernel while "
                            "recording (ring buffer full)\n", s->lost_events);
}

static void
btt_line (GString *out, const char *label, const IochartBttStat *st)
{
  if (st->n == 0)
    return;
  g_string_append_printf (out, "%-15s %13.9f %13.9f %13.9f %11" G_GUINT64_FORMAT "\n", label, st->min_ns / 1e9,
                          (double) st->sum_ns / st->n / 1e9, st->max_ns / 1e9, st->n);
}

static void
btt_section (const IochartSummary *s, GString *out, gboolean processes, gboolean d2c)
{
  GArray *rows = processes ? s->btt_processes : s->btt_devices;

  g_string_append_printf (out, "\n%15s %13s %13s %13s %11s\n", d2c ? "D2C" : "Q2C", "MIN", "AVG", "MAX", "N");
  g_string_append (out, "--------------- ------------- ------------- ------------- -----------\n");
  for (guint i = 0; i < rows->len; i++)
    {
      const IochartSummaryBtt *r = &g_array_index (rows, IochartSummaryBtt, i);
      g_autofree char *label = processes ? g_strdup (r->comm)
                               : g_strdup_printf ("(%3u,%3u)", IOCHART_DEV_MAJOR (r->dev), IOCHART_DEV_MINOR (r->dev));

      btt_line (out, label, d2c ? &r->d2c : &r->q2c);
    }
}

void
iochart_summary_print_btt (const IochartSummary *s, GString *out)
{
  g_string_append (out, "btt figures: each queued bio from its queue event to its request's completion "
                        "(bios that were split are left out, as btt counts them), seconds\n");
  g_string_append (out, "\n==================== Per Process ====================\n");
  btt_section (s, out, TRUE, TRUE);
  btt_section (s, out, TRUE, FALSE);
  g_string_append (out, "\n==================== Per Device ====================\n");
  btt_section (s, out, FALSE, TRUE);
  btt_section (s, out, FALSE, FALSE);
}
