/* iochart-summary.c: per device, class and process figures of a capture */
#include <stdlib.h>
#include "iochart-summary.h"
#include "iochart-format.h"

typedef struct {
  GArray *q2c;   /* gint64 */
  GArray *d2c;
} LatencySamples;

static int
cmp_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentiles, as btt and fio report them. */
static IochartLatency
percentiles (GArray *samples)
{
  IochartLatency lat = { IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, 0 };
  gint64 *v;

  if (samples == NULL || samples->len == 0)
    return lat;
  v = (gint64 *) samples->data;
  qsort (v, samples->len, sizeof (gint64), cmp_i64);
  lat.n = samples->len;
  lat.p50_ns = v[(guint) ((samples->len * 50 + 99) / 100) - 1];
  lat.p99_ns = v[(guint) ((samples->len * 99 + 99) / 100) - 1];
  return lat;
}

static void
add_sample (GArray **arr, gint64 v)
{
  if (*arr == NULL)
    *arr = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_array_append_val (*arr, v);
}

static void
count_request (IochartSummary *s, const IochartRequest *r, IochartSummaryProcess *sp, LatencySamples *lat)
{
  IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, r->device);
  guint64 bytes = (guint64) r->issues * r->bytes;
  gint64 start = r->queue_ns != IOCHART_TIME_UNKNOWN ? r->queue_ns : r->insert_ns;

  d->total.requests += r->issues;
  d->total.bytes += bytes;
  d->by_op[r->op].requests += r->issues;
  d->by_op[r->op].bytes += bytes;
  s->classes[r->klass].requests += r->issues;
  s->classes[r->klass].bytes += bytes;
  if (sp == NULL)
    return;
  sp->count.requests += r->issues;
  sp->count.bytes += bytes;
  if (r->complete_ns == IOCHART_TIME_UNKNOWN)
    return;
  if (start != IOCHART_TIME_UNKNOWN)
    add_sample (&lat->q2c, r->complete_ns - start);
  add_sample (&lat->d2c, r->complete_ns - r->issue_ns);
}

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

static void
summarise_requests (IochartSummary *s, IochartCapture *capture, GArray *procs, LatencySamples *lat)
{
  guint n = iochart_capture_get_n_requests (capture);

  for (guint i = 0; i < n; i++)
    {
      IochartRequest r;
      IochartSummaryProcess *sp = NULL;

      iochart_capture_get_request (capture, i, &r);
      if (r.issues == 0 || (s->device >= 0 && r.device != (guint) s->device))
        continue;
      /* a range counts the requests issued inside it */
      if ((s->range_from_ns != IOCHART_TIME_UNKNOWN && r.issue_ns < s->range_from_ns) ||
          (s->range_to_ns != IOCHART_TIME_UNKNOWN && r.issue_ns >= s->range_to_ns))
        continue;
      if (r.process != IOCHART_NO_PROCESS)
        sp = &g_array_index (procs, IochartSummaryProcess, r.process);
      count_request (s, &r, sp, sp ? &lat[r.process] : NULL);
    }
}

static void
add_time_splits (IochartSummary *s, IochartCapture *capture)
{
  g_autoptr(IochartTimeSplits) splits = iochart_time_splits_new (capture, IOCHART_TIME_UNKNOWN,
                                                                  IOCHART_TIME_UNKNOWN);

  s->has_time_split = splits != NULL;
  for (guint i = 0; splits != NULL && i < s->processes->len; i++)
    {
      IochartSummaryProcess *sp = &g_array_index (s->processes, IochartSummaryProcess, i);
      sp->split = *iochart_time_splits_get_process (splits, sp->process);
    }
}

IochartSummary *
iochart_summary_new (IochartCapture *capture, int dev_index, guint top)
{
  return iochart_summary_new_range (capture, dev_index, top, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN);
}

