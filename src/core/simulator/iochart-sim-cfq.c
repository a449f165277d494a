/* iochart-sim-cfq.c: CFQ as in Linux 2.6.35 (block/cfq-iosched.c)
 *
 * One sync queue per process, one async queue per class and level; busy queues wait on one
 * service tree per class, ordered by key (the time they became busy, round robin). A queue in
 * service gets a slice by level from its first completion; an emptied sync queue may idle
 * slice_idle for its process's next request when the process is alive, thinks fast enough and
 * is not seeky. The idle class exactly as that kernel: chosen only when no RT or BE queue is busy,
 * one request in flight, expired after a dispatch when others are busy and on every completion,
 * never idling, preempted by any non-idle arrival. Not modelled: cgroups, the three workload
 * trees of a class (one round robin instead), close cooperators, sector order within a queue
 * (its FIFO order instead), slice_resid.
 */
#include <string.h>
#include "iochart-sim-private.h"

#define NS_MS G_GINT64_CONSTANT (1000000)
#define SEEK_THR_SECTORS 800
#define CLOSE_THR_SECTORS (8 * 1024)

typedef struct {
  IochartSimFifo rqs;
  guint32  owner;          /* the process of a sync queue */
  guint8   klass;          /* RT, BE or IDLE */
  guint8   level;
  gboolean sync;
  gboolean alive;          /* the process has not exited */
  gboolean on_rr;          /* busy: on its class's service tree */
  gboolean slice_new;
  gboolean idle_window;
  gboolean deep;
  gint64   rr_key;
  gint64   slice_start, slice_end, slice_len;
  guint    slice_dispatch;
  guint    dispatched;
  guint    meta_pending;
  guint32  seek_history;
  guint64  last_pos;
  gboolean has_pos;
  /* think time (the io context's) */
  gint64   last_end_ns;
  guint    ttime_samples;
  gint64   ttime_total, ttime_mean;
} Queue;

typedef struct {
  guint32 *v;              /* busy queue ids, by key */
  guint    n, size;
} Tree;

struct _IochartSimPolicy {
  const IochartSimCtx *ctx;
  /* the 32 async queues (class * 8 + level) are the pool's fixed items */
  IochartSimPool pool;     /* Queue; owners: processes + 1 for no process */
  Queue   *q;              /* pool.items, again after each _get */
  guint    n_sync;         /* processes + 1 for requests of no process */
  Tree     tree[4];        /* by IochartClass: RT 1, BE 2, IDLE 3 */
  guint    busy;
  guint32  active;
  gboolean wait_request;   /* idling: the timer below is armed */
  gint64   idle_until;
  guint    in_flight[2];   /* async, sync */
  gint64   last_delayed_sync;
  guint    avg_queues[2];  /* busy_queues_avg of non-RT, RT */
  guint64  last_position;
  gint64  *arrived_ns;     /* per request */
  /* tunables */
  guint    quantum;
  gint64   fifo_expire_sync, slice_sync, slice_async, slice_idle, target_latency;
  guint    slice_async_rq;
  gboolean low_latency;
  /* invariants */
  gint64   max_slice_ns, max_slice_base_ns;
};

static inline guint
rq_class (const IochartSimRq *rq)
{
  return _iochart_sim_rq_sched_class (rq);
}

#define N_ASYNC 32

static guint32
queue_of (IochartSimPolicy *p, const IochartSimRq *rq)
{
  guint32 owner, id;
  gboolean fresh;

  if (!_iochart_sim_rq_is_sync (rq))
    return _iochart_sim_rq_sched_class (rq) * 8 + rq->level;
  owner = rq->process < p->n_sync - 1 ? rq->process : p->n_sync - 1;
  id = _iochart_sim_pool_get (&p->pool, owner, &fresh);
  p->q = (Queue *) p->pool.items;
  if (fresh)
    {
      p->q[id].owner = owner;
      p->q[id].klass = 0;
    }
  return id;
}

static Queue *
queue_get (IochartSimPolicy *p, guint32 id, const IochartSimRq *rq)
{
  Queue *q = &p->q[id];

  if (q->klass == 0)
    {
      IochartSimFifo keep = q->rqs;
      guint32 owner = q->owner;

      memset (q, 0, sizeof (Queue));
      q->rqs = keep;
      q->rqs.head = q->rqs.len = 0;
      q->owner = owner;
      q->klass = rq_class (rq);
      /* the idle class runs at level 7 */
      q->level = q->klass == IOCHART_CLASS_IDLE ? 7 : rq->level;
      q->sync = id >= N_ASYNC;
      q->alive = TRUE;
      q->idle_window = q->sync && q->klass != IOCHART_CLASS_IDLE;
      q->last_end_ns = IOCHART_TIME_UNKNOWN;
    }
  return q;
}

