/* iochart-sim-engine-private.h: what a run hands to the capture it makes */
#pragma once

#include "iochart-sim-private.h"

G_BEGIN_DECLS

typedef struct {
  gint64 *submit_ns;     /* per request, IOCHART_TIME_UNKNOWN when not simulated */
  gint64 *issue_ns;
  gint64 *done_ns;
  gint64 *node_ns;       /* forks [0, P), exits [P, 2P) */
  guint32 *arrived;      /* requests in the order they arrived: by submit time */
  guint    n_arrived;
  gint64  end_ns;
} IochartSimTimes;

IochartCapture *_iochart_sim_capture_new (const IochartSimGraph *g,
                                          const char            *policy,
                                          const IochartSimTimes *times,
                                          guint64                n_events);

G_END_DECLS
