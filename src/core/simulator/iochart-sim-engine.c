/* iochart-sim-engine.c: the discrete-event loop
 *
 * Events are node readiness (a submission, fork or exit whose predecessor happened), request
 * completions and the policy's timer; they come out of one binary heap by time, ties by the
 * order they were pushed, so a run is the same every time. After every event the device takes
 * what the policy dispatches while it has room, and the policy's timer is re-armed.
 */
#include <string.h>
#include "iochart-sim-engine-private.h"
#include "iochart-error.h"

enum { EV_NODE, EV_DONE, EV_TIMER };

typedef struct {
  gint64  t;
  guint32 seq;
  guint32 code;          /* kind << 30 | index */
} Event;

#define EV_CODE(kind, i) ((guint32) (kind) << 30 | ((guint32) (i) & 0x3fffffff))

typedef struct {
  Event  *heap;
  guint   n, size;
  guint32 seq;
} Heap;

static inline gboolean
ev_before (const Event *a, const Event *b)
{
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void
heap_push (Heap *h, gint64 t, guint32 code)
{
  guint i;

  if (h->n == h->size)
    {
      h->size = MAX (64, h->size * 2);
      h->heap = g_renew (Event, h->heap, h->size);
    }
  i = h->n++;
  while (i > 0)
    {
      guint up = (i - 1) / 2;

      if (!(t < h->heap[up].t))   /* equal times: the earlier push has the smaller seq */
        break;
      h->heap[i] = h->heap[up];
      i = up;
    }
  h->heap[i] = (Event) { t, h->seq++, code };
}

static Event
heap_pop (Heap *h)
{
  Event top = h->heap[0], last = h->heap[--h->n];
  guint i = 0;

  for (;;)
    {
      guint c = 2 * i + 1;

      if (c >= h->n)
        break;
      if (c + 1 < h->n && ev_before (&h->heap[c + 1], &h->heap[c]))
        c++;
      if (!ev_before (&h->heap[c], &last))
        break;
      h->heap[i] = h->heap[c];
      i = c;
    }
  if (h->n > 0)
    h->heap[i] = last;
  return top;
}

typedef struct {
  const IochartSimGraph     *g;
  IochartSimDevice          *dev;
  const IochartSimPolicyOps *ops;
  IochartSimPolicy          *policy;
  IochartSimCtx              ctx;
  IochartSimTimes            times;
  IochartSimStats            stats;
  Heap                       heap;
  gint64                     armed_ns;
  gint64                     fired_ns;     /* the last timer handled: not armed again for the same time */
  gboolean                   serial;
  gint64                     free_ns;      /* a serial device: when it finishes what it holds */
  guint32                    timer_gen;
  guint                      idle_in_flight;
  guint64                    fg_queued;
} Run;

/* ---- policies by name ---- */

static const IochartSimPolicyOps *const policies[] = {
  &_iochart_sim_noop_ops, &_iochart_sim_cfq_ops, &_iochart_sim_deadline_ops, &_iochart_sim_bfq_ops,
};

static const IochartSimPolicyOps *
find_policy (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (policies); i++)
    if (strcmp (policies[i]->name, name) == 0)
      return policies[i];
  return NULL;
}

static gboolean
is_gate (const char *part)
{
  return strcmp (part, "idle-gate") == 0 || g_str_has_prefix (part, "idle-gate:");
}

/* "NAME[:SETTINGS]"; a gate wraps inner. Appends "NAME:used settings" to describe. */
static IochartSimPolicy *
make_one (const IochartSimCtx *ctx, const char *part, const IochartSimPolicyOps **ops,
          IochartSimPolicy *inner, const IochartSimPolicyOps *inner_ops, GString *describe, GError **error)
{
  const char *colon = strchr (part, ':');
  g_autofree char *name = colon ? g_strndup (part, colon - part) : g_strdup (part);
  g_autoptr(IochartSimSettings) s = _iochart_sim_settings_parse (colon ? colon + 1 : NULL, error);
  IochartSimPolicy *p;
  g_autofree char *used = NULL;

  if (s == NULL)
    return NULL;
  if (inner != NULL)
    {
      *ops = &_iochart_sim_idle_gate_ops;
      p = _iochart_sim_idle_gate_new (ctx, inner_ops, inner, s, error);
    }
  else if ((*ops = find_policy (name)) != NULL)
    p = (*ops)->init (ctx, s, error);
  else
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': unknown policy (noop, cfq, mq-deadline, bfq, idle-gate[+POLICY])", name);
      return NULL;
    }
  if (p == NULL)
    return NULL;
  if (!_iochart_sim_settings_check (s, name, error))
    {
      (*ops)->free (p);
      return NULL;
    }
  used = _iochart_sim_settings_to_string (s);
  if (describe)
    g_string_append_printf (describe, "%s%s%s%s", describe->len ? "+" : "", name, *used ? ":" : "", used);
  return p;
}

/* "idle-gate[:S]+INNER[:S]": the last part is the inner policy (noop under a lone gate), wrapped
 * by the gates before it. */
