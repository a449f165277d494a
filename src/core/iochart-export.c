/* iochart-export.c: requests as CSV, JSON rows or Chrome trace events */
#include <stdio.h>
#include <string.h>
#include <archive.h>
#include <archive_entry.h>
#include <json-glib/json-glib.h>
#include "iochart-export.h"
#include "iochart-error.h"
#include "analysis/iochart-lanes.h"
#include "analysis/iochart-bins.h"
#include "analysis/iochart-steal.h"

const char * const iochart_export_columns[] = {
  "capture", "device", "sector", "bytes", "op", "class", "level", "class_source", "pid", "comm", "lane",
  "issues", "queue_ns", "insert_ns", "issue_ns", "complete_ns", NULL
};

gboolean
iochart_export_format_from_name (const char *name, IochartExportFormat *format)
{
  static const char * const names[] = { "csv", "json", "perfetto" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      {
        *format = i;
        return TRUE;
      }
  return FALSE;
}

/* ---- output: a file, standard output, or a zstd stream through libarchive ---- */

typedef struct {
  const char     *path;
  FILE           *file;
  struct archive *archive;
  GString        *buf;
  gboolean        failed;
} Sink;

static gboolean
sink_open (Sink *s, const char *path, gboolean zstd, GError **error)
{
  s->path = path;
  s->buf = g_string_sized_new (1 << 17);
  if (zstd)
    {
      struct archive_entry *e;

      /* the raw format writes one stream, no archive around it */
      s->archive = archive_write_new ();
      if (archive_write_add_filter_zstd (s->archive) != ARCHIVE_OK ||
          archive_write_set_format_raw (s->archive) != ARCHIVE_OK ||
          archive_write_open_filename (s->archive, strcmp (path, "-") == 0 ? NULL : path) != ARCHIVE_OK)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path,
                       archive_error_string (s->archive));
          return FALSE;
        }
      e = archive_entry_new ();
      archive_entry_set_filetype (e, AE_IFREG);
      archive_entry_set_pathname (e, "export");
      archive_write_header (s->archive, e);
      archive_entry_free (e);
      return TRUE;
    }
  s->file = strcmp (path, "-") == 0 ? stdout : fopen (path, "wb");
  if (s->file == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static void
sink_flush (Sink *s)
{
  if (s->buf->len == 0 || s->failed)
    return;
  if (s->archive != NULL)
    s->failed = archive_write_data (s->archive, s->buf->str, s->buf->len) < 0;
  else
    s->failed = fwrite (s->buf->str, 1, s->buf->len, s->file) != s->buf->len;
  g_string_truncate (s->buf, 0);
}

static void
sink_maybe_flush (Sink *s)
{
  if (s->buf->len >= (1 << 16))
    sink_flush (s);
}

static gboolean
sink_close (Sink *s, GError **error)
{
  sink_flush (s);
  if (s->archive != NULL)
    {
      s->failed |= archive_write_close (s->archive) != ARCHIVE_OK;
      archive_write_free (s->archive);
    }
  else if (s->file != NULL)
    s->failed |= (s->file == stdout ? fflush (s->file) : fclose (s->file)) != 0;
  g_string_free (s->buf, TRUE);
  if (s->failed)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write", s->path);
      return FALSE;
    }
  return TRUE;
}

/* ---- one row per request ---- */

typedef struct {
  IochartCapture *capture;
  IochartLanes   *lanes;
  gint64          start_ns;
} Rows;

