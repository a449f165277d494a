/* app-test-util.c: the set-up, main-loop pumping and screenshots the GUI tests share */
#include "app-test-util.h"

static IochartApplication *app;
static IochartWindow *window;
static const char *shots;

/* Xvfb has no session bus: GTK's warning about it is not the app's fault. */
static gboolean
fatal_handler (const char *domain, GLogLevelFlags level, const char *message, gpointer user_data)
{
  return strstr (message, "session bus") == NULL && strstr (message, "dbus") == NULL;
}

gboolean
app_test_init (int *argc, char ***argv, const char **required)
{
  g_autoptr(GError) error = NULL;

  g_test_init (argc, argv, NULL);
  g_test_log_set_fatal_handler (fatal_handler, NULL);
  shots = g_getenv ("IOCHART_APP_SHOTS");
  for (guint i = 0; required && required[i]; i++)
    if (g_getenv (required[i]) == NULL)
      shots = NULL;
  if (shots == NULL || !gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display or environment\n");
      return FALSE;
    }
  g_mkdir_with_parents (shots, 0755);
  adw_init ();
  app = iochart_application_new ();
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  window = iochart_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
  gtk_window_present (GTK_WINDOW (window));
  app_test_run_for (300000);
  return TRUE;
}

IochartWindow *
app_test_window (void)
{
  return window;
}

void
app_test_set_window (IochartWindow *w)
{
  window = w;
}

const char *
app_test_shots (void)
{
  return shots;
}

void
app_test_run_for (gint64 us)
{
  gint64 end = g_get_monotonic_time () + us;

  while (g_get_monotonic_time () < end)
    {
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_usleep (5000);
    }
}

/* A chooser selects a file or folder once it has listed its parent, which takes its time on a
 * busy machine: until then it answers with the parent. */
void
app_test_wait_chooser_file (GtkFileChooser *chooser, GFile *want)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(GFile) got = gtk_file_chooser_get_file (chooser);

      if ((got != NULL && g_file_equal (got, want)) || g_get_monotonic_time () >= end)
        break;
      app_test_run_for (20000);
    }
  app_test_run_for (100000);
}

guint
app_test_screenshot (const char *name)
{
  return app_test_screenshot_native (GTK_WIDGET (window), name);
}

guint
app_test_screenshot_native (GtkWidget *w, const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (w);
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  g_autofree char *path = g_build_filename (shots, name, NULL);
  g_autoptr(GHashTable) colors = g_hash_table_new (g_direct_hash, g_direct_equal);
  int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);

  /* a window with a draw queued has no picture until the next frame (a live view queues them
   * ten times a second): wait for one */
  for (int i = 0; i < 100 && node == NULL; i++)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      if (i > 0)
        app_test_run_for (20000);
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (w)), node, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, width * 4);
  for (int i = 0; i < width * height; i += 7)
    g_hash_table_add (colors, GUINT_TO_POINTER (((guint32 *) pixels)[i]));
  g_test_message ("screenshot %s: %u colours", path, g_hash_table_size (colors));
  return g_hash_table_size (colors);
}
