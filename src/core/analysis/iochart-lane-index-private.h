/* iochart-lane-index-private.h: what iochart-lanes.c asks of the lane index */
#pragma once

#include "iochart-lane-index.h"
#include "iochart-lanes.h"

G_BEGIN_DECLS

/* One process's requests of one class that meet a range. */
typedef struct {
  guint32  process;        /* capture process index, or the capture's n_processes: none */
  guint    klass;
  guint    n_in_view;      /* requests meeting the range */
  guint64  issues;         /* their issues, and bytes times issues */
  guint64  bytes;
  gint64   first_io_ns;    /* their least start and greatest end */
  gint64   last_io_ns;
} IochartLaneStream;

typedef void (*IochartLaneStreamFunc) (const IochartLaneStream *stream, gpointer data);

/* Calls func for every process and class with requests meeting [from_ns, to_ns] (as
 * iochart-lanes.c's walk takes them; IOCHART_TIME_UNKNOWN: no bound), in process order. */
void           _iochart_lane_index_each_stream  (const IochartLaneIndex *index,
                                                 gint64                  from_ns,
                                                 gint64                  to_ns,
                                                 IochartLaneStreamFunc   func,
                                                 gpointer                data);

/* TRUE when the outstanding runs were cut by the groups lanes grouped by group_by with these
 * expanded lanes have. */
gboolean       _iochart_lane_index_has_grouping (const IochartLaneIndex *index,
                                                 IochartGroupBy          group_by,
                                                 guint                   n_expand);

/* Adds to lane_ns[lane] the time in [from_ns, to_ns] with I/O of the lane outstanding;
 * lane_of: per group of the index's grouping, its lane or -1. */
void           _iochart_lane_index_outstanding  (const IochartLaneIndex *index,
                                                 const int              *lane_of,
                                                 gint64                  from_ns,
                                                 gint64                  to_ns,
                                                 gint64                 *lane_ns);

/* iochart-lanes.c: the group of every process (and a last one for none) for group_by with no
 * lane expanded, the grouping it fell back to, and the number of groups. */
guint32       *_iochart_lanes_group_of          (IochartCapture         *capture,
                                                 IochartGroupBy          group_by,
                                                 IochartGroupBy         *used,
                                                 guint                  *n_groups);

/* iochart-lanes.c: a request's span as the lanes see it; FALSE when it has none. */
gboolean       _iochart_lanes_request_span      (const IochartRequest   *rq,
                                                 gint64                 *a,
                                                 gint64                 *b);

G_END_DECLS
