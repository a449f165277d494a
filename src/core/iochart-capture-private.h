/* iochart-capture-private.h: how readers fill a capture
 *
 * A reader turns its format into calls on an IochartBuilder, in time order. The builder alone
 * rebuilds request lives, attributes them to processes and decides priority classes, so every
 * format gets the same model and nothing is matched twice.
 */
#pragma once

#include <string.h>

#include <gio/gio.h>
#include "iochart-capture.h"
#include "iochart-error.h"
#include "iochart-loader.h"
#include "readers/iochart-sched-notes.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_BLOCK_QUEUE,        /* bio queued (blktrace Q, block_bio_queue) */
  IOCHART_BLOCK_BACKMERGE,    /* bio merged at the back of a request (M) */
  IOCHART_BLOCK_FRONTMERGE,   /* bio merged at the front of a request (F) */
  IOCHART_BLOCK_GETRQ,        /* G */
  IOCHART_BLOCK_SLEEPRQ,      /* S */
  IOCHART_BLOCK_REQUEUE,      /* R */
  IOCHART_BLOCK_INSERT,       /* I */
  IOCHART_BLOCK_ISSUE,        /* D */
  IOCHART_BLOCK_COMPLETE,     /* C */
  IOCHART_BLOCK_RQ_MERGE,     /* a request merged into another (block_rq_merge) */
  IOCHART_BLOCK_PLUG,         /* P */
  IOCHART_BLOCK_UNPLUG,       /* U, UT */
  IOCHART_BLOCK_SPLIT,        /* X */
  IOCHART_BLOCK_BOUNCE,       /* B */
  IOCHART_BLOCK_REMAP,        /* A */
  IOCHART_BLOCK_OTHER,
} IochartBlockAction;

typedef struct {
  gint64      ts_ns;
  guint32     dev;           /* MAJ << 20 | MIN */
  guint64     sector;
  guint32     nr_sector;
  guint32     bytes;         /* 0: nr_sector * 512 */
  guint8      op;            /* IochartOp, from iochart_rwbs_parse() */
  guint8      flags;         /* IochartRqFlags */
  gint32      pid;           /* -1 when unknown */
  const char *comm;          /* NULL when the event has none (block_rq_complete) */
  gsize       comm_len;      /* bytes of comm to use; comm need not be NUL-terminated */
  gint32      ioprio;        /* the event's ioprio field, -1 when the event has none */
  gint32      error;         /* completions: negative errno */
} IochartBlockEvent;

#define IOCHART_BLOCK_EVENT_INIT { .pid = -1, .ioprio = -1 }

/* Whether _iochart_builder_block() does no more with a record of this action than count it and
 * name its pid's process with the record's comm (G, S, P, U, B, A tell nothing about a request's
 * life that the others do not): a second such record of a pid changes nothing but the count
 * while nothing has renamed the pid's process or given the pid another since the first (the
 * blktrace merge counts those, never handing them on). */
static inline gboolean
_iochart_block_action_names_only (IochartBlockAction action)
{
  switch (action)
    {
    case IOCHART_BLOCK_QUEUE:
    case IOCHART_BLOCK_BACKMERGE:
    case IOCHART_BLOCK_FRONTMERGE:
    case IOCHART_BLOCK_RQ_MERGE:
    case IOCHART_BLOCK_INSERT:
    case IOCHART_BLOCK_ISSUE:
    case IOCHART_BLOCK_REQUEUE:
    case IOCHART_BLOCK_COMPLETE:
    case IOCHART_BLOCK_SPLIT:
      return FALSE;
    default:
      return TRUE;
    }
}

typedef struct _IochartBuilder IochartBuilder;

IochartBuilder *_iochart_builder_new          (const char        *name);
void            _iochart_builder_free         (IochartBuilder    *b);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartBuilder, _iochart_builder_free)

void            _iochart_builder_set_progress (IochartBuilder    *b,
                                               IochartLoadProgress func,
                                               gpointer           user_data);
