/* The desktop app under a display (Xvfb, GSK_RENDERER=cairo): open a sample of each kind, wait for
 * the load, zoom, select and filter through the app's actions, take screenshots and check that the
 * selection's figures are those of `iochart info --from --to`. */
#include <json-glib/json-glib.h>
#include "app-test-util.h"
#include "iochart-capture-page.h"
#include "render/iochart-chart.h"
#include "iochart-format.h"
#include "bootchart/iochart-bootchart-range.h"

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

/* The window as the user sees it, written as PNG, once the chart is drawn. */
static void
screenshot (const char *name)
{
  settle ();
  /* a chart has its class colours, text and grey: far more than a blank or a bare window */
  g_assert_cmpuint (app_test_screenshot (name), >, 40);
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

/* The text of the label at (column, row) of grid. */
static const char *
grid_text (GtkGrid *grid, int column, int row)
{
  GtkWidget *w = gtk_grid_get_child_at (grid, column, row);

  g_assert_true (GTK_IS_LABEL (w));
  return gtk_label_get_text (GTK_LABEL (w));
}

/* `iochart info --json --all --device --from --to --pid…` of ionice-bfq.dat. */
static JsonObject *
info_filtered_json (const char *dev, gint64 from_rel, gint64 to_rel, GArray *pids, JsonParser *parser)
{
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_ptr_array_add (argv, g_strdup (g_getenv ("IOCHART")));
  g_ptr_array_add (argv, g_strdup ("info"));
  g_ptr_array_add (argv, g_strdup ("--json"));
  g_ptr_array_add (argv, g_strdup ("--all"));
  g_ptr_array_add (argv, g_strdup_printf ("--device=%s", dev));
  g_ptr_array_add (argv, g_strdup_printf ("--from=%" G_GINT64_FORMAT "ns", from_rel));
  g_ptr_array_add (argv, g_strdup_printf ("--to=%" G_GINT64_FORMAT "ns", to_rel));
  for (guint i = 0; i < pids->len; i++)
    g_ptr_array_add (argv, g_strdup_printf ("--pid=%d", g_array_index (pids, gint32, i)));
  g_ptr_array_add (argv, g_strdup (path));
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  return json_node_get_object (json_parser_get_root (parser));
}

/* The side panel under the filters shows what info shows with the same filter: per class and per
 * lane requests, bytes and Q2C/D2C percentiles, and the idle steal among the kept lanes. */
static void
check_filtered_panel (IochartCapturePage *page, GArray *pids, const char *what)
{
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartRangePanel *panel = iochart_capture_page_get_panel (page);
  IochartView *view = iochart_timeline_view_get_view (tl);
  const IochartSummary *s = iochart_range_panel_get_summary (panel);
  const IochartDevice *dev = iochart_capture_get_device (iochart_view_get_capture (view), iochart_view_get_device (view));
  g_autofree char *dev_text = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev));
  g_autoptr(JsonParser) parser = json_parser_new ();
  gint64 from, to, origin = iochart_timeline_view_get_origin_ns (tl);
  JsonObject *info, *steal;
  JsonArray *lanes;
  GtkGrid *grid = iochart_range_panel_get_lane_grid (panel);
  g_autofree char *stolen = NULL;

  g_test_message ("filter: %s", what);
  g_assert_true (iochart_timeline_view_get_selection (tl, &from, &to));
  g_assert_nonnull (s);
  g_assert_nonnull (s->requests);   /* a filtered summary */
  info = info_filtered_json (dev_text, from - origin, to - origin, pids, parser);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      JsonObject *c = json_object_get_object_member (json_object_get_object_member (info, "classes"),
                                                     iochart_class_name (k));
      JsonObject *q2c = json_object_get_object_member (json_object_get_object_member (c, "latency"), "q2c");

      g_assert_cmpint (json_object_get_int_member (c, "requests"), ==, (gint64) s->counts.by_class[k].requests);
      g_assert_cmpint (json_object_get_int_member (c, "bytes"), ==, (gint64) s->counts.by_class[k].bytes);
      g_assert_cmpint (json_object_get_int_member (q2c, "n"), ==, s->class_latency[k].kind[IOCHART_LATENCY_Q2C].n);
      if (s->class_latency[k].kind[IOCHART_LATENCY_Q2C].n > 0)
        g_assert_cmpint (json_object_get_int_member (q2c, "p99_ns"), ==, s->class_latency[k].kind[IOCHART_LATENCY_Q2C].p99_ns);
    }
  /* the lanes' grid: a row of figures, then a latency line, for each of info's lanes */
  lanes = json_object_get_array_member (info, "lanes");
  g_assert_cmpuint (json_array_get_length (lanes), >, 0);
  g_assert_cmpuint (json_array_get_length (lanes), ==, s->lane_rows->len);
  for (guint i = 0; i < json_array_get_length (lanes) && i < 12; i++)
    {
      JsonObject *l = json_array_get_object_element (lanes, i);
      JsonObject *lat = json_object_get_object_member (l, "latency");
      g_autofree char *n = iochart_format_count (json_object_get_int_member (l, "requests"));
      g_autofree char *b = iochart_format_bytes (json_object_get_int_member (l, "bytes"));
      g_autofree char *p50 = iochart_format_duration (json_object_get_int_member (json_object_get_object_member (lat, "q2c"), "p50_ns"));
      g_autofree char *p99 = iochart_format_duration (json_object_get_int_member (json_object_get_object_member (lat, "d2c"), "p99_ns"));

      g_assert_cmpstr (grid_text (grid, 0, 1 + 2 * i), ==, json_object_get_string_member (l, "label"));
      g_assert_cmpstr (grid_text (grid, 1, 1 + 2 * i), ==, n);
      g_assert_cmpstr (grid_text (grid, 2, 1 + 2 * i), ==, b);
      g_assert_nonnull (strstr (grid_text (grid, 0, 2 + 2 * i), p50));
      g_assert_nonnull (strstr (grid_text (grid, 0, 2 + 2 * i), p99));
    }
  steal = json_object_get_object_member (info, "idle_steal");
  stolen = iochart_format_duration (json_object_get_int_member (steal, "stolen_ns"));
  if (json_object_get_int_member (steal, "foreground_active_ns") > 0)
    {
      g_autofree char *active = iochart_format_duration (json_object_get_int_member (steal, "foreground_active_ns"));
      g_autofree char *want = g_strdup_printf ("Idle steal: %s of the %s with", stolen, active);

      g_assert_true (g_str_has_prefix (iochart_range_panel_get_steal_text (panel), want));
    }
  else
    g_assert_nonnull (strstr (iochart_range_panel_get_steal_text (panel), "no foreground I/O"));
}

/* The class filter and the search for a pid: the panel follows both. */
static void
test_filtered_figures (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartCapture *capture = iochart_view_get_capture (iochart_timeline_view_get_view (tl));
  gint64 origin = iochart_timeline_view_get_origin_ns (tl);
  g_autoptr(GArray) idle = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GArray) two = g_array_new (FALSE, FALSE, sizeof (gint32));
  const IochartSummary *s;
  gint32 pid_be = 15448;

  iochart_timeline_view_set_selection (tl, origin + 200000000, origin + 1600000000);
  settle ();
  s = iochart_range_panel_get_summary (iochart_capture_page_get_panel (page));
  g_assert_null (s->requests);
  /* the class filter keeps the lanes holding a process of the class */
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    if (iochart_capture_get_process (capture, i)->klass == IOCHART_CLASS_IDLE)
      g_array_append_val (idle, iochart_capture_get_process (capture, i)->pid);
  g_assert_cmpuint (idle->len, >, 2);
  iochart_capture_page_set_filters (page, -1, IOCHART_CLASS_IDLE);
  settle ();
  check_filtered_panel (page, idle, "class idle");
  s = iochart_range_panel_get_summary (iochart_capture_page_get_panel (page));
  g_assert_cmpuint (s->counts.by_class[IOCHART_CLASS_RT].requests, ==, 0);
  g_assert_cmpuint (s->counts.by_class[IOCHART_CLASS_IDLE].requests, >, 0);
  screenshot ("app-filtered-idle.png");
  /* the search matches a name or a pid: the best-effort find */
  iochart_capture_page_set_filters (page, -1, -1);
  iochart_capture_page_set_search (page, "15448");
  settle ();
  g_array_append_val (two, pid_be);
  check_filtered_panel (page, two, "search 15448");
  iochart_capture_page_set_search (page, "");
  settle ();
  g_assert_null (iochart_range_panel_get_summary (iochart_capture_page_get_panel (page))->requests);

  /* a click on a lane brings its figures, under the table of every lane, into view */
  {
    IochartRangePanel *panel = iochart_capture_page_get_panel (page);
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_widget_get_first_child (GTK_WIDGET (panel))));

    gtk_adjustment_set_value (adj, 0);
    iochart_timeline_view_activate_lane (tl, 0);
    settle ();
    g_test_message ("panel scrolled to %.0f of %.0f (page %.0f)", gtk_adjustment_get_value (adj),
                    gtk_adjustment_get_upper (adj), gtk_adjustment_get_page_size (adj));
    /* taller than the panel, it scrolled; else everything is in view already */
    if (gtk_adjustment_get_upper (adj) > gtk_adjustment_get_page_size (adj) + 1)
      g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 0);
    g_assert_false (iochart_range_panel_reveal_lane (panel));   /* in view already */
    screenshot ("app-lane-revealed.png");
  }
}

/* The Open dialog's filters take every sample kind ("All captures") and each alone; the Open
 * Folder dialog's choice of a blktrace folder and of an unpacked bootchart opens each in a tab. */
