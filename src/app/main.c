/* main.c: the desktop app's entry point */
#include <glib/gi18n.h>
#include <locale.h>
#include "iochart-application.h"

int
main (int argc, char **argv)
{
  g_autoptr(IochartApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, IOCHART_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  app = iochart_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
