/* iochart-time-split.h: where each process's time went
 *
 * A process slowed down next to another may have waited for the disk or for a CPU. From the
 * task states of sched_switch/sched_wakeup (iochart_capture_get_task_change), each process's
 * life in a time range splits into running, runnable (waiting for a CPU), I/O wait (D state
 * while one of its own requests is outstanding), other D state, and sleep. Before a process's
 * first state change its state is inferred from that change (switched out: it was running;
 * switched in: runnable; woken: asleep). A lane's split is the sum of its processes'.
 */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-capture.h"
#include "iochart-lanes.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_SPLIT_RUNNING,
  IOCHART_SPLIT_RUNNABLE,
  IOCHART_SPLIT_IO_WAIT,
  IOCHART_SPLIT_OTHER_D,
  IOCHART_SPLIT_SLEEP,
  IOCHART_N_SPLITS,
} IochartSplitKind;

typedef struct {
  gint64 ns[IOCHART_N_SPLITS];
  gint64 life_ns;                /* their sum */
} IochartTimeSplit;

/* "running", "runnable", "io_wait", "other_d", "sleep" */
const char      *iochart_split_kind_name     (IochartSplitKind kind);
/* "running", "waiting for a CPU", "waiting for I/O", "in D state", "asleep" */
const char      *iochart_split_kind_label    (IochartSplitKind kind);

typedef struct _IochartTimeSplits IochartTimeSplits;

/* NULL when the capture has no task states. A process's life is fork to exit when seen, else
 * the capture's span, clipped to [from_ns, to_ns] (IOCHART_TIME_UNKNOWN: no bound). */
IochartTimeSplits *iochart_time_splits_new     (IochartCapture    *capture,
                                                gint64             from_ns,
                                                gint64             to_ns);
void               iochart_time_splits_free    (IochartTimeSplits *splits);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartTimeSplits, iochart_time_splits_free)

const IochartTimeSplit *iochart_time_splits_get_process (IochartTimeSplits *splits,
                                                         guint              process);
/* The sum over the processes of lane i. */
void               iochart_time_splits_get_lane (IochartTimeSplits *splits,
                                                 IochartLanes      *lanes,
                                                 guint              lane,
                                                 IochartTimeSplit  *out);

/* Which of runnable, I/O wait and other D took most of the waiting time. */
IochartSplitKind   iochart_time_split_dominant_wait (const IochartTimeSplit *split);

/* {"life_ns": N, "running_ns": N, ...} as one object. */
void               iochart_time_split_to_json  (const IochartTimeSplit *split,
                                                JsonBuilder            *builder);

G_END_DECLS
