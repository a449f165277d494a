/* iochart-sim-noop.c: one FIFO for everything (the `none` and `noop` schedulers) */
#include "iochart-sim-private.h"

struct _IochartSimPolicy {
  IochartSimFifo fifo;
};

static IochartSimPolicy *
noop_init (const IochartSimCtx *ctx, IochartSimSettings *settings, GError **error)
{
  (void) ctx, (void) settings, (void) error;
  return g_new0 (IochartSimPolicy, 1);
}

static void
noop_free (IochartSimPolicy *p)
{
  _iochart_sim_fifo_clear (&p->fifo);
  g_free (p);
}

static void
noop_add (IochartSimPolicy *p, guint32 rq, gint64 now_ns)
{
  (void) now_ns;
  _iochart_sim_fifo_push (&p->fifo, rq);
}

static guint32
noop_dispatch (IochartSimPolicy *p, gint64 now_ns)
{
  (void) now_ns;
  return _iochart_sim_fifo_pop (&p->fifo);
}

static void
noop_complete (IochartSimPolicy *p, guint32 rq, gint64 now_ns)
{
  (void) p, (void) rq, (void) now_ns;
}

static void
noop_exit (IochartSimPolicy *p, guint32 process, gint64 now_ns)
{
  (void) p, (void) process, (void) now_ns;
}

static gint64
noop_next_timer (IochartSimPolicy *p)
{
  (void) p;
  return IOCHART_TIME_UNKNOWN;
}

static void
noop_timer (IochartSimPolicy *p, gint64 now_ns)
{
  (void) p, (void) now_ns;
}

const IochartSimPolicyOps _iochart_sim_noop_ops = {
  .name = "noop",
  .init = noop_init,
  .free = noop_free,
  .add = noop_add,
  .dispatch = noop_dispatch,
  .complete = noop_complete,
  .exit = noop_exit,
  .next_timer = noop_next_timer,
  .timer = noop_timer,
};