static void
test_open_dialog (void)
{
  const char *samples[] = { "ionice-bfq.dat", "blk-ionice-loop.txt", "ftrace-ionice-loop.trace",
                            "hdd-bfq-idle-vs-normal-5s.report.txt.xz", "hdd-blktrace-5s.blkparse.txt",
                            "blktrace/bfq-idle-vs-be-dd/loop2.blktrace.0", "bootchart-ionice.tgz" };
  g_autofree char *blk = g_build_filename (source_root, "samples", "blktrace", "bfq-idle-vs-be-dd", NULL);
  g_autofree char *tgz = g_build_filename (source_root, "samples", "bootchart-ionice.tgz", NULL);
  g_autofree char *tmp = g_dir_make_tmp ("iochart-open-XXXXXX", NULL);
  const char *folders[] = { blk, tmp };
  GtkFileChooserNative *chooser;
  g_autoptr(GListModel) filters = NULL;
  GtkFilter *all, *dat;
  AdwTabView *tabs = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (iochart_window_get_current_page (window)),
                                                             ADW_TYPE_TAB_VIEW));

  g_action_group_activate_action (G_ACTION_GROUP (window), "open", NULL);
  chooser = iochart_window_get_chooser (window);
  g_assert_nonnull (chooser);
  filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpuint (g_list_model_get_n_items (filters), ==, 6);
  all = g_list_model_get_item (filters, 0);
  dat = g_list_model_get_item (filters, 1);
  g_assert_cmpstr (gtk_file_filter_get_name (GTK_FILE_FILTER (all)), ==, "All captures");
  g_assert_true (gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser)) == GTK_FILE_FILTER (all));
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_build_filename (source_root, "samples", samples[i], NULL);
      g_autofree char *base = g_path_get_basename (path);
      g_autofree char *type = g_content_type_guess (path, NULL, 0, NULL);
      g_autoptr(GFileInfo) info = g_file_info_new ();

      g_file_info_set_display_name (info, base);
      g_file_info_set_content_type (info, type);
      g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
      g_test_message ("%s: %s", base, type);
      g_assert_true (gtk_filter_match (all, info));
      g_assert_true (gtk_filter_match (dat, info) == (i == 0));
    }
  g_object_unref (all);
  g_object_unref (dat);
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (chooser));
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_CANCEL);
  g_assert_null (iochart_window_get_chooser (window));

  /* an unpacked bootchart: a folder of /proc samples */
  {
    const char *argv[] = { "tar", "-xzf", tgz, "-C", tmp, NULL };
    int status;

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  for (guint i = 0; i < G_N_ELEMENTS (folders); i++)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (folders[i]);
      guint n_pages = adw_tab_view_get_n_pages (tabs);
      IochartCapturePage *page;
      gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

      g_action_group_activate_action (G_ACTION_GROUP (window), "open-folder", NULL);
      chooser = iochart_window_get_chooser (window);
      g_assert_nonnull (chooser);
      g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)), ==, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
      g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), folder, NULL));
      app_test_wait_chooser_file (GTK_FILE_CHOOSER (chooser), folder);
      gtk_native_dialog_hide (GTK_NATIVE_DIALOG (chooser));
      g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_ACCEPT);
      g_assert_cmpuint (adw_tab_view_get_n_pages (tabs), ==, n_pages + 1);
      page = iochart_window_get_current_page (window);
      while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
        g_main_context_iteration (NULL, TRUE);
      g_assert_no_error ((GError *) iochart_capture_page_get_error (page));
      g_assert_true (iochart_capture_page_is_ready (page));
      screenshot (i == 0 ? "app-open-folder-blktrace.png" : "app-open-folder-bootchart.png");
      /* blktrace alone has no classes: the panel says unknown, as the chart's header does */
      if (i == 0)
        g_assert_nonnull (strstr (iochart_range_panel_get_steal_text (iochart_capture_page_get_panel (page)),
                                  "unknown"));
    }
  {
    const char *argv[] = { "rm", "-rf", tmp, NULL };
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }
}

/* How many text items of dl read text. */
static guint
count_text (IochartDisplayList *dl, const char *text)
{
  guint n = 0;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      n += item->kind == IOCHART_DL_TEXT && g_strcmp0 (item->text, text) == 0;
    }
  return n;
}

static gboolean
has_tooltip (IochartDisplayList *dl, const char *part)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->tooltip && strstr (item->tooltip, part))
        return TRUE;
    }
  return FALSE;
}

/* The lane whose label starts with prefix in the chart drawn now, or -1. */
static int
lane_named (IochartTimelineView *tl, const char *prefix)
{
  IochartLanes *lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));

  for (guint l = 0; l < iochart_lanes_get_n_lanes (lanes); l++)
    if (g_str_has_prefix (iochart_lanes_get_lane (lanes, l)->label, prefix))
      return l;
  return -1;
}

/* The clicked lane's figures cover the range the lanes' table does: the selection's when there is
 * one (they were the view's), as info gives that lane; the view's again once it is cleared. */
static void
test_lane_selection (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartRangePanel *panel = iochart_capture_page_get_panel (page);
  IochartView *view = iochart_timeline_view_get_view (tl);
  const IochartDevice *dev = iochart_capture_get_device (iochart_view_get_capture (view), iochart_view_get_device (view));
  g_autofree char *dev_text = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev));
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GArray) no_pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  gint64 origin = iochart_timeline_view_get_origin_ns (tl), from = origin + 200000000, to = origin + 900000000;
  const IochartLane *lane;
  JsonArray *lanes;
  JsonObject *info, *row = NULL;
  int l = lane_named (tl, "find[15443]");
  guint row_index = 0;

  g_assert_cmpint (l, >=, 0);
  iochart_timeline_view_activate_lane (tl, l);
  settle ();
  lane = iochart_lanes_get_lane (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)), l);
  {
    g_autofree char *rq = iochart_format_count (lane->n_requests);
    g_autofree char *want = g_strdup_printf (" in %s requests", rq);

    g_test_message ("view: %s", iochart_range_panel_get_lane_text (panel));
    g_assert_nonnull (strstr (iochart_range_panel_get_lane_text (panel), want));
    g_assert_nonnull (strstr (iochart_range_panel_get_lane_text (panel), "in the view"));
  }
  iochart_timeline_view_set_selection (tl, from, to);
  settle ();
  info = info_filtered_json (dev_text, from - origin, to - origin, no_pids, parser);
  lanes = json_object_get_array_member (info, "lanes");
  for (guint i = 0; i < json_array_get_length (lanes) && !row; i++)
    if (g_str_has_prefix (json_object_get_string_member (json_array_get_object_element (lanes, i), "label"),
                          "find[15443]"))
      row = json_array_get_object_element (lanes, row_index = i);
  g_assert_nonnull (row);
  {
    gint64 n = json_object_get_int_member (row, "requests");
    g_autofree char *rq = iochart_format_count (n);
    g_autofree char *b = iochart_format_bytes (json_object_get_int_member (row, "bytes"));
    g_autofree char *want = g_strdup_printf ("%s in %s requests", b, rq);
    const char *text = iochart_range_panel_get_lane_text (panel);

    g_test_message ("selection: %s", text);
    /* fewer than the view's: the test tells the two ranges apart */
    g_assert_cmpint (n, <, lane->n_requests);
    g_assert_nonnull (strstr (text, want));
    g_assert_nonnull (strstr (text, "in the selection"));
    /* the table's row of that lane says the same */
    if (row_index < 12)
      g_assert_cmpstr (grid_text (iochart_range_panel_get_lane_grid (panel), 1, 1 + 2 * row_index), ==, rq);
  }
  screenshot ("app-lane-selection.png");
  iochart_timeline_view_clear_selection (tl);
  settle ();
  g_assert_nonnull (strstr (iochart_range_panel_get_lane_text (panel), "in the view"));
  iochart_timeline_view_activate_lane (tl, -1);
  settle ();
}

/* The chart's own top axis is left to the fixed ruler: each tick label shows once on screen (the
 * bottom axis), twice in an export. */
static void
test_axis_once (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);   /* test_dat's */
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartDisplayList *dl = iochart_timeline_view_get_display_list (tl);
  g_autoptr(IochartDisplayList) exported = iochart_timeline_view_draw_at (tl, (guint) iochart_display_list_get_width (dl), NULL);
  g_autoptr(IochartDisplayList) ruler = NULL;
  gint64 from, to;
  guint ticks = 0;

  iochart_timeline_view_get_range (tl, &from, &to);
  ruler = iochart_chart_draw_ruler (dl, from, to, iochart_timeline_view_get_origin_ns (tl), IOCHART_THEME_LIGHT, 26);
  for (guint i = 0; i < iochart_display_list_get_n_items (ruler); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (ruler, i);
      if (item->kind != IOCHART_DL_TEXT)
        continue;
      g_assert_cmpuint (count_text (dl, item->text), ==, 1);
      g_assert_cmpuint (count_text (exported, item->text), ==, 2);
      ticks++;
    }
  g_assert_cmpuint (ticks, >=, 5);
}

/* Pinch: the zoom gesture's scale divides the span it started with. */
static void
test_pinch (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (tl));
  GtkGesture *zoom = NULL;
  gint64 from, to, from2, to2;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_GESTURE_ZOOM (c))
        zoom = GTK_GESTURE (c);
    }
  g_assert_nonnull (zoom);
  action ("zoom-fit");
  iochart_timeline_view_get_range (tl, &from, &to);
  g_signal_emit_by_name (zoom, "begin", NULL);
  g_signal_emit_by_name (zoom, "scale-changed", 1.5);
  g_signal_emit_by_name (zoom, "scale-changed", 4.0);
  settle ();
  iochart_timeline_view_get_range (tl, &from2, &to2);
  g_assert_cmpint (llabs ((to2 - from2) - (to - from) / 4), <, 1000);
  /* no fingers to find: around the middle */
  g_assert_cmpint (llabs ((from2 + to2) / 2 - (from + to) / 2), <, 1000);
  screenshot ("app-pinched.png");
  action ("zoom-fit");
}

#ifdef HAVE_XTST
#include "app-test-x11.h"

/* A drag with button 1 from x0 to x1 at height y of the widget, in steps. */
static void
x_drag (GtkWidget *w, double x0, double x1, double y)
{
  x_motion (w, x0, y);
  x_button (1, TRUE);
  for (int i = 1; i <= 8; i++)
    x_motion (w, x0 + (x1 - x0) * i / 8, y);
  x_button (1, FALSE);
}

/* The time the view's plot shows at x (the display list's time axis), as a drag there means it. */
static gint64
time_at_x (IochartTimelineView *tl, double x)
{
  double ax, aw;
  gint64 from, to;

  g_assert_true (iochart_display_list_get_time_axis (iochart_timeline_view_get_display_list (tl), &ax, &aw, &from, &to));
  return from + (gint64) ((x - ax) / aw * (double) (to - from));
}

/* Drag-select, Shift+drag pan and Ctrl+wheel zoom with the pointer: the selection is the times
 * under the drag's ends, and the side panel's figures for it are `info --from --to`'s. */
