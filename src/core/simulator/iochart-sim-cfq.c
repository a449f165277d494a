/* iochart-sim-cfq.c: CFQ as in Linux 2.6.35 (block/cfq-iosched.c)
 *
 * One sync queue per process, one async queue per class and level. Busy queues wait on their
 * cgroup's service trees: one per class (RT, BE) and workload (async, sync-noidle, sync), one for
 * the idle class, ordered by key (when they became busy, offset by level and by the slice they
 * left or overran: slice_resid). Groups (--set-group) wait on one tree by vdisktime, charged the
 * time (iops_mode: the requests) each slice used, scaled by 500 / weight; a group serves one
 * workload at a time for a workload slice, its share of target_latency. A queue in service gets
 * a slice by level from its first completion and serves its requests in sector order (a
 * backward seek within back_seek_max costs back_seek_penalty times its distance), the oldest one
 * first when it waited past fifo_expire. An emptied sync queue may idle slice_idle for its
 * process's next request (sync-noidle queues only as the last of their tree), unless another
 * queue's next request is close to the head: close cooperators are served next and merged.
 * The idle class exactly as that kernel: chosen only when no RT or BE queue of the group is busy,
 * one request in flight, expired after a dispatch when others are busy and on every completion,
 * never idling, preempted by any non-idle arrival. group_idle is 2.6.37's (off, as 2.6.35 had
 * none). Not modelled: a request's next_rq is chosen at dispatch, from the head then.
 */
#include <string.h>
#include "iochart-sim-private.h"

#define NS_MS G_GINT64_CONSTANT (1000000)
#define JIFFY_NS NS_MS
#define SEEK_THR_SECTORS 800
#define CLOSE_THR_SECTORS (8 * 1024)
#define IDLE_DELAY_NS (200 * NS_MS)
#define WEIGHT_DEFAULT 500
#define MIN_TT_NS (2 * JIFFY_NS)

enum { WL_ASYNC, WL_SYNC_NOIDLE, WL_SYNC, N_WL };
enum { PRIO_BE, PRIO_RT, PRIO_IDLE };

typedef struct {
  guint32 *v;              /* queue ids, by key */
  guint    n, size;
} Tree;

