/* iochart-window.h: the main window: a tab per opened capture, an empty state with recent files */
#pragma once

#include <adwaita.h>
#include "iochart-application.h"
#include "iochart-capture-page.h"

G_BEGIN_DECLS

#define IOCHART_TYPE_WINDOW (iochart_window_get_type ())
G_DECLARE_FINAL_TYPE (IochartWindow, iochart_window, IOCHART, WINDOW, AdwApplicationWindow)

IochartWindow      *iochart_window_new            (IochartApplication *app);
/* Files of one run, loaded together as one capture into a new tab. */
IochartCapturePage *iochart_window_open_files     (IochartWindow      *self,
                                                   GFile             **files,
                                                   int                 n_files);
/* Files and folders chosen together, as the Open dialogs and drops open them: blktrace files or
 * folders with the .dat files chosen with them (or inside such a folder) as one run in one tab,
 * anything else a tab each. Returns the last tab opened, or NULL. */
IochartCapturePage *iochart_window_open_group     (IochartWindow      *self,
                                                   GFile             **files,
                                                   int                 n_files);
IochartCapturePage *iochart_window_get_current_page (IochartWindow    *self);

G_END_DECLS
