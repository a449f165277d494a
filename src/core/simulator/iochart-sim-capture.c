/* iochart-sim-capture.c: a simulated run as a capture like any other
 *
 * The processes, their names and the devices are the observed capture's (so lanes group the same
 * way and pids stay), with lifetimes moved to the simulated forks and exits; the requests are the
 * simulated device's, with their simulated times, in the capture's own 48-byte store.
 */
#include "iochart-sim-engine-private.h"
#include <stdlib.h>
#include <string.h>
#include "iochart-capture-private.h"

/* The devices, processes and names of in: the names stay in's strings, which out holds. */
static void
copy_names (IochartCapture *out, IochartCapture *in)
{
  out->strings_owner = g_object_ref (in->strings_owner ? in->strings_owner : in);
  g_array_set_size (out->devices, in->devices->len);
  memcpy (out->devices->data, in->devices->data, (gsize) in->devices->len * sizeof (IochartDevice));
  g_array_set_size (out->processes, in->processes->len);
  memcpy (out->processes->data, in->processes->data, (gsize) in->processes->len * sizeof (IochartProcess));
  g_array_set_size (out->comms, in->comms->len);
  memcpy (out->comms->data, in->comms->data, (gsize) in->comms->len * sizeof (IochartComm));
}

/* The simulated requests by submission time, ties by index: the order they arrived in, with
 * each run of equal times put in index order (events of one time come out of the engine's heap
 * in push order). */
static guint32 *
by_submit (const IochartSimTimes *times, guint *n_out)
{
  guint32 *order = g_new (guint32, MAX (times->n_arrived, 1));
  const gint64 *t = times->submit_ns;
  guint n = 0;

  for (guint k = 0; k < times->n_arrived; k++)
    if (times->done_ns[times->arrived[k]] != IOCHART_TIME_UNKNOWN)
      order[n++] = times->arrived[k];
  for (guint k = 1; k < n; k++)
    {
      guint32 x = order[k];
      guint j = k;

      for (; j > 0 && t[order[j - 1]] == t[x] && order[j - 1] > x; j--)
        order[j] = order[j - 1];
      order[j] = x;
    }
  *n_out = n;
  return order;
}

static void
copy_requests (IochartCapture *out, IochartCapture *in, const IochartSimGraph *g, const IochartSimTimes *times)
{
  guint n;
  g_autofree guint32 *order = by_submit (times, &n);

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

/* Each process's requests and bytes on the simulated device. Its class stays the observed one
 * unless --set-class changed its requests' classes: then the model decides again. */
static void
tally (IochartCapture *out, gboolean classes_changed)
{
  if (classes_changed)
    {
      _iochart_capture_retally (out);
      return;
    }
  for (guint p = 0; p < out->processes->len; p++)
    {
      IochartProcess *proc = &g_array_index (out->processes, IochartProcess, p);
      proc->requests = 0;
      proc->bytes = 0;
      proc->class_mask = 0;
    }
  for (guint i = 0; i < out->requests->len; i++)
    {
      const IochartRequestRec *rec = &g_array_index (out->requests, IochartRequestRec, i);
      IochartProcess *proc;

      if (rec->process >= out->processes->len)
        continue;
      proc = &g_array_index (out->processes, IochartProcess, rec->process);
      proc->requests++;
      proc->bytes += rec->bytes;
      proc->class_mask |= 1u << (rec->prio & 7);
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
  tally (out, g->classes_changed);
  g_ptr_array_add (out->warnings, NULL);
  return out;
}