/* Readers report how far they are through their input, 0..1. */
void            _iochart_builder_progress     (IochartBuilder    *b,
                                               double             fraction);
void            _iochart_builder_warn         (IochartBuilder    *b,
                                               const char        *format,
                                               ...) G_GNUC_PRINTF (2, 3);
/* Makes room for about n requests up front, so that the store is not copied as it grows. */
void            _iochart_builder_reserve      (IochartBuilder    *b,
                                               guint              n_requests);
/* Asks the kernel to map a whole read-only file mapping at once and read ahead: one fault
 * per page costs more than decoding the page on a virtual machine. */
void            _iochart_map_for_reading      (const void        *data,
                                               gsize              len);

/* The wall clock: epoch ns = trace ns + offset_ns (blktrace TIMESTAMP notes). */
void            _iochart_builder_wall_clock   (IochartBuilder    *b,
                                               gint64             offset_ns);

/* Events the recording lost (ring-buffer overruns); the largest figure given is kept, since
 * a file's CPU stats and its pages' lost-event marks count the same losses. */
void            _iochart_builder_lost_events  (IochartBuilder    *b,
                                               guint64            n);

/* sched_switch: prev_pid leaves the CPU in prev_state (RUNNABLE when preempted), next_pid
 * takes it. sched_wakeup / sched_wakeup_new: pid becomes runnable. Pid 0 (idle) is ignored. */
void            _iochart_builder_sched_switch (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             prev_pid,
                                               IochartTaskState   prev_state,
                                               gint32             next_pid);
void            _iochart_builder_sched_wakeup (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             pid);
/* The kernel's prev_state bits (TASK_REPORT) as a task state. */
IochartTaskState _iochart_task_state_from_kernel (guint64         prev_state);

/* Counts records read that carry no block, sched or ioprio information. */
void            _iochart_builder_add_events   (IochartBuilder    *b,
                                               guint64            n);

/* n records that a reader found to tell nothing (scheduler notes no class can come from), all
 * at times in [first_ns, last_ns] within [0, IOCHART_TIME_MAX_NS): counted, and in the capture's
 * span, as if each had been handed on. */
void            _iochart_builder_quiet_events (IochartBuilder    *b,
                                               guint64            n,
                                               gint64             first_ns,
                                               gint64             last_ns);
void            _iochart_builder_block        (IochartBuilder    *b,
                                               IochartBlockAction action,
                                               const IochartBlockEvent *ev);
void            _iochart_builder_device_name  (IochartBuilder    *b,
                                               guint32            dev,
                                               const char        *name);

/* A name seen for a pid at a time (blktrace PROCESS notes, task names of text lines). */
void            _iochart_builder_comm         (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             pid,
                                               const char        *comm,
                                               gsize              comm_len);
void            _iochart_builder_fork         (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             parent_pid,
                                               gint32             child_pid,
                                               const char        *child_comm);
void            _iochart_builder_exec         (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             pid,
                                               const char        *filename);
void            _iochart_builder_exit         (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             pid);
/* syscalls:sys_enter_ioprio_set: which (1 process, 2 pgrp, 3 user), who, ioprio. */
void            _iochart_builder_ioprio_set   (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             caller_pid,
                                               gint32             which,
                                               gint32             who,
                                               guint32            ioprio);
/* A class learnt from elsewhere (scheduler notes): applies from ts_ns on to pid's requests
 * that have no ioprio field. */
void            _iochart_builder_hint_class   (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               gint32             pid,
                                               IochartClass       klass,
                                               guint8             level,
                                               IochartClassSource source);
/* A scheduler's note that the reader parsed itself with a tracker of its own
 * (iochart_sched_note_track() said TRUE): what _iochart_builder_message() does after parsing. */
void            _iochart_builder_sched_note   (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               const IochartSchedNote *note);

/* Whether a parsed note tells the builder about a process; one that does not (BFQ's "bfq0A
 * new_ioprio", whose queue the tracker names at the next note) only counts as an event. */
