/* iochart-live-capture.c: a capture that grows while it is recorded (see the header) */
#include <string.h>
#include <time.h>
#include <tracefs.h>
#include <traceevent/kbuffer.h>
#include <traceevent/event-parse.h>

#include "iochart-live-capture-private.h"
#include "iochart-error.h"
#include "readers/iochart-readers-private.h"

#define NS_PER_S G_GINT64_CONSTANT (1000000000)
/* Events stamped this long before a drain began are all in hand by its end: a CPU commits an
 * event within microseconds of stamping it. */
#define WATERMARK_MARGIN_NS (5 * G_GINT64_CONSTANT (1000000))
/* With a window, processes that left it are dropped once the builder holds this many more, or
 * half as many more, than it kept the last time. */
#define DROP_MIN 256

typedef struct {
  GQueue          pages;     /* GBytes, oldest first; the head is loaded in kbuf when loaded */
  struct kbuffer *kbuf;
  gboolean        loaded;
  void           *data;      /* the next event of the head page, NULL when none */
  unsigned long long ts;
} CpuPages;

/* One published copy: the thread that shows the capture reads one while the next update
 * brings the other up to date, so that a chart laid out from the first in a worker never
 * holds an update back. Each copy is brought up to date at the cost of what arrived since its
 * own last update. */
typedef struct {
  IochartCapture     *c;
  guint32             settled_in;    /* builder requests below this are in c for good */
  guint               n_perm;        /* c's requests before the tail copied each update */
  guint               n_stale;       /* c's first requests older than the window */
  gboolean            shed;          /* a batch left the window since processes were last dropped */
  GArray             *tallies;       /* IochartProcTally per process, of c's first n_perm */
  GHashTable         *strmap;        /* builder's interned string -> c's */
  gint64              tasks_trimmed_ns;
  guint64             tasks_in;      /* task log records below this are in c */
  GArray             *rule_of;       /* gint32 per process: its --class rule, -1 none */
  GArray             *refs;          /* guint32 per process: c's first n_perm requests naming it */
  GArray             *remap;         /* guint32 per process: its new number after the other copy's
                                      * update dropped processes, to apply at this one's next */
} Pub;

struct _IochartLiveCapture {
  GMutex              lock;          /* the builder and the pages */
  IochartBuilder     *b;
  gint64              keep_ns;
  gint64              expire_ns;
  /* pages of the running kernel */
  struct tep_handle  *tep;
  IochartDatDecoder  *decoder;
  GPtrArray          *cpus;          /* CpuPages* per CPU */
  guint64             missed;        /* lost events the pages mark */
  guint64             lost;          /* lost events the recorder counted */
  /* published: two copies, touched by the updating thread only */
  Pub                 pubs[2];
  guint               front;         /* the copy the last update returned */
  GArray             *task_log;      /* IochartTaskRec not yet in both copies */
  guint               drop_at;       /* processes the builder holds before dropping is tried */
  guint64             n_dropped;     /* processes dropped so far */
  guint64             task_log_base; /* the number of the log's first record */
  /* the recording worker */
  GThread            *thread;
  IochartRecorder    *recorder;
  guint               interval_ms;
  GMutex              wake_lock;
  GCond               wake;
  gboolean            stopping;
  GError             *worker_error;
};

static void
task_list_free (gpointer list)
{
  if (list != NULL)   /* processes without task states have none */
    g_array_unref (list);
}

static void
pub_init (Pub *pub, const char *name)
{
  pub->c = g_object_new (IOCHART_TYPE_CAPTURE, NULL);
  pub->c->name = g_strdup (name);
  pub->c->task_lists = g_ptr_array_new_with_free_func (task_list_free);
  g_ptr_array_add (pub->c->warnings, NULL);
  pub->tallies = g_array_new (FALSE, TRUE, sizeof (IochartProcTally));
  pub->strmap = g_hash_table_new (NULL, NULL);
  pub->rule_of = g_array_new (FALSE, FALSE, sizeof (gint32));
  pub->refs = g_array_new (FALSE, TRUE, sizeof (guint32));
  pub->tasks_trimmed_ns = IOCHART_TIME_UNKNOWN;
}

