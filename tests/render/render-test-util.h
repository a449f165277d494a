/* render-test-util.h: captures made through the builder, as the readers make them */
#pragma once

#include <string.h>
#include "iochart-capture-private.h"

#define DEV_LOOP IOCHART_DEV_MAKE (7, 0)
#define DEV_VDA  IOCHART_DEV_MAKE (254, 0)
#define MS       G_GINT64_CONSTANT (1000000)

/* One request's life; times in ns, insert < 0 means no insert event. */
typedef struct {
  guint32     dev;
  guint64     sector;
  guint32     nr;
  const char *rwbs;
  gint32      pid;
  const char *comm;
  IochartClass klass;
  gint64      queue, insert, issue, complete;
} TestRq;

/* A fork (child > 0) or an exit (child == 0) of pid. */
typedef struct {
  gint64      ts;
  gint32      pid;
  gint32      child;
  const char *comm;
} TestProc;

typedef struct {
  gint64            ts;
  IochartBlockAction action;
  const TestRq     *rq;
  const TestProc   *proc;
} TestEv;

static int
test_ev_cmp (gconstpointer a, gconstpointer b)
{
  const TestEv *x = a, *y = b;
  return x->ts < y->ts ? -1 : x->ts > y->ts ? 1 : (int) x->action - (int) y->action;
}

static void
test_feed (IochartBuilder *b, const TestRq *rqs, guint n, const TestProc *procs, guint n_procs)
{
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (TestEv));

  for (guint i = 0; i < n_procs; i++)
    {
      TestEv p = { procs[i].ts, IOCHART_BLOCK_OTHER, NULL, &procs[i] };
      g_array_append_val (evs, p);
    }

  for (guint i = 0; i < n; i++)
    {
      TestEv q = { rqs[i].queue, IOCHART_BLOCK_QUEUE, &rqs[i], NULL };
      TestEv in = { rqs[i].insert, IOCHART_BLOCK_INSERT, &rqs[i], NULL };
      TestEv d = { rqs[i].issue, IOCHART_BLOCK_ISSUE, &rqs[i], NULL };
      TestEv c = { rqs[i].complete, IOCHART_BLOCK_COMPLETE, &rqs[i], NULL };

      g_array_append_val (evs, q);
      if (rqs[i].insert >= 0)
        g_array_append_val (evs, in);
      g_array_append_val (evs, d);
      g_array_append_val (evs, c);
    }
  g_array_sort (evs, test_ev_cmp);
  for (guint i = 0; i < evs->len; i++)
    {
      const TestEv *e = &g_array_index (evs, TestEv, i);
      IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
      IochartOp op;
      guint8 flags;

      if (e->proc)
        {
          if (e->proc->child > 0)
            _iochart_builder_fork (b, e->ts, e->proc->pid, e->proc->child, e->proc->comm);
          else
            _iochart_builder_exit (b, e->ts, e->proc->pid);
          continue;
        }
      iochart_rwbs_parse (e->rq->rwbs, strlen (e->rq->rwbs), &op, &flags);
      ev.ts_ns = e->ts;
      ev.dev = e->rq->dev;
      ev.sector = e->rq->sector;
      ev.nr_sector = e->rq->nr;
      ev.op = op;
      ev.flags = flags;
      if (e->action == IOCHART_BLOCK_QUEUE || e->action == IOCHART_BLOCK_INSERT)
        {
          ev.pid = e->rq->pid;
          ev.comm = e->rq->comm;
          ev.comm_len = strlen (e->rq->comm);
        }
      if (e->action != IOCHART_BLOCK_QUEUE)
        ev.ioprio = IOCHART_IOPRIO_MAKE (e->rq->klass, e->rq->klass == IOCHART_CLASS_IDLE ? 7 : 4);
      _iochart_builder_block (b, e->action, &ev);
    }
}

static IochartCapture *
test_capture_full (const TestRq *rqs, guint n, const TestProc *procs, guint n_procs)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");

  test_feed (b, rqs, n, procs, n_procs);
  return _iochart_builder_finish (b);
}

static G_GNUC_UNUSED IochartCapture *
test_capture (const TestRq *rqs, guint n)
{
  return test_capture_full (rqs, n, NULL, 0);
}
