/* app-test-util.h: what the GUI tests under a display share: the window they drive, pumping the
 * main loop, screenshots of the window as PNG. */
#pragma once

#include <adwaita.h>
#include "iochart-application.h"
#include "iochart-window.h"

G_BEGIN_DECLS

/* g_test_init, GTK and libadwaita, the application and a 1500×950 window shown; the folder for
 * screenshots from IOCHART_APP_SHOTS. FALSE (print the TAP skip line and exit 77) without a
 * display or without the variables named in required (NULL-terminated, may be NULL). */
gboolean       app_test_init       (int          *argc,
                                    char       ***argv,
                                    const char  **required);
IochartWindow *app_test_window     (void);
/* The window the helpers look at from now on (a test's own, of another size). */
void           app_test_set_window (IochartWindow *window);
const char    *app_test_shots      (void);

/* Runs the main loop for us microseconds, sleeping 5 ms between idle rounds. */
void           app_test_run_for    (gint64        us);
void           app_test_wait_chooser_file (GtkFileChooser *chooser,
                                           GFile          *want);

/* The window as the user sees it, written to the shots folder as name; returns how many colours a
 * sample of its pixels holds (a blank window has one or two). */
guint          app_test_screenshot (const char   *name);
/* The same of another toplevel or popover (a GtkNative). */
guint          app_test_screenshot_native (GtkWidget *native,
                                           const char *name);

G_END_DECLS