IochartSummary *
iochart_summary_new_range (IochartCapture *capture, int dev_index, guint top, gint64 from_ns, gint64 to_ns)
{
  IochartSummary *s = g_new0 (IochartSummary, 1);
  guint n_procs = iochart_capture_get_n_processes (capture);
  g_autoptr(GArray) procs = g_array_sized_new (FALSE, TRUE, sizeof (IochartSummaryProcess), n_procs);
  g_autofree LatencySamples *lat = g_new0 (LatencySamples, n_procs);
  gint64 start = iochart_capture_get_start_ns (capture), end = iochart_capture_get_end_ns (capture);

  s->events = iochart_capture_get_n_events (capture);
  s->start_ns = start;
  s->wall_start_ns = iochart_capture_get_wall_start_ns (capture);
  s->span_ns = start == IOCHART_TIME_UNKNOWN ? 0 : end - start;
  s->device = dev_index;
  s->range_from_ns = from_ns;
  s->range_to_ns = to_ns;
  s->devices = g_array_new (FALSE, TRUE, sizeof (IochartSummaryDevice));
  g_array_set_size (s->devices, iochart_capture_get_n_devices (capture));
  for (guint i = 0; i < s->devices->len; i++)
    {
      IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, i);
      d->dev = iochart_capture_get_device (capture, i)->dev;
      d->name = iochart_capture_get_device (capture, i)->name;
    }
  g_array_set_size (procs, n_procs);
  for (guint i = 0; i < n_procs; i++)
    {
      g_array_index (procs, IochartSummaryProcess, i).process = i;
      g_array_index (procs, IochartSummaryProcess, i).p = iochart_capture_get_process (capture, i);
    }
  summarise_requests (s, capture, procs, lat);
  for (guint i = 0; i < n_procs; i++)
    {
      IochartSummaryProcess *sp = &g_array_index (procs, IochartSummaryProcess, i);

      sp->q2c = percentiles (lat[i].q2c);
      sp->d2c = percentiles (lat[i].d2c);
      g_clear_pointer (&lat[i].q2c, g_array_unref);
      g_clear_pointer (&lat[i].d2c, g_array_unref);
    }
  g_array_sort (procs, cmp_process);
  while (procs->len > 0 && g_array_index (procs, IochartSummaryProcess, procs->len - 1).count.requests == 0)
    g_array_set_size (procs, procs->len - 1);
  s->n_processes_with_io = procs->len;
  if (top > 0 && procs->len > top)
    g_array_set_size (procs, top);
  s->processes = g_steal_pointer (&procs);
  add_time_splits (s, capture);
  s->issued_without_completion = iochart_capture_get_n_unmatched_issues (capture);
  s->completed_without_issue = iochart_capture_get_n_unmatched_completions (capture);
  s->requeues = iochart_capture_get_n_requeues (capture);
  s->lost_events = iochart_capture_get_n_lost_events (capture);
  s->request_store_bytes = iochart_capture_get_request_store_size (capture);
  s->model_bytes = iochart_capture_get_model_size (capture);
  s->n_requests = iochart_capture_get_n_requests (capture);
  return s;
}

void
iochart_summary_free (IochartSummary *s)
{
  if (s == NULL)
    return;
  g_clear_pointer (&s->devices, g_array_unref);
  g_clear_pointer (&s->processes, g_array_unref);
  g_free (s);
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

static char *
dev_string (guint32 dev)
{
  return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));
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
      json_builder_set_member_name (b, "requests");
      json_builder_add_int_value (b, d->total.requests);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, d->total.bytes);
      for (guint op = 0; op < IOCHART_N_OPS; op++)
        json_count (b, iochart_op_name (op), &d->by_op[op]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
json_process (const IochartSummaryProcess *sp, gboolean with_split, JsonBuilder *b)
{
  const IochartProcess *p = sp->p;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, p->pid);
  json_builder_set_member_name (b, "comm");
  json_builder_add_string_value (b, p->comm ? p->comm : "");
  json_builder_set_member_name (b, "class");
  json_builder_add_string_value (b, iochart_class_name (p->klass));
  json_builder_set_member_name (b, "level");
  json_builder_add_int_value (b, p->level);
  json_builder_set_member_name (b, "class_source");
  json_builder_add_string_value (b, iochart_class_source_name (p->class_source));
  json_builder_set_member_name (b, "classes_used");
  json_builder_begin_array (b);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (p->class_mask & (1u << k))
      json_builder_add_string_value (b, iochart_class_name (k));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "ppid");
  json_builder_add_int_value (b, p->ppid);
  json_builder_set_member_name (b, "requests");
  json_builder_add_int_value (b, sp->count.requests);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, sp->count.bytes);
  json_ns (b, "q2c_p50_ns", sp->q2c.p50_ns);
  json_ns (b, "q2c_p99_ns", sp->q2c.p99_ns);
  json_ns (b, "d2c_p50_ns", sp->d2c.p50_ns);
  json_ns (b, "d2c_p99_ns", sp->d2c.p99_ns);
  if (with_split)
    {
      json_builder_set_member_name (b, "time_split");
      iochart_time_split_to_json (&sp->split, b);
    }
  json_builder_end_object (b);
}

void
iochart_summary_to_json (const IochartSummary *s, JsonBuilder *b)
{
  json_builder_set_member_name (b, "events");
  json_builder_add_int_value (b, s->events);
  json_ns (b, "start_ns", s->start_ns);
  json_ns (b, "wall_start_ns", s->wall_start_ns);
  json_builder_set_member_name (b, "span_ns");
  json_builder_add_int_value (b, s->span_ns);
  json_devices (s, b);
  json_builder_set_member_name (b, "classes");
  json_builder_begin_object (b);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    json_count (b, iochart_class_name (k), &s->classes[k]);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "processes_with_io");
  json_builder_add_int_value (b, s->n_processes_with_io);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->processes->len; i++)
    json_process (&g_array_index (s->processes, IochartSummaryProcess, i), s->has_time_split, b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "unmatched");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "issued_without_completion");
  json_builder_add_int_value (b, s->issued_without_completion);
  json_builder_set_member_name (b, "completed_without_issue");
  json_builder_add_int_value (b, s->completed_without_issue);
  json_builder_set_member_name (b, "requeues");
  json_builder_add_int_value (b, s->requeues);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "lost_events");
  json_builder_add_int_value (b, s->lost_events);
  json_builder_set_member_name (b, "memory");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "requests_stored");
  json_builder_add_int_value (b, s->n_requests);
  json_builder_set_member_name (b, "request_store_bytes");
  json_builder_add_int_value (b, s->request_store_bytes);
  json_builder_set_member_name (b, "model_bytes");
  json_builder_add_int_value (b, s->model_bytes);
  json_builder_end_object (b);
}

