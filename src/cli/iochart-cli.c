/* iochart-cli.c: loading with a progress bar, error reporting and option parsing shared by commands */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iochart-cli-private.h"
#include "iochart-format.h"
#include "iochart-summary.h"
#include "analysis/iochart-steal.h"
#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-chart.h"
#include "bootchart/iochart-bootchart-range.h"

typedef struct {
  const char *name;
  int         last_percent;
  gint64      last_draw_us;
} ProgressBar;

static void
progress_draw (double fraction, gpointer user_data)
{
  ProgressBar *bar = user_data;
  int percent = (int) (fraction * 100);
  gint64 now = g_get_monotonic_time ();
  char cells[41];
  int filled = (int) (fraction * 40);

  /* Redrawing costs more than reading a few thousand events: at most ten times a second. */
  if (percent == bar->last_percent || (now - bar->last_draw_us < 100000 && percent < 100))
    return;
  bar->last_percent = percent;
  bar->last_draw_us = now;
  memset (cells, '#', filled);
  memset (cells + filled, '.', 40 - filled);
  cells[40] = '\0';
  fprintf (stderr, "\r%s [%s] %3d%%", bar->name, cells, percent);
  fflush (stderr);
}

GArray *
iochart_cli_parse_class_rules (char * const *texts, GError **error)
{
  g_autoptr(GArray) rules = g_array_new (FALSE, TRUE, sizeof (IochartClassRule));

  g_array_set_clear_func (rules, (GDestroyNotify) iochart_class_rule_clear);
  for (guint i = 0; texts && texts[i]; i++)
    {
      IochartClassRule rule = { 0 };
      if (!iochart_class_rule_parse (texts[i], &rule, error))
        return NULL;
      g_array_append_val (rules, rule);
    }
  return g_steal_pointer (&rules);
}

IochartCapture *
iochart_cli_load_captures (const char * const *paths, const IochartCliLoadOptions *options, GError **error)
{
  g_autoptr(GArray) rules = iochart_cli_parse_class_rules (options ? options->class_rules : NULL, error);
  IochartLoadOptions load = { 0 };
  g_autofree char *base = g_path_get_basename (paths[0]);
  ProgressBar bar = { base, -1, 0 };
  IochartCapture *capture;

  if (rules == NULL)
    return NULL;
  load.rules = (const IochartClassRule *) rules->data;
  load.n_rules = rules->len;
  if (isatty (STDERR_FILENO))
    {
      load.progress = progress_draw;
      load.progress_data = &bar;
    }
  capture = iochart_load (paths, &load, error);
  if (load.progress != NULL && bar.last_percent >= 0)
    fprintf (stderr, "\r%*s\r", 60 + (int) strlen (base), "");
  if (capture != NULL)
    for (const char * const *w = iochart_capture_get_warnings (capture); *w; w++)
      fprintf (stderr, "iochart: warning: %s\n", *w);
  return capture;
}

/* GOption's own messages ("Cannot parse integer value “abc” for --width") said as ours are:
 * the value quoted first, then what is wrong with it. */
