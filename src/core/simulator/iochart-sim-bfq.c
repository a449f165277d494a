/* iochart-sim-bfq.c: BFQ, reduced to what decides who waits (Linux 6.x block/bfq-*.c)
 *
 * One sync queue per process, one async queue per class and level, weight (8 - level) * 10.
 * Classes are served strictly rt > be > idle, except that an idle class left unserved for
 * 200 ms (BFQ_CL_IDLE_TIMEOUT) gets one request. Within a class the busy queue with the lowest
 * virtual start goes next (start-time fair queueing: service / weight). A queue keeps the device
 * for its budget or timeout_sync; an emptied sync queue of a live, fast-thinking process is
 * idled on for slice_idle. An idle queue expires after one request when others are busy and
 * never idles.
 *
 * Budget feedback (__bfq_bfqq_recalc_budget): a sync queue's next budget doubles after a budget
 * timeout or an idle timeout with requests in flight, quadruples when it used it all, shrinks
 * after an idle timeout and follows the service it got when it had nothing more; slow queues and
 * timed-out ones are charged the time they held the device. Weight raising (low_latency): a sync
 * queue that becomes busy after 2 s idle (or new) is interactive, its weight 30 times for
 * wr_max_time or 120000 sectors; one that comes back later than its soft real-time deadline (its
 * service at 7000 sectors/s) is raised 3000 times for 300 ms; neither in a large burst (8 queues
 * made less than 180 ms apart); a raised or higher-class queue that becomes busy preempts the
 * one in service. Injection: while the queue in service idles, one request of another queue
 * may go to the device when idling does not boost throughput (a queueing device and a seeky or
 * not I/O-bound queue) or raised queues are busy. Queue merging: a new request close to the
 * position of the queue in service, or to another busy queue's next request, moves its
 * process's queue there while the queue is young; a merged queue that turns seeky splits.
 * A queue serves its requests in sector order (a backward seek within back_seek_max costs
 * back_seek_penalty times its distance), the oldest first once a slot when it waited past
 * fifo_expire. Not modelled: cgroups, the inject limit's learning (one request), waker queues.
 */
#include <string.h>
#include "iochart-sim-private.h"

#define NS_MS G_GINT64_CONSTANT (1000000)
#define SEEK_THR_SECTORS 800
#define CLOSE_THR_SECTORS (8 * 1024)
#define WR_COEFF 30
#define SOFTRT_WEIGHT_FACTOR 100
#define WR_RT_MAX_NS (300 * NS_MS)
#define WR_MIN_IDLE_NS (2000 * NS_MS)
#define MAX_SERVICE_FROM_WR 120000
#define MAX_SOFTRT_RATE 7000            /* sectors per second */
#define BURST_INTERVAL_NS (180 * NS_MS)
#define LARGE_BURST 8
#define MERGE_TIME_LIMIT_NS (100 * NS_MS)
#define REQUESTS_WITHIN_TIMER 120

typedef struct {
  IOCHART_SIM_QUEUE_HEAD;
  guint8   klass;
  gboolean sync, busy, in_large_burst, in_burst_list, io_bound, softrt_update, coop, budget_new;
  guint    refs;                /* live processes whose sync requests come here */
  guint32  merge_to;            /* scheduled merge (unused: BFQ merges at once) */
  guint    orig_weight, wr_coeff;
  gint64   wr_start_ns, wr_max_ns, wr_start_srt_ns;
  guint64  service_from_wr;
  guint64  budget, max_budget, service;   /* sectors: this slot's budget and service */
  double   vstart;              /* virtual start, sectors / weight */
  guint    dispatched;
  gint64   last_end_ns;
  gint64   ttime_mean;
  guint    ttime_samples;
  guint32  seek_history;
  guint64  last_pos;
  gboolean has_pos;
  gint64   budget_timeout_ns;
  gint64   soft_rt_next_start_ns, last_idle_bklogged_ns;
  guint64  service_from_backlogged;
  guint    requests_within_timer;
  gint64   first_io_ns;
} Queue;

G_STATIC_ASSERT (G_STRUCT_OFFSET (Queue, rqs) == 0 && G_STRUCT_OFFSET (Queue, fifo_checked) == G_STRUCT_OFFSET (IochartSimQueueHead, fifo_checked));