/* A drained queue of an exited process gives its slot back. */
static void
maybe_release (IochartSimPolicy *p, guint32 id)
{
  Queue *q = &p->q[id];

  if (id < N_ASYNC || q->alive || q->rqs.len > 0 || q->dispatched > 0 || q->on_rr || id == p->active)
    return;
  _iochart_sim_pool_release (&p->pool, q->owner);
}

/* ---- service trees ---- */

static void
tree_insert (IochartSimPolicy *p, Tree *t, guint32 id)
{
  guint i;

  if (t->n == t->size)
    {
      t->size = MAX (8, 2 * t->size);
      t->v = g_renew (guint32, t->v, t->size);
    }
  /* after every queue with a key not above its own: round robin among equal keys */
  for (i = t->n; i > 0 && p->q[t->v[i - 1]].rr_key > p->q[id].rr_key; i--)
    t->v[i] = t->v[i - 1];
  t->v[i] = id;
  t->n++;
}

static void
tree_remove (Tree *t, guint32 id)
{
  for (guint i = 0; i < t->n; i++)
    if (t->v[i] == id)
      {
        memmove (t->v + i, t->v + i + 1, (t->n - i - 1) * sizeof (guint32));
        t->n--;
        return;
      }
}

/* cfq_service_tree_add: idle queues go CFQ_IDLE_DELAY behind the last; a preempting queue in front. */
static void
service_tree_add (IochartSimPolicy *p, guint32 id, gboolean front, gint64 now)
{
  Queue *q = &p->q[id];
  Tree *t = &p->tree[q->klass];

  if (q->on_rr)
    tree_remove (t, id);
  else
    p->busy++;
  q->on_rr = TRUE;
  if (q->klass == IOCHART_CLASS_IDLE)
    q->rr_key = 200 * NS_MS + (t->n ? p->q[t->v[t->n - 1]].rr_key : now);
  else if (front)
    q->rr_key = (t->n ? p->q[t->v[0]].rr_key : now) - 1000 * NS_MS;
  else
    q->rr_key = now;
  tree_insert (p, t, id);
}

static void
service_tree_del (IochartSimPolicy *p, guint32 id)
{
  Queue *q = &p->q[id];

  if (!q->on_rr)
    return;
  tree_remove (&p->tree[q->klass], id);
  q->on_rr = FALSE;
  p->busy--;
}

/* ---- slices ---- */

static gint64
prio_slice (IochartSimPolicy *p, gboolean sync, guint level)
{
  gint64 base = sync ? p->slice_sync : p->slice_async;

  return base + base / 5 * (4 - (gint64) level);
}

/* cfq_group_get_avg_queues: a slow-moving average of the busy queues of the class */
static guint
avg_queues (IochartSimPolicy *p, gboolean rt)
{
  guint busy = rt ? p->tree[IOCHART_CLASS_RT].n : p->tree[IOCHART_CLASS_BE].n;
  guint lo = MIN (p->avg_queues[rt], busy), hi = MAX (p->avg_queues[rt], busy);

  p->avg_queues[rt] = (3 * hi + lo + 2) / 4;
  return p->avg_queues[rt];
}

static void
set_prio_slice (IochartSimPolicy *p, Queue *q, gint64 now)
{
  gint64 slice = prio_slice (p, q->sync, q->level);

  if (p->low_latency)
    {
      guint iq = avg_queues (p, q->klass == IOCHART_CLASS_RT);
      gint64 expect = p->slice_sync * iq;

      if (expect > p->target_latency)
        {
          gint64 low = MIN (slice, 2 * p->slice_idle * slice / p->slice_sync);
          slice = MAX (slice * p->target_latency / expect, low);
        }
    }
  q->slice_start = now;
  q->slice_end = now + slice;
  q->slice_len = slice;
}

static gboolean
slice_used (const Queue *q, gint64 now)
{
  return !q->slice_new && now >= q->slice_end;
}

