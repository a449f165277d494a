/* What a user does in the window under a display (Xvfb, GSK_RENDERER=cairo), through the app's own
 * handlers: the window size kept in GSettings (the build tree's schema, the memory backend) and the
 * main menu's Style section; the Open dialog; keys, the wheel and the tooltip through the X server
 * (XTest) into the timeline's controllers; the device and class drop-downs; Retry after Cancel. */
#include <glib/gstdio.h>
#include "app-test-util.h"
#include "iochart-capture-page.h"
#ifdef HAVE_XTST
#include "app-test-x11.h"
#endif

static IochartWindow *window;
static const char *source_root;

/* The chart laid out for what the view shows now, and drawn. */
static void
settle (void)
{
  IochartCapturePage *page = iochart_window_get_current_page (window);
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  while (page && iochart_capture_page_is_ready (page) &&
         iochart_timeline_view_is_drawing (iochart_capture_page_get_timeline (page)) &&
         g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  app_test_run_for (400000);
}

static void
wait_loaded (IochartCapturePage *page)
{
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (iochart_capture_page_is_loading (page) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (iochart_capture_page_is_loading (page));
  settle ();
}

static IochartCapturePage *
open_sample (const char *name)
{
  g_autofree char *path = g_build_filename (source_root, "samples", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  IochartCapturePage *page = iochart_window_open_files (window, &file, 1);

  wait_loaded (page);
  g_assert_true (iochart_capture_page_is_ready (page));
  return page;
}

static void
close_tabs (void)
{
  AdwTabPage *tab;
  AdwTabView *tabs;
  IochartCapturePage *page;

  while ((page = iochart_window_get_current_page (window)))
    {
      tabs = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));
      tab = adw_tab_view_get_selected_page (tabs);
      adw_tab_view_close_page (tabs, tab);
      app_test_run_for (100000);
    }
}

static void
default_size (IochartWindow *w, int *width, int *height)
{
  gtk_window_get_default_size (GTK_WINDOW (w), width, height);
}

/* The first widget of type t under w (w included), depth first. */
static GtkWidget *
find_widget (GtkWidget *w, GType t)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (w, t))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_widget (c, t);
      if (found)
        return found;
    }
  return NULL;
}

/* The header bar's menu button whose icon is icon. */
static GtkMenuButton *
menu_button (const char *icon)
{
  GtkWidget *header = find_widget (GTK_WIDGET (window), ADW_TYPE_HEADER_BAR);
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();

  g_ptr_array_add (todo, header);
  while (todo->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);
      if (GTK_IS_MENU_BUTTON (w) && g_strcmp0 (gtk_menu_button_get_icon_name (GTK_MENU_BUTTON (w)), icon) == 0)
        return GTK_MENU_BUTTON (w);
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (todo, c);
    }
  return NULL;
}

/* Style: the main menu's three items are win.style with a target; each sets the style key and the
 * app's colour scheme. */
static void
test_style (void)
{
  static const struct { const char *target; AdwColorScheme scheme; } styles[] = {
    { "dark", ADW_COLOR_SCHEME_FORCE_DARK },
    { "light", ADW_COLOR_SCHEME_FORCE_LIGHT },
    { "system", ADW_COLOR_SCHEME_DEFAULT },
  };
  g_autoptr(GSettings) settings = g_settings_new (IOCHART_APP_ID);
  AdwStyleManager *manager = adw_style_manager_get_default ();

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "style"));
  /* the menu as a user opens it */
  {
    GtkMenuButton *button = menu_button ("open-menu-symbolic");
    GtkPopover *popover;

    g_assert_nonnull (button);
    gtk_menu_button_popup (button);
    app_test_run_for (300000);
    popover = gtk_menu_button_get_popover (button);
    g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
    g_assert_cmpuint (app_test_screenshot_native (GTK_WIDGET (popover), "app-ui-main-menu.png"), >, 2);
    gtk_menu_button_popdown (button);
    app_test_run_for (100000);
  }
  for (guint i = 0; i < G_N_ELEMENTS (styles); i++)
    {
      g_autofree char *state = NULL;
      g_autoptr(GVariant) v = NULL;

      g_action_group_activate_action (G_ACTION_GROUP (window), "style", g_variant_new_string (styles[i].target));
      app_test_run_for (100000);
      g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, styles[i].scheme);
      state = g_settings_get_string (settings, "style");
      g_assert_cmpstr (state, ==, styles[i].target);
      /* the menu's radio items show the state */
      v = g_action_group_get_action_state (G_ACTION_GROUP (window), "style");
      g_assert_cmpstr (g_variant_get_string (v, NULL), ==, styles[i].target);
      if (i == 0)
        g_assert_true (adw_style_manager_get_dark (manager));
    }
  /* a window opened later takes the style kept */
  g_action_group_activate_action (G_ACTION_GROUP (window), "style", g_variant_new_string ("system"));
  g_settings_set_string (settings, "style", "dark");
  adw_style_manager_set_color_scheme (manager, ADW_COLOR_SCHEME_DEFAULT);
  {
    IochartWindow *w = iochart_window_new (IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (window))));

    gtk_window_destroy (GTK_WINDOW (w));
  }
  g_assert_cmpint (adw_style_manager_get_color_scheme (manager), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  app_test_run_for (100000);
  g_assert_cmpuint (app_test_screenshot ("app-ui-style-dark.png"), >, 2);
  g_action_group_activate_action (G_ACTION_GROUP (window), "style", g_variant_new_string ("system"));
  app_test_run_for (100000);
}

