/* iochart-capture.c: the finished model and its read-only accessors */
#include <string.h>
#include "iochart-capture-private.h"

G_DEFINE_FINAL_TYPE (IochartCapture, iochart_capture, G_TYPE_OBJECT)

static void
iochart_capture_finalize (GObject *object)
{
  IochartCapture *self = IOCHART_CAPTURE (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->interned, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_object (&self->strings_owner);
  g_clear_pointer (&self->devices, g_array_unref);
  g_clear_pointer (&self->processes, g_array_unref);
  g_clear_pointer (&self->comms, g_array_unref);
  g_clear_pointer (&self->requests, g_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->ambiguous, g_array_unref);
  g_clear_pointer (&self->btt_devices, g_array_unref);
  g_clear_pointer (&self->btt_processes, g_array_unref);
  g_clear_pointer (&self->tasks, g_array_unref);
  g_clear_pointer (&self->task_index, g_array_unref);
  g_clear_pointer (&self->task_lists, g_ptr_array_unref);
  G_OBJECT_CLASS (iochart_capture_parent_class)->finalize (object);
}

static void
iochart_capture_class_init (IochartCaptureClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = iochart_capture_finalize;
}

static void
iochart_capture_init (IochartCapture *self)
{
  self->strings = g_string_chunk_new (4096);
  self->interned = g_hash_table_new (g_str_hash, g_str_equal);
  self->devices = g_array_new (FALSE, TRUE, sizeof (IochartDevice));
  self->processes = g_array_new (FALSE, TRUE, sizeof (IochartProcess));
  self->comms = g_array_new (FALSE, FALSE, sizeof (IochartComm));
  /* not cleared: every record is written whole, and reserved room stays untouched */
  self->requests = g_array_new (FALSE, FALSE, sizeof (IochartRequestRec));
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->ambiguous = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->btt_devices = g_array_new (FALSE, TRUE, sizeof (IochartBttFigures));
  self->btt_processes = g_array_new (FALSE, TRUE, sizeof (IochartBttFigures));
  self->tasks = g_array_new (FALSE, FALSE, sizeof (IochartTaskRec));
  self->base_ns = IOCHART_TIME_UNKNOWN;
  self->start_ns = IOCHART_TIME_UNKNOWN;
  self->end_ns = IOCHART_TIME_UNKNOWN;
  self->wall_offset_ns = IOCHART_TIME_UNKNOWN;
}

const char *
_iochart_capture_intern (IochartCapture *self, const char *s, gssize len)
{
  g_autofree char *tmp = NULL;
  const char *found;

  if (s == NULL)
    return NULL;
  if (len >= 0)
    s = tmp = g_strndup (s, len);
  found = g_hash_table_lookup (self->interned, s);
  if (found == NULL && !g_utf8_validate (s, -1, NULL))
    {
      /* a name from the trace is bytes: every output (JSON first) needs it valid UTF-8 */
      char *valid = g_utf8_make_valid (s, -1);

      g_free (tmp);
      s = tmp = valid;
      found = g_hash_table_lookup (self->interned, s);
    }
  if (found == NULL)
    {
      found = g_string_chunk_insert_const (self->strings, s);
      g_hash_table_add (self->interned, (gpointer) found);
      self->string_bytes += strlen (found) + 1;
    }
  return found;
}

const char *
iochart_capture_get_name (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), NULL);
  return self->name;
}

guint64
iochart_capture_get_n_events (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->n_events;
}

gint64
iochart_capture_get_start_ns (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), IOCHART_TIME_UNKNOWN);
  return self->start_ns;
}

gint64
iochart_capture_get_end_ns (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), IOCHART_TIME_UNKNOWN);
  return self->end_ns;
}

gint64
iochart_capture_get_wall_start_ns (IochartCapture *self)
{
  gint64 wall_ns;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), IOCHART_TIME_UNKNOWN);
  if (self->wall_offset_ns == IOCHART_TIME_UNKNOWN || self->start_ns == IOCHART_TIME_UNKNOWN)
    return IOCHART_TIME_UNKNOWN;
  /* a corrupt capture's wall clock may lie past what int64 holds: unknown, not undefined */
  if (__builtin_add_overflow (self->start_ns, self->wall_offset_ns, &wall_ns))
    return IOCHART_TIME_UNKNOWN;
  return wall_ns;
}

guint
iochart_capture_get_n_devices (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->devices->len;
}