static void
test_pointer (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);   /* ionice-bfq.dat */
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  GtkWidget *w = GTK_WIDGET (tl);
  g_autoptr(JsonParser) parser = json_parser_new ();
  double ax, aw, x0, x1, y = 200;
  gint64 from, to, sel_from, sel_to, want_from, want_to, origin = iochart_timeline_view_get_origin_ns (tl), px;
  const IochartSummary *s;
  IochartView *view;
  const IochartDevice *dev;
  g_autofree char *dev_text = NULL;
  JsonObject *info, *classes;

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_test_skip ("not an X11 display");
      return;
    }
  action ("zoom-fit");
  iochart_timeline_view_clear_selection (tl);
  settle ();
  g_assert_true (iochart_display_list_get_time_axis (iochart_timeline_view_get_display_list (tl), &ax, &aw, &from, &to));
  px = (to - from) / (gint64) aw + 1;   /* a pixel's time */

  /* select from a quarter to 60% of the plot */
  x0 = floor (ax + aw * 0.25);
  x1 = floor (ax + aw * 0.6);
  want_from = time_at_x (tl, x0);
  want_to = time_at_x (tl, x1);
  x_drag (w, x0, x1, y);
  settle ();
  g_assert_true (iochart_timeline_view_get_selection (tl, &sel_from, &sel_to));
  g_test_message ("dragged %.0f..%.0f px: selected %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT " ns, wanted %"
                  G_GINT64_FORMAT "..%" G_GINT64_FORMAT, x0, x1, sel_from - origin, sel_to - origin,
                  want_from - origin, want_to - origin);
  g_assert_cmpint (llabs (sel_from - want_from), <=, px);
  g_assert_cmpint (llabs (sel_to - want_to), <=, px);
  /* a drag selects: the view stays where it was */
  iochart_timeline_view_get_range (tl, &sel_from, &sel_to);
  g_assert_cmpint (sel_from, ==, from);
  g_assert_cmpint (sel_to, ==, to);
  screenshot ("app-drag-selected.png");

  /* the side panel's figures are info's over the exact range selected */
  iochart_timeline_view_get_selection (tl, &sel_from, &sel_to);
  s = iochart_range_panel_get_summary (iochart_capture_page_get_panel (page));
  g_assert_nonnull (s);
  view = iochart_timeline_view_get_view (tl);
  dev = iochart_capture_get_device (iochart_view_get_capture (view), iochart_view_get_device (view));
  dev_text = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev));
  info = info_json ("ionice-bfq.dat", dev_text, sel_from - origin, sel_to - origin, parser);
  classes = json_object_get_object_member (info, "classes");
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      JsonObject *c = json_object_get_object_member (classes, iochart_class_name (k));
      g_assert_cmpint (json_object_get_int_member (c, "requests"), ==, (gint64) s->counts.by_class[k].requests);
      g_assert_cmpint (json_object_get_int_member (c, "bytes"), ==, (gint64) s->counts.by_class[k].bytes);
    }
  g_assert_cmpuint (s->counts.by_class[IOCHART_CLASS_IDLE].requests + s->counts.by_class[IOCHART_CLASS_BE].requests,
                    >, 0);

  /* right to left selects the same way */
  x_drag (w, x1 - 40, x0 + 40, y);
  settle ();
  g_assert_true (iochart_timeline_view_get_selection (tl, &sel_from, &sel_to));
  g_assert_cmpint (llabs (sel_from - time_at_x (tl, x0 + 40)), <=, px);
  g_assert_cmpint (llabs (sel_to - time_at_x (tl, x1 - 40)), <=, px);

  /* Ctrl+wheel up zooms in by 1.25 around the time under the pointer */
  {
    double xa = floor (ax + aw * 0.3);
    gint64 t = time_at_x (tl, xa), f2, t2;

    x_motion (w, xa, y);
    x_key (XK_Control_L, TRUE);
    x_button (4, TRUE);
    x_button (4, FALSE);
    x_key (XK_Control_L, FALSE);
    settle ();
    iochart_timeline_view_get_range (tl, &f2, &t2);
    g_test_message ("ctrl+wheel: span %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " ns", to - from, t2 - f2);
    g_assert_cmpint (llabs ((t2 - f2) - (gint64) ((to - from) / 1.25)), <, 1000);
    /* the time under the pointer stays under it */
    g_assert_cmpint (llabs (time_at_x (tl, xa) - t), <=, px);
  }

  /* Shift+drag pans: dragging left by a tenth of the plot shows a tenth of the span later */
  {
    gint64 f2, t2, f3, t3;

    iochart_timeline_view_get_range (tl, &f2, &t2);
    x_key (XK_Shift_L, TRUE);
    x_drag (w, floor (ax + aw * 0.6), floor (ax + aw * 0.6) - floor (aw * 0.1), y);
    x_key (XK_Shift_L, FALSE);
    settle ();
    iochart_timeline_view_get_range (tl, &f3, &t3);
    g_test_message ("shift+drag: from %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " ns", f2 - origin, f3 - origin);
    g_assert_cmpint (t3 - f3, ==, t2 - f2);
    g_assert_cmpint (llabs ((f3 - f2) - (gint64) (floor (aw * 0.1) / aw * (double) (t2 - f2))), <=, 2 * px);
  }
  action ("zoom-fit");
  iochart_timeline_view_clear_selection (tl);
  settle ();
}
#endif

/* Sort, highlight, copy and expand a lane through the window's actions. */
static void
test_lanes (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartView *view;
  IochartLanes *lanes;
  const IochartLane *lane;
  const IochartStealDevice *sd;
  GdkContentProvider *content;
  GValue value = G_VALUE_INIT;
  g_autofree char *label = NULL;
  int l, n_before;
  guint32 head;
  guint64 family_bytes;
  guint family_size;

  /* by bytes: descending, "others" last */
  action ("sort-bytes");
  g_assert_cmpint (iochart_timeline_view_get_lane_order (tl), ==, IOCHART_LANE_ORDER_BYTES);
  lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
  for (guint i = 1; i < iochart_lanes_get_n_lanes (lanes); i++)
    if (!iochart_lanes_get_lane (lanes, i)->others)
      g_assert_cmpuint (iochart_lanes_get_lane (lanes, i - 1)->bytes, >=, iochart_lanes_get_lane (lanes, i)->bytes);
  /* by stolen time: the idle process that stole most (the steal analysis') heads the first lane */
  action ("sort-stolen");
  view = iochart_timeline_view_get_view (tl);
  lanes = iochart_view_get_lanes (view);
  sd = iochart_steal_get_primary (iochart_view_get_steal (view));
  g_assert_cmpuint (sd->idle->len, >, 0);
  g_assert_cmpint (iochart_lanes_lane_of_process (lanes, g_array_index (sd->idle, IochartStealShare, 0).process), ==, 0);
  g_assert_cmpint (iochart_lanes_get_lane (lanes, 0)->klass, ==, IOCHART_CLASS_IDLE);
  screenshot ("app-sorted-stolen.png");
  /* by first I/O again */
  action ("sort-first-io");
  lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
  for (guint i = 1; i < iochart_lanes_get_n_lanes (lanes); i++)
    if (!iochart_lanes_get_lane (lanes, i)->others)
      g_assert_cmpint (iochart_lanes_get_lane (lanes, i - 1)->first_io_ns, <=,
                       iochart_lanes_get_lane (lanes, i)->first_io_ns);

  /* click the idle find's lane: the renderer draws its requests apart in every strip */
  l = lane_named (tl, "find[15443]");
  g_assert_cmpint (l, >=, 0);
  iochart_timeline_view_activate_lane (tl, l);
  settle ();
  view = iochart_timeline_view_get_view (tl);
  g_assert_cmpint (iochart_view_get_highlight_lane (view), ==, l);
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), ==, l);
  g_assert_nonnull (iochart_view_get_highlight_bins (view));
  g_assert_true (has_tooltip (iochart_timeline_view_get_display_list (tl), "throughput of the highlighted lane"));
  g_assert_true (has_tooltip (iochart_timeline_view_get_display_list (tl), "IOPS of the highlighted lane"));
  screenshot ("app-lane-highlighted.png");
  /* it stays highlighted through a zoom */
  action ("zoom-in");
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), ==, lane_named (tl, "find[15443]"));
  action ("zoom-fit");

  /* copy: the core's summary line of that lane, over the view */
  lane = iochart_lanes_get_lane (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)),
                                 iochart_timeline_view_get_highlighted_lane (tl));
  label = g_strdup (lane->label);
  action ("copy-lane");
  content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (window)));
  g_assert_nonnull (content);
  g_value_init (&value, G_TYPE_STRING);
  g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
  g_test_message ("copied:\n%s", g_value_get_string (&value));
  g_assert_nonnull (strstr (g_value_get_string (&value), label));
  g_assert_nonnull (strstr (g_value_get_string (&value), "Q2C p50"));
  g_assert_nonnull (strstr (g_value_get_string (&value), "idle"));
  g_value_unset (&value);

  /* expand the rt find (24 cats) into its processes, together where the lane was; then fold back */
  n_before = iochart_lanes_get_n_lanes (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)));
  l = lane_named (tl, "find[15442] + 24");
  g_assert_cmpint (l, >=, 0);
  head = iochart_lanes_get_lane (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)), l)->head;
  family_bytes = iochart_lanes_get_lane (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)), l)->bytes;
  family_size = iochart_lanes_get_lane (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)), l)->n_processes;
  iochart_timeline_view_activate_lane (tl, l);
  action ("expand-lane");
  g_assert_true (iochart_timeline_view_is_expanded (tl, head));
  lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
  /* the find issued no I/O of its own (no lane after the expansion): the highlight moves to the
   * first lane of its family instead of going out */
  g_assert_cmpint (iochart_lanes_lane_of_process (lanes, head), ==, -1);
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), >=, 0);
  g_assert_cmpuint (iochart_lanes_get_lane (lanes, iochart_timeline_view_get_highlighted_lane (tl))->expanded_from, ==,
                    head);
  g_assert_cmpint (iochart_view_get_highlight_lane (iochart_timeline_view_get_view (tl)), ==,
                   iochart_timeline_view_get_highlighted_lane (tl));
  g_assert_nonnull (iochart_view_get_highlight_bins (iochart_timeline_view_get_view (tl)));
  {
    guint n_family = 0, first = G_MAXUINT, last = 0;
    guint64 bytes = 0;

    for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
      if (iochart_lanes_get_lane (lanes, i)->expanded_from == head)
        {
          n_family++;
          first = MIN (first, i);
          last = MAX (last, i);
          bytes += iochart_lanes_get_lane (lanes, i)->bytes;
          g_assert_cmpuint (iochart_lanes_get_lane (lanes, i)->n_processes, ==, 1);
          /* the head first, when it issued I/O of its own */
          g_assert_true (iochart_lanes_get_lane (lanes, i)->head != head || i == first);
        }
    /* every process that issued I/O (the find itself may have issued none) */
    g_assert_cmpuint (n_family, >=, family_size - 1);
    g_assert_cmpuint (n_family, <=, family_size);
    g_assert_cmpuint (bytes, ==, family_bytes);
    g_assert_cmpuint (last - first + 1, ==, n_family);   /* together */
  }
  {
    /* down to the lanes: the family under its bracket */
    GtkScrolledWindow *sw = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW));
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (sw);

    gtk_adjustment_set_value (adj, 560);
    screenshot ("app-lane-expanded.png");
    gtk_adjustment_set_value (adj, 0);
  }
  /* a process of the family: the action folds the family back */
  iochart_timeline_view_activate_lane (tl, lane_named (tl, "cat["));
  action ("expand-lane");
  g_assert_false (iochart_timeline_view_is_expanded (tl, head));
  g_assert_cmpint (iochart_lanes_get_n_lanes (iochart_view_get_lanes (iochart_timeline_view_get_view (tl))), ==, n_before);
  iochart_timeline_view_activate_lane (tl, -1);
  settle ();
}

/* What if: noop and bfq with the idle find made best-effort, run through win.whatif-run in the
 * worker; the table's changes are those `iochart simulate --json` gives for the same choices, and
 * each run's chart sits under the observed one on one time scale. */