/* ---- text ---- */

static void
print_count (GString *out, const char *label, const IochartCount *c)
{
  g_autofree char *bytes = iochart_format_bytes (c->bytes);

  g_string_append_printf (out, "  %-10s %10" G_GUINT64_FORMAT " requests %12s\n", label, c->requests, bytes);
}

static void
print_devices (const IochartSummary *s, GString *out)
{
  g_string_append (out, "devices:\n");
  for (guint i = 0; i < s->devices->len; i++)
    {
      const IochartSummaryDevice *d = &g_array_index (s->devices, IochartSummaryDevice, i);
      g_autofree char *dev = dev_string (d->dev);
      g_autofree char *total = iochart_format_bytes (d->total.bytes);
      g_autofree char *rd = iochart_format_bytes (d->by_op[IOCHART_OP_READ].bytes);
      g_autofree char *wr = iochart_format_bytes (d->by_op[IOCHART_OP_WRITE].bytes);

      if (s->device >= 0 && (int) i != s->device)
        continue;
      g_string_append_printf (out, "  %-8s %-8s %9" G_GUINT64_FORMAT " requests %11s  (read %" G_GUINT64_FORMAT
                              " / %s, write %" G_GUINT64_FORMAT " / %s)\n",
                              dev, d->name ? d->name : "", d->total.requests, total,
                              d->by_op[IOCHART_OP_READ].requests, rd, d->by_op[IOCHART_OP_WRITE].requests, wr);
    }
}

static char *
latency_text (gint64 ns)
{
  return ns == IOCHART_TIME_UNKNOWN ? g_strdup ("-") : iochart_format_duration (ns);
}

static void
print_processes (const IochartSummary *s, GString *out)
{
  g_string_append_printf (out, "processes (%u of %u with I/O, by bytes):\n", s->processes->len, s->n_processes_with_io);
  g_string_append_printf (out, "  %8s %-16s %-7s %-14s %9s %11s %10s %10s %10s %10s\n", "pid", "comm", "class",
                          "source", "requests", "bytes", "q2c p50", "q2c p99", "d2c p50", "d2c p99");
  for (guint i = 0; i < s->processes->len; i++)
    {
      const IochartSummaryProcess *sp = &g_array_index (s->processes, IochartSummaryProcess, i);
      g_autofree char *bytes = iochart_format_bytes (sp->count.bytes);
      g_autofree char *q50 = latency_text (sp->q2c.p50_ns);
      g_autofree char *q99 = latency_text (sp->q2c.p99_ns);
      g_autofree char *d50 = latency_text (sp->d2c.p50_ns);
      g_autofree char *d99 = latency_text (sp->d2c.p99_ns);
      g_autofree char *klass = sp->p->klass <= IOCHART_CLASS_IDLE && sp->p->klass != IOCHART_CLASS_NONE
                               ? g_strdup_printf ("%s%u", iochart_class_name (sp->p->klass), sp->p->level)
                               : g_strdup (iochart_class_name (sp->p->klass));

      g_string_append_printf (out, "  %8d %-16s %-7s %-14s %9" G_GUINT64_FORMAT " %11s %10s %10s %10s %10s\n",
                              sp->p->pid, sp->p->comm ? sp->p->comm : "?", klass,
                              iochart_class_source_name (sp->p->class_source), sp->count.requests, bytes,
                              q50, q99, d50, d99);
    }
}

/* Each listed process's life as shares, from the scheduler's events. */
static void
print_time_split (const IochartSummary *s, GString *out)
{
  g_string_append (out, "time split (sched_switch/sched_wakeup; share of each life):\n");
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

  g_string_append_printf (out, "events: %" G_GUINT64_FORMAT "   span: %s   requests: %u   model: %s (%.1f bytes an event)\n",
                          s->events, span, s->n_requests, model,
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
    if (s->classes[k].requests > 0)
      print_count (out, iochart_class_name (k), &s->classes[k]);
  print_processes (s, out);
  if (s->has_time_split)
    print_time_split (s, out);
  g_string_append_printf (out, "unmatched: %" G_GUINT64_FORMAT " issued without completion, %" G_GUINT64_FORMAT
                          " completed without issue; %" G_GUINT64_FORMAT " requeues\n",
                          s->issued_without_completion, s->completed_without_issue, s->requeues);
  if (s->lost_events > 0)
    g_string_append_printf (out, "lost: %" G_GUINT64_FORMAT " events dropped by the kernel while "
                            "recording (ring buffer full)\n", s->lost_events);
}
