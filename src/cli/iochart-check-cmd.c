/* iochart-check-cmd.c: `iochart check [--max-… N]… CAPTURE...`, a CI gate
 *
 * Exit 0 when every limit holds, 1 when one does not (one line each saying which and by how much),
 * 2 on bad input.
 */
#include <stdio.h>
#include <string.h>
#include "iochart-cli-private.h"
#include "iochart-check.h"

typedef struct {
  IochartCheckLimits    limits;
  char                 *device, *junit;
  gboolean              json;
  char                **classes;     /* class names, or COMM_OR_PID=CLASS rules */
  char                **captures;
  IochartCliLoadOptions load;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->device);
  g_free (o->junit);
  g_strfreev (o->classes);
  g_strfreev (o->captures);
  g_strfreev (o->load.class_rules);
}

/* --class takes a class for the latency limit ("be") or, as everywhere else, a rule
 * ("dd=idle"): the two never look alike. */
static gboolean
split_classes (Options *o, GError **error)
{
  g_autoptr(GStrvBuilder) rules = g_strv_builder_new ();

  for (guint i = 0; o->classes && o->classes[i]; i++)
    {
      IochartClass k;

      if (strchr (o->classes[i], '=') != NULL)
        g_strv_builder_add (rules, o->classes[i]);
      else if (iochart_class_from_name (o->classes[i], &k))
        o->limits.p99_classes |= 1u << k;
      else
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                       "'%s': bad --class: give rt, be, idle, none or unknown (or a rule COMM_OR_PID=CLASS)",
                       o->classes[i]);
          return FALSE;
        }
    }
  o->load.class_rules = g_strv_builder_end (rules);
  return TRUE;
}

static gboolean
parse_options (Options *o, int argc, char **argv, GError **error)
{
  GOptionEntry entries[] = {
    { "max-stolen-pct", 0, 0, G_OPTION_ARG_DOUBLE, &o->limits.max_stolen_pct,
      "idle steal at most N % of the foreground-active time", "N" },
    { "max-stolen-ms", 0, 0, G_OPTION_ARG_DOUBLE, &o->limits.max_stolen_ms, "idle steal at most N ms", "N" },
    { "max-p99-ms", 0, 0, G_OPTION_ARG_DOUBLE, &o->limits.max_p99_ms,
      "queue-to-complete p99 latency at most N ms, per class", "N" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o->classes,
      "the class --max-p99-ms applies to (repeatable; default every class but idle), or a class rule",
      "CLASS|COMM_OR_PID=CLASS" },
    { "max-boot-s", 0, 0, G_OPTION_ARG_DOUBLE, &o->limits.max_boot_s,
      "bootchart: \"boot done\" at most N s after boot", "N" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device, "only this device", "MAJ,MIN" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "print the results as JSON", NULL },
    { "junit", 0, 0, G_OPTION_ARG_FILENAME, &o->junit, "also write the results as JUnit XML", "FILE" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- exit 1 when a capture breaks a limit (a CI gate)");
  IochartCheckLimits init = IOCHART_CHECK_LIMITS_INIT;

  o->limits = init;
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Exit codes: 0 every limit holds, 1 one does not (a FAIL line each), 2 bad input.\n"
    "Several captures are one run, as in 'iochart info'.");
  if (!g_option_context_parse (ctx, &argc, &argv, error))
    return FALSE;
  if (o->captures == NULL || o->captures[0] == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "check needs a capture (see 'iochart check --help')");
      return FALSE;
    }
  /* GOption leaves -1 for an option not given; a negative limit given is a mistake */
  {
    const double limits[] = { o->limits.max_stolen_pct, o->limits.max_stolen_ms, o->limits.max_p99_ms,
                              o->limits.max_boot_s };

    for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
      if (limits[i] < 0 && limits[i] != -1)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%g': a limit cannot be negative", limits[i]);
          return FALSE;
        }
  }
  return split_classes (o, error);
}

static gboolean
write_results (Options *o, GPtrArray *results, GError **error)
{
  if (o->json)
    {
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "passed");
      json_builder_add_boolean_value (b, iochart_check_all_passed (results));
      json_builder_set_member_name (b, "checks");
      iochart_check_to_json (results, b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      puts (text);
    }
  else
    for (guint i = 0; i < results->len; i++)
      {
        g_autofree char *line = iochart_check_result_line (g_ptr_array_index (results, i));
        puts (line);
      }
  if (o->junit)
    {
      g_autofree char *base = g_path_get_basename (o->captures[0]);
      g_autofree char *suite = g_strdup_printf ("iochart check %s", base);
      g_autofree char *xml = iochart_check_to_junit (results, suite);
      g_autoptr(GError) local = NULL;

      if (!g_file_set_contents (o->junit, xml, -1, &local))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", o->junit, local->message);
          return FALSE;
        }
    }
  return TRUE;
}

int
iochart_check_command (int argc, char **argv)
{
  Options o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartBootchart) bootchart = NULL;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(GPtrArray) results = NULL;
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  guint32 dev;
  int rc;

  if (!parse_options (&o, argc, argv, &error))
    goto fail;
  if (o.device && !iochart_cli_parse_dev (o.device, &dev, &error))
    goto fail;
  /* a check whose capture cannot tell is bad input, known before loading */
  if (!iochart_check_limits_validate (&o.limits, TRUE, TRUE, &error))
    goto fail;
  if (!iochart_cli_load_run ((const char * const *) o.captures, &o.load, &capture, &bootchart, &error))
    goto fail;
  if (!iochart_check_limits_validate (&o.limits, capture != NULL, bootchart != NULL, &error))
    goto fail;
  if (capture != NULL)
    {
      if (o.device && (so.device = iochart_capture_find_device (capture, dev)) < 0)
        {
          g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s",
                       o.captures[0], o.device);
          goto fail;
        }
      summary = iochart_summary_new (capture, so.device, 1);
      steal = iochart_steal_new (capture, &so);
    }
  results = iochart_check_run (&o.limits, summary, steal, bootchart);
  if (!write_results (&o, results, &error))
    goto fail;
  rc = iochart_check_all_passed (results) ? IOCHART_EXIT_OK : IOCHART_EXIT_FAILURE;
  options_clear (&o);
  return rc;
fail:
  options_clear (&o);
  return iochart_cli_report_error (error);
}