/* Size: a window opens at the size kept, and keeps it when another window is resized; the size it
 * has when it closes is kept for the next one. */
static void
test_size (void)
{
  g_autoptr(GSettings) settings = g_settings_new (IOCHART_APP_ID);
  IochartApplication *app = IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));
  IochartWindow *w;
  int main_w, main_h, width, height;

  default_size (window, &main_w, &main_h);
  g_settings_set_int (settings, "window-width", 1000);
  g_settings_set_int (settings, "window-height", 700);
  g_settings_set_boolean (settings, "window-maximized", FALSE);
  w = iochart_window_new (app);
  default_size (w, &width, &height);
  g_assert_cmpint (width, ==, 1000);
  g_assert_cmpint (height, ==, 700);
  gtk_window_present (GTK_WINDOW (w));
  app_test_run_for (200000);

  /* resized: the other window stays as it is, and nothing is written before it closes */
#ifdef HAVE_XTST
  if (GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      /* as a window manager does it: the X window resized under GTK */
      Display *x = gdk_x11_display_get_xdisplay (gdk_display_get_default ());
      XResizeWindow (x, gdk_x11_surface_get_xid (gtk_native_get_surface (GTK_NATIVE (w))), 900, 650);
      XFlush (x);
    }
  else
#endif
    gtk_window_set_default_size (GTK_WINDOW (w), 900, 650);
  app_test_run_for (300000);
  g_test_message ("resized to %d x %d", gtk_widget_get_width (GTK_WIDGET (w)), gtk_widget_get_height (GTK_WIDGET (w)));
  default_size (w, &width, &height);
  g_test_message ("its default size %d x %d", width, height);
  default_size (window, &width, &height);
  g_assert_cmpint (width, ==, main_w);
  g_assert_cmpint (height, ==, main_h);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);

  /* closed (as its close button does): the size is kept */
  gtk_window_close (GTK_WINDOW (w));
  app_test_run_for (200000);
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 900);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 650);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  /* the next window opens at it */
  w = iochart_window_new (app);
  default_size (w, &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 650);
  gtk_window_destroy (GTK_WINDOW (w));
  app_test_run_for (100000);
}

/* The search entry for processes under w (the what-if panel has one of its own). */
static GtkWidget *
find_process_search (GtkWidget *w)
{
  GtkWidget *text;

  if (GTK_IS_SEARCH_ENTRY (w) && (text = find_widget (w, GTK_TYPE_TEXT)) &&
      g_str_has_prefix (gtk_text_get_placeholder_text (GTK_TEXT (text)) ?: "", "Process"))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_process_search (c);
      if (found)
        return found;
    }
  return NULL;
}

/* The filters' row above the chart at 1280 px (the panel beside the chart) holds the search's
 * whole placeholder: the range in view, which the ruler shows too, goes below 1400 px (both were
 * cut at 1280); at 1500 px it shows. */
static void
test_toolbar_fits (void)
{
  static const int widths[] = { 1280, 1500 };
  IochartWindow *main_window = window;

  for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
    {
      IochartWindow *w = iochart_window_new (IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (main_window))));
      g_autofree char *shot = g_strdup_printf ("app-ui-toolbar-%d.png", widths[k]);
      IochartCapturePage *page;
      GtkWidget *search, *text, *range = NULL;
      g_autoptr(PangoLayout) layout = NULL;
      int pw;

      gtk_window_set_default_size (GTK_WINDOW (w), widths[k], 800);
      gtk_window_present (GTK_WINDOW (w));
      window = w;
      app_test_set_window (w);
      page = open_sample ("ionice-bfq.dat");
      app_test_run_for (300000);
      search = find_process_search (GTK_WIDGET (page));
      g_assert_nonnull (search);
      text = find_widget (search, GTK_TYPE_TEXT);
      layout = gtk_widget_create_pango_layout (text, gtk_text_get_placeholder_text (GTK_TEXT (text)));
      pango_layout_get_pixel_size (layout, &pw, NULL);
      /* the range label: the one in the search's row that reads a range */
      for (GtkWidget *c = gtk_widget_get_first_child (gtk_widget_get_parent (search)); c; c = gtk_widget_get_next_sibling (c))
        for (GtkWidget *l = c; l; l = GTK_IS_LABEL (l) ? NULL : gtk_widget_get_first_child (l))
          if (GTK_IS_LABEL (l) && strstr (gtk_label_get_text (GTK_LABEL (l)), " – "))
            range = l;
      g_test_message ("%d px: search text %d px for a %d px placeholder, range %s", widths[k],
                      gtk_widget_get_width (text), pw, range && gtk_widget_get_visible (range) ? "shown" : "hidden");
      app_test_screenshot (shot);
      g_assert_cmpint (gtk_widget_get_width (text), >=, pw);
      g_assert_nonnull (range);
      g_assert_cmpint (gtk_widget_get_visible (range), ==, widths[k] >= 1400);
      if (gtk_widget_get_visible (range))
        g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (range))));
      gtk_window_destroy (GTK_WINDOW (w));
      app_test_run_for (100000);
    }
  window = main_window;
  app_test_set_window (main_window);
}

