/* iochart-live.h: figures of a recording while it runs
 *
 * The recorder hands every ring-buffer page to iochart_live_add_page() as it moves it to the
 * file; the pages are decoded at once (libtraceevent's kbuffer, the event formats of the running
 * kernel) and each event costs O(1): issued bytes per class, the requests on each device, the
 * idle-steal share integrated as the steal analysis defines it (idle requests in flight take
 * n_idle / (n_idle + n_fg) of the time foreground I/O is outstanding), and idle bytes per
 * process. Memory is bounded: a request is held only while it is on the device, and the
 * figures are kept per second for the last keep_s seconds. These are the live status only; the
 * exact figures come from the file read back by the builder.
 */
#pragma once

#include "iochart-types.h"

G_BEGIN_DECLS

typedef struct _IochartLive IochartLive;

typedef struct {
  gint64  elapsed_ns;                          /* of trace time, first event to last */
  guint64 events;                              /* decoded by iochart, all so far */
  guint64 block_events;
  double  events_per_s;                        /* over the last status interval */
  double  bytes_per_s[IOCHART_N_CLASSES];      /* issued, over the last status interval */
  double  requests_per_s[IOCHART_N_CLASSES];
  double  stolen_pct;                          /* over the window (keep_s) */
  char    top_idle[64];                        /* "cat[24829]", "" when no idle I/O */
  guint64 top_idle_bytes;                      /* its idle-class bytes in the window */
  guint64 missed;                              /* events the pages say the kernel lost */
} IochartLiveStatus;

/* NULL with an error when the running kernel's event formats cannot be read. */
IochartLive *iochart_live_new        (guint           keep_s,
                                      GError        **error);
void         iochart_live_free       (IochartLive    *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartLive, iochart_live_free)

/* An IochartRecorderPageFunc: user_data is the IochartLive. */
void         iochart_live_add_page   (guint           cpu,
                                      const guint8   *page,
                                      gsize           len,
                                      gpointer        user_data);
/* Applies the events decoded since the last call, in time order. Call after each drain. */
void         iochart_live_update     (IochartLive    *self);
/* Figures now; rates since the previous call. */
void         iochart_live_get_status (IochartLive    *self,
                                      IochartLiveStatus *status);
/* Bytes the live figures hold, for checking that they stay bounded. */
gsize        iochart_live_get_memory (IochartLive    *self);

G_END_DECLS
