/* iochart-window.c: tabs, opening (dialog, drag and drop, recent files), export and view actions */
#include <glib/gi18n.h>
#include <string.h>
#include "iochart-window.h"

struct _IochartWindow {
  AdwApplicationWindow  parent_instance;
  AdwToastOverlay      *toasts;
  GtkStack             *stack;
  AdwTabView           *tabs;
  GtkListBox           *recent_list;
  GtkWidget            *recent_group;
  GtkFileChooserNative *chooser;
  GSettings            *settings;
};

G_DEFINE_FINAL_TYPE (IochartWindow, iochart_window, ADW_TYPE_APPLICATION_WINDOW)

IochartCapturePage *
iochart_window_get_current_page (IochartWindow *self)
{
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tabs);
  GtkWidget *child = page ? adw_tab_page_get_child (page) : NULL;

  if (child != NULL && IOCHART_IS_LIVE_PAGE (child))
    return iochart_live_page_get_capture_page (IOCHART_LIVE_PAGE (child));
  return child ? IOCHART_CAPTURE_PAGE (child) : NULL;
}

static void fill_recent (IochartWindow *self);

static void
update_stack (IochartWindow *self)
{
  gboolean empty = adw_tab_view_get_n_pages (self->tabs) == 0;

  /* back on the start page after the last tab closed: the captures opened meanwhile are listed */
  if (empty && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "empty") != 0)
    fill_recent (self);
  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "tabs");
}

static void page_title_changed (IochartCapturePage *page, GParamSpec *pspec, AdwTabPage *tab);

IochartCapturePage *
iochart_window_open_files (IochartWindow *self, GFile **files, int n_files)
{
  IochartCapturePage *page;
  AdwTabPage *tab;

  g_return_val_if_fail (n_files > 0, NULL);
  page = iochart_capture_page_new ();
  tab = adw_tab_view_append (self->tabs, GTK_WIDGET (page));
  g_signal_connect_object (page, "notify::title", G_CALLBACK (page_title_changed), tab, 0);
  page_title_changed (page, NULL, tab);
  adw_tab_view_set_selected_page (self->tabs, tab);
  update_stack (self);
  iochart_capture_page_load (page, files, n_files);
  return page;
}

IochartLivePage *
iochart_window_record (IochartWindow *self, const IochartLivePageOptions *options)
{
  IochartLivePage *page = iochart_live_page_new ();
  AdwTabPage *tab = adw_tab_view_append (self->tabs, GTK_WIDGET (page));

  iochart_live_page_set_tab (page, tab);
  adw_tab_view_set_selected_page (self->tabs, tab);
  update_stack (self);
  iochart_live_page_start (page, options);
  return page;
}

static void
record_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  iochart_window_record (IOCHART_WINDOW (user_data), NULL);
}

static void
page_title_changed (IochartCapturePage *page, GParamSpec *pspec, AdwTabPage *tab)
{
  adw_tab_page_set_title (tab, iochart_capture_page_get_title (page));
  adw_tab_page_set_loading (tab, iochart_capture_page_is_loading (page));
}

/* ---- opening ---- */

static gboolean
is_blktrace_name (const char *name)
{
  const char *dot = g_strrstr (name, ".blktrace.");

  return dot && dot[10] && strspn (dot + 10, "0123456789") == strlen (dot + 10);
}