/* The GtkDropDown of page whose tooltip is tip. */
static GtkDropDown *
dropdown (IochartCapturePage *page, const char *tip)
{
  g_autoptr(GPtrArray) todo = g_ptr_array_new ();

  g_ptr_array_add (todo, page);
  while (todo->len > 0)
    {
      GtkWidget *w = g_ptr_array_steal_index (todo, todo->len - 1);
      if (GTK_IS_DROP_DOWN (w) && g_strcmp0 (gtk_widget_get_tooltip_text (w), tip) == 0)
        return GTK_DROP_DOWN (w);
      for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
        g_ptr_array_add (todo, c);
    }
  g_assert_not_reached ();
}

/* The first visible toplevel of type t other than the test's window, or NULL. */
static GtkWindow *
toplevel_of_type (GType t)
{
  GListModel *tops = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (tops); i++)
    {
      g_autoptr(GObject) w = g_list_model_get_item (tops, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (w, t) && gtk_widget_get_visible (GTK_WIDGET (w)))
        return GTK_WINDOW (w);
    }
  return NULL;
}

/* Open (Ctrl+O, the header's Open, the empty page's Open…): GTK 4.8's GtkFileChooserNative, a
 * GtkFileChooserDialog where no portal is; a capture chosen there and accepted opens in a tab. */
static void
test_open_dialog (void)
{
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-mq-deadline.dat", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWindow *dialog = NULL;
  IochartCapturePage *page;
  g_autoptr(GError) error = NULL;

  g_assert_null (iochart_window_get_current_page (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "open", NULL);
  for (int i = 0; i < 100 && dialog == NULL; i++)
    {
      app_test_run_for (50000);
      dialog = toplevel_of_type (GTK_TYPE_FILE_CHOOSER_DIALOG);
    }
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_transient_for (dialog) == GTK_WINDOW (window));
  g_assert_true (gtk_file_chooser_get_select_multiple (GTK_FILE_CHOOSER (dialog)));
  g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)), ==, GTK_FILE_CHOOSER_ACTION_OPEN);
  app_test_run_for (300000);
  g_assert_cmpuint (app_test_screenshot_native (GTK_WIDGET (dialog), "app-ui-open-dialog.png"), >, 2);
  /* the user picks the file and presses Open */
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (dialog), file, &error));
  g_assert_no_error (error);
  app_test_wait_chooser_file (GTK_FILE_CHOOSER (dialog), file);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
  app_test_run_for (200000);
  page = iochart_window_get_current_page (window);
  g_assert_nonnull (page);
  wait_loaded (page);
  g_assert_true (iochart_capture_page_is_ready (page));
  g_assert_cmpstr (iochart_capture_page_get_title (page), ==, "ionice-mq-deadline.dat");
  g_assert_null (toplevel_of_type (GTK_TYPE_FILE_CHOOSER_DIALOG));
  close_tabs ();
}

/* The start page's list of recent captures under w: the list box whose rows carry a uri (an
 * AdwPreferencesGroup holds a list box of its own), or NULL when it lists none. */
static GtkListBox *
recent_list (GtkWidget *w)
{
  if (GTK_IS_LIST_BOX (w))
    {
      GtkWidget *r = gtk_widget_get_first_child (w);
      return r && g_object_get_data (G_OBJECT (r), "uri") ? GTK_LIST_BOX (w) : NULL;
    }
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkListBox *found = recent_list (c);
      if (found)
        return found;
    }
  return NULL;
}

static guint
recent_rows (IochartWindow *w)
{
  GtkListBox *list = recent_list (GTK_WIDGET (w));
  guint n = 0;

  for (GtkWidget *r = list ? gtk_widget_get_first_child (GTK_WIDGET (list)) : NULL; r; r = gtk_widget_get_next_sibling (r))
    n++;
  return n;
}

/* Recent files: the start page shown again once the last tab closes lists what was opened
 * meanwhile (it kept the list it had when the window opened), as many as the recent-limit key
 * says, newest first; a row activated opens its capture. */
static void
test_recent (void)
{
  g_autoptr(GSettings) settings = g_settings_new (IOCHART_APP_ID);
  IochartApplication *app = IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));
  const char *names[] = { "ionice-bfq.dat", "blk-ionice-loop.txt" };
  IochartWindow *w;
  GtkListBox *list;
  IochartCapturePage *page;

  g_assert_null (iochart_window_get_current_page (window));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      open_sample (names[i]);
      app_test_run_for (1100000);   /* a second apart: the newer one is told by its time */
    }
  close_tabs ();
  g_assert_cmpuint (recent_rows (window), >=, 2);
  g_assert_cmpuint (app_test_screenshot ("app-ui-recent.png"), >, 2);

  g_settings_set_int (settings, "recent-limit", 1);
  w = iochart_window_new (app);
  g_assert_cmpuint (recent_rows (w), ==, 1);
  list = recent_list (GTK_WIDGET (w));
  {
    GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, 0);
    g_autofree char *base = g_path_get_basename (g_object_get_data (G_OBJECT (row), "uri"));

    g_assert_cmpstr (base, ==, names[1]);
    /* activated: the capture opens in the window */
    gtk_window_present (GTK_WINDOW (w));
    app_test_run_for (100000);
    g_signal_emit_by_name (list, "row-activated", row);
    page = iochart_window_get_current_page (w);
    g_assert_nonnull (page);
    g_assert_cmpstr (iochart_capture_page_get_title (page), ==, names[1]);
  }
  gtk_window_destroy (GTK_WINDOW (w));
  g_settings_set_int (settings, "recent-limit", 0);
  w = iochart_window_new (app);
  g_assert_cmpuint (recent_rows (w), ==, 0);
  gtk_window_destroy (GTK_WINDOW (w));
  g_settings_reset (settings, "recent-limit");
  app_test_run_for (100000);
}