typedef struct {
  IOCHART_SIM_QUEUE_HEAD;
  guint32  merge_to;       /* cfq_setup_merge: where its processes go at their next request */
  guint32  merge_owner;    /* ... that queue's owner then, so a reused slot is not followed */
  guint    refs;           /* live processes whose sync requests come here */
  guint16  group;
  guint8   klass;          /* RT, BE or IDLE; 0 until its first request */
  guint8   level;
  guint8   type;           /* WL_* of the tree it is on */
  gboolean sync, on_rr, slice_new, idle_window, deep, coop, wait_busy;
  gint64   rr_key;
  gint64   slice_start, slice_end, allocated_slice, dispatch_start, slice_resid;
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

G_STATIC_ASSERT (G_STRUCT_OFFSET (Queue, rqs) == 0 && G_STRUCT_OFFSET (Queue, fifo_checked) == G_STRUCT_OFFSET (IochartSimQueueHead, fifo_checked));

typedef struct {
  guint    weight;
  gint64   vdisktime;      /* ns served * 500 / weight */
  gboolean on_st;
  guint    nr_cfqq;        /* busy queues */
  guint    dispatched;
  Tree     st[2][N_WL];    /* [PRIO_BE, PRIO_RT][WL_*] */
  Tree     idle;
  guint    busy_avg[2];
  gint64   saved_workload_slice;
  guint8   saved_type, saved_prio;
} Group;

struct _IochartSimPolicy {
  const IochartSimCtx *ctx;
  /* the 32 async queues (class * 8 + level) are the pool's fixed items */
  IochartSimPool pool;     /* Queue; owners: processes + 1 for no process */
  Queue   *q;              /* pool.items, again after each _get */
  guint    n_sync;
  guint32 *merged;         /* per owner: the queue its sync requests go to (a cooperator's), 0 its own */
  Group   *groups;
  guint    n_groups;
  guint16 *group_st;       /* groups with busy queues, by vdisktime */
  guint    n_group_st;
  guint    total_weight;
  gint64   min_vdisktime;
  guint    busy;
  guint32  active;
  guint    serving_group;
  guint8   serving_prio, serving_type;
  gint64   workload_expires;
  gboolean wait_request;   /* idling: the timer below is armed */
  gint64   idle_until;
  guint    in_flight[2];   /* async, sync */
  gint64   last_delayed_sync;
  guint64  last_position;
  gint64  *arrived_ns;     /* per request */
  guint32 *rq_queue;       /* per request: its queue, | IOCHART_SIM_DISPATCHED once on the device */
  /* tunables */
  guint    quantum, back_penalty;
  guint64  back_max;       /* sectors */
  gint64   fifo_expire[2], slice_sync, slice_async, slice_idle, target_latency, group_idle;
  guint    slice_async_rq;
  gboolean low_latency, iops_mode;
  /* invariants */
  gint64   max_slice_ns, max_slice_base_ns;
};

static inline guint
rq_class (const IochartSimRq *rq)
{
  return _iochart_sim_rq_sched_class (rq);
}

static inline guint
prio_of (const Queue *q)
{
  return q->klass == IOCHART_CLASS_IDLE ? PRIO_IDLE : q->klass == IOCHART_CLASS_RT ? PRIO_RT : PRIO_BE;
}

static inline Group *
group_of (IochartSimPolicy *p, const Queue *q)
{
  return &p->groups[q->group];
}

/* cfqq_type */
static inline guint
queue_type (const Queue *q)
{
  return !q->sync ? WL_ASYNC : !q->idle_window ? WL_SYNC_NOIDLE : WL_SYNC;
}

static Tree *
tree_for (Group *g, guint prio, guint type)
{
  return prio == PRIO_IDLE ? &g->idle : &g->st[prio][type];
}

static inline Tree *
tree_of (IochartSimPolicy *p, const Queue *q)
{
  return tree_for (group_of (p, q), prio_of (q), q->type);
}

static guint
busy_queues_wl (const Group *g, guint prio)
{
  if (prio == PRIO_IDLE)
    return g->idle.n;
  return g->st[prio][WL_ASYNC].n + g->st[prio][WL_SYNC_NOIDLE].n + g->st[prio][WL_SYNC].n;
}

static inline gboolean
seeky (const Queue *q)
{
  return __builtin_popcount (q->seek_history) > 32 / 8;
}

/* ---- queues ---- */

static void
queue_reset (gpointer item, guint32 owner)
{
  _iochart_sim_queue_reset (item, sizeof (Queue), owner);
}

static void
queue_init (IochartSimPolicy *p, guint32 id, const IochartSimRq *rq)
{
  Queue *q = &p->q[id];

  if (q->klass != 0)
    return;
  q->klass = rq_class (rq);
  /* the idle class runs at level 7 */
  q->level = q->klass == IOCHART_CLASS_IDLE ? 7 : rq->level;
  q->sync = id >= IOCHART_SIM_N_ASYNC;
  q->refs = q->sync ? 1 : G_MAXUINT / 2;
  q->group = _iochart_sim_ctx_group (p->ctx, rq);
  q->idle_window = q->sync && q->klass != IOCHART_CLASS_IDLE;
  q->type = queue_type (q);
  q->merge_to = IOCHART_SIM_NONE;
  q->last_end_ns = IOCHART_TIME_UNKNOWN;
}

/* A drained queue no live process uses gives its slot back. */
static void
maybe_release (IochartSimPolicy *p, guint32 id)
{
  Queue *q = &p->q[id];

  if (id < IOCHART_SIM_N_ASYNC || q->refs > 0 || q->sorted.n > 0 || q->dispatched > 0 || q->on_rr ||
      id == p->active)
    return;
  q->klass = 0;
  _iochart_sim_pool_release (&p->pool, q->owner);
}

static gboolean
merge_target_valid (IochartSimPolicy *p, const Queue *q)
{
  return q->merge_to != IOCHART_SIM_NONE && q->merge_to < p->pool.n && p->q[q->merge_to].refs > 0 &&
         p->q[q->merge_to].owner == q->merge_owner && p->q[q->merge_to].klass != 0;
}

/* The queue a request goes to (cfq_set_request): its process's, or the cooperator its queue was
 * merged with; a merged queue that turned seeky is split again. */
static guint32
queue_for (IochartSimPolicy *p, const IochartSimRq *rq)
{
  guint32 owner, id;

  if (!_iochart_sim_rq_is_sync (rq))
    {
      id = _iochart_sim_pool_queue_of (&p->pool, rq, queue_reset);
      queue_init (p, id, rq);
      return id;
    }
  owner = MIN (rq->process, p->n_sync - 1);
  id = p->merged[owner];
  if (id != 0 && p->q[id].coop && seeky (&p->q[id]))
    {
      p->q[id].refs--;
      maybe_release (p, id);
      p->merged[owner] = id = 0;
    }
  if (id == 0)
    {
      id = _iochart_sim_pool_queue_of (&p->pool, rq, queue_reset);
      p->q = (Queue *) p->pool.items;
      if (p->q[id].klass != 0 && p->q[id].refs == 0)
        p->q[id].refs = 1;          /* back from a merge */
      queue_init (p, id, rq);
    }
  for (guint steps = 0; merge_target_valid (p, &p->q[id]) && steps < 8; steps++)
    {
      guint32 to = p->q[id].merge_to;

      p->q[id].merge_to = IOCHART_SIM_NONE;
      p->q[id].refs--;
      maybe_release (p, id);
      p->q[to].refs++;
      p->q[to].coop = TRUE;
      p->merged[owner] = id = to;
    }
  return id;
}

/* ---- requests of a queue: by sector, and by arrival ---- */

/* cfq_choose_req from the head */
static inline guint32
next_rq (IochartSimPolicy *p, const Queue *q)
{
  return _iochart_sim_sorted_next (&q->sorted, p->ctx->rq, p->last_position, p->back_max, p->back_penalty);
}

/* once a slice, the oldest request if it waited past fifo_expire */
static guint32
fifo_expired (IochartSimPolicy *p, Queue *q, gint64 now)
{
  return _iochart_sim_queue_fifo_expired (&q->head, p->rq_queue, p->arrived_ns, p->fifo_expire[q->sync], now);
}

/* ---- groups ---- */

static void
group_st_insert (IochartSimPolicy *p, guint gid)
{
  guint i;

  for (i = p->n_group_st; i > 0 && p->groups[p->group_st[i - 1]].vdisktime > p->groups[gid].vdisktime; i--)
    p->group_st[i] = p->group_st[i - 1];
  p->group_st[i] = gid;
  p->n_group_st++;
}

static void
group_st_remove (IochartSimPolicy *p, guint gid)
{
  for (guint i = 0; i < p->n_group_st; i++)
    if (p->group_st[i] == gid)
      {
        memmove (p->group_st + i, p->group_st + i + 1, (p->n_group_st - i - 1) * sizeof (guint16));
        p->n_group_st--;
        return;
      }
}

/* cfq_group_service_tree_add: a group that becomes busy goes behind the last one */
static void
group_busy (IochartSimPolicy *p, guint gid)
{
  Group *g = &p->groups[gid];

  if (g->nr_cfqq++ > 0 || g->on_st)
    return;
  /* CFQ_IDLE_DELAY in jiffies added to a vdisktime in jiffies << 12: about 49 us */
  g->vdisktime = p->n_group_st ? p->groups[p->group_st[p->n_group_st - 1]].vdisktime + (IDLE_DELAY_NS >> 12)
                               : p->min_vdisktime;
  group_st_insert (p, gid);
  g->on_st = TRUE;
  p->total_weight += g->weight;
}

static void
group_unbusy (IochartSimPolicy *p, guint gid)
{
  Group *g = &p->groups[gid];

  if (--g->nr_cfqq > 0 || !g->on_st)
    return;
  group_st_remove (p, gid);
  g->on_st = FALSE;
  p->total_weight -= g->weight;
}

static gint64
group_slice (IochartSimPolicy *p, const Group *g)
{
  return p->target_latency * g->weight / MAX (p->total_weight, 1);
}

/* cfq_cfqq_slice_usage */
static gint64
slice_usage (const Queue *q, gint64 now)
{
  if (q->slice_new || q->slice_start == now)
    return MAX (now - q->dispatch_start, JIFFY_NS);
  return MIN (now - q->slice_start, q->allocated_slice);
}

/* cfq_group_served: charge the group the slice its queue used, scaled by its weight */
static void
group_served (IochartSimPolicy *p, Queue *q, gint64 now)
{
  guint gid = q->group;
  Group *g = &p->groups[gid];
  guint nr_async = g->st[PRIO_BE][WL_ASYNC].n + g->st[PRIO_RT][WL_ASYNC].n;
  gint64 charge = slice_usage (q, now);

  if (p->iops_mode)
    charge = q->slice_dispatch * JIFFY_NS;
  else if (!q->sync && g->nr_cfqq <= nr_async + g->idle.n)
    charge = q->allocated_slice;
  if (g->on_st)
    group_st_remove (p, gid);
  g->vdisktime += charge * WEIGHT_DEFAULT / g->weight;
  if (g->on_st)
    group_st_insert (p, gid);
  if (p->workload_expires > now)
    {
      g->saved_workload_slice = p->workload_expires - now;
      g->saved_type = p->serving_type;
      g->saved_prio = p->serving_prio;
    }
  else
    g->saved_workload_slice = 0;
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
        for (t->n--; i < t->n; i++)
          t->v[i] = t->v[i + 1];
        return;
      }
}