/* RFC 4180: quoted when it holds a comma, a quote or a line break. */
static void
csv_field (GString *out, const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static gint64
rel (const Rows *rows, gint64 ns)
{
  return ns == IOCHART_TIME_UNKNOWN ? IOCHART_TIME_UNKNOWN : ns - rows->start_ns;
}

static const char *
lane_label (const Rows *rows, const IochartRequest *r)
{
  int lane = iochart_lanes_lane_of_request (rows->lanes, r);

  return lane >= 0 ? iochart_lanes_get_lane (rows->lanes, lane)->label : "";
}

/* The row's values as a JSON object: the CSV writes the same members as text. */
static JsonObject *
row_object (const Rows *rows, const IochartRequest *r)
{
  JsonObject *o = json_object_new ();
  const IochartProcess *p = r->process != IOCHART_NO_PROCESS ? iochart_capture_get_process (rows->capture, r->process) : NULL;
  guint32 dev = iochart_capture_get_device (rows->capture, r->device)->dev;
  g_autofree char *devs = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));
  const gint64 times[] = { rel (rows, r->queue_ns), rel (rows, r->insert_ns), rel (rows, r->issue_ns),
                           rel (rows, r->complete_ns) };

  json_object_set_string_member (o, "capture", iochart_capture_get_name (rows->capture));
  json_object_set_string_member (o, "device", devs);
  json_object_set_int_member (o, "sector", r->sector);
  json_object_set_int_member (o, "bytes", r->bytes);
  json_object_set_string_member (o, "op", iochart_op_name (r->op));
  json_object_set_string_member (o, "class", iochart_class_name (r->klass));
  json_object_set_int_member (o, "level", r->level);
  json_object_set_string_member (o, "class_source", iochart_class_source_name (r->class_source));
  if (p != NULL)
    {
      json_object_set_int_member (o, "pid", p->pid);
      json_object_set_string_member (o, "comm", p->comm ? p->comm : "");
    }
  else
    {
      json_object_set_null_member (o, "pid");
      json_object_set_null_member (o, "comm");
    }
  json_object_set_string_member (o, "lane", lane_label (rows, r));
  json_object_set_int_member (o, "issues", r->issues);
  for (guint t = 0; t < G_N_ELEMENTS (times); t++)
    {
      const char *name = iochart_export_columns[12 + t];

      if (times[t] == IOCHART_TIME_UNKNOWN)
        json_object_set_null_member (o, name);
      else
        json_object_set_int_member (o, name, times[t]);
    }
  return o;
}

static void
csv_row (GString *out, JsonObject *o)
{
  for (guint c = 0; iochart_export_columns[c]; c++)
    {
      JsonNode *n = json_object_get_member (o, iochart_export_columns[c]);

      if (c > 0)
        g_string_append_c (out, ',');
      if (JSON_NODE_HOLDS_NULL (n))
        continue;
      if (json_node_get_value_type (n) == G_TYPE_STRING)
        csv_field (out, json_node_get_string (n));
      else
        g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (n));
    }
  g_string_append_c (out, '\n');
}

static void
write_rows (const Rows *rows, IochartExportFormat format, Sink *s)
{
  guint n = iochart_capture_get_n_requests (rows->capture);

  if (format == IOCHART_EXPORT_CSV)
    {
      g_autofree char *header = g_strjoinv (",", (char **) iochart_export_columns);
      g_string_append_printf (s->buf, "%s\n", header);
    }
  else
    g_string_append (s->buf, "[\n");
  for (guint i = 0; i < n; i++)
    {
      IochartRequest r;
      g_autoptr(JsonObject) o = NULL;

      iochart_capture_get_request (rows->capture, i, &r);
      o = row_object (rows, &r);
      if (format == IOCHART_EXPORT_CSV)
        csv_row (s->buf, o);
      else
        {
          g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), o);
          g_autofree char *text = json_to_string (node, FALSE);

          g_string_append_printf (s->buf, "%s%s\n", text, i + 1 < n ? "," : "");
        }
      sink_maybe_flush (s);
    }
  if (format == IOCHART_EXPORT_JSON)
    g_string_append (s->buf, "]\n");
}

/* ---- Chrome trace events ---- */

/* chrome://tracing's reserved colour names; Perfetto colours slices by name, one per class. */
static const char *
class_cname (IochartClass k)
{
  switch (k)
    {
    case IOCHART_CLASS_RT: return "terrible";
    case IOCHART_CLASS_BE: return "good";
    case IOCHART_CLASS_IDLE: return "grey";
    case IOCHART_CLASS_NONE: return "generic_work";
    default: return "black";
    }
}

static void
event (Sink *s, JsonObject *o, gboolean *first)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), o);
  g_autofree char *text = json_to_string (node, FALSE);

  g_string_append_printf (s->buf, "%s%s", *first ? "\n" : ",\n", text);
  *first = FALSE;
  sink_maybe_flush (s);
}

static void
metadata (Sink *s, const char *what, gint64 pid, gint64 tid, const char *key, JsonNode *value, gboolean *first)
{
  g_autoptr(JsonObject) o = json_object_new ();
  JsonObject *args = json_object_new ();

  json_object_set_string_member (o, "ph", "M");
  json_object_set_string_member (o, "name", what);
  json_object_set_int_member (o, "pid", pid);
  if (tid >= 0)
    json_object_set_int_member (o, "tid", tid);
  json_object_set_member (args, key, value);
  json_object_set_object_member (o, "args", args);
  event (s, o, first);
}

