/* iochart-sim-bfq.c: BFQ, reduced to what decides who waits (Linux 6.x block/bfq-*.c)
 *
 * One sync queue per process, one async queue per class and level, weight (8 - level) * 10.
 * Classes are served strictly rt > be > idle, except that an idle class left unserved for
 * 200 ms (BFQ_CL_IDLE_TIMEOUT) gets one request. Within a class the busy queue with the lowest
 * virtual start goes next (start-time fair queueing: service / weight); a queue keeps the device
 * for a budget of max_budget sectors or timeout_sync, and an emptied sync queue of a live,
 * fast-thinking process is idled on for slice_idle. An idle queue expires after one request when
 * others are busy and never idles; a higher-class arrival ends an idling slice. Not modelled:
 * weight raising, budget feedback, injection, queue merging, cgroups.
 */
#include <string.h>
#include "iochart-sim-private.h"

#define NS_MS G_GINT64_CONSTANT (1000000)

typedef struct {
  IochartSimFifo rqs;
  guint32  owner;
  guint8   klass;
  gboolean sync, alive, busy;
  guint    weight;
  double   vstart;              /* virtual start, sectors / weight */
  guint    dispatched;
  gint64   last_end_ns;
  gint64   ttime_mean;
  guint    ttime_samples;
} Queue;

struct _IochartSimPolicy {
  const IochartSimCtx *ctx;
  IochartSimPool pool;         /* Queue; 32 async queues fixed, then one per live process */
  Queue   *q;                   /* pool.items, again after each _get */
  guint    n_sync;
  guint    busy[4];             /* busy queues per class */
  GArray  *busy_ids[4];         /* guint32 ids of the busy queues per class, in the order they became busy */
  double   vtime[4];            /* per class: virtual time of the last queue put in service */
  guint32  active;
  gint64   slice_end;           /* timeout_sync of the queue in service */
  guint64  served;              /* sectors in its budget so far */
  gboolean idling;
  gint64   idle_until;
  gint64   last_idle_served;
  gint64   slice_idle, timeout;
  guint64  max_budget;
};

static void
queue_reset (gpointer item, guint32 owner)
{
  Queue *q = item;
  IochartSimFifo keep = q->rqs;

  memset (q, 0, sizeof (Queue));
  q->rqs = keep;
  q->rqs.head = q->rqs.len = 0;
  q->owner = owner;
}

static guint32
queue_of (IochartSimPolicy *p, const IochartSimRq *rq)
{
  guint32 id = _iochart_sim_pool_queue_of (&p->pool, rq, queue_reset);

  p->q = (Queue *) p->pool.items;
  return id;
}

static Queue *
queue_get (IochartSimPolicy *p, guint32 id, const IochartSimRq *rq)
{
  Queue *q = &p->q[id];

  if (q->klass == 0)
    {
      q->klass = _iochart_sim_rq_sched_class (rq);
      q->weight = (8 - (q->klass == IOCHART_CLASS_IDLE ? 7 : rq->level)) * 10;
      q->sync = id >= IOCHART_SIM_N_ASYNC;
      q->alive = TRUE;
      q->last_end_ns = IOCHART_TIME_UNKNOWN;
    }
  return q;
}

/* A drained queue of an exited process gives its slot back. */
static void
maybe_release (IochartSimPolicy *p, guint32 id)
{
  const Queue *q = &p->q[id];

  if (id < IOCHART_SIM_N_ASYNC || q->alive || q->rqs.len > 0 || q->dispatched > 0 || q->busy || id == p->active)
    return;
  _iochart_sim_pool_release (&p->pool, q->owner);
}

static IochartSimPolicy *
bfq_init (const IochartSimCtx *ctx, IochartSimSettings *s, GError **error)
{
  g_autofree IochartSimPolicy *p = g_new0 (IochartSimPolicy, 1);
  double budget;

  if (!_iochart_sim_settings_time (s, "slice_idle", 8 * NS_MS, &p->slice_idle, error) ||
      !_iochart_sim_settings_time (s, "timeout_sync", 125 * NS_MS, &p->timeout, error) ||
      !_iochart_sim_settings_double (s, "max_budget", 16384, 1, 1 << 30, &budget, error))
    return NULL;
  p->max_budget = (guint64) budget;
  p->ctx = ctx;
  p->n_sync = ctx->n_processes + 1;
  _iochart_sim_pool_init (&p->pool, sizeof (Queue), IOCHART_SIM_N_ASYNC, p->n_sync);
  p->q = (Queue *) p->pool.items;
  for (guint c = 0; c < 4; c++)
    p->busy_ids[c] = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->active = IOCHART_SIM_NONE;
  p->last_idle_served = G_MININT64 / 2;
  return g_steal_pointer (&p);
}

static void
bfq_free (IochartSimPolicy *p)
{
  for (guint i = 0; i < p->pool.n; i++)
    _iochart_sim_fifo_clear (&p->q[i].rqs);
  for (guint c = 0; c < 4; c++)
    g_array_unref (p->busy_ids[c]);
  _iochart_sim_pool_clear (&p->pool);
  g_free (p);
}

static void
set_busy (IochartSimPolicy *p, guint32 id, gboolean busy)
{
  Queue *q = &p->q[id];
  GArray *ids = p->busy_ids[q->klass];

  if (q->busy == busy)
    return;
  q->busy = busy;
  if (busy)
    {
      p->busy[q->klass]++;
      q->vstart = MAX (q->vstart, p->vtime[q->klass]);
      g_array_append_val (ids, id);
      return;
    }
  p->busy[q->klass]--;
  for (guint i = 0; i < ids->len; i++)
    if (g_array_index (ids, guint32, i) == id)
      {
        g_array_remove_index (ids, i);
        break;
      }
}