static inline gboolean
_iochart_sched_note_is_about_process (const IochartSchedNote *note)
{
  return note->pid > 0;
}

/* A scheduler's text note (blktrace MESSAGE, `m N ...` lines). */
void            _iochart_builder_message      (IochartBuilder    *b,
                                               gint64             ts_ns,
                                               guint32            dev,
                                               gint32             pid,
                                               const char        *text,
                                               gsize              len);


void            _iochart_builder_add_rule     (IochartBuilder    *b,
                                               const IochartClassRule *rule);

/* Ends matching, computes per-process figures and returns the finished capture. */
IochartCapture *_iochart_builder_finish       (IochartBuilder    *b);

G_END_DECLS

/* ---- The capture's store, shared by the builder and the capture's accessors ---- */

G_BEGIN_DECLS

/* 48-bit signed offsets from the capture's base time: +-39 hours in ns, unknown = most negative. */
#define IOCHART_T48_UNKNOWN G_GINT64_CONSTANT (-0x800000000000)

/* One request as stored: 48 bytes. Sizes are checked by a static assert. */
typedef struct {
  guint64 sector;
  guint32 bytes;
  guint32 process;
  guint8  t[4][6];           /* queue, insert, issue, complete */
  guint16 device;
  guint8  op_flags;          /* op in bits 0-2, IochartRqFlags << 3 */
  guint8  prio;              /* class in bits 0-2, level in bits 3-5 */
  guint8  error;             /* -errno */
  guint8  counts;            /* issues in bits 0-3, requeues in bits 4-7, both saturating */
  guint16 merges_source;     /* merges in bits 0-11 (saturating), IochartClassSource in 12-15 */
} IochartRequestRec;

G_STATIC_ASSERT (sizeof (IochartRequestRec) == 48);

/* One task state change as stored: 12 bytes, the time as a 48-bit offset like requests'. */
typedef struct {
  guint32 process;
  guint8  t[6];
  guint8  state;             /* IochartTaskState */
  guint8  unused;
} IochartTaskRec;

G_STATIC_ASSERT (sizeof (IochartTaskRec) == 12);
G_STATIC_ASSERT (sizeof (IochartProcess) == 64);

enum { IOCHART_T_QUEUE, IOCHART_T_INSERT, IOCHART_T_ISSUE, IOCHART_T_COMPLETE };

struct _IochartCapture {
  GObject      parent_instance;
  char        *name;
  GStringChunk *strings;     /* interned comms and names */
  GHashTable  *interned;     /* const char* -> same, for dedup */
  gsize        string_bytes;
  IochartCapture *strings_owner; /* held: a capture whose strings the names point into (a
                              * simulated run borrows the observed capture's), or NULL */
  GArray      *devices;      /* IochartDevice */
  GArray      *processes;    /* IochartProcess */
  GArray      *comms;        /* IochartComm, grouped by process */
  GArray      *requests;     /* IochartRequestRec */
  gint64       base_ns;
  gint64       wall_offset_ns;   /* epoch ns - trace ns, IOCHART_TIME_UNKNOWN when unknown */
  gint64       start_ns;
  gint64       end_ns;
  guint64      n_events;
  guint64      unmatched_issues;
  guint64      unmatched_completions;
  guint64      requeues;
  guint64      lost_events;  /* dropped by the kernel while recording */
  gboolean     has_tasks;    /* sched_switch events were read, or samples lent states */
  gboolean     sampled_tasks;
  GArray      *tasks;        /* IochartTaskRec; by process, then time, once finished */
  GArray      *task_index;   /* guint32 per process + 1: each process's first record in tasks */
  GPtrArray   *task_lists;   /* live snapshots instead: a GArray of IochartTaskRec per process */
  guint64      n_listed_tasks;
  GPtrArray   *warnings;     /* char*, NULL-terminated on finish */
  GArray      *ambiguous;    /* guint32 processes whose notes said "idle or be 7" */
  GArray      *btt_devices;  /* IochartBttFigures per device index */
  GArray      *btt_processes;/* IochartBttFigures of processes with a sample, by index */
};

