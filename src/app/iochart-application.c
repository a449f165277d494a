/* iochart-application.c: application actions, About, and files given on the command line */
#include <glib/gi18n.h>
#include "iochart-application.h"
#include "iochart-window.h"

struct _IochartApplication {
  AdwApplication parent_instance;
  gboolean       live;            /* open recording live */
  char          *live_out;
  gint64         live_keep_ns;
  GStrv          live_command;
  GArray        *live_devices;    /* guint32 */
  GStrv          live_class_rules;
};

G_DEFINE_FINAL_TYPE (IochartApplication, iochart_application, ADW_TYPE_APPLICATION)

static IochartWindow *
current_window (IochartApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (iochart_window_new (self));
  return IOCHART_WINDOW (window);
}

static void
iochart_application_activate (GApplication *app)
{
  IochartApplication *self = IOCHART_APPLICATION (app);
  IochartWindow *window = current_window (self);

  gtk_window_present (GTK_WINDOW (window));
  if (self->live)
    {
      IochartLivePageOptions o = {
        .out = self->live_out, .keep_ns = self->live_keep_ns,
        .command = (const char * const *) self->live_command,
        .devices = self->live_devices ? (const guint32 *) self->live_devices->data : NULL,
        .n_devices = self->live_devices ? self->live_devices->len : 0,
        .class_rules = (const char * const *) self->live_class_rules,
      };

      self->live = FALSE;
      iochart_window_record (window, &o);
    }
}

void
iochart_application_set_live (IochartApplication *self, const IochartLivePageOptions *o)
{
  self->live = TRUE;
  g_free (self->live_out);
  self->live_out = g_strdup (o->out);
  self->live_keep_ns = o->keep_ns;
  g_strfreev (self->live_command);
  self->live_command = g_strdupv ((char **) o->command);
  g_clear_pointer (&self->live_devices, g_array_unref);
  self->live_devices = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (self->live_devices, o->devices, o->n_devices);
  g_strfreev (self->live_class_rules);
  self->live_class_rules = g_strdupv ((char **) o->class_rules);
}

static void
iochart_application_finalize (GObject *object)
{
  IochartApplication *self = IOCHART_APPLICATION (object);

  g_free (self->live_out);
  g_strfreev (self->live_command);
  g_clear_pointer (&self->live_devices, g_array_unref);
  g_strfreev (self->live_class_rules);
  G_OBJECT_CLASS (iochart_application_parent_class)->finalize (object);
}

static void
iochart_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  IochartWindow *window = current_window (IOCHART_APPLICATION (app));

  /* several files of one run (a blktrace folder and its .dat) open together, as on the CLI */
  iochart_window_open_files (window, files, n_files);
  gtk_window_present (GTK_WINDOW (window));
}

static void
about_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkApplication *app = user_data;
  static const char *developers[] = { "The iochart developers", NULL };
  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());

  adw_about_window_set_application_name (about, _("iochart"));
  adw_about_window_set_application_icon (about, IOCHART_APP_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_comments (about, _("Block I/O by process and by I/O priority class: who held the disk, "
                                          "and what idle-class I/O took from everyone else."));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (app));
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
iochart_application_startup (GApplication *app)
{
  static const GActionEntry actions[] = {
    { "about", about_activated },
    { "quit", quit_activated },
  };
  static const struct { const char *action; const char *accels[3]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.open-folder", { "<Control><Shift>o", NULL } },
    { "win.copy-lane", { "<Control><Shift>c", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.close-tab", { "<Control>w", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out", { "<Control>minus", NULL } },
    { "win.zoom-fit", { "<Control>0", NULL } },
    { "win.zoom-selection", { "<Control>Return", NULL } },
    { "win.find", { "<Control>f", NULL } },
  };

  G_APPLICATION_CLASS (iochart_application_parent_class)->startup (app);
  g_action_map_add_action_entries (G_ACTION_MAP (app), actions, G_N_ELEMENTS (actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

static void
iochart_application_class_init (IochartApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = iochart_application_finalize;

  app_class->activate = iochart_application_activate;
  app_class->open = iochart_application_open;
  app_class->startup = iochart_application_startup;
}

static void
iochart_application_init (IochartApplication *self)
{
}

IochartApplication *
iochart_application_new (void)
{
  /* NON_UNIQUE: each `iochart CAPTURE` opens its own window, as a viewer launched from a
   * terminal should, and tests run side by side */
  return g_object_new (IOCHART_TYPE_APPLICATION,
                       "application-id", IOCHART_APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                       "resource-base-path", "/org/iochart/Iochart",
                       NULL);
}