static gint64
prio_slice (IochartSimPolicy *p, gboolean sync, guint level)
{
  gint64 base = sync ? p->slice_sync : p->slice_async;

  return base + base / 5 * (4 - (gint64) level);
}

/* cfq_service_tree_add: idle queues go CFQ_IDLE_DELAY behind the last; a preempting queue in
 * front; others at now, later for a lower level or the slice overrun, earlier by the slice left. */
static void
service_tree_add (IochartSimPolicy *p, guint32 id, gboolean front, gint64 now)
{
  Queue *q = &p->q[id];
  Group *g = group_of (p, q);
  guint type = queue_type (q);
  Tree *t = tree_for (g, prio_of (q), type);
  gint64 key;

  if (q->klass == IOCHART_CLASS_IDLE)
    key = IDLE_DELAY_NS + (t->n && t->v[t->n - 1] != id ? p->q[t->v[t->n - 1]].rr_key : now);
  else if (!front)
    {
      /* cfq_slice_offset: nr_cfqq - 1, the queue itself counted only when already busy */
      gint64 offset = (gint64) MAX (g->nr_cfqq, 1u) - 1;

      offset *= prio_slice (p, TRUE, 0) - prio_slice (p, q->sync, q->level);

      key = offset + now - q->slice_resid;
      q->slice_resid = 0;
    }
  else
    key = (t->n ? p->q[t->v[0]].rr_key : now) - 1000 * NS_MS;
  if (q->on_rr)
    {
      if (key == q->rr_key && type == q->type)
        return;
      tree_remove (tree_of (p, q), id);
    }
  else
    {
      q->on_rr = TRUE;
      p->busy++;
      group_busy (p, q->group);
    }
  q->rr_key = key;
  q->type = type;
  tree_insert (p, t, id);
}

