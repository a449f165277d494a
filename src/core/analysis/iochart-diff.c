/* iochart-diff.c: two captures side by side, lanes matched by name */
#include <string.h>
#include "iochart-diff.h"
#include "iochart-error.h"
#include "iochart-format.h"
#include "iochart-lanes.h"
#include "iochart-steal.h"
#include "iochart-summary.h"

struct _IochartDiff {
  IochartDiffOptions options;
  GArray            *rows;      /* IochartDiffRow */
  guint              n_classes_rows;
  gint64             zero_a, zero_b;
  gint64             from_ns, to_ns;
};

/* One capture's rows by name, in order: device, classes, lanes. */
typedef struct {
  GPtrArray  *names;   /* char * */
  GArray     *sides;   /* IochartDiffSide */
  GHashTable *index;   /* name -> position + 1 */
} Rows;

void
iochart_align_parse (const char *text, IochartAlign *align, const char **process)
{
  static const struct { const char *name; IochartAlign align; } names[] = {
    { "start", IOCHART_ALIGN_START }, { "clock", IOCHART_ALIGN_CLOCK },
    { "first-io", IOCHART_ALIGN_FIRST_IO }, { "first-idle-io", IOCHART_ALIGN_FIRST_IDLE_IO },
  };

  *process = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i].name) == 0)
      {
        *align = names[i].align;
        return;
      }
  *align = IOCHART_ALIGN_PROCESS;
  *process = text;
}

static gint64
request_start (const IochartRequest *r)
{
  return r->queue_ns != IOCHART_TIME_UNKNOWN ? r->queue_ns
         : r->insert_ns != IOCHART_TIME_UNKNOWN ? r->insert_ns : r->issue_ns;
}

static gboolean
known (gint64 t)
{
  return t != IOCHART_TIME_UNKNOWN;
}

static gboolean
aligns_on (IochartCapture *c, const IochartRequest *r, const IochartDiffOptions *o)
{
  const IochartProcess *p = r->process != IOCHART_NO_PROCESS ? iochart_capture_get_process (c, r->process) : NULL;

  return o->align == IOCHART_ALIGN_FIRST_IO ||
         (o->align == IOCHART_ALIGN_FIRST_IDLE_IO && r->klass == IOCHART_CLASS_IDLE) ||
         (o->align == IOCHART_ALIGN_PROCESS && p != NULL && g_strcmp0 (p->comm, o->process) == 0);
}

/* The alignment point on the capture's clock; FALSE when the capture has none. */
static gboolean
find_zero (IochartCapture *c, int device, const IochartDiffOptions *o, gint64 *zero)
{
  gint64 best = IOCHART_TIME_UNKNOWN;

  if (o->align == IOCHART_ALIGN_START || o->align == IOCHART_ALIGN_CLOCK)
    {
      *zero = o->align == IOCHART_ALIGN_CLOCK ? 0 : iochart_capture_get_start_ns (c);
      return TRUE;
    }
  /* a process's fork when the capture saw it, else its first I/O */
  if (o->align == IOCHART_ALIGN_PROCESS)
    for (guint p = 0; p < iochart_capture_get_n_processes (c); p++)
      {
        const IochartProcess *proc = iochart_capture_get_process (c, p);

        if (g_strcmp0 (proc->comm, o->process) == 0 && known (proc->start_ns) && (!known (best) || proc->start_ns < best))
          best = proc->start_ns;
      }
  if (!known (best))
    for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
      {
        IochartRequest r;

        iochart_capture_get_request (c, i, &r);
        if (r.device == (guint) device && known (request_start (&r)) && aligns_on (c, &r, o) &&
            (!known (best) || request_start (&r) < best))
          best = request_start (&r);
      }
  *zero = best;
  return known (best);
}

/* The side of a name, added when new; the pointer holds until the next row is added. */
static IochartDiffSide *
rows_get (Rows *rows, const char *name)
{
  guint pos = GPOINTER_TO_UINT (g_hash_table_lookup (rows->index, name));
  IochartDiffSide side = { .present = TRUE, .start_ns = IOCHART_TIME_UNKNOWN, .end_ns = IOCHART_TIME_UNKNOWN,
                           .q2c_p50_ns = IOCHART_TIME_UNKNOWN, .q2c_p99_ns = IOCHART_TIME_UNKNOWN };

  if (pos > 0)
    return &g_array_index (rows->sides, IochartDiffSide, pos - 1);
  g_ptr_array_add (rows->names, g_strdup (name));
  g_array_append_val (rows->sides, side);
  g_hash_table_insert (rows->index, g_ptr_array_index (rows->names, rows->names->len - 1),
                       GUINT_TO_POINTER (rows->names->len));
  return &g_array_index (rows->sides, IochartDiffSide, rows->sides->len - 1);
}

