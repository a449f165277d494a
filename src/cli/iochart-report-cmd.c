/* iochart-report-cmd.c: `iochart report -o report.html|report.pdf [--annotate …]… CAPTURE...` */
#include <stdio.h>
#include <string.h>
#include "iochart-cli-private.h"
#include "report/iochart-report-build.h"
#include "simulator/iochart-simulator.h"

/* The command line as one can paste it into a shell. */
static char *
command_line (int argc, char **argv)
{
  GString *s = g_string_new ("iochart");

  for (int i = 0; i < argc; i++)
    {
      g_autofree char *q = strpbrk (argv[i], " \t\n'\"\\$`*?[]{}()<>|&;#~") ? g_shell_quote (argv[i]) : g_strdup (argv[i]);
      g_string_append_printf (s, " %s", q);
    }
  return g_string_free (s, FALSE);
}

int
iochart_report_command (int argc, char **argv)
{
  g_autofree char *out = NULL, *title = NULL, *device = NULL, *annotations = NULL;
  g_autofree char *cmdline = command_line (argc, argv);
  g_auto(GStrv) captures = NULL, annotate = NULL, simulate = NULL;
  int width = 1600;
  IochartCliLoadOptions load = { 0 };
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the report: .html (one self-contained file) or .pdf", "OUT" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &title, "title (default: the capture's name)", "TEXT" },
    { "annotate", 0, 0, G_OPTION_ARG_STRING_ARRAY, &annotate,
      "a labelled line at a time from the capture's start (since boot on a boot chart) or at a process's first "
      "sight (repeatable)", "TIME_OR_PROCESS[=TEXT]" },
    { "annotations", 0, 0, G_OPTION_ARG_FILENAME, &annotations, "annotations from a file, one a line", "FILE" },
    { "simulate", 0, 0, G_OPTION_ARG_STRING_ARRAY, &simulate,
      "what-if: replay the capture under this policy, as 'iochart simulate --policy' (repeatable)", "POLICY" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, "the device the report is about", "MAJ,MIN" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "charts' width in pixels (default 1600)", "PX" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- one file to hand on: summary, verdict, charts, episodes, lanes");
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartBootchart) bootchart = NULL;
  g_autoptr(IochartReport) report = NULL;
  g_autoptr(GArray) marks = iochart_bootchart_chart_annotations_new ();
  IochartReportOptions ro = { 0 };
  gboolean pdf;
  guint32 dev;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "HTML: one file, charts as inline SVG, no external resource. PDF: text pages and a page per chart.\n"
    "Several captures are one run, as in 'iochart info'; a bootchart capture adds the boot chart.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  if (out == NULL || !(g_str_has_suffix (out, ".html") || g_str_has_suffix (out, ".htm") || g_str_has_suffix (out, ".pdf")))
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': report needs -o FILE.html or -o FILE.pdf",
                   out ? out : "");
      goto fail;
    }
  pdf = g_str_has_suffix (out, ".pdf");
  if (captures == NULL || captures[0] == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "report needs a capture (see 'iochart report --help')");
      goto fail;
    }
  for (guint i = 0; simulate && simulate[i]; i++)
    if (!iochart_sim_policy_check (simulate[i], &error))
      goto fail;
  if (width < IOCHART_VIEW_MIN_WIDTH || width > 32000)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%d': bad --width", width);
      goto fail;
    }
  for (guint i = 0; annotate && annotate[i]; i++)
    {
      IochartBootchartChartAnnotation a = { 0 };

      if (!iochart_bootchart_chart_annotation_parse (annotate[i], &a, &error))
        goto fail;
      g_array_append_val (marks, a);
    }
  if (annotations && !iochart_bootchart_chart_annotations_parse_file (annotations, marks, &error))
    goto fail;
  if (device && !iochart_cli_parse_dev (device, &dev, &error))
    goto fail;
  if (!iochart_cli_load_run ((const char * const *) captures, &load, &capture, &bootchart, &error))
    goto fail;
  ro.device = -1;
  if (device && (capture == NULL || (ro.device = iochart_capture_find_device (capture, dev)) < 0))
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s", captures[0], device);
      goto fail;
    }
  ro.title = title;
  ro.paths = (const char * const *) captures;
  ro.command_line = cmdline;
  ro.annotations = (const IochartBootchartChartAnnotation *) marks->data;
  ro.n_annotations = marks->len;
  ro.width = width;
  ro.simulate = (const char * const *) simulate;
  if ((report = iochart_report_build (capture, bootchart, &ro, &error)) == NULL)
    goto fail;
  if (!(pdf ? iochart_report_write_pdf (report, out, &error) : iochart_report_write_html (report, out, &error)))
    goto fail;
  g_strfreev (load.class_rules);
  return IOCHART_EXIT_OK;
fail:
  g_strfreev (load.class_rules);
  return iochart_cli_report_error (error);
}