static void
service_tree_del (IochartSimPolicy *p, guint32 id)
{
  Queue *q = &p->q[id];

  if (!q->on_rr)
    return;
  tree_remove (tree_of (p, q), id);
  q->on_rr = FALSE;
  p->busy--;
  group_unbusy (p, q->group);
}

/* ---- slices ---- */

/* cfq_group_get_avg_queues: a slow-moving average of the busy queues of the class in the group */
static guint
avg_queues (Group *g, gboolean rt)
{
  guint busy = busy_queues_wl (g, rt ? PRIO_RT : PRIO_BE);
  guint lo = MIN (g->busy_avg[rt], busy), hi = MAX (g->busy_avg[rt], busy);

  g->busy_avg[rt] = (3 * hi + lo + 2) / 4;
  return g->busy_avg[rt];
}

static void
set_prio_slice (IochartSimPolicy *p, Queue *q, gint64 now)
{
  gint64 slice = prio_slice (p, q->sync, q->level);

  if (p->low_latency)
    {
      Group *g = group_of (p, q);
      gint64 expect = p->slice_sync * avg_queues (g, q->klass == IOCHART_CLASS_RT);
      gint64 gslice = group_slice (p, g);

      if (expect > gslice)
        {
          gint64 low = MIN (slice, 2 * p->slice_idle * slice / p->slice_sync);
          slice = MAX (slice * gslice / expect, low);
        }
    }
  q->slice_start = now;
  q->slice_end = now + slice;
  q->allocated_slice = slice;
}

static gboolean
slice_used (const Queue *q, gint64 now)
{
  return !q->slice_new && now >= q->slice_end;
}

/* __cfq_slice_expired; timed_out keeps what is left of the slice (or the overrun) for its next
 * place on the tree */
static void
slice_expired (IochartSimPolicy *p, gint64 now, gboolean timed_out)
{
  Queue *q;
  guint32 id = p->active;

  if (id == IOCHART_SIM_NONE)
    return;
  q = &p->q[id];
  p->wait_request = FALSE;
  if (!q->slice_new && q->sync && q->klass != IOCHART_CLASS_IDLE && now - q->slice_start > p->max_slice_ns)
    {
      p->max_slice_ns = now - q->slice_start;
      p->max_slice_base_ns = q->allocated_slice;
    }
  if (timed_out && !q->slice_new)
    q->slice_resid = q->slice_end - now;
  group_served (p, q, now);
  if (q->sorted.n == 0)
    service_tree_del (p, id);
  else
    service_tree_add (p, id, FALSE, now);
  p->active = IOCHART_SIM_NONE;
  maybe_release (p, id);
}

/* ---- idling ---- */

/* cfq_should_idle: queues with an idle window, and sync ones last on their tree */
static gboolean
should_idle (IochartSimPolicy *p, const Queue *q)
{
  if (q->klass == IOCHART_CLASS_IDLE || !q->on_rr)
    return q->klass != IOCHART_CLASS_IDLE && q->idle_window;
  return q->idle_window || (q->sync && tree_of (p, q)->n == 1);
}

