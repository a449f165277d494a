/* iochart-render-cmd.c: `iochart [--svg F] [--png F] [--pdf F] [--json F] ... CAPTURE...`
 *
 * Headless: no display, no GTK; the chart goes through the core's display list to cairo (PNG,
 * PDF) and to our SVG writer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iochart-cli-private.h"
#include "iochart-summary.h"
#include "iochart-output.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"
#include "render/iochart-svg.h"
#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-chart.h"

typedef struct {
  char   *svg, *png, *pdf, *json;
  char   *from, *to, *device, *title, *theme, *group_by, *steal_gap, *latency;
  char  **pids, **comms;
  char  **annotate, *annotations, *done_window;
  int     width, top;
  IochartCliLoadOptions load;
  char  **captures;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->svg);
  g_free (o->png);
  g_free (o->pdf);
  g_free (o->json);
  g_free (o->from);
  g_free (o->to);
  g_free (o->device);
  g_free (o->title);
  g_free (o->theme);
  g_free (o->group_by);
  g_free (o->latency);
  g_free (o->steal_gap);
  g_strfreev (o->pids);
  g_strfreev (o->comms);
  g_strfreev (o->annotate);
  g_free (o->annotations);
  g_free (o->done_window);
  g_strfreev (o->load.class_rules);
  g_strfreev (o->captures);
}

static gboolean
parse_pids (char **texts, GArray *pids, GError **error)
{
  for (guint i = 0; texts && texts[i]; i++)
    {
      gint64 v;

      if (!g_ascii_string_to_signed (texts[i], 10, 0, G_MAXINT32, &v, NULL))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad --pid: give a process id", texts[i]);
          return FALSE;
        }
      g_array_append_vals (pids, &(gint32) { (gint32) v }, 1);
    }
  return TRUE;
}

/* The summary of `iochart info --json` with idle_steal, and the boot chart's model when there is one. */
static gboolean
write_json (IochartCapture *capture, int dev_index, IochartSteal *steal, IochartBootchart *bootchart,
            const char *path, GError **error)
{
  g_autoptr(IochartSummary) summary = capture ? iochart_summary_new (capture, dev_index, 20) : NULL;
  g_autofree char *text = iochart_cli_json_document (summary, capture ? steal : NULL, bootchart, NULL, 0);

  return iochart_output_replace_bytes (path, text, strlen (text), error);
}

static gboolean
parse_options (Options *o, int argc, char **argv, GError **error)
{
  GOptionEntry entries[] = {
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &o->svg, "write the chart as SVG (real text, tooltips)", "FILE" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &o->png, "write the chart as PNG", "FILE" },
    { "pdf", 0, 0, G_OPTION_ARG_FILENAME, &o->pdf, "write the chart as PDF", "FILE" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &o->json, "write the summary with idle_steal as JSON", "FILE" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o->from, "start of the range, from the capture's start", "TIME" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o->to, "end of the range, from the capture's start", "TIME" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device, "the device to chart", "MAJ,MIN" },
    { "pid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->pids, "only lanes holding this pid (repeatable)", "PID" },
    { "comm", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->comms, "only lanes holding this name (repeatable)", "COMM" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o->width, "image width in pixels (default 1600)", "PX" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o->title, "title (default: the capture's name)", "TEXT" },
    { "theme", 0, 0, G_OPTION_ARG_STRING, &o->theme, "light or dark", "THEME" },
    { "group-by", 0, 0, G_OPTION_ARG_STRING, &o->group_by,
      "lanes: tree (a process and its short-lived descendants, default), pid, comm, parent, class", "HOW" },
    { "top", 0, 0, G_OPTION_ARG_INT, &o->top, "lanes kept by bytes, the rest folded (default 12, 0: all)", "N" },
    { "latency", 0, 0, G_OPTION_ARG_STRING, &o->latency,
      "the latency strip: q2c (queue to completion, default), q2i, i2d (in the scheduler) or d2c (on the device)",
      "KIND" },
    { "steal-gap", 0, 0, G_OPTION_ARG_STRING, &o->steal_gap,
      "merge idle-steal intervals closer than this into one episode (default 8 ms)", "MS" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o->load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { "annotate", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->annotate,
      "boot chart: a labelled line at a time since boot or at a process's start (repeatable)",
      "TIME_OR_PROCESS[=LABEL]" },
    { "annotations", 0, 0, G_OPTION_ARG_FILENAME, &o->annotations,
      "boot chart: annotations from a file, one TIME_OR_PROCESS[=LABEL] a line", "FILE" },
    { "boot-done-window", 0, 0, G_OPTION_ARG_STRING, &o->done_window,
      "boot chart: \"boot done\" once CPU and disks stay idle this long (default 2s, 0: no milestone)", "TIME" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- draw the chart of a capture, headless");

  o->width = 1600;
  o->top = 12;
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Several outputs may be given in one run. Lanes show each request from queueing to completion\n"
    "(upper band: queued, lower: on the device), coloured by I/O priority class. Shaded intervals:\n"
    "idle-class I/O on the device while non-idle I/O was outstanding (idle steal).");
  if (!g_option_context_parse (ctx, &argc, &argv, error))
    {
      return FALSE;
    }
  if (o->captures == NULL || o->captures[0] == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "no capture given (see 'iochart --help-render')");
      return FALSE;
    }
  if (!o->svg && !o->png && !o->pdf && !o->json)
    return TRUE;   /* no output: the app opens the captures */
  if (o->width < IOCHART_VIEW_MIN_WIDTH || o->width > 32000)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%d': bad --width: give %d to 32000 pixels",
                   o->width, IOCHART_VIEW_MIN_WIDTH);
      return FALSE;
    }
  if (o->top < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%d': bad --top", o->top);
      return FALSE;
    }
  return TRUE;
}