static void
slice_expired (IochartSimPolicy *p, gint64 now)
{
  Queue *q;
  guint32 id;

  if (p->active == IOCHART_SIM_NONE)
    return;
  q = &p->q[p->active];
  p->wait_request = FALSE;
  if (!q->slice_new && q->sync && q->klass != IOCHART_CLASS_IDLE && now - q->slice_start > p->max_slice_ns)
    {
      p->max_slice_ns = now - q->slice_start;
      p->max_slice_base_ns = q->slice_len;
    }
  if (q->rqs.len == 0)
    service_tree_del (p, p->active);
  else
    service_tree_add (p, p->active, FALSE, now);
  id = p->active;
  p->active = IOCHART_SIM_NONE;
  maybe_release (p, id);
}

/* ---- idling ---- */

static gboolean
seeky (const Queue *q)
{
  return __builtin_popcount (q->seek_history) > 32 / 8;
}

static gboolean
should_idle (const Queue *q)
{
  return q->klass != IOCHART_CLASS_IDLE && q->idle_window;
}

static void
arm_slice_timer (IochartSimPolicy *p, Queue *q, gint64 now)
{
  gint64 sl = p->slice_idle;

  if (sl == 0 || q->rqs.len > 0 || !should_idle (q) || q->dispatched > 0 || !q->alive)
    return;
  /* the think time must fit in what is left of the slice */
  if (q->ttime_samples > 80 && q->slice_end - now < q->ttime_mean)
    return;
  if (seeky (q))
    sl = MIN (sl, 2 * NS_MS);
  p->wait_request = TRUE;
  p->idle_until = now + sl;
}

static void
update_thinktime (IochartSimPolicy *p, Queue *q, gint64 now)
{
  gint64 ttime;

  if (q->last_end_ns == IOCHART_TIME_UNKNOWN)
    q->last_end_ns = now;
  ttime = MIN (now - q->last_end_ns, 2 * p->slice_idle);
  q->ttime_samples = (7 * q->ttime_samples + 256) / 8;
  q->ttime_total = (7 * q->ttime_total + 256 * ttime) / 8;
  q->ttime_mean = (q->ttime_total + 128) / q->ttime_samples;
}

static void
update_idle_window (IochartSimPolicy *p, Queue *q)
{
  if (!q->sync || q->klass == IOCHART_CLASS_IDLE)
    return;
  if (!q->alive || p->slice_idle == 0 || (!q->deep && seeky (q)))
    q->idle_window = FALSE;
  else if (q->ttime_samples > 80)
    q->idle_window = q->ttime_mean <= p->slice_idle;
}

static void
update_seek (Queue *q, const IochartSimRq *rq)
{
  if (q->has_pos)
    {
      guint64 d = rq->sector > q->last_pos ? rq->sector - q->last_pos : q->last_pos - rq->sector;
      q->seek_history = q->seek_history << 1 | (d > SEEK_THR_SECTORS);
    }
  q->last_pos = rq->sector + rq->bytes / 512;
  q->has_pos = TRUE;
}

/* ---- preemption ---- */

static gboolean
rq_close (IochartSimPolicy *p, const IochartSimRq *rq)
{
  guint64 d = rq->sector > p->last_position ? rq->sector - p->last_position : p->last_position - rq->sector;

  return d <= CLOSE_THR_SECTORS;
}

static gboolean
should_preempt (IochartSimPolicy *p, const Queue *nq, const IochartSimRq *rq, gint64 now)
{
  const Queue *aq;

  if (p->active == IOCHART_SIM_NONE)
    return FALSE;
  aq = &p->q[p->active];
  if (nq->klass == IOCHART_CLASS_IDLE)
    return FALSE;
  if (aq->klass == IOCHART_CLASS_IDLE)
    return TRUE;
  if (aq->klass == IOCHART_CLASS_RT && nq->klass != IOCHART_CLASS_RT)
    return FALSE;
  if (_iochart_sim_rq_is_sync (rq) && !aq->sync)
    return TRUE;
  if (slice_used (aq, now))
    return TRUE;
  if ((rq->flags & IOCHART_RQ_META) && aq->meta_pending == 0)
    return TRUE;
  if (nq->klass == IOCHART_CLASS_RT && aq->klass != IOCHART_CLASS_RT)
    return TRUE;
  if (aq->rqs.len == 0 && !should_idle (aq))
    return TRUE;
  if (!p->wait_request)
    return FALSE;
  return rq_close (p, rq);
}