static void
expire (IochartSimPolicy *p)
{
  guint32 id = p->active;
  Queue *q;

  if (id == IOCHART_SIM_NONE)
    return;
  q = &p->q[id];
  q->vstart += (double) p->served / q->weight;
  p->idling = FALSE;
  if (q->rqs.len == 0)
    set_busy (p, id, FALSE);
  p->active = IOCHART_SIM_NONE;
  maybe_release (p, id);
}

static guint
others_busy (IochartSimPolicy *p)
{
  return p->busy[1] + p->busy[2] + p->busy[3] - (p->active != IOCHART_SIM_NONE && p->q[p->active].busy);
}

static void
bfq_add (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  guint32 id = queue_of (p, r);
  Queue *q = queue_get (p, id, r);

  if (q->sync && q->last_end_ns != IOCHART_TIME_UNKNOWN)
    {
      gint64 tt = MIN (now - q->last_end_ns, 2 * p->slice_idle);
      q->ttime_samples = (7 * q->ttime_samples + 256) / 8;
      q->ttime_mean = (7 * q->ttime_mean + tt) / 8;
    }
  _iochart_sim_fifo_push (&q->rqs, rq);
  set_busy (p, id, TRUE);
  if (id == p->active)
    p->idling = FALSE;
  else if (p->idling && q->klass < p->q[p->active].klass)
    expire (p);              /* a higher class ends the wait */
}

static gboolean
may_idle (IochartSimPolicy *p, const Queue *q)
{
  return p->slice_idle > 0 && q->sync && q->alive && q->klass != IOCHART_CLASS_IDLE &&
         (q->ttime_samples < 80 || q->ttime_mean <= p->slice_idle);
}

static guint32
pick (IochartSimPolicy *p, gint64 now)
{
  guint klass = 0;
  guint32 best = IOCHART_SIM_NONE;

  if (p->busy[IOCHART_CLASS_IDLE] > 0 && now - p->last_idle_served >= 200 * NS_MS)
    klass = IOCHART_CLASS_IDLE;
  else
    for (guint c = IOCHART_CLASS_RT; c <= IOCHART_CLASS_IDLE && klass == 0; c++)
      if (p->busy[c] > 0)
        klass = c;
  if (klass == 0)
    return IOCHART_SIM_NONE;
  /* the lowest virtual start; ties to the one busy first, so a run is the same every time */
  for (guint i = 0; i < p->busy_ids[klass]->len; i++)
    {
      guint32 id = g_array_index (p->busy_ids[klass], guint32, i);
      const Queue *q = &p->q[id];

      if (q->rqs.len > 0 && (best == IOCHART_SIM_NONE || q->vstart < p->q[best].vstart))
        best = id;
    }
  if (best != IOCHART_SIM_NONE)
    {
      p->active = best;
      p->served = 0;
      p->slice_end = now + p->timeout;
      p->vtime[klass] = p->q[best].vstart;
    }
  return best;
}

static guint32
bfq_dispatch (IochartSimPolicy *p, gint64 now)
{
  Queue *q;
  guint32 rq;

  if (p->active != IOCHART_SIM_NONE)
    {
      q = &p->q[p->active];
      if (q->rqs.len == 0 && (p->idling || q->dispatched > 0) && now < p->slice_end)
        return IOCHART_SIM_NONE;
      if (q->rqs.len == 0 || now >= p->slice_end || p->served >= p->max_budget)
        expire (p);
    }
  if (p->active == IOCHART_SIM_NONE && pick (p, now) == IOCHART_SIM_NONE)
    return IOCHART_SIM_NONE;
  q = &p->q[p->active];
  if (q->klass == IOCHART_CLASS_IDLE && q->dispatched > 0)
    return IOCHART_SIM_NONE;
  rq = _iochart_sim_fifo_pop (&q->rqs);
  q->dispatched++;
  p->served += MAX (p->ctx->rq[rq].bytes / 512, 1);
  if (q->klass == IOCHART_CLASS_IDLE)
    {
      p->last_idle_served = now;
      if (others_busy (p) > 0)
        expire (p);
    }
  return rq;
}

static void
bfq_complete (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  guint32 id = queue_of (p, r);
  Queue *q = &p->q[id];

  q->dispatched--;
  q->last_end_ns = now;
  if (id != p->active)
    maybe_release (p, id);
  if (id != p->active || q->rqs.len > 0 || q->dispatched > 0)
    return;
  if (may_idle (p, q) && now < p->slice_end)
    {
      p->idling = TRUE;
      p->idle_until = now + p->slice_idle;
    }
  else
    expire (p);
}

static void
bfq_exit (IochartSimPolicy *p, guint32 process, gint64 now)
{
  guint32 id;

  (void) now;
  if ((id = _iochart_sim_pool_queue_of_process (&p->pool, process)) == 0)
    return;
  p->q[id].alive = FALSE;
  if (id == p->active)
    expire (p);
  else
    maybe_release (p, id);
}

static gint64
bfq_next_timer (IochartSimPolicy *p)
{
  return p->idling ? p->idle_until : IOCHART_TIME_UNKNOWN;
}

static void
bfq_timer (IochartSimPolicy *p, gint64 now)
{
  if (p->idling && now >= p->idle_until)
    expire (p);
}

const IochartSimPolicyOps _iochart_sim_bfq_ops = {
  .name = "bfq",
  .init = bfq_init,
  .free = bfq_free,
  .add = bfq_add,
  .dispatch = bfq_dispatch,
  .complete = bfq_complete,
  .exit = bfq_exit,
  .next_timer = bfq_next_timer,
  .timer = bfq_timer,
};