static IochartSimPolicy *
make_policy (const IochartSimCtx *ctx, const char *spec, const IochartSimPolicyOps **ops,
             GString *describe, GError **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, "+", -1);
  guint n = g_strv_length (parts), n_gates = n == 0 ? 0 : is_gate (parts[n - 1]) ? n : n - 1;
  g_autoptr(GString) inner_text = g_string_new (NULL);
  g_autoptr(GString) gates_text = g_string_new (NULL);
  IochartSimPolicy *p;

  for (guint i = 0; i < n_gates; i++)
    if (!is_gate (parts[i]))
      {
        g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                     "'%s': only idle-gate wraps another policy (idle-gate+cfq)", spec);
        return NULL;
      }
  if (n == 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "empty policy");
      return NULL;
    }
  p = make_one (ctx, n_gates == n ? "noop" : parts[n - 1], ops, NULL, NULL, inner_text, error);
  for (int i = (int) n_gates - 1; p != NULL && i >= 0; i--)
    {
      const IochartSimPolicyOps *inner_ops = *ops;
      g_autoptr(GString) one = g_string_new (NULL);
      IochartSimPolicy *gate = make_one (ctx, parts[i], ops, p, inner_ops, one, error);

      if (gate == NULL)
        inner_ops->free (p);
      else
        {
          g_string_append_c (one, '+');
          g_string_prepend (gates_text, one->str);
        }
      p = gate;
    }
  if (p != NULL && describe)
    g_string_append_printf (describe, "%s%s", gates_text->str, inner_text->str);
  return p;
}

gboolean
iochart_sim_policy_check (const char *spec, GError **error)
{
  IochartSimCtx ctx = { .depth = 1 };
  const IochartSimPolicyOps *ops;
  IochartSimPolicy *p = make_policy (&ctx, spec, &ops, NULL, error);

  if (p == NULL)
    return FALSE;
  ops->free (p);
  return TRUE;
}

char *
iochart_sim_policy_describe (const char *spec, guint depth)
{
  IochartSimCtx ctx = { .depth = MAX (depth, 1) };
  const IochartSimPolicyOps *ops;
  GString *out = g_string_new (NULL);
  IochartSimPolicy *p = make_policy (&ctx, spec, &ops, out, NULL);

  if (p == NULL)
    return g_string_free (out, TRUE), g_strdup (spec);
  ops->free (p);
  return g_string_free (out, FALSE);
}

/* ---- the loop ---- */

static void
release_successors (Run *r, guint32 node, gint64 now)
{
  const IochartSimGraph *g = r->g;

  for (guint32 k = g->succ_start[node]; k < g->succ_start[node + 1]; k++)
    heap_push (&r->heap, now + g->gap_ns[g->succ[k]], EV_CODE (EV_NODE, g->succ[k]));
}

static void
on_node (Run *r, guint32 node, gint64 now)
{
  const IochartSimGraph *g = r->g;
  guint R = g->n_rq;

  if (node < R)
    {
      r->times.submit_ns[node] = now;
      r->times.arrived[r->times.n_arrived++] = node;
      if (!_iochart_sim_rq_is_idle (&g->rq[node]))
        r->fg_queued++;
      r->ops->add (r->policy, node, now);
    }
  else
    {
      guint32 k = node - 2 * R;

      r->times.node_ns[k] = now;
      if (k >= r->ctx.n_processes)
        r->ops->exit (r->policy, k - r->ctx.n_processes, now);
    }
  release_successors (r, node, now);
}

static void
on_done (Run *r, guint32 rq, gint64 now)
{
  r->times.done_ns[rq] = now;
  r->ctx.in_flight--;
  if (_iochart_sim_rq_is_idle (&r->g->rq[rq]))
    r->idle_in_flight--;
  r->stats.requests++;
  r->ops->complete (r->policy, rq, now);
  release_successors (r, r->g->n_rq + rq, now);
}

static void
dispatch (Run *r, gint64 now)
{
  while (r->ctx.in_flight < r->ctx.depth)
    {
      guint32 rq = r->ops->dispatch (r->policy, now);
      const IochartSimRq *q;
      gint64 done;

      if (rq == IOCHART_SIM_NONE)
        break;
      g_assert (rq < r->g->n_rq && r->times.issue_ns[rq] == IOCHART_TIME_UNKNOWN);
      q = &r->g->rq[rq];
      r->times.issue_ns[rq] = now;
      r->ctx.in_flight++;
      if (_iochart_sim_rq_is_idle (q))
        {
          if (r->fg_queued > 0)
            r->stats.idle_dispatch_while_fg_queued++;
          r->idle_in_flight++;
          r->stats.max_idle_in_flight = MAX (r->stats.max_idle_in_flight, r->idle_in_flight);
        }
      else
        r->fg_queued--;
      done = now + _iochart_sim_device_service_ns (r->dev, q, rq, r->ctx.head_sector);
      if (r->serial)
        {
          if (r->free_ns > now)
            done += r->free_ns - now;
          r->free_ns = done;
        }
      heap_push (&r->heap, done, EV_CODE (EV_DONE, rq));
      r->ctx.head_sector = q->sector + q->bytes / 512;
    }
}

