/* iochart-sim-compare.c: per-lane, per-class and per-process figures of observed and simulated runs */
#include <string.h>
#include "iochart-sim-compare.h"
#include "iochart-sim-private.h"

typedef struct {
  gint64 a, b;
} Span;

static int
span_cmp (gconstpointer x, gconstpointer y)
{
  const Span *s = x, *t = y;

  return s->a < t->a ? -1 : s->a > t->a;
}

static int
i64_cmp (gconstpointer x, gconstpointer y)
{
  gint64 a = *(const gint64 *) x, b = *(const gint64 *) y;

  return a < b ? -1 : a > b;
}

static inline gboolean
known (gint64 ns)
{
  return ns != IOCHART_TIME_UNKNOWN;
}

static void
stretch (IochartSimFigures *f, gint64 a, gint64 b)
{
  if (known (a) && (!known (f->start_ns) || a < f->start_ns))
    f->start_ns = a;
  if (known (b) && (!known (f->end_ns) || b > f->end_ns))
    f->end_ns = b;
}

/* Percentiles of each group's Q2C, and the union of its requests' outstanding intervals. */
static void
finish (IochartSimFigures *f, GArray *q2c, GArray *spans)
{
  gint64 covered = 0, until = G_MININT64;

  if (q2c->len > 0)
    {
      g_array_sort (q2c, i64_cmp);
      f->q2c_p50_ns = g_array_index (q2c, gint64, (q2c->len - 1) / 2);
      f->q2c_p99_ns = g_array_index (q2c, gint64, (guint) ((q2c->len - 1) * 0.99));
    }
  g_array_sort (spans, span_cmp);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *s = &g_array_index (spans, Span, i);

      if (s->b <= until)
        continue;
      covered += s->b - MAX (s->a, until);
      until = s->b;
    }
  f->disk_ns = covered;
}

void
iochart_sim_figures_lanes (IochartCapture *capture, guint device, IochartLanes *lanes,
                           IochartSimFigures *per_lane, IochartSimFigures *per_class)
{
  guint n_lanes = iochart_lanes_get_n_lanes (lanes), n_groups = n_lanes + IOCHART_N_CLASSES;
  guint n_rq = iochart_capture_get_n_requests (capture), n_proc = iochart_capture_get_n_processes (capture);
  g_autofree IochartSimFigures *f = g_new0 (IochartSimFigures, n_groups);
  g_autoptr(GPtrArray) q2c = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) spans = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < n_groups; i++)
    {
      f[i].start_ns = f[i].end_ns = IOCHART_TIME_UNKNOWN;
      g_ptr_array_add (q2c, g_array_new (FALSE, FALSE, sizeof (gint64)));
      g_ptr_array_add (spans, g_array_new (FALSE, FALSE, sizeof (Span)));
    }
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest r;
      int groups[2];
      gint64 a;

      iochart_capture_get_request (capture, i, &r);
      if (r.device != device || !known (r.issue_ns) || !known (r.complete_ns))
        continue;
      a = _iochart_sim_submit_ns (&r);
      groups[0] = r.process == IOCHART_NO_PROCESS ? -1 : iochart_lanes_lane_of_process (lanes, r.process);
      groups[1] = n_lanes + MIN (r.klass, IOCHART_N_CLASSES - 1);
      for (guint k = 0; k < 2; k++)
        {
          IochartSimFigures *g;

          if (groups[k] < 0)
            continue;
          g = &f[groups[k]];
          stretch (g, a, r.complete_ns);
          g->bytes += r.bytes;
          g->requests++;
          g->flushes += r.op == IOCHART_OP_FLUSH;
          g_array_append_val (q2c->pdata[groups[k]], (gint64) { r.complete_ns - a });
          g_array_append_val (spans->pdata[groups[k]], ((Span) { a, r.complete_ns }));
        }
    }
  /* a lane lives from its first fork to its last exit when they were seen */
  for (guint p = 0; p < n_proc; p++)
    {
      const IochartProcess *proc = iochart_capture_get_process (capture, p);
      int lane = iochart_lanes_lane_of_process (lanes, p);

      if (lane >= 0 && f[lane].requests > 0)
        stretch (&f[lane], proc->start_ns, proc->exit_ns);
    }
  for (guint i = 0; i < n_groups; i++)
    finish (&f[i], q2c->pdata[i], spans->pdata[i]);
  memcpy (per_lane, f, n_lanes * sizeof (IochartSimFigures));
  memcpy (per_class, f + n_lanes, IOCHART_N_CLASSES * sizeof (IochartSimFigures));
}

void
iochart_sim_figures_processes (IochartCapture *capture, guint device, gint64 *end_ns, guint64 *bytes)
{
  guint n_rq = iochart_capture_get_n_requests (capture), n_proc = iochart_capture_get_n_processes (capture);

  for (guint p = 0; p < n_proc; p++)
    {
      end_ns[p] = IOCHART_TIME_UNKNOWN;
      bytes[p] = 0;
    }
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest r;

      iochart_capture_get_request (capture, i, &r);
      if (r.device != device || r.process == IOCHART_NO_PROCESS || !known (r.complete_ns))
        continue;
      bytes[r.process] += r.bytes;
      end_ns[r.process] = MAX (end_ns[r.process], r.complete_ns);
    }
  for (guint p = 0; p < n_proc; p++)
    {
      const IochartProcess *proc = iochart_capture_get_process (capture, p);

      if (bytes[p] > 0 && known (proc->exit_ns))
        end_ns[p] = MAX (end_ns[p], proc->exit_ns);
    }
}

gboolean
iochart_sim_figures_mostly_off_disk (const IochartSimFigures *f)
{
  gint64 life = known (f->start_ns) && known (f->end_ns) ? f->end_ns - f->start_ns : 0;

  return life > 0 && f->disk_ns * 2 < life;
}

char *
iochart_sim_figures_change_text (const IochartSimFigures *obs, const IochartSimFigures *sim)
{
  double a, b;

  if (sim->requests == 0 && obs->requests > 0 && obs->flushes == obs->requests)
    return g_strdup ("not simulated");
  if (!known (obs->end_ns) || !known (sim->end_ns))
    return g_strdup (sim->requests == 0 && obs->requests > 0 ? "dropped" : "");
  /* the lane's own duration, so that a lane starting late is not flattered */
  a = obs->end_ns - obs->start_ns;
  b = sim->end_ns - sim->start_ns;
  if (a <= 0)
    return g_strdup ("");
  return g_strdup_printf ("%+.1f%%", 100.0 * (b - a) / a);
}