struct _IochartSimPolicy {
  const IochartSimCtx *ctx;
  IochartSimPool pool;         /* Queue; 32 async queues fixed, then one per live process */
  Queue   *q;                   /* pool.items, again after each _get */
  guint    n_sync;
  guint32 *merged;              /* per owner: the queue its sync requests go to, 0 its own */
  guint32 *rq_queue;            /* per request: its queue, | IOCHART_SIM_DISPATCHED once on the device */
  gint64  *arrived_ns;          /* per request */
  guint64  last_position;       /* where the last dispatched request ended */
  guint    busy[4];             /* busy queues per class */
  GArray  *busy_ids[4];         /* guint32 ids of the busy queues per class, in the order they became busy */
  double   vtime[4];            /* per class: virtual time of the last queue put in service */
  guint    wr_busy;             /* busy weight-raised queues */
  guint32  active;
  gint64   slot_start_ns;       /* when the queue in service got the device */
  guint64  in_serv_last_pos;
  gboolean idling;
  gint64   idle_until;
  gint64   slot_timeout_ns;     /* budget timeout of the queue in service, from its first completion */
  gint64   last_idle_served;
  /* bursts of queue creations */
  guint    burst_size;
  gboolean large_burst;
  gint64   last_ins_in_burst;
  guint32  burst_list[LARGE_BURST];
  /* tunables */
  gint64   slice_idle, timeout, wr_max_ns, fifo_expire[2];
  guint64  max_budget, min_budget, back_max;
  guint    back_penalty;
  gboolean low_latency;
  /* figures for the tests */
  guint64  stat_min_budget, stat_max_budget;
};

static inline guint
weight (const Queue *q)
{
  return q->orig_weight * q->wr_coeff;
}

static inline gboolean
seeky (const Queue *q)
{
  return __builtin_popcount (q->seek_history) > 19;
}

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
  q->klass = _iochart_sim_rq_sched_class (rq);
  q->orig_weight = (8 - (q->klass == IOCHART_CLASS_IDLE ? 7 : rq->level)) * 10;
  q->wr_coeff = 1;
  q->sync = id >= IOCHART_SIM_N_ASYNC;
  q->refs = q->sync ? 1 : G_MAXUINT / 2;
  q->last_end_ns = IOCHART_TIME_UNKNOWN;
  q->merge_to = IOCHART_SIM_NONE;
  /* bfq_init_bfqq: two thirds of the maximum; never idle "for long" before: it may be raised */
  q->max_budget = 2 * p->max_budget / 3;
  q->budget_timeout_ns = G_MININT64 / 4;
  q->soft_rt_next_start_ns = G_MININT64 / 4;
  q->first_io_ns = IOCHART_TIME_UNKNOWN;
  q->budget_new = TRUE;
}

/* A drained queue no live process uses gives its slot back. */
static void
maybe_release (IochartSimPolicy *p, guint32 id)
{
  Queue *q = &p->q[id];

  if (id < IOCHART_SIM_N_ASYNC || q->refs > 0 || q->sorted.n > 0 || q->dispatched > 0 || q->busy ||
      id == p->active || q->in_burst_list)
    return;
  q->klass = 0;
  _iochart_sim_pool_release (&p->pool, q->owner);
}

/* The queue of a request: its process's, or the one its queue was merged into; a merged queue
 * that turned seeky is split again. */
static guint32
queue_for (IochartSimPolicy *p, const IochartSimRq *rq, gboolean *fresh)
{
  guint32 owner, id;

  *fresh = FALSE;
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
      if (p->q[id].klass == 0)
        *fresh = TRUE;
      else if (p->q[id].refs == 0)
        p->q[id].refs = 1;          /* back from a merge */
      queue_init (p, id, rq);
    }
  return id;
}

