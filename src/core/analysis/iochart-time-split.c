/* iochart-time-split.c: running, runnable, I/O wait, other D and sleep per process */
#include <stdlib.h>
#include <string.h>
#include "iochart-time-split.h"

struct _IochartTimeSplits {
  IochartCapture   *capture;
  IochartTimeSplit *per_process;
  guint             n_processes;
};

typedef struct {
  gint64 begin, end;
} Span;

static const char * const names[] = { "running", "runnable", "io_wait", "other_d", "sleep" };
static const char * const labels[] = {
  "running", "waiting for a CPU", "waiting for I/O", "in D state", "asleep",
};
G_STATIC_ASSERT (G_N_ELEMENTS (names) == IOCHART_N_SPLITS);
G_STATIC_ASSERT (G_N_ELEMENTS (labels) == IOCHART_N_SPLITS);

const char *
iochart_split_kind_name (IochartSplitKind kind)
{
  g_return_val_if_fail (kind < IOCHART_N_SPLITS, "?");
  return names[kind];
}

const char *
iochart_split_kind_label (IochartSplitKind kind)
{
  g_return_val_if_fail (kind < IOCHART_N_SPLITS, "?");
  return labels[kind];
}

static gboolean
known (gint64 ns)
{
  return ns != IOCHART_TIME_UNKNOWN;
}

static int
span_cmp (const void *a, const void *b)
{
  const Span *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Per process, the union of the times its requests were outstanding, as sorted disjoint spans:
 * spans[first[p] .. first[p + 1]). */
static Span *
outstanding_spans (IochartCapture *c, guint n, gint64 end_ns, guint32 **first_out)
{
  guint nr = iochart_capture_get_n_requests (c);
  guint32 *first = g_new0 (guint32, n + 1), *at;
  Span *spans = g_new (Span, MAX (nr, 1));
  IochartRequest rq;

  for (guint i = 0; i < nr; i++)
    {
      iochart_capture_get_request (c, i, &rq);
      if (rq.process < n)
        first[rq.process + 1]++;
    }
  for (guint p = 0; p < n; p++)
    first[p + 1] += first[p];
  at = g_memdup2 (first, n * sizeof (guint32));
  for (guint i = 0; i < nr; i++)
    {
      iochart_capture_get_request (c, i, &rq);
      if (rq.process >= n)
        continue;
      gint64 b = known (rq.queue_ns) ? rq.queue_ns : known (rq.insert_ns) ? rq.insert_ns : rq.issue_ns;
      gint64 e = known (rq.complete_ns) ? rq.complete_ns : end_ns;
      spans[at[rq.process]++] = (Span) { known (b) ? b : e, e };
    }
  g_free (at);
  /* sort and merge each process's spans in place; first[] is rewritten to the merged counts */
  guint out = 0;
  for (guint p = 0; p < n; p++)
    {
      guint lo = first[p], hi = first[p + 1], start = out;
      qsort (spans + lo, hi - lo, sizeof (Span), span_cmp);
      for (guint i = lo; i < hi; i++)
        {
          if (out > start && spans[i].begin <= spans[out - 1].end)
            spans[out - 1].end = MAX (spans[out - 1].end, spans[i].end);
          else
            spans[out++] = spans[i];
        }
      first[p] = start;
    }
  first[n] = out;
  *first_out = first;
  return spans;
}

/* Time of [a, b) covered by the sorted disjoint spans, from *cursor on (advanced: a only grows). */
static gint64
covered (const Span *s, guint n, guint *cursor, gint64 a, gint64 b)
{
  gint64 sum = 0;

  while (*cursor < n && s[*cursor].end <= a)
    (*cursor)++;
  for (guint i = *cursor; i < n && s[i].begin < b; i++)
    sum += MIN (b, s[i].end) - MAX (a, s[i].begin);
  return sum;
}

static IochartTaskState
state_before (IochartTaskState first)
{
  switch (first)
    {
    case IOCHART_TASK_RUNNING:
      return IOCHART_TASK_RUNNABLE;
    case IOCHART_TASK_RUNNABLE:
      return IOCHART_TASK_SLEEPING;   /* a wakeup, most likely */
    default:
      return IOCHART_TASK_RUNNING;    /* it was switched out */
    }
}

typedef struct {
  IochartTimeSplit *out;
  const Span       *io;
  guint             n_io;
  guint             cursor;
  gint64            a, b;          /* the life */
} Walk;

static void
add_interval (Walk *w, IochartTaskState state, gint64 s, gint64 e)
{
  s = MAX (s, w->a);
  e = MIN (e, w->b);
  if (e <= s)
    return;
  switch (state)
    {
    case IOCHART_TASK_RUNNING:
      w->out->ns[IOCHART_SPLIT_RUNNING] += e - s;
      break;
    case IOCHART_TASK_RUNNABLE:
      w->out->ns[IOCHART_SPLIT_RUNNABLE] += e - s;
      break;
    case IOCHART_TASK_UNINTERRUPTIBLE:
      {
        gint64 io = covered (w->io, w->n_io, &w->cursor, s, e);
        w->out->ns[IOCHART_SPLIT_IO_WAIT] += io;
        w->out->ns[IOCHART_SPLIT_OTHER_D] += e - s - io;
      }
      break;
    default:
      w->out->ns[IOCHART_SPLIT_SLEEP] += e - s;
      break;
    }
}

static void
split_process (IochartCapture *c, guint p, Walk *w)
{
  guint n = iochart_capture_get_n_task_changes (c, p);
  IochartTaskState cur = IOCHART_TASK_UNKNOWN, st;
  gint64 since = w->a, ns;

  for (guint i = 0; i < n && since < w->b; i++)
    {
      iochart_capture_get_task_change (c, p, i, &ns, &st);
      if (i == 0)
        cur = state_before (st);
      /* a wakeup of a task that is running or already runnable changes nothing */
      if (st == IOCHART_TASK_RUNNABLE && (cur == IOCHART_TASK_RUNNING || cur == IOCHART_TASK_RUNNABLE))
        continue;
      add_interval (w, cur, since, ns);
      since = MAX (since, ns);
      cur = st;
      if (cur == IOCHART_TASK_DEAD)
        since = w->b;
    }
  if (n > 0)
    add_interval (w, cur, since, w->b);
  for (guint k = 0; k < IOCHART_N_SPLITS; k++)
    w->out->life_ns += w->out->ns[k];
}

IochartTimeSplits *
iochart_time_splits_new (IochartCapture *capture, gint64 from_ns, gint64 to_ns)
{
  IochartTimeSplits *self;
  g_autofree guint32 *first = NULL;
  g_autofree Span *spans = NULL;
  gint64 start = iochart_capture_get_start_ns (capture), end = iochart_capture_get_end_ns (capture);

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  if (!iochart_capture_has_task_states (capture))
    return NULL;
  self = g_new0 (IochartTimeSplits, 1);
  self->capture = g_object_ref (capture);
  self->n_processes = iochart_capture_get_n_processes (capture);
  self->per_process = g_new0 (IochartTimeSplit, self->n_processes);
  spans = outstanding_spans (capture, self->n_processes, end, &first);
  for (guint p = 0; p < self->n_processes; p++)
    {
      const IochartProcess *proc = iochart_capture_get_process (capture, p);
      Walk w = {
        .out = &self->per_process[p], .io = spans + first[p], .n_io = first[p + 1] - first[p],
        .a = known (proc->start_ns) ? proc->start_ns : start,
        .b = known (proc->exit_ns) ? proc->exit_ns : end,
      };
      if (known (from_ns))
        w.a = MAX (w.a, from_ns);
      if (known (to_ns))
        w.b = MIN (w.b, to_ns);
      split_process (capture, p, &w);
    }
  return self;
}

void
iochart_time_splits_free (IochartTimeSplits *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->capture);
  g_free (self->per_process);
  g_free (self);
}

