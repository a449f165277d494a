/* iochart-check.c: thresholds against the analyses' figures */
#include <math.h>
#include "iochart-check.h"
#include "iochart-error.h"
#include "bootchart/iochart-bootchart-chart.h"

gboolean
iochart_check_limits_validate (const IochartCheckLimits *l, gboolean has_io, gboolean has_bootchart,
                               GError **error)
{
  const char *needs_io = l->max_stolen_pct >= 0 ? "--max-stolen-pct"
                         : l->max_stolen_ms >= 0 ? "--max-stolen-ms"
                         : l->max_p99_ms >= 0 ? "--max-p99-ms" : NULL;

  if (l->max_stolen_pct < 0 && l->max_stolen_ms < 0 && l->max_p99_ms < 0 && l->max_boot_s < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "nothing to check: give --max-stolen-pct, --max-stolen-ms, --max-p99-ms or --max-boot-s");
      return FALSE;
    }
  if (needs_io != NULL && !has_io)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': needs a capture with block I/O", needs_io);
      return FALSE;
    }
  if (l->max_boot_s >= 0 && !has_bootchart)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'--max-boot-s': needs a bootchart capture");
      return FALSE;
    }
  return TRUE;
}

static void
result_free (gpointer data)
{
  IochartCheckResult *r = data;

  g_free (r->name);
  g_free (r->subject);
  g_free (r->note);
  g_free (r);
}

static IochartCheckResult *
add_result (GPtrArray *results, const char *name, char *subject, double value, double limit, const char *unit)
{
  IochartCheckResult *r = g_new0 (IochartCheckResult, 1);

  r->name = g_strdup (name);
  r->subject = subject;
  r->value = value;
  r->limit = limit;
  r->unit = unit;
  /* no figure (no foreground I/O, no request of a class) cannot break a limit */
  r->passed = isnan (value) || value <= limit;
  g_ptr_array_add (results, r);
  return r;
}

static char *
dev_text (IochartCapture *capture, guint device)
{
  guint32 dev = iochart_capture_get_device (capture, device)->dev;

  return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev));
}

static void
check_steal (const IochartCheckLimits *l, IochartSteal *steal, GPtrArray *results)
{
  const IochartStealDevice *d = steal ? iochart_steal_get_primary (steal) : NULL;
  char *subject = d ? dev_text (iochart_steal_get_capture (steal), d->device) : g_strdup ("no device");

  if (l->max_stolen_pct >= 0)
    {
      IochartCheckResult *r;

      r = add_result (results, "stolen-pct", g_strdup (subject),
                      d && d->foreground_active_ns > 0 ? 100.0 * d->stolen_ns / d->foreground_active_ns : NAN,
                      l->max_stolen_pct, "%");
      if (isnan (r->value))
        r->note = g_strdup ("no foreground I/O");
    }
  if (l->max_stolen_ms >= 0)
    add_result (results, "stolen-ms", g_strdup (subject), d ? d->stolen_ns / 1e6 : 0, l->max_stolen_ms, "ms");
  g_free (subject);
}

static void
check_boot (const IochartCheckLimits *l, IochartBootchart *bc, GPtrArray *results)
{
  gint64 window = l->boot_done_window_ns >= 0 ? l->boot_done_window_ns : IOCHART_BOOTCHART_DEFAULT_DONE_WINDOW_NS;
  gint64 done_ns;
  IochartCheckResult *r;

  if (iochart_bootchart_chart_find_boot_done (bc, window, &done_ns))
    {
      add_result (results, "boot-s", g_strdup ("boot"), done_ns / 1e9, l->max_boot_s, "s");
      return;
    }
  /* a boot that never settles is at least as long as the capture */
  r = add_result (results, "boot-s", g_strdup ("boot"), iochart_bootchart_get_end_ns (bc) / 1e9,
                  l->max_boot_s, "s");
  r->passed = FALSE;
  r->note = g_strdup ("never idle before the capture's end");
}

/* Queue-to-complete p99 per class, on the device the steal figures are about: the summary's
 * btt breakdown of that device. */
static void
check_p99 (const IochartCheckLimits *l, const IochartSummary *summary, IochartSteal *steal, GPtrArray *results)
{
  const IochartStealDevice *d = steal ? iochart_steal_get_primary (steal) : NULL;
  int device = d ? (int) d->device : summary->primary;
  const IochartSummaryDevice *sd;
  guint32 dev;

  if (device < 0 || (guint) device >= summary->devices->len)
    return;
  sd = &g_array_index (summary->devices, IochartSummaryDevice, device);
  dev = sd->dev;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      const IochartLatencyStats *q2c = &sd->class_latency[k].kind[IOCHART_LATENCY_Q2C];
      gboolean asked = l->p99_classes ? (l->p99_classes & (1u << k)) != 0
                                      : k != IOCHART_CLASS_IDLE && sd->counts.by_class[k].requests > 0;
      IochartCheckResult *r;

      if (!asked)
        continue;
      r = add_result (results, "p99-ms",
                      g_strdup_printf ("%u,%u, class %s", IOCHART_DEV_MAJOR (dev), IOCHART_DEV_MINOR (dev), iochart_class_name (k)),
                      q2c->n > 0 ? q2c->p99_ns / 1e6 : NAN, l->max_p99_ms, "ms");
      if (q2c->n == 0)
        r->note = g_strdup ("no request of this class completed");
    }
}

