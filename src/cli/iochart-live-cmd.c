/* iochart-live-cmd.c: `iochart live [-o OUT.dat] [--keep T] [--device MAJ,MIN]... [--class RULE]...
 * [-- COMMAND ARGS...]`
 *
 * Checks the options, then execs the desktop app recording live (its Record button does the
 * same). Without a display it says to record headless with `iochart record --live`.
 */
#include <stdio.h>

#include "iochart-cli-private.h"

int
iochart_live_command (int argc, char **argv)
{
  char *out = NULL, *keep = NULL;
  char **devices = NULL, **rest = NULL, **class_rules = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "Also write the recording here when it stops", "OUT.dat" },
    { "keep", 0, 0, G_OPTION_ARG_STRING, &keep, "The window the live view keeps (default 10m)", "TIME" },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &devices, "Only block events of this device (repeatable)", "MAJ,MIN" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, "[-- COMMAND ARGS...]" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) rules = NULL;
  gint64 keep_ns = 0;
  int rc = IOCHART_EXIT_OK;

  g_option_context_set_summary (context,
    "Record block I/O, processes and scheduling in the desktop app: a timeline that follows the\n"
    "events as they come, lanes appearing as processes start, the idle steal and the figures\n"
    "updating live; pause the view to look back while recording goes on. Needs root.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || !iochart_cli_parse_duration (keep ? keep : "10m", "--keep", &keep_ns, &error)
      || (rules = iochart_cli_parse_class_rules (class_rules, &error)) == NULL)
    rc = iochart_cli_report_error (error);
  else
    {
      g_autofree char *no_display = g_strdup_printf (
        "record headless instead: sudo iochart record --live -o %s%s%s",
        out ? out : "OUT.dat", rest ? " -- " : "", rest ? rest[0] : "");

      g_ptr_array_add (args, g_strdup ("--live"));
      g_ptr_array_add (args, g_strdup_printf ("--keep-ns=%" G_GINT64_FORMAT, keep_ns));
      if (out != NULL)
        g_ptr_array_add (args, g_strdup_printf ("--output=%s", out));
      for (char **d = devices; d && *d && rc == IOCHART_EXIT_OK; d++)
        {
          guint32 dev = 0;

          if (!iochart_cli_parse_dev (*d, &dev, &error))
            rc = iochart_cli_report_error (error);
          g_ptr_array_add (args, g_strdup_printf ("--device=%u", dev));
        }
      for (char **r = class_rules; r && *r; r++)
        g_ptr_array_add (args, g_strdup_printf ("--class=%s", *r));
      if (rest != NULL)
        g_ptr_array_add (args, g_strdup ("--"));
      for (char **r = rest; r && *r; r++)
        g_ptr_array_add (args, g_strdup (*r));
      g_ptr_array_add (args, NULL);
      if (rc == IOCHART_EXIT_OK)
        rc = iochart_cli_exec_app ((const char * const *) args->pdata, no_display, no_display);
    }
  g_free (out);
  g_free (keep);
  g_strfreev (devices);
  g_strfreev (class_rules);
  g_strfreev (rest);
  return rc;
}