/* A label under w whose text starts with prefix, or NULL. */
static GtkWidget *
find_label_with (GtkWidget *w, const char *prefix)
{
  if (GTK_IS_LABEL (w) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (w)), prefix))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_label_with (c, prefix);
      if (found)
        return found;
    }
  return NULL;
}

/* The text of the chart's header line that starts with prefix in dl. */
static const char *
header_text (IochartDisplayList *dl, const char *prefix)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && g_str_has_prefix (item->text, prefix))
        return item->text;
    }
  return NULL;
}

/* Export (Ctrl+E, the header's Export): with no capture a toast says why no dialog opens; the save
 * dialog offers the capture's name as SVG; the
 * file accepted there is the view as it is on screen, zoomed (its header's range), in the format
 * its name asks for; a toast says so. */
static void
test_export (void)
{
  IochartCapturePage *page;
  IochartTimelineView *tl;
  g_autofree char *dir = g_build_filename (app_test_shots (), "export-dialog", NULL);
  const char *names[] = { "view.svg", "view.png" };
  const char *range;

  /* with no capture: no dialog, a toast says why (before, nothing happened) */
  close_tabs ();
  g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
  app_test_run_for (300000);
  g_assert_null (toplevel_of_type (GTK_TYPE_FILE_CHOOSER_DIALOG));
  g_assert_nonnull (find_label_with (GTK_WIDGET (window), "Open a capture first"));
  page = open_sample ("ionice-bfq.dat");
  tl = iochart_capture_page_get_timeline (page);

  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  g_action_group_activate_action (G_ACTION_GROUP (window), "pan-right", NULL);
  settle ();
  range = header_text (iochart_timeline_view_get_display_list (tl), "device ");
  g_assert_nonnull (range);
  g_test_message ("on screen: %s", range);
  g_assert_null (strstr (range, " 0 s – "));   /* zoomed: not the whole capture */
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autoptr(GFile) folder = g_file_new_for_path (dir);
      g_autofree char *data = NULL, *name = NULL;
      gsize len = 0;
      GtkWindow *dialog = NULL;

      g_unlink (path);
      g_action_group_activate_action (G_ACTION_GROUP (window), "export", NULL);
      for (int k = 0; k < 100 && dialog == NULL; k++)
        {
          app_test_run_for (50000);
          dialog = toplevel_of_type (GTK_TYPE_FILE_CHOOSER_DIALOG);
        }
      g_assert_nonnull (dialog);
      g_assert_cmpint (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)), ==, GTK_FILE_CHOOSER_ACTION_SAVE);
      name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (dialog));
      g_assert_cmpstr (name, ==, "ionice-bfq.svg");   /* not ionice-bfq.dat.svg */
      if (i == 0)
        {
          app_test_run_for (300000);
          g_assert_cmpuint (app_test_screenshot_native (GTK_WIDGET (dialog), "app-ui-export-dialog.png"), >, 2);
        }
      g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL));
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), names[i]);
      app_test_run_for (200000);
      gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_ACCEPT);
      app_test_run_for (300000);
      g_assert_null (toplevel_of_type (GTK_TYPE_FILE_CHOOSER_DIALOG));
      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", names[i], len);
      if (i == 0)
        {
          g_assert_true (g_str_has_prefix (data, "<?xml"));
          g_assert_nonnull (strstr (data, range));   /* the range on screen */
        }
      else
        g_assert_true (len > 1000 && memcmp (data, "\x89PNG", 4) == 0);
    }
  close_tabs ();
}

/* Files given on the command line (GApplication's open, which `iochart-gtk FILE...` calls): one
 * tab in the window, the files of one run together, loaded. */
static void
test_command_line (void)
{
  g_autofree char *path = g_build_filename (source_root, "samples", "blktrace", "bfq-idle-vs-be-dd", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (window)));
  IochartCapturePage *page;
  AdwTabView *tabs;

  g_assert_null (iochart_window_get_current_page (window));
  g_application_open (app, &file, 1, "");
  page = iochart_window_get_current_page (window);
  g_assert_nonnull (page);
  tabs = ADW_TAB_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (page), ADW_TYPE_TAB_VIEW));
  g_assert_cmpuint (adw_tab_view_get_n_pages (tabs), ==, 1);
  wait_loaded (page);
  g_assert_true (iochart_capture_page_is_ready (page));
  g_assert_cmpstr (iochart_capture_page_get_title (page), ==, "bfq-idle-vs-be-dd");
  close_tabs ();
}