static char *
option_message (const GError *error)
{
  static const struct { const char *pattern, *format; } forms[] = {
    { "^Unknown option (\\S+)$", "'%s': unknown option (see '%s --help')" },
    { "^Missing argument for (\\S+)$", "%s needs a value (see '%s --help')" },
    { "^Cannot parse integer value “(.*)” for (\\S+)$", "'%s': bad %s: give a whole number" },
    { "^Integer value “(.*)” for (\\S+) out of range$", "'%s': bad %s: out of range" },
    { "^Cannot parse double value “(.*)” for (\\S+)$", "'%s': bad %s: give a number" },
    { "^Double value “(.*)” for (\\S+) out of range$", "'%s': bad %s: out of range" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(GRegex) re = g_regex_new (forms[i].pattern, 0, 0, NULL);
      g_autoptr(GMatchInfo) m = NULL;

      if (re != NULL && g_regex_match (re, error->message, 0, &m))
        {
          g_autofree char *a = g_match_info_fetch (m, 1);
          g_autofree char *b = g_match_info_get_match_count (m) > 2 ? g_match_info_fetch (m, 2) : g_strdup (g_get_prgname ());

          return g_strdup_printf (forms[i].format, a, b);
        }
    }
  /* another language: GLib's words, lowercase as ours are */
  return g_strdup_printf ("%c%s", g_ascii_tolower (error->message[0]), error->message[0] ? error->message + 1 : "");
}

int
iochart_cli_report_error (const GError *error)
{
  if (error->domain == G_OPTION_ERROR)
    {
      g_autofree char *message = option_message (error);

      fprintf (stderr, "iochart: %s\n", message);
      return IOCHART_EXIT_BAD_INPUT;
    }
  fprintf (stderr, "iochart: %s\n", error->message);
  if (error->domain == IOCHART_ERROR || error->domain == G_OPTION_ERROR || error->domain == G_FILE_ERROR)
    return IOCHART_EXIT_BAD_INPUT;
  return IOCHART_EXIT_BAD_INPUT;
}

gboolean
iochart_cli_parse_dev (const char *text, guint32 *dev, GError **error)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", 3);
  guint64 major, minor;

  if (g_strv_length (parts) != 2 ||
      !g_ascii_string_to_unsigned (parts[0], 10, 0, 4095, &major, NULL) ||
      !g_ascii_string_to_unsigned (parts[1], 10, 0, 0xfffff, &minor, NULL))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': a device is MAJ,MIN (like 7,0)", text);
      return FALSE;
    }
  *dev = IOCHART_DEV_MAKE (major, minor);
  return TRUE;
}

char *
iochart_cli_json_document (const IochartSummary *summary, IochartSteal *steal, IochartBootchart *bootchart,
                           const IochartBootchartRange *range, guint top)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (b);
  if (summary != NULL)
    iochart_summary_to_json (summary, b);
  if (steal != NULL)
    {
      json_builder_set_member_name (b, "idle_steal");
      iochart_steal_to_json (steal, b);
    }
  if (bootchart != NULL)
    {
      /* it writes one whole object */
      json_builder_set_member_name (b, "bootchart");
      iochart_bootchart_to_json (bootchart, b);
    }
  if (range != NULL)
    {
      json_builder_set_member_name (b, "bootchart_range");
      iochart_bootchart_range_to_json (range, top, b);
    }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}

/* "12", "12s", "1.5 s", "500ms", "250us", "40ns": a time from the capture's start. */
gboolean
iochart_cli_check_from (IochartCapture *capture, const char *text, gint64 from_rel_ns, GError **error)
{
  gint64 span = iochart_capture_get_end_ns (capture) - iochart_capture_get_start_ns (capture);
  g_autofree char *d = NULL;

  if (from_rel_ns == IOCHART_TIME_UNKNOWN || from_rel_ns < span)
    return TRUE;
  d = iochart_format_duration (span);
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': --from is past the capture's end (it spans %s)",
               text, d);
  return FALSE;
}

gboolean
iochart_cli_parse_duration (const char *text, const char *option, gint64 *ns, GError **error)
{
  static const struct { const char *unit; double scale; } units[] = {
    { "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "µs", 1e3 }, { "ns", 1 }, { "m", 60e9 }, { "h", 3600e9 },
  };
  char *end = NULL;
  double v;

  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (end != text && errno == 0 && v >= 0)
    {
      while (*end == ' ')
        end++;
      for (guint i = 0; i < G_N_ELEMENTS (units); i++)
        if (strcmp (end, units[i].unit) == 0)
          {
            *ns = (gint64) (v * units[i].scale);
            return TRUE;
          }
    }
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
               "'%s': bad %s: give a time such as 12, 1.5s, 500ms or 250us", text, option);
  return FALSE;
}