static void
arm_timer (Run *r, gint64 now)
{
  gint64 want = r->ops->next_timer (r->policy);

  if (want == r->armed_ns)
    return;
  r->armed_ns = want;
  if (want != IOCHART_TIME_UNKNOWN && want <= now && want == r->fired_ns)
    return;   /* the policy was woken for it and still wants it: it waits for another event */
  r->timer_gen = (r->timer_gen + 1) & 0x3fffffff;
  if (want != IOCHART_TIME_UNKNOWN)
    heap_push (&r->heap, MAX (want, now), EV_CODE (EV_TIMER, r->timer_gen));
}

static void
loop (Run *r)
{
  const IochartSimGraph *g = r->g;
  guint next_root = 0;

  while (next_root < g->n_roots || r->heap.n > 0)
    {
      Event ev;

      if (next_root < g->n_roots &&
          (r->heap.n == 0 || g->gap_ns[g->roots[next_root]] < r->heap.heap[0].t))
        {
          guint32 node = g->roots[next_root++];
          ev = (Event) { g->gap_ns[node], 0, EV_CODE (EV_NODE, node) };
        }
      else
        ev = heap_pop (&r->heap);
      r->stats.events++;
      r->stats.end_ns = ev.t;
      switch (ev.code >> 30)
        {
        case EV_NODE:
          on_node (r, ev.code & 0x3fffffff, ev.t);
          break;
        case EV_DONE:
          on_done (r, ev.code & 0x3fffffff, ev.t);
          break;
        default:
          if ((ev.code & 0x3fffffff) != r->timer_gen || r->armed_ns == IOCHART_TIME_UNKNOWN)
            continue;
          r->fired_ns = r->armed_ns;
          r->armed_ns = IOCHART_TIME_UNKNOWN;
          r->ops->timer (r->policy, ev.t);
          break;
        }
      dispatch (r, ev.t);
      arm_timer (r, ev.t);
    }
}

static void
times_init (IochartSimTimes *t, guint n_rq, guint n_processes)
{
  gint64 *all = g_new (gint64, 3 * (gsize) MAX (n_rq, 1) + 2 * (gsize) MAX (n_processes, 1));
  gsize n_all = 3 * (gsize) MAX (n_rq, 1) + 2 * (gsize) MAX (n_processes, 1);

  for (gsize i = 0; i < n_all; i++)
    all[i] = IOCHART_TIME_UNKNOWN;
  t->submit_ns = all;
  t->issue_ns = all + MAX (n_rq, 1);
  t->done_ns = all + 2 * MAX (n_rq, 1);
  t->node_ns = all + 3 * MAX (n_rq, 1);
  t->arrived = g_new (guint32, MAX (n_rq, 1));
  t->n_arrived = 0;
}

static guint
count_stuck (const Run *r)
{
  guint n = 0;

  for (guint i = 0; i < r->g->n_rq; i++)
    n += r->g->live[i] && r->times.done_ns[i] == IOCHART_TIME_UNKNOWN;
  return n;
}

IochartCapture *
iochart_sim_run (IochartSimWorkload *wl, IochartSimDevice *dev, const char *policy_spec,
                 IochartSimStats *stats, GError **error)
{
  const IochartSimGraph *g = _iochart_sim_workload_get_graph (wl);
  Run r = { .g = g, .dev = dev, .armed_ns = IOCHART_TIME_UNKNOWN,
            .fired_ns = IOCHART_TIME_UNKNOWN, .serial = _iochart_sim_device_is_serial (dev),
            .free_ns = G_MININT64 };
  g_autofree char *described = NULL;
  IochartCapture *out = NULL;
  guint stuck;

  r.ctx = (IochartSimCtx) { .rq = g->rq, .n_rq = g->n_rq,
                            .n_processes = iochart_capture_get_n_processes (g->capture),
                            .parent = g->parent, .depth = _iochart_sim_device_get_depth (dev),
                            .group = g->group, .group_weight = g->group_weight, .n_groups = g->n_groups };
  r.policy = make_policy (&r.ctx, policy_spec, &r.ops, NULL, error);
  if (r.policy == NULL)
    return NULL;
  times_init (&r.times, g->n_rq, r.ctx.n_processes);
  loop (&r);
  if (r.ops->stats)
    r.ops->stats (r.policy, &r.stats);
  r.ops->free (r.policy);
  stuck = count_stuck (&r);
  if (stuck > 0)
    g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': policy left %u requests undispatched",
                 policy_spec, stuck);
  else
    {
      r.times.end_ns = r.stats.end_ns;
      described = iochart_sim_policy_describe (policy_spec, r.ctx.depth);
      out = _iochart_sim_capture_new (g, described, &r.times, r.stats.events);
    }
  if (stats)
    *stats = r.stats;
  g_free (r.times.submit_ns);
  g_free (r.times.arrived);
  g_free (r.heap.heap);
  return out;
}