static IochartSimPolicy *
bfq_init (const IochartSimCtx *ctx, IochartSimSettings *s, GError **error)
{
  g_autofree IochartSimPolicy *p = g_new0 (IochartSimPolicy, 1);
  double budget, back_max, back_penalty;

  if (!_iochart_sim_settings_time (s, "slice_idle", 8 * NS_MS, &p->slice_idle, error) ||
      !_iochart_sim_settings_time (s, "fifo_expire_sync", 125 * NS_MS, &p->fifo_expire[1], error) ||
      !_iochart_sim_settings_time (s, "fifo_expire_async", 250 * NS_MS, &p->fifo_expire[0], error) ||
      !_iochart_sim_settings_double (s, "back_seek_max", 16384, 0, 1 << 30, &back_max, error) ||
      !_iochart_sim_settings_double (s, "back_seek_penalty", 2, 1, 1024, &back_penalty, error) ||
      !_iochart_sim_settings_time (s, "timeout_sync", 125 * NS_MS, &p->timeout, error) ||
      !_iochart_sim_settings_double (s, "max_budget", 16384, 32, 1 << 30, &budget, error) ||
      !_iochart_sim_settings_bool (s, "low_latency", TRUE, &p->low_latency, error) ||
      /* bfq_wr_duration on a rotational disk at its reference rate */
      !_iochart_sim_settings_time (s, "wr_max_time", 7000 * NS_MS, &p->wr_max_ns, error))
    return NULL;
  p->max_budget = (guint64) budget;
  p->back_max = (guint64) back_max * 2;    /* KiB to sectors */
  p->back_penalty = (guint) back_penalty;
  p->min_budget = MAX (p->max_budget / 32, 1);
  p->ctx = ctx;
  p->n_sync = ctx->n_processes + 1;
  _iochart_sim_pool_init (&p->pool, sizeof (Queue), IOCHART_SIM_N_ASYNC, p->n_sync);
  p->q = (Queue *) p->pool.items;
  p->merged = g_new0 (guint32, p->n_sync);
  p->rq_queue = g_new0 (guint32, MAX (ctx->n_rq, 1));
  p->arrived_ns = g_new0 (gint64, MAX (ctx->n_rq, 1));
  for (guint c = 0; c < 4; c++)
    p->busy_ids[c] = g_array_new (FALSE, FALSE, sizeof (guint32));
  p->active = IOCHART_SIM_NONE;
  p->last_idle_served = G_MININT64 / 2;
  p->last_ins_in_burst = G_MININT64 / 2;
  p->stat_min_budget = G_MAXUINT64;
  return g_steal_pointer (&p);
}

