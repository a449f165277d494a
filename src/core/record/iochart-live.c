/* iochart-live.c: the live status of a recording (see the header) */
#include <string.h>
#include <tracefs.h>
#include <traceevent/kbuffer.h>
#include <traceevent/event-parse.h>

#include "iochart-live.h"
#include "iochart-error.h"

typedef enum { EV_NONE, EV_BLOCK, EV_ISSUE, EV_DONE, EV_EXIT, EV_IOPRIO_SET, EV_OTHER } Kind;

enum { F_DEV, F_SECTOR, F_BYTES, F_NR, F_IOPRIO, F_COMM, F_PID, F_WHICH, F_WHO, N_FIELDS };

typedef struct {
  Kind                     kind;
  struct tep_format_field *f[N_FIELDS];
} Desc;

/* A decoded event waiting to be applied in time order. */
typedef struct {
  gint64  ts_ns;
  guint64 sector;
  guint32 dev;
  guint32 bytes;
  gint32  pid;
  guint8  kind;
  guint8  klass;
  char    comm[16];
} Pending;

typedef struct {
  guint64 sector;
  guint32 dev;
  guint8  klass;
} Inflight;

typedef struct {
  guint32 dev;
  int     n_idle, n_fg;
  gint64  last_ns;
} Device;

typedef struct {
  char    comm[16];
  guint64 idle_bytes;
  gint64  last_ns;
  gint8   klass;          /* from ioprio_set, -1: none */
} Pid;

typedef struct {
  gint64 second;
  double stolen_ns, fg_ns;
} Bucket;

struct _IochartLive {
  struct tep_handle *tep;
  struct kbuffer    *kbuf;
  Desc              *by_id;
  guint              n_ids;
  GArray            *pending;        /* Pending, this update's */
  GHashTable        *inflight;       /* Inflight* (dev, sector) -> GQueue of Inflight*, FIFO */
  GArray            *devices;        /* Device */
  GHashTable        *pids;           /* pid -> Pid* */
  Bucket            *buckets;        /* keep_s, by second % keep_s */
  guint              keep_s;
  gint64             first_ns, last_ns;
  guint64            events, block_events, missed;
  guint64            class_bytes[IOCHART_N_CLASSES], class_requests[IOCHART_N_CLASSES];
  /* at the previous status */
  gint64             prev_mono_us;
  guint64            prev_events;
  guint64            prev_bytes[IOCHART_N_CLASSES], prev_requests[IOCHART_N_CLASSES];
};

static const struct {
  const char *system, *name;
  Kind        kind;
} wanted[] = {
  { "block", "block_rq_issue", EV_ISSUE },
  { "block", "block_rq_complete", EV_DONE },
  { "block", "block_rq_requeue", EV_DONE },
  { "sched", "sched_process_exit", EV_EXIT },
  { "syscalls", "sys_enter_ioprio_set", EV_IOPRIO_SET },
};

static const char *const field_names[N_FIELDS] = {
  "dev", "sector", "bytes", "nr_sector", "ioprio", "comm", "pid", "which", "who",
};

static guint
inflight_hash (gconstpointer p)
{
  const Inflight *i = p;
  return (guint) (i->sector * 0x9e3779b97f4a7c15ull >> 32) ^ i->dev;
}

static gboolean
inflight_equal (gconstpointer a, gconstpointer b)
{
  const Inflight *x = a, *y = b;
  return x->sector == y->sector && x->dev == y->dev;
}

static void
queue_free (gpointer q)
{
  g_queue_free_full (q, g_free);
}

static gboolean
load_formats (IochartLive *self, GError **error)
{
  const char *systems[] = { "block", "sched", "syscalls", NULL };

  self->tep = tracefs_local_events_system (NULL, systems);
  if (self->tep == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "cannot read the kernel's event formats from tracefs");
      return FALSE;
    }
  int n = tep_get_events_count (self->tep);
  struct tep_event **all = tep_list_events (self->tep, TEP_EVENT_SORT_ID);
  for (int i = 0; i < n; i++)
    self->n_ids = MAX (self->n_ids, (guint) all[i]->id + 1);
  self->by_id = g_new0 (Desc, self->n_ids);
  for (int i = 0; i < n; i++)
    if (strcmp (all[i]->system, "block") == 0)
      self->by_id[all[i]->id].kind = EV_BLOCK;
    else
      self->by_id[all[i]->id].kind = EV_OTHER;
  for (guint w = 0; w < G_N_ELEMENTS (wanted); w++)
    {
      struct tep_event *ev = tep_find_event_by_name (self->tep, wanted[w].system, wanted[w].name);
      if (ev == NULL)
        continue;
      Desc *d = &self->by_id[ev->id];
      d->kind = wanted[w].kind;
      for (guint f = 0; f < N_FIELDS; f++)
        d->f[f] = tep_find_field (ev, field_names[f]);
    }
  return TRUE;
}

