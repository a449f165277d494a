/* sim-hand.h: hand-made block workloads for the policies' unit tests
 *
 * Events (fork, exec, exit, Q/I/D/C of a request) are put in any order, sorted by time and fed to
 * the capture builder, as a reader of a trace would. A read's completion comes after its service
 * on a 7200 rpm disk (slowdisk's model) behind the last request of the same generator, as if the
 * process ran alone: the closed-loop replay keeps only each process's own gaps.
 */
#pragma once

#include <math.h>
#include <string.h>
#include "iochart-capture-private.h"

#define SYNTH_DEV IOCHART_DEV_MAKE (8, 0)
#ifndef SYNTH_MS
#define SYNTH_MS G_GINT64_CONSTANT (1000000)
#endif

typedef enum { S_FORK, S_EXEC, S_EXIT, S_Q, S_I, S_D, S_C } SynthKind;

typedef struct {
  gint64    ts;
  guint64   seq;
  SynthKind kind;
  gint32    pid, ppid;
  guint64   sector;
  guint32   nr;
  const char *rwbs;
  const char *comm;
  gint32    ioprio;
} SynthEvent;

typedef struct {
  GArray  *events;
  guint64  seq;
  gint32   next_pid;
  guint64  head;              /* this reader's disk head, for its alone timing */
} Synth;

static inline void
synth_put (Synth *s, SynthEvent e)
{
  e.seq = s->seq++;
  g_array_append_val (s->events, e);
}

/* The slowdisk / 7200 rpm model the simulator's hdd model uses, on a 4 GiB disk. */
static inline gint64
synth_service_ns (Synth *s, guint64 sector, guint32 nr)
{
  double ms = 0.1 + nr * 512.0 / (120.0 * 1024 * 1024) * 1000;

  if (sector != s->head)
    ms += 1.5 + 7 * sqrt (fabs ((double) sector - (double) s->head) / (8.0 * 1024 * 1024)) + 4.17;
  s->head = sector + nr;
  return (gint64) (ms * 1e6);
}

/* A sync read Q/I/D at t, completed after its alone service; returns the completion. */
static inline gint64
synth_read (Synth *s, gint64 t, gint32 pid, const char *comm, guint64 sector, guint32 nr,
            const char *rwbs, gint32 ioprio)
{
  gint64 done = t + synth_service_ns (s, sector, nr);

  synth_put (s, (SynthEvent) { .ts = t, .kind = S_Q, .pid = pid, .sector = sector, .nr = nr, .rwbs = rwbs, .comm = comm, .ioprio = ioprio });
  synth_put (s, (SynthEvent) { .ts = t + 2000, .kind = S_I, .pid = pid, .sector = sector, .nr = nr, .rwbs = rwbs, .comm = comm, .ioprio = ioprio });
  synth_put (s, (SynthEvent) { .ts = t + 4000, .kind = S_D, .pid = pid, .sector = sector, .nr = nr, .rwbs = rwbs, .comm = comm, .ioprio = ioprio });
  synth_put (s, (SynthEvent) { .ts = done, .kind = S_C, .pid = -1, .sector = sector, .nr = nr, .rwbs = rwbs, .ioprio = ioprio });
  return done;
}

static inline int
synth_event_cmp (gconstpointer a, gconstpointer b)
{
  const SynthEvent *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline void
synth_feed (IochartBuilder *b, const SynthEvent *e)
{
  static const IochartBlockAction actions[] = { [S_Q] = IOCHART_BLOCK_QUEUE, [S_I] = IOCHART_BLOCK_INSERT,
                                                [S_D] = IOCHART_BLOCK_ISSUE, [S_C] = IOCHART_BLOCK_COMPLETE };
  IochartBlockEvent be = IOCHART_BLOCK_EVENT_INIT;
  IochartOp op;
  guint8 flags;

  switch (e->kind)
    {
    case S_FORK:
      _iochart_builder_fork (b, e->ts, e->ppid, e->pid, e->comm);
      return;
    case S_EXEC:
      _iochart_builder_exec (b, e->ts, e->pid, "/usr/bin/cat");
      _iochart_builder_comm (b, e->ts, e->pid, e->comm, strlen (e->comm));
      return;
    case S_EXIT:
      _iochart_builder_exit (b, e->ts, e->pid);
      return;
    default:
      break;
    }
  iochart_rwbs_parse (e->rwbs, strlen (e->rwbs), &op, &flags);
  be.ts_ns = e->ts;
  be.dev = SYNTH_DEV;
  be.sector = e->sector;
  be.nr_sector = e->nr;
  be.op = op;
  be.flags = flags;
  be.pid = e->pid;
  be.comm = e->comm;
  be.comm_len = e->comm ? strlen (e->comm) : 0;
  be.ioprio = e->ioprio;
  _iochart_builder_block (b, actions[e->kind], &be);
}

/* A capture of what fill puts. */
static inline IochartCapture *
hand_capture (void (*fill) (Synth *s))
{
  Synth s = { .events = g_array_new (FALSE, FALSE, sizeof (SynthEvent)), .next_pid = 2000 };
  IochartBuilder *b = _iochart_builder_new ("hand");
  IochartCapture *c;

  fill (&s);
  g_array_sort (s.events, synth_event_cmp);
  for (guint i = 0; i < s.events->len; i++)
    synth_feed (b, &g_array_index (s.events, SynthEvent, i));
  c = _iochart_builder_finish (b);
  _iochart_builder_free (b);
  g_array_unref (s.events);
  return c;
}