/* Options that need nothing from the capture are checked before loading it. */
static gboolean
fill_view_options (Options *o, IochartViewOptions *view, IochartChartStyle *style, GArray *pids,
                   gint64 *from_rel, gint64 *to_rel, GError **error)
{
  gint64 gap;

  *from_rel = *to_rel = IOCHART_TIME_UNKNOWN;
  if (o->from && !iochart_cli_parse_duration (o->from, "--from", from_rel, error))
    return FALSE;
  if (o->to && !iochart_cli_parse_duration (o->to, "--to", to_rel, error))
    return FALSE;
  if (*from_rel != IOCHART_TIME_UNKNOWN && *to_rel != IOCHART_TIME_UNKNOWN && *to_rel <= *from_rel)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': --to must come after --from ('%s')", o->to, o->from);
      return FALSE;
    }
  if (o->steal_gap)
    {
      /* a bare number is milliseconds here */
      g_autofree char *text = g_ascii_isdigit (o->steal_gap[strlen (o->steal_gap) - 1])
                              ? g_strconcat (o->steal_gap, "ms", NULL) : g_strdup (o->steal_gap);
      if (!iochart_cli_parse_duration (text, "--steal-gap", &gap, error))
        return FALSE;
      view->steal_gap_ns = gap;
    }
  if (o->latency && !iochart_latency_kind_from_name (o->latency, &view->latency))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad --latency: give q2c, q2i, i2d or d2c", o->latency);
      return FALSE;
    }
  if (o->theme && !iochart_theme_from_name (o->theme, &style->theme))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad --theme: give light or dark", o->theme);
      return FALSE;
    }
  if (o->group_by && !iochart_group_by_from_name (o->group_by, &view->lanes.group_by))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': bad --group-by: give tree, pid, comm, parent or class", o->group_by);
      return FALSE;
    }
  if (!parse_pids (o->pids, pids, error))
    return FALSE;
  view->width = o->width;
  view->lanes.top_n = o->top;
  view->lanes.pids = (const gint32 *) pids->data;
  view->lanes.n_pids = pids->len;
  view->lanes.comms = (const char * const *) o->comms;
  style->title = o->title;
  return TRUE;
}

static gboolean
write_outputs (Options *o, IochartView *view, IochartDisplayList *dl, GError **error)
{
  if (o->svg && !iochart_svg_write (dl, o->svg, error))
    return FALSE;
  if (o->png && !iochart_cairo_write_png (dl, o->png, error))
    return FALSE;
  if (o->pdf && !iochart_cairo_write_pdf (dl, o->pdf, error))
    return FALSE;
  if (o->json)
    {
      /* every device, so that the JSON lists each; the headline is the charted one */
      IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
      g_autoptr(IochartSteal) steal = NULL;
      const IochartViewOptions *vo = iochart_view_get_options (view);

      so.from_ns = iochart_view_get_from_ns (view);
      so.to_ns = iochart_view_get_to_ns (view);
      so.gap_ns = vo->steal_gap_ns;
      steal = iochart_steal_new (iochart_view_get_capture (view), &so);
      if (!write_json (iochart_view_get_capture (view), vo->device, steal, NULL, o->json, error))
        return FALSE;
    }
  return TRUE;
}

