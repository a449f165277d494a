/* synthetic-requests.h: random captures for the index tests (test-bin-index.c,
 * test-lane-index.c): requests with short, long, instant, unfinished, unqueued and never-issued
 * lives on two devices, fed to the builder in time order with their processes' forks and exits. */
#pragma once

#include <math.h>
#include <string.h>
#include "iochart-capture-private.h"

typedef enum { EV_BLOCK, EV_FORK, EV_EXIT } EvKind;

/* One event: a block action of request rq (kind EV_BLOCK, the zero), or a fork or exit of pid. */
typedef struct {
  gint64             ts;
  IochartBlockAction action;
  guint              rq;
  EvKind             kind;
  gint32             pid, parent;
} Ev;

typedef struct {
  guint32   dev;
  guint64   sector;
  guint32   nr;
  IochartOp op;
  gint32    pid;
  gint32    ioprio;
} Life;

/* At one time: forks, then block actions, then exits. */
static inline int
ev_cmp (gconstpointer a, gconstpointer b)
{
  static const int rank[] = { [EV_FORK] = 0, [EV_BLOCK] = 1, [EV_EXIT] = 2 };
  const Ev *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  if (x->kind != y->kind)
    return rank[x->kind] < rank[y->kind] ? -1 : 1;
  if (x->action != y->action)
    return x->action < y->action ? -1 : 1;
  return x->rq < y->rq ? -1 : x->rq > y->rq;
}

/* A duration: mostly tens of µs to ms, 5% zero, long_share of them seconds (some over 4.3 s). */
static inline gint64
random_span (GRand *r, double long_share)
{
  double u = g_rand_double (r);

  if (u < 0.05)
    return 0;
  if (u < 0.05 + long_share)
    return g_rand_int_range (r, 1, 6000) * G_GINT64_CONSTANT (1000000);
  return (gint64) exp (g_rand_double_range (r, log (1000), log (5e7)));
}

/* Sorts evs and feeds them to b: lives[rq]'s block actions, and forks and exits; comm_of names
 * a pid. */
static inline void
feed_events (IochartBuilder *b, GArray *evs, const Life *lives, const char *(*comm_of) (gint32 pid))
{
  g_array_sort (evs, ev_cmp);
  for (guint e = 0; e < evs->len; e++)
    {
      const Ev *ev = &g_array_index (evs, Ev, e);
      IochartBlockEvent be = IOCHART_BLOCK_EVENT_INIT;
      const Life *l;

      if (ev->kind == EV_FORK)
        {
          _iochart_builder_fork (b, ev->ts, ev->parent, ev->pid, comm_of (ev->pid));
          continue;
        }
      if (ev->kind == EV_EXIT)
        {
          _iochart_builder_exit (b, ev->ts, ev->pid);
          continue;
        }
      l = &lives[ev->rq];
      be.ts_ns = ev->ts;
      be.dev = l->dev;
      be.sector = l->sector;
      be.nr_sector = l->nr;
      be.op = l->op;
      be.pid = l->pid;
      be.comm = comm_of (l->pid);
      be.comm_len = strlen (be.comm);
      be.ioprio = ev->action == IOCHART_BLOCK_QUEUE ? -1 : l->ioprio;
      _iochart_builder_block (b, ev->action, &be);
    }
}

/* tree_capture: processes in a tree; short-lived children fold into their parents. */
static inline const char *
tree_comm (gint32 pid)
{
  static const char * const names[] = { "find", "make", "tar", "rsync", "cat", "cc1" };

  return names[pid % G_N_ELEMENTS (names)];
}

#define N_LONG 30
#define N_SHORT 300

static inline void
tree_add_request (GRand *r, GArray *evs, Life *l, guint i, gint32 pid, gint64 t)
{
  static const IochartOp ops[] = { IOCHART_OP_READ, IOCHART_OP_READ, IOCHART_OP_WRITE, IOCHART_OP_DISCARD,
                                   IOCHART_OP_FLUSH };
  gboolean queued = g_rand_double (r) < 0.9, issued = g_rand_double (r) < 0.98,
           done = g_rand_double (r) < 0.97;
  guint klass = g_rand_int_range (r, 0, 4);

  l->dev = IOCHART_DEV_MAKE (8, g_rand_double (r) < 0.8 ? 0 : 16);
  l->sector = (guint64) i * 4096;
  l->op = ops[g_rand_int_range (r, 0, G_N_ELEMENTS (ops))];
  l->nr = l->op == IOCHART_OP_FLUSH ? 0 : 8 * g_rand_int_range (r, 1, 64);
  l->pid = pid;
  /* a process keeps mostly one class */
  l->ioprio = g_rand_double (r) < 0.8 ? (gint32) IOCHART_IOPRIO_MAKE (1 + pid % 3, 4)
              : klass == 0 ? -1 : (gint32) IOCHART_IOPRIO_MAKE (klass, 4);
  if (queued)
    g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_QUEUE, i }));
  t += random_span (r, 0.02) / 8;
  g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_INSERT, i }));
  if (!issued)
    return;
  t += random_span (r, 0.02) / 2;
  g_array_append_val (evs, ((Ev) { t, IOCHART_BLOCK_ISSUE, i }));
  if (done)
    g_array_append_val (evs, ((Ev) { t + random_span (r, 0.02), IOCHART_BLOCK_COMPLETE, i }));
}

static inline IochartCapture *
tree_capture (guint32 seed, guint n)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (seed);
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("tree");
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autofree Life *lives = g_new0 (Life, n);
  gint64 span = G_GINT64_CONSTANT (20000000000);   /* 20 s */
  gint64 child_start[N_SHORT], child_life[N_SHORT];
  guint i = 0;

  for (guint p = 0; p < N_LONG; p++)
    g_array_append_val (evs, ((Ev) { 0, 0, 0, EV_FORK, 100 + p, 1 }));
  for (guint c = 0; c < N_SHORT; c++)
    {
      child_start[c] = g_rand_int_range (r, 1, 1900000) * G_GINT64_CONSTANT (10000);
      child_life[c] = g_rand_int_range (r, 1, 500) * G_GINT64_CONSTANT (100000);
      g_array_append_val (evs, ((Ev) { child_start[c], 0, 0, EV_FORK, 1000 + c, 100 + c % N_LONG }));
      g_array_append_val (evs, ((Ev) { child_start[c] + child_life[c], 0, 0, EV_EXIT, 1000 + c, 0 }));
    }
  /* a third of the requests from short-lived children, the rest from long-lived processes of
   * very different sizes (so that some fold into "others" in one range and not another) */
  for (; i < n / 3; i++)
    {
      guint c = g_rand_int_range (r, 0, N_SHORT);
      tree_add_request (r, evs, &lives[i], i, 1000 + c,
                        child_start[c] + (gint64) (g_rand_double (r) * child_life[c] * 0.8));
    }
  for (; i < n; i++)
    {
      guint p = (guint) (N_LONG * pow (g_rand_double (r), 2.5));
      tree_add_request (r, evs, &lives[i], i, 100 + MIN (p, N_LONG - 1),
                        (gint64) g_rand_int_range (r, 0, span / 10000) * 10000);
    }
  feed_events (b, evs, lives, tree_comm);
  return _iochart_builder_finish (b);
}