static void
arm_slice_timer (IochartSimPolicy *p, Queue *q, gint64 now)
{
  gint64 sl = p->slice_idle;
  gboolean group_idle = FALSE;

  if (p->slice_idle == 0 || !should_idle (p, q))
    {
      /* 2.6.37's group_idle: the last queue of a group keeps it for the group's next request */
      if (p->group_idle == 0 || q->klass == IOCHART_CLASS_IDLE)
        return;
      sl = p->group_idle;
      group_idle = TRUE;
    }
  if (q->dispatched > 0 || q->refs == 0)
    return;
  if (group_idle && group_of (p, q)->nr_cfqq > 1)
    return;
  /* the think time must fit in what is left of the slice */
  if (!group_idle && q->ttime_samples > 80 && q->slice_end - now < q->ttime_mean)
    return;
  p->wait_request = TRUE;
  p->idle_until = now + sl;
}

/* cfq_should_wait_busy: the last queue of its group waits a little for its next request at the
 * end of its slice, and expires with it queued, so the group stays on the tree with its
 * vdisktime instead of going back behind the last one (only with groups: alone in the root group
 * it changes nothing) */
static gboolean
should_wait_busy (IochartSimPolicy *p, const Queue *q, gint64 now)
{
  if (p->n_groups < 2 || group_of (p, q)->nr_cfqq > 1 || q->klass == IOCHART_CLASS_IDLE)
    return FALSE;
  if (slice_used (q, now) || q->slice_end - now <= JIFFY_NS)
    return TRUE;
  return q->ttime_samples > 80 && q->slice_end - now < q->ttime_mean;
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
  if (q->sorted.n >= 4)
    q->deep = TRUE;
  if (q->refs == 0 || p->slice_idle == 0 || (!q->deep && seeky (q)))
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

/* ---- close cooperators ---- */

static inline guint64
dist_from_last (IochartSimPolicy *p, guint64 sector)
{
  return sector > p->last_position ? sector - p->last_position : p->last_position - sector;
}

/* cfq_close_cooperator: a sync, non-seeky queue of the same group, class and level whose next
 * request is close to where the device head is */
static guint32
close_cooperator (IochartSimPolicy *p, guint32 cur_id)
{
  const Queue *cur = &p->q[cur_id];
  Group *g = group_of (p, cur);
  guint prio = prio_of (cur);
  guint32 best = IOCHART_SIM_NONE;
  guint64 best_d = CLOSE_THR_SECTORS + 1;

  if (cur->klass == IOCHART_CLASS_IDLE || !cur->sync || seeky (cur) || g->nr_cfqq == 1)
    return IOCHART_SIM_NONE;
  for (guint type = WL_SYNC_NOIDLE; type <= WL_SYNC; type++)
    for (guint i = 0; i < g->st[prio][type].n; i++)
      {
        guint32 id = g->st[prio][type].v[i];
        const Queue *q = &p->q[id];
        guint64 d;

        if (id == cur_id || q->sorted.n == 0 || seeky (q) || q->level != cur->level)
          continue;
        d = dist_from_last (p, p->ctx->rq[next_rq (p, q)].sector);
        if (d < best_d)
          best = id, best_d = d;
      }
  return best;
}

/* cfq_setup_merge: the queue with fewer processes moves to the other one */
static void
setup_merge (IochartSimPolicy *p, guint32 cur, guint32 to)
{
  for (guint steps = 0; merge_target_valid (p, &p->q[to]) && steps < 8; steps++)
    {
      if (p->q[to].merge_to == cur)
        return;
      to = p->q[to].merge_to;
    }
  if (p->q[cur].refs == 0)
    return;
  if (p->q[to].refs >= p->q[cur].refs)
    {
      p->q[cur].merge_to = to;
      p->q[cur].merge_owner = p->q[to].owner;
    }
  else
    {
      p->q[to].merge_to = cur;
      p->q[to].merge_owner = p->q[cur].owner;
    }
}

/* ---- preemption ---- */

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
  if (nq->group != aq->group)
    return FALSE;
  if (slice_used (aq, now))
    return TRUE;
  /* only while idling on the sync-noidle tree for the other one of it */
  if (p->serving_type == WL_SYNC_NOIDLE && queue_type (nq) == WL_SYNC_NOIDLE &&
      tree_of (p, nq)->n == 2 && aq->sorted.n == 0)
    return TRUE;
  if ((rq->flags & IOCHART_RQ_META) && aq->meta_pending == 0)
    return TRUE;
  if (nq->klass == IOCHART_CLASS_RT && aq->klass != IOCHART_CLASS_RT)
    return TRUE;
  if (aq->sorted.n == 0 && !should_idle (p, aq))
    return TRUE;
  if (!p->wait_request)
    return FALSE;
  return dist_from_last (p, rq->sector) <= CLOSE_THR_SECTORS;
}

