/* iochart-lane-index-private.h: what iochart-lanes.c asks of the lane index */
#pragma once

#include "iochart-lane-index.h"
#include "iochart-lanes.h"
#include "iochart-bins.h"

G_BEGIN_DECLS

/* The index built from two passes over the device's requests that someone else makes (the bin
 * index's): begin, count every request of the device, layout, put every one again in the same
 * order, end. iochart_lane_index_new makes its own passes. */
typedef struct _IochartLaneIndexBuild IochartLaneIndexBuild;

IochartLaneIndexBuild *_iochart_lane_index_begin  (IochartCapture        *capture,
                                                   int                    device);
void                   _iochart_lane_index_count  (IochartLaneIndexBuild *build,
                                                   const IochartRequest  *rq);
void                   _iochart_lane_index_layout (IochartLaneIndexBuild *build);
void                   _iochart_lane_index_put    (IochartLaneIndexBuild *build,
                                                   const IochartRequest  *rq);
IochartLaneIndex      *_iochart_lane_index_end    (IochartLaneIndexBuild *build);

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

/* A copy of _iochart_lanes_group_of (capture, group_by, used, n_groups) when group_by is the
 * grouping the index was built with (it keeps it: a frame need not group the processes again),
 * else NULL. */
guint32       *_iochart_lane_index_group_of     (const IochartLaneIndex *index,
                                                 IochartGroupBy          group_by,
                                                 IochartGroupBy         *used,
                                                 guint                  *n_groups);

/* Adds to lane_ns[lane] the time in [from_ns, to_ns] with I/O of the lane outstanding, for
 * lanes grouped as used with group_of (per process, +1 for none: its group; by class: the
 * class) into n_groups groups; lane_of: per group, its lane or -1. The default grouping's from
 * the runs built at load; another's from runs built on its first use (a pass over capture's
 * requests of the device), kept for the next calls. */
void           _iochart_lane_index_outstanding  (const IochartLaneIndex *index,
                                                 IochartCapture         *capture,
                                                 IochartGroupBy          used,
                                                 const guint32          *group_of,
                                                 guint                   n_groups,
                                                 const int              *lane_of,
                                                 gint64                  from_ns,
                                                 gint64                  to_ns,
                                                 gint64                 *lane_ns);

/* What the lanes' strips ask of the device as a whole (the bin index's running sums), for the
 * lane taken as the device's less the others: its time queued per column of bins, every class
 * (added to cols); and per edge T[0..n] its requests of each class started before the edge, and
 * ended before it. */
typedef struct {
  void          (*wait)   (gconstpointer data, const IochartBins *bins, double *cols);
  void          (*counts) (gconstpointer data, const gint64 *T, guint n,
                           gint64 (*started)[IOCHART_N_CLASSES], gint64 (*ended)[IOCHART_N_CLASSES]);
  gconstpointer   data;
} IochartLaneDevice;

/* iochart_bin_index_fill_lanes: the lanes' strips of bins from the streams, a few searches per
 * column each; the lane of the most requests (the folded "others") as the device's less the
 * rest. */
void           _iochart_lane_index_fill_strips  (const IochartLaneIndex *index,
                                                 IochartBins            *bins,
                                                 IochartLanes           *lanes,
                                                 const IochartLaneDevice *device);

/* Tests: how many requests a column a lane must meet to be taken as the device's less the
 * others (0: the biggest lane always is). */
void           _iochart_lane_index_set_rest_factor (guint factor);

/* iochart-lanes.c: the group of every process (and a last one for none) for group_by with no
 * lane expanded, the grouping it fell back to, and the number of groups. */
guint32       *_iochart_lanes_group_of          (IochartCapture         *capture,
                                                 IochartGroupBy          group_by,
                                                 IochartGroupBy         *used,
                                                 guint                  *n_groups);

/* iochart-lanes.c: how lanes grouped the processes: per process (+1 for none) its group (by
 * class: unused, the class is the group), the grouping used and the number of groups. */
const guint32 *_iochart_lanes_get_groups        (IochartLanes           *lanes,
                                                 IochartGroupBy         *used,
                                                 guint                  *n_groups);

/* iochart-lanes.c: a request's span as the lanes see it; FALSE when it has none. */
gboolean       _iochart_lanes_request_span      (const IochartRequest   *rq,
                                                 gint64                 *a,
                                                 gint64                 *b);

G_END_DECLS