/* Retry: a cancelled load offers to load again, and does; a reader's error does not offer it. */
static void
test_retry (void)
{
  g_autofree char *path = g_build_filename (source_root, "samples", "ionice-bfq.dat", NULL);
  g_autofree char *bad = g_build_filename (g_get_user_data_dir (), "bad.dat", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) bad_file = g_file_new_for_path (bad);
  IochartCapturePage *page = iochart_window_open_files (window, &file, 1);
  GtkStack *stack = GTK_STACK (find_widget (GTK_WIDGET (page), GTK_TYPE_STACK));
  AdwStatusPage *status;
  GtkWidget *retry;

  iochart_capture_page_cancel (page);
  wait_loaded (page);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  status = ADW_STATUS_PAGE (gtk_stack_get_visible_child (stack));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Loading Cancelled");
  retry = find_widget (GTK_WIDGET (status), GTK_TYPE_BUTTON);
  g_assert_nonnull (retry);
  g_assert_true (gtk_widget_get_mapped (retry));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (retry)), ==, "_Retry");
  g_assert_cmpuint (app_test_screenshot ("app-ui-load-cancelled.png"), >, 2);
  /* pressed: the same capture loads */
  g_signal_emit_by_name (retry, "clicked");
  g_assert_true (iochart_capture_page_is_loading (page));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "loading");
  wait_loaded (page);
  g_assert_true (iochart_capture_page_is_ready (page));
  g_assert_null (iochart_capture_page_get_error (page));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "chart");
  g_assert_cmpstr (iochart_capture_page_get_title (page), ==, "ionice-bfq.dat");
  close_tabs ();

  /* a file no reader takes: its error, no Retry */
  g_assert_true (g_file_set_contents (bad, "not a capture\n", -1, NULL));
  page = iochart_window_open_files (window, &bad_file, 1);
  wait_loaded (page);
  stack = GTK_STACK (find_widget (GTK_WIDGET (page), GTK_TYPE_STACK));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "error");
  status = ADW_STATUS_PAGE (gtk_stack_get_visible_child (stack));
  g_assert_cmpstr (adw_status_page_get_title (status), ==, "Cannot Open This Capture");
  g_assert_false (gtk_widget_get_visible (find_widget (GTK_WIDGET (status), GTK_TYPE_BUTTON)));
  close_tabs ();
}

/* The device and class drop-downs: the device chosen is charted, and a class keeps the lanes that
 * hold a process of that class. */
static void
test_filters (void)
{
  IochartCapturePage *page = open_sample ("hdd-bfq-idle-vs-normal-5s.report.txt.xz");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  GtkDropDown *device = dropdown (page, "Device charted");
  GtkDropDown *klass = dropdown (page, "Keep the lanes of processes of this class");
  IochartCapture *capture = iochart_view_get_capture (iochart_timeline_view_get_view (tl));
  IochartLanes *lanes;
  guint n_all, n_idle = 0;

  g_assert_cmpuint (iochart_capture_get_n_devices (capture), ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (device)), ==, 3);
  for (guint d = 0; d < 2; d++)
    {
      gtk_drop_down_set_selected (device, d + 1);
      settle ();
      g_assert_cmpint (iochart_view_get_device (iochart_timeline_view_get_view (tl)), ==, (int) d);
    }
  /* the device with the idle-class reader */
  gtk_drop_down_set_selected (device, 0);
  settle ();
  lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
  n_all = iochart_lanes_get_n_lanes (lanes);
  for (guint i = 0; i < n_all; i++)
    if (iochart_lanes_get_lane (lanes, i)->class_mask & (1u << IOCHART_CLASS_IDLE))
      n_idle++;
  g_assert_cmpuint (n_idle, >, 0);
  g_assert_cmpuint (n_idle, <, n_all);
  gtk_drop_down_set_selected (klass, 3);   /* All classes, RT, BE, Idle, … */
  settle ();
  lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
  g_test_message ("class idle: %u of %u lanes", iochart_lanes_get_n_lanes (lanes), n_all);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), >, 0);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), <, n_all);
  for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (lanes, i);
      g_assert_true (lane->others || (lane->class_mask & (1u << IOCHART_CLASS_IDLE)));
    }
  g_assert_cmpuint (app_test_screenshot ("app-ui-class-idle.png"), >, 40);
  gtk_drop_down_set_selected (klass, 0);
  settle ();
  g_assert_cmpuint (iochart_lanes_get_n_lanes (iochart_view_get_lanes (iochart_timeline_view_get_view (tl))), ==, n_all);
  close_tabs ();
}

#ifdef HAVE_XTST
static void
span (IochartTimelineView *tl, gint64 *from, gint64 *to)
{
  settle ();
  iochart_timeline_view_get_range (tl, from, to);
}

static void
key (KeySym sym)
{
  x_key (sym, TRUE);
  x_key (sym, FALSE);
}

/* Keys through the X server into the timeline's key handler: + and - zoom by 1.5 around the
 * middle, the arrows pan by a fifth, 0 and Home fit; Ctrl+Return (the window's accelerator) zooms
 * to the selection, Escape clears it. */
static void
test_keys (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  gint64 f0, t0, f, t;

  /* the keyboard goes where the pointer is (no window manager) */
  x_motion (GTK_WIDGET (tl), 300, 150);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (tl)));
  span (tl, &f0, &t0);
  key (XK_plus);
  span (tl, &f, &t);
  g_assert_cmpint (llabs ((t - f) - (gint64) ((t0 - f0) / 1.5)), <, 1000);
  g_assert_cmpint (llabs ((f + t) / 2 - (f0 + t0) / 2), <, 1000);
  key (XK_plus);
  span (tl, &f0, &t0);
  g_assert_cmpint (llabs ((t0 - f0) - (gint64) ((t - f) / 1.5)), <, 1000);
  key (XK_Right);
  span (tl, &f, &t);
  g_assert_cmpint (t - f, ==, t0 - f0);
  g_assert_cmpint (llabs ((f - f0) - (gint64) (0.2 * (t0 - f0))), <, 1000);
  key (XK_Left);
  span (tl, &f, &t);
  g_assert_cmpint (llabs (f - f0), <, 1000);
  key (XK_minus);
  span (tl, &f, &t);
  g_assert_cmpint (llabs ((t - f) - (gint64) ((t0 - f0) * 1.5)), <, 1000);
  key (XK_0);
  span (tl, &f, &t);
  iochart_timeline_view_get_full_range (tl, &f0, &t0);
  g_assert_cmpint (f, ==, f0);
  g_assert_cmpint (t, ==, t0);
  key (XK_plus);
  key (XK_Right);
  span (tl, &f, &t);
  g_assert_cmpint (f, !=, f0);
  key (XK_Home);
  span (tl, &f, &t);
  g_assert_cmpint (f, ==, f0);
  g_assert_cmpint (t, ==, t0);
  /* Ctrl+Return zooms to the selection; Escape clears it */
  iochart_timeline_view_set_selection (tl, f0 + (t0 - f0) / 4, f0 + (t0 - f0) / 2);
  x_key (XK_Control_L, TRUE);
  key (XK_Return);
  x_key (XK_Control_L, FALSE);
  span (tl, &f, &t);
  g_assert_cmpint (f, ==, f0 + (t0 - f0) / 4);
  g_assert_cmpint (t, ==, f0 + (t0 - f0) / 2);
  g_assert_true (iochart_timeline_view_get_selection (tl, &f, &t));
  key (XK_Escape);
  g_assert_false (iochart_timeline_view_get_selection (tl, &f, &t));
  close_tabs ();
}

