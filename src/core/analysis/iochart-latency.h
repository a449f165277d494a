/* iochart-latency.h: where each request's time went, as btt breaks it down, per group
 *
 * A request's life has four spans: Q2I (queued to inserted: waiting for a request or a plug), I2D
 * (in the scheduler), D2C (on the device) and Q2C (the whole wait). A span counts only when the
 * capture saw both of its ends, so Q2C = Q2I + I2D + D2C wherever all three are known. Only
 * requests issued to a device count; percentiles are exact (nearest rank).
 */
#pragma once

#include "iochart-capture.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_LATENCY_Q2I,
  IOCHART_LATENCY_I2D,
  IOCHART_LATENCY_D2C,
  IOCHART_LATENCY_Q2C,
  IOCHART_N_LATENCY_KINDS
} IochartLatencyKind;

/* "q2i", "i2d", "d2c", "q2c" */
const char *iochart_latency_kind_name      (IochartLatencyKind  kind);
gboolean    iochart_latency_kind_from_name (const char         *name,
                                            IochartLatencyKind *kind);
/* The span of a kind of one request, or IOCHART_TIME_UNKNOWN when an end was not seen. */
gint64      iochart_latency_of             (const IochartRequest *rq,
                                            IochartLatencyKind    kind);

/* Every time is IOCHART_TIME_UNKNOWN when n is 0. */
typedef struct {
  guint64 n;
  gint64  min_ns;
  gint64  avg_ns;
  gint64  p50_ns;
  gint64  p95_ns;
  gint64  p99_ns;
  gint64  max_ns;
} IochartLatencyStats;

typedef struct {
  IochartLatencyStats kind[IOCHART_N_LATENCY_KINDS];
} IochartLatencyRow;

/* One way to group requests: group[i] is request i's group (< n_groups), or -1 to leave it out;
 * rows (n_groups of them) get the figures. */
typedef struct {
  const gint32      *group;
  guint              n_groups;
  IochartLatencyRow *rows;
} IochartLatencyGrouping;

/* Fills the rows of every grouping, from one pass over the requests for all kinds. */
void        iochart_latency_compute        (IochartCapture         *capture,
                                            IochartLatencyGrouping *groupings,
                                            guint                   n_groupings);

G_END_DECLS