const IochartDevice *
iochart_capture_get_device (IochartCapture *self, guint index)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), NULL);
  g_return_val_if_fail (index < self->devices->len, NULL);
  return &g_array_index (self->devices, IochartDevice, index);
}

int
iochart_capture_find_device (IochartCapture *self, guint32 dev)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), -1);
  for (guint i = 0; i < self->devices->len; i++)
    if (g_array_index (self->devices, IochartDevice, i).dev == dev)
      return i;
  return -1;
}

guint
iochart_capture_get_n_processes (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->processes->len;
}

const IochartProcess *
iochart_capture_get_process (IochartCapture *self, guint index)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), NULL);
  g_return_val_if_fail (index < self->processes->len, NULL);
  return &g_array_index (self->processes, IochartProcess, index);
}

const IochartComm *
iochart_capture_get_comms (IochartCapture *self, guint process, guint *n_comms)
{
  const IochartProcess *p;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), NULL);
  g_return_val_if_fail (process < self->processes->len, NULL);
  p = &g_array_index (self->processes, IochartProcess, process);
  *n_comms = p->n_comms;
  return p->n_comms ? &g_array_index (self->comms, IochartComm, p->first_comm) : NULL;
}

gboolean
iochart_capture_process_matches (IochartCapture *self, guint process, const char *comm_or_pid)
{
  const IochartProcess *p;
  const IochartComm *comms;
  char *end;
  gint64 pid;
  guint n = 0;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), FALSE);
  g_return_val_if_fail (process < self->processes->len, FALSE);
  p = &g_array_index (self->processes, IochartProcess, process);
  pid = g_ascii_strtoll (comm_or_pid, &end, 10);
  if (*comm_or_pid != '\0' && *end == '\0')
    return pid == p->pid;
  comms = iochart_capture_get_comms (self, process, &n);
  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (comms[i].comm, comm_or_pid) == 0)
      return TRUE;
  return g_strcmp0 (p->comm, comm_or_pid) == 0;
}

guint
iochart_capture_get_n_requests (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->requests->len;
}

void
iochart_capture_get_request (IochartCapture *self, guint index, IochartRequest *out)
{
  const IochartRequestRec *rec;

  g_return_if_fail (IOCHART_IS_CAPTURE (self));
  g_return_if_fail (index < self->requests->len);
  rec = &g_array_index (self->requests, IochartRequestRec, index);
  _iochart_rec_unpack (self, rec, out);
}

guint64
iochart_capture_get_n_unmatched_issues (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->unmatched_issues;
}

guint64
iochart_capture_get_n_unmatched_completions (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->unmatched_completions;
}

guint64
iochart_capture_get_n_requeues (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->requeues;
}

guint64
iochart_capture_get_n_lost_events (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->lost_events;
}

/* Groups the task records by process (a stable counting sort: each keeps its time order). */
void
_iochart_capture_group_tasks (IochartCapture *c)
{
  guint n = c->processes->len;
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (IochartTaskRec), c->tasks->len);
  g_autofree guint32 *at = g_new0 (guint32, n + 1);

  g_clear_pointer (&c->task_index, g_array_unref);
  c->task_index = g_array_sized_new (FALSE, TRUE, sizeof (guint32), n + 1);
  g_array_set_size (c->task_index, n + 1);
  for (guint i = 0; i < c->tasks->len; i++)
    g_array_index (c->task_index, guint32, g_array_index (c->tasks, IochartTaskRec, i).process + 1)++;
  for (guint p = 0; p < n; p++)
    g_array_index (c->task_index, guint32, p + 1) += g_array_index (c->task_index, guint32, p);
  memcpy (at, c->task_index->data, (n + 1) * sizeof (guint32));
  g_array_set_size (sorted, c->tasks->len);
  for (guint i = 0; i < c->tasks->len; i++)
    {
      const IochartTaskRec *r = &g_array_index (c->tasks, IochartTaskRec, i);
      g_array_index (sorted, IochartTaskRec, at[r->process]++) = *r;
    }
  g_array_unref (c->tasks);
  c->tasks = g_steal_pointer (&sorted);
}

void
_iochart_capture_add_task_states (IochartCapture *self, const IochartTaskRec *recs, guint n)
{
  g_array_append_vals (self->tasks, recs, n);
  self->sampled_tasks = !self->has_tasks;
  self->has_tasks = TRUE;
  _iochart_capture_group_tasks (self);
}

gboolean
iochart_capture_has_task_states (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), FALSE);
  return self->has_tasks;
}