static void
side_add (IochartDiffSide *s, const IochartRequest *r, gint64 zero)
{
  gint64 start = request_start (r);

  s->requests += r->issues;
  s->bytes += (guint64) r->issues * r->bytes;
  if (known (start) && (!known (s->start_ns) || start - zero < s->start_ns))
    s->start_ns = start - zero;
  if (known (r->complete_ns) && (!known (s->end_ns) || r->complete_ns - zero > s->end_ns))
    s->end_ns = r->complete_ns - zero;
}

/* A lane's name without pids: its process's name and class, numbered when several share it. */
static GPtrArray *
lane_names (IochartCapture *c, IochartLanes *lanes)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint l = 0; l < iochart_lanes_get_n_lanes (lanes); l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (lanes, l);
      const IochartProcess *p = lane->head != IOCHART_NO_PROCESS ? iochart_capture_get_process (c, lane->head) : NULL;
      g_autofree char *base = lane->others ? g_strdup ("others")
                              : g_strdup_printf ("%s (%s)", p && p->comm ? p->comm : "?", iochart_class_name (lane->klass));
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (seen, base)) + 1;

      g_hash_table_replace (seen, g_strdup (base), GUINT_TO_POINTER (n));
      g_ptr_array_add (names, n == 1 ? g_strdup (base) : g_strdup_printf ("%s #%u", base, n));
    }
  return names;
}

static void
set_latency (IochartDiffSide *side, const IochartLatencyRow *row)
{
  const IochartLatencyStats *q = &row->kind[IOCHART_LATENCY_Q2C];

  side->q2c_p50_ns = q->n ? q->p50_ns : IOCHART_TIME_UNKNOWN;
  side->q2c_p99_ns = q->n ? q->p99_ns : IOCHART_TIME_UNKNOWN;
}

/* Lanes and latency from the summary of the device (every lane), counts and times from the
 * requests, stolen time from the steal analysis. */
static void
collect (IochartCapture *c, int device, gint64 zero, Rows *rows, guint *n_class_rows)
{
  IochartSummaryOptions sumo = IOCHART_SUMMARY_OPTIONS_INIT;
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const IochartStealDevice *sd;
  const IochartSummaryDevice *sdev;
  IochartLanes *lanes;
  guint32 dev = iochart_capture_get_device (c, device)->dev;
  g_autofree char *devname = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));
  g_autofree guint *lane_pos = NULL;

  sumo.device = device;
  sumo.top = 0;
  summary = iochart_summary_new_full (c, &sumo);
  lanes = summary->lanes;
  sdev = &g_array_index (summary->devices, IochartSummaryDevice, device);
  names = lane_names (c, lanes);
  so.device = device;
  steal = iochart_steal_new (c, &so);
  sd = iochart_steal_find_device (steal, device);

  rows_get (rows, devname)->stolen_ns = sd ? sd->stolen_ns : 0;
  set_latency (rows_get (rows, devname), &sdev->latency);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      IochartDiffSide *side = rows_get (rows, iochart_class_name (k));

      side->stolen_ns = k == IOCHART_CLASS_IDLE && sd ? sd->stolen_ns : 0;
      set_latency (side, &sdev->class_latency[k]);
    }
  *n_class_rows = IOCHART_N_CLASSES;
  lane_pos = g_new0 (guint, names->len);
  for (guint l = 0; l < names->len; l++)
    {
      rows_get (rows, g_ptr_array_index (names, l))->label = g_strdup (iochart_lanes_get_lane (lanes, l)->label);
      lane_pos[l] = GPOINTER_TO_UINT (g_hash_table_lookup (rows->index, g_ptr_array_index (names, l))) - 1;
    }
