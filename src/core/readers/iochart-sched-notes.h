/* iochart-sched-notes.h: what CFQ and BFQ notes say about a queue's priority */
#pragma once

#include "iochart-types.h"

G_BEGIN_DECLS

typedef struct {
  gint32       pid;          /* the queue's pid; 0 for BFQ's shared async queues (bfq0A) */
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

G_END_DECLS