static void
pub_clear (Pub *pub)
{
  g_clear_object (&pub->c);
  g_clear_pointer (&pub->tallies, g_array_unref);
  g_clear_pointer (&pub->strmap, g_hash_table_unref);
  g_clear_pointer (&pub->rule_of, g_array_unref);
  g_clear_pointer (&pub->refs, g_array_unref);
  g_clear_pointer (&pub->remap, g_array_unref);
}

IochartLiveCapture *
iochart_live_capture_new (const char *name, gint64 keep_ns)
{
  IochartLiveCapture *self = g_new0 (IochartLiveCapture, 1);

  g_mutex_init (&self->lock);
  g_mutex_init (&self->wake_lock);
  g_cond_init (&self->wake);
  self->b = _iochart_builder_new (name);
  self->keep_ns = MAX (keep_ns, 0);
  self->expire_ns = 30 * NS_PER_S;
  self->cpus = g_ptr_array_new ();
  for (guint i = 0; i < G_N_ELEMENTS (self->pubs); i++)
    pub_init (&self->pubs[i], name);
  self->front = 1;   /* the first update fills the first copy */
  self->task_log = g_array_new (FALSE, FALSE, sizeof (IochartTaskRec));
  self->drop_at = DROP_MIN;
  return self;
}

static void
cpu_pages_free (CpuPages *cp)
{
  g_queue_clear_full (&cp->pages, (GDestroyNotify) g_bytes_unref);
  kbuffer_free (cp->kbuf);
  g_free (cp);
}

void
iochart_live_capture_free (IochartLiveCapture *self)
{
  if (self == NULL)
    return;
  if (self->thread != NULL)
    iochart_live_capture_stop (self, NULL);
  g_clear_error (&self->worker_error);
  for (guint i = 0; i < self->cpus->len; i++)
    cpu_pages_free (self->cpus->pdata[i]);
  g_ptr_array_unref (self->cpus);
  g_clear_pointer (&self->decoder, _iochart_dat_decoder_free);
  if (self->tep != NULL)
    tep_free (self->tep);
  _iochart_builder_free (self->b);
  for (guint i = 0; i < G_N_ELEMENTS (self->pubs); i++)
    pub_clear (&self->pubs[i]);
  g_array_unref (self->task_log);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->wake_lock);
  g_cond_clear (&self->wake);
  g_free (self);
}

IochartBuilder *
_iochart_live_capture_lock (IochartLiveCapture *self)
{
  g_mutex_lock (&self->lock);
  return self->b;
}

void
_iochart_live_capture_unlock (IochartLiveCapture *self)
{
  g_mutex_unlock (&self->lock);
}

void
_iochart_live_capture_set_expire_ns (IochartLiveCapture *self, gint64 expire_ns)
{
  self->expire_ns = MAX (expire_ns, 0);
}

void
iochart_live_capture_add_rule (IochartLiveCapture *self, const IochartClassRule *rule)
{
  g_mutex_lock (&self->lock);
  _iochart_builder_add_rule (self->b, rule);
  g_mutex_unlock (&self->lock);
}

/* ---- publishing ---- */

static const char *
pub_string (Pub *pub, const char *s)
{
  const char *mine;

  if (s == NULL)
    return NULL;
  if ((mine = g_hash_table_lookup (pub->strmap, s)) == NULL)
    {
      mine = _iochart_capture_intern (pub->c, s, -1);
      g_hash_table_insert (pub->strmap, (gpointer) s, (gpointer) mine);
    }
  return mine;
}

static IochartProcTally *
tally_of (Pub *pub, guint32 process)
{
  if (process >= pub->tallies->len)
    g_array_set_size (pub->tallies, process + 1);
  return &g_array_index (pub->tallies, IochartProcTally, process);
}

static void
tally (Pub *pub, const IochartRequestRec *rec, gint sign)
{
  if (rec->process != IOCHART_NO_PROCESS)
    _iochart_proc_tally_add (tally_of (pub, rec->process), rec, sign);
}