static void
test_whatif (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);
  IochartWhatifPanel *whatif = iochart_capture_page_get_whatif (page);
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  const char *policies[] = { "noop", "bfq", NULL };
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  const char *argv[] = { g_getenv ("IOCHART"), "simulate", "--policy", "noop", "--policy", "bfq", "--device-model",
                         "observed", "--set-class", "15443=be", "--json", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;
  JsonArray *obs_lanes;
  GPtrArray *rows, *views;
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC, full_from, full_to, from, to;
  g_auto(GStrv) asked = NULL;
  guint n_flush_only = 0;

  iochart_whatif_panel_set_choices (whatif, policies, FALSE, "observed", "15443=be", NULL);
  asked = iochart_whatif_panel_get_policies (whatif);
  g_assert_cmpstrv (asked, policies);
  action ("whatif-run");
  g_assert_true (iochart_whatif_panel_is_running (whatif) || iochart_whatif_panel_get_n_runs (whatif) == 2);
  while (iochart_whatif_panel_is_running (whatif) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  settle ();
  g_assert_null (iochart_whatif_panel_get_error (whatif));
  g_assert_cmpuint (iochart_whatif_panel_get_n_runs (whatif), ==, 2);
  g_assert_true (g_str_has_prefix (iochart_whatif_panel_get_run_policy (whatif, 1), "bfq:"));

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL,
                               &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  obs_lanes = json_object_get_array_member (json_object_get_object_member (root, "observed"), "lanes");
  rows = iochart_whatif_panel_get_rows (whatif);
  g_assert_cmpuint (rows->len, ==, json_array_get_length (json_object_get_array_member (root, "lanes")));
  for (guint l = 0; l < rows->len; l++)
    {
      GStrv row = g_ptr_array_index (rows, l);
      JsonObject *o = json_array_get_object_element (obs_lanes, l);

      g_assert_cmpstr (row[0], ==, json_object_get_string_member (json_array_get_object_element (
                                     json_object_get_array_member (root, "lanes"), l), "label"));
      for (guint k = 0; k < 2; k++)
        {
          JsonObject *sim = json_array_get_object_element (json_object_get_array_member (
                              json_array_get_object_element (json_object_get_array_member (root, "policies"), k),
                              "lanes"), l);
          double a, b;
          g_autofree char *want = NULL;

          if (!json_object_has_member (sim, "end_ns") || !json_object_has_member (o, "end_ns"))
            continue;
          a = json_object_get_int_member (o, "end_ns") - json_object_get_int_member (o, "start_ns");
          b = json_object_get_int_member (sim, "end_ns") - json_object_get_int_member (sim, "start_ns");
          /* a lane of flushes only is left out by the simulator, not dropped */
          want = json_object_get_int_member (sim, "requests") == 0 && json_object_get_int_member (o, "requests") > 0
                 ? g_strdup (json_object_get_int_member (o, "flushes") == json_object_get_int_member (o, "requests")
                             ? "not simulated" : "dropped")
                 : a > 0 ? g_strdup_printf ("%+.1f%%", 100.0 * (b - a) / a) : g_strdup ("");
          g_test_message ("%s %u: app %s, simulate --json %s", row[0], k, row[3 + 2 * k], want);
          g_assert_cmpstr (row[3 + 2 * k], ==, want);
          /* the kernel's flush worker issued flushes only */
          if (g_str_has_prefix (row[0], "kworker/1:1H"))
            {
              g_assert_cmpstr (row[3 + 2 * k], ==, "not simulated");
              n_flush_only++;
            }
        }
    }

  g_assert_cmpuint (n_flush_only, ==, 2);

  /* the runs' charts under the observed one, on the longest run's time scale */
  views = iochart_capture_page_get_sim_views (page);
  g_assert_cmpuint (views->len, ==, 2);
  iochart_timeline_view_get_full_range (tl, &full_from, &full_to);
  for (guint k = 0; k < 2; k++)
    {
      IochartTimelineView *v = g_ptr_array_index (views, k);

      g_assert_true (iochart_view_get_capture (iochart_timeline_view_get_view (v)) ==
                     iochart_whatif_panel_get_run (whatif, k));
      g_assert_cmpint (full_to, >=, iochart_capture_get_end_ns (iochart_whatif_panel_get_run (whatif, k)));
      iochart_timeline_view_get_range (v, &from, &to);
      g_assert_cmpint (from, ==, full_from);
      g_assert_cmpint (to, ==, full_to);
    }
  /* a zoom of the observed chart zooms the simulated ones */
  action ("zoom-in");
  iochart_timeline_view_get_range (tl, &full_from, &full_to);
  iochart_timeline_view_get_range (g_ptr_array_index (views, 1), &from, &to);
  g_assert_cmpint (from, ==, full_from);
  g_assert_cmpint (to, ==, full_to);
  action ("zoom-fit");
  screenshot ("app-whatif.png");
  {
    GtkScrolledWindow *sw = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW));
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (sw);

    gtk_adjustment_set_value (adj, gtk_widget_get_height (GTK_WIDGET (tl)) - 300);
    screenshot ("app-whatif-simulated.png");
    gtk_adjustment_set_value (adj, 0);
  }
}

/* The what-if progress bar on screen while the runs go on (four policies behind the idle gate on
 * the hdd model, each made to last 400 ms: a run of this sample takes tens of milliseconds):
 * shown at once, then part-way, gone at the end. */
/* No scrolled window under w has more to show sideways than its width. */
static void
assert_no_side_scroll (GtkWidget *w)
{
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      if (GTK_IS_SCROLLED_WINDOW (c) && gtk_widget_get_mapped (c))
        {
          GtkAdjustment *h = gtk_scrolled_window_get_hadjustment (GTK_SCROLLED_WINDOW (c));

          g_assert_cmpfloat (gtk_adjustment_get_upper (h) - gtk_adjustment_get_lower (h), <=,
                             gtk_adjustment_get_page_size (h) + 1);
        }
      assert_no_side_scroll (c);
    }
}

static void
test_whatif_progress (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);
  IochartWhatifPanel *whatif = iochart_capture_page_get_whatif (page);
  const char *policies[] = { "noop", "cfq", "bfq", "mq-deadline", NULL };
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  double seen = -1;

  iochart_whatif_panel_set_choices (whatif, policies, TRUE, "hdd", NULL, NULL);
  iochart_whatif_panel_set_min_run_ms (whatif, 400);
  g_action_group_activate_action (G_ACTION_GROUP (window), "whatif-run", NULL);
  g_assert_true (iochart_whatif_panel_is_running (whatif));
  app_test_run_for (150000);   /* laid out with the bar, the first run going on */
  g_assert_cmpfloat (iochart_whatif_panel_get_progress (whatif), >=, 0);
  g_assert_cmpuint (app_test_screenshot ("app-whatif-started.png"), >, 40);
  while (iochart_whatif_panel_is_running (whatif) && g_get_monotonic_time () < end)
    {
      double f = iochart_whatif_panel_get_progress (whatif);

      if (f >= 0.5 && f < 1 && seen < 0)
        {
          seen = f;
          app_test_run_for (50000);
          g_assert_true (iochart_whatif_panel_is_running (whatif));
          g_assert_cmpuint (app_test_screenshot ("app-whatif-running.png"), >, 40);
        }
      g_main_context_iteration (NULL, TRUE);
    }
  g_test_message ("progress caught part-way at %.2f", seen);
  g_assert_cmpfloat (seen, >=, 0.5);
  g_assert_false (iochart_whatif_panel_is_running (whatif));
  g_assert_cmpfloat (iochart_whatif_panel_get_progress (whatif), ==, -1);
  g_assert_cmpuint (iochart_whatif_panel_get_n_runs (whatif), ==, 4);
  iochart_whatif_panel_set_min_run_ms (whatif, 0);
  settle ();
  {
    /* the simulated charts' headings (a policy's settings, one long word) do not push the chart
     * box wider than the pane gives it: it would be clipped on its left */
    GtkPaned *paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (iochart_capture_page_get_timeline (page)),
                                                         GTK_TYPE_PANED));
    GtkWidget *chart = gtk_paned_get_start_child (paned), *side = gtk_paned_get_end_child (paned);

    g_assert_cmpint (gtk_widget_get_width (chart), <=, gtk_paned_get_position (paned));
    /* nor the device model as used (one long word) the side panel wider than it asks */
    g_assert_cmpint (gtk_widget_get_width (side), <, 600);
    /* the table of four runs fits the panel: nothing in it scrolls sideways (a hover-only
     * scrollbar hid two of the runs) */
    assert_no_side_scroll (side);
  }
  screenshot ("app-whatif-four.png");
}

/* The Open dialogs' grouping through win.open-paths: a blktrace folder and a .dat chosen together
 * are one run in one tab (the .dat lends its classes); plain files a tab each. */
static void
test_open_paths (void)
{
  g_autofree char *shared = g_build_filename (source_root, "..", "shared", "captures", NULL);
  g_autofree char *dir = g_build_filename (shared, "hdd-blktrace-bfq-idle-vs-normal-5s", NULL);
  g_autofree char *dat = g_build_filename (shared, "hdd-bfq-idle-vs-normal-5s.dat", NULL);
  g_autofree char *text = g_build_filename (source_root, "samples", "blk-ionice-loop.txt", NULL);
  g_autofree char *trace = g_build_filename (source_root, "samples", "ftrace-ionice-loop.trace", NULL);
  AdwTabView *tabs;
  IochartCapturePage *page;
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  guint n_pages;
  const char *plain[] = { text, trace, NULL };

  tabs = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (iochart_window_get_current_page (window)),
                                                ADW_TYPE_TAB_VIEW));
  n_pages = adw_tab_view_get_n_pages (tabs);
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-paths", g_variant_new_strv (plain, -1));
  g_assert_cmpuint (adw_tab_view_get_n_pages (tabs), ==, n_pages + 2);
  page = iochart_window_get_current_page (window);
  while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (iochart_capture_page_is_ready (page));

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR) || !g_file_test (dat, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no ../shared captures of one run in blktrace and .dat");
      return;
    }
  {
    const char *run[] = { dir, dat, NULL };
    IochartCapture *capture;
    guint idle = 0, be = 0;

    n_pages = adw_tab_view_get_n_pages (tabs);
    g_action_group_activate_action (G_ACTION_GROUP (window), "open-paths", g_variant_new_strv (run, -1));
    g_assert_cmpuint (adw_tab_view_get_n_pages (tabs), ==, n_pages + 1);
    page = iochart_window_get_current_page (window);
    while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
      g_main_context_iteration (NULL, TRUE);
    g_assert_true (iochart_capture_page_is_ready (page));
    settle ();
    /* as test-side-capture counts them on 7,0: 213 best-effort and 196 idle dispatches */
    capture = iochart_view_get_capture (iochart_timeline_view_get_view (iochart_capture_page_get_timeline (page)));
    for (guint i = 0; i < iochart_capture_get_n_requests (capture); i++)
      {
        IochartRequest rq;

        iochart_capture_get_request (capture, i, &rq);
        if (rq.issue_ns == IOCHART_TIME_UNKNOWN || rq.device != iochart_capture_find_device (capture, 7u << 20))
          continue;
        idle += rq.klass == IOCHART_CLASS_IDLE;
        be += rq.klass == IOCHART_CLASS_BE;
      }
    g_assert_cmpuint (be, ==, 213);
    g_assert_cmpuint (idle, ==, 196);
    screenshot ("app-blktrace-with-dat.png");
  }
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
  IochartDisplayList *dl;
  gboolean told = FALSE;

  g_assert_true (iochart_capture_page_is_ready (page));
  screenshot ("app-text.png");
  /* its 24 requests of no class: the header says what to do in the app, not to give --class */
  dl = iochart_timeline_view_get_display_list (iochart_capture_page_get_timeline (page));
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind != IOCHART_DL_TEXT)
        continue;
      g_assert_null (strstr (item->text, "--"));
      told |= strstr (item->text, "requests have no class (open blktrace files with a .dat") != NULL;
    }
  g_assert_true (told);
}