IochartLive *
iochart_live_new (guint keep_s, GError **error)
{
  g_autoptr(IochartLive) self = g_new0 (IochartLive, 1);

  self->keep_s = MAX (keep_s, 1);
  self->buckets = g_new0 (Bucket, self->keep_s);
  for (guint i = 0; i < self->keep_s; i++)
    self->buckets[i].second = -1;
  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  self->inflight = g_hash_table_new_full (inflight_hash, inflight_equal, g_free, queue_free);
  self->devices = g_array_new (FALSE, TRUE, sizeof (Device));
  self->pids = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->kbuf = kbuffer_alloc (KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
  self->first_ns = IOCHART_TIME_UNKNOWN;
  self->prev_mono_us = g_get_monotonic_time ();
  if (!load_formats (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

void
iochart_live_free (IochartLive *self)
{
  if (self == NULL)
    return;
  if (self->tep != NULL)
    tep_free (self->tep);
  if (self->kbuf != NULL)
    kbuffer_free (self->kbuf);
  g_free (self->by_id);
  g_free (self->buckets);
  g_array_unref (self->pending);
  g_hash_table_unref (self->inflight);
  g_array_unref (self->devices);
  g_hash_table_unref (self->pids);
  g_free (self);
}

static guint64
num (const struct tep_format_field *f, void *data, guint64 fallback)
{
  unsigned long long v;

  if (f == NULL || tep_read_number_field ((struct tep_format_field *) f, data, &v) != 0)
    return fallback;
  return v;
}

static void
decode (IochartLive *self, const Desc *d, gint64 ts_ns, struct tep_record *rec)
{
  Pending p = { .ts_ns = ts_ns, .kind = d->kind, .klass = IOCHART_CLASS_UNKNOWN };

  p.dev = num (d->f[F_DEV], rec->data, 0);
  p.sector = num (d->f[F_SECTOR], rec->data, 0);
  p.pid = tep_data_pid (self->tep, rec);
  switch (d->kind)
    {
    case EV_ISSUE:
      p.bytes = d->f[F_BYTES] ? num (d->f[F_BYTES], rec->data, 0) : num (d->f[F_NR], rec->data, 0) * 512;
      if (d->f[F_IOPRIO] != NULL)
        p.klass = MIN (IOCHART_IOPRIO_CLASS (num (d->f[F_IOPRIO], rec->data, 0)), IOCHART_CLASS_UNKNOWN);
      if (d->f[F_COMM] != NULL && d->f[F_COMM]->size <= (int) sizeof p.comm)
        memcpy (p.comm, (char *) rec->data + d->f[F_COMM]->offset, d->f[F_COMM]->size);
      break;
    case EV_EXIT:
      p.pid = num (d->f[F_PID], rec->data, p.pid);
      break;
    case EV_IOPRIO_SET:
      /* which 1 (a process), who 0 (the caller) or a pid: remembered as that pid's class */
      if (num (d->f[F_WHICH], rec->data, 0) != 1)
        return;
      if (num (d->f[F_WHO], rec->data, 0) != 0)
        p.pid = num (d->f[F_WHO], rec->data, 0);
      p.klass = MIN (IOCHART_IOPRIO_CLASS (num (d->f[F_IOPRIO], rec->data, 0)), IOCHART_CLASS_UNKNOWN);
      break;
    default:
      break;
    }
  g_array_append_val (self->pending, p);
}

void
iochart_live_add_page (guint cpu, const guint8 *page, gsize len, gpointer user_data)
{
  IochartLive *self = user_data;
  unsigned long long ts;
  void *data;

  if (kbuffer_load_subbuffer (self->kbuf, (void *) page) < 0)
    return;
  if (kbuffer_missed_events (self->kbuf) != 0)   /* -1: some, how many unknown */
    self->missed += MAX (kbuffer_missed_events (self->kbuf), 1);
  for (data = kbuffer_read_event (self->kbuf, &ts); data != NULL; data = kbuffer_next_event (self->kbuf, &ts))
    {
      struct tep_record rec = { .ts = ts, .data = data, .size = kbuffer_event_size (self->kbuf), .cpu = cpu };
      int type = tep_data_type (self->tep, &rec);
      const Desc *d = type >= 0 && (guint) type < self->n_ids ? &self->by_id[type] : NULL;

      self->events++;
      if (d == NULL || d->kind == EV_NONE || d->kind == EV_OTHER)
        continue;
      self->block_events += d->kind == EV_BLOCK || d->kind == EV_ISSUE || d->kind == EV_DONE;
      if (d->kind != EV_BLOCK)
        decode (self, d, (gint64) ts, &rec);
    }
}

static Device *
device_for (IochartLive *self, guint32 dev)
{
  for (guint i = 0; i < self->devices->len; i++)
    if (g_array_index (self->devices, Device, i).dev == dev)
      return &g_array_index (self->devices, Device, i);
  g_array_set_size (self->devices, self->devices->len + 1);
  Device *d = &g_array_index (self->devices, Device, self->devices->len - 1);
  d->dev = dev;
  d->last_ns = IOCHART_TIME_UNKNOWN;
  return d;
}

static Bucket *
bucket_for (IochartLive *self, gint64 ts_ns)
{
  gint64 second = (ts_ns - self->first_ns) / G_GINT64_CONSTANT (1000000000);
  Bucket *b = &self->buckets[second % self->keep_s];

  if (b->second != second)
    *b = (Bucket) { .second = second };
  return b;
}

/* The steal share of the time since the device's last change, as iochart-steal defines it. */
static void
integrate (IochartLive *self, Device *d, gint64 ts_ns)
{
  if (d->last_ns != IOCHART_TIME_UNKNOWN && ts_ns > d->last_ns && d->n_fg > 0)
    {
      Bucket *b = bucket_for (self, ts_ns);
      double dt = ts_ns - d->last_ns;
      b->fg_ns += dt;
      b->stolen_ns += dt * d->n_idle / (d->n_idle + d->n_fg);
    }
  d->last_ns = MAX (d->last_ns, ts_ns);
}

static Pid *
pid_for (IochartLive *self, gint32 pid)
{
  Pid *p = g_hash_table_lookup (self->pids, GINT_TO_POINTER (pid));

  if (p == NULL)
    {
      p = g_new0 (Pid, 1);
      p->klass = -1;
      g_hash_table_insert (self->pids, GINT_TO_POINTER (pid), p);
    }
  return p;
}

static void
apply_issue (IochartLive *self, Pending *e)
{
  Inflight key = { .sector = e->sector, .dev = e->dev };
  Device *d = device_for (self, e->dev);
  Pid *p = NULL;
  GQueue *q;

  if (e->bytes == 0)
    return;   /* a flush: its end comes at another sector, and it holds nobody's data */
  if (e->klass == IOCHART_CLASS_UNKNOWN && (p = g_hash_table_lookup (self->pids, GINT_TO_POINTER (e->pid))) && p->klass >= 0)
    e->klass = p->klass;
  self->class_bytes[e->klass] += e->bytes;
  self->class_requests[e->klass]++;
  integrate (self, d, e->ts_ns);
  if (e->klass == IOCHART_CLASS_IDLE)
    {
      d->n_idle++;
      p = pid_for (self, e->pid);
      p->idle_bytes += e->bytes;
      p->last_ns = e->ts_ns;
      if (e->comm[0] != '\0')
        memcpy (p->comm, e->comm, sizeof p->comm);
    }
  else if (e->klass != IOCHART_CLASS_NONE)   /* flushes hold nobody's I/O */
    d->n_fg++;
  if ((q = g_hash_table_lookup (self->inflight, &key)) == NULL)
    g_hash_table_insert (self->inflight, g_memdup2 (&key, sizeof key), (q = g_queue_new ()));
  Inflight *in = g_memdup2 (&key, sizeof key);
  in->klass = e->klass;
  g_queue_push_tail (q, in);
}

static void
apply_done (IochartLive *self, const Pending *e)
{
  Inflight key = { .sector = e->sector, .dev = e->dev };
  GQueue *q = g_hash_table_lookup (self->inflight, &key);
  g_autofree Inflight *in = q ? g_queue_pop_head (q) : NULL;
  Device *d;

  if (in == NULL)
    return;   /* issued before the recording, or a flush's end */
  if (g_queue_is_empty (q))
    g_hash_table_remove (self->inflight, &key);
  d = device_for (self, e->dev);
  integrate (self, d, e->ts_ns);
  if (in->klass == IOCHART_CLASS_IDLE)
    d->n_idle = MAX (d->n_idle - 1, 0);
  else if (in->klass != IOCHART_CLASS_NONE)
    d->n_fg = MAX (d->n_fg - 1, 0);
}

static int
pending_cmp (gconstpointer a, gconstpointer b)
{
  const Pending *x = a, *y = b;
  return x->ts_ns < y->ts_ns ? -1 : x->ts_ns > y->ts_ns;
}

void
iochart_live_update (IochartLive *self)
{
  /* pages come CPU by CPU: sorting one drain's events restores the order that matters (an
   * issue on one CPU before its completion on another) */
  g_array_sort (self->pending, pending_cmp);
  for (guint i = 0; i < self->pending->len; i++)
    {
      Pending *e = &g_array_index (self->pending, Pending, i);
      if (self->first_ns == IOCHART_TIME_UNKNOWN)
        self->first_ns = e->ts_ns;
      self->last_ns = MAX (self->last_ns, e->ts_ns);
      switch (e->kind)
        {
        case EV_ISSUE:
          apply_issue (self, e);
          break;
        case EV_DONE:
          apply_done (self, e);
          break;
        case EV_IOPRIO_SET:
          pid_for (self, e->pid)->klass = e->klass;
          break;
        case EV_EXIT:
          {
            Pid *p = g_hash_table_lookup (self->pids, GINT_TO_POINTER (e->pid));
            if (p != NULL && p->idle_bytes == 0)
              g_hash_table_remove (self->pids, GINT_TO_POINTER (e->pid));
          }
          break;
        default:
          break;
        }
    }
  g_array_set_size (self->pending, 0);
}

void
iochart_live_get_status (IochartLive *self, IochartLiveStatus *st)
{
  gint64 now_us = g_get_monotonic_time ();
  double dt = MAX (now_us - self->prev_mono_us, 1) / 1e6;
  gint64 oldest = self->last_ns - (gint64) self->keep_s * G_GINT64_CONSTANT (1000000000);
  double stolen = 0, fg = 0;
  GHashTableIter it;
  gpointer key, value;

  memset (st, 0, sizeof *st);
  st->elapsed_ns = self->first_ns == IOCHART_TIME_UNKNOWN ? 0 : self->last_ns - self->first_ns;
  st->events = self->events;
  st->block_events = self->block_events;
  st->missed = self->missed;
  st->events_per_s = (self->events - self->prev_events) / dt;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      st->bytes_per_s[k] = (self->class_bytes[k] - self->prev_bytes[k]) / dt;
      st->requests_per_s[k] = (self->class_requests[k] - self->prev_requests[k]) / dt;
      self->prev_bytes[k] = self->class_bytes[k];
      self->prev_requests[k] = self->class_requests[k];
    }
  self->prev_events = self->events;
  self->prev_mono_us = now_us;
  for (guint i = 0; i < self->keep_s; i++)
    if (self->buckets[i].second >= 0)
      {
        stolen += self->buckets[i].stolen_ns;
        fg += self->buckets[i].fg_ns;
      }
  st->stolen_pct = fg > 0 ? 100 * stolen / fg : 0;
  /* the window: processes whose idle I/O is older go, so the table stays bounded */
  g_hash_table_iter_init (&it, self->pids);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      Pid *p = value;
      if (p->idle_bytes > 0 && p->last_ns < oldest)
        {
          g_hash_table_iter_remove (&it);
          continue;
        }
      if (p->idle_bytes > st->top_idle_bytes)
        {
          st->top_idle_bytes = p->idle_bytes;
          g_snprintf (st->top_idle, sizeof st->top_idle, "%.16s[%d]", p->comm[0] ? p->comm : "?",
                      GPOINTER_TO_INT (key));
        }
    }
}

gsize
iochart_live_get_memory (IochartLive *self)
{
  return sizeof *self + self->keep_s * sizeof (Bucket) + self->pending->len * sizeof (Pending)
         + g_hash_table_size (self->inflight) * (2 * sizeof (Inflight) + 64)
         + g_hash_table_size (self->pids) * (sizeof (Pid) + 32);
}