/* Type-ahead: letters typed over the chart (keys it does not take) go to the process search,
 * which takes the focus and filters the lanes; + still zooms; Escape there clears the search and
 * gives the keys back to the chart. */
static void
test_type_ahead (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  GtkWidget *search = find_process_search (GTK_WIDGET (page));
  IochartLanes *lanes;
  guint n_all;
  gint64 f0, t0, f, t;

  x_motion (GTK_WIDGET (tl), 300, 150);
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (tl)));
  n_all = iochart_lanes_get_n_lanes (iochart_view_get_lanes (iochart_timeline_view_get_view (tl)));
  span (tl, &f0, &t0);
  key (XK_plus);
  span (tl, &f, &t);
  g_assert_cmpint (t - f, <, t0 - f0);
  key (XK_0);   /* fit: a digit the chart takes */
  span (tl, &f, &t);
  g_assert_cmpint (t - f, ==, t0 - f0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "");
  key (XK_j);
  key (XK_b);
  key (XK_d);
  app_test_run_for (400000);   /* search-changed comes after a pause in the typing */
  settle ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "jbd");
  g_assert_nonnull (gtk_widget_get_ancestor (gtk_root_get_focus (GTK_ROOT (window)), GTK_TYPE_SEARCH_ENTRY));
  lanes = iochart_view_get_lanes (iochart_timeline_view_get_view (tl));
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 1);
  g_assert_nonnull (strstr (iochart_lanes_get_lane (lanes, 0)->label, "jbd2"));
  g_assert_cmpuint (app_test_screenshot ("app-ui-type-ahead.png"), >, 40);
  key (XK_Escape);
  settle ();
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "");
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (tl)));
  g_assert_cmpuint (iochart_lanes_get_n_lanes (iochart_view_get_lanes (iochart_timeline_view_get_view (tl))), ==, n_all);
  close_tabs ();
}

/* The steal episode list: a click on an episode's row (XTest) selects the episode on the chart and
 * zooms around it, the side panel then giving the selection's steal. */
static void
test_episode_click (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartSteal *steal = iochart_view_get_steal (iochart_timeline_view_get_view (tl));
  IochartStealEpisode ep_copy;
  const IochartStealEpisode *ep;
  GtkWidget *row;
  gint64 from, to, f, t;

  g_assert_cmpuint (iochart_steal_get_n_episodes (steal), ==, 1);
  ep_copy = *iochart_steal_get_episode (steal, 0);   /* the view's steal goes with its next layout */
  ep = &ep_copy;
  /* the panel's one list box: the episodes, the first row the first */
  row = GTK_WIDGET (gtk_list_box_get_row_at_index (GTK_LIST_BOX (find_widget (GTK_WIDGET (iochart_capture_page_get_panel (page)),
                                                                             GTK_TYPE_LIST_BOX)), 0));
  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_mapped (row));
  g_assert_false (iochart_timeline_view_get_selection (tl, &from, &to));
  x_motion (row, gtk_widget_get_width (row) / 2.0, gtk_widget_get_height (row) / 2.0);
  x_button (1, TRUE);
  x_button (1, FALSE);
  settle ();
  g_assert_true (iochart_timeline_view_get_selection (tl, &from, &to));
  g_assert_cmpint (from, ==, ep->start_ns);
  g_assert_cmpint (to, ==, ep->end_ns);
  iochart_timeline_view_get_range (tl, &f, &t);
  g_test_message ("episode %" G_GINT64_FORMAT " ns long: view %" G_GINT64_FORMAT " ns", ep->end_ns - ep->start_ns, t - f);
  g_assert_cmpint (f, <, ep->start_ns);
  g_assert_cmpint (t, >, ep->end_ns);
  /* zoomed from 1.8 s to the episode and its surroundings: it is a tenth of the view at least
   * (1.4% with 20 ms either side) */
  g_assert_cmpfloat ((double) (ep->end_ns - ep->start_ns) / (double) (t - f), >=, 0.1);
  g_assert_nonnull (strstr (iochart_range_panel_get_steal_text (iochart_capture_page_get_panel (page)), "1 episode"));
  g_assert_cmpuint (app_test_screenshot ("app-ui-episode-clicked.png"), >, 40);
  close_tabs ();
}