const char *_iochart_capture_intern     (IochartCapture *self, const char *s, gssize len);

/* The 48-bit times are read and written for every request by every analysis and by the
 * builder: inline, six bytes at once rather than a call and a byte loop. */
static inline gint64
_iochart_t48_get (const IochartCapture *self, const guint8 b[6])
{
  guint32 lo;
  guint16 hi;
  gint64 v;

  memcpy (&lo, b, 4);
  memcpy (&hi, b + 4, 2);
  v = (gint64) ((guint64) GUINT16_FROM_LE (hi) << 48 | (guint64) GUINT32_FROM_LE (lo) << 16) >> 16;
  if (v == IOCHART_T48_UNKNOWN)
    return IOCHART_TIME_UNKNOWN;
  return self->base_ns + v;
}

static inline void
_iochart_t48_set (IochartCapture *self, guint8 b[6], gint64 ns)
{
  gint64 v = IOCHART_T48_UNKNOWN;
  guint32 lo;
  guint16 hi;

  if (ns != IOCHART_TIME_UNKNOWN)
    {
      if (self->base_ns == IOCHART_TIME_UNKNOWN)
        self->base_ns = ns;
      v = ns - self->base_ns;
      /* Beyond +-39 h of the first event: clamp rather than wrap. */
      v = CLAMP (v, IOCHART_T48_UNKNOWN + 1, -IOCHART_T48_UNKNOWN - 1);
    }
  lo = GUINT32_TO_LE ((guint32) v);
  hi = GUINT16_TO_LE ((guint16) ((guint64) v >> 32));
  memcpy (b, &lo, 4);
  memcpy (b + 4, &hi, 2);
}

static inline gint64
_iochart_rec_get_time (const IochartCapture *self, const IochartRequestRec *rec, guint which)
{
  return _iochart_t48_get (self, rec->t[which]);
}

static inline void
_iochart_rec_set_time (IochartCapture *self, IochartRequestRec *rec, guint which, gint64 ns)
{
  _iochart_t48_set (self, rec->t[which], ns);
}

/* iochart_capture_get_request() without its checks (a type check is a third of its cost), for
 * loops over every request. */
static inline void
_iochart_rec_unpack (const IochartCapture *self, const IochartRequestRec *rec, IochartRequest *out)
{
  out->queue_ns = _iochart_rec_get_time (self, rec, IOCHART_T_QUEUE);
  out->insert_ns = _iochart_rec_get_time (self, rec, IOCHART_T_INSERT);
  out->issue_ns = _iochart_rec_get_time (self, rec, IOCHART_T_ISSUE);
  out->complete_ns = _iochart_rec_get_time (self, rec, IOCHART_T_COMPLETE);
  out->sector = rec->sector;
  out->bytes = rec->bytes;
  out->process = rec->process;
  out->device = rec->device;
  out->op = rec->op_flags & 7;
  out->flags = rec->op_flags >> 3;
  out->klass = rec->prio & 7;
  out->level = (rec->prio >> 3) & 7;
  out->class_source = rec->merges_source >> 12;
  out->issues = rec->counts & 15;
  out->requeues = rec->counts >> 4;
  out->merges = rec->merges_source & 0xfff;
  out->error = -(gint16) rec->error;
}
/* iochart_capture_get_request() unchecked: the analyses' walks over every request. */
static inline void
_iochart_capture_unpack (const IochartCapture *self, guint index, IochartRequest *out)
{
  _iochart_rec_unpack (self, &((const IochartRequestRec *) self->requests->data)[index], out);
}
/* What a process's requests add up to, by class: its figures and its class follow from it.
 * Requests are added (sign 1) and taken away again (-1) as a live window moves. */
