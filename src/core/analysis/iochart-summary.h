/* iochart-summary.h: the figures of `iochart info`, as text or JSON
 *
 * Every count is defined once, here: a request counts when it is issued to a device (a
 * block_rq_issue event, or blktrace D), and a requeued request issued again counts again;
 * `reissued` says how many of the issues were such repeats. Flushes are requests like any other,
 * with no bytes. Info, JSON, the I/O chart and the boot chart all take their counts from
 * iochart_counts_compute().
 */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-capture.h"
#include "iochart-latency.h"
#include "iochart-lanes.h"
#include "iochart-time-split.h"

G_BEGIN_DECLS

typedef struct {
  guint64 requests;
  guint64 bytes;
} IochartCount;

typedef struct {
  IochartCount issued;                       /* requests issued to a device */
  IochartCount by_op[IOCHART_N_OPS];         /* the same, by read, write, discard, flush, other */
  IochartCount by_class[IOCHART_N_CLASSES];  /* the same, by class */
  guint64      reissued;                     /* issues that repeated a request's earlier one */
  guint64      never_issued;                 /* requests queued or inserted and never issued */
} IochartCounts;

/* Counts the requests of device index `device` (-1: every device) issued in [from_ns, to_ns)
 * (IOCHART_TIME_UNKNOWN: no bound). */
void            iochart_counts_compute (IochartCapture *capture,
                                        int             device,
                                        gint64          from_ns,
                                        gint64          to_ns,
                                        IochartCounts  *counts);

/* The same among the given capture requests only (a bin index's find_all for the device and
 * range gives the same issued counts; never_issued then counts among them). */
void            iochart_counts_compute_among (IochartCapture *capture,
                                              const guint32  *requests,
                                              guint           n_requests,
                                              int             device,
                                              gint64          from_ns,
                                              gint64          to_ns,
                                              IochartCounts  *counts);

/* Whether a request counts in such a range: issued, on the device, its issue in the range. */
gboolean        iochart_counts_request_in (const IochartRequest *rq,
                                           int                   device,
                                           gint64                from_ns,
                                           gint64                to_ns);

typedef struct {
  guint32           dev;
  const char       *name;
  IochartCounts     counts;
  IochartLatencyRow latency;
  IochartLatencyRow class_latency[IOCHART_N_CLASSES];
} IochartSummaryDevice;

typedef struct {
  guint                  process;     /* index in the capture */
  const IochartProcess  *p;
  IochartCount           count;       /* on the summarised devices */
  IochartLatencyRow      latency;
  IochartTimeSplit       split;       /* where its life went, when has_time_split */
} IochartSummaryProcess;

typedef struct {
  guint                  lane;        /* index in lanes */
  const IochartLane     *l;
  IochartCount           count;       /* issued in the range on the summarised devices, as the
                                       * classes count (l's are the requests outstanding in it) */
  IochartLatencyRow      latency;
} IochartSummaryLane;

/* btt's figures of one device or one process name. */
typedef struct {
  guint32        dev;                 /* devices */
  const char    *comm;                /* processes: as btt names them ("<...>" when unknown) */
  IochartBttStat q2c;
  IochartBttStat d2c;
} IochartSummaryBtt;

typedef struct {
  int             device;             /* device index, -1: every device */
  guint           top;                /* processes and lanes kept, 0: all */
  gint64          from_ns;            /* requests issued in [from_ns, to_ns); UNKNOWN: no bound */
  gint64          to_ns;
  IochartGroupBy  group_by;
  gboolean        text_only;          /* only printed as text: per-process latency, which the text
                                       * shows only with lanes by pid, is left out otherwise */
  /* Only the requests of lanes holding one of these pids or names (the chart's --pid and --comm,
   * the app's filters): every figure, as the lanes drawn. */
  const gint32   *pids;
  guint           n_pids;
  const char * const *comms;          /* NULL-terminated, may be NULL */
} IochartSummaryOptions;