/* ---- the ops ---- */

static IochartSimPolicy *
cfq_init (const IochartSimCtx *ctx, IochartSimSettings *s, GError **error)
{
  g_autofree IochartSimPolicy *p = g_new0 (IochartSimPolicy, 1);
  double quantum, async_rq;

  if (!_iochart_sim_settings_double (s, "quantum", 8, 1, 1024, &quantum, error) ||
      !_iochart_sim_settings_time (s, "fifo_expire_sync", 125 * NS_MS, &p->fifo_expire_sync, error) ||
      !_iochart_sim_settings_time (s, "slice_sync", 100 * NS_MS, &p->slice_sync, error) ||
      !_iochart_sim_settings_time (s, "slice_async", 40 * NS_MS, &p->slice_async, error) ||
      !_iochart_sim_settings_double (s, "slice_async_rq", 2, 1, 1024, &async_rq, error) ||
      !_iochart_sim_settings_time (s, "slice_idle", 8 * NS_MS, &p->slice_idle, error) ||
      !_iochart_sim_settings_bool (s, "low_latency", TRUE, &p->low_latency, error) ||
      !_iochart_sim_settings_time (s, "target_latency", 300 * NS_MS, &p->target_latency, error))
    return NULL;
  if (p->slice_sync <= 0)
    p->slice_sync = 1;
  p->quantum = (guint) quantum;
  p->slice_async_rq = (guint) async_rq;
  p->ctx = ctx;
  p->n_sync = ctx->n_processes + 1;
  _iochart_sim_pool_init (&p->pool, sizeof (Queue), N_ASYNC, p->n_sync);
  p->q = (Queue *) p->pool.items;
  p->arrived_ns = g_new0 (gint64, MAX (ctx->n_rq, 1));
  p->active = IOCHART_SIM_NONE;
  p->last_delayed_sync = G_MININT64 / 2;
  return g_steal_pointer (&p);
}

static void
cfq_free (IochartSimPolicy *p)
{
  for (guint i = 0; i < p->pool.n; i++)
    _iochart_sim_fifo_clear (&p->q[i].rqs);
  for (guint c = 0; c < 4; c++)
    g_free (p->tree[c].v);
  _iochart_sim_pool_clear (&p->pool);
  g_free (p->arrived_ns);
  g_free (p);
}

static void
cfq_add (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  guint32 id = queue_of (p, r);
  Queue *q = queue_get (p, id, r);

  p->arrived_ns[rq] = now;
  _iochart_sim_fifo_push (&q->rqs, rq);
  if (r->flags & IOCHART_RQ_META)
    q->meta_pending++;
  if (q->rqs.len >= 4)
    q->deep = TRUE;
  update_seek (q, r);
  if (q->sync)
    {
      update_thinktime (p, q, now);
      update_idle_window (p, q);
    }
  if (!q->on_rr)
    service_tree_add (p, id, FALSE, now);
  if (id == p->active)
    p->wait_request = FALSE;       /* the request idling waited for */
  else if (should_preempt (p, q, r, now))
    {
      slice_expired (p, now);
      service_tree_add (p, id, TRUE, now);
      q->slice_new = TRUE;
    }
}

static gboolean
may_dispatch (IochartSimPolicy *p, Queue *q, gint64 now)
{
  guint max = MAX (p->quantum / 2, 1);

  if (should_idle (q) && p->in_flight[0] > 0)
    return FALSE;                  /* drain async before sync */
  if (p->in_flight[1] > 0 && !q->sync)
    return FALSE;
  if (q->klass == IOCHART_CLASS_IDLE)
    max = 1;
  if (q->dispatched >= max)
    {
      if (q->klass == IOCHART_CLASS_IDLE || p->busy > 1)
        return FALSE;
      max = p->busy == 1 ? G_MAXUINT : p->quantum;
    }
  if (!q->sync && p->low_latency)
    {
      guint depth = (guint) ((now - p->last_delayed_sync) / p->slice_sync);

      if (depth == 0 && q->dispatched == 0)
        depth = 1;
      max = MIN (max, depth);
    }
  return q->dispatched < max;
}

