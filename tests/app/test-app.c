/* The desktop app under a display (Xvfb, GSK_RENDERER=cairo): open a sample of each kind, wait for
 * the load, zoom, select and filter through the app's actions, take screenshots and check that the
 * selection's figures are those of `iochart info --from --to`. */
#include <adwaita.h>
#include <json-glib/json-glib.h>
#include "iochart-application.h"
#include "iochart-window.h"
#include "iochart-capture-page.h"

static IochartApplication *app;
static IochartWindow *window;
static const char *source_root, *shots;

static void
settle (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  /* the chart is laid out in a worker: wait for the exact one */
  while (page && iochart_capture_page_is_ready (page) &&
         iochart_timeline_view_is_drawing (iochart_capture_page_get_timeline (page)) &&
         g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  /* layout, the figures' 150 ms timeout, a redraw */
  for (int round = 0; round < 3; round++)
    {
      gint64 end = g_get_monotonic_time () + 200000;
      while (g_get_monotonic_time () < end)
        while (g_main_context_iteration (NULL, FALSE))
          ;
      g_usleep (20000);
    }
}

static IochartCapturePage *
open_sample (const char *name)
{
  g_autofree char *path = g_build_filename (source_root, "samples", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  IochartCapturePage *page = iochart_window_open_files (window, &file, 1);
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (iochart_capture_page_is_loading (page));
  settle ();
  return page;
}

/* The window as the user sees it, written as PNG; FALSE when it is one flat colour. */
static void
screenshot (const char *name)
{
  GtkWidget *w = GTK_WIDGET (window);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (w);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guchar *pixels = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GHashTable) colors = g_hash_table_new (g_direct_hash, g_direct_equal);
  int width = gtk_widget_get_width (w), height = gtk_widget_get_height (w);

  settle ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node, NULL);
  path = g_build_filename (shots, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  pixels = g_malloc ((gsize) width * height * 4);
  gdk_texture_download (texture, pixels, width * 4);
  for (int i = 0; i < width * height; i += 7)
    g_hash_table_add (colors, GUINT_TO_POINTER (((guint32 *) pixels)[i]));
  /* a chart has its class colours, text and grey: far more than a blank or a bare window */
  g_assert_cmpuint (g_hash_table_size (colors), >, 40);
  g_test_message ("screenshot %s: %u colours", path, g_hash_table_size (colors));
}

static void
action (const char *name)
{
  g_action_group_activate_action (G_ACTION_GROUP (window), name, NULL);
  settle ();
}

static JsonObject *
info_json (const char *sample, const char *dev, gint64 from_rel, gint64 to_rel, JsonParser *parser)
{
  g_autofree char *path = g_build_filename (source_root, "samples", sample, NULL);
  g_autofree char *from = g_strdup_printf ("%" G_GINT64_FORMAT "ns", from_rel);
  g_autofree char *to = g_strdup_printf ("%" G_GINT64_FORMAT "ns", to_rel);
  const char *argv[] = { g_getenv ("IOCHART"), "info", "--json", "--device", dev, "--from", from, "--to", to,
                         path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_dat (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartView *view;
  const IochartSummary *s;
  gint64 full_from, full_to, from, to, origin;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *info, *classes;
  const IochartDevice *dev;
  g_autofree char *dev_text = NULL;

  g_assert_true (iochart_capture_page_is_ready (page));
  screenshot ("app-dat.png");

  /* zoom through the window's actions */
  iochart_timeline_view_get_full_range (tl, &full_from, &full_to);
  action ("zoom-in");
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpint (llabs ((to - from) - (gint64) ((full_to - full_from) / 1.5)), <, 1000);
  action ("pan-right");
  action ("zoom-fit");
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpint (from, ==, full_from);
  g_assert_cmpint (to, ==, full_to);

  /* select 0.5 s - 1.2 s: the panel's figures are info's over the same range */
  origin = iochart_timeline_view_get_origin_ns (tl);
  iochart_timeline_view_set_selection (tl, origin + 500000000, origin + 1200000000);
  iochart_capture_page_update_figures (page);
  settle ();
  screenshot ("app-dat-selected.png");
  s = iochart_range_panel_get_summary (iochart_capture_page_get_panel (page));
  view = iochart_timeline_view_get_view (tl);
  g_assert_nonnull (s);
  dev = iochart_capture_get_device (iochart_view_get_capture (view), iochart_view_get_device (view));
  dev_text = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev));
  info = info_json ("ionice-bfq.dat", dev_text, 500000000, 1200000000, parser);
  classes = json_object_get_object_member (info, "classes");
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      JsonObject *c = json_object_get_object_member (classes, iochart_class_name (k));
      g_assert_cmpint (json_object_get_int_member (c, "requests"), ==, (gint64) s->counts.by_class[k].requests);
      g_assert_cmpint (json_object_get_int_member (c, "bytes"), ==, (gint64) s->counts.by_class[k].bytes);
    }
  g_assert_cmpuint (s->counts.by_class[IOCHART_CLASS_IDLE].requests, >, 0);

  /* zoom to the selection */
  action ("zoom-selection");
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpint (from, ==, origin + 500000000);
  g_assert_cmpint (to, ==, origin + 1200000000);

  /* filter: only lanes holding a process whose name has "find" */
  iochart_capture_page_set_search (page, "find");
  settle ();
  view = iochart_timeline_view_get_view (tl);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (iochart_view_get_lanes (view)), >, 0);
  for (guint l = 0; l < iochart_lanes_get_n_lanes (iochart_view_get_lanes (view)); l++)
    g_assert_nonnull (strstr (iochart_lanes_get_lane (iochart_view_get_lanes (view), l)->label, "find"));
  screenshot ("app-dat-filtered.png");
  iochart_capture_page_set_search (page, "");
}