/* --pid and --comm that match no process of the capture leave a chart without lanes: say so. */
static void
warn_unmatched_filters (IochartCapture *capture, GArray *pids, char **comms, const char *name)
{
  guint n = iochart_capture_get_n_processes (capture);

  for (guint i = 0; i < pids->len; i++)
    {
      gint32 pid = g_array_index (pids, gint32, i);
      guint p = 0;

      while (p < n && iochart_capture_get_process (capture, p)->pid != pid)
        p++;
      if (p == n)
        fprintf (stderr, "iochart: warning: --pid %d: no process of '%s' has that id\n", pid, name);
    }
  for (guint i = 0; comms && comms[i]; i++)
    {
      guint p = 0;

      while (p < n && g_strcmp0 (iochart_capture_get_process (capture, p)->comm, comms[i]) != 0)
        p++;
      if (p == n)
        fprintf (stderr, "iochart: warning: --comm '%s': no process of '%s' has that name\n", comms[i], name);
    }
}

/* Before the load, which may take minutes: every output can be written and none is an input. */
static gboolean
check_outputs (Options *o, GError **error)
{
  const char *outputs[] = { o->svg, o->png, o->pdf, o->json };

  for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (outputs[i] != NULL && !iochart_output_check (outputs[i], (const char * const *) o->captures, error))
      return FALSE;
  return TRUE;
}

/* Takes the bootchart capture out of o->captures; the rest is block I/O of the same boot. */
static char *
take_bootchart (Options *o)
{
  char *found = NULL;
  guint out = 0;

  for (guint i = 0; o->captures[i] != NULL; i++)
    {
      if (found == NULL && iochart_bootchart_sniff_path (o->captures[i]))
        found = o->captures[i];
      else
        o->captures[out++] = o->captures[i];
    }
  o->captures[out] = NULL;
  return found;
}

static gboolean
bootchart_options (Options *o, GArray *marks, IochartBootchartChartOptions *bo, GError **error)
{
  gint64 ns;

  for (guint i = 0; o->annotate && o->annotate[i]; i++)
    {
      IochartBootchartChartAnnotation a = { 0 };

      if (!iochart_bootchart_chart_annotation_parse (o->annotate[i], &a, error))
        return FALSE;
      g_array_append_val (marks, a);
    }
  if (o->annotations && !iochart_bootchart_chart_annotations_parse_file (o->annotations, marks, error))
    return FALSE;
  if (o->done_window)
    {
      if (!iochart_cli_parse_duration (o->done_window, "--boot-done-window", &ns, error))
        return FALSE;
      bo->done_window_ns = ns;
    }
  if (o->from && !iochart_cli_parse_duration (o->from, "--from", &bo->from_ns, error))
    return FALSE;
  if (o->to && !iochart_cli_parse_duration (o->to, "--to", &bo->to_ns, error))
    return FALSE;
  if (o->theme && !iochart_theme_from_name (o->theme, &bo->theme))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad --theme: give light or dark", o->theme);
      return FALSE;
    }
  bo->width = o->width;
  bo->title = o->title;
  bo->annotations = (const IochartBootchartChartAnnotation *) marks->data;
  bo->n_annotations = marks->len;
  return TRUE;
}

/* `iochart --svg boot.svg bootchart.tgz [trace.dat]`: the boot chart, with the block I/O of the
 * same boot from the traces given, else from the bundle's own events.dat. */
static int
render_bootchart (Options *o, const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartBootchart) bc = NULL;
  g_autoptr(IochartCapture) io = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(GArray) marks = iochart_bootchart_chart_annotations_new ();
  IochartBootchartChartOptions bo = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;

  if (!bootchart_options (o, marks, &bo, &error))
    goto fail;
  if ((bc = iochart_bootchart_load (path, &error)) == NULL)
    goto fail;
  for (guint i = 0; i < iochart_bootchart_get_warnings (bc)->len; i++)
    fprintf (stderr, "iochart: warning: %s\n", (char *) g_ptr_array_index (iochart_bootchart_get_warnings (bc), i));
  if (o->captures[0] != NULL)
    io = iochart_cli_load_captures ((const char * const *) o->captures, &o->load, &error);
  else
    io = iochart_bootchart_chart_load_bundle_io (path, &error);
  if (error != NULL)
    goto fail;
  if (io != NULL)
    iochart_bootchart_lend_task_states (bc, io);   /* the time split under each name */
  if (!iochart_bootchart_chart_write (bc, io, &bo, o->svg, o->png, o->pdf, &error))
    goto fail;
  if (o->json)
    {
      if (io != NULL)
        steal = iochart_steal_new (io, NULL);
      if (!write_json (io, -1, steal, bc, o->json, &error))
        goto fail;
    }
  /* freeing a boot chart's processes and samples one by one was 5% of writing its SVG */
  iochart_cli_keep_until_exit (g_steal_pointer (&bc));
  iochart_cli_keep_until_exit (g_steal_pointer (&io));
  return IOCHART_EXIT_OK;
