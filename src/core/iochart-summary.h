/* iochart-summary.h: the figures of `iochart info`, as text or JSON */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-capture.h"
#include "analysis/iochart-time-split.h"

G_BEGIN_DECLS

typedef struct {
  guint64 requests;
  guint64 bytes;
} IochartCount;

typedef struct {
  guint32      dev;
  const char  *name;
  IochartCount total;
  IochartCount by_op[IOCHART_N_OPS];
} IochartSummaryDevice;

/* Latencies in ns; IOCHART_TIME_UNKNOWN when no request had both ends. */
typedef struct {
  gint64 p50_ns;
  gint64 p99_ns;
  guint  n;
} IochartLatency;

typedef struct {
  guint                  process;     /* index in the capture */
  const IochartProcess  *p;
  IochartCount           count;       /* on the summarised devices */
  IochartLatency         q2c;         /* queue (or insert) to complete */
  IochartLatency         d2c;         /* issue to complete */
  IochartTimeSplit       split;       /* where its life went, when has_time_split */
} IochartSummaryProcess;

typedef struct {
  guint64                events;
  gint64                 start_ns;
  gint64                 wall_start_ns;   /* IOCHART_TIME_UNKNOWN when the capture has no wall clock */
  gint64                 span_ns;
  int                    device;      /* index summarised, -1 for all */
  gint64                 range_from_ns, range_to_ns;  /* requests issued in [from, to); UNKNOWN: no bound */
  GArray                *devices;     /* IochartSummaryDevice */
  IochartCount           classes[IOCHART_N_CLASSES];
  GArray                *processes;   /* IochartSummaryProcess, by bytes, descending */
  guint                  n_processes_with_io;
  guint64                issued_without_completion;
  guint64                completed_without_issue;
  guint64                requeues;
  guint64                lost_events;     /* dropped by the kernel while recording */
  gboolean               has_time_split;  /* the capture has scheduler events */
  gsize                  request_store_bytes;
  gsize                  model_bytes;
  guint                  n_requests;
} IochartSummary;

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
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSummary, iochart_summary_free)

/* Adds the summary's members to the JSON object being built. */
void            iochart_summary_to_json (const IochartSummary *summary,
                                         JsonBuilder          *builder);
void            iochart_summary_print   (const IochartSummary *summary,
                                         GString              *out);


G_END_DECLS
