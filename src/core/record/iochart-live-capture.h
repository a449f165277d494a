/* iochart-live-capture.h: a capture that grows while it is recorded
 *
 * Events go in from one thread (the recording worker decoding the ring-buffer pages of the
 * running kernel, or a test's fake source) through the same builder as a file's, in time order.
 * The thread that shows the capture calls iochart_live_capture_update() whenever it likes (10
 * times a second and more): it brings a published IochartCapture up to date and returns it.
 * There are two published copies, returned in turn: the one returned last is read as any
 * finished capture (the same accessors, analyses and renderer, from any thread: a chart laid
 * out in a worker) while the next update fills the other, so that reading one never holds an
 * update back. An update costs what arrived since that copy's last update plus the requests
 * still in flight: requests that can no longer change are appended once, in the builder's order,
 * and their per-process tallies kept; only the newest few are copied again each time. Not
 * updating freezes the view (a paused one) while recording goes on. Each copy carries btt's
 * figures (iochart_capture_get_btt_device) and the classes of --class rules as a file's does.
 *
 * With keep_ns, requests and task states older than that before the newest event are dropped,
 * and so are the processes that exited before it with no request left (nor a descendant that
 * stays), renumbering the others: memory stays bounded on long recordings with many short-lived
 * processes. btt's figures still cover the whole recording.
 */
#pragma once

#include "iochart-capture.h"
#include "iochart-recorder.h"

G_BEGIN_DECLS

typedef struct _IochartLiveCapture IochartLiveCapture;

/* keep_ns: 0 keeps all. */
IochartLiveCapture *iochart_live_capture_new     (const char          *name,
                                                  gint64               keep_ns);
void                iochart_live_capture_free    (IochartLiveCapture  *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartLiveCapture, iochart_live_capture_free)

/* A user class rule, as iochart_load's (before the first event). */
void                iochart_live_capture_add_rule (IochartLiveCapture  *self,
                                                  const IochartClassRule *rule);

/* One of the two published copies, brought up to date with every event fed so far, owned by
 * self: the other one from the last call's. Nothing may read the returned copy when update
 * is called again two calls later: see iochart_live_capture_peek_next(). */
IochartCapture     *iochart_live_capture_update  (IochartLiveCapture  *self);
/* The copy the next update fills (and that nobody may be reading then). */
IochartCapture     *iochart_live_capture_peek_next (IochartLiveCapture *self);

/* ---- feeding from a recorder's pages (the worker thread) ---- */

/* Reads the running kernel's event formats; FALSE with an error when tracefs cannot give them. */
gboolean            iochart_live_capture_use_kernel_formats (IochartLiveCapture *self,
                                                  GError             **error);
/* An IochartRecorderPageFunc (user_data: the live capture): keeps a copy of the page. */
void                iochart_live_capture_add_page (guint               cpu,
                                                  const guint8        *page,
                                                  gsize                len,
                                                  gpointer             user_data);
/* Applies the events of the pages added so far whose time is before until_ns, in time order
 * across CPUs (G_MAXINT64: all of them, at the end). Pages come per CPU and late: the worker
 * passes the trace clock read before its last drain, less a margin. */
void                iochart_live_capture_feed    (IochartLiveCapture  *self,
                                                  gint64               until_ns);
/* Events the pages said the kernel lost. */
void                iochart_live_capture_set_lost_events (IochartLiveCapture *self,
                                                  guint64              n);

/* ---- a recording worker: drains a recorder into the capture in a thread of its own ---- */

/* Starts tracing and a thread that drains the recorder every interval_ms and feeds the
 * capture. The recorder must outlive the recording. */
void                iochart_live_capture_start   (IochartLiveCapture  *self,
                                                  IochartRecorder     *recorder,
                                                  guint                interval_ms);
/* Stops tracing, takes the last pages and joins the thread; the capture then holds everything
 * recorded. FALSE with the first error the worker met. */
gboolean            iochart_live_capture_stop    (IochartLiveCapture  *self,
                                                  GError             **error);
gboolean            iochart_live_capture_is_running (IochartLiveCapture *self);

/* Processes the window dropped so far (the updating thread's). */
guint64             iochart_live_capture_get_n_dropped_processes (IochartLiveCapture *self);

/* Bytes held: the builder's requests still matching, the pages waiting and the published
 * capture. */
gsize               iochart_live_capture_get_memory (IochartLiveCapture *self);

G_END_DECLS