static void
bfq_free (IochartSimPolicy *p)
{
  for (guint i = 0; i < p->pool.n; i++)
    {
      _iochart_sim_fifo_clear (&p->q[i].rqs);
      g_free (p->q[i].sorted.v);
    }
  for (guint c = 0; c < 4; c++)
    g_array_unref (p->busy_ids[c]);
  _iochart_sim_pool_clear (&p->pool);
  g_free (p->merged);
  g_free (p->rq_queue);
  g_free (p->arrived_ns);
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
  if (q->wr_coeff > 1)
    p->wr_busy += busy ? 1 : -1;
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

static guint
total_busy (IochartSimPolicy *p)
{
  return p->busy[1] + p->busy[2] + p->busy[3];
}

/* ---- weight raising ---- */

static void
set_wr (IochartSimPolicy *p, Queue *q, guint coeff, gint64 max_ns, gint64 now)
{
  if (q->busy && (q->wr_coeff > 1) != (coeff > 1))
    p->wr_busy += coeff > 1 ? 1 : -1;
  q->wr_coeff = coeff;
  q->wr_max_ns = max_ns;
  q->wr_start_ns = now;
  if (coeff > 1 && max_ns != WR_RT_MAX_NS)
    q->service_from_wr = 0;
}

/* bfq_update_wr_data: raising ends in a large burst, after its time or its service */
static void
update_wr (IochartSimPolicy *p, Queue *q, gint64 now)
{
  if (q->wr_coeff == 1)
    return;
  if (q->in_large_burst)
    set_wr (p, q, 1, 0, now);
  else if (now > q->wr_start_ns + q->wr_max_ns)
    {
      if (q->wr_max_ns != WR_RT_MAX_NS || now > q->wr_start_srt_ns + p->wr_max_ns)
        set_wr (p, q, 1, 0, now);
      else
        {
          /* switch_back_to_interactive_wr */
          set_wr (p, q, WR_COEFF, p->wr_max_ns, q->wr_start_srt_ns);
        }
    }
  if (q->wr_coeff > 1 && q->wr_max_ns != WR_RT_MAX_NS && q->service_from_wr > MAX_SERVICE_FROM_WR)
    set_wr (p, q, 1, 0, now);
}

/* bfq_handle_burst: queues made less than 180 ms apart form a burst; from the eighth on, it is
 * large, and none of its queues is raised */
static void
handle_burst (IochartSimPolicy *p, guint32 id, gint64 now)
{
  Queue *q = &p->q[id];

  if (q->in_burst_list || q->in_large_burst)
    return;
  if (now > p->last_ins_in_burst + BURST_INTERVAL_NS)
    {
      for (guint i = 0; i < p->burst_size && !p->large_burst; i++)
        {
          p->q[p->burst_list[i]].in_burst_list = FALSE;
          maybe_release (p, p->burst_list[i]);
        }
      p->large_burst = FALSE;
      p->burst_size = 1;
      p->burst_list[0] = id;
      q->in_burst_list = TRUE;
    }
  else if (p->large_burst)
    q->in_large_burst = TRUE;
  else if (++p->burst_size == LARGE_BURST)
    {
      p->large_burst = TRUE;
      for (guint i = 0; i < LARGE_BURST - 1; i++)
        {
          Queue *b = &p->q[p->burst_list[i]];

          b->in_burst_list = FALSE;
          b->in_large_burst = TRUE;
          maybe_release (p, p->burst_list[i]);
        }
      q->in_large_burst = TRUE;
    }
  else
    {
      p->burst_list[p->burst_size - 1] = id;
      q->in_burst_list = TRUE;
    }
  p->last_ins_in_burst = now;
}

/* bfq_bfqq_softrt_next_start: when a queue served at the soft real-time rate comes back */
static gint64
softrt_next_start (IochartSimPolicy *p, const Queue *q, gint64 now)
{
  gint64 by_rate = q->last_idle_bklogged_ns +
                   (gint64) (q->service_from_backlogged * 1000000000ull / MAX_SOFTRT_RATE);

  return MAX (MAX (q->soft_rt_next_start_ns, by_rate), now + p->slice_idle + 4 * NS_MS);
}

/* ---- budgets ---- */

static inline guint64
rq_sectors (IochartSimPolicy *p, guint32 rq)
{
  return MAX (p->ctx->rq[rq].bytes / 512, 1);
}

/* bfq_choose_req from the head */
static inline guint32
next_rq (IochartSimPolicy *p, const Queue *q)
{
  return _iochart_sim_sorted_next (&q->sorted, p->ctx->rq, p->last_position, p->back_max, p->back_penalty);
}

static inline guint64
budget_left (const Queue *q)
{
  return q->budget > q->service ? q->budget - q->service : 0;
}

enum { TOO_IDLE, BUDGET_TIMEOUT, BUDGET_EXHAUSTED, NO_MORE_REQUESTS, PREEMPTED };

/* __bfq_bfqq_recalc_budget */
static void
recalc_budget (IochartSimPolicy *p, Queue *q, guint reason)
{
  guint64 budget = q->wr_coeff == 1 ? q->max_budget : 2 * p->min_budget;

  if (q->sync && q->wr_coeff == 1)
    switch (reason)
      {
      case TOO_IDLE:
        if (q->dispatched > 0)
          budget = MIN (budget * 2, p->max_budget);
        else
          budget = budget > 5 * p->min_budget ? budget - 4 * p->min_budget : p->min_budget;
        break;
      case BUDGET_TIMEOUT:
        budget = MIN (budget * 2, p->max_budget);
        break;
      case BUDGET_EXHAUSTED:
        budget = MIN (budget * 4, p->max_budget);
        break;
      case NO_MORE_REQUESTS:
        budget = MAX (q->service, p->min_budget);
        break;
      default:
        return;
      }
  else if (!q->sync)
    budget = p->max_budget;
  q->max_budget = MIN (budget, p->max_budget);
  if (q->sync)
    {
      p->stat_min_budget = MIN (p->stat_min_budget, q->max_budget);
      p->stat_max_budget = MAX (p->stat_max_budget, q->max_budget);
    }
}

/* bfq_bfqq_is_slow and bfq_bfqq_charge_time: a slow or timed-out queue pays for the time it held
 * the device as if it had been served at the full budget's rate */
static void
charge (IochartSimPolicy *p, Queue *q, guint reason, gint64 now)
{
  gint64 held = now - p->slot_start_ns;
  gboolean slow = seeky (q);

  if (!q->sync || q->wr_coeff > 1)
    return;
  if (held > 20 * NS_MS)
    slow = q->service < p->max_budget / 2;
  if (slow || (reason == BUDGET_TIMEOUT && budget_left (q) >= q->budget / 3))
    {
      guint64 by_time = p->max_budget * (guint64) MIN (MAX (held, 0), p->timeout) / (guint64) MAX (p->timeout, 1);

      q->service = MAX (q->service, by_time);
    }
}

/* bfq_bfqq_expire */
static void
expire (IochartSimPolicy *p, guint reason, gint64 now)
{
  guint32 id = p->active;
  Queue *q;

  if (id == IOCHART_SIM_NONE)
    return;
  q = &p->q[id];
  charge (p, q, reason, now);
  recalc_budget (p, q, reason);
  q->vstart += (double) q->service / weight (q);
  q->service = 0;
  q->budget_new = TRUE;
  p->idling = FALSE;
  if (p->low_latency && q->wr_coeff == 1)
    q->wr_start_ns = now;
  if (q->sorted.n == 0)
    {
      if (p->low_latency && q->sync)
        {
          if (q->dispatched == 0)
            q->soft_rt_next_start_ns = softrt_next_start (p, q, now);
          else
            q->softrt_update = TRUE;
        }
      set_busy (p, id, FALSE);
    }
  else
    q->budget = MAX (q->max_budget, rq_sectors (p, next_rq (p, q)));
  p->active = IOCHART_SIM_NONE;
  maybe_release (p, id);
}

/* ---- arrivals ---- */

static gboolean
may_merge_with (IochartSimPolicy *p, guint32 id, guint32 with, gint64 now)
{
  const Queue *a = &p->q[id], *b = &p->q[with];

  return id != with && b->sync && b->klass != 0 && b->klass != IOCHART_CLASS_IDLE && b->refs > 0 &&
         (a->klass == IOCHART_CLASS_RT) == (b->klass == IOCHART_CLASS_RT) &&
         !(b->service_from_backlogged > 0 && now > b->first_io_ns + MERGE_TIME_LIMIT_NS);
}

static inline guint64
dist (guint64 a, guint64 b)
{
  return a > b ? a - b : b - a;
}

/* bfq_setup_cooperator: a young sync queue whose request lies close to where the queue in
 * service is, or to another busy queue's next request, goes into that queue. */
static guint32
cooperator (IochartSimPolicy *p, guint32 id, const IochartSimRq *rq, gint64 now)
{
  const Queue *q = &p->q[id];

  if (!q->sync || q->klass == IOCHART_CLASS_IDLE || total_busy (p) <= 1 ||
      (q->service_from_backlogged > 0 && q->first_io_ns != IOCHART_TIME_UNKNOWN &&
       now > q->first_io_ns + MERGE_TIME_LIMIT_NS))
    return IOCHART_SIM_NONE;
  if (p->active != IOCHART_SIM_NONE && dist (rq->sector, p->in_serv_last_pos) <= CLOSE_THR_SECTORS &&
      may_merge_with (p, id, p->active, now))
    return p->active;
  for (guint c = IOCHART_CLASS_RT; c <= IOCHART_CLASS_BE; c++)
    for (guint i = 0; i < p->busy_ids[c]->len; i++)
      {
        guint32 other = g_array_index (p->busy_ids[c], guint32, i);
        guint32 next = next_rq (p, &p->q[other]);

        if (next != G_MAXUINT32 && dist (rq->sector, p->ctx->rq[next].sector) <= CLOSE_THR_SECTORS &&
            may_merge_with (p, id, other, now))
          return other;
      }
  return IOCHART_SIM_NONE;
}

static void
merge_into (IochartSimPolicy *p, const IochartSimRq *rq, guint32 id, guint32 to)
{
  guint32 owner = MIN (rq->process, p->n_sync - 1);

  p->q[id].refs--;
  p->q[to].refs++;
  p->q[to].coop = TRUE;
  p->merged[owner] = to;
  maybe_release (p, id);
}

/* bfq_bfqq_higher_class_or_weight */
static gboolean
higher_class_or_weight (const Queue *q, const Queue *in_serv)
{
  return q->klass < in_serv->klass || (q->klass == in_serv->klass && weight (q) > weight (in_serv));
}

/* bfq_bfqq_handle_idle_busy_switch */
static void
idle_busy_switch (IochartSimPolicy *p, guint32 id, gint64 now)
{
  Queue *q = &p->q[id];
  gboolean arrived_in_time = q->last_end_ns != IOCHART_TIME_UNKNOWN && now <= q->last_end_ns + 3 * p->slice_idle;
  gboolean idle_for_long = now > q->budget_timeout_ns + WR_MIN_IDLE_NS;
  gboolean soft_rt, interactive;
  guint old_wr = q->wr_coeff;

  if (!q->io_bound)
    {
      q->requests_within_timer = arrived_in_time ? q->requests_within_timer + 1 : 0;
      q->io_bound = q->requests_within_timer >= REQUESTS_WITHIN_TIMER;
    }
  soft_rt = !q->in_large_burst && now > q->soft_rt_next_start_ns && q->dispatched == 0 && q->orig_weight == 40;
  interactive = !q->in_large_burst && idle_for_long && q->orig_weight == 40;
  if (p->low_latency && q->sync && q->klass != IOCHART_CLASS_IDLE && !q->coop)
    {
      if (old_wr == 1 && (interactive || soft_rt))
        {
          if (interactive)
            set_wr (p, q, WR_COEFF, p->wr_max_ns, now);
          else
            {
              q->wr_start_srt_ns = G_MININT64 / 4;
              set_wr (p, q, WR_COEFF * SOFTRT_WEIGHT_FACTOR, WR_RT_MAX_NS, now);
            }
        }
      else if (old_wr > 1)
        {
          if (interactive)
            set_wr (p, q, WR_COEFF, p->wr_max_ns, now);
          else if (q->in_large_burst)
            set_wr (p, q, 1, 0, now);
          else if (soft_rt)
            {
              if (q->wr_max_ns != WR_RT_MAX_NS)
                q->wr_start_srt_ns = q->wr_start_ns;
              set_wr (p, q, WR_COEFF * SOFTRT_WEIGHT_FACTOR, WR_RT_MAX_NS, now);
            }
        }
    }
  q->last_idle_bklogged_ns = now;
  q->service_from_backlogged = 0;
  q->softrt_update = FALSE;
  q->budget = MAX (q->max_budget, rq_sectors (p, next_rq (p, q)));
  set_busy (p, id, TRUE);
  /* a higher class or weight (a raised queue) takes the device from the one in service; not
   * modelled: a queue expired while it waited preempting back to recover its service hole */
  if (p->active != IOCHART_SIM_NONE && p->active != id && higher_class_or_weight (q, &p->q[p->active]))
    expire (p, PREEMPTED, now);
}

static void
update_seek (Queue *q, const IochartSimRq *rq)
{
  if (q->has_pos)
    q->seek_history = q->seek_history << 1 | (dist (rq->sector, q->last_pos) > SEEK_THR_SECTORS);
  q->last_pos = rq->sector + rq->bytes / 512;
  q->has_pos = TRUE;
}

static void
bfq_add (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  gboolean fresh;
  guint32 id = queue_for (p, r, &fresh), to;
  Queue *q;

  if (fresh && p->q[id].sync && (p->burst_size > 0 || total_busy (p) == 0))
    handle_burst (p, id, now);
  if ((to = cooperator (p, id, r, now)) != IOCHART_SIM_NONE)
    {
      merge_into (p, r, id, to);
      id = to;
    }
  q = &p->q[id];
  if (q->sync && q->last_end_ns != IOCHART_TIME_UNKNOWN)
    {
      gint64 tt = MIN (now - q->last_end_ns, 2 * p->slice_idle);
      q->ttime_samples = (7 * q->ttime_samples + 256) / 8;
      q->ttime_mean = (7 * q->ttime_mean + tt) / 8;
    }
  update_seek (q, r);
  p->rq_queue[rq] = id;
  p->arrived_ns[rq] = now;
  _iochart_sim_fifo_push (&q->rqs, rq);
  _iochart_sim_sorted_insert (&q->sorted, p->ctx->rq, rq);
  if (!q->busy)
    idle_busy_switch (p, id, now);
  if (id == p->active)
    p->idling = FALSE;
  else if (p->idling && q->klass < p->q[p->active].klass)
    expire (p, PREEMPTED, now);              /* a higher class ends the wait */
}

/* ---- dispatch ---- */

static gboolean
may_idle (IochartSimPolicy *p, const Queue *q)
{
  return p->slice_idle > 0 && q->sync && q->refs > 0 && q->klass != IOCHART_CLASS_IDLE &&
         (q->ttime_samples < 80 || q->ttime_mean <= p->slice_idle);
}

/* idling_boosts_thr_without_issues: on a device that serves one at a time, or for a sequential,
 * I/O-bound queue on one that queues, as long as no raised queue waits */
static gboolean
idling_boosts_thr (IochartSimPolicy *p, const Queue *q)
{
  return (p->ctx->depth <= 1 || (!seeky (q) && q->io_bound)) && p->wr_busy == 0;
}

/* bfq_choose_bfqq_for_injection: one request of another busy queue with budget left for it */
static guint32
injection (IochartSimPolicy *p, const Queue *in_serv)
{
  gboolean always = in_serv->wr_coeff == 1 || in_serv->ttime_mean > p->slice_idle;

  if (p->ctx->in_flight >= 1)
    return IOCHART_SIM_NONE;
  for (guint c = IOCHART_CLASS_RT; c <= IOCHART_CLASS_IDLE; c++)
    for (guint i = 0; i < p->busy_ids[c]->len; i++)
      {
        guint32 id = g_array_index (p->busy_ids[c], guint32, i);
        const Queue *q = &p->q[id];

        if (id != p->active && q->sorted.n > 0 && (always || q->wr_coeff > 1) &&
            rq_sectors (p, next_rq (p, q)) <= budget_left (q))
          return id;
      }
  return IOCHART_SIM_NONE;
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

      if (q->sorted.n > 0 && (best == IOCHART_SIM_NONE || q->vstart < p->q[best].vstart))
        best = id;
    }
  if (best != IOCHART_SIM_NONE)
    {
      p->active = best;
      p->slot_start_ns = now;
      p->q[best].service = 0;
      p->q[best].fifo_checked = FALSE;
      p->slot_timeout_ns = G_MAXINT64 / 2;     /* set at the first completion */
      p->vtime[klass] = p->q[best].vstart;
    }
  return best;
}

