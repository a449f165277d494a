/* iochart-capture.h: the one model of a capture, whatever format it came from */
#pragma once

#include <glib-object.h>
#include "iochart-types.h"

G_BEGIN_DECLS

typedef struct {
  guint32     dev;          /* kernel dev_t: MAJ << 20 | MIN */
  const char *name;         /* "loop0" when known, else NULL */
} IochartDevice;

typedef struct {
  gint64      ns;           /* when this name was first seen or set (exec) */
  const char *comm;
} IochartComm;

typedef struct {
  gint32              pid;
  gint32              tgid;       /* -1 when unknown */
  gint32              ppid;       /* -1 when unknown */
  guint32             parent;     /* index of the parent's IochartProcess, or IOCHART_NO_PROCESS */
  gint64              start_ns;   /* fork, when seen */
  gint64              exit_ns;    /* exit, when seen */
  const char         *comm;       /* the last name: what users know it by */
  guint32             first_comm; /* its name history: iochart_capture_get_comms() */
  guint32             n_comms;
  guint32             requests;   /* requests issued to a device */
  guint8              klass;      /* IochartClass of most of its bytes */
  guint8              level;
  guint8              class_source; /* IochartClassSource: what decided klass */
  guint8              class_mask; /* 1 << IochartClass for every class it used */
  guint64             bytes;
} IochartProcess;

/* One request's life, unpacked. Times are IOCHART_TIME_UNKNOWN when not seen. */
typedef struct {
  gint64   queue_ns;
  gint64   insert_ns;
  gint64   issue_ns;
  gint64   complete_ns;
  guint64  sector;
  guint32  bytes;
  guint32  process;        /* index, or IOCHART_NO_PROCESS */
  guint16  device;         /* index */
  guint8   op;             /* IochartOp */
  guint8   flags;          /* IochartRqFlags */
  guint8   klass;          /* IochartClass */
  guint8   level;
  guint8   class_source;   /* IochartClassSource: what decided klass */
  guint8   issues;         /* issue events: 1 + requeues that were issued again */
  guint8   requeues;
  guint16  merges;         /* bios and requests folded into this one */
  gint16   error;          /* negative errno, 0 when fine */
} IochartRequest;

#define IOCHART_TYPE_CAPTURE (iochart_capture_get_type ())
G_DECLARE_FINAL_TYPE (IochartCapture, iochart_capture, IOCHART, CAPTURE, GObject)

const char           *iochart_capture_get_name          (IochartCapture *self);
/* A copy that stays as it is while self changes (a live capture's copy is rewritten by its
 * next updates): for work that outlasts an update, as a what-if run does. The names are
 * self's, held. */
IochartCapture       *iochart_capture_copy              (IochartCapture *self);
guint64               iochart_capture_get_n_events      (IochartCapture *self);
gint64                iochart_capture_get_start_ns      (IochartCapture *self);
gint64                iochart_capture_get_end_ns        (IochartCapture *self);
/* Wall-clock ns since the epoch at the capture's start, or IOCHART_TIME_UNKNOWN. */
gint64                iochart_capture_get_wall_start_ns (IochartCapture *self);

guint                 iochart_capture_get_n_devices     (IochartCapture *self);
const IochartDevice  *iochart_capture_get_device        (IochartCapture *self,
                                                         guint           index);
/* Returns the index of dev, or -1. */
int                   iochart_capture_find_device       (IochartCapture *self,
                                                         guint32         dev);

guint                 iochart_capture_get_n_processes   (IochartCapture *self);
const IochartProcess *iochart_capture_get_process       (IochartCapture *self,
                                                         guint           index);

/* The names a process had, in time order (exec changes comm). */
const IochartComm    *iochart_capture_get_comms         (IochartCapture *self,
                                                         guint           process,
                                                         guint          *n_comms);

/* Whether a process is COMM_OR_PID: its pid in decimal, or any name it had. */
gboolean              iochart_capture_process_matches   (IochartCapture *self,
                                                         guint           process,
                                                         const char     *comm_or_pid);

guint                 iochart_capture_get_n_requests    (IochartCapture *self);
void                  iochart_capture_get_request       (IochartCapture *self,
                                                         guint           index,
                                                         IochartRequest *out);

/* What could not be matched at the capture's edges or because events were lost. */
guint64               iochart_capture_get_n_unmatched_issues      (IochartCapture *self);
guint64               iochart_capture_get_n_unmatched_completions (IochartCapture *self);
guint64               iochart_capture_get_n_requeues               (IochartCapture *self);
/* Events the kernel dropped while recording (ring-buffer overruns), when the capture says. */
guint64               iochart_capture_get_n_lost_events            (IochartCapture *self);

/* btt's own figures: each queued bio from its queue event to the completion of the request it
 * ended in (Q2C), and that request's issue to completion (D2C), min/avg/max per device and per
 * process. Bios that were split are left out, as btt's counts come out. The model keeps requests,
 * not bios, so the builder keeps these as it folds bios into requests. */
typedef struct {
  guint64 n;
  gint64  min_ns;
  gint64  max_ns;
  gint64  sum_ns;
} IochartBttStat;

typedef struct {
  guint32        index;     /* device index */
  const char    *comm;      /* processes: the name, as btt gives it ("<...>" when unknown) */
  IochartBttStat q2c;
  IochartBttStat d2c;
} IochartBttFigures;

/* Per device index (every device, n may be 0), and per process name (btt adds up the processes
 * of one name), in name order. */
guint                    iochart_capture_get_n_btt_devices   (IochartCapture *self);
const IochartBttFigures *iochart_capture_get_btt_device      (IochartCapture *self,
                                                              guint           i);
guint                    iochart_capture_get_n_btt_processes (IochartCapture *self);
const IochartBttFigures *iochart_capture_get_btt_process     (IochartCapture *self,
                                                              guint           i);
/* What a task was doing, from sched_switch and sched_wakeup events. */
typedef enum {
  IOCHART_TASK_UNKNOWN,
  IOCHART_TASK_RUNNING,          /* on a CPU */
  IOCHART_TASK_RUNNABLE,         /* woken or preempted, waiting for a CPU */
  IOCHART_TASK_UNINTERRUPTIBLE,  /* D state: I/O wait when its I/O is outstanding */
  IOCHART_TASK_SLEEPING,         /* S, I, stopped */
  IOCHART_TASK_DEAD,
} IochartTaskState;

/* Whether the capture has task states: from scheduler events (sched_switch), or sampled (the
 * states of a bootchart capture of the same run, every sample period). */
gboolean              iochart_capture_has_task_states   (IochartCapture *self);
gboolean              iochart_capture_task_states_are_sampled (IochartCapture *self);
/* A process's state changes, in time order: the state holds from ns to the next change. */
guint                 iochart_capture_get_n_task_changes (IochartCapture *self,
                                                         guint           process);
void                  iochart_capture_get_task_change   (IochartCapture *self,
                                                         guint           process,
                                                         guint           i,
                                                         gint64         *ns,
                                                         IochartTaskState *state);

/* Warnings a reader gave while loading (lines skipped, CPU files lost...). */
const char * const   *iochart_capture_get_warnings      (IochartCapture *self);

/* Bytes used by the request store, for the memory figures. */
gsize                 iochart_capture_get_request_store_size (IochartCapture *self);
/* Bytes the whole model holds: requests, processes, names and devices. */
gsize                 iochart_capture_get_model_size         (IochartCapture *self);

G_END_DECLS