/* cfq_preempt_queue */
static void
preempt (IochartSimPolicy *p, guint32 id, gint64 now)
{
  Queue *q = &p->q[id];

  if (queue_type (&p->q[p->active]) != queue_type (q))
    group_of (p, q)->saved_workload_slice = 0;   /* or the preemption would not happen */
  slice_expired (p, now, TRUE);
  service_tree_add (p, id, TRUE, now);
  q->slice_end = 0;
  q->slice_new = TRUE;
}

/* ---- choosing the next queue ---- */

/* cfq_choose_wl: the workload whose first queue waited longest */
static guint
choose_wl (IochartSimPolicy *p, Group *g, guint prio)
{
  guint best = WL_SYNC_NOIDLE;
  gboolean valid = FALSE;
  gint64 lowest = 0;

  for (guint type = 0; type < N_WL; type++)
    {
      Tree *t = &g->st[prio][type];

      if (t->n > 0 && (!valid || p->q[t->v[0]].rr_key < lowest))
        {
          lowest = p->q[t->v[0]].rr_key;
          best = type;
          valid = TRUE;
        }
    }
  return best;
}

static void
choose_service_tree (IochartSimPolicy *p, Group *g, gint64 now)
{
  guint count, busy;
  gint64 slice;

  if (busy_queues_wl (g, PRIO_RT))
    p->serving_prio = PRIO_RT;
  else if (busy_queues_wl (g, PRIO_BE))
    p->serving_prio = PRIO_BE;
  else
    {
      p->serving_prio = PRIO_IDLE;
      p->workload_expires = now + JIFFY_NS;
      return;
    }
  /* the same workload until its slice ends, while it has queues */
  if (g->st[p->serving_prio][p->serving_type].n > 0 && now <= p->workload_expires)
    return;
  p->serving_type = choose_wl (p, g, p->serving_prio);
  count = g->st[p->serving_prio][p->serving_type].n;
  busy = busy_queues_wl (g, p->serving_prio);
  /* its share of the group's slice: its queues over all the queues of the class */
  slice = group_slice (p, g) * count / MAX (MAX (g->busy_avg[p->serving_prio == PRIO_RT], busy), 1);
  if (p->serving_type == WL_ASYNC)
    {
      guint nr_async = g->st[PRIO_BE][WL_ASYNC].n + g->st[PRIO_RT][WL_ASYNC].n;

      slice = MIN (slice, p->target_latency * nr_async / MAX (p->busy, 1));
      slice = slice * p->slice_async / p->slice_sync;
    }
  else
    slice = MAX (slice, 2 * p->slice_idle);
  p->workload_expires = now + MAX (slice, MIN_TT_NS);
}

/* cfq_choose_cfqg: the group with the least vdisktime, and where it left its workload */
static void
choose_group (IochartSimPolicy *p, gint64 now)
{
  Group *g;

  if (p->n_group_st == 0)
    {
      p->serving_group = G_MAXUINT;
      return;
    }
  p->serving_group = p->group_st[0];
  g = &p->groups[p->serving_group];
  p->min_vdisktime = MAX (p->min_vdisktime, g->vdisktime);
  if (g->saved_workload_slice)
    {
      p->workload_expires = now + g->saved_workload_slice;
      p->serving_type = g->saved_type;
      p->serving_prio = g->saved_prio;
    }
  else
    p->workload_expires = now - 1;
  choose_service_tree (p, g, now);
}

/* __cfq_set_active_queue */
static guint32
set_active (IochartSimPolicy *p, guint32 id, gint64 now)
{
  Queue *q;

  if (id == IOCHART_SIM_NONE)
    return IOCHART_SIM_NONE;
  q = &p->q[id];
  p->active = id;
  p->wait_request = FALSE;
  q->slice_new = TRUE;
  q->slice_start = 0;
  q->slice_end = 0;
  q->allocated_slice = 0;
  q->slice_dispatch = 0;
  q->dispatch_start = now;
  q->fifo_checked = FALSE;
  q->wait_busy = FALSE;
  return id;
}

static guint32
next_queue (IochartSimPolicy *p)
{
  Tree *t;

  if (p->serving_group == G_MAXUINT)
    return IOCHART_SIM_NONE;
  t = tree_for (&p->groups[p->serving_group], p->serving_prio, p->serving_type);
  return t->n > 0 ? t->v[0] : IOCHART_SIM_NONE;
}