gboolean
iochart_capture_task_states_are_sampled (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), FALSE);
  return self->sampled_tasks;
}

guint
iochart_capture_get_n_task_changes (IochartCapture *self, guint process)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  if (self->task_lists != NULL)
    return process < self->task_lists->len && self->task_lists->pdata[process] != NULL
           ? ((GArray *) self->task_lists->pdata[process])->len : 0;
  if (self->task_index == NULL || process + 1 >= self->task_index->len)
    return 0;
  return g_array_index (self->task_index, guint32, process + 1)
         - g_array_index (self->task_index, guint32, process);
}

void
iochart_capture_get_task_change (IochartCapture *self, guint process, guint i, gint64 *ns,
                                 IochartTaskState *state)
{
  const IochartTaskRec *rec;

  g_return_if_fail (i < iochart_capture_get_n_task_changes (self, process));
  if (self->task_lists != NULL)
    rec = &g_array_index ((GArray *) self->task_lists->pdata[process], IochartTaskRec, i);
  else
    rec = &g_array_index (self->tasks, IochartTaskRec,
                          g_array_index (self->task_index, guint32, process) + i);
  *ns = _iochart_t48_get (self, rec->t);
  *state = rec->state;
}

const char * const *
iochart_capture_get_warnings (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), NULL);
  return (const char * const *) self->warnings->pdata;
}

gsize
iochart_capture_get_request_store_size (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return (gsize) self->requests->len * sizeof (IochartRequestRec);
}

gsize
iochart_capture_get_model_size (IochartCapture *self)
{
  guint n_strings;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  n_strings = g_hash_table_size (self->interned);
  return iochart_capture_get_request_store_size (self) +
         (gsize) self->processes->len * sizeof (IochartProcess) +
         (gsize) self->comms->len * sizeof (IochartComm) +
         (gsize) self->devices->len * sizeof (IochartDevice) +
         (gsize) (self->btt_devices->len + self->btt_processes->len) * sizeof (IochartBttFigures) +
         (gsize) (self->tasks->len + self->n_listed_tasks) * sizeof (IochartTaskRec) +
         self->string_bytes + (gsize) n_strings * 2 * sizeof (gpointer);
}

static guint
argmax (const guint64 *v, guint n)
{
  guint best = 0;

  for (guint i = 1; i < n; i++)
    if (v[i] > v[best])
      best = i;
  return best;
}

/* +1 a request, so that flushes and other zero-byte requests still count. */
static inline guint64
rec_weight (const IochartRequestRec *rec)
{
  guint issues = rec->counts & 15;

  return (guint64) issues * rec->bytes + issues;
}

void
_iochart_proc_tally_add (IochartProcTally *t, const IochartRequestRec *rec, gint sign)
{
  guint issues = rec->counts & 15, klass = rec->prio & 7;
  /* taking away is adding the two's complement */
  guint64 w = rec_weight (rec) * (guint64) (gint64) sign;

  if (issues == 0)
    return;
  t->requests += issues * (guint64) (gint64) sign;
  t->bytes += (guint64) issues * rec->bytes * (guint64) (gint64) sign;
  t->class_requests[klass] += sign;
  t->class_bytes[klass] += w;
  t->source_bytes[klass][rec->merges_source >> 12] += w;
  t->level_bytes[klass][(rec->prio >> 3) & 7] += w;
}

/* A process's class is that of most of its bytes; its level and source, those of most of the
 * bytes in that class. Processes without I/O keep what they have. */
void
_iochart_proc_tally_apply (const IochartProcTally *t, IochartProcess *p)
{
  p->requests = t->requests;
  p->bytes = t->bytes;
  p->class_mask = 0;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    if (t->class_requests[k] > 0)
      p->class_mask |= 1u << k;
  if (p->requests == 0)
    return;
  p->klass = argmax (t->class_bytes, IOCHART_N_CLASSES);
  p->class_source = p->klass == IOCHART_CLASS_UNKNOWN ? IOCHART_CLASS_SOURCE_UNKNOWN
                                                      : argmax (t->source_bytes[p->klass], IOCHART_N_CLASS_SOURCES);
  p->level = argmax (t->level_bytes[p->klass], 8);
}

