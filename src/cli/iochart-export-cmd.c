/* iochart-export-cmd.c: `iochart export --format csv|json|perfetto CAPTURE... -o OUT` */
#include <stdio.h>
#include "iochart-cli-private.h"
#include "iochart-export.h"

int
iochart_export_command (int argc, char **argv)
{
  g_autofree char *format_name = NULL, *out = NULL;
  g_auto(GStrv) captures = NULL;
  gboolean zstd = FALSE;
  IochartCliLoadOptions load = { 0 };
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_name,
      "csv (one row per request), json (the same rows) or perfetto (Chrome trace events)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "where to write ('-': standard output)", "OUT" },
    { "zstd", 0, 0, G_OPTION_ARG_NONE, &zstd, "compress with zstd (the default when OUT ends in .zst)", NULL },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- the requests of a capture for other tools");
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartBootchart) bootchart = NULL;
  IochartExportOptions eo = { 0 };

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "The CSV columns are in the README; times are ns since the capture's first event. Perfetto:\n"
    "open the file in ui.perfetto.dev or chrome://tracing. Several captures are one run, as in\n"
    "'iochart info'.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  if (format_name == NULL || !iochart_export_format_from_name (format_name, &eo.format))
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad --format: give csv, json or perfetto",
                   format_name ? format_name : "");
      goto fail;
    }
  if (out == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "export needs -o OUT ('-' for standard output)");
      goto fail;
    }
  if (captures == NULL || captures[0] == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "export needs a capture (see 'iochart export --help')");
      goto fail;
    }
  eo.zstd = zstd || g_str_has_suffix (out, ".zst");
  if (!iochart_cli_load_run ((const char * const *) captures, &load, &capture, &bootchart, &error))
    goto fail;
  if (capture == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no block I/O to export", captures[0]);
      goto fail;
    }
  if (!iochart_export_write (capture, &eo, out, &error))
    goto fail;
  g_strfreev (load.class_rules);
  return IOCHART_EXIT_OK;
fail:
  g_strfreev (load.class_rules);
  return iochart_cli_report_error (error);
}