fail:
  return iochart_cli_report_error (error);
}

int
iochart_render_command (int argc, char **argv)
{
  Options o = { 0 };
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
  g_autoptr(GArray) pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartView) view = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  gint64 from_rel, to_rel, start, t0, t_load, t_view, t_draw;
  guint32 dev;

  char *bootchart;

  if (!parse_options (&o, argc, argv, &error) || !check_outputs (&o, &error))
    goto fail;
  if (!o.svg && !o.png && !o.pdf && !o.json)
    {
      int rc = iochart_cli_open_app ((const char * const *) o.captures);

      options_clear (&o);
      return rc;
    }
  /* fonts are set up while the capture loads */
  if (o.svg || o.png || o.pdf)
    iochart_text_prepare (o.png || o.pdf);
  if ((bootchart = take_bootchart (&o)) != NULL)
    {
      int rc = render_bootchart (&o, bootchart);

      g_free (bootchart);
      options_clear (&o);
      return rc;
    }
  if (o.annotate || o.annotations || o.done_window)
    fprintf (stderr, "iochart: warning: %s: a boot chart option, not drawn on this I/O chart "
             "('iochart report --annotate' marks an I/O chart)\n",
             o.annotate ? "--annotate" : o.annotations ? "--annotations" : "--boot-done-window");
  if (!fill_view_options (&o, &vo, &style, pids, &from_rel, &to_rel, &error))
    goto fail;
  if (o.device && !iochart_cli_parse_dev (o.device, &dev, &error))
    goto fail;

  t0 = g_get_monotonic_time ();
  capture = iochart_cli_load_captures ((const char * const *) o.captures, &o.load, &error);
  if (capture == NULL)
    goto fail;
  if (o.device && (vo.device = iochart_capture_find_device (capture, dev)) < 0)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s",
                   o.captures[0], o.device);
      goto fail;
    }
  warn_unmatched_filters (capture, pids, o.comms, o.captures[0]);
  start = iochart_capture_get_start_ns (capture);
  if (from_rel != IOCHART_TIME_UNKNOWN)
    vo.from_ns = start + from_rel;
  if (to_rel != IOCHART_TIME_UNKNOWN)
    vo.to_ns = start + to_rel;
  if (!iochart_cli_check_from (capture, o.from, from_rel, &error))
    goto fail;

  t_load = g_get_monotonic_time ();
  view = iochart_view_new (capture, &vo);
  if (iochart_view_get_n_lanes_wanted (view) > IOCHART_VIEW_MAX_LANES)
    fprintf (stderr, "iochart: warning: %u lanes: the %u biggest drawn, the rest folded into \"others\" "
             "(--top, --pid or --comm choose)\n", iochart_view_get_n_lanes_wanted (view), IOCHART_VIEW_MAX_LANES - 1);
  t_view = g_get_monotonic_time ();
  dl = iochart_chart_draw (view, &style);
  t_draw = g_get_monotonic_time ();
  if (!write_outputs (&o, view, dl, &error))
    goto fail;
  /* G_MESSAGES_DEBUG=iochart: where the time went, for bench/render-bench.sh */
  g_debug ("timing: requests %u load %.3f s view %.3f s draw %.3f s write %.3f s items %u",
           iochart_capture_get_n_requests (capture), (t_load - t0) / 1e6, (t_view - t_load) / 1e6,
           (t_draw - t_view) / 1e6, (g_get_monotonic_time () - t_draw) / 1e6,
           iochart_display_list_get_n_items (dl));
  options_clear (&o);
  return IOCHART_EXIT_OK;

fail:
  options_clear (&o);
  return iochart_cli_report_error (error);
}
