/* main.c: the desktop app's entry point; `iochart-gtk --live …` (what `iochart live` runs) opens
 * recording live */
#include <glib/gi18n.h>
#include <locale.h>
#include "iochart-application.h"
#include "iochart-heap.h"

/* `--live [--output=OUT] [--keep-ns=N] [--device=DEV]... [--class=RULE]... [-- COMMAND...]`, as `iochart live` gives
 * them (checked there): FALSE with a message when they do not parse. */
static gboolean
parse_live (IochartApplication *app, int *argc, char ***argv)
{
  gboolean live = FALSE;
  g_autofree char *out = NULL;
  gint64 keep_ns = 0;
  g_auto(GStrv) devices = NULL, rest = NULL, class_rules = NULL;
  GOptionEntry entries[] = {
    { "live", 0, 0, G_OPTION_ARG_NONE, &live, NULL, NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &out, NULL, NULL },
    { "keep-ns", 0, 0, G_OPTION_ARG_INT64, &keep_ns, NULL, NULL },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &devices, NULL, NULL },
    { "class", 0, 0, G_OPTION_ARG_STRING_ARRAY, &class_rules, NULL, NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GArray) devs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_help_enabled (context, FALSE);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("iochart-gtk: %s\n", error->message);
      return FALSE;
    }
  for (char **d = devices; d && *d; d++)
    {
      guint32 dev = (guint32) g_ascii_strtoull (*d, NULL, 10);
      g_array_append_val (devs, dev);
    }
  {
    IochartLivePageOptions o = { .out = out, .keep_ns = keep_ns, .command = (const char * const *) rest,
                                 .devices = (const guint32 *) devs->data, .n_devices = devs->len,
                                 .class_rules = (const char * const *) class_rules };
    iochart_application_set_live (app, &o);
  }
  *argc = 1;   /* no captures to open */
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr(IochartApplication) app = NULL;

  iochart_heap_init ();   /* the load worker's indexes on the main heap's huge pages */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, IOCHART_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  app = iochart_application_new ();
  if (argc > 1 && g_str_equal (argv[1], "--live") && !parse_live (app, &argc, &argv))
    return 2;
  return g_application_run (G_APPLICATION (app), argc, argv);
}