/* Counts the requests of c's permanent part that name each process. */
static void
ref (Pub *pub, const IochartRequestRec *rec, gint sign)
{
  if (rec->process == IOCHART_NO_PROCESS)
    return;
  if (rec->process >= pub->refs->len)
    g_array_set_size (pub->refs, rec->process + 1);
  g_array_index (pub->refs, guint32, rec->process) += sign;
}

/* A copy of a builder request in c, with the user's class rule of its process (as the batch
 * build gives it at the end). */
static IochartRequestRec *
append_request (IochartLiveCapture *self, Pub *pub, const IochartRequestRec *rec)
{
  IochartRequestRec *out;

  g_array_append_vals (pub->c->requests, rec, 1);
  out = &g_array_index (pub->c->requests, IochartRequestRec, pub->c->requests->len - 1);
  if (out->process != IOCHART_NO_PROCESS && out->process < pub->rule_of->len)
    _iochart_builder_apply_rule (self->b, g_array_index (pub->rule_of, gint32, out->process), out);
  return out;
}

/* Requests that can no longer change go into c for good, in the builder's order; the builder
 * forgets them once both copies have them. */
static void
take_settled (IochartLiveCapture *self, Pub *pub)
{
  guint32 settled = _iochart_builder_settle (self->b);
  GArray *out = pub->c->requests;

  g_array_set_size (out, pub->n_perm);
  for (guint32 rq = MAX (pub->settled_in, _iochart_builder_get_base (self->b)); rq < settled; rq++)
    {
      gboolean in_flight;
      const IochartRequestRec *rec = _iochart_builder_get_request (self->b, rq, &in_flight);

      if (rec != NULL)
        {
          const IochartRequestRec *out = append_request (self, pub, rec);

          tally (pub, out, 1);
          ref (pub, out, 1);
        }
    }
  pub->n_perm = out->len;
  pub->settled_in = settled;
  _iochart_builder_forget (self->b, MIN (self->pubs[0].settled_in, self->pubs[1].settled_in));
}

/* The newest requests, copied as they are now; returns how many are in flight (the finished
 * capture counts those as issues without a completion). */
static guint64
copy_tail (IochartLiveCapture *self, Pub *pub)
{
  guint32 end = _iochart_builder_get_end (self->b);
  guint64 in_flight_n = 0;

  for (guint32 rq = pub->settled_in; rq < end; rq++)
    {
      gboolean in_flight;
      const IochartRequestRec *rec = _iochart_builder_get_request (self->b, rq, &in_flight);

      if (rec == NULL)
        continue;
      append_request (self, pub, rec);
      in_flight_n += in_flight;
    }
  return in_flight_n;
}

static void
copy_processes (Pub *pub, IochartBuilder *b, IochartCapture *c)
{
  IochartCapture *p = pub->c;

  g_array_set_size (p->processes, c->processes->len);
  if (c->processes->len > 0)
    memcpy (p->processes->data, c->processes->data, c->processes->len * sizeof (IochartProcess));
  for (guint i = 0; i < p->processes->len; i++)
    {
      IochartProcess *proc = &g_array_index (p->processes, IochartProcess, i);
      proc->comm = pub_string (pub, proc->comm);
    }
  _iochart_builder_snapshot_names (b, p);
  g_array_set_size (p->devices, c->devices->len);
  for (guint i = 0; i < c->devices->len; i++)
    {
      IochartDevice *d = &g_array_index (p->devices, IochartDevice, i);
      *d = g_array_index (c->devices, IochartDevice, i);
      d->name = pub_string (pub, d->name);
    }
}

/* Each process's class rule, from its names so far; a process that a rule matches only now
 * (a later name) gets it on the requests it already has, as the batch build would. */