#define LANE_SIDE(l) (&g_array_index (rows->sides, IochartDiffSide, lane_pos[l]))
  for (guint i = 0; i < summary->lane_rows->len; i++)
    {
      const IochartSummaryLane *sl = &g_array_index (summary->lane_rows, IochartSummaryLane, i);

      set_latency (LANE_SIDE (sl->lane), &sl->latency);
    }
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r;
      int l;

      iochart_capture_get_request (c, i, &r);
      if (r.device != (guint) device || r.issues == 0)
        continue;
      side_add (rows_get (rows, devname), &r, zero);
      side_add (rows_get (rows, iochart_class_name (r.klass)), &r, zero);
      if ((l = iochart_lanes_lane_of_request (lanes, &r)) >= 0)
        side_add (LANE_SIDE (l), &r, zero);
    }
  for (guint i = 0; sd && sd->idle && i < sd->idle->len; i++)
    {
      const IochartStealShare *share = &g_array_index (sd->idle, IochartStealShare, i);
      int l = iochart_lanes_lane_of_process (lanes, share->process);

      if (l >= 0)
        LANE_SIDE (l)->stolen_ns += share->stolen_ns;
    }
#undef LANE_SIDE
}

static void
rows_clear (Rows *rows)
{
  g_ptr_array_unref (rows->names);
  g_array_unref (rows->sides);
  g_hash_table_unref (rows->index);
}

static gboolean
time_differs (gint64 a, gint64 b, gint64 tolerance)
{
  if (!known (a) || !known (b))
    return known (a) != known (b);
  return ABS (a - b) > tolerance;
}

static guint
changes_of (const IochartDiffSide *a, const IochartDiffSide *b, gint64 tol)
{
  guint ch = 0;

  if (a->present != b->present)
    return IOCHART_DIFF_PRESENCE;
  if (time_differs (a->start_ns, b->start_ns, tol))
    ch |= IOCHART_DIFF_START;
  if (time_differs (a->end_ns, b->end_ns, tol))
    ch |= IOCHART_DIFF_END;
  if (a->requests != b->requests)
    ch |= IOCHART_DIFF_REQUESTS;
  if (a->bytes != b->bytes)
    ch |= IOCHART_DIFF_BYTES;
  if (ABS (a->stolen_ns - b->stolen_ns) > tol)
    ch |= IOCHART_DIFF_STOLEN;
  if (time_differs (a->q2c_p50_ns, b->q2c_p50_ns, tol) || time_differs (a->q2c_p99_ns, b->q2c_p99_ns, tol))
    ch |= IOCHART_DIFF_LATENCY;
  return ch;
}

static void
add_row (IochartDiff *d, const char *name, IochartDiffSide *a, IochartDiffSide *b)
{
  IochartDiffSide none = { .present = FALSE, .start_ns = IOCHART_TIME_UNKNOWN, .end_ns = IOCHART_TIME_UNKNOWN,
                           .q2c_p50_ns = IOCHART_TIME_UNKNOWN, .q2c_p99_ns = IOCHART_TIME_UNKNOWN };
  IochartDiffRow row = { g_strdup (name), a ? *a : none, b ? *b : none, 0 };

  /* the row owns the labels now */
  if (a)
    a->label = NULL;
  if (b)
    b->label = NULL;
  row.changes = changes_of (&row.a, &row.b, d->options.tolerance_ns);
  g_array_append_val (d->rows, row);
}

static void
row_clear (gpointer data)
{
  IochartDiffRow *row = data;

  g_free (row->name);
  g_free (row->a.label);
  g_free (row->b.label);
}

