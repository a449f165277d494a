/* app-test-x11.c: real pointer and keyboard input through the X server (XTest) for the GUI tests */
#include "app-test-x11.h"

Display *
xdisplay (void)
{
  return gdk_x11_display_get_xdisplay (gdk_display_get_default ());
}

void
x_motion (GtkWidget *w, double x, double y)
{
  GtkNative *native = gtk_widget_get_native (w);
  double nx, ny, sx, sy;
  int rx, ry;
  Window child;

  g_assert_true (gtk_widget_translate_coordinates (w, GTK_WIDGET (native), x, y, &nx, &ny));
  gtk_native_get_surface_transform (native, &sx, &sy);
  XTranslateCoordinates (xdisplay (), gdk_x11_surface_get_xid (gtk_native_get_surface (native)),
                         DefaultRootWindow (xdisplay ()), (int) (nx + sx), (int) (ny + sy), &rx, &ry, &child);
  XTestFakeMotionEvent (xdisplay (), -1, rx, ry, CurrentTime);
  XFlush (xdisplay ());
  app_test_run_for (40000);
}

void
x_button (guint button, gboolean press)
{
  XTestFakeButtonEvent (xdisplay (), button, press, CurrentTime);
  XFlush (xdisplay ());
  app_test_run_for (40000);
}

void
x_key (KeySym sym, gboolean press)
{
  XTestFakeKeyEvent (xdisplay (), XKeysymToKeycode (xdisplay (), sym), press, CurrentTime);
  XFlush (xdisplay ());
  app_test_run_for (40000);
}


/* The tooltip popup shown now over w's window, or NULL. */
static GtkWidget *
tooltip_window (GtkWidget *w)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_native (w));

  for (GtkWidget *c = gtk_widget_get_first_child (root); c; c = gtk_widget_get_next_sibling (c))
    if (g_str_equal (G_OBJECT_TYPE_NAME (c), "GtkTooltipWindow") && gtk_widget_get_mapped (c))
      return c;
  return NULL;
}

/* The first label under w, depth first. */
static GtkWidget *
first_label (GtkWidget *w)
{
  if (GTK_IS_LABEL (w))
    return w;
  for (GtkWidget *c = gtk_widget_get_first_child (w); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = first_label (c);
      if (found)
        return found;
    }
  return NULL;
}

const char *
x_hover_tooltip (GtkWidget *w, double x, double y, GtkWidget **tip)
{
  GtkWidget *popup = NULL, *label;

  x_motion (w, x - 1, y);
  x_motion (w, x, y);
  for (int i = 0; i < 60 && popup == NULL; i++)
    {
      app_test_run_for (50000);
      popup = tooltip_window (w);
    }
  if (tip)
    *tip = popup;
  label = popup ? first_label (popup) : NULL;
  return label ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}