/* The wheel without a modifier: up and down scroll the lanes (the time stays), left and right
 * (a tilted wheel or a touchpad's sideways scroll) pan by a tenth, as Shift with up and down does;
 * with no lanes to scroll to, up and down pan. */
static void
test_wheel (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  GtkWidget *sw = gtk_widget_get_ancestor (GTK_WIDGET (tl), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (sw));
  gint64 f0, t0, f, t;
  double v0;

  /* a window lower than the lanes: they scroll */
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 600);
  settle ();
  g_action_group_activate_action (G_ACTION_GROUP (window), "zoom-in", NULL);
  span (tl, &f0, &t0);
  x_motion (GTK_WIDGET (tl), 400, 150);
  v0 = gtk_adjustment_get_value (adj);
  x_button (5, TRUE);
  x_button (5, FALSE);
  span (tl, &f, &t);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), >, gtk_adjustment_get_page_size (adj));
  g_test_message ("wheel down: lanes scrolled %.0f -> %.0f px", v0, gtk_adjustment_get_value (adj));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, v0);
  {
    /* the time ruler stays put over the scrolled chart (it is the page's one drawing area) */
    GtkWidget *ruler = find_widget (GTK_WIDGET (page), GTK_TYPE_DRAWING_AREA);
    graphene_rect_t r, chart;

    g_assert_nonnull (ruler);
    g_assert_false (gtk_widget_is_ancestor (ruler, sw));
    g_assert_true (gtk_widget_get_mapped (ruler));
    g_assert_true (gtk_widget_compute_bounds (ruler, GTK_WIDGET (window), &r));
    g_assert_true (gtk_widget_compute_bounds (sw, GTK_WIDGET (window), &chart));
    g_assert_cmpfloat (r.origin.y + r.size.height, <=, chart.origin.y + 1);   /* over it, not in it */
  }
  g_assert_cmpint (f, ==, f0);
  g_assert_cmpint (t, ==, t0);
  x_button (4, TRUE);
  x_button (4, FALSE);
  settle ();
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, v0);

  /* sideways: pans, the lanes stay */
  x_button (7, TRUE);
  x_button (7, FALSE);
  span (tl, &f, &t);
  g_test_message ("wheel right: from %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " ns", f0, f);
  g_assert_cmpint (t - f, ==, t0 - f0);
  g_assert_cmpint (llabs ((f - f0) - (gint64) (0.1 * (t0 - f0))), <, 1000);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, v0);
  x_button (6, TRUE);
  x_button (6, FALSE);
  span (tl, &f, &t);
  g_assert_cmpint (llabs (f - f0), <, 1000);
  /* Shift with the wheel down pans later */
  x_key (XK_Shift_L, TRUE);
  x_button (5, TRUE);
  x_button (5, FALSE);
  x_key (XK_Shift_L, FALSE);
  span (tl, &f, &t);
  g_assert_cmpint (llabs ((f - f0) - (gint64) (0.1 * (t0 - f0))), <, 1000);
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==, v0);

  /* lanes that all fit (one lane kept): nothing to scroll, so the plain wheel pans */
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
  iochart_capture_page_set_search (page, "jbd2");
  span (tl, &f0, &t0);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), <=, gtk_adjustment_get_page_size (adj) + 1);
  x_motion (GTK_WIDGET (tl), 400, 150);
  x_button (4, TRUE);
  x_button (4, FALSE);
  span (tl, &f, &t);
  g_test_message ("wheel up, nothing to scroll: from %" G_GINT64_FORMAT " -> %" G_GINT64_FORMAT " ns", f0, f);
  g_assert_cmpint (t - f, ==, t0 - f0);
  g_assert_cmpint (llabs ((f0 - f) - (gint64) (0.1 * (t0 - f0))), <, 1000);
  iochart_capture_page_set_search (page, "");
  close_tabs ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1500, 950);
  settle ();
}

/* Hovering a steal episode's shading shows what stole, for how long and who waited. */
static void
test_steal_tooltip (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartSteal *steal = iochart_view_get_steal (iochart_timeline_view_get_view (tl));
  const IochartStealEpisode *ep;
  IochartDisplayList *dl;
  const IochartDlItem *item = NULL, *hit;
  const char *text = NULL;
  GtkWidget *tip = NULL;
  double x, y;

  /* the sample's one episode (290 µs stolen in 2 ms), a pixel wide at full range: zoomed to it */
  g_assert_cmpuint (iochart_steal_get_n_episodes (steal), ==, 1);
  ep = iochart_steal_get_episode (steal, 0);
  iochart_timeline_view_set_range (tl, ep->start_ns - (ep->end_ns - ep->start_ns),
                                   ep->end_ns + (ep->end_ns - ep->start_ns));
  settle ();
  steal = iochart_view_get_steal (iochart_timeline_view_get_view (tl));
  dl = iochart_timeline_view_get_display_list (tl);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl) && item == NULL; i++)
    {
      const IochartDlItem *it = iochart_display_list_get_item (dl, i);
      if (it->meta && g_str_has_prefix (it->meta, "episode:") && it->w >= 3)
        item = it;
    }
  g_assert_nonnull (item);
  x = item->x + item->w / 2;
  y = item->y + item->h / 2;
  hit = iochart_display_list_hit (dl, x, y);
  g_assert_true (hit == item);
  g_test_message ("episode shading %.0f,%.0f %.0fx%.0f: %s", item->x, item->y, item->w, item->h, item->tooltip);
  text = x_hover_tooltip (GTK_WIDGET (tl), x, y, &tip);
  g_assert_nonnull (text);
  g_test_message ("tooltip: %s", text);
  g_assert_cmpstr (text, ==, item->tooltip);
  g_assert_true (g_str_has_prefix (text, "idle steal "));
  g_assert_nonnull (strstr (text, " stolen while foreground I/O was outstanding for "));
  g_assert_nonnull (strstr (text, "1 episode; most taken by idle "));
  /* the idle process named is the episode's */
  {
    guint e = atoi (item->meta + 8);
    const IochartStealEpisode *ep = iochart_steal_get_episode (steal, e);
    const IochartProcess *p = iochart_capture_get_process (iochart_view_get_capture (iochart_timeline_view_get_view (tl)),
                                                           ep->idle_process);
    g_assert_nonnull (strstr (text, p->comm));
  }
  app_test_run_for (200000);
  g_assert_cmpuint (app_test_screenshot_native (tip, "app-ui-steal-tooltip.png"), >, 2);
  x_motion (GTK_WIDGET (tl), 5, 5);
  close_tabs ();
}

