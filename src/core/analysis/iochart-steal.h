/* iochart-steal.h: how much device capacity idle-class I/O took while other I/O waited
 *
 * At each instant when some non-idle request with data is outstanding on a device (from insertion,
 * or queueing when there is no insert event, to completion), the n_idle idle requests in flight next
 * to n_fg non-idle ones in flight take the share n_idle / (n_idle + n_fg) of that instant. Stolen
 * time is the integral of that share; foreground-active time is the time with some non-idle request
 * outstanding. Each device has its own figures: a loop device and the disk under it carry the same
 * I/O, so adding them up would count it twice.
 */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-capture.h"
#include "iochart-lanes.h"

G_BEGIN_DECLS

#define IOCHART_STEAL_DEFAULT_GAP_NS (8 * G_GINT64_CONSTANT (1000000))

typedef struct {
  int     device;      /* index of the only device to analyse, -1 for all */
  gint64  from_ns;     /* IOCHART_TIME_UNKNOWN: the capture's start */
  gint64  to_ns;       /* IOCHART_TIME_UNKNOWN: the capture's end */
  gint64  gap_ns;      /* stolen intervals closer than this are one episode; <0: the default */
  guint   n_columns;   /* >0: also keep stolen time per column of [from_ns, to_ns] */
  const guint32 *requests;   /* only these capture requests, ascending (a bin index's find_all), */
  guint          n_requests; /* or every request when NULL: the same figures */
  /* The device's bin index: with one device and a range, the sweep takes the device's events
   * presorted from it and only those of the range (requests is then not read): the same figures. */
  const struct _IochartBinIndex *index;
  /* When every device analysed tells no class (iochart_steal_device_is_unknown()), its class
   * counts are all there is to say: TRUE leaves the other figures 0 and skips the sweep, for a
   * caller that prints only those counts then (`iochart info` as text). */
  gboolean       counts_if_unknown;
} IochartStealOptions;

#define IOCHART_STEAL_OPTIONS_INIT { .device = -1, .from_ns = IOCHART_TIME_UNKNOWN, \
                                     .to_ns = IOCHART_TIME_UNKNOWN, .gap_ns = -1 }

typedef struct {
  guint32 process;     /* index in the capture */
  gint64  stolen_ns;
} IochartStealShare;

typedef struct {
  gint64   start_ns;
  gint64   end_ns;
  guint    device;     /* index in the capture */
  gint64   stolen_ns;
  guint32  idle_process;   /* the idle process with the most stolen time in it */
  GArray  *idle;       /* IochartStealShare of every idle process in it, most stolen first */
  GArray  *waiting;    /* guint32 indices of non-idle processes with I/O outstanding meanwhile,
                        * in index order */
} IochartStealEpisode;

typedef struct {
  guint    device;     /* index in the capture */
  gint64   stolen_ns;
  gint64   foreground_active_ns;
  guint    n_episodes;
  GArray  *idle;       /* IochartStealShare per idle process, most stolen first */
  guint64  idle_requests;    /* issued in the range, as iochart_counts_compute() counts */
  guint64  unknown_requests; /* of no known class: the figure cannot see them */
  double  *stolen_columns;   /* n_columns stolen ns per column, or NULL */
  double  *active_columns;   /* n_columns foreground-active ns per column, or NULL */
} IochartStealDevice;

typedef struct _IochartSteal IochartSteal;

IochartSteal              *iochart_steal_new              (IochartCapture            *capture,
                                                           const IochartStealOptions *options);
void                       iochart_steal_free             (IochartSteal              *steal);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSteal, iochart_steal_free)

/* iochart_steal_new() in a thread of its own while the caller runs its other analyses of the
 * same capture (they all only read it); a small capture does not pay for a thread and gets its
 * figures at once. The options (and the requests they point to) must stay until
 * iochart_steal_finish(), which gives the figures and frees the job. */
typedef struct _IochartStealJob IochartStealJob;
IochartStealJob           *iochart_steal_start            (IochartCapture            *capture,
                                                           const IochartStealOptions *options);
IochartSteal              *iochart_steal_finish           (IochartStealJob           *job);

IochartCapture            *iochart_steal_get_capture      (IochartSteal              *steal);
guint                      iochart_steal_get_n_devices    (IochartSteal              *steal);
const IochartStealDevice  *iochart_steal_get_device       (IochartSteal              *steal,
                                                           guint                      i);
/* The figures of one capture device index, or NULL when it was not analysed. */
const IochartStealDevice  *iochart_steal_find_device      (IochartSteal              *steal,
                                                           guint                      device);
/* The device the headline figures are about: the one asked for, else the one with the most
 * distinct processes issuing I/O (where the applications' own I/O shows, not a disk under a
 * loop device whose requests come from kernel workers). NULL when nothing was analysed. */
const IochartStealDevice  *iochart_steal_get_primary      (IochartSteal              *steal);

/* Episodes of every analysed device, by start time. */
guint                      iochart_steal_get_n_episodes   (IochartSteal              *steal);
const IochartStealEpisode *iochart_steal_get_episode      (IochartSteal              *steal,
                                                           guint                      i);

/* Writes the `idle_steal` object as the builder's next value (set the member name first):
 * {stolen_ns, foreground_active_ns, stolen_pct, dev, idle_processes, devices: [...],
 *  episodes: [{start_ns, end_ns, dev, stolen_ns, idle_pid, idle_comm, waiting_pids}]}.
 * The top-level figures are the primary device's. */
void                       iochart_steal_to_json          (IochartSteal              *steal,
                                                           JsonBuilder               *builder);

/* No idle-class request is known on the device while some requests have no class (BFQ level 7
 * is idle or best-effort 7): no figure can be given, not even 0. */
gboolean                   iochart_steal_device_is_unknown (const IochartStealDevice *device);

/* The device's stolen time credited to the lanes its idle processes belong to (thousands of
 * short-lived `cat`s each steal a little; their lane, the process that forked them, took it all):
 * n_lanes nanoseconds, by lane index. */
gint64                    *iochart_steal_device_per_lane (const IochartStealDevice *device,
                                                          IochartLanes             *lanes);

/* One device's steal events sorted once (a bin index keeps them), so that a range sweeps only
 * its own events; NULL when the capture is too big for their packing. */
typedef struct _IochartStealEvents IochartStealEvents;
IochartStealEvents        *iochart_steal_events_new       (IochartCapture            *capture,
                                                           int                        device);
void                       iochart_steal_events_free      (IochartStealEvents        *events);
gsize                      iochart_steal_events_get_size  (const IochartStealEvents  *events);

/* Picks the device a chart or headline is about when the user named none. */
int                        iochart_steal_pick_device      (IochartCapture            *capture);

G_END_DECLS