/* `iochart info --json --from --to` (times since boot) of a sample. */
static JsonObject *
info_boot_json (const char *sample, gint64 from, gint64 to, JsonParser *parser)
{
  g_autofree char *path = g_build_filename (source_root, "samples", sample, NULL);
  g_autofree char *f = g_strdup_printf ("%" G_GINT64_FORMAT "ns", from);
  g_autofree char *t = g_strdup_printf ("%" G_GINT64_FORMAT "ns", to);
  const char *argv[] = { g_getenv ("IOCHART"), "info", "--json", "--all", "--from", f, "--to", t, path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, NULL,
                               &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_bootchart (void)
{
  IochartCapturePage *page = open_sample ("bootchart-ionice.tgz");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartRangePanel *panel = iochart_capture_page_get_panel (page);
  const IochartBootchartRange *range;
  const IochartSummary *s;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *info, *jr;
  JsonArray *procs, *disks;
  gint64 full_from, full_to, from, to;
  guint n_dd = 0;

  g_assert_true (iochart_capture_page_is_ready (page));
  screenshot ("app-bootchart.png");
  {
    /* a 2 s capture half an hour after boot: its ends told apart in the header ("1969 s – 1971 s" before) */
    IochartDisplayList *dl = iochart_timeline_view_get_display_list (tl);
    gboolean found = FALSE;

    for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
      {
        const IochartDlItem *item = iochart_display_list_get_item (dl, i);
        found |= item->kind == IOCHART_DL_TEXT && strstr (item->text, "samples 1968.87 s – 1970.88 s every") != NULL;
      }
    g_assert_true (found);
  }
  /* the same zoom as the I/O chart */
  iochart_timeline_view_get_full_range (tl, &full_from, &full_to);
  action ("zoom-in");
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpint (to - from, <, full_to - full_from);
  screenshot ("app-bootchart-zoomed.png");
  action ("zoom-fit");

  /* the same selection: 1968.87 s to 1969.49 s after boot, while both readers wait in D; the
   * panel's figures are those of `info --from --to` on the capture */
  iochart_timeline_view_set_selection (tl, G_GINT64_CONSTANT (1968870000000), G_GINT64_CONSTANT (1969490000000));
  iochart_capture_page_update_figures (page);
  settle ();
  screenshot ("app-bootchart-selected.png");
  range = iochart_range_panel_get_boot_range (panel);
  g_assert_nonnull (range);
  info = info_boot_json ("bootchart-ionice.tgz", G_GINT64_CONSTANT (1968870000000), G_GINT64_CONSTANT (1969490000000),
                         parser);
  jr = json_object_get_object_member (info, "bootchart_range");
  g_assert_cmpint (json_object_get_int_member (jr, "from_ns"), ==, range->from_ns);
  g_assert_cmpint (json_object_get_int_member (jr, "to_ns"), ==, range->to_ns);
  procs = json_object_get_array_member (jr, "processes");
  g_assert_cmpuint (json_array_get_length (procs), ==, range->processes->len);
  for (guint i = 0; i < range->processes->len; i++)
    {
      const IochartBootchartRangeProcess *p = &g_array_index (range->processes, IochartBootchartRangeProcess, i);
      JsonObject *o = json_array_get_object_element (procs, i);
      JsonObject *split = json_object_get_object_member (o, "split");

      g_assert_cmpint (json_object_get_int_member (o, "pid"), ==, p->process->pid);
      g_assert_cmpint (json_object_get_int_member (o, "cpu_ns"), ==, p->cpu_ns);
      g_assert_cmpint (json_object_get_int_member (o, "d_state_ns"), ==, p->d_state_ns);
      g_assert_cmpint (json_object_get_int_member (split, "runnable_ns"), ==, p->split.ns[IOCHART_SPLIT_RUNNABLE]);
      g_assert_cmpint (json_object_get_int_member (split, "sleep_ns"), ==, p->split.ns[IOCHART_SPLIT_SLEEP]);
      /* both dd readers sat in D from the first sample to the next (as a script over proc_ps.log counts) */
      if (g_strcmp0 (p->process->cmd, "dd") == 0)
        {
          g_assert_cmpint (p->d_state_ns, ==, 100000000);
          n_dd++;
        }
    }
  g_assert_cmpuint (n_dd, ==, 2);
  disks = json_object_get_array_member (jr, "disks");
  g_assert_cmpuint (json_array_get_length (disks), ==, range->disks->len);
  for (guint i = 0; i < range->disks->len; i++)
    {
      const IochartBootchartRangeDisk *d = &g_array_index (range->disks, IochartBootchartRangeDisk, i);
      JsonObject *o = json_array_get_object_element (disks, i);

      g_assert_cmpint (json_object_get_int_member (o, "read_bytes"), ==, d->read_bytes);
      g_assert_cmpint (json_object_get_int_member (o, "written_bytes"), ==, d->written_bytes);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "util"), d->util, 1e-9);
    }
  /* vda read 16 MiB in the range: 32768 sectors between the two samples of proc_diskstats.log */
  g_assert_cmpint (g_array_index (range->disks, IochartBootchartRangeDisk, 0).read_bytes, ==, 16777216);
  /* the block I/O of the same boot in the same range, on the samples' clock */
  s = iochart_range_panel_get_summary (panel);
  g_assert_nonnull (s);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      JsonObject *c = json_object_get_object_member (json_object_get_object_member (info, "classes"),
                                                     iochart_class_name (k));
      g_assert_cmpint (json_object_get_int_member (c, "requests"), ==, (gint64) s->counts.by_class[k].requests);
    }
  g_assert_cmpuint (s->counts.by_class[IOCHART_CLASS_IDLE].requests, >, 0);
  /* and its idle steal on the chart's disk, as info gives it (the panel had no steal line) */
  {
    JsonObject *steal = json_object_get_object_member (info, "idle_steal");
    g_autofree char *stolen = iochart_format_duration (json_object_get_int_member (steal, "stolen_ns"));
    g_autofree char *active = iochart_format_duration (json_object_get_int_member (steal, "foreground_active_ns"));
    g_autofree char *want = g_strdup_printf ("Idle steal: %s of the %s with", stolen, active);

    g_test_message ("boot chart panel: %s", iochart_range_panel_get_steal_text (panel));
    g_assert_cmpint (json_object_get_int_member (steal, "stolen_ns"), >, 0);
    g_assert_true (g_str_has_prefix (iochart_range_panel_get_steal_text (panel), want));
  }
}

/* The sector map zooms with the view: zoomed to 0.6 s - 0.9 s, its band is that of the data
 * requests issued there (every one inside it), narrower than the whole capture's. */
static void
test_sector_zoom (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartView *view = iochart_timeline_view_get_view (tl);
  IochartCapture *c = iochart_view_get_capture (view);
  IochartBins *bins = iochart_view_get_bins (view);
  guint64 full_lo = bins->min_sector, full_hi = bins->max_sector, lo = G_MAXUINT64, hi = 0;
  gint64 origin = iochart_timeline_view_get_origin_ns (tl), from = origin + 600000000, to = origin + 900000000;
  guint n = 0;

  iochart_timeline_view_set_range (tl, from, to);
  settle ();
  view = iochart_timeline_view_get_view (tl);
  bins = iochart_view_get_bins (view);
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (c, i, &rq);
      if (rq.device != (guint) iochart_view_get_device (view) || rq.bytes == 0 || rq.op == IOCHART_OP_FLUSH ||
          rq.issue_ns == IOCHART_TIME_UNKNOWN || rq.issue_ns < from || rq.issue_ns > to)
        continue;
      lo = MIN (lo, rq.sector);
      hi = MAX (hi, rq.sector + rq.bytes / 512);
      n++;
    }
  g_test_message ("%u requests; band %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT " (theirs %" G_GUINT64_FORMAT
                  "..%" G_GUINT64_FORMAT "), whole capture %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT,
                  n, bins->min_sector, bins->max_sector, lo, hi, full_lo, full_hi);
  g_assert_cmpuint (n, >, 10);
  g_assert_false (bins->sector_trimmed);
  g_assert_cmpuint (bins->min_sector, <=, lo);
  g_assert_cmpuint (bins->max_sector, >=, hi - 1);
  g_assert_cmpuint (bins->max_sector - bins->min_sector, <, full_hi - full_lo);
  screenshot ("app-sector-zoom.png");
  action ("zoom-fit");
}

/* The band of lane l in dl: the y extent of the items in its group. */
static gboolean
lane_band_y (IochartDisplayList *dl, guint l, double *y0, double *y1)
{
  g_autofree char *meta = g_strdup_printf ("lane:%u", l);
  gboolean in = FALSE, found = FALSE;

  *y0 = G_MAXDOUBLE;
  *y1 = -G_MAXDOUBLE;
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);

      if (item->kind == IOCHART_DL_GROUP_BEGIN)
        in = g_strcmp0 (item->meta, meta) == 0;
      else if (item->kind == IOCHART_DL_GROUP_END)
        in = FALSE;
      else if (in && item->kind == IOCHART_DL_RECT && item->h > 0)
        {
          *y0 = MIN (*y0, item->y);
          *y1 = MAX (*y1, item->y + item->h);
          found = TRUE;
        }
    }
  return found;
}

/* Hovering a request in a lane: the tooltip tells its process, class and where the class came
 * from, op, size, sector and its queue/insert/issue/complete times, as `iochart export` writes
 * that request; shown so under the pointer (XTest). */
