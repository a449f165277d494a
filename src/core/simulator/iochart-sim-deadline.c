/* iochart-sim-deadline.c: mq-deadline with I/O priorities (Linux 5.14 and later)
 *
 * Per class (rt, be, idle; none counts as be, levels ignored) a FIFO and a sector-sorted set per
 * direction. A be or idle request older than prio_aging_expire goes first when two or more
 * classes have work; otherwise the highest class with requests queued or in flight is served:
 * batches of fifo_batch in sector order from the last position, a direction switch to writes
 * after writes_starved read batches, the FIFO head once it is past its expiry. No anticipation.
 */
#include "iochart-sim-private.h"

#define NS_MS G_GINT64_CONSTANT (1000000)

typedef struct {
  guint64 sector;
  guint32 rq;
} Pos;

typedef struct {
  IochartSimFifo fifo[2];      /* read, write */
  GArray        *sorted[2];    /* Pos by sector */
  guint64        latest_pos[2];
  guint64        queued;       /* inserted and not completed */
} Prio;

struct _IochartSimPolicy {
  const IochartSimCtx *ctx;
  Prio     prio[3];
  gint64  *arrived_ns;
  guint8  *gone;               /* dispatched: skipped at FIFO heads */
  guint    batching;
  guint    last_dir;
  guint    starved;
  gint64   expire[2];
  gint64   aging;
  guint    fifo_batch, writes_starved;
};

static guint
prio_of (const IochartSimRq *rq)
{
  return _iochart_sim_rq_sched_class (rq) - 1;   /* rt 0, be 1, idle 2 */
}

static guint
dir_of (const IochartSimRq *rq)
{
  return rq->op == IOCHART_OP_READ ? 0 : 1;
}

static IochartSimPolicy *
dl_init (const IochartSimCtx *ctx, IochartSimSettings *s, GError **error)
{
  g_autofree IochartSimPolicy *p = g_new0 (IochartSimPolicy, 1);
  double batch, starved;

  if (!_iochart_sim_settings_time (s, "read_expire", 500 * NS_MS, &p->expire[0], error) ||
      !_iochart_sim_settings_time (s, "write_expire", 5000 * NS_MS, &p->expire[1], error) ||
      !_iochart_sim_settings_double (s, "fifo_batch", 16, 1, 1 << 20, &batch, error) ||
      !_iochart_sim_settings_double (s, "writes_starved", 2, 0, 1 << 20, &starved, error) ||
      !_iochart_sim_settings_time (s, "prio_aging_expire", 10000 * NS_MS, &p->aging, error))
    return NULL;
  p->fifo_batch = (guint) batch;
  p->writes_starved = (guint) starved;
  p->ctx = ctx;
  p->arrived_ns = g_new0 (gint64, MAX (ctx->n_rq, 1));
  p->gone = g_new0 (guint8, MAX (ctx->n_rq, 1));
  for (guint c = 0; c < 3; c++)
    for (guint d = 0; d < 2; d++)
      p->prio[c].sorted[d] = g_array_new (FALSE, FALSE, sizeof (Pos));
  return g_steal_pointer (&p);
}

static void
dl_free (IochartSimPolicy *p)
{
  for (guint c = 0; c < 3; c++)
    for (guint d = 0; d < 2; d++)
      {
        _iochart_sim_fifo_clear (&p->prio[c].fifo[d]);
        g_array_unref (p->prio[c].sorted[d]);
      }
  g_free (p->arrived_ns);
  g_free (p->gone);
  g_free (p);
}