IochartDiff *
iochart_diff_new (IochartCapture *a, int device_a, IochartCapture *b, int device_b,
                  const IochartDiffOptions *options, GError **error)
{
  IochartDiffOptions defaults = IOCHART_DIFF_OPTIONS_INIT;
  IochartDiff *d;
  Rows ra = { g_ptr_array_new_with_free_func (g_free), g_array_new (FALSE, TRUE, sizeof (IochartDiffSide)),
              g_hash_table_new (g_str_hash, g_str_equal) };
  Rows rb = { g_ptr_array_new_with_free_func (g_free), g_array_new (FALSE, TRUE, sizeof (IochartDiffSide)),
              g_hash_table_new (g_str_hash, g_str_equal) };
  guint n_class_rows = 0;
  gint64 za, zb;

  options = options ? options : &defaults;
  if (device_a < 0)
    device_a = iochart_steal_pick_device (a);
  if (device_b < 0)
    device_b = iochart_steal_pick_device (b);
  if (device_a < 0 || device_b < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': no block I/O to compare",
                   iochart_capture_get_name (device_a < 0 ? a : b));
      goto fail;
    }
  if (!find_zero (a, device_a, options, &za) || !find_zero (b, device_b, options, &zb))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': nothing to align on ('%s')",
                   iochart_capture_get_name (!find_zero (a, device_a, options, &za) ? a : b),
                   options->process ? options->process : "first idle-class I/O");
      goto fail;
    }
  d = g_new0 (IochartDiff, 1);
  d->options = *options;
  d->rows = g_array_new (FALSE, TRUE, sizeof (IochartDiffRow));
  g_array_set_clear_func (d->rows, row_clear);
  d->zero_a = za;
  d->zero_b = zb;
  collect (a, device_a, za, &ra, &n_class_rows);
  collect (b, device_b, zb, &rb, &n_class_rows);
  d->n_classes_rows = n_class_rows;
  /* A's rows in order (the device row named by B's device if they differ), then B's own */
  for (guint i = 0; i < ra.names->len; i++)
    {
      const char *name = g_ptr_array_index (ra.names, i);
      guint pos = i == 0 ? 1 : GPOINTER_TO_UINT (g_hash_table_lookup (rb.index, name));

      add_row (d, name, &g_array_index (ra.sides, IochartDiffSide, i),
               pos ? &g_array_index (rb.sides, IochartDiffSide, pos - 1) : NULL);
    }
  for (guint i = 1; i < rb.names->len; i++)
    if (!g_hash_table_contains (ra.index, g_ptr_array_index (rb.names, i)))
      add_row (d, g_ptr_array_index (rb.names, i), NULL, &g_array_index (rb.sides, IochartDiffSide, i));
  d->from_ns = MIN (iochart_capture_get_start_ns (a) - za, iochart_capture_get_start_ns (b) - zb);
  d->to_ns = MAX (iochart_capture_get_end_ns (a) - za, iochart_capture_get_end_ns (b) - zb);
  for (guint i = 0; i < ra.sides->len; i++)
    g_free (g_array_index (ra.sides, IochartDiffSide, i).label);
  for (guint i = 0; i < rb.sides->len; i++)
    g_free (g_array_index (rb.sides, IochartDiffSide, i).label);
  rows_clear (&ra);
  rows_clear (&rb);
  return d;
fail:
  rows_clear (&ra);
  rows_clear (&rb);
  return NULL;
}

void
iochart_diff_free (IochartDiff *d)
{
  if (d == NULL)
    return;
  g_array_unref (d->rows);
  g_free (d);
}

guint
iochart_diff_get_n_rows (IochartDiff *d)
{
  return d->rows->len;
}

const IochartDiffRow *
iochart_diff_get_row (IochartDiff *d, guint i)
{
  g_return_val_if_fail (i < d->rows->len, NULL);
  return &g_array_index (d->rows, IochartDiffRow, i);
}

const char *
iochart_diff_row_kind (IochartDiff *d, guint i)
{
  return i == 0 ? "device" : i <= d->n_classes_rows ? "class" : "lane";
}

gint64
iochart_diff_get_shift_ns (IochartDiff *d)
{
  return d->zero_b - d->zero_a;
}

void
iochart_diff_get_span (IochartDiff *d, gint64 *from_ns, gint64 *to_ns)
{
  *from_ns = d->from_ns;
  *to_ns = d->to_ns;
}

guint
iochart_diff_get_n_changed (IochartDiff *d)
{
  guint n = 0;

  for (guint i = 0; i < d->rows->len; i++)
    n += g_array_index (d->rows, IochartDiffRow, i).changes != 0;
  return n;
}

char *
iochart_diff_changes_text (guint changes)
{
  static const char * const names[] = { "start", "end", "requests", "bytes", "stolen", "only-in-one", "latency" };
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (changes & (1u << i))
      g_string_append_printf (s, "%s%s", s->len ? "," : "", names[i]);
  return g_string_free (s, FALSE);
}

/* ---- output ---- */

static char *
delta_time (gint64 a, gint64 b)
{
  g_autofree char *t = NULL;

  if (!known (a) || !known (b))
    return g_strdup (known (a) == known (b) ? "" : "?");
  if (a == b)
    return g_strdup ("=");
  t = iochart_format_duration (b - a);
  return g_strdup_printf ("%s%s", b > a ? "+" : "", t);
}

static char *
side_time (gint64 t)
{
  return known (t) ? iochart_format_duration (t) : g_strdup ("-");
}