static void
update_rules (IochartLiveCapture *self, Pub *pub)
{
  GArray *reqs = pub->c->requests;
  guint old = pub->rule_of->len;
  g_autofree gboolean *changed = NULL;
  gboolean any = FALSE;

  if (!_iochart_builder_has_rules (self->b))
    return;
  changed = g_new0 (gboolean, pub->c->processes->len);
  g_array_set_size (pub->rule_of, pub->c->processes->len);
  for (guint i = 0; i < pub->c->processes->len; i++)
    {
      gint32 r = _iochart_builder_rule_of (self->b, pub->c, i);

      if (i < old && r != g_array_index (pub->rule_of, gint32, i))
        any = changed[i] = TRUE;
      g_array_index (pub->rule_of, gint32, i) = r;
    }
  for (guint i = 0; any && i < pub->n_perm; i++)
    {
      IochartRequestRec *rec = &g_array_index (reqs, IochartRequestRec, i);

      if (rec->process == IOCHART_NO_PROCESS || !changed[rec->process])
        continue;
      tally (pub, rec, -1);
      _iochart_builder_apply_rule (self->b, g_array_index (pub->rule_of, gint32, rec->process), rec);
      tally (pub, rec, 1);
    }
}

/* Task states are final once recorded: the builder's new ones go to the log, which each copy
 * reads on from where it stopped; the log keeps what one copy has not read yet. */
static void
take_tasks (IochartLiveCapture *self, Pub *pub, IochartCapture *c)
{
  GPtrArray *lists = pub->c->task_lists;
  guint64 done;

  g_array_append_vals (self->task_log, c->tasks->data, c->tasks->len);
  g_array_set_size (c->tasks, 0);
  if (lists->len < pub->c->processes->len)
    g_ptr_array_set_size (lists, pub->c->processes->len);
  for (guint i = pub->tasks_in - self->task_log_base; i < self->task_log->len; i++)
    {
      const IochartTaskRec *rec = &g_array_index (self->task_log, IochartTaskRec, i);
      GArray *list;

      if (rec->process == IOCHART_NO_PROCESS)
        continue;   /* its process was dropped */
      list = lists->pdata[rec->process];
      if (list == NULL)
        lists->pdata[rec->process] = list = g_array_new (FALSE, FALSE, sizeof (IochartTaskRec));
      g_array_append_vals (list, rec, 1);
      pub->c->n_listed_tasks++;
    }
  pub->tasks_in = self->task_log_base + self->task_log->len;
  done = MIN (self->pubs[0].tasks_in, self->pubs[1].tasks_in);
  if (done > self->task_log_base)
    {
      g_array_remove_range (self->task_log, 0, done - self->task_log_base);
      self->task_log_base = done;
    }
}

static void
copy_figures (Pub *pub, IochartBuilder *b, IochartCapture *c, guint64 in_flight)
{
  IochartCapture *p = pub->c;

  p->base_ns = c->base_ns;
  p->wall_offset_ns = c->wall_offset_ns;
  p->start_ns = c->start_ns;
  p->end_ns = c->end_ns;
  p->n_events = c->n_events;
  p->unmatched_issues = c->unmatched_issues + in_flight;
  p->unmatched_completions = c->unmatched_completions;
  p->requeues = c->requeues;
  p->lost_events = c->lost_events;
  p->has_tasks = c->has_tasks;
  g_ptr_array_set_size (p->warnings, 0);
  for (guint i = 0; i < c->warnings->len; i++)
    g_ptr_array_add (p->warnings, g_strdup (c->warnings->pdata[i]));
  g_ptr_array_add (p->warnings, NULL);
  _iochart_builder_snapshot_btt (b, p);
}

static gint64
rec_last_time (IochartCapture *c, const IochartRequestRec *rec)
{
  for (gint i = IOCHART_T_COMPLETE; i >= IOCHART_T_QUEUE; i--)
    {
      gint64 t = _iochart_rec_get_time (c, rec, i);
      if (t != IOCHART_TIME_UNKNOWN)
        return t;
    }
  return IOCHART_TIME_UNKNOWN;
}

/* Keeps the last state before the window's start: it still holds at the start. */
static void
trim_tasks (Pub *pub, gint64 cutoff_ns)
{
  GPtrArray *lists = pub->c->task_lists;

  for (guint i = 0; i < lists->len; i++)
    {
      GArray *list = lists->pdata[i];
      guint n = 0;

      while (list != NULL && n + 1 < list->len
             && _iochart_t48_get (pub->c, g_array_index (list, IochartTaskRec, n + 1).t) <= cutoff_ns)
        n++;
      if (n == 0)
        continue;
      g_array_remove_range (list, 0, n);
      pub->c->n_listed_tasks -= n;
    }
  pub->tasks_trimmed_ns = cutoff_ns;
}