typedef struct {
  guint64 requests, bytes;
  guint64 class_requests[IOCHART_N_CLASSES];
  guint64 class_bytes[IOCHART_N_CLASSES];
  guint64 source_bytes[IOCHART_N_CLASSES][IOCHART_N_CLASS_SOURCES];
  guint64 level_bytes[IOCHART_N_CLASSES][8];
} IochartProcTally;

void        _iochart_proc_tally_add     (IochartProcTally *t, const IochartRequestRec *rec, gint sign);
void        _iochart_proc_tally_apply   (const IochartProcTally *t, IochartProcess *p);
/* Recomputes each process's requests, bytes and class from the requests (after their classes
 * changed, e.g. from a side capture). */
void        _iochart_capture_retally    (IochartCapture *self);
/* Warns about processes whose class the scheduler's notes left ambiguous and nothing else told. */
void        _iochart_capture_warn_ambiguous (IochartCapture *self);
/* Sorts the task records by process, keeping each one's time order, and indexes them. */
void        _iochart_capture_group_tasks (IochartCapture *self);
/* Task states learnt elsewhere (bootchart samples) for a finished capture; each process's
 * records must come in time order. */
void        _iochart_capture_add_task_states (IochartCapture *self, const IochartTaskRec *recs, guint n);
/* Adds a warning (taking text) to a capture, finished or not. */
void        _iochart_capture_add_warning (IochartCapture *self, char *text);

G_END_DECLS

G_BEGIN_DECLS

/* Live use (iochart-live-capture.c): the capture as built so far, before finish. Requests are
 * numbered from the first one ever made; those below base were forgotten. */
IochartCapture *_iochart_builder_peek         (IochartBuilder    *b);
guint32         _iochart_builder_get_base     (IochartBuilder    *b);
guint32         _iochart_builder_get_end      (IochartBuilder    *b);
/* NULL for a request merged into another (it is no request of the finished capture). */
const IochartRequestRec *_iochart_builder_get_request (IochartBuilder *b,
                                               guint32            rq,
                                               gboolean          *in_flight);
/* The first request that may still change: all before it are complete or dead. */
guint32         _iochart_builder_settle       (IochartBuilder    *b);
/* Requests first seen before before_ns and still waiting or in flight stop being matched (a
 * bio-based device's bios never complete): they stay as they are and count as settled. */
void            _iochart_builder_expire       (IochartBuilder    *b,
                                               gint64             before_ns);
/* Drops the records of settled requests below upto. */
void            _iochart_builder_forget       (IochartBuilder    *b,
                                               guint32            upto);
/* dst->processes holds a copy of the builder's: gives them their classes from hints (as
 * finish does before the tally) and lays out their name histories in dst. */
/* btt's figures so far into dst (a live snapshot), as the finished capture gives them. */
void            _iochart_builder_snapshot_btt (IochartBuilder  *b,
                                               IochartCapture  *dst);
/* User class rules: whether there are any; the first that matches a process of c (with the
 * names c holds for it), -1 when none; and a request given rule r's class when nothing else
 * told it (r -1: none; a class an earlier rule gave is replaced). */
gboolean        _iochart_builder_has_rules    (IochartBuilder  *b);
gint32          _iochart_builder_rule_of      (IochartBuilder  *b,
                                               IochartCapture  *c,
                                               guint            process);
void            _iochart_builder_apply_rule   (IochartBuilder  *b,
                                               gint32           rule,
                                               IochartRequestRec *rec);
/* A live window forgets processes: remap[i] is process i's new index (in order) or
 * IOCHART_NO_PROCESS to drop it; what the builder still holds must name none of those. btt's
 * figures of the dropped ones stay, by name. */
/* Marks in in_use (a flag per process) those that requests the builder still holds name. */
void            _iochart_builder_processes_in_use (IochartBuilder *b,
                                               gboolean        *in_use);
void            _iochart_builder_drop_processes (IochartBuilder *b,
                                               const guint32   *remap);
void            _iochart_builder_snapshot_names (IochartBuilder  *b,
                                               IochartCapture    *dst);


G_END_DECLS