void
iochart_diff_print (IochartDiff *d, GString *out)
{
  g_autofree char *shift = iochart_format_duration (iochart_diff_get_shift_ns (d));

  g_string_append_printf (out, "%u of %u rows changed; B's alignment point is %s%s after A's on their clocks\n",
                          iochart_diff_get_n_changed (d), d->rows->len,
                          iochart_diff_get_shift_ns (d) > 0 ? "+" : "", shift);
  g_string_append_printf (out, "  %-6s %-28s %10s %10s %10s %10s %12s %12s %10s %10s %12s %s\n", "", "name", "start A",
                          "Δstart", "end A", "Δend", "bytes A", "Δbytes", "q2c p99 A", "Δp99", "Δstolen", "changed");
  for (guint i = 0; i < d->rows->len; i++)
    {
      const IochartDiffRow *r = &g_array_index (d->rows, IochartDiffRow, i);
      g_autofree char *sa = side_time (r->a.start_ns), *ds = delta_time (r->a.start_ns, r->b.start_ns);
      g_autofree char *ea = side_time (r->a.end_ns), *de = delta_time (r->a.end_ns, r->b.end_ns);
      g_autofree char *ba = iochart_format_bytes (r->a.bytes);
      g_autofree char *db = r->a.bytes == r->b.bytes ? g_strdup ("=")
                            : g_strdup_printf ("%+" G_GINT64_FORMAT, (gint64) (r->b.bytes - r->a.bytes));
      g_autofree char *dst = r->a.stolen_ns == r->b.stolen_ns ? g_strdup ("=") : delta_time (r->a.stolen_ns, r->b.stolen_ns);
      g_autofree char *what = iochart_diff_changes_text (r->changes);
      g_autofree char *pa = side_time (r->a.q2c_p99_ns), *dp = delta_time (r->a.q2c_p99_ns, r->b.q2c_p99_ns);

      if (i > 0 && !r->a.present == !r->b.present && r->a.requests == 0 && r->b.requests == 0)
        continue;
      g_string_append_printf (out, "%s %-6s %-28s %10s %10s %10s %10s %12s %12s %10s %10s %12s %s\n", r->changes ? "*" : " ",
                              iochart_diff_row_kind (d, i), r->name, sa, ds, ea, de, ba, db, pa, dp, dst, what);
    }
}

static void
json_side (JsonBuilder *b, const char *name, const IochartDiffSide *s)
{
  json_builder_set_member_name (b, name);
  if (!s->present)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start_ns");
  if (known (s->start_ns)) json_builder_add_int_value (b, s->start_ns); else json_builder_add_null_value (b);
  json_builder_set_member_name (b, "end_ns");
  if (known (s->end_ns)) json_builder_add_int_value (b, s->end_ns); else json_builder_add_null_value (b);
  json_builder_set_member_name (b, "requests");
  json_builder_add_int_value (b, s->requests);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, s->bytes);
  json_builder_set_member_name (b, "stolen_ns");
  json_builder_add_int_value (b, s->stolen_ns);
  json_builder_set_member_name (b, "q2c_p50_ns");
  if (known (s->q2c_p50_ns)) json_builder_add_int_value (b, s->q2c_p50_ns); else json_builder_add_null_value (b);
  json_builder_set_member_name (b, "q2c_p99_ns");
  if (known (s->q2c_p99_ns)) json_builder_add_int_value (b, s->q2c_p99_ns); else json_builder_add_null_value (b);
  if (s->label)
    {
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, s->label);
    }
  json_builder_end_object (b);
}

void
iochart_diff_to_json (IochartDiff *d, JsonBuilder *b)
{
  static const char * const aligns[] = { "start", "clock", "first-io", "first-idle-io", "process" };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "align");
  json_builder_add_string_value (b, d->options.align == IOCHART_ALIGN_PROCESS ? d->options.process : aligns[d->options.align]);
  json_builder_set_member_name (b, "shift_ns");
  json_builder_add_int_value (b, iochart_diff_get_shift_ns (d));
  json_builder_set_member_name (b, "changed");
  json_builder_add_int_value (b, iochart_diff_get_n_changed (d));
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < d->rows->len; i++)
    {
      const IochartDiffRow *r = &g_array_index (d->rows, IochartDiffRow, i);
      g_autofree char *what = iochart_diff_changes_text (r->changes);
      g_auto(GStrv) parts = g_strsplit (what, ",", -1);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, iochart_diff_row_kind (d, i));
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, r->name);
      json_side (b, "a", &r->a);
      json_side (b, "b", &r->b);
      json_builder_set_member_name (b, "changes");
      json_builder_begin_array (b);
      for (guint p = 0; parts[p] && *parts[p]; p++)
        json_builder_add_string_value (b, parts[p]);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}
