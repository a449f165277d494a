/* iochart-sim-idle-gate.c: idle-class I/O only in real idle time, around any policy
 *
 * What the ionice man page still promises and CFQ did until 2.6.24: an idle request starts only
 * when no non-idle request is queued or in flight and the last non-idle completion is at least
 * `gap` ago (100 ms), with at most `k` idle requests in flight. `starve` (off by default) lets an
 * idle request through after waiting that long. The inner policy sees only non-idle requests.
 */
#include "iochart-sim-private.h"

struct _IochartSimPolicy {
  const IochartSimPolicyOps *inner_ops;
  IochartSimPolicy          *inner;
  const IochartSimRq        *rq;
  IochartSimFifo             idle;
  gint64                    *arrived_ns;    /* per request, only with a starvation guard */
  guint64                    fg_pending;    /* non-idle requests queued or in flight */
  guint                      idle_in_flight;
  gint64                     last_fg_done_ns;
  gint64                     gap_ns;
  gint64                     starve_ns;
  guint                      k;
};

IochartSimPolicy *
_iochart_sim_idle_gate_new (const IochartSimCtx *ctx, const IochartSimPolicyOps *inner_ops,
                            IochartSimPolicy *inner, IochartSimSettings *settings, GError **error)
{
  IochartSimPolicy *p = g_new0 (IochartSimPolicy, 1);
  double k;

  p->inner_ops = inner_ops;
  p->inner = inner;
  p->rq = ctx->rq;
  p->last_fg_done_ns = G_MININT64 / 2;
  if (!_iochart_sim_settings_time (settings, "gap", 100000000, &p->gap_ns, error) ||
      !_iochart_sim_settings_double (settings, "k", 1, 1, 1024, &k, error) ||
      !_iochart_sim_settings_time (settings, "starve", 0, &p->starve_ns, error))
    {
      g_free (p);    /* the caller keeps the inner policy */
      return NULL;
    }
  p->k = (guint) k;
  if (p->starve_ns > 0)
    p->arrived_ns = g_new0 (gint64, MAX (ctx->n_rq, 1));
  return p;
}

static void
gate_free (IochartSimPolicy *p)
{
  p->inner_ops->free (p->inner);
  _iochart_sim_fifo_clear (&p->idle);
  g_free (p->arrived_ns);
  g_free (p);
}

static void
gate_add (IochartSimPolicy *p, guint32 rq, gint64 now_ns)
{
  if (!_iochart_sim_rq_is_idle (&p->rq[rq]))
    {
      p->fg_pending++;
      p->inner_ops->add (p->inner, rq, now_ns);
      return;
    }
  if (p->arrived_ns)
    p->arrived_ns[rq] = now_ns;
  _iochart_sim_fifo_push (&p->idle, rq);
}

static gint64
open_at (IochartSimPolicy *p)
{
  if (p->idle.len == 0 || p->idle_in_flight >= p->k)
    return IOCHART_TIME_UNKNOWN;
  if (p->fg_pending == 0)
    return p->last_fg_done_ns + p->gap_ns;
  if (p->starve_ns > 0)
    return p->arrived_ns[_iochart_sim_fifo_peek (&p->idle)] + p->starve_ns;
  return IOCHART_TIME_UNKNOWN;
}

static guint32
gate_dispatch (IochartSimPolicy *p, gint64 now_ns)
{
  guint32 rq = p->inner_ops->dispatch (p->inner, now_ns);
  gint64 open = open_at (p);

  if (rq != IOCHART_SIM_NONE || open == IOCHART_TIME_UNKNOWN || open > now_ns)
    return rq;
  p->idle_in_flight++;
  return _iochart_sim_fifo_pop (&p->idle);
}

static void
gate_complete (IochartSimPolicy *p, guint32 rq, gint64 now_ns)
{
  if (_iochart_sim_rq_is_idle (&p->rq[rq]))
    {
      p->idle_in_flight--;
      return;
    }
  p->fg_pending--;
  p->last_fg_done_ns = now_ns;
  p->inner_ops->complete (p->inner, rq, now_ns);
}

static void
gate_exit (IochartSimPolicy *p, guint32 process, gint64 now_ns)
{
  p->inner_ops->exit (p->inner, process, now_ns);
}

static gint64
gate_next_timer (IochartSimPolicy *p)
{
  gint64 a = p->inner_ops->next_timer (p->inner), b = open_at (p);

  if (a == IOCHART_TIME_UNKNOWN)
    return b;
  if (b == IOCHART_TIME_UNKNOWN)
    return a;
  return MIN (a, b);
}

static void
gate_timer (IochartSimPolicy *p, gint64 now_ns)
{
  gint64 a = p->inner_ops->next_timer (p->inner);

  /* the gate's own opening needs nothing: the engine dispatches after every event */
  if (a != IOCHART_TIME_UNKNOWN && a <= now_ns)
    p->inner_ops->timer (p->inner, now_ns);
}

static void
gate_stats (IochartSimPolicy *p, IochartSimStats *stats)
{
  if (p->inner_ops->stats)
    p->inner_ops->stats (p->inner, stats);
}

const IochartSimPolicyOps _iochart_sim_idle_gate_ops = {
  .name = "idle-gate",
  .free = gate_free,
  .add = gate_add,
  .dispatch = gate_dispatch,
  .complete = gate_complete,
  .exit = gate_exit,
  .next_timer = gate_next_timer,
  .timer = gate_timer,
  .stats = gate_stats,
};