gboolean
iochart_cli_load_run (const char * const *paths, const IochartCliLoadOptions *options, IochartCapture **capture,
                      IochartBootchart **bootchart, GError **error)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  const char *bootchart_path = NULL;
  GError *local = NULL;

  *capture = NULL;
  *bootchart = NULL;
  for (guint i = 0; paths[i] != NULL; i++)
    {
      if (!iochart_bootchart_sniff_path (paths[i]))
        g_ptr_array_add (traces, (gpointer) paths[i]);
      else if (bootchart_path == NULL)
        bootchart_path = paths[i];
      else
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': only one bootchart capture at a time", paths[i]);
          return FALSE;
        }
    }
  g_ptr_array_add (traces, NULL);
  if (bootchart_path != NULL)
    {
      GPtrArray *warnings;

      if ((*bootchart = iochart_bootchart_load (bootchart_path, error)) == NULL)
        return FALSE;
      warnings = iochart_bootchart_get_warnings (*bootchart);
      for (guint i = 0; i < warnings->len; i++)
        fprintf (stderr, "iochart: warning: %s\n", (char *) g_ptr_array_index (warnings, i));
    }
  if (traces->len > 1)
    *capture = iochart_cli_load_captures ((const char * const *) traces->pdata, options, &local);
  else if (bootchart_path != NULL)   /* a bundle recorded by `iochart record --bootchart` has its own */
    *capture = iochart_bootchart_chart_load_bundle_io (bootchart_path, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      g_clear_object (bootchart);
      return FALSE;
    }
  if (*capture != NULL && *bootchart != NULL)
    iochart_bootchart_lend_task_states (*bootchart, *capture);   /* the time split from samples */
  if (*capture == NULL && *bootchart == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "no capture given");
      return FALSE;
    }
  return TRUE;
}

/* The app's executable: IOCHART_APP, beside the build tree's CLI, beside the installed one, on PATH. */
static char *
find_app (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe ? g_path_get_dirname (exe) : NULL;
  const char *env = g_getenv ("IOCHART_APP");
  const char *candidates[] = { "../app/iochart-gtk", "iochart-gtk" };

  if (env && *env)
    return g_strdup (env);
  for (guint i = 0; dir && i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = g_build_filename (dir, candidates[i], NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&path);
    }
  return g_find_program_in_path ("iochart-gtk");
}

int
iochart_cli_exec_app (const char * const *args, const char *no_display, const char *no_app)
{
  const char *wayland = g_getenv ("WAYLAND_DISPLAY"), *x11 = g_getenv ("DISPLAY");
  g_autofree char *app = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  if ((!wayland || !*wayland) && (!x11 || !*x11))
    {
      fprintf (stderr, "iochart: no display for the desktop app: %s\n", no_display);
      return IOCHART_EXIT_BAD_INPUT;
    }
  if ((app = find_app ()) == NULL)
    {
      fprintf (stderr, "iochart: the desktop app is not installed (built with -Dgtk=disabled?): %s\n", no_app);
      return IOCHART_EXIT_BAD_INPUT;
    }
  g_ptr_array_add (argv, app);
  for (guint i = 0; args && args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  execv (app, (char **) argv->pdata);
  fprintf (stderr, "iochart: '%s': cannot start the desktop app: %s\n", app, g_strerror (errno));
  return IOCHART_EXIT_BAD_INPUT;
}

int
iochart_cli_open_app (const char * const *captures)
{
  const char *example = captures && captures[0] ? captures[0] : "CAPTURE";
  g_autofree char *no_display = g_strdup_printf ("render headless instead, e.g.\n  iochart --png chart.png %s\n"
                                                 "  iochart info %s\n(see 'iochart --help')", example, example);
  g_autofree char *no_app = g_strdup_printf ("render headless instead, e.g. 'iochart --png chart.png %s'", example);

  return iochart_cli_exec_app (captures, no_display, no_app);
}

void
iochart_cli_keep_until_exit (gpointer object)
{
  static GPtrArray *kept;

  if (kept == NULL)
    kept = g_ptr_array_new ();
  if (object != NULL)
    g_ptr_array_add (kept, object);
}
