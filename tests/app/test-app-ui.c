/* The window's own behaviour under a display (Xvfb, GSK_RENDERER=cairo), with the app's GSettings
 * schema from the build tree and the memory backend: the window size kept in GSettings and the
 * main menu's Style section. */
#include "app-test-util.h"
#ifdef HAVE_XTST
#include <gdk/x11/gdkx.h>
#endif

static IochartWindow *window;

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

int
main (int argc, char **argv)
{
  GSettingsSchemaSource *source;
  g_autoptr(GSettingsSchema) schema = NULL;

  if (!app_test_init (&argc, &argv, NULL))
    return 77;
  source = g_settings_schema_source_get_default ();
  schema = source ? g_settings_schema_source_lookup (source, IOCHART_APP_ID, TRUE) : NULL;
  /* meson test gives the build tree's compiled schema and the memory backend */
  g_assert_nonnull (schema);
  g_assert_cmpstr (g_getenv ("GSETTINGS_BACKEND"), ==, "memory");
  window = app_test_window ();
  g_test_add_func ("/app-ui/style", test_style);
  g_test_add_func ("/app-ui/size", test_size);
  return g_test_run ();
}