/* cfq_select_queue */
static guint32
select_queue (IochartSimPolicy *p, gint64 now)
{
  Queue *q;
  Group *g;
  guint32 coop;

  if (p->active == IOCHART_SIM_NONE)
    goto new_queue;
  q = &p->q[p->active];
  g = group_of (p, q);
  /* the group waited to be backlogged, and is: it keeps its place on the tree */
  if (q->wait_busy && q->sorted.n > 0)
    goto expire;
  if (slice_used (q, now))
    {
      /* the last queue of its group waits for what it has in flight */
      if (g->nr_cfqq == 1 && q->sorted.n == 0 && q->dispatched > 0 && should_idle (p, q))
        return IOCHART_SIM_NONE;
      goto expire;
    }
  if (q->sorted.n > 0)
    return p->active;
  if ((coop = close_cooperator (p, p->active)) != IOCHART_SIM_NONE)
    {
      setup_merge (p, p->active, coop);
      slice_expired (p, now, FALSE);
      return set_active (p, coop, now);
    }
  if (p->wait_request || (q->dispatched > 0 && should_idle (p, q)))
    return IOCHART_SIM_NONE;
  if (p->group_idle > 0 && g->nr_cfqq == 1 && g->dispatched > 0)
    return IOCHART_SIM_NONE;
expire:
  slice_expired (p, now, FALSE);
new_queue:
  choose_group (p, now);
  return set_active (p, next_queue (p), now);
}

/* ---- the ops ---- */

static IochartSimPolicy *
cfq_init (const IochartSimCtx *ctx, IochartSimSettings *s, GError **error)
{
  g_autofree IochartSimPolicy *p = g_new0 (IochartSimPolicy, 1);
  double quantum, async_rq, back_max, back_penalty;

  if (!_iochart_sim_settings_double (s, "quantum", 8, 1, 1024, &quantum, error) ||
      !_iochart_sim_settings_time (s, "fifo_expire_sync", 125 * NS_MS, &p->fifo_expire[1], error) ||
      !_iochart_sim_settings_time (s, "fifo_expire_async", 250 * NS_MS, &p->fifo_expire[0], error) ||
      !_iochart_sim_settings_double (s, "back_seek_max", 16384, 0, 1 << 30, &back_max, error) ||
      !_iochart_sim_settings_double (s, "back_seek_penalty", 2, 1, 1024, &back_penalty, error) ||
      !_iochart_sim_settings_time (s, "slice_sync", 100 * NS_MS, &p->slice_sync, error) ||
      !_iochart_sim_settings_time (s, "slice_async", 40 * NS_MS, &p->slice_async, error) ||
      !_iochart_sim_settings_double (s, "slice_async_rq", 2, 1, 1024, &async_rq, error) ||
      !_iochart_sim_settings_time (s, "slice_idle", 8 * NS_MS, &p->slice_idle, error) ||
      !_iochart_sim_settings_time (s, "group_idle", 0, &p->group_idle, error) ||
      /* 2.6.35 counts requests, not time, when it does not idle on a queueing disk */
      !_iochart_sim_settings_bool (s, "iops_mode", p->slice_idle == 0 && ctx->depth > 1, &p->iops_mode, error) ||
      !_iochart_sim_settings_bool (s, "low_latency", TRUE, &p->low_latency, error) ||
      !_iochart_sim_settings_time (s, "target_latency", 300 * NS_MS, &p->target_latency, error))
    return NULL;
  if (p->slice_sync <= 0)
    p->slice_sync = 1;
  p->quantum = (guint) quantum;
  p->slice_async_rq = (guint) async_rq;
  p->back_max = (guint64) back_max * 2;    /* KiB to sectors */
  p->back_penalty = (guint) back_penalty;
  p->ctx = ctx;
  p->n_sync = ctx->n_processes + 1;
  _iochart_sim_pool_init (&p->pool, sizeof (Queue), IOCHART_SIM_N_ASYNC, p->n_sync);
  p->q = (Queue *) p->pool.items;
  p->merged = g_new0 (guint32, p->n_sync);
  p->n_groups = MAX (ctx->n_groups, 1);
  p->groups = g_new0 (Group, p->n_groups);
  p->group_st = g_new0 (guint16, p->n_groups);
  for (guint i = 0; i < p->n_groups; i++)
    /* the root group gets twice the default weight, as 2.6.35 gave it */
    p->groups[i].weight = ctx->group_weight && i < ctx->n_groups ? ctx->group_weight[i] : 2 * WEIGHT_DEFAULT;
  p->arrived_ns = g_new0 (gint64, MAX (ctx->n_rq, 1));
  p->rq_queue = g_new0 (guint32, MAX (ctx->n_rq, 1));
  p->active = IOCHART_SIM_NONE;
  p->serving_group = G_MAXUINT;
  p->last_delayed_sync = G_MININT64 / 2;
  return g_steal_pointer (&p);
}