/* The window: the oldest requests leave in batches of a quarter of it, so that each is moved
 * a bounded number of times. */
static void
trim (IochartLiveCapture *self, Pub *pub)
{
  IochartCapture *p = pub->c;
  gint64 cutoff;

  if (self->keep_ns == 0 || p->end_ns == IOCHART_TIME_UNKNOWN)
    return;
  cutoff = p->end_ns - self->keep_ns;
  while (pub->n_stale < pub->n_perm)
    {
      gint64 t = rec_last_time (p, &g_array_index (p->requests, IochartRequestRec, pub->n_stale));
      if (t != IOCHART_TIME_UNKNOWN && t >= cutoff)
        break;
      pub->n_stale++;
    }
  if (pub->n_stale > 1024 && pub->n_stale * 4 > pub->n_perm)
    {
      for (guint i = 0; i < pub->n_stale; i++)
        {
          tally (pub, &g_array_index (p->requests, IochartRequestRec, i), -1);
          ref (pub, &g_array_index (p->requests, IochartRequestRec, i), -1);
        }
      g_array_remove_range (p->requests, 0, pub->n_stale);
      pub->n_perm -= pub->n_stale;
      pub->n_stale = 0;
      pub->shed = TRUE;
    }
  if (pub->tasks_trimmed_ns == IOCHART_TIME_UNKNOWN || cutoff - pub->tasks_trimmed_ns > self->keep_ns / 4)
    trim_tasks (pub, cutoff);
  if (p->start_ns != IOCHART_TIME_UNKNOWN)
    p->start_ns = MAX (p->start_ns, cutoff);
}

/* ---- dropping processes that left the window ---- */

/* Element from of a per-process array becomes element to (<= from), zeroed when it has none. */
static void
move_down (GArray *a, guint from, guint to)
{
  guint size = g_array_get_element_size (a);

  if (to >= a->len)
    return;
  if (from < a->len)
    memmove (a->data + (gsize) to * size, a->data + (gsize) from * size, size);
  else
    memset (a->data + (gsize) to * size, 0, size);
}

/* Renumbers c's processes as remap says (the dropped ones have no request left in c). */
static void
pub_remap (Pub *pub, const guint32 *remap, guint n)
{
  GArray *reqs = pub->c->requests;
  GPtrArray *lists = pub->c->task_lists;
  guint kept = 0;

  g_array_set_size (reqs, pub->n_perm);
  for (guint i = 0; i < reqs->len; i++)
    {
      IochartRequestRec *rec = &g_array_index (reqs, IochartRequestRec, i);
      if (rec->process != IOCHART_NO_PROCESS)
        rec->process = remap[rec->process];
    }
  for (guint i = 0; i < n; i++)
    {
      if (remap[i] == IOCHART_NO_PROCESS)
        {
          if (i < lists->len && lists->pdata[i] != NULL)
            {
              pub->c->n_listed_tasks -= ((GArray *) lists->pdata[i])->len;
              g_array_unref (lists->pdata[i]);
            }
          continue;
        }
      /* the arrays grow as processes need them: one may end before i (nothing there yet) */
      move_down (pub->tallies, i, kept);
      move_down (pub->refs, i, kept);
      move_down (pub->rule_of, i, kept);
      if (kept < lists->len)
        lists->pdata[kept] = i < lists->len ? lists->pdata[i] : NULL;
      kept++;
    }
  g_array_set_size (pub->tallies, MIN (pub->tallies->len, kept));
  g_array_set_size (pub->refs, MIN (pub->refs->len, kept));
  g_array_set_size (pub->rule_of, MIN (pub->rule_of->len, kept));
  for (guint i = kept; i < lists->len; i++)
    lists->pdata[i] = NULL;   /* moved down or freed above */
  g_ptr_array_set_size (lists, MIN (lists->len, kept));
}

