/* iochart-live.h: the figures of a recording while it runs
 *
 * Taken from a live capture's snapshot (iochart-live-capture.h) by the same analyses as a file's:
 * issued bytes and requests per class over the last second (iochart_counts_compute), the idle
 * steal of the primary device over the window (iochart_steal) and the idle lane that stole the
 * most (iochart_lanes). `iochart record --live` prints them once a second; the app shows them.
 */
#pragma once

#include "iochart-capture.h"

G_BEGIN_DECLS

#define IOCHART_LIVE_N_SEEN 8

typedef struct {
  gint64  end_ns;                              /* the newest event's time */
  guint64 events;                              /* decoded so far */
  double  events_per_s;                        /* over the last second of trace time (or the
                                                * statuses before, the last one a second back) */
  double  bytes_per_s[IOCHART_N_CLASSES];      /* issued in the last second of trace time */
  double  requests_per_s[IOCHART_N_CLASSES];
  gboolean stolen_known;                       /* FALSE: no figure (no class known, or no I/O) */
  double  stolen_pct;                          /* of foreground-active time, primary device */
  char    top_idle[96];                        /* the idle lane that stole the most, "" when none */
  gint64  top_idle_stolen_ns;
  guint64 top_idle_bytes;
  guint64 lost;                                /* events the kernel dropped */
  /* this status's and the ones before's (end_ns, events), newest last: events_per_s's base */
  gint64  seen_end_ns[IOCHART_LIVE_N_SEEN];
  guint64 seen_events[IOCHART_LIVE_N_SEEN];
  guint   n_seen;
} IochartLiveStatus;

/* prev: the status before (for events_per_s), or NULL. */
void iochart_live_status_compute (IochartCapture          *capture,
                                  const IochartLiveStatus *prev,
                                  IochartLiveStatus       *status);
/* The status line's parts, most telling first: each class that issued I/O in the last second
 * ("be 12 MiB/s (1,234/s)", in the legend's order; "no I/O issued" when none did), "stolen 11.2%",
 * "top idle cat[24829] + 3 × cat 38 MiB" when an idle lane stole, "201,345 events/s", "lost 0". */
GPtrArray *iochart_live_status_parts (const IochartLiveStatus *status);
/* The parts joined with " · ". */
char *iochart_live_status_format  (const IochartLiveStatus *status);

G_END_DECLS