static void
test_request_tooltip (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartView *view = iochart_timeline_view_get_view (tl);
  IochartCapture *c = iochart_view_get_capture (view);
  IochartLanes *lanes = iochart_view_get_lanes (view);
  gint64 origin = iochart_timeline_view_get_origin_ns (tl), from, to, mid;
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  const char *argv[] = { g_getenv ("IOCHART"), "export", "-f", "csv", "-o", "-", path, NULL };
  g_autofree char *csv = NULL, *text = NULL, *want_sector = NULL, *want_proc = NULL;
  g_auto(GStrv) lines = NULL;
  IochartRequest rq = { 0 };
  const IochartProcess *p;
  double y0, y1, x;
  int status, lane = -1;
  guint found = 0;

  /* a request of the first lane with all four times */
  for (guint i = 0; i < iochart_capture_get_n_requests (c) && lane != 0; i++)
    {
      iochart_capture_get_request (c, i, &rq);
      if (rq.device == (guint) iochart_view_get_device (view) && rq.process != IOCHART_NO_PROCESS &&
          rq.queue_ns != IOCHART_TIME_UNKNOWN && rq.insert_ns != IOCHART_TIME_UNKNOWN &&
          rq.complete_ns != IOCHART_TIME_UNKNOWN && rq.op == IOCHART_OP_READ)
        lane = iochart_lanes_lane_of_process (lanes, rq.process);
    }
  g_assert_cmpint (lane, ==, 0);
  p = iochart_capture_get_process (c, rq.process);
  /* zoomed around it, the pointer over the middle of its time on the device */
  iochart_timeline_view_set_range (tl, rq.queue_ns - 1000000, rq.complete_ns + 1000000);
  settle ();
  view = iochart_timeline_view_get_view (tl);
  lanes = iochart_view_get_lanes (view);
  g_assert_cmpint (iochart_lanes_lane_of_process (lanes, rq.process), ==, 0);
  g_assert_true (lane_band_y (iochart_timeline_view_get_display_list (tl), 0, &y0, &y1));
  iochart_timeline_view_get_range (tl, &from, &to);
  mid = rq.issue_ns + (rq.complete_ns - rq.issue_ns) / 2;
  {
    double ax0, aw;
    gint64 f, t;

    g_assert_true (iochart_display_list_get_time_axis (iochart_timeline_view_get_display_list (tl), &ax0, &aw, &f, &t));
    x = ax0 + (double) (mid - from) / (double) (to - from) * aw;
  }
  text = iochart_timeline_view_describe_at (tl, x, (y0 + y1) / 2);
  {
    g_autofree char *one_line = g_strdelimit (g_strdup (text), "\n", '/');

    g_test_message ("tooltip at %.0f,%.0f: %s", x, (y0 + y1) / 2, one_line);
  }
  g_assert_nonnull (text);

  /* export's row of the same request: process, class, its source, op, bytes, sector */
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &csv, NULL,
                               &status, NULL));
  want_sector = g_strdup_printf (",%" G_GUINT64_FORMAT ",%u,read,", rq.sector, rq.bytes);
  lines = g_strsplit (csv, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], want_sector))
      {
        g_auto(GStrv) f = g_strsplit (strstr (lines[i], want_sector) + 1, ",", -1);
        /* sector, bytes, op, class, level, class_source, pid, comm, ... */
        g_autofree char *who = g_strdup_printf ("%s[%s] · %s", f[7], f[6], f[3]);
        g_autofree char *source = g_strdup_printf ("(from %s)", f[5]);

        g_assert_true (g_str_has_prefix (text, who));
        g_assert_nonnull (strstr (text, source));
        g_assert_nonnull (strstr (text, f[0]));
        g_assert_cmpstr (f[7], ==, p->comm);
        found++;
      }
  g_assert_cmpuint (found, ==, 1);
  {
    /* the times: queued since the capture's start, then each step after the one before */
    g_autofree char *q = iochart_format_duration ((double) (rq.queue_ns - origin));
    g_autofree char *i = iochart_format_duration ((double) (rq.insert_ns - rq.queue_ns));
    g_autofree char *d = iochart_format_duration ((double) (rq.issue_ns - rq.insert_ns));
    g_autofree char *cpl = iochart_format_duration ((double) (rq.complete_ns - rq.issue_ns));
    g_autofree char *times = g_strdup_printf ("queued %s · inserted +%s · issued +%s · completed +%s", q, i, d, cpl);
    g_autofree char *size = iochart_format_bytes (rq.bytes);
    g_autofree char *op = g_strdup_printf ("read %s at sector %" G_GUINT64_FORMAT, size, rq.sector);

    g_assert_nonnull (strstr (text, times));
    g_assert_nonnull (strstr (text, op));
  }
  /* outside the plot (the lane's label) no request is described */
  g_assert_null (iochart_timeline_view_describe_at (tl, 20, (y0 + y1) / 2));
#ifdef HAVE_XTST
  if (GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      /* the pointer there (XTest): the tooltip shown is that text, then the lane's facts */
      GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
                             gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW)));
      g_autofree char *want = NULL;
      const char *shown;

      gtk_adjustment_set_value (adj, y0 - 300);
      settle ();
      want = iochart_timeline_view_describe_at (tl, x, (y0 + y1) / 2);
      shown = x_hover_tooltip (GTK_WIDGET (tl), x, (y0 + y1) / 2, NULL);
      g_assert_nonnull (want);
      g_assert_nonnull (shown);
      g_assert_true (g_str_has_prefix (shown, want));
      g_assert_true (g_str_has_prefix (shown + strlen (want), "\n\n"));
      x_motion (GTK_WIDGET (tl), 5, 5);
      gtk_adjustment_set_value (adj, 0);
    }
#endif
  action ("zoom-fit");
}

#ifdef HAVE_XTST
/* Real clicks (XTest): anywhere in a lane's row, between its requests or on its name, highlight
 * it and the panel gives its figures (only a drawn request answered: a click between them, or on
 * the name, took the highlight away), and the pointer between its requests shows its facts (it
 * showed nothing); above the lanes the highlight goes; a middle-button drag pans. */
static void
test_lane_click (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  GtkWidget *w = GTK_WIDGET (tl);
  IochartDisplayList *dl = iochart_timeline_view_get_display_list (tl);
  double y0, y1, ax, aw;
  gint64 from, to, f, t;
  int l = lane_named (tl, "find[15443]");

  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_test_skip ("not an X11 display");
      return;
    }
  g_assert_cmpint (l, >=, 0);
  g_assert_true (lane_band_y (dl, l, &y0, &y1));
  g_assert_true (iochart_display_list_get_time_axis (dl, &ax, &aw, &from, &to));
  /* in view (the chart scrolls: the lanes are under its strips) */
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
                              gtk_widget_get_ancestor (w, GTK_TYPE_SCROLLED_WINDOW))), y0 - 300);
  settle ();
  dl = iochart_timeline_view_get_display_list (tl);   /* the chart's list goes with each layout */
  g_assert_true (lane_band_y (dl, l, &y0, &y1));
  /* between its requests (nothing drawn there): its facts on hover, and a click highlights it */
  g_assert_null (iochart_display_list_hit (dl, ax + aw / 2, (y0 + y1) / 2));
  {
    const char *tip = x_hover_tooltip (w, ax + aw / 2, (y0 + y1) / 2, NULL);
    const IochartLane *lane = iochart_lanes_get_lane (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)), l);

    g_test_message ("tooltip between its requests: %s", tip);
    g_assert_nonnull (tip);
    g_assert_true (g_str_has_prefix (tip, lane->label));
    g_assert_nonnull (strstr (tip, "\nclass idle, "));
  }
  x_button (1, TRUE);
  x_button (1, FALSE);
  settle ();
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), ==, l);
  g_assert_nonnull (strstr (iochart_range_panel_get_lane_text (iochart_capture_page_get_panel (page)), "in the view"));
  screenshot ("app-lane-clicked.png");
  {
    double f0, f1;

    g_assert_true (lane_band_y (iochart_timeline_view_get_display_list (tl), 0, &f0, &f1));
    x_motion (w, ax + aw / 2, f0 - 16);   /* the section's heading, above the first lane */
  }
  x_button (1, TRUE);
  x_button (1, FALSE);
  settle ();
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), ==, -1);
  /* its name, left of the plot */
  x_motion (w, 40, y0 + 8);
  x_button (1, TRUE);
  x_button (1, FALSE);
  settle ();
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), ==, l);
  iochart_timeline_view_activate_lane (tl, -1);

  /* the middle button drags the view: left by a fifth of the plot shows a fifth later */
  action ("zoom-in");
  iochart_timeline_view_get_range (tl, &from, &to);
  x_motion (w, ax + aw * 0.6, (y0 + y1) / 2);
  x_button (2, TRUE);
  for (int i = 1; i <= 8; i++)
    x_motion (w, ax + aw * 0.6 - floor (aw * 0.2) * i / 8, (y0 + y1) / 2);
  x_button (2, FALSE);
  settle ();
  iochart_timeline_view_get_range (tl, &f, &t);
  g_test_message ("middle drag: from %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " ns", from, f);
  g_assert_cmpint (t - f, ==, to - from);
  g_assert_cmpint (llabs ((f - from) - (gint64) (floor (aw * 0.2) / aw * (double) (to - from))), <=,
                   2 * ((to - from) / (gint64) aw + 1));
  action ("zoom-fit");
}
#endif

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

/* Waits until every pointer in weak is NULL (a worker may hold its ref a little longer). */
static gboolean
wait_freed (gpointer *weak, int n)
{
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  gboolean all;

  do
    {
      all = TRUE;
      for (int i = 0; i < n; i++)
        all = all && weak[i] == NULL;
      if (!all)
        g_main_context_iteration (NULL, FALSE) || (g_usleep (2000), TRUE);
    }
  while (!all && g_get_monotonic_time () < end);
  return all;
}

/* Closing a tab lets go of its capture, timeline and page, also while it loads or lays out: an app
 * kept open all day must not keep every capture it ever showed. */
static void
test_close_tab (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  gpointer weak[3] = { page, tl, iochart_view_get_capture (iochart_timeline_view_get_view (tl)) };
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  for (int i = 0; i < 3; i++)
    g_object_add_weak_pointer (weak[i], &weak[i]);
  /* a layout in the worker when the tab closes */
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "close-tab", NULL);
  g_assert_true (wait_freed (weak, 3));

  /* closed while loading */
  page = iochart_window_open_files (window, &file, 1);
  weak[0] = page;
  g_object_add_weak_pointer (weak[0], &weak[0]);
  g_action_group_activate_action (G_ACTION_GROUP (window), "close-tab", NULL);
  g_assert_true (wait_freed (weak, 1));
  settle ();
}

/* The cairo node of the widget's own drawing (its own coordinates). */
static gboolean
find_cairo_node (GskRenderNode *node, graphene_rect_t *bounds)
{
  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_CAIRO_NODE:
      gsk_render_node_get_bounds (node, bounds);
      return TRUE;
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        if (find_cairo_node (gsk_container_node_get_child (node, i), bounds))
          return TRUE;
      return FALSE;
    case GSK_CLIP_NODE:
      return find_cairo_node (gsk_clip_node_get_child (node), bounds);
    case GSK_DEBUG_NODE:
      return find_cairo_node (gsk_debug_node_get_child (node), bounds);
    default:
      return FALSE;
    }
}

static void
drawn_rows (IochartTimelineView *tl, graphene_rect_t *bounds)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (tl));
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (GTK_WIDGET (tl)),
                          gtk_widget_get_height (GTK_WIDGET (tl)));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_assert_true (find_cairo_node (node, bounds));
}

/* The timeline as its next frame draws it, now, before the worker's layout of a new range comes:
 * the last chart's pixels warped (a live update, a small zoom or pan); written as name. */
