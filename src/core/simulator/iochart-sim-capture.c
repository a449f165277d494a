/* iochart-sim-capture.c: a simulated run as a capture like any other
 *
 * The processes, their names and the devices are the observed capture's (so lanes group the same
 * way and pids stay), with lifetimes moved to the simulated forks and exits; the requests are the
 * simulated device's, with their simulated times, in the capture's own 48-byte store.
 */
#include "iochart-sim-engine-private.h"
#include "iochart-capture-private.h"

static void
copy_names (IochartCapture *out, IochartCapture *in)
{
  g_array_set_size (out->devices, in->devices->len);
  for (guint i = 0; i < in->devices->len; i++)
    {
      IochartDevice *d = &g_array_index (out->devices, IochartDevice, i);

      *d = g_array_index (in->devices, IochartDevice, i);
      d->name = _iochart_capture_intern (out, d->name, -1);
    }
  g_array_set_size (out->processes, in->processes->len);
  for (guint i = 0; i < in->processes->len; i++)
    {
      IochartProcess *p = &g_array_index (out->processes, IochartProcess, i);

      *p = g_array_index (in->processes, IochartProcess, i);
      p->comm = _iochart_capture_intern (out, p->comm, -1);
    }
  g_array_set_size (out->comms, in->comms->len);
  for (guint i = 0; i < in->comms->len; i++)
    {
      IochartComm *c = &g_array_index (out->comms, IochartComm, i);

      *c = g_array_index (in->comms, IochartComm, i);
      c->comm = _iochart_capture_intern (out, c->comm, -1);
    }
}

static int
by_submit (gconstpointer a, gconstpointer b, gpointer data)
{
  const gint64 *t = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  if (t[x] != t[y])
    return t[x] < t[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void
copy_requests (IochartCapture *out, IochartCapture *in, const IochartSimGraph *g, const IochartSimTimes *times)
{
  g_autofree guint32 *order = g_new (guint32, MAX (g->n_rq, 1));
  guint n = 0;

  for (guint i = 0; i < g->n_rq; i++)
    if (times->done_ns[i] != IOCHART_TIME_UNKNOWN)
      order[n++] = i;
  g_qsort_with_data (order, n, sizeof (guint32), by_submit, times->submit_ns);
  g_array_set_size (out->requests, n);
  for (guint k = 0; k < n; k++)
    {
      guint32 i = order[k];
      const IochartRequestRec *src = &g_array_index (in->requests, IochartRequestRec, g->source[i]);
      IochartRequestRec *rec = &g_array_index (out->requests, IochartRequestRec, k);
      const IochartSimRq *q = &g->rq[i];
      guint8 prio = q->klass | q->level << 3;

      *rec = *src;
      rec->prio = prio;
      if (prio != src->prio)
        rec->merges_source = (src->merges_source & 0xfff) | IOCHART_CLASS_SOURCE_RULE << 12;
      rec->error = 0;
      rec->counts = 1;
      _iochart_rec_set_time (out, rec, IOCHART_T_QUEUE, times->submit_ns[i]);
      _iochart_rec_set_time (out, rec, IOCHART_T_INSERT, times->submit_ns[i]);
      _iochart_rec_set_time (out, rec, IOCHART_T_ISSUE, times->issue_ns[i]);
      _iochart_rec_set_time (out, rec, IOCHART_T_COMPLETE, times->done_ns[i]);
    }
}

static void
move_lives (IochartCapture *out, const IochartSimGraph *g, const IochartSimTimes *times)
{
  guint P = out->processes->len;

  for (guint p = 0; p < P; p++)
    {
      IochartProcess *proc = &g_array_index (out->processes, IochartProcess, p);

      if (g->live[2 * g->n_rq + p])
        proc->start_ns = times->node_ns[p];
      if (g->live[2 * g->n_rq + P + p])
        proc->exit_ns = times->node_ns[P + p];
    }
}

IochartCapture *
_iochart_sim_capture_new (const IochartSimGraph *g, const char *policy, const IochartSimTimes *times,
                          guint64 n_events)
{
  IochartCapture *in = g->capture;
  IochartCapture *out = g_object_new (IOCHART_TYPE_CAPTURE, NULL);

  out->name = g_strdup_printf ("%s (%s)", in->name, policy);
  out->base_ns = in->base_ns;
  out->wall_offset_ns = in->wall_offset_ns;
  copy_names (out, in);
  copy_requests (out, in, g, times);
  move_lives (out, g, times);
  out->start_ns = in->start_ns;
  out->end_ns = MAX (in->start_ns, times->end_ns);
  out->n_events = n_events;
  _iochart_capture_retally (out);
  g_ptr_array_add (out->warnings, NULL);
  return out;
}