static gboolean
refs_of (Pub *pub, guint i)
{
  return i < pub->refs->len && g_array_index (pub->refs, guint32, i) > 0;
}

/* With a window, the processes that exited before it and have no request left in either copy
 * or in the builder, nor a descendant that stays, are forgotten everywhere: the builder, this
 * copy now and the other at its next update. Memory then follows the window, not the session. */
static void
drop_processes (IochartLiveCapture *self, Pub *pub)
{
  Pub *other = &self->pubs[pub == &self->pubs[0]];
  GArray *procs = _iochart_builder_peek (self->b)->processes;
  guint n = procs->len, kept = 0;
  gint64 end = _iochart_builder_peek (self->b)->end_ns, cutoff = end - self->keep_ns;
  g_autofree gboolean *keep = NULL;
  g_autofree guint32 *remap = NULL;
  gboolean changed = TRUE;

  /* tried as processes grow, and once both copies have let a batch of requests go: the processes
   * those named are free then, however few come after (a short run of many short-lived ones) */
  if (self->keep_ns == 0 || (n < self->drop_at && !(pub->shed && other->shed)) || other->remap != NULL ||
      end == IOCHART_TIME_UNKNOWN)
    return;
  pub->shed = other->shed = FALSE;
  keep = g_new0 (gboolean, n);
  _iochart_builder_processes_in_use (self->b, keep);
  for (guint i = 0; i < n; i++)
    {
      const IochartProcess *p = &g_array_index (procs, IochartProcess, i);
      keep[i] |= p->exit_ns == IOCHART_TIME_UNKNOWN || p->exit_ns >= cutoff || refs_of (pub, i) || refs_of (other, i);
    }
  /* a parent stays with its children: lanes group them under it */
  while (changed)
    {
      changed = FALSE;
      for (guint i = n; i-- > 0;)
        {
          guint32 parent = g_array_index (procs, IochartProcess, i).parent;
          if (keep[i] && parent != IOCHART_NO_PROCESS && !keep[parent])
            changed = keep[parent] = TRUE;
        }
    }
  remap = g_new (guint32, n);
  for (guint i = 0; i < n; i++)
    remap[i] = keep[i] ? kept++ : IOCHART_NO_PROCESS;
  self->drop_at = kept + MAX (DROP_MIN, kept / 2);
  if (kept == n)
    return;
  _iochart_builder_drop_processes (self->b, remap);
  self->n_dropped += n - kept;
  pub_remap (pub, remap, n);
  other->remap = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_vals (other->remap, remap, n);
  for (guint i = 0; i < self->task_log->len; i++)
    {
      IochartTaskRec *t = &g_array_index (self->task_log, IochartTaskRec, i);
      if (t->process != IOCHART_NO_PROCESS)
        t->process = remap[t->process];
    }
}

IochartCapture *
iochart_live_capture_peek_next (IochartLiveCapture *self)
{
  return self->pubs[self->front ^ 1].c;
}

IochartCapture *
iochart_live_capture_update (IochartLiveCapture *self)
{
  Pub *pub = &self->pubs[self->front ^ 1];
  IochartCapture *c, *p = pub->c;
  guint64 in_flight;

  g_mutex_lock (&self->lock);
  c = _iochart_builder_peek (self->b);
  if (self->decoder != NULL)
    _iochart_dat_decoder_flush (self->decoder);
  if (pub->remap != NULL)
    {
      pub_remap (pub, (const guint32 *) pub->remap->data, pub->remap->len);
      g_clear_pointer (&pub->remap, g_array_unref);
    }
  drop_processes (self, pub);
  if (self->expire_ns > 0 && c->end_ns != IOCHART_TIME_UNKNOWN)
    _iochart_builder_expire (self->b, c->end_ns - self->expire_ns);
  copy_processes (pub, self->b, c);
  update_rules (self, pub);
  take_settled (self, pub);
  take_tasks (self, pub, c);
  in_flight = copy_tail (self, pub);
  copy_figures (pub, self->b, c, in_flight);
  g_mutex_unlock (&self->lock);

  /* the tail counts in the tallies for this update only */
  for (guint i = pub->n_perm; i < p->requests->len; i++)
    tally (pub, &g_array_index (p->requests, IochartRequestRec, i), 1);
  for (guint i = 0; i < p->processes->len; i++)
    {
      static const IochartProcTally none;
      IochartProcess *proc = &g_array_index (p->processes, IochartProcess, i);
      _iochart_proc_tally_apply (i < pub->tallies->len ? &g_array_index (pub->tallies, IochartProcTally, i)
                                                       : &none, proc);
    }
  for (guint i = pub->n_perm; i < p->requests->len; i++)
    tally (pub, &g_array_index (p->requests, IochartRequestRec, i), -1);
  trim (self, pub);
  self->front ^= 1;
  return p;
}