static cairo_surface_t *
warped_frame (IochartTimelineView *tl, const char *name)
{
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autofree char *path = g_build_filename (shots, name, NULL);
  int width = gtk_widget_get_width (GTK_WIDGET (tl)), height = gtk_widget_get_height (GTK_WIDGET (tl));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  /* the widget's own drawing, not the window's last frame (which the next frame replaces) */
  GTK_WIDGET_GET_CLASS (tl)->snapshot (GTK_WIDGET (tl), snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_surface_write_to_png (surface, path);
  return surface;
}

/* How far the pixel at x, y is from the chart's background (the sum of the channels' differences). */
static int
off_background (cairo_surface_t *s, int x, int y, guint32 bg)
{
  guint32 px = *(guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + 4 * x);

  return abs ((int) ((px >> 16) & 0xff) - (int) (bg >> 24)) + abs ((int) ((px >> 8) & 0xff) - (int) ((bg >> 16) & 0xff)) +
         abs ((int) (px & 0xff) - (int) ((bg >> 8) & 0xff));
}

/* The frame between a range's change and its exact layout (the worker's pixels moved and
 * stretched) keeps the strips' frames and the lanes' stripes to the plot's edges: moved with the
 * plot, a pan of 5% left the right edge of every strip without its frame (a bare strip 5% wide) and
 * its lanes' stripes short of it. */
static void
test_warped_frame (void)
{
  IochartTimelineView *tl = iochart_capture_page_get_timeline (open_sample ("ionice-bfq.dat"));
  IochartDisplayList *dl;
  const IochartDlItem *frame = NULL, *note = NULL;
  cairo_surface_t *moved, *before;
  double x0, w, nx, ny, nw, nh;
  gint64 from, to, dl_from, dl_to;
  int edge, y;

  action ("zoom-fit");
  iochart_timeline_view_zoom (tl, 1.25, 0.5);   /* a range 80% as long: not the full one, so it can pan */
  settle ();
  dl = iochart_timeline_view_get_display_list (tl);
  g_assert_true (iochart_display_list_get_time_axis (dl, &x0, &w, &dl_from, &dl_to));
  /* the first strip's frame */
  for (guint i = 0; i < iochart_display_list_get_n_items (dl) && !frame; i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_RECT && item->stroke != 0 && item->x == x0 && item->w == w)
        frame = item;
    }
  g_assert_nonnull (frame);
  before = warped_frame (tl, "app-warped-before.png");
  /* the lanes' section note, a line from the label column across the plot */
  for (guint i = 0; i < iochart_display_list_get_n_items (dl) && !note; i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && g_str_has_prefix (item->text, "A lane is a process"))
        note = item;
    }
  g_assert_nonnull (note);
  iochart_timeline_view_pan (tl, 0.05);
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_true (iochart_timeline_view_get_display_list (tl) == dl);   /* the layout is still the old one */
  g_assert_cmpint (dl_from, <, from);
  moved = warped_frame (tl, "app-warped-pan.png");
  /* its header reads the range shown, not the one laid out */
  {
    gint64 origin = iochart_timeline_view_get_origin_ns (tl);
    g_autofree char *a = iochart_format_duration (from - origin), *b = iochart_format_duration (to - origin);
    g_autofree char *range = g_strdup_printf (" · %s – %s of a ", a, b);
    g_autofree char *header = NULL;
    guint item;

    header = iochart_display_list_range_text (dl, from, to, &item);
    g_test_message ("warped header: %s", header);
    g_assert_nonnull (header);
    g_assert_nonnull (strstr (header, range));
    g_assert_null (strstr (iochart_display_list_get_item (dl, item)->text, range));
    /* and the frame drew it: the pixels of that line changed (the worker's image had the old range) */
    {
      double hx, hy, hw, hh;
      guint changed = 0;

      iochart_dl_item_text_box (iochart_display_list_get_item (dl, item), &hx, &hy, &hw, &hh);
      for (int py = (int) ceil (hy); py < (int) (hy + hh); py++)
        for (int px = (int) ceil (hx); px < (int) (hx + hw); px++)
          changed += off_background (moved, px, py, *(guint32 *) (cairo_image_surface_get_data (before) +
                                                                  py * cairo_image_surface_get_stride (before) +
                                                                  4 * px) << 8 | 0xff) > 0;
      g_assert_cmpuint (changed, >, 20);
    }
  }
  /* the frame's right edge, half-way down the strip; the pixel right of it is outside the plot */
  edge = (int) floor (x0 + w) - 1;
  y = (int) (frame->y + frame->h / 2);
  g_assert_cmpint (MAX (off_background (moved, edge, y, iochart_display_list_get_background (dl)),
                        off_background (moved, edge + 1, y, iochart_display_list_get_background (dl))), >, 30);
  /* the note's line as it was: not cut where the plot begins, its rest moved over it */
  iochart_dl_item_text_box (note, &nx, &ny, &nw, &nh);
  g_assert_cmpfloat (ny + nh, <, gtk_widget_get_height (GTK_WIDGET (tl)));
  for (int py = (int) ceil (ny); py < (int) (ny + nh); py++)
    for (int px = (int) ceil (x0); px < (int) (nx + nw); px++)
      if (off_background (moved, px, py, *(guint32 *) (cairo_image_surface_get_data (before) +
                                                      py * cairo_image_surface_get_stride (before) + 4 * px) << 8 | 0xff))
        g_error ("the note's pixel %d,%d changed in the warped frame", px, py);
  cairo_surface_destroy (moved);
  cairo_surface_destroy (before);
  action ("zoom-fit");
}

/* A chart taller than the window costs what is in view: the node covers the scrolled window's
 * rows, and a scroll draws the rows it brings into view. */
static void
test_visible_rows (void)
{
  IochartTimelineView *tl = iochart_capture_page_get_timeline (open_sample ("ionice-bfq.dat"));
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
  int height = gtk_widget_get_height (GTK_WIDGET (tl)), view = gtk_widget_get_height (sw);
  graphene_rect_t b;

  g_assert_cmpint (height, >, view);
  drawn_rows (tl, &b);
  g_assert_cmpfloat (b.origin.y, ==, 0);
  g_assert_cmpfloat (b.size.height, <=, view + 1);
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  settle ();
  drawn_rows (tl, &b);
  g_assert_cmpfloat (b.origin.y, >, 0);
  g_assert_cmpfloat (b.origin.y + b.size.height, >=, height - 1);
  screenshot ("app-scrolled-to-end.png");
  gtk_adjustment_set_value (adj, 0);
  settle ();
}

static void
test_dark (void)
{
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  IochartTimelineView *tl = iochart_capture_page_get_timeline (open_sample ("ionice-bfq.dat"));

  screenshot ("app-dark.png");
  /* a highlighted lane in the dark palette */
  iochart_timeline_view_activate_lane (tl, lane_named (tl, "find[15443]"));
  settle ();
  g_assert_nonnull (iochart_view_get_highlight_bins (iochart_timeline_view_get_view (tl)));
  screenshot ("app-dark-highlighted.png");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
}

/* The first toplevel of type t other than the test's window, or NULL. */
static GtkWindow *
toplevel_of_type (GType t)
{
  GListModel *tops = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (tops, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (w, t) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_WINDOW (w);
    }
  return NULL;
}

/* The rest of what a user can do, each through what the app itself calls: recent files (the
 * recent manager, and a new window's list), the shortcuts window and About (their actions),
 * export (the export action's backend, SVG/PNG/PDF read back by their magic), the steal episode
 * list (a row chosen), the type-ahead filter (win.find focuses the entry; text typed there). */
static void
test_features (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  g_autofree char *rel = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  g_autofree char *path = g_canonicalize_filename (rel, NULL);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  GtkWindow *w;
  gint64 from, to;

  /* recent files: the capture is listed, and the start page of a new window offers it */
  g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  {
    IochartWindow *other = iochart_window_new (IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));
    GtkListBox *list = NULL;
    GtkWidget *stack[64];
    guint n = 0, rows = 0;

    gtk_window_present (GTK_WINDOW (other));
    app_test_run_for (200000);
    /* the recent list is the window's only GtkListBox */
    stack[n++] = GTK_WIDGET (other);
    while (n > 0 && list == NULL)
      {
        GtkWidget *x = stack[--n];
        if (GTK_IS_LIST_BOX (x))
          list = GTK_LIST_BOX (x);
        for (GtkWidget *c = gtk_widget_get_first_child (x); c && n < G_N_ELEMENTS (stack); c = gtk_widget_get_next_sibling (c))
          stack[n++] = c;
      }
    g_assert_nonnull (list);
    for (GtkWidget *r = gtk_widget_get_first_child (GTK_WIDGET (list)); r; r = gtk_widget_get_next_sibling (r))
      rows += g_strcmp0 (g_object_get_data (G_OBJECT (r), "uri"), uri) == 0;
    g_assert_cmpuint (rows, ==, 1);
    app_test_set_window (other);
    app_test_screenshot ("app-start-recent.png");
    app_test_set_window (window);
    gtk_window_destroy (GTK_WINDOW (other));
  }

  /* keyboard shortcuts window, About */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-help-overlay", NULL);
  app_test_run_for (300000);
  w = toplevel_of_type (GTK_TYPE_SHORTCUTS_WINDOW);
  g_assert_nonnull (w);
  app_test_set_window ((IochartWindow *) w);   /* only its GtkWindow side is used */
  app_test_screenshot ("app-shortcuts.png");
  app_test_set_window (window);
  gtk_window_close (w);   /* the help overlay belongs to the window: hidden, not destroyed */
  g_action_group_activate_action (G_ACTION_GROUP (gtk_window_get_application (GTK_WINDOW (window))), "about", NULL);
  app_test_run_for (300000);
  w = toplevel_of_type (ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (w);
  g_assert_cmpstr (adw_about_window_get_version (ADW_ABOUT_WINDOW (w)), ==, PACKAGE_VERSION);
  app_test_set_window ((IochartWindow *) w);
  app_test_screenshot ("app-about.png");
  app_test_set_window (window);
  gtk_window_destroy (w);

  /* export the view: the three backends */
  {
    static const struct { const char *ext; const char *magic; } kinds[] = {
      { "svg", "<?xml" }, { "png", "\x89PNG" }, { "pdf", "%PDF" },
    };

    for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
      {
        g_autofree char *name = g_strdup_printf ("export.%s", kinds[k].ext);
        g_autofree char *out = g_build_filename (shots, name, NULL);
        g_autofree char *data = NULL;
        gsize len = 0;
        g_autoptr(GError) error = NULL;

        g_assert_true (iochart_capture_page_export (page, out, &error));
        g_assert_no_error (error);
        g_assert_true (g_file_get_contents (out, &data, &len, NULL));
        g_assert_cmpuint (len, >, 1000);
        g_assert_true (memcmp (data, kinds[k].magic, strlen (kinds[k].magic)) == 0);
      }
  }

  /* the steal episode list: choosing the row selects the episode and zooms around it */
  {
    GtkWidget *panel = GTK_WIDGET (iochart_capture_page_get_panel (page));

    g_signal_emit_by_name (panel, "episode-activated", 0u);
    settle ();
    g_assert_true (iochart_timeline_view_get_selection (tl, &from, &to));
    iochart_timeline_view_get_range (tl, &from, &to);
    g_assert_cmpint (to - from, <, 200000000);   /* zoomed from 1.8 s to around a 290 µs episode */
    screenshot ("app-episode.png");
    action ("zoom-fit");
  }

  /* type-ahead: win.find puts the focus in the search entry; typing filters the lanes */
  {
    GtkWidget *focus;
    IochartLanes *lanes;

    action ("find");
    focus = gtk_root_get_focus (GTK_ROOT (window));
    g_assert_nonnull (focus);
    g_assert_nonnull (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY));
    gtk_editable_set_text (GTK_EDITABLE (gtk_widget_get_ancestor (focus, GTK_TYPE_SEARCH_ENTRY)), "jbd2");
    app_test_run_for (400000);   /* search-changed comes after a pause in the typing */
    settle ();
    lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
    g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 1);
    g_assert_nonnull (strstr (iochart_lanes_get_lane (lanes, 0)->label, "jbd2"));
    screenshot ("app-typed-filter.png");
    iochart_capture_page_set_search (page, "");
  }
}

