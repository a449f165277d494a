/* iochart.c: one executable; the first word picks a subcommand, else it renders a chart */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "iochart-cli-private.h"
#include "iochart-heap.h"
#include "render/iochart-fonts.h"

typedef struct {
  const char *name;
  int (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "info", iochart_info_command, "requests, bytes and latency per device, class and process" },
  { "record", iochart_record_command, "record block and scheduler events (or a boot chart) live" },
  { "live", iochart_live_command, "record in the desktop app: a timeline that follows the events as they come" },
  { "report", iochart_report_command, "one HTML or PDF file to hand on: verdict, charts, episodes, lanes" },
  { "simulate", iochart_simulate_command, "replay a capture under other schedulers, devices or priorities" },
  { "diff", iochart_diff_command, "what changed between two captures, lane by lane, on one time scale" },
  { "export", iochart_export_command, "requests as CSV or JSON rows, or a Perfetto (Chrome JSON) trace" },
  { "synth", iochart_synth_command, "write a synthetic `find -exec cat` capture (.dat) to test the simulator" },
  { "check", iochart_check_command, "exit 1 when a capture breaks a limit (idle steal, latency, boot time)" },
};

static void
usage (FILE *out)
{
  fprintf (out,
           "usage: iochart COMMAND [OPTIONS] CAPTURE...\n"
           "       iochart [--svg F] [--png F] [--pdf F] [--json F] [OPTIONS] CAPTURE...\n"
           "       iochart [CAPTURE...]   (the desktop app)\n\n"
           "Block I/O by process and by I/O priority class.\n\ncommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\n'iochart COMMAND --help' tells each command's options; 'iochart --help-render' the chart's.\n"
                "captures: trace-cmd .dat, ftrace text, trace-cmd report text, blktrace files, blkparse text,\n"
                "blk tracer text (gzip, xz or zstd compressed text too), bootchart folder or tgz.\n");
}

/* A word that names no file (nor a blktrace DEV basename): a mistyped command, not a capture. */
static gboolean
looks_like_command (const char *word)
{
  return word[0] != '-' && strchr (word, '/') == NULL && !g_file_test (word, G_FILE_TEST_EXISTS) &&
         iochart_detect_format (word, NULL) == IOCHART_FORMAT_UNKNOWN;
}

/* The core's own warnings (g_warning) read like every other message of ours, not GLib's log
 * format; criticals keep GLib's, they are bugs. */
static void
on_core_warning (const char *domain, GLogLevelFlags level, const char *message, gpointer data)
{
  fprintf (stderr, "iochart: warning: %s\n", message);
}

static gboolean
is_c_utf8 (const char *name)
{
  return g_strcmp0 (name, "C.UTF-8") == 0 || g_strcmp0 (name, "C.utf8") == 0;
}

/* The locale of the environment. C.UTF-8, the usual locale of containers and CI, is C's in every
 * category but LC_CTYPE (UTF-8 characters): there only LC_CTYPE is set, the same for every
 * function that reads a category. setlocale (LC_ALL, "") opened and mapped its 12 files, 0.3 ms
 * and 14 page faults of every run. A locale set for one category alone (LC_TIME=...) is set in
 * full, as before. */
static void
set_locale (void)
{
  const char *all = g_getenv ("LC_ALL");
  gboolean one_category = FALSE;

  for (char **env = environ; *env != NULL && !one_category; env++)
    one_category = g_str_has_prefix (*env, "LC_") && !g_str_has_prefix (*env, "LC_ALL=") &&
                   strchr (*env, '=') != NULL && strchr (*env, '=')[1] != '\0';
  if (all != NULL && *all != '\0' ? is_c_utf8 (all) : !one_category && is_c_utf8 (g_getenv ("LANG")))
    setlocale (LC_CTYPE, "");
  else
    setlocale (LC_ALL, "");
}

int
main (int argc, char **argv)
{
  iochart_heap_init ();
  set_locale ();
  g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE, on_core_warning, NULL);
  /* files for others: fonts without the system's rules, which were a third of a small chart */
  iochart_fonts_use_own_config ();
  if (argc < 2)
    return iochart_cli_open_app (NULL);   /* the app, with nothing open yet */
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      usage (stdout);
      return IOCHART_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("iochart " PACKAGE_VERSION "\n");
      return IOCHART_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        g_autofree char *prgname = g_strdup_printf ("iochart %s", commands[i].name);

        /* GOption names the program in its usage line after this */
        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }
  g_set_prgname ("iochart");
  if (looks_like_command (argv[1]))
    {
      fprintf (stderr, "iochart: '%s': unknown command (see 'iochart --help'); to chart a capture, give "
                       "an output: iochart --svg OUT.svg CAPTURE\n", argv[1]);
      return IOCHART_EXIT_BAD_INPUT;
    }
  if (strcmp (argv[1], "--help-render") == 0)
    argv[1] = (char *) "--help";
  return iochart_render_command (argc, argv);
}