/* once a slot, the oldest request if it waited past fifo_expire */
static guint32
fifo_expired (IochartSimPolicy *p, Queue *q, gint64 now)
{
  return _iochart_sim_queue_fifo_expired (&q->head, p->rq_queue, p->arrived_ns, p->fifo_expire[q->sync], now);
}

/* The request goes to the device: the queue pays for it. */
static guint32
take (IochartSimPolicy *p, guint32 id, gint64 now)
{
  Queue *q = &p->q[id];
  guint32 rq = fifo_expired (p, q, now);
  guint64 n;

  if (rq == IOCHART_SIM_NONE)
    rq = next_rq (p, q);
  n = rq_sectors (p, rq);
  _iochart_sim_sorted_remove (&q->sorted, p->ctx->rq, rq);
  p->last_position = p->ctx->rq[rq].sector + p->ctx->rq[rq].bytes / 512;

  q->dispatched++;
  if (id == p->active)
    q->service += n;
  else
    {
      q->vstart += (double) n / weight (q);   /* injected: paid at once */
      q->budget_timeout_ns = MAX (q->budget_timeout_ns, now);   /* served: not idle for long */
    }
  q->service_from_backlogged += n;
  if (q->wr_coeff > 1)
    q->service_from_wr += n;
  if (q->first_io_ns == IOCHART_TIME_UNKNOWN)
    q->first_io_ns = now;
  p->rq_queue[rq] |= IOCHART_SIM_DISPATCHED;
  _iochart_sim_fifo_skip_dispatched (&q->rqs, p->rq_queue);
  update_wr (p, q, now);
  if (id != p->active && q->sorted.n == 0)
    set_busy (p, id, FALSE);        /* all its requests injected: off the active list */
  return rq;
}