/* A folder's blktrace files and .dat files (those of the same run, lending classes and names). */
static void
scan_folder (GFile *folder, gboolean *has_blktrace, GPtrArray *dats)
{
  g_autoptr(GFileEnumerator) e = g_file_enumerate_children (folder, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  GFileInfo *info;

  while (e && (info = g_file_enumerator_next_file (e, NULL, NULL)))
    {
      const char *name = g_file_info_get_name (info);

      if (is_blktrace_name (name))
        *has_blktrace = TRUE;
      else if (g_str_has_suffix (name, ".dat"))
        g_ptr_array_add (dats, g_file_get_child (folder, name));
      g_object_unref (info);
    }
}

IochartCapturePage *
iochart_window_open_group (IochartWindow *self, GFile **files, int n_files)
{
  g_autoptr(GPtrArray) run = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) dats = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  IochartCapturePage *page = NULL;

  /* blktrace files or folders with the .dat files chosen with them (or lying beside the blktrace
   * files in a folder) are one run: the .dat lends the classes blktrace lacks */
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *name = g_file_get_basename (files[i]);
      gboolean blktrace = FALSE;

      if (g_file_query_file_type (files[i], G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        {
          g_autoptr(GPtrArray) inside = g_ptr_array_new_with_free_func (g_object_unref);

          scan_folder (files[i], &blktrace, inside);
          if (blktrace)
            {
              g_ptr_array_add (run, g_object_ref (files[i]));
              g_ptr_array_extend_and_steal (dats, g_steal_pointer (&inside));
              continue;
            }
        }
      else if (is_blktrace_name (name))
        {
          /* one file of each device stands for all its CPUs' files */
          g_autofree char *path = g_file_get_path (files[i]);
          char *dev = g_strndup (path, g_strrstr (path, ".blktrace.") - path);

          if (g_hash_table_add (devices, dev))
            g_ptr_array_add (run, g_object_ref (files[i]));
          continue;
        }
      else if (g_str_has_suffix (name, ".dat"))
        {
          g_ptr_array_add (dats, g_object_ref (files[i]));
          continue;
        }
      page = iochart_window_open_files (self, &files[i], 1);
    }
  if (run->len > 0)
    {
      g_ptr_array_extend_and_steal (run, g_steal_pointer (&dats));
      return iochart_window_open_files (self, (GFile **) run->pdata, run->len);
    }
  /* no blktrace: each .dat is a capture of its own */
  for (guint i = 0; dats && i < dats->len; i++)
    page = iochart_window_open_files (self, (GFile **) &dats->pdata[i], 1);
  return page;
}

static void
chooser_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  IochartWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GPtrArray) chosen = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < g_list_model_get_n_items (files); i++)
        g_ptr_array_add (chosen, g_list_model_get_item (files, i));
      iochart_window_open_group (self, (GFile **) chosen->pdata, chosen->len);
    }
  g_clear_object (&self->chooser);
}

static void
open_folder_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartWindow *self = user_data;

  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Open a blktrace or Bootchart Folder"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  /* several folders at once: the blktrace folders of one run's devices */
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* win.open-paths(as): what the Open dialogs do with the paths chosen, for scripts and tests. */
static void
open_paths_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartWindow *self = user_data;
  g_autofree const char **paths = g_variant_get_strv (param, NULL);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i]; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  if (files->len > 0)
    iochart_window_open_group (self, (GFile **) files->pdata, files->len);
}

/* The capture kinds the Open dialog offers, by MIME type (ours, from data/, once installed) and by
 * name (before, and where shared-mime-info calls a .dat or a .txt something else). */
static const struct {
  const char *name;
  const char *mime_types[4];
  const char *patterns[6];
} capture_kinds[] = {
  { N_("trace-cmd captures (.dat)"), { "application/x-trace-cmd-dat" }, { "*.dat" } },
  { N_("blktrace per-CPU files"), { "application/x-blktrace" }, { "*.blktrace.[0-9]*" } },
  { N_("Bootchart archives (.tgz)"), { "application/x-bootchart" }, { "*.tgz", "*.tar.gz" } },
  { N_("Trace text (ftrace, trace-cmd report, blkparse)"), { "text/plain" },
    { "*.txt", "*.trace", "*.txt.gz", "*.txt.xz", "*.txt.zst" } },
};

static GtkFileFilter *
kind_filter (GtkFileFilter *filter, guint kind)
{
  for (guint m = 0; capture_kinds[kind].mime_types[m]; m++)
    gtk_file_filter_add_mime_type (filter, capture_kinds[kind].mime_types[m]);
  for (guint p = 0; capture_kinds[kind].patterns[p]; p++)
    gtk_file_filter_add_pattern (filter, capture_kinds[kind].patterns[p]);
  return filter;
}

/* Filters for every capture kind together, each alone, and every file; a folder (blktrace's
 * output, an unpacked bootchart) is the Open Folder dialog's, which the title says. */
static void
add_capture_filters (GtkFileChooser *chooser)
{
  GtkFileFilter *all = gtk_file_filter_new ();
  GtkFileFilter *any = gtk_file_filter_new ();

  gtk_file_filter_set_name (all, _("All captures"));
  for (guint k = 0; k < G_N_ELEMENTS (capture_kinds); k++)
    kind_filter (all, k);
  gtk_file_chooser_add_filter (chooser, all);
  for (guint k = 0; k < G_N_ELEMENTS (capture_kinds); k++)
    {
      GtkFileFilter *filter = kind_filter (gtk_file_filter_new (), k);

      gtk_file_filter_set_name (filter, _(capture_kinds[k].name));
      gtk_file_chooser_add_filter (chooser, filter);
      g_object_unref (filter);
    }
  gtk_file_filter_set_name (any, _("All files"));
  gtk_file_filter_add_pattern (any, "*");
  gtk_file_chooser_add_filter (chooser, any);
  gtk_file_chooser_set_filter (chooser, all);
  g_object_unref (all);
  g_object_unref (any);
}