void
_iochart_capture_retally (IochartCapture *self)
{
  g_autofree IochartProcTally *t = g_new0 (IochartProcTally, self->processes->len);

  for (guint i = 0; i < self->requests->len; i++)
    {
      const IochartRequestRec *rec = &g_array_index (self->requests, IochartRequestRec, i);

      if (rec->process != IOCHART_NO_PROCESS)
        _iochart_proc_tally_add (&t[rec->process], rec, 1);
    }
  for (guint i = 0; i < self->processes->len; i++)
    _iochart_proc_tally_apply (&t[i], &g_array_index (self->processes, IochartProcess, i));
}

/* BFQ gives level 7 the weight of the idle class: its notes cannot tell them apart. Say so rather
 * than guess, once the side captures had their say. */
void
_iochart_capture_warn_ambiguous (IochartCapture *self)
{
  guint n = 0;

  for (guint i = 0; i < self->ambiguous->len; i++)
    {
      const IochartProcess *p = &g_array_index (self->processes, IochartProcess,
                                                g_array_index (self->ambiguous, guint32, i));
      if (p->klass == IOCHART_CLASS_UNKNOWN && p->requests > 0)
        n++;
    }
  if (n == 0)
    return;
  _iochart_capture_add_warning (self, g_strdup_printf ("'%s': the scheduler's notes put %u %s at BFQ level 7 "
                                                      "(weight 10), which is idle or best-effort 7: %s class "
                                                      "stays unknown; give --class or a .dat of the same run",
                                                      self->name, n, n == 1 ? "process" : "processes",
                                                      n == 1 ? "its" : "their"));
}

void
_iochart_capture_add_warning (IochartCapture *self, char *text)
{
  /* a finished capture's list is NULL-terminated */
  if (self->warnings->len > 0 && g_ptr_array_index (self->warnings, self->warnings->len - 1) == NULL)
    g_ptr_array_insert (self->warnings, self->warnings->len - 1, text);
  else
    g_ptr_array_add (self->warnings, text);
}

guint
iochart_capture_get_n_btt_devices (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->btt_devices->len;
}

const IochartBttFigures *
iochart_capture_get_btt_device (IochartCapture *self, guint i)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self) && i < self->btt_devices->len, NULL);
  return &g_array_index (self->btt_devices, IochartBttFigures, i);
}

guint
iochart_capture_get_n_btt_processes (IochartCapture *self)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), 0);
  return self->btt_processes->len;
}

const IochartBttFigures *
iochart_capture_get_btt_process (IochartCapture *self, guint i)
{
  g_return_val_if_fail (IOCHART_IS_CAPTURE (self) && i < self->btt_processes->len, NULL);
  return &g_array_index (self->btt_processes, IochartBttFigures, i);
}

static GArray *
array_copy (GArray *a)
{
  return a ? g_array_copy (a) : NULL;
}

static void
task_list_unref (gpointer list)
{
  if (list)
    g_array_unref (list);
}

IochartCapture *
iochart_capture_copy (IochartCapture *self)
{
  IochartCapture *c;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (self), NULL);
  c = g_object_new (IOCHART_TYPE_CAPTURE, NULL);
  c->name = g_strdup (self->name);
  /* the names stay self's strings, which are only ever added to */
  c->strings_owner = g_object_ref (self->strings_owner ? self->strings_owner : self);
#define COPY(field) do { g_clear_pointer (&c->field, g_array_unref); c->field = array_copy (self->field); } while (0)
  COPY (devices);
  COPY (processes);
  COPY (comms);
  COPY (requests);
  COPY (ambiguous);
  COPY (btt_devices);
  COPY (btt_processes);
  COPY (tasks);
  COPY (task_index);
#undef COPY
  if (self->task_lists)
    {
      c->task_lists = g_ptr_array_new_full (self->task_lists->len, task_list_unref);
      for (guint i = 0; i < self->task_lists->len; i++)
        g_ptr_array_add (c->task_lists, array_copy (self->task_lists->pdata[i]));
    }
  c->n_listed_tasks = self->n_listed_tasks;
  for (guint i = 0; i < self->warnings->len; i++)
    g_ptr_array_add (c->warnings, g_strdup (self->warnings->pdata[i]));
  c->base_ns = self->base_ns;
  c->wall_offset_ns = self->wall_offset_ns;
  c->start_ns = self->start_ns;
  c->end_ns = self->end_ns;
  c->n_events = self->n_events;
  c->unmatched_issues = self->unmatched_issues;
  c->unmatched_completions = self->unmatched_completions;
  c->requeues = self->requeues;
  c->lost_events = self->lost_events;
  c->has_tasks = self->has_tasks;
  c->sampled_tasks = self->sampled_tasks;
  return c;
}