static guint32
bfq_dispatch (IochartSimPolicy *p, gint64 now)
{
  Queue *q;
  guint32 rq;

  if (p->active != IOCHART_SIM_NONE)
    {
      q = &p->q[p->active];
      if (now >= p->slot_timeout_ns && (!p->idling || budget_left (q) >= q->budget / 3))
        expire (p, BUDGET_TIMEOUT, now);
      else if (q->sorted.n > 0)
        {
          if (rq_sectors (p, next_rq (p, q)) > budget_left (q))
            expire (p, BUDGET_EXHAUSTED, now);
        }
      else if (p->idling || (q->dispatched > 0 && may_idle (p, q)))
        {
          guint32 inj;

          if (!idling_boosts_thr (p, q) && (inj = injection (p, q)) != IOCHART_SIM_NONE)
            {
              return take (p, inj, now);
            }
          return IOCHART_SIM_NONE;
        }
      else
        expire (p, NO_MORE_REQUESTS, now);
    }
  if (p->active == IOCHART_SIM_NONE && pick (p, now) == IOCHART_SIM_NONE)
    return IOCHART_SIM_NONE;
  q = &p->q[p->active];
  if (q->klass == IOCHART_CLASS_IDLE && q->dispatched > 0)
    return IOCHART_SIM_NONE;
  rq = take (p, p->active, now);
  p->in_serv_last_pos = p->ctx->rq[rq].sector + p->ctx->rq[rq].bytes / 512;
  if (q->klass == IOCHART_CLASS_IDLE)
    {
      p->last_idle_served = now;
      if (total_busy (p) - (q->busy ? 1 : 0) > 0)
        expire (p, NO_MORE_REQUESTS, now);
    }
  return rq;
}

