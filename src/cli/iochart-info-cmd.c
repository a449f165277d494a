/* iochart-info-cmd.c: `iochart info [--json] [--device MAJ,MIN] [--all] CAPTURE...` */
#include <stdio.h>
#include "iochart-cli-private.h"
#include "iochart-summary.h"

static gboolean
print_json (const IochartSummary *summary, GError **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  iochart_summary_to_json (summary, b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  if (fputs (text, stdout) < 0 || fputc ('\n', stdout) < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "cannot write to standard output");
      return FALSE;
    }
  return TRUE;
}

int
iochart_info_command (int argc, char **argv)
{
  gboolean json = FALSE, all = FALSE;
  g_autofree char *device = NULL;
  g_auto(GStrv) captures = NULL;
  IochartCliLoadOptions load = { 0 };
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "print JSON", NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, "only this device", "MAJ,MIN" },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, "list every process, not the top 20", NULL },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("CAPTURE... - requests, bytes and latency by device, class and process");
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartSummary) summary = NULL;
  int dev_index = -1;
  guint32 dev;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  if (captures == NULL || captures[0] == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "info needs a capture (see 'iochart info --help')");
      goto fail;
    }
  if (device != NULL && !iochart_cli_parse_dev (device, &dev, &error))
    goto fail;
  capture = iochart_cli_load_captures ((const char * const *) captures, &load, &error);
  if (capture == NULL)
    goto fail;
  if (device != NULL && (dev_index = iochart_capture_find_device (capture, dev)) < 0)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s", captures[0], device);
      goto fail;
    }
  summary = iochart_summary_new (capture, dev_index, all ? 0 : 20);
  if (json)
    {
      if (!print_json (summary, &error))
        goto fail;
    }
  else
    {
      g_autoptr(GString) out = g_string_new (NULL);
      iochart_summary_print (summary, out);
      fputs (out->str, stdout);
    }
  g_strfreev (load.class_rules);
  return IOCHART_EXIT_OK;
fail:
  g_strfreev (load.class_rules);
  return iochart_cli_report_error (error);
}
