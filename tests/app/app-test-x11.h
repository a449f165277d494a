/* app-test-x11.h: real pointer and keyboard input through the X server (XTest), so that the
 * widgets' own controllers see events as from a mouse and a keyboard: the drag gesture's button,
 * the modifiers, the key handler. Built when XTest, GTK's X11 backend and Xlib are there
 * (HAVE_XTST); each call then runs the main loop 40 ms. */
#pragma once

#include <gdk/x11/gdkx.h>
#include <X11/extensions/XTest.h>
#include "app-test-util.h"

Display *xdisplay (void);
/* The pointer to (x, y) of w. */
void     x_motion (GtkWidget *w,
                   double     x,
                   double     y);
void     x_button (guint      button,
                   gboolean   press);
void     x_key    (KeySym     sym,
                   gboolean   press);
/* The pointer moved onto (x, y) of w (from a pixel to its left, as a hand moves): the text of
 * the tooltip that shows there within 3 s, or NULL; *tip (may be NULL) its popup. */
const char *x_hover_tooltip (GtkWidget  *w,
                             double      x,
                             double      y,
                             GtkWidget **tip);