static void
bfq_complete (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  guint32 id = p->rq_queue[rq] & ~IOCHART_SIM_DISPATCHED;
  Queue *q = &p->q[id];

  q->dispatched--;
  q->last_end_ns = now;
  if (q->softrt_update && q->dispatched == 0 && q->sorted.n == 0)
    {
      q->soft_rt_next_start_ns = softrt_next_start (p, q, now);
      q->softrt_update = FALSE;
    }
  if (id != p->active)
    {
      maybe_release (p, id);
      return;
    }
  update_wr (p, q, now);
  if (q->budget_new)
    {
      /* bfq_set_budget_timeout: a raised queue gets its weight's multiple of the timeout */
      q->budget_timeout_ns = p->slot_timeout_ns =
        now + p->timeout * (q->wr_max_ns == WR_RT_MAX_NS ? 1 : q->wr_coeff);
      q->budget_new = FALSE;
    }
  if (q->sorted.n > 0 || q->dispatched > 0)
    return;
  if (may_idle (p, q) && now < p->slot_timeout_ns)
    {
      p->idling = TRUE;
      p->idle_until = now + p->slice_idle;
    }
  else
    expire (p, NO_MORE_REQUESTS, now);
}

static void
bfq_exit (IochartSimPolicy *p, guint32 process, gint64 now)
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
    expire (p, NO_MORE_REQUESTS, now);
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
    expire (p, TOO_IDLE, now);
}

static void
bfq_stats (IochartSimPolicy *p, IochartSimStats *stats)
{
  stats->min_budget_sectors = p->stat_min_budget == G_MAXUINT64 ? 0 : p->stat_min_budget;
  stats->max_budget_sectors = p->stat_max_budget;
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
  .stats = bfq_stats,
};