/* The first widget of type t under root (itself included), depth first, or NULL; not in a popover
 * (a drop-down's holds a search entry of its own). */
static GtkWidget *
find_widget (GtkWidget *root, GType t)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, t))
    return root;
  if (GTK_IS_POPOVER (root))
    return NULL;
  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, t);
      if (found)
        return found;
    }
  return NULL;
}

/* Loading shows its page (progress bar, Cancel) and Cancel leaves "Loading Cancelled", no crash;
 * files dropped on the window open in a new tab, as the window's drop target takes them. */
static void
test_cancel_and_drop (void)
{
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  IochartCapturePage *page = iochart_window_open_files (window, &file, 1);
  AdwTabView *tabs = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));
  GtkStack *stack = GTK_STACK (find_widget (GTK_WIDGET (page), GTK_TYPE_STACK));
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  g_autoptr(GListModel) controllers = NULL;
  GtkDropTarget *target = NULL;
  guint n_pages;

  g_assert_true (iochart_capture_page_is_loading (page));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "loading");
  g_assert_nonnull (find_widget (gtk_stack_get_visible_child (stack), GTK_TYPE_PROGRESS_BAR));
  iochart_capture_page_cancel (page);
  while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (g_error_matches (iochart_capture_page_get_error (page), G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  screenshot ("app-load-cancelled.png");

  /* a drop of the file on the window */
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers) && !target; i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        target = GTK_DROP_TARGET (c);
    }
  g_assert_nonnull (target);
  n_pages = adw_tab_view_get_n_pages (tabs);
  {
    GValue value = G_VALUE_INIT;
    GSList list = { file, NULL };
    gboolean taken = FALSE;

    g_value_init (&value, GDK_TYPE_FILE_LIST);
    g_value_set_boxed (&value, &list);
    g_signal_emit_by_name (target, "drop", &value, 100.0, 100.0, &taken);
    g_value_unset (&value);
    g_assert_true (taken);
  }
  g_assert_cmpuint (adw_tab_view_get_n_pages (tabs), ==, n_pages + 1);
  page = iochart_window_get_current_page (window);
  while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (iochart_capture_page_is_ready (page));
  g_assert_cmpstr (iochart_capture_page_get_title (page), ==, "ionice-bfq.dat");
  settle ();
}

/* The search entry shows its whole placeholder (it was "Proces…" at 700 px). */
static void
assert_placeholder_shown (IochartCapturePage *page)
{
  GtkWidget *search = find_widget (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *text = find_widget (search, GTK_TYPE_TEXT);
  g_autoptr(PangoLayout) layout = NULL;
  int w;

  g_assert_nonnull (text);
  layout = gtk_widget_create_pango_layout (text, gtk_text_get_placeholder_text (GTK_TEXT (text)));
  pango_layout_get_pixel_size (layout, &w, NULL);
  g_test_message ("search entry text %d px for a %d px placeholder", gtk_widget_get_width (text), w);
  g_assert_cmpint (gtk_widget_get_width (text), >=, w);
}

/* The what-if page of the gallery: one run (bfq, the idle find made best-effort), its panel and,
 * scrolled to, its chart under the observed one. */
static void
gallery_whatif (IochartCapturePage *page, int width, gboolean dark)
{
  IochartWhatifPanel *whatif = iochart_capture_page_get_whatif (page);
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  const char *policies[] = { "bfq", NULL };
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  g_autofree char *name = g_strdup_printf ("app-gallery-whatif-%d-%s.png", width, dark ? "dark" : "light");
  g_autofree char *sim = g_strdup_printf ("app-gallery-whatif-%d-%s-simulated.png", width, dark ? "dark" : "light");
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (
                         gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW)));

  iochart_whatif_panel_set_choices (whatif, policies, FALSE, "observed", "15443=be", NULL);
  action ("whatif-run");
  while (iochart_whatif_panel_is_running (whatif) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (iochart_whatif_panel_get_n_runs (whatif), ==, 1);
  screenshot (name);
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  screenshot (sim);
  gtk_adjustment_set_value (adj, 0);
}

/* What a user sees of each capture kind, light and dark, in a narrow (700 px) and a wide (2500 px)
 * window, a range selected: screenshots to look at (app-gallery-*.png), the chart not clipped by
 * the panel beside it, the figures there. */
static void
test_gallery (void)
{
  static const struct { const char *sample, *name; gint64 from_ns, to_ns; } kinds[] = {
    { "ionice-bfq.dat", "dat", 500000000, 1200000000 },
    { "blktrace/bfq-idle-vs-be-dd", "blktrace", 270000000, 300000000 },   /* its requests: the last 30 ms */
    { "ftrace-ionice-loop.trace", "ftrace", 100000000, 400000000 },
    { "bootchart-ionice.tgz", "bootchart", G_GINT64_CONSTANT (1968870000000), G_GINT64_CONSTANT (1969490000000) },
  };
  static const int widths[] = { 700, 2500 };
  IochartWindow *main_window = window;
  AdwStyleManager *style = adw_style_manager_get_default ();

  for (guint dark = 0; dark < 2; dark++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
        {
          IochartWindow *win = iochart_window_new (IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (main_window))));
          g_autofree char *name = g_strdup_printf ("app-gallery-%s-%d-%s.png", kinds[k].name, widths[w],
                                                   dark ? "dark" : "light");
          IochartCapturePage *page;
          IochartTimelineView *tl;
          gint64 origin;

          adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
          gtk_window_set_default_size (GTK_WINDOW (win), widths[w], 900);
          gtk_window_present (GTK_WINDOW (win));
          window = win;
          app_test_set_window (win);
          page = open_sample (kinds[k].sample);
          g_assert_true (iochart_capture_page_is_ready (page));
          tl = iochart_capture_page_get_timeline (page);
          origin = iochart_timeline_view_get_origin_ns (tl);
          iochart_timeline_view_set_selection (tl, origin + kinds[k].from_ns, origin + kinds[k].to_ns);
          iochart_capture_page_update_figures (page);
          settle ();
          screenshot (name);
          if (widths[w] < 1000)
            {
              /* narrow, the panel under the chart: its lanes too, scrolled to */
              GtkScrolledWindow *sw = GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW));
              GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (sw);
              g_autofree char *lanes_name = g_strdup_printf ("app-gallery-%s-%d-%s-end.png", kinds[k].name, widths[w],
                                                             dark ? "dark" : "light");

              gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
              screenshot (lanes_name);
              gtk_adjustment_set_value (adj, 0);
            }
          {
            GtkPaned *paned = GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_PANED));
            GtkWidget *chart = gtk_paned_get_start_child (paned);

            /* as wide as asked (give or take the decorations' margins): nothing asks for more */
            g_assert_cmpint (abs (gtk_widget_get_width (GTK_WIDGET (win)) - widths[w]), <=, 12);
            /* beside the panel, or over it when narrow: never wider than its share */
            if (gtk_orientable_get_orientation (GTK_ORIENTABLE (paned)) == GTK_ORIENTATION_HORIZONTAL)
              g_assert_cmpint (gtk_widget_get_width (chart), <=, gtk_paned_get_position (paned));
            else
              g_assert_cmpint (gtk_widget_get_width (chart), <=, widths[w]);
          }
          if (g_str_equal (kinds[k].name, "dat"))
            gallery_whatif (page, widths[w], dark);
          if (g_str_equal (kinds[k].name, "bootchart"))
            g_assert_nonnull (iochart_range_panel_get_boot_range (iochart_capture_page_get_panel (page)));
          else
            {
              g_assert_nonnull (iochart_range_panel_get_summary (iochart_capture_page_get_panel (page)));
              assert_placeholder_shown (page);
            }
          gtk_window_destroy (GTK_WINDOW (win));
        }
  window = main_window;
  app_test_set_window (main_window);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
  settle ();
}

int
main (int argc, char **argv)
{
  const char *required[] = { "IOCHART_SOURCE_ROOT", "IOCHART", NULL };

  if (!app_test_init (&argc, &argv, required))
    return 77;
  window = app_test_window ();
  shots = app_test_shots ();
  source_root = g_getenv ("IOCHART_SOURCE_ROOT");
  settle ();
  screenshot ("app-empty.png");
  g_test_add_func ("/app/dat", test_dat);
  g_test_add_func ("/app/axis-once", test_axis_once);
  g_test_add_func ("/app/pinch", test_pinch);
#ifdef HAVE_XTST
  g_test_add_func ("/app/pointer", test_pointer);
#endif
  g_test_add_func ("/app/lanes", test_lanes);
  g_test_add_func ("/app/whatif", test_whatif);
  g_test_add_func ("/app/whatif-progress", test_whatif_progress);
  g_test_add_func ("/app/open-paths", test_open_paths);
  g_test_add_func ("/app/blktrace", test_blktrace);
  g_test_add_func ("/app/text", test_text);
  g_test_add_func ("/app/bootchart", test_bootchart);
  g_test_add_func ("/app/request-tooltip", test_request_tooltip);
  g_test_add_func ("/app/sector-zoom", test_sector_zoom);
#ifdef HAVE_XTST
  g_test_add_func ("/app/lane-click", test_lane_click);
#endif
  g_test_add_func ("/app/bad-file", test_bad_file);
  g_test_add_func ("/app/close-tab", test_close_tab);
  g_test_add_func ("/app/visible-rows", test_visible_rows);
  g_test_add_func ("/app/warped-frame", test_warped_frame);
  g_test_add_func ("/app/dark", test_dark);
  g_test_add_func ("/app/features", test_features);
  g_test_add_func ("/app/cancel-and-drop", test_cancel_and_drop);
  g_test_add_func ("/app/gallery", test_gallery);
  g_test_add_func ("/app/filtered-figures", test_filtered_figures);
  g_test_add_func ("/app/lane-selection", test_lane_selection);
  g_test_add_func ("/app/open-dialog", test_open_dialog);
  return g_test_run ();
}
