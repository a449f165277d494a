/* iochart-simulator.h: replay a capture, closed-loop, under another scheduler, device or priorities
 *
 * A workload is extracted once from a capture (one device): every request, fork and exit becomes a
 * node that follows the latest earlier event of its own process with the observed gap (think time
 * after a completion, offset after an overlapping submission, fork after a child's exit), so a
 * slower disk delays what the process did next, as it would have. Async writes stay at their
 * observed times. A run plays the workload through a policy and a device model in a deterministic
 * discrete-event engine and returns a new IochartCapture: lanes, steal and charts work on it as on
 * any capture. Nothing here reads or writes files.
 */
#pragma once

#include "iochart-capture.h"

G_BEGIN_DECLS

typedef struct _IochartSimWorkload IochartSimWorkload;
typedef struct _IochartSimDevice   IochartSimDevice;

typedef struct {
  int                      device;        /* capture device index; -1: the steal analysis' pick */
  const IochartClassRule  *set_class;     /* a process and its descendants take this class */
  guint                    n_set_class;
  const char * const      *drop;          /* COMM_OR_PID: removed with its descendants; may be NULL */
  const char * const      *set_group;     /* COMM_OR_PID=NAME[:WEIGHT]: a process and its descendants
                                           * in cgroup NAME (weight 100-1000, default 500); may be NULL */
} IochartSimWorkloadOptions;

#define IOCHART_SIM_WORKLOAD_OPTIONS_INIT { .device = -1 }

IochartSimWorkload *iochart_sim_workload_new        (IochartCapture                  *capture,
                                                     const IochartSimWorkloadOptions *options,
                                                     GError                         **error);
void                iochart_sim_workload_free       (IochartSimWorkload              *wl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSimWorkload, iochart_sim_workload_free)

IochartCapture     *iochart_sim_workload_get_capture    (IochartSimWorkload *wl);
guint               iochart_sim_workload_get_device     (IochartSimWorkload *wl);
guint               iochart_sim_workload_get_n_requests (IochartSimWorkload *wl);
/* Processes removed by --drop (with descendants) and whose class --set-class changed. */
guint               iochart_sim_workload_get_n_dropped  (IochartSimWorkload *wl);
gboolean            iochart_sim_workload_is_dropped     (IochartSimWorkload *wl,
                                                         guint32             process);

/* "fit" (default), "observed", "hdd[:rpm=,seek=,stroke=,rate=,depth=,capacity=]",
 * "ssd[:latency=,bandwidth=,channels=]"; settings after a colon, comma-separated. */
IochartSimDevice   *iochart_sim_device_new          (IochartSimWorkload *wl,
                                                     const char         *spec,
                                                     GError            **error);
void                iochart_sim_device_free         (IochartSimDevice   *dev);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSimDevice, iochart_sim_device_free)
/* "hdd:rpm=7200,..." with every setting as used. */
const char         *iochart_sim_device_describe     (IochartSimDevice   *dev);

/* The fit's residual in one band of seek distance (sectors) or request size (bytes): the mean
 * D2C the samples in [lo, hi) had and the mean the model gives the same requests. */
typedef struct {
  guint64 lo, hi;           /* hi G_MAXUINT64: no bound */
  guint   n;
  double  observed_ms;      /* 0 when n is 0 */
  double  fitted_ms;
} IochartSimFitBand;

#define IOCHART_SIM_FIT_DISTANCE_BANDS 6
#define IOCHART_SIM_FIT_SIZE_BANDS     5

typedef struct {
  guint   n_alone;          /* requests the fit learnt from */
  gboolean one_at_a_time;   /* too few were served alone: every request, its service from the
                             * previous completion on (a device serving one at a time) */
  double  rate_bytes_per_s; /* media rate from sequential runs */
  double  a_ms, b_ms;       /* short seeks: a + b * sqrt(distance in sectors) */
  double  c_ms, e_ms;       /* long seeks:  c + e * distance in sectors */
  guint64 split_sectors;    /* short below, long from here */
  double  demerit_ms;       /* RMS horizontal distance of the simulated and observed D2C CDFs */
  double  demerit_pct;      /* ... as % of the observed mean */
  double  mean_ms;
  /* distance 0 (sequential), under 1 MiB, 1-16 MiB, 16-256 MiB, 256 MiB-4 GiB, 4 GiB and more */
  IochartSimFitBand by_distance[IOCHART_SIM_FIT_DISTANCE_BANDS];
  /* under 8 KiB, 8-32 KiB, 32-128 KiB, 128-512 KiB, 512 KiB and more */
  IochartSimFitBand by_size[IOCHART_SIM_FIT_SIZE_BANDS];
} IochartSimFit;

/* The fit's figures, or NULL when the model is not "fit". */
const IochartSimFit *iochart_sim_device_get_fit     (IochartSimDevice   *dev);

typedef struct {
  guint64 requests;         /* requests completed */
  guint64 events;           /* events the engine handled */
  gint64  end_ns;           /* last event */
  guint   max_idle_in_flight;
  guint64 idle_dispatch_while_fg_queued;   /* an idle dispatch while a non-idle request waited */
  gint64  max_slice_ns;     /* cfq: longest time one sync queue held the device from its slice start */
  gint64  max_slice_base_ns;/* cfq: the slice that queue was given */
  guint64 min_budget_sectors; /* bfq: the smallest and largest budget feedback gave a sync queue */
  guint64 max_budget_sectors;
} IochartSimStats;

/* Policy spec: "NAME[:KEY=VALUE,...]" with NAME noop, cfq, mq-deadline, bfq; "idle-gate[:...]"
 * wraps noop, "idle-gate[:...]+INNER[:...]" wraps INNER. */
gboolean            iochart_sim_policy_check        (const char         *spec,
                                                     GError            **error);
/* The spec with every setting as used ("cfq:slice_idle=8ms,..."). */
char               *iochart_sim_policy_describe     (const char         *spec,
                                                     guint               depth);

/* Runs the workload; the result is a capture named "NAME (policy)". Thread-safe for distinct
 * calls on the same workload and device. */
IochartCapture     *iochart_sim_run                 (IochartSimWorkload *wl,
                                                     IochartSimDevice   *dev,
                                                     const char         *policy_spec,
                                                     IochartSimStats    *stats,
                                                     GError            **error);

G_END_DECLS
