/* iochart-latency-private.h: the percentile work on plain values, for tests */
#pragma once

#include "iochart-latency.h"

G_BEGIN_DECLS

static inline gint64
_iochart_latency_span (gint64 a, gint64 b)
{
  return a == IOCHART_TIME_UNKNOWN || b == IOCHART_TIME_UNKNOWN || b < a ? IOCHART_TIME_UNKNOWN : b - a;
}

/* iochart_latency_of(), inline for loops over every request. */
static inline gint64
_iochart_latency_of (const IochartRequest *rq, IochartLatencyKind kind)
{
  if (rq->issues == 0)
    return IOCHART_TIME_UNKNOWN;
  switch (kind)
    {
    case IOCHART_LATENCY_Q2I: return _iochart_latency_span (rq->queue_ns, rq->insert_ns);
    case IOCHART_LATENCY_I2D: return _iochart_latency_span (rq->insert_ns, rq->issue_ns);
    case IOCHART_LATENCY_D2C: return _iochart_latency_span (rq->issue_ns, rq->complete_ns);
    case IOCHART_LATENCY_Q2C: return _iochart_latency_span (rq->queue_ns, rq->complete_ns);
    default: return IOCHART_TIME_UNKNOWN;
    }
}

/* Fills kind's figures in the rows of every grouping from values[0..n) (request i's span, or
 * IOCHART_TIME_UNKNOWN to leave it out), with one sort of the values shared by all groupings. */
void _iochart_latency_compute_values (const gint64           *values,
                                      gsize                   n,
                                      IochartLatencyGrouping *groupings,
                                      guint                   n_groupings,
                                      IochartLatencyKind      kind);

/* iochart_latency_compute() from the spans already taken: values[kind * n + i] is request i's
 * span of that kind. */
void _iochart_latency_compute_all    (const gint64           *values,
                                      gsize                   n,
                                      IochartLatencyGrouping *groupings,
                                      guint                   n_groupings);

G_END_DECLS