GPtrArray *
iochart_check_run (const IochartCheckLimits *l, const IochartSummary *summary, IochartSteal *steal,
                   IochartBootchart *bootchart)
{
  GPtrArray *results = g_ptr_array_new_with_free_func (result_free);

  if (l->max_stolen_pct >= 0 || l->max_stolen_ms >= 0)
    check_steal (l, steal, results);
  if (l->max_p99_ms >= 0 && summary != NULL)
    check_p99 (l, summary, steal, results);
  if (l->max_boot_s >= 0 && bootchart != NULL)
    check_boot (l, bootchart, results);
  return results;
}

gboolean
iochart_check_all_passed (GPtrArray *results)
{
  for (guint i = 0; i < results->len; i++)
    if (!((IochartCheckResult *) g_ptr_array_index (results, i))->passed)
      return FALSE;
  return TRUE;
}

/* Figures keep the precision a limit is given in, and at least a tenth. */
static char *
number (double v)
{
  return fabs (v - round (v)) < 1e-9 ? g_strdup_printf ("%.0f", v)
         : fabs (v) >= 100 ? g_strdup_printf ("%.1f", v)
         : g_strdup_printf ("%.3g", v);
}

char *
iochart_check_result_line (const IochartCheckResult *r)
{
  g_autofree char *value = number (r->value), *limit = number (r->limit);
  g_autofree char *over = number (r->value - r->limit);

  if (isnan (r->value) || r->note != NULL)
    {
      g_autofree char *at = isnan (r->value) ? g_strdup ("") : g_strdup_printf (" at %s %s", value, r->unit);

      return g_strdup_printf ("%s %s on %s: %s%s (limit %s %s)", r->passed ? "ok  " : "FAIL", r->name, r->subject,
                              r->note ? r->note : "no figure", at, limit, r->unit);
    }
  if (r->passed)
    return g_strdup_printf ("ok   %s on %s: %s %s <= %s %s", r->name, r->subject, value, r->unit, limit, r->unit);
  return g_strdup_printf ("FAIL %s on %s: %s %s > %s %s (over by %s %s)", r->name, r->subject, value, r->unit,
                          limit, r->unit, over, r->unit);
}

void
iochart_check_to_json (GPtrArray *results, JsonBuilder *b)
{
  json_builder_begin_array (b);
  for (guint i = 0; i < results->len; i++)
    {
      const IochartCheckResult *r = g_ptr_array_index (results, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, r->name);
      json_builder_set_member_name (b, "subject");
      json_builder_add_string_value (b, r->subject);
      json_builder_set_member_name (b, "value");
      if (isnan (r->value))
        json_builder_add_null_value (b);
      else
        json_builder_add_double_value (b, r->value);
      json_builder_set_member_name (b, "limit");
      json_builder_add_double_value (b, r->limit);
      json_builder_set_member_name (b, "unit");
      json_builder_add_string_value (b, r->unit);
      json_builder_set_member_name (b, "passed");
      json_builder_add_boolean_value (b, r->passed);
      json_builder_set_member_name (b, "over_by");
      json_builder_add_double_value (b, isnan (r->value) ? 0 : MAX (0, r->value - r->limit));
      if (r->note)
        {
          json_builder_set_member_name (b, "note");
          json_builder_add_string_value (b, r->note);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

char *
iochart_check_to_junit (GPtrArray *results, const char *suite)
{
  GString *x = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  guint failures = 0;
  g_autofree char *esuite = g_markup_escape_text (suite, -1);

  for (guint i = 0; i < results->len; i++)
    failures += !((IochartCheckResult *) g_ptr_array_index (results, i))->passed;
  g_string_append_printf (x, "<testsuites>\n<testsuite name=\"%s\" tests=\"%u\" failures=\"%u\" errors=\"0\">\n",
                          esuite, results->len, failures);
  for (guint i = 0; i < results->len; i++)
    {
      const IochartCheckResult *r = g_ptr_array_index (results, i);
      g_autofree char *name = g_markup_printf_escaped ("%s on %s", r->name, r->subject);
      g_autofree char *line = iochart_check_result_line (r);
      g_autofree char *eline = g_markup_escape_text (line, -1);

      g_string_append_printf (x, "  <testcase classname=\"%s\" name=\"%s\">", esuite, name);
      if (!r->passed)
        g_string_append_printf (x, "<failure message=\"%s\" type=\"threshold\"/>", eline);
      else
        g_string_append_printf (x, "<system-out>%s</system-out>", eline);
      g_string_append (x, "</testcase>\n");
    }
  g_string_append (x, "</testsuite>\n</testsuites>\n");
  return g_string_free (x, FALSE);
}