static guint32
pick_new_queue (IochartSimPolicy *p, gint64 now)
{
  static const guint order[] = { IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_IDLE };

  (void) now;
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (p->tree[order[i]].n > 0)
      {
        guint32 id = p->tree[order[i]].v[0];
        Queue *q = &p->q[id];

        p->active = id;
        q->slice_new = TRUE;
        q->slice_dispatch = 0;
        q->slice_end = 0;
        return id;
      }
  return IOCHART_SIM_NONE;
}

/* cfq_select_queue */
static guint32
select_queue (IochartSimPolicy *p, gint64 now)
{
  if (p->active != IOCHART_SIM_NONE)
    {
      Queue *q = &p->q[p->active];

      if (slice_used (q, now))
        slice_expired (p, now);
      else if (q->rqs.len > 0)
        return p->active;
      else if (p->wait_request || (q->dispatched > 0 && should_idle (q)))
        return IOCHART_SIM_NONE;
      else
        slice_expired (p, now);
    }
  return pick_new_queue (p, now);
}

static guint32
cfq_dispatch (IochartSimPolicy *p, gint64 now)
{
  guint32 id = select_queue (p, now), rq;
  Queue *q;

  if (id == IOCHART_SIM_NONE)
    return IOCHART_SIM_NONE;
  q = &p->q[id];
  if (q->rqs.len == 0 || !may_dispatch (p, q, now))
    return IOCHART_SIM_NONE;
  rq = _iochart_sim_fifo_pop (&q->rqs);
  if (p->ctx->rq[rq].flags & IOCHART_RQ_META)
    q->meta_pending--;
  q->dispatched++;
  q->slice_dispatch++;
  p->in_flight[q->sync]++;
  p->last_position = p->ctx->rq[rq].sector + p->ctx->rq[rq].bytes / 512;
  /* an idle queue, or an async one past its share, gives way at once when others are busy */
  if (p->busy > 1 && (q->klass == IOCHART_CLASS_IDLE ||
                      (!q->sync && q->slice_dispatch >= 2 * p->slice_async_rq * (8 - q->level))))
    slice_expired (p, now);
  return rq;
}

static void
cfq_complete (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  guint32 id = queue_of (p, r);
  Queue *q = &p->q[id];

  q->dispatched--;
  p->in_flight[q->sync]--;
  if (q->sync)
    {
      q->last_end_ns = now;
      /* a sync request that waited longer than fifo_expire slows the async ramp (low_latency) */
      if (now - p->arrived_ns[rq] >= p->fifo_expire_sync)
        p->last_delayed_sync = now;
    }
  if (id != p->active)
    {
      maybe_release (p, id);
      return;
    }
  if (q->slice_new)
    {
      set_prio_slice (p, q, now);
      q->slice_new = FALSE;
    }
  if (slice_used (q, now) || q->klass == IOCHART_CLASS_IDLE)
    slice_expired (p, now);
  else if (q->sync && q->rqs.len == 0)
    arm_slice_timer (p, q, now);
}

static void
cfq_exit (IochartSimPolicy *p, guint32 process, gint64 now)
{
  guint32 id;

  if (process >= p->n_sync - 1 || (id = _iochart_sim_pool_find (&p->pool, process)) == 0)
    return;
  p->q[id].alive = FALSE;
  if (id == p->active)
    slice_expired (p, now);
  else
    maybe_release (p, id);
}

static gint64
cfq_next_timer (IochartSimPolicy *p)
{
  return p->wait_request ? p->idle_until : IOCHART_TIME_UNKNOWN;
}

/* cfq_idle_slice_timer: the process did not come back in time */
static void
cfq_timer (IochartSimPolicy *p, gint64 now)
{
  if (!p->wait_request || now < p->idle_until)
    return;
  p->wait_request = FALSE;
  if (p->active != IOCHART_SIM_NONE && p->q[p->active].rqs.len == 0)
    slice_expired (p, now);
}

static void
cfq_stats (IochartSimPolicy *p, IochartSimStats *stats)
{
  stats->max_slice_ns = p->max_slice_ns;
  stats->max_slice_base_ns = p->max_slice_base_ns;
}

const IochartSimPolicyOps _iochart_sim_cfq_ops = {
  .name = "cfq",
  .init = cfq_init,
  .free = cfq_free,
  .add = cfq_add,
  .dispatch = cfq_dispatch,
  .complete = cfq_complete,
  .exit = cfq_exit,
  .next_timer = cfq_next_timer,
  .timer = cfq_timer,
  .stats = cfq_stats,
};
