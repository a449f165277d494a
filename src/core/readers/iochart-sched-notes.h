/* iochart-sched-notes.h: what CFQ and BFQ notes say about a queue's priority
 *
 * CFQ names the class it serves when it activates a queue: "cfq123S set_active wl_class:2
 * wl_type:1" (its own enum: BE 0, RT 1, IDLE 2; "wl_prio:" before 3.x), never the level.
 * BFQ names a level and a weight, never the class: "bfq0A new_ioprio 7 new_weight 10". The
 * weight is (8 - level) * 10 for every class, so level 7 is BE 7 or IDLE (ambiguous), and any
 * other level is BE (or RT, which the note cannot tell apart: RT is taken to be absent).
 *
 * BFQ prints new_ioprio while it sets up a new queue, before it gives the queue its pid and its
 * sync flag: so the note reads "bfq0A" whatever the queue, and the very next note from the same
 * task, "bfq25860S allocated", names the queue it was about. iochart_sched_note_track() pairs
 * the two; iochart_sched_note_parse() sees one note alone.
 */
#pragma once

#include "iochart-types.h"

G_BEGIN_DECLS

typedef struct {
  gint32       pid;          /* the queue's pid; 0 for BFQ's "bfq0A" notes, -1 for shared queues */
  gboolean     sync;         /* S or A queue */
  IochartClass klass;        /* IOCHART_CLASS_UNKNOWN when the note does not tell */
  guint8       level;
  gboolean     has_level;
  gboolean     ambiguous;    /* BFQ weight 10 / level 7: BE 7 and IDLE look the same */
} IochartSchedNote;

/* Parses one scheduler message ("bfq25859S add_request 1", "cfq123S set_active wl_class:0 ...").
 * Returns TRUE when the note is about a queue; klass/level are filled when it tells them. */
gboolean iochart_sched_note_parse (const char       *text,
                                   gsize             len,
                                   IochartSchedNote *note);

/* Remembers BFQ's unnamed new_ioprio notes per device until the queue they were about is named. */
typedef struct {
  struct {
    guint32          dev;
    gint32           ctx_pid;   /* the task that ran the note: 0 is a free slot */
    IochartSchedNote note;
  } pending[8];
  guint  next;
  guint8 live;        /* bit i: pending[i] waits (most of the time none does) */
} IochartSchedNoteTracker;

#define IOCHART_SCHED_NOTE_TRACKER_INIT { 0 }

/* Like iochart_sched_note_parse(), for a note on dev run by ctx_pid (the record's pid). When
 * the note is BFQ's "bfqPID[SA] allocated" right after a "bfq0A new_ioprio" from the same task
 * on the same device, the returned note carries that class and level for PID. */
gboolean iochart_sched_note_track (IochartSchedNoteTracker *tracker,
                                   guint32                  dev,
                                   gint32                   ctx_pid,
                                   const char              *text,
                                   gsize                    len,
                                   IochartSchedNote        *note);

/* Cheap: whether a note can tell a class at all (a BFQ level, CFQ's workload class, or the note
 * that names the queue of a level just seen). Schedulers write a dozen notes a request; the rest
 * need not be parsed. */
gboolean iochart_sched_note_may_tell_class (const IochartSchedNoteTracker *tracker,
                                            guint32                        dev,
                                            gint32                         ctx_pid,
                                            const char                    *text,
                                            gsize                          len);

G_END_DECLS