static void
cfq_free (IochartSimPolicy *p)
{
  for (guint i = 0; i < p->pool.n; i++)
    {
      _iochart_sim_fifo_clear (&p->q[i].rqs);
      g_free (p->q[i].sorted.v);
    }
  for (guint i = 0; i < p->n_groups; i++)
    {
      for (guint c = 0; c < 2; c++)
        for (guint t = 0; t < N_WL; t++)
          g_free (p->groups[i].st[c][t].v);
      g_free (p->groups[i].idle.v);
    }
  g_free (p->groups);
  g_free (p->group_st);
  g_free (p->merged);
  _iochart_sim_pool_clear (&p->pool);
  g_free (p->arrived_ns);
  g_free (p->rq_queue);
  g_free (p);
}

static void
cfq_add (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  guint32 id = queue_for (p, r);
  Queue *q = &p->q[id];

  p->arrived_ns[rq] = now;
  p->rq_queue[rq] = id;
  _iochart_sim_fifo_push (&q->rqs, rq);
  _iochart_sim_sorted_insert (&q->sorted, p->ctx->rq, rq);
  if (r->flags & IOCHART_RQ_META)
    q->meta_pending++;
  if (!q->on_rr)
    service_tree_add (p, id, FALSE, now);
  update_seek (q, r);
  if (q->sync)
    {
      update_thinktime (p, q, now);
      update_idle_window (p, q);
    }
  if (id == p->active)
    p->wait_request = FALSE;       /* the request idling waited for */
  else if (should_preempt (p, q, r, now))
    preempt (p, id, now);
}

static gboolean
may_dispatch (IochartSimPolicy *p, Queue *q, gint64 now)
{
  guint max = MAX (p->quantum / 2, 1);

  if (should_idle (p, q) && p->in_flight[0] > 0)
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
cfq_dispatch (IochartSimPolicy *p, gint64 now)
{
  guint32 id = select_queue (p, now), rq;
  Queue *q;

  if (id == IOCHART_SIM_NONE)
    return IOCHART_SIM_NONE;
  q = &p->q[id];
  if (q->sorted.n == 0 || !may_dispatch (p, q, now))
    return IOCHART_SIM_NONE;
  if ((rq = fifo_expired (p, q, now)) == IOCHART_SIM_NONE)
    rq = next_rq (p, q);
  _iochart_sim_sorted_remove (&q->sorted, p->ctx->rq, rq);
  p->rq_queue[rq] |= IOCHART_SIM_DISPATCHED;
  _iochart_sim_fifo_skip_dispatched (&q->rqs, p->rq_queue);
  if (p->ctx->rq[rq].flags & IOCHART_RQ_META)
    q->meta_pending--;
  q->dispatched++;
  q->slice_dispatch++;
  group_of (p, q)->dispatched++;
  p->in_flight[q->sync]++;
  p->last_position = p->ctx->rq[rq].sector + p->ctx->rq[rq].bytes / 512;
  /* an idle queue, or an async one past its share, gives way at once when others are busy */
  if (p->busy > 1 && (q->klass == IOCHART_CLASS_IDLE ||
                      (!q->sync && q->slice_dispatch >= 2 * p->slice_async_rq * (8 - q->level))))
    {
      q->slice_end = now + JIFFY_NS;
      slice_expired (p, now, FALSE);
    }
  return rq;
}

static void
cfq_complete (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  guint32 id = p->rq_queue[rq] & ~IOCHART_SIM_DISPATCHED;
  Queue *q = &p->q[id];

  q->dispatched--;
  group_of (p, q)->dispatched--;
  p->in_flight[q->sync]--;
  if (q->sync)
    {
      q->last_end_ns = now;
      /* a sync request that waited longer than fifo_expire slows the async ramp (low_latency) */
      if (now - p->arrived_ns[rq] >= p->fifo_expire[1])
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
  if (should_wait_busy (p, q, now))
    {
      q->slice_end = now + (p->slice_idle ? p->slice_idle : p->group_idle);
      q->wait_busy = TRUE;
    }
  if (slice_used (q, now) || q->klass == IOCHART_CLASS_IDLE)
    slice_expired (p, now, TRUE);
  else if (q->sync && q->sorted.n == 0 && close_cooperator (p, id) == IOCHART_SIM_NONE)
    arm_slice_timer (p, q, now);
}

static void
cfq_exit (IochartSimPolicy *p, guint32 process, gint64 now)
{
  guint32 id;

  if (process >= p->n_sync - 1)
    return;
  id = p->merged[process] ? p->merged[process] : _iochart_sim_pool_queue_of_process (&p->pool, process);
  p->merged[process] = 0;
  if (id == 0 || p->q[id].refs == 0)
    return;
  p->q[id].refs--;
  if (id == p->active)
    slice_expired (p, now, FALSE);
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
  if (p->active != IOCHART_SIM_NONE && p->q[p->active].sorted.n == 0)
    slice_expired (p, now, TRUE);
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
