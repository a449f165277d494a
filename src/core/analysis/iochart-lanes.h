/* iochart-lanes.h: which processes share a lane of the chart
 *
 * Real captures hold thousands of short-lived processes (`find -exec cat` forks one `cat` per
 * file), so by default a lane is a process together with its short-lived descendants, from the
 * fork events. The top N lanes by bytes are kept, the rest fold into one "others" lane; lanes are
 * ordered by their first I/O, their bytes or the time their idle I/O stole. A lane can be expanded
 * into one lane per process, kept together where the lane was.
 */
#pragma once

#include "iochart-capture.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_GROUP_TREE,     /* a process and its short-lived descendants */
  IOCHART_GROUP_PID,      /* every process alone */
  IOCHART_GROUP_COMM,     /* every process of one name */
  IOCHART_GROUP_PARENT,   /* the children of one parent */
  IOCHART_GROUP_CLASS,    /* every request of one priority class */
} IochartGroupBy;

gboolean    iochart_group_by_from_name (const char *name, IochartGroupBy *group_by);
/* "tree", "pid", "comm", "parent", "class" */
const char *iochart_group_by_name      (IochartGroupBy group_by);

typedef enum {
  IOCHART_LANE_ORDER_FIRST_IO,   /* earliest first I/O first */
  IOCHART_LANE_ORDER_BYTES,      /* most bytes first */
  IOCHART_LANE_ORDER_STOLEN,     /* most time stolen by its idle I/O first (iochart-steal.h), then first I/O */
  IOCHART_N_LANE_ORDERS
} IochartLaneOrder;

gboolean    iochart_lane_order_from_name (const char *name, IochartLaneOrder *order);
/* "first-io", "bytes", "stolen" */
const char *iochart_lane_order_name      (IochartLaneOrder order);

/* Processes of one expanded lane shown apart, at most; the rest join "others". */
#define IOCHART_LANES_EXPAND_MAX 64

typedef struct {
  IochartGroupBy   group_by;
  guint            top_n;        /* 0: every lane */
  int              device;       /* requests of this device index only, -1: all */
  gint64           from_ns;      /* IOCHART_TIME_UNKNOWN: no bound */
  gint64           to_ns;
  const gint32    *pids;         /* keep lanes holding one of these pids (n_pids > 0) */
  guint            n_pids;
  const char * const *comms;     /* ... or one of these names (NULL-terminated, may be NULL) */
  IochartLaneOrder order;
  const guint32   *expand;       /* group by tree: the lanes headed by these processes split into a
                                  * lane per process (the biggest IOCHART_LANES_EXPAND_MAX, and the head) */
  guint            n_expand;
  const guint32   *requests;     /* only these capture requests, ascending (a bin index's */
  guint            n_requests;   /* find_all), or every request when NULL: the same lanes */
  /* The device's lane index (iochart-lane-index.h): the lanes cost processes, not requests
   * (requests is then not read), whatever the grouping and the lanes expanded: the same lanes. */
  const struct _IochartLaneIndex *index;
} IochartLanesOptions;

#define IOCHART_LANES_OPTIONS_INIT { .group_by = IOCHART_GROUP_TREE, .top_n = 12, .device = -1, \
                                     .from_ns = IOCHART_TIME_UNKNOWN, .to_ns = IOCHART_TIME_UNKNOWN }

typedef struct {
  char        *label;            /* "find[27822] + 5,476 × cat" */
  guint32      head;             /* the process it is named after, or IOCHART_NO_PROCESS */
  gboolean     others;           /* the lane of everything below the top N */
  IochartClass klass;            /* class of most of its bytes */
  guint        class_mask;       /* 1 << class for every class its requests used */
  guint        n_processes;      /* processes folded in, head included */
  guint        n_requests;
  guint64      bytes;
  gint64       first_io_ns;      /* first time some request of it became outstanding */
  gint64       last_io_ns;       /* last completion */
  gint64       start_ns;         /* lifetime when fork/exit were seen, else IOCHART_TIME_UNKNOWN */
  gint64       exit_ns;
  gint64       outstanding_ns;   /* time with any of its I/O outstanding, in the range */
  guint32      expanded_from;    /* the head of the expanded lane it came out of, else IOCHART_NO_PROCESS */
} IochartLane;

typedef struct _IochartLanes IochartLanes;

IochartLanes      *iochart_lanes_new                (IochartCapture            *capture,
                                                     const IochartLanesOptions *options);
void               iochart_lanes_free               (IochartLanes              *lanes);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartLanes, iochart_lanes_free)

guint              iochart_lanes_get_n_lanes        (IochartLanes              *lanes);
IochartCapture    *iochart_lanes_get_capture        (IochartLanes              *lanes);
/* How the lanes were grouped: as asked, or by name and class when a tree was asked of a
 * capture without fork events. */
IochartGroupBy     iochart_lanes_get_group_by       (IochartLanes              *lanes);
const IochartLane *iochart_lanes_get_lane           (IochartLanes              *lanes,
                                                     guint                      i);
/* The lane a request is drawn in, or -1 when filtered out. */
int                iochart_lanes_lane_of_request    (IochartLanes              *lanes,
                                                     const IochartRequest      *rq);
/* The lane a process belongs to, or -1 (no I/O, filtered out, or grouped by class). */
int                iochart_lanes_lane_of_process    (IochartLanes              *lanes,
                                                     guint32                    process);

/* The outstanding time's life span for a lane: its lifetime when known, else [first I/O, last
 * completion], clipped to [from_ns, to_ns]. */
gint64             iochart_lane_get_life_ns         (const IochartLane         *lane,
                                                     gint64                     from_ns,
                                                     gint64                     to_ns);

/* "rt", or every class a lane's requests used ("rt+be") when they were several. */
char              *iochart_lane_class_text          (const IochartLane         *lane);

G_END_DECLS
