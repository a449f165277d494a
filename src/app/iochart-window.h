/* iochart-window.h: the main window: a tab per opened capture, an empty state with recent files */
#pragma once

#include <adwaita.h>
#include "iochart-application.h"
#include "iochart-capture-page.h"
#include "iochart-live-page.h"

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
/* The Open or Open Folder dialog while it is shown, else NULL. */
GtkFileChooserNative *iochart_window_get_chooser  (IochartWindow      *self);
/* The capture page of the current tab (a live recording's too). */
IochartCapturePage *iochart_window_get_current_page (IochartWindow    *self);
/* A new tab recording live (options may be NULL). */
IochartLivePage    *iochart_window_record         (IochartWindow      *self,
                                                   const IochartLivePageOptions *options);

G_END_DECLS