/* First index with (sector, rq) not below the key. */
static guint
lower_bound (GArray *a, guint64 sector, guint32 rq)
{
  guint lo = 0, hi = a->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const Pos *m = &g_array_index (a, Pos, mid);

      if (m->sector < sector || (m->sector == sector && m->rq < rq))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
dl_add (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  Prio *pr = &p->prio[prio_of (r)];
  guint d = dir_of (r);
  Pos pos = { r->sector, rq };

  p->arrived_ns[rq] = now;
  pr->queued++;
  _iochart_sim_fifo_push (&pr->fifo[d], rq);
  g_array_insert_val (pr->sorted[d], lower_bound (pr->sorted[d], r->sector, rq), pos);
}

static guint32
fifo_head (IochartSimPolicy *p, IochartSimFifo *f)
{
  while (f->len > 0 && p->gone[_iochart_sim_fifo_peek (f)])
    _iochart_sim_fifo_pop (f);
  return _iochart_sim_fifo_peek (f);
}

static gboolean
fifo_expired (IochartSimPolicy *p, Prio *pr, guint d, gint64 now)
{
  guint32 head = fifo_head (p, &pr->fifo[d]);

  return head != IOCHART_SIM_NONE && p->arrived_ns[head] + p->expire[d] <= now;
}

/* The next request in sector order from where the last one of this direction ended. */
static guint32
next_request (Prio *pr, guint d)
{
  guint i = lower_bound (pr->sorted[d], pr->latest_pos[d], 0);

  return i < pr->sorted[d]->len ? g_array_index (pr->sorted[d], Pos, i).rq : IOCHART_SIM_NONE;
}

static guint32
take (IochartSimPolicy *p, Prio *pr, guint32 rq)
{
  const IochartSimRq *r = &p->ctx->rq[rq];
  guint d = dir_of (r);

  g_array_remove_index (pr->sorted[d], lower_bound (pr->sorted[d], r->sector, rq));
  p->gone[rq] = 1;
  pr->latest_pos[d] = r->sector + r->bytes / 512;
  p->last_dir = d;
  p->batching++;
  return rq;
}

/* __dd_dispatch_request */
static guint32
dispatch_prio (IochartSimPolicy *p, Prio *pr, gint64 now)
{
  guint32 rq = next_request (pr, p->last_dir), next;
  gboolean reads, writes;
  guint d;

  if (rq != IOCHART_SIM_NONE && p->batching < p->fifo_batch)
    return take (p, pr, rq);
  reads = fifo_head (p, &pr->fifo[0]) != IOCHART_SIM_NONE;
  writes = fifo_head (p, &pr->fifo[1]) != IOCHART_SIM_NONE;
  if (reads && !(writes && p->starved++ >= p->writes_starved))
    d = 0;
  else if (writes)
    {
      p->starved = 0;
      d = 1;
    }
  else
    return IOCHART_SIM_NONE;
  next = next_request (pr, d);
  rq = fifo_expired (p, pr, d, now) || next == IOCHART_SIM_NONE ? fifo_head (p, &pr->fifo[d]) : next;
  p->batching = 0;
  return take (p, pr, rq);
}

/* dd_dispatch_prio_aged_requests */
static guint32
dispatch_aged (IochartSimPolicy *p, gint64 now)
{
  guint busy = 0;

  for (guint c = 0; c < 3; c++)
    busy += p->prio[c].queued > 0;
  if (busy < 2)
    return IOCHART_SIM_NONE;
  for (guint c = 1; c < 3; c++)
    for (guint d = 0; d < 2; d++)
      {
        guint32 head = fifo_head (p, &p->prio[c].fifo[d]);

        if (head != IOCHART_SIM_NONE && p->arrived_ns[head] + p->aging <= now)
          return take (p, &p->prio[c], head);
      }
  return IOCHART_SIM_NONE;
}

static guint32
dl_dispatch (IochartSimPolicy *p, gint64 now)
{
  guint32 rq = dispatch_aged (p, now);

  if (rq != IOCHART_SIM_NONE)
    return rq;
  for (guint c = 0; c < 3; c++)
    {
      rq = dispatch_prio (p, &p->prio[c], now);
      if (rq != IOCHART_SIM_NONE || p->prio[c].queued > 0)
        return rq;
    }
  return IOCHART_SIM_NONE;
}

static void
dl_complete (IochartSimPolicy *p, guint32 rq, gint64 now)
{
  (void) now;
  p->prio[prio_of (&p->ctx->rq[rq])].queued--;
}

static void
dl_exit (IochartSimPolicy *p, guint32 process, gint64 now)
{
  (void) p, (void) process, (void) now;
}

/* Aging and FIFO expiry are looked at on dispatch, which every completion brings. */
static gint64
dl_next_timer (IochartSimPolicy *p)
{
  (void) p;
  return IOCHART_TIME_UNKNOWN;
}

static void
dl_timer (IochartSimPolicy *p, gint64 now)
{
  (void) p, (void) now;
}

const IochartSimPolicyOps _iochart_sim_deadline_ops = {
  .name = "mq-deadline",
  .init = dl_init,
  .free = dl_free,
  .add = dl_add,
  .dispatch = dl_dispatch,
  .complete = dl_complete,
  .exit = dl_exit,
  .next_timer = dl_next_timer,
  .timer = dl_timer,
};
