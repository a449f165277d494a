/* iochart-diff-cmd.c: `iochart diff A B [--align start|clock|first-io|first-idle-io|PROCESS] [--svg OUT] [--json]` */
#include <stdio.h>
#include "iochart-cli-private.h"
#include "analysis/iochart-diff.h"
#include "render/iochart-diff-chart.h"
#include "render/iochart-svg.h"
#include "render/iochart-cairo.h"

static IochartCapture *
load_one (const char *path, const IochartCliLoadOptions *load, const char *device, int *dev_index, GError **error)
{
  const char *paths[] = { path, NULL };
  g_autoptr(IochartBootchart) bootchart = NULL;
  IochartCapture *capture = NULL;
  guint32 dev;

  *dev_index = -1;
  if (!iochart_cli_load_run (paths, load, &capture, &bootchart, error))
    return NULL;
  if (capture == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no block I/O to compare", path);
      return NULL;
    }
  if (device != NULL && (!iochart_cli_parse_dev (device, &dev, error) ||
                         (*dev_index = iochart_capture_find_device (capture, dev)) < 0))
    {
      if (*dev_index < 0 && (error == NULL || *error == NULL))
        g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s", path, device);
      g_object_unref (capture);
      return NULL;
    }
  return capture;
}

int
iochart_diff_command (int argc, char **argv)
{
  g_autofree char *align = NULL, *svg = NULL, *png = NULL, *device = NULL;
  g_auto(GStrv) captures = NULL;
  gboolean json = FALSE;
  int width = 1600;
  IochartCliLoadOptions load = { 0 };
  GOptionEntry entries[] = {
    { "align", 0, 0, G_OPTION_ARG_STRING, &align,
      "time zero of each capture: start (default), clock (none), first-io, first-idle-io, or a process name",
      "HOW" },
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &svg, "draw both on one time scale, changes marked", "OUT" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &png, "the same as PNG", "OUT" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "image width in pixels (default 1600)", "PX" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "print the rows as JSON", NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, "the device in both (default: each one's busiest)", "MAJ,MIN" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &captures, NULL, "A B" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- what changed from capture A to capture B");
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) a = NULL, b = NULL;
  g_autoptr(IochartDiff) diff = NULL;
  IochartDiffOptions options = IOCHART_DIFF_OPTIONS_INIT;
  int dev_a, dev_b;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Lanes are matched by process name and class, never by pid. Exit code 0 whether or not\n"
    "something changed ('changed' in the JSON says how many rows); 2 on bad input.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  if (captures == NULL || g_strv_length (captures) != 2)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "diff compares two captures: iochart diff A B");
      goto fail;
    }
  if (width < IOCHART_VIEW_MIN_WIDTH || width > 32000)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%d': bad --width", width);
      goto fail;
    }
  if (align != NULL)
    iochart_align_parse (align, &options.align, &options.process);
  if ((a = load_one (captures[0], &load, device, &dev_a, &error)) == NULL ||
      (b = load_one (captures[1], &load, device, &dev_b, &error)) == NULL)
    goto fail;
  if ((diff = iochart_diff_new (a, dev_a, b, dev_b, &options, &error)) == NULL)
    goto fail;
  if (json)
    {
      g_autoptr(JsonBuilder) jb = json_builder_new ();
      g_autoptr(JsonGenerator) gen = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      iochart_diff_to_json (diff, jb);
      root = json_builder_get_root (jb);
      json_generator_set_root (gen, root);
      json_generator_set_pretty (gen, TRUE);
      text = json_generator_to_data (gen, NULL);
      puts (text);
    }
  else
    {
      g_autoptr(GString) out = g_string_new (NULL);

      iochart_diff_print (diff, out);
      fputs (out->str, stdout);
    }
  if (svg || png)
    {
      g_autoptr(IochartDisplayList) dl = iochart_diff_chart_draw (diff, captures[0], captures[1], width,
                                                                 IOCHART_THEME_LIGHT);

      if (svg && !iochart_svg_write (dl, svg, &error))
        goto fail;
      if (png && !iochart_cairo_write_png (dl, png, &error))
        goto fail;
    }
  g_strfreev (load.class_rules);
  return IOCHART_EXIT_OK;
fail:
  g_strfreev (load.class_rules);
  return iochart_cli_report_error (error);
}