/* ---- pages of the running kernel ---- */

gboolean
iochart_live_capture_use_kernel_formats (IochartLiveCapture *self, GError **error)
{
  const char *systems[] = { "block", "sched", "syscalls", NULL };

  g_return_val_if_fail (self->tep == NULL, FALSE);
  self->tep = tracefs_local_events_system (NULL, systems);
  if (self->tep == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "cannot read the kernel's event formats from tracefs");
      return FALSE;
    }
  self->decoder = _iochart_dat_decoder_new (self->b, iochart_capture_get_name (self->pubs[0].c), self->tep);
  return TRUE;
}

static CpuPages *
cpu_pages (IochartLiveCapture *self, guint cpu)
{
  while (self->cpus->len <= cpu)
    {
      CpuPages *cp = g_new0 (CpuPages, 1);

      g_queue_init (&cp->pages);
      cp->kbuf = kbuffer_alloc (KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
      g_ptr_array_add (self->cpus, cp);
    }
  return self->cpus->pdata[cpu];
}

void
iochart_live_capture_add_page (guint cpu, const guint8 *page, gsize len, gpointer user_data)
{
  IochartLiveCapture *self = user_data;

  g_mutex_lock (&self->lock);
  g_queue_push_tail (&cpu_pages (self, cpu)->pages, g_bytes_new (page, len));
  g_mutex_unlock (&self->lock);
}

/* Makes cp->data the next event of the CPU, loading its next page when one is used up. */
static gboolean
cpu_next (IochartLiveCapture *self, CpuPages *cp)
{
  while (cp->data == NULL)
    {
      GBytes *head;

      if (cp->loaded)
        {
          g_bytes_unref (g_queue_pop_head (&cp->pages));
          cp->loaded = FALSE;
        }
      if ((head = g_queue_peek_head (&cp->pages)) == NULL)
        return FALSE;
      if (kbuffer_load_subbuffer (cp->kbuf, (void *) g_bytes_get_data (head, NULL)) < 0)
        {
          g_bytes_unref (g_queue_pop_head (&cp->pages));
          continue;
        }
      cp->loaded = TRUE;
      if (kbuffer_missed_events (cp->kbuf) != 0)   /* -1: some, how many unknown */
        self->missed += MAX (kbuffer_missed_events (cp->kbuf), 1);
      cp->data = kbuffer_read_event (cp->kbuf, &cp->ts);
    }
  return TRUE;
}

void
iochart_live_capture_feed (IochartLiveCapture *self, gint64 until_ns)
{
  g_return_if_fail (self->decoder != NULL);
  g_mutex_lock (&self->lock);
  for (;;)
    {
      CpuPages *best = NULL;
      guint best_cpu = 0;

      for (guint i = 0; i < self->cpus->len; i++)
        {
          CpuPages *cp = self->cpus->pdata[i];
          if (cpu_next (self, cp) && (gint64) cp->ts < until_ns && (best == NULL || cp->ts < best->ts))
            {
              best = cp;
              best_cpu = i;
            }
        }
      if (best == NULL)
        break;
      struct tep_record rec = { .ts = best->ts, .data = best->data, .cpu = best_cpu,
                                .size = kbuffer_event_size (best->kbuf) };
      _iochart_dat_decoder_record (self->decoder, &rec);
      best->data = kbuffer_next_event (best->kbuf, &best->ts);
    }
  _iochart_builder_lost_events (self->b, MAX (self->missed, self->lost));
  g_mutex_unlock (&self->lock);
}

void
iochart_live_capture_set_lost_events (IochartLiveCapture *self, guint64 n)
{
  g_mutex_lock (&self->lock);
  self->lost = n;
  _iochart_builder_lost_events (self->b, MAX (self->missed, self->lost));
  g_mutex_unlock (&self->lock);
}

/* ---- the recording worker ---- */

static gint64
trace_clock_now_ns (void)
{
  struct timespec ts;

  /* the recorder sets the instance's trace_clock to mono: CLOCK_MONOTONIC */
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

static gpointer
worker (gpointer data)
{
  IochartLiveCapture *self = data;
  GError *error = NULL;
  IochartRecorderStats stats;

  for (;;)
    {
      gint64 now = trace_clock_now_ns ();
      gboolean stopping;

      if (!iochart_recorder_drain (self->recorder, &error))
        break;
      iochart_live_capture_feed (self, now - WATERMARK_MARGIN_NS);
      g_mutex_lock (&self->wake_lock);
      if (!self->stopping)
        g_cond_wait_until (&self->wake, &self->wake_lock,
                           g_get_monotonic_time () + self->interval_ms * G_TIME_SPAN_MILLISECOND);
      stopping = self->stopping;
      g_mutex_unlock (&self->wake_lock);
      if (stopping)
        break;
    }
  {
    GError *stop_error = NULL;

    if (!iochart_recorder_stop (self->recorder, &stop_error) && error == NULL)
      error = g_steal_pointer (&stop_error);
    g_clear_error (&stop_error);
  }
  iochart_live_capture_feed (self, G_MAXINT64);
  iochart_recorder_get_stats (self->recorder, &stats);
  iochart_live_capture_set_lost_events (self, stats.lost);
  return error;
}

void
iochart_live_capture_start (IochartLiveCapture *self, IochartRecorder *recorder, guint interval_ms)
{
  g_return_if_fail (self->thread == NULL && self->decoder != NULL);
  self->recorder = recorder;
  self->interval_ms = MAX (interval_ms, 1);
  self->stopping = FALSE;
  iochart_recorder_set_page_func (recorder, iochart_live_capture_add_page, self);
  iochart_recorder_start (recorder);
  self->thread = g_thread_new ("iochart-live", worker, self);
}

gboolean
iochart_live_capture_stop (IochartLiveCapture *self, GError **error)
{
  GError *worker_error;

  if (self->thread == NULL)
    return TRUE;
  g_mutex_lock (&self->wake_lock);
  self->stopping = TRUE;
  g_cond_signal (&self->wake);
  g_mutex_unlock (&self->wake_lock);
  worker_error = g_thread_join (self->thread);
  self->thread = NULL;
  if (worker_error != NULL)
    {
      g_propagate_error (error, worker_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
iochart_live_capture_is_running (IochartLiveCapture *self)
{
  return self->thread != NULL;
}

guint64
iochart_live_capture_get_n_dropped_processes (IochartLiveCapture *self)
{
  return self->n_dropped;
}

gsize
iochart_live_capture_get_memory (IochartLiveCapture *self)
{
  gsize n = 0;

  g_mutex_lock (&self->lock);
  n += (gsize) _iochart_builder_peek (self->b)->requests->len * (sizeof (IochartRequestRec) + 32);
  for (guint i = 0; i < self->cpus->len; i++)
    {
      CpuPages *cp = self->cpus->pdata[i];
      for (GList *l = cp->pages.head; l != NULL; l = l->next)
        n += g_bytes_get_size (l->data);
    }
  g_mutex_unlock (&self->lock);
  for (guint i = 0; i < G_N_ELEMENTS (self->pubs); i++)
    n += iochart_capture_get_model_size (self->pubs[i].c) + self->pubs[i].tallies->len * sizeof (IochartProcTally);
  n += self->task_log->len * sizeof (IochartTaskRec);
  return n;
}
