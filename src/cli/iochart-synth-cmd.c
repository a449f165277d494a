/* iochart-synth-cmd.c: `iochart synth -o OUT.dat [--scenario alone|idle|normal] [--files N]` */
#include <stdio.h>
#include "iochart-cli-private.h"
#include "synth/iochart-synth.h"

int
iochart_synth_command (int argc, char **argv)
{
  g_autofree char *out = NULL, *scenario_name = NULL;
  gint files = 600;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "the trace-cmd .dat to write", "OUT.dat" },
    { "scenario", 's', 0, G_OPTION_ARG_STRING, &scenario_name,
      "alone (one best-effort reader, the default), idle (and an idle-class reader) or normal "
      "(and a second best-effort reader)", "NAME" },
    { "files", 'n', 0, G_OPTION_ARG_INT, &files, "files the best-effort reader reads (600); a competitor "
      "reads twice as many", "N" },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- a synthetic `find -exec cat` capture");
  g_autoptr(GError) error = NULL;
  IochartSynthReader readers[IOCHART_SYNTH_MAX_READERS];
  IochartSynthScenario scenario = IOCHART_SYNTH_ALONE;
  guint n;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "Each reader is 'ionice -c CLASS find DIR -type f -exec cat {} \\;' (a new process per file,\n"
    "a directory block every 40 files, an inode block every 16, 64-128 KiB files), timed as if\n"
    "alone on a 7200 rpm disk, all starting together on device 8,0. The best-effort reader's\n"
    "'find' is pid 1000, its cats follow, then the competitor's 'find'. Replay it with\n"
    "'iochart simulate --device-model hdd:capacity=4'.");
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  if (argc > 1)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': synth takes no capture", argv[1]);
      goto fail;
    }
  if (out == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "synth needs -o OUT.dat");
      goto fail;
    }
  if (files < 1 || files > 10000000)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%d': --files must be 1 to 10000000", files);
      goto fail;
    }
  if (scenario_name != NULL && !iochart_synth_scenario_parse (scenario_name, &scenario, &error))
    goto fail;
  n = iochart_synth_scenario_readers (scenario, files, readers);
  if (!iochart_synth_write_dat (readers, n, out, &error))
    goto fail;
  return IOCHART_EXIT_OK;
fail:
  return iochart_cli_report_error (error);
}