static void
test_blktrace (void)
{
  IochartCapturePage *page = open_sample ("blktrace/bfq-idle-vs-be-dd");

  g_assert_true (iochart_capture_page_is_ready (page));
  screenshot ("app-blktrace.png");
}

static void
test_text (void)
{
  IochartCapturePage *page = open_sample ("blk-ionice-loop.txt");

  g_assert_true (iochart_capture_page_is_ready (page));
  screenshot ("app-text.png");
}

static void
test_bootchart (void)
{
  IochartCapturePage *page = open_sample ("bootchart-ionice.tgz");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  gint64 full_from, full_to, from, to;

  g_assert_true (iochart_capture_page_is_ready (page));
  screenshot ("app-bootchart.png");
  /* the same zoom as the I/O chart */
  iochart_timeline_view_get_full_range (tl, &full_from, &full_to);
  action ("zoom-in");
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpint (to - from, <, full_to - full_from);
  screenshot ("app-bootchart-zoomed.png");
}

static void
test_bad_file (void)
{
  g_autofree char *path = g_build_filename (shots, "garbage.dat", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  IochartCapturePage *page;
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  g_assert_true (g_file_set_contents (path, "this is no capture\n\x01\x02\x03", -1, NULL));
  page = iochart_window_open_files (window, &file, 1);
  while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (iochart_capture_page_is_ready (page));
  g_assert_nonnull (iochart_capture_page_get_error (page));
  g_assert_nonnull (strstr (iochart_capture_page_get_error (page)->message, "garbage.dat"));
  screenshot ("app-error.png");
}

static void
test_dark (void)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  open_sample ("ionice-bfq.dat");
  screenshot ("app-dark.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

/* Xvfb has no session bus: GTK's warning about it is not the app's fault. */
static gboolean
fatal_handler (const char *domain, GLogLevelFlags level, const char *message, gpointer user_data)
{
  return strstr (message, "session bus") == NULL && strstr (message, "dbus") == NULL;
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_log_set_fatal_handler (fatal_handler, NULL);
  source_root = g_getenv ("IOCHART_SOURCE_ROOT");
  shots = g_getenv ("IOCHART_APP_SHOTS");
  if (!source_root || !shots || !g_getenv ("IOCHART") || !gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display or environment\n");
      return 77;
    }
  g_mkdir_with_parents (shots, 0755);
  adw_init ();
  app = iochart_application_new ();
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);
  window = iochart_window_new (app);
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
  gtk_window_present (GTK_WINDOW (window));
  settle ();
  screenshot ("app-empty.png");
  g_test_add_func ("/app/dat", test_dat);
  g_test_add_func ("/app/blktrace", test_blktrace);
  g_test_add_func ("/app/text", test_text);
  g_test_add_func ("/app/bootchart", test_bootchart);
  g_test_add_func ("/app/bad-file", test_bad_file);
  g_test_add_func ("/app/dark", test_dark);
  return g_test_run ();
}
