/* live-fake-events.h: a fake live source's events (block, fork, exec, exit, ioprio_set, task
 * switches), fed to a live capture's builder as its worker would, or built in one batch: shared
 * by the live capture's tests and the app's. */
#pragma once

#include <string.h>
#include "iochart-live-capture-private.h"

#define DEV IOCHART_DEV_MAKE (7, 0)
#define MS G_GINT64_CONSTANT (1000000)

typedef enum { E_BLOCK, E_FORK, E_EXEC, E_EXIT, E_IOPRIO_SET, E_SWITCH, E_WAKEUP } Kind;

typedef struct {
  Kind               kind;
  gint64             ts;
  IochartBlockAction action;
  guint64            sector;
  guint32            nr;
  IochartOp          op;
  gint32             pid, other, ioprio;
  char               comm[16];
} Ev;

static inline void
apply (IochartBuilder *b, const Ev *e)
{
  IochartBlockEvent be = IOCHART_BLOCK_EVENT_INIT;

  switch (e->kind)
    {
    case E_BLOCK:
      be.ts_ns = e->ts;
      be.dev = DEV;
      be.sector = e->sector;
      be.nr_sector = e->nr;
      be.op = e->op;
      be.flags = IOCHART_RQ_SYNC;
      be.pid = e->pid;
      be.comm = e->comm[0] ? e->comm : NULL;
      be.comm_len = strlen (e->comm);
      be.ioprio = e->ioprio;
      _iochart_builder_block (b, e->action, &be);
      break;
    case E_FORK:
      _iochart_builder_fork (b, e->ts, e->other, e->pid, e->comm);
      break;
    case E_EXEC:
      _iochart_builder_exec (b, e->ts, e->pid, e->comm);
      break;
    case E_EXIT:
      _iochart_builder_exit (b, e->ts, e->pid);
      break;
    case E_IOPRIO_SET:
      _iochart_builder_ioprio_set (b, e->ts, e->pid, 1, 0, e->ioprio);
      break;
    case E_SWITCH:
      _iochart_builder_sched_switch (b, e->ts, e->pid, e->ioprio, e->other);
      break;
    case E_WAKEUP:
      _iochart_builder_sched_wakeup (b, e->ts, e->pid);
      break;
    }
}

static inline int
ev_cmp (gconstpointer a, gconstpointer b)
{
  const Ev *x = a, *y = b;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static inline void
add (GArray *evs, Ev e)
{
  g_array_append_val (evs, e);
}

static inline Ev
blk (gint64 ts, IochartBlockAction action, guint64 sector, guint32 nr, IochartOp op, gint32 pid,
     const char *comm, gint32 ioprio)
{
  Ev e = { .kind = E_BLOCK, .ts = ts, .action = action, .sector = sector, .nr = nr, .op = op,
           .pid = pid, .ioprio = ioprio };
  if (comm != NULL)
    g_strlcpy (e.comm, comm, sizeof e.comm);
  return e;
}

/* Feeds events [from, from + n) through the live capture's builder, as its worker would. */
static inline void
feed (IochartLiveCapture *live, const GArray *evs, guint from, guint n)
{
  IochartBuilder *b = _iochart_live_capture_lock (live);

  for (guint i = 0; i < n; i++)
    apply (b, &g_array_index (evs, Ev, from + i));
  _iochart_live_capture_unlock (live);
}

static inline IochartCapture *
batch_with_rules (const GArray *evs, guint n, const IochartClassRule *rules, guint n_rules)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("fake");

  for (guint i = 0; i < n_rules; i++)
    _iochart_builder_add_rule (b, &rules[i]);
  for (guint i = 0; i < n; i++)
    apply (b, &g_array_index (evs, Ev, i));
  return _iochart_builder_finish (b);
}

static inline IochartCapture *
batch (const GArray *evs, guint n)
{
  return batch_with_rules (evs, n, NULL, 0);
}