/* Hovering a strip's area (a bin): the tooltip says what the strip shows, then the pixel's figures
 * from its bins (the time, the bytes read per class with the rate, completions, in flight,
 * latency), as the core describes that column. */
static void
test_bin_tooltip (void)
{
  IochartCapturePage *page = open_sample ("ionice-bfq.dat");
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartDisplayList *dl = iochart_timeline_view_get_display_list (tl);
  const IochartDlItem *title = NULL, *hit = NULL;
  g_autofree char *want = NULL, *figures = NULL;
  GtkWidget *tip = NULL;
  double ax, aw, x = 0, y = 0;
  gint64 from, to;
  const char *text;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl) && !title; i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && g_strcmp0 (item->text, "Throughput") == 0)
        title = item;
    }
  g_assert_nonnull (title);
  g_assert_true (iochart_display_list_get_time_axis (dl, &ax, &aw, &from, &to));
  /* a point over the read throughput's area, from the right (the sample's busiest part) */
  for (double px = ax + aw - 3; px > ax && !hit; px -= 2)
    for (double py = title->y; py < title->y + 80 && !hit; py += 2)
      {
        const IochartDlItem *h = iochart_display_list_hit (dl, px, py);
        if (h && h->kind == IOCHART_DL_POLYGON && h->tooltip && g_str_has_prefix (h->tooltip, "read throughput"))
          hit = h, x = px, y = py;
      }
  g_assert_nonnull (hit);
  figures = iochart_view_describe_column (iochart_timeline_view_get_view (tl),
                                          from + (gint64) ((floor (x) - ax) / aw * (double) (to - from)),
                                          iochart_timeline_view_get_origin_ns (tl));
  g_assert_nonnull (figures);
  want = g_strdup_printf ("%s\n%s", hit->tooltip, figures);
  text = x_hover_tooltip (GTK_WIDGET (tl), x, y, &tip);
  g_assert_nonnull (text);
  g_test_message ("tooltip at %.0f,%.0f:\n%s", x, y, text);
  g_assert_cmpstr (text, ==, want);
  g_assert_nonnull (strstr (text, "\nat "));
  g_assert_nonnull (strstr (text, "\nread "));
  g_assert_nonnull (strstr (text, "/s): "));
  app_test_run_for (200000);
  g_assert_cmpuint (app_test_screenshot_native (tip, "app-ui-bin-tooltip.png"), >, 2);
  x_motion (GTK_WIDGET (tl), 5, 5);
  close_tabs ();
}
#endif

int
main (int argc, char **argv)
{
  GSettingsSchemaSource *source;
  g_autoptr(GSettingsSchema) schema = NULL;

  const char *required[] = { "IOCHART_SOURCE_ROOT", NULL };

  if (!app_test_init (&argc, &argv, required))
    return 77;
  source = g_settings_schema_source_get_default ();
  schema = source ? g_settings_schema_source_lookup (source, IOCHART_APP_ID, TRUE) : NULL;
  /* meson test gives the build tree's compiled schema and the memory backend */
  g_assert_nonnull (schema);
  g_assert_cmpstr (g_getenv ("GSETTINGS_BACKEND"), ==, "memory");
  window = app_test_window ();
  source_root = g_getenv ("IOCHART_SOURCE_ROOT");
  g_test_add_func ("/app-ui/style", test_style);
  g_test_add_func ("/app-ui/size", test_size);
  g_test_add_func ("/app-ui/toolbar-fits", test_toolbar_fits);
  g_test_add_func ("/app-ui/open-dialog", test_open_dialog);
  g_test_add_func ("/app-ui/command-line", test_command_line);
  g_test_add_func ("/app-ui/retry", test_retry);
  g_test_add_func ("/app-ui/recent", test_recent);
  g_test_add_func ("/app-ui/export", test_export);
  g_test_add_func ("/app-ui/filters", test_filters);
#ifdef HAVE_XTST
  if (GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_test_add_func ("/app-ui/keys", test_keys);
      g_test_add_func ("/app-ui/wheel", test_wheel);
      g_test_add_func ("/app-ui/type-ahead", test_type_ahead);
      g_test_add_func ("/app-ui/episode-click", test_episode_click);
      g_test_add_func ("/app-ui/steal-tooltip", test_steal_tooltip);
      g_test_add_func ("/app-ui/bin-tooltip", test_bin_tooltip);
    }
#endif
  return g_test_run ();
}
