/* iochart-live-page.h: one tab recording live: the capture page's timeline follows the newest
 * events and its figures update as they arrive; pause (the view, not the recording), stop, save
 * as .dat; why recording cannot start (not root, no tracefs) when it cannot */
#pragma once

#include <adwaita.h>
#include "iochart-capture-page.h"
#include "record/iochart-live.h"
#include "record/iochart-live-capture.h"

G_BEGIN_DECLS

typedef struct {
  const char         *out;         /* written on stop, or NULL */
  gint64              keep_ns;     /* the window kept; 0: 10 minutes */
  const char * const *command;     /* run while recording, which stops when it exits; or NULL */
  const guint32      *devices;     /* only these devices (MAJ << 20 | MIN); NULL: all */
  guint               n_devices;
  const char * const *class_rules; /* --class rules "COMM_OR_PID=CLASS[:LEVEL]", or NULL */
  IochartLiveCapture *fed;         /* or NULL: the page takes this live capture, fed elsewhere (a
                                    * test's fake source), instead of recording the kernel's */
} IochartLivePageOptions;

#define IOCHART_TYPE_LIVE_PAGE (iochart_live_page_get_type ())
G_DECLARE_FINAL_TYPE (IochartLivePage, iochart_live_page, IOCHART, LIVE_PAGE, GtkBox)

IochartLivePage    *iochart_live_page_new              (void);
/* Keeps the tab's title and spinner up to date. */
void                iochart_live_page_set_tab          (IochartLivePage              *self,
                                                        AdwTabPage                   *tab);
/* Starts recording; FALSE when it cannot, and the page says why. */
gboolean            iochart_live_page_start            (IochartLivePage              *self,
                                                        const IochartLivePageOptions *options);
void                iochart_live_page_stop             (IochartLivePage              *self);
void                iochart_live_page_set_paused       (IochartLivePage              *self,
                                                        gboolean                      paused);
/* After stop: the recording as a trace-cmd .dat (the recorder's one writer). */
gboolean            iochart_live_page_save             (IochartLivePage              *self,
                                                        const char                   *path,
                                                        GError                      **error);
gboolean            iochart_live_page_is_recording     (IochartLivePage              *self);
/* Why recording could not start or failed, or NULL. */
const GError       *iochart_live_page_get_error        (IochartLivePage              *self);
IochartCapturePage *iochart_live_page_get_capture_page (IochartLivePage              *self);
/* How often the view took the newest events, for tests. */
guint               iochart_live_page_get_n_updates    (IochartLivePage              *self);
/* The UI thread's CPU time spent in those updates (taking the events, the chart's and the
 * figures' part on this thread), for tests. */
gint64              iochart_live_page_get_update_cpu_ns (IochartLivePage             *self);
gint64              iochart_live_page_get_update_wall_us (IochartLivePage            *self);
/* The figures of the status line (the last second's rates by class, the stolen share), for tests. */
const IochartLiveStatus *iochart_live_page_get_status  (IochartLivePage              *self);
/* Frames at which an update was due but waited for a layout still reading its copy. */
guint               iochart_live_page_get_n_waits      (IochartLivePage              *self);

G_END_DECLS