typedef struct {
  guint  lane;
  gint64 start_ns;
  guint  index;
} Slice;

static int
cmp_slice (gconstpointer a, gconstpointer b)
{
  const Slice *x = a, *y = b;

  if (x->lane != y->lane)
    return x->lane < y->lane ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

static gint64
request_start (const IochartRequest *r)
{
  return r->queue_ns != IOCHART_TIME_UNKNOWN ? r->queue_ns
         : r->insert_ns != IOCHART_TIME_UNKNOWN ? r->insert_ns : r->issue_ns;
}

#define LANE_PID(lane)        ((gint64) (lane) + 1)
#define SLOT_TID(lane, slot)  (((gint64) (lane) + 1) * 10000 + (slot))
#define DEVICE_PID(dev)       (1000000 + (gint64) (dev))

static void
slice_event (const Rows *rows, Sink *s, const Slice *sl, guint slot, gboolean *first)
{
  IochartRequest r;
  g_autoptr(JsonObject) o = NULL;
  JsonObject *args;
  g_autofree char *name = NULL;

  iochart_capture_get_request (rows->capture, sl->index, &r);
  o = json_object_new ();
  args = row_object (rows, &r);
  name = g_strdup_printf ("%s %s", iochart_class_name (r.klass), iochart_op_name (r.op));
  json_object_set_string_member (o, "ph", "X");
  json_object_set_string_member (o, "name", name);
  json_object_set_string_member (o, "cat", iochart_class_name (r.klass));
  json_object_set_string_member (o, "cname", class_cname (r.klass));
  json_object_set_int_member (o, "pid", LANE_PID (sl->lane));
  json_object_set_int_member (o, "tid", SLOT_TID (sl->lane, slot));
  json_object_set_double_member (o, "ts", (sl->start_ns - rows->start_ns) / 1e3);
  json_object_set_double_member (o, "dur", (r.complete_ns - sl->start_ns) / 1e3);
  json_object_remove_member (args, "lane");
  json_object_remove_member (args, "capture");
  json_object_set_object_member (o, "args", args);
  event (s, o, first);
}

/* Requests of a lane overlap (queue depth), but slices of one thread must nest: each lane is a
 * process whose threads are slots, a request going to the first slot free at its start. */
static void
write_slices (const Rows *rows, Sink *s, gboolean *first)
{
  g_autoptr(GArray) slices = g_array_new (FALSE, FALSE, sizeof (Slice));
  g_autoptr(GArray) slot_end = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint n = iochart_capture_get_n_requests (rows->capture), lane = G_MAXUINT;

  for (guint i = 0; i < n; i++)
    {
      IochartRequest r;
      int l;

      iochart_capture_get_request (rows->capture, i, &r);
      l = iochart_lanes_lane_of_request (rows->lanes, &r);
      if (l < 0 || r.complete_ns == IOCHART_TIME_UNKNOWN || request_start (&r) == IOCHART_TIME_UNKNOWN)
        continue;
      g_array_append_val (slices, ((Slice) { l, request_start (&r), i }));
    }
  g_array_sort (slices, cmp_slice);
  for (guint i = 0; i < slices->len; i++)
    {
      const Slice *sl = &g_array_index (slices, Slice, i);
      IochartRequest r;
      guint slot = 0;

      if (sl->lane != lane)
        {
          lane = sl->lane;
          g_array_set_size (slot_end, 0);
        }
      iochart_capture_get_request (rows->capture, sl->index, &r);
      while (slot < slot_end->len && g_array_index (slot_end, gint64, slot) > sl->start_ns)
        slot++;
      if (slot == slot_end->len)
        {
          g_autofree char *tname = g_strdup_printf ("in flight %u", slot + 1);

          g_array_append_val (slot_end, r.complete_ns);
          metadata (s, "thread_name", LANE_PID (lane), SLOT_TID (lane, slot), "name",
                    json_node_init_string (json_node_alloc (), tname), first);
          metadata (s, "thread_sort_index", LANE_PID (lane), SLOT_TID (lane, slot), "sort_index",
                    json_node_init_int (json_node_alloc (), slot), first);
        }
      g_array_index (slot_end, gint64, slot) = r.complete_ns;
      slice_event (rows, s, sl, slot, first);
    }
}

static void
counter (Sink *s, gint64 pid, const char *name, double ts_us, JsonObject *args, gboolean *first)
{
  g_autoptr(JsonObject) o = json_object_new ();

  json_object_set_string_member (o, "ph", "C");
  json_object_set_string_member (o, "name", name);
  json_object_set_int_member (o, "pid", pid);
  json_object_set_double_member (o, "ts", ts_us);
  json_object_set_object_member (o, "args", args);
  event (s, o, first);
}

/* Per device: throughput by class (MiB/s, reads and writes together) and the stolen share, from
 * the same bins and steal analysis as the chart. */
static void
write_counters (const Rows *rows, guint n_columns, Sink *s, gboolean *first)
{
  gint64 from = rows->start_ns, to = iochart_capture_get_end_ns (rows->capture);
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) steal = NULL;

  if (to <= from)
    return;
  if (n_columns == 0)
    n_columns = CLAMP ((to - from) / 10000000, 1, 100000);
  so.from_ns = from;
  so.to_ns = to;
  so.n_columns = n_columns;
  steal = iochart_steal_new (rows->capture, &so);
  for (guint d = 0; d < iochart_capture_get_n_devices (rows->capture); d++)
    {
      g_autoptr(IochartBins) bins = iochart_bins_new (rows->capture, d, from, to, n_columns, 1, NULL);
      const IochartStealDevice *sd = iochart_steal_find_device (steal, d);
      guint32 dev = iochart_capture_get_device (rows->capture, d)->dev;
      g_autofree char *pname = g_strdup_printf ("device %u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));

      metadata (s, "process_name", DEVICE_PID (d), -1, "name", json_node_init_string (json_node_alloc (), pname), first);
      metadata (s, "process_sort_index", DEVICE_PID (d), -1, "sort_index", json_node_init_int (json_node_alloc (), -1), first);
      for (guint i = 0; i < n_columns; i++)
        {
          double w = iochart_bins_column_ns (bins, i), ts = (from + i * bins->ns_per_column - rows->start_ns) / 1e3;
          JsonObject *tp = json_object_new ();

          for (guint k = 0; k < IOCHART_N_CLASSES; k++)
            json_object_set_double_member (tp, iochart_class_name (k),
                                           (bins->bytes[k][0][i] + bins->bytes[k][1][i]) / w * 1e9 / 1048576.0);
          counter (s, DEVICE_PID (d), "throughput MiB/s", ts, tp, first);
          if (sd != NULL && sd->stolen_columns != NULL)
            {
              JsonObject *sp = json_object_new ();

              json_object_set_double_member (sp, "stolen", 100.0 * sd->stolen_columns[i] / w);
              counter (s, DEVICE_PID (d), "idle steal %", ts, sp, first);
            }
        }
    }
}

static void
write_perfetto (const Rows *rows, guint n_columns, Sink *s)
{
  gboolean first = TRUE;

  g_string_append (s->buf, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
  for (guint l = 0; l < iochart_lanes_get_n_lanes (rows->lanes); l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (rows->lanes, l);

      metadata (s, "process_name", LANE_PID (l), -1, "name", json_node_init_string (json_node_alloc (), lane->label), &first);
      metadata (s, "process_sort_index", LANE_PID (l), -1, "sort_index", json_node_init_int (json_node_alloc (), l), &first);
    }
  write_slices (rows, s, &first);
  write_counters (rows, n_columns, s, &first);
  g_string_append (s->buf, "\n]}\n");
}

gboolean
iochart_export_write (IochartCapture *capture, const IochartExportOptions *options, const char *path,
                      GError **error)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) lanes = NULL;
  Sink sink = { 0 };
  Rows rows;

  /* every lane, none folded into "others": a row names the lane it is drawn in with --top 0 */
  lo.top_n = 0;
  lanes = iochart_lanes_new (capture, &lo);
  rows = (Rows) { capture, lanes, iochart_capture_get_start_ns (capture) };
  if (!sink_open (&sink, path, options->zstd, error))
    {
      if (sink.archive)
        archive_write_free (sink.archive);
      g_string_free (sink.buf, TRUE);
      return FALSE;
    }
  if (options->format == IOCHART_EXPORT_PERFETTO)
    write_perfetto (&rows, options->n_counter_columns, &sink);
  else
    write_rows (&rows, options->format, &sink);
  return sink_close (&sink, error);
}