const IochartTimeSplit *
iochart_time_splits_get_process (IochartTimeSplits *self, guint process)
{
  g_return_val_if_fail (process < self->n_processes, NULL);
  return &self->per_process[process];
}

void
iochart_time_splits_get_lane (IochartTimeSplits *self, IochartLanes *lanes, guint lane,
                              IochartTimeSplit *out)
{
  memset (out, 0, sizeof *out);
  for (guint p = 0; p < self->n_processes; p++)
    if (iochart_lanes_lane_of_process (lanes, p) == (int) lane)
      {
        for (guint k = 0; k < IOCHART_N_SPLITS; k++)
          out->ns[k] += self->per_process[p].ns[k];
        out->life_ns += self->per_process[p].life_ns;
      }
}

IochartSplitKind
iochart_time_split_dominant_wait (const IochartTimeSplit *split)
{
  IochartSplitKind best = IOCHART_SPLIT_RUNNABLE;

  if (split->ns[IOCHART_SPLIT_IO_WAIT] > split->ns[best])
    best = IOCHART_SPLIT_IO_WAIT;
  if (split->ns[IOCHART_SPLIT_OTHER_D] > split->ns[best])
    best = IOCHART_SPLIT_OTHER_D;
  return best;
}

void
iochart_time_split_to_json (const IochartTimeSplit *split, JsonBuilder *b)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "life_ns");
  json_builder_add_int_value (b, split->life_ns);
  for (guint k = 0; k < IOCHART_N_SPLITS; k++)
    {
      g_autofree char *key = g_strconcat (names[k], "_ns", NULL);
      json_builder_set_member_name (b, key);
      json_builder_add_int_value (b, split->ns[k]);
    }
  json_builder_end_object (b);
}