static void
open_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartWindow *self = user_data;

  /* GtkFileDialog arrives in GTK 4.10; Debian 12 has 4.8: the portal's dialog, else GTK's own */
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Open Captures (a folder: Open Folder, Ctrl+Shift+O)"),
                                               GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);
  add_capture_filters (GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

GtkFileChooserNative *
iochart_window_get_chooser (IochartWindow *self)
{
  return self->chooser;
}

static gboolean
drop_files (GtkDropTarget *target, const GValue *value, double x, double y, gpointer user_data)
{
  IochartWindow *self = user_data;
  GSList *list = g_value_get_boxed (value);
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  for (GSList *l = list; l; l = l->next)
    g_ptr_array_add (files, l->data);
  if (files->len > 0)
    iochart_window_open_group (self, (GFile **) files->pdata, files->len);
  return list != NULL;
}

static void
recent_activated (GtkListBox *box, GtkListBoxRow *row, gpointer user_data)
{
  IochartWindow *self = user_data;
  const char *uri = g_object_get_data (G_OBJECT (row), "uri");
  g_autoptr(GFile) file = g_file_new_for_uri (uri);

  iochart_window_open_files (self, &file, 1);
}

static int
newest_first (GtkRecentInfo *a, GtkRecentInfo *b)
{
  /* the times are the infos' own */
  return g_date_time_compare (gtk_recent_info_get_modified (b), gtk_recent_info_get_modified (a));
}

/* Captures opened before, newest first, shown on the empty page: as many as the recent-limit key says. */
static void
fill_recent (IochartWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint shown = 0, limit = self->settings ? (guint) g_settings_get_int (self->settings, "recent-limit") : 8;
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))))
    gtk_list_box_remove (self->recent_list, row);
  items = g_list_sort (items, (GCompareFunc) newest_first);
  for (GList *l = items; l && shown < limit; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autofree char *path = NULL;

      if (!gtk_recent_info_has_application (info, g_get_application_name ()) || !gtk_recent_info_exists (info))
        continue;
      path = g_filename_from_uri (gtk_recent_info_get_uri (info), NULL, NULL);
      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), gtk_recent_info_get_display_name (info));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), path ? path : gtk_recent_info_get_uri (info));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (gtk_recent_info_get_uri (info)), g_free);
      gtk_list_box_append (self->recent_list, row);
      shown++;
    }
  gtk_widget_set_visible (self->recent_group, shown > 0);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

/* ---- actions on the current tab ---- */

static void
page_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartCapturePage *page = iochart_window_get_current_page (IOCHART_WINDOW (user_data));

  if (page)
    iochart_capture_page_activate (page, g_action_get_name (G_ACTION (action)));
}

static void
copy_lane_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartWindow *self = user_data;
  IochartCapturePage *page = iochart_window_get_current_page (self);
  g_autofree char *text = page ? iochart_capture_page_copy_lane (page) : NULL;

  adw_toast_overlay_add_toast (self->toasts, adw_toast_new (text ? _("Copied the lane's figures")
                                                                 : _("Click a lane first: its figures are copied")));
}

static void
close_tab_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartWindow *self = user_data;
  AdwTabPage *page = adw_tab_view_get_selected_page (self->tabs);

  if (page)
    adw_tab_view_close_page (self->tabs, page);
}

static void
export_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  IochartWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      IochartCapturePage *page = iochart_window_get_current_page (self);
      g_autoptr(GError) error = NULL;

      if (page && !iochart_capture_page_export (page, path, &error))
        adw_toast_overlay_add_toast (self->toasts, adw_toast_new (error->message));
      else if (page)
        {
          g_autofree char *name = g_file_get_basename (file);
          g_autofree char *text = g_strdup_printf (_("Exported “%s”"), name);
          adw_toast_overlay_add_toast (self->toasts, adw_toast_new (text));
        }
    }
  g_clear_object (&self->chooser);
}

/* The name the export offers: the capture's less its compression and format suffixes, as SVG
 * ("ionice-bfq.svg", not "ionice-bfq.dat.svg"). */
static char *
export_name (const char *title)
{
  static const char *suffixes[] = { ".gz", ".xz", ".zst", ".dat", ".txt", ".trace", ".tgz", ".tar" };
  g_autofree char *base = g_strdup (title);
  gboolean cut = TRUE;

  while (cut)
    {
      cut = FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
        if (g_str_has_suffix (base, suffixes[i]) && strlen (base) > strlen (suffixes[i]))
          {
            base[strlen (base) - strlen (suffixes[i])] = '\0';
            cut = TRUE;
          }
    }
  return g_strconcat (base, ".svg", NULL);
}