#define IOCHART_SUMMARY_OPTIONS_INIT { .device = -1, .top = 20, .from_ns = IOCHART_TIME_UNKNOWN, \
                                       .to_ns = IOCHART_TIME_UNKNOWN, .group_by = IOCHART_GROUP_TREE }

typedef struct {
  guint64                events;
  gint64                 start_ns;
  gint64                 wall_start_ns;   /* IOCHART_TIME_UNKNOWN when the capture has no wall clock */
  gint64                 span_ns;
  IochartSummaryOptions  options;
  int                    device;      /* index summarised, -1 for all */
  int                    primary;     /* device the class line is about: the asked one, else the busiest in processes */
  IochartCounts          counts;      /* over the summarised devices */
  GArray                *devices;     /* IochartSummaryDevice, every device of the capture */
  IochartLatencyRow      class_latency[IOCHART_N_CLASSES];
  GArray                *processes;   /* IochartSummaryProcess, by bytes, descending */
  guint                  n_processes_with_io;
  IochartLanes          *lanes;
  IochartGroupBy         group_by;    /* as the lanes were grouped */
  GArray                *lane_rows;   /* IochartSummaryLane, by bytes, descending */
  guint                  n_lanes;
  GArray                *btt_devices; /* IochartSummaryBtt */
  GArray                *btt_processes;
  guint64                issued_without_completion;
  guint64                completed_without_issue;
  guint64                requeues;
  guint64                lost_events;     /* dropped by the kernel while recording */
  gboolean               has_time_split;  /* the capture has task states */
  gboolean               time_split_sampled; /* ... from bootchart samples */
  gsize                  request_store_bytes;
  gsize                  model_bytes;
  guint                  n_requests;  /* records stored, issued or not */
  GArray                *requests;    /* with pids or comms: the kept lanes' capture requests
                                       * (guint32, ascending, any time) for the steal figures, its data
                                       * never NULL even when empty; else NULL */
} IochartSummary;

IochartSummary *iochart_summary_new_full (IochartCapture              *capture,
                                          const IochartSummaryOptions *options);
/* Summarises dev_index (-1: all devices); top keeps that many processes (0: all). */
IochartSummary *iochart_summary_new    (IochartCapture *capture,
                                        int             dev_index,
                                        guint           top);
/* The same for the requests issued in [from_ns, to_ns) (absolute; IOCHART_TIME_UNKNOWN: no bound). */
IochartSummary *iochart_summary_new_range (IochartCapture *capture,
                                           int             dev_index,
                                           guint           top,
                                           gint64          from_ns,
                                           gint64          to_ns);
void            iochart_summary_free   (IochartSummary *summary);
/* Whether options keep only some lanes (pids or comms). */
gboolean        iochart_summary_options_filter (const IochartSummaryOptions *options);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSummary, iochart_summary_free)

/* Adds the summary's members to the JSON object being built. */
void            iochart_summary_to_json (const IochartSummary *summary,
                                         JsonBuilder          *builder);
/* Writes `btt`: {devices: [...], processes: [...]} as the builder's next member. */
void            iochart_summary_btt_to_json (const IochartSummary *summary,
                                             JsonBuilder          *builder);
void            iochart_summary_print   (const IochartSummary *summary,
                                         GString              *out);
/* The lane holding process as `info` prints it, under the capture's name, the lane's full name,
 * the device and the range: for a clipboard. FALSE when the process issued nothing summarised. */
gboolean        iochart_summary_print_lane (const IochartSummary *summary,
                                            guint32               process,
                                            GString              *out);
/* btt's own figures, laid out as btt prints them. */
void            iochart_summary_print_btt (const IochartSummary *summary,
                                           GString              *out);
/* One line: how long idle-class and best-effort requests waited in the scheduler and on the
 * device, side by side; NULL when neither class has requests. */
char           *iochart_summary_class_line (const IochartSummary *summary);

G_END_DECLS
