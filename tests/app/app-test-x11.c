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