static void
export_activated (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  IochartWindow *self = user_data;
  IochartCapturePage *page = iochart_window_get_current_page (self);
  g_autofree char *name = NULL;

  if (page == NULL || !iochart_capture_page_is_ready (page))
    {
      /* the header's Export is there before any capture: say why nothing opens */
      adw_toast_overlay_add_toast (self->toasts, adw_toast_new (page ? _("The capture is not loaded yet: nothing to export")
                                                                     : _("Open a capture first: its view is what is exported")));
      return;
    }
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (_("Export the View (.svg, .png or .pdf)"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  name = export_name (iochart_capture_page_get_title (page));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
tabs_changed (IochartWindow *self)
{
  update_stack (self);
}

static void
iochart_window_dispose (GObject *object)
{
  IochartWindow *self = IOCHART_WINDOW (object);

  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), IOCHART_TYPE_WINDOW);
  G_OBJECT_CLASS (iochart_window_parent_class)->dispose (object);
}

static gboolean close_request (GtkWindow *window);

static void
iochart_window_class_init (IochartWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iochart_window_dispose;
  GTK_WINDOW_CLASS (klass)->close_request = close_request;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/iochart/Iochart/iochart-window.ui");
  gtk_widget_class_bind_template_child (widget_class, IochartWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, IochartWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, IochartWindow, tabs);
  gtk_widget_class_bind_template_child (widget_class, IochartWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, IochartWindow, recent_group);
  gtk_widget_class_bind_template_callback (widget_class, recent_activated);
  gtk_widget_class_bind_template_callback (widget_class, tabs_changed);
}

static void
style_changed (GSettings *settings, const char *key, gpointer user_data)
{
  static const AdwColorScheme schemes[] = { ADW_COLOR_SCHEME_DEFAULT, ADW_COLOR_SCHEME_FORCE_LIGHT,
                                            ADW_COLOR_SCHEME_FORCE_DARK };
  int style = g_settings_get_enum (settings, "style");

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), schemes[CLAMP (style, 0, 2)]);
}

/* The size and style are read when a window opens and the size written when it closes: bound
 * both ways, every window of the app would take the size of the last one resized. */
static void
bind_settings (IochartWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, IOCHART_APP_ID, TRUE) : NULL;
  g_autoptr(GAction) style = NULL;

  if (schema == NULL)
    return;
  self->settings = g_settings_new (IOCHART_APP_ID);
  gtk_window_set_default_size (GTK_WINDOW (self), g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  /* win.style: the main menu's System, Light and Dark */
  style = g_settings_create_action (self->settings, "style");
  g_action_map_add_action (G_ACTION_MAP (self), style);
  g_signal_connect_object (self->settings, "changed::style", G_CALLBACK (style_changed), self, 0);
  style_changed (self->settings, "style", self);
}

static gboolean
close_request (GtkWindow *window)
{
  IochartWindow *self = IOCHART_WINDOW (window);
  int width, height;

  if (self->settings)
    {
      /* the size it has when not maximized */
      gtk_window_get_default_size (window, &width, &height);
      g_settings_delay (self->settings);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      g_settings_apply (self->settings);
    }
  return GTK_WINDOW_CLASS (iochart_window_parent_class)->close_request (window);
}

static void
iochart_window_init (IochartWindow *self)
{
  static const GActionEntry actions[] = {
    { "open", open_activated },
    { "open-folder", open_folder_activated },
    { "open-paths", open_paths_activated, "as" },
    { "copy-lane", copy_lane_activated },
    { "sort-first-io", page_action },
    { "sort-bytes", page_action },
    { "sort-stolen", page_action },
    { "expand-lane", page_action },
    { "whatif-run", page_action },
    { "whatif-cancel", page_action },
    { "record", record_activated },
    { "export", export_activated },
    { "close-tab", close_tab_activated },
    { "zoom-in", page_action },
    { "zoom-out", page_action },
    { "zoom-fit", page_action },
    { "zoom-selection", page_action },
    { "pan-left", page_action },
    { "pan-right", page_action },
    { "find", page_action },
  };
  GtkDropTarget *drop;
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_files), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  gtk_css_provider_load_from_resource (css, "/org/iochart/Iochart/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  bind_settings (self);
  fill_recent (self);
  update_stack (self);
}

IochartWindow *
iochart_window_new (IochartApplication *app)
{
  return g_object_new (IOCHART_TYPE_WINDOW, "application", app, NULL);
}
