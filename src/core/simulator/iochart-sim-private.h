/* iochart-sim-private.h: what the engine, the policies and the device models share
 *
 * The engine owns the clock and the event queue; a policy only holds requests and says which one
 * goes next; a device model only says how long a request takes. Requests are named by their index
 * in the workload, processes by their index in the capture.
 */
#pragma once

#include "iochart-simulator.h"

G_BEGIN_DECLS

#define IOCHART_SIM_NONE G_MAXUINT32

/* One request as a policy sees it: 24 bytes. */
typedef struct {
  guint64 sector;
  guint32 bytes;
  guint32 process;          /* capture index, or IOCHART_NO_PROCESS */
  guint8  klass;            /* IochartClass after --set-class; NONE and UNKNOWN count as BE */
  guint8  level;
  guint8  op;               /* IochartOp */
  guint8  flags;            /* IochartRqFlags */
  guint32 pad;
} IochartSimRq;

G_STATIC_ASSERT (sizeof (IochartSimRq) == 24);

static inline gboolean
_iochart_sim_rq_is_sync (const IochartSimRq *rq)
{
  return rq->op == IOCHART_OP_READ || (rq->flags & IOCHART_RQ_SYNC) != 0;
}

static inline gboolean
_iochart_sim_rq_is_idle (const IochartSimRq *rq)
{
  return rq->klass == IOCHART_CLASS_IDLE;
}

/* The class a scheduler files a request under: none and unknown are best-effort. */
static inline guint
_iochart_sim_rq_sched_class (const IochartSimRq *rq)
{
  return rq->klass == IOCHART_CLASS_RT || rq->klass == IOCHART_CLASS_IDLE ? rq->klass : IOCHART_CLASS_BE;
}

/* A FIFO of request indices (a growing ring), which most policies keep per queue. */
typedef struct {
  guint32 *v;
  guint    head, len, size;
} IochartSimFifo;

static inline void
_iochart_sim_fifo_push (IochartSimFifo *f, guint32 x)
{
  if (f->len == f->size)
    {
      guint old = f->size;

      f->size = MAX (8, 2 * old);
      f->v = g_renew (guint32, f->v, f->size);
      /* unwrap: the part before head moves after the old end, so the ring runs on from head */
      for (guint i = 0; i < f->head; i++)
        f->v[old + i] = f->v[i];
    }
  f->v[(f->head + f->len++) % f->size] = x;
}

static inline guint32
_iochart_sim_fifo_peek (const IochartSimFifo *f)
{
  return f->len ? f->v[f->head] : G_MAXUINT32;
}

static inline guint32
_iochart_sim_fifo_pop (IochartSimFifo *f)
{
  guint32 x;

  if (f->len == 0)
    return G_MAXUINT32;
  x = f->v[f->head];
  f->head = (f->head + 1) % f->size;
  f->len--;
  return x;
}

static inline void
_iochart_sim_fifo_clear (IochartSimFifo *f)
{
  g_clear_pointer (&f->v, g_free);
  f->head = f->len = f->size = 0;
}

/* CFQ and BFQ keep each request's queue, with this bit once it went to the device. */
#define IOCHART_SIM_DISPATCHED 0x80000000u

/* A queue's FIFO of arrivals, whose dispatched entries (by the order of the sector set) are
 * dropped lazily. */
static inline void
_iochart_sim_fifo_skip_dispatched (IochartSimFifo *f, const guint32 *rq_queue)
{
  while (f->len > 0 && (rq_queue[_iochart_sim_fifo_peek (f)] & IOCHART_SIM_DISPATCHED) != 0)
    _iochart_sim_fifo_pop (f);
}

/* cfq_check_fifo, bfq_check_fifo: the oldest request if it waited past expire_ns, else
 * G_MAXUINT32. */
static inline guint32
_iochart_sim_fifo_expired (IochartSimFifo *f, const guint32 *rq_queue, const gint64 *arrived_ns, gint64 expire_ns,
                           gint64 now)
{
  guint32 rq;

  _iochart_sim_fifo_skip_dispatched (f, rq_queue);
  rq = _iochart_sim_fifo_peek (f);
  return rq == G_MAXUINT32 || now < arrived_ns[rq] + expire_ns ? G_MAXUINT32 : rq;
}

/* A queue's requests by sector, for CFQ's and BFQ's choice of the next one. */
typedef struct {
  guint32 *v;
  guint    n, size;
} IochartSimSorted;

/* The start of CFQ's and BFQ's queues: requests by arrival (entries already dispatched are
 * skipped), the process of a sync queue, requests by sector, and whether this slice looked at
 * the oldest request's age yet. A Queue begins with IOCHART_SIM_QUEUE_HEAD: its fields by name,
 * the whole as q->head for the functions below. */
typedef struct {
  IochartSimFifo   rqs;
  guint32          owner;
  IochartSimSorted sorted;
  gboolean         fifo_checked;
} IochartSimQueueHead;

#define IOCHART_SIM_QUEUE_HEAD                                                                        \
  union {                                                                                             \
    IochartSimQueueHead head;                                                                         \
    struct {                                                                                          \
      IochartSimFifo   rqs;                                                                           \
      guint32          owner;                                                                         \
      IochartSimSorted sorted;                                                                        \
      gboolean         fifo_checked;                                                                  \
    };                                                                                                \
  }

/* A pool's reset of a queue of size bytes for a new owner (IochartSimPoolReset): all zero but
 * its arrays, kept empty. */
static inline void
_iochart_sim_queue_reset (IochartSimQueueHead *q, gsize size, guint32 owner)
{
  IochartSimFifo rqs = q->rqs;
  IochartSimSorted sorted = q->sorted;

  memset (q, 0, size);
  q->rqs = rqs;
  q->rqs.head = q->rqs.len = 0;
  q->sorted = sorted;
  q->sorted.n = 0;
  q->owner = owner;
}

/* Once a slice (BFQ: a slot), the oldest request if it waited past expire_ns. */
static inline guint32
_iochart_sim_queue_fifo_expired (IochartSimQueueHead *q, const guint32 *rq_queue, const gint64 *arrived_ns,
                                 gint64 expire_ns, gint64 now)
{
  if (q->fifo_checked)
    return IOCHART_SIM_NONE;
  q->fifo_checked = TRUE;
  return _iochart_sim_fifo_expired (&q->rqs, rq_queue, arrived_ns, expire_ns, now);
}

static inline guint
_iochart_sim_sorted_bound (const IochartSimSorted *s, const IochartSimRq *rq, guint64 sector, gboolean upper)
{
  guint lo = 0, hi = s->n;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      guint64 x = rq[s->v[mid]].sector;

      if (x < sector || (upper && x == sector))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* After the ones of the same sector: those keep their arrival order. */
static inline void
_iochart_sim_sorted_insert (IochartSimSorted *s, const IochartSimRq *rq, guint32 id)
{
  guint i = _iochart_sim_sorted_bound (s, rq, rq[id].sector, TRUE);

  if (s->n == s->size)
    {
      s->size = MAX (4, 2 * s->size);
      s->v = g_renew (guint32, s->v, s->size);
    }
  for (guint k = s->n; k > i; k--)   /* mostly none or one: no call */
    s->v[k] = s->v[k - 1];
  s->v[i] = id;
  s->n++;
}

static inline void
_iochart_sim_sorted_remove (IochartSimSorted *s, const IochartSimRq *rq, guint32 id)
{
  guint i = _iochart_sim_sorted_bound (s, rq, rq[id].sector, FALSE);

  while (i < s->n && s->v[i] != id)
    i++;
  g_assert (i < s->n);
  for (s->n--; i < s->n; i++)
    s->v[i] = s->v[i + 1];
}

/* cfq_choose_req and bfq_choose_req from the head: ahead costs its distance, behind within
 * back_max sectors costs back_penalty times it; when all lie further behind, the lowest sector.
 * G_MAXUINT32 when empty. */
static inline guint32
_iochart_sim_sorted_next (const IochartSimSorted *s, const IochartSimRq *rq, guint64 head, guint64 back_max,
                          guint back_penalty)
{
  guint i;
  guint32 ahead;

  if (s->n == 0)
    return G_MAXUINT32;
  i = _iochart_sim_sorted_bound (s, rq, head, FALSE);
  ahead = i < s->n ? s->v[i] : G_MAXUINT32;
  if (i > 0)
    {
      guint32 behind = s->v[i - 1];
      guint64 x = rq[behind].sector;

      if (x + back_max >= head && (ahead == G_MAXUINT32 || (head - x) * back_penalty < rq[ahead].sector - head))
        return behind;
    }
  return ahead != G_MAXUINT32 ? ahead : s->v[0];
}

/* Per-process queues of a policy in a pool: n_fixed shared ones first (async queues), then one
 * per process doing I/O now, whose slot is reused once the process has exited and its queue
 * drained, so memory follows the live processes, not every `cat` there ever was. Items move
 * when the pool grows: take pointers after _get. */
typedef struct {
  guint8  *items;
  gsize    item_size;
  guint    n, size, n_fixed;
  guint32 *slot;           /* per owner: item index, 0 when none (index 0 is a fixed item) */
  guint    n_owners;
  GArray  *free;           /* guint32 item indices */
} IochartSimPool;

void     _iochart_sim_pool_init    (IochartSimPool *pool,
                                    gsize           item_size,
                                    guint           n_fixed,
                                    guint           n_owners);
/* The item of owner; a fresh one (zeroed but for what the caller keeps) sets *fresh. */
guint32  _iochart_sim_pool_get     (IochartSimPool *pool,
                                    guint32         owner,
                                    gboolean       *fresh);
/* 0 when owner has no item. */
static inline guint32
_iochart_sim_pool_find (const IochartSimPool *pool, guint32 owner)
{
  return owner < pool->n_owners ? pool->slot[owner] : 0;
}
void     _iochart_sim_pool_release (IochartSimPool *pool,
                                    guint32         owner);
void     _iochart_sim_pool_clear   (IochartSimPool *pool);

/* CFQ and BFQ keep their async queues per class and level as the pool's first items. */
#define IOCHART_SIM_N_ASYNC 32

/* Makes a fresh queue item ready for owner (its buffers may be kept from a previous owner). */
typedef void (*IochartSimQueueReset) (gpointer item, guint32 owner);

/* The queue of a request in a CFQ-like pool (owners: processes + 1 for requests of no process):
 * an async request's is shared per class and level, a sync one's is its process's, made (reset)
 * on first use. Items move when the pool grows: take pointers after it. */
static inline guint32
_iochart_sim_pool_queue_of (IochartSimPool *pool, const IochartSimRq *rq, IochartSimQueueReset reset)
{
  guint32 owner, id;
  gboolean fresh;

  if (!_iochart_sim_rq_is_sync (rq))
    return _iochart_sim_rq_sched_class (rq) * 8 + rq->level;
  owner = MIN (rq->process, pool->n_owners - 1);
  id = _iochart_sim_pool_get (pool, owner, &fresh);
  if (fresh)
    reset (pool->items + id * pool->item_size, owner);
  return id;
}

/* The sync queue of a process that exits, or 0 when it has none. */
static inline guint32
_iochart_sim_pool_queue_of_process (const IochartSimPool *pool, guint32 process)
{
  return process < pool->n_owners - 1 ? _iochart_sim_pool_find (pool, process) : 0;
}

/* A time and the index of what it is the time of: what the simulator sorts most. */
typedef struct {
  gint64  ns;
  guint32 index;
} IochartSimKeyed;

/* Sorts n items of size bytes by the gint64 at key_offset, stably (runs merged, nearly sorted
 * input by insertion, else radix: linear time for what the simulator sorts),
 * so items made in index order come out by (time, index). */
void     _iochart_sim_sort_by_ns   (void           *items,
                                    guint           n,
                                    gsize           size,
                                    gsize           key_offset);

static inline void
_iochart_sim_sort_keyed (IochartSimKeyed *v, guint n)
{
  _iochart_sim_sort_by_ns (v, n, sizeof *v, G_STRUCT_OFFSET (IochartSimKeyed, ns));
}

/* What a policy may look at: the requests, the device's head and what is in flight. */
typedef struct {
  const IochartSimRq *rq;
  guint               n_rq;
  guint               n_processes;
  const guint32      *parent;          /* per process: parent index or IOCHART_NO_PROCESS */
  guint               in_flight;       /* requests on the device now */
  guint               depth;           /* how many the device takes at once */
  guint64             head_sector;     /* where the last dispatched request ended */
  /* cgroups (--set-group): a group per process, 0 the root; n_groups weights, the root's first */
  const guint16      *group;           /* NULL: every process in the root group */
  const guint        *group_weight;
  guint               n_groups;
} IochartSimCtx;

/* The group of a request: async I/O is the root group's, as in CFQ. */
static inline guint
_iochart_sim_ctx_group (const IochartSimCtx *ctx, const IochartSimRq *rq)
{
  if (ctx->group == NULL || rq->process >= ctx->n_processes || !_iochart_sim_rq_is_sync (rq))
    return 0;
  return ctx->group[rq->process];
}

/* KEY=VALUE settings of a policy or device model, parsed once; each reader checks its keys. */
typedef struct _IochartSimSettings IochartSimSettings;

IochartSimSettings *_iochart_sim_settings_parse   (const char          *text,
                                                   GError             **error);
void                _iochart_sim_settings_free    (IochartSimSettings  *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSimSettings, _iochart_sim_settings_free)
/* Times take a unit (ms default): "8", "8ms", "200us", "0.1s". */
gboolean            _iochart_sim_settings_time    (IochartSimSettings  *s,
                                                   const char          *key,
                                                   gint64               default_ns,
                                                   gint64              *ns,
                                                   GError             **error);
gboolean            _iochart_sim_settings_double  (IochartSimSettings  *s,
                                                   const char          *key,
                                                   double               default_value,
                                                   double               min,
                                                   double               max,
                                                   double              *value,
                                                   GError             **error);
gboolean            _iochart_sim_settings_bool    (IochartSimSettings  *s,
                                                   const char          *key,
                                                   gboolean             default_value,
                                                   gboolean            *value,
                                                   GError             **error);
/* Fails naming the first key no reader asked for. */
gboolean            _iochart_sim_settings_check   (IochartSimSettings  *s,
                                                   const char          *what,
                                                   GError             **error);
/* "gap=100ms,k=1": the canonical text of what was read, for reports. */
char               *_iochart_sim_settings_to_string (IochartSimSettings *s);

/* A policy: one small table. dispatch returns a request index or IOCHART_SIM_NONE; next_timer
 * the time the policy wants to be woken, or IOCHART_TIME_UNKNOWN. */
typedef struct _IochartSimPolicy IochartSimPolicy;

typedef struct {
  const char *name;
  IochartSimPolicy *(*init)       (const IochartSimCtx *ctx, IochartSimSettings *settings, GError **error);
  void              (*free)       (IochartSimPolicy *p);
  void              (*add)        (IochartSimPolicy *p, guint32 rq, gint64 now_ns);
  guint32           (*dispatch)   (IochartSimPolicy *p, gint64 now_ns);
  void              (*complete)   (IochartSimPolicy *p, guint32 rq, gint64 now_ns);
  void              (*exit)       (IochartSimPolicy *p, guint32 process, gint64 now_ns);
  gint64            (*next_timer) (IochartSimPolicy *p);
  void              (*timer)      (IochartSimPolicy *p, gint64 now_ns);
  /* optional: figures for the invariants' tests */
  void              (*stats)      (IochartSimPolicy *p, IochartSimStats *stats);
} IochartSimPolicyOps;

extern const IochartSimPolicyOps _iochart_sim_noop_ops;
extern const IochartSimPolicyOps _iochart_sim_cfq_ops;
extern const IochartSimPolicyOps _iochart_sim_deadline_ops;
extern const IochartSimPolicyOps _iochart_sim_bfq_ops;

/* idle-gate wraps another policy: built with the inner one already made. */
IochartSimPolicy *_iochart_sim_idle_gate_new (const IochartSimCtx        *ctx,
                                              const IochartSimPolicyOps  *inner_ops,
                                              IochartSimPolicy           *inner,
                                              IochartSimSettings         *settings,
                                              GError                    **error);
extern const IochartSimPolicyOps _iochart_sim_idle_gate_ops;

/* The device model's service time of a request dispatched now, behind the head at head_sector. */
gint64 _iochart_sim_device_service_ns (IochartSimDevice   *dev,
                                       const IochartSimRq *rq,
                                       guint32             index,
                                       guint64             head_sector);
guint  _iochart_sim_device_get_depth  (IochartSimDevice   *dev);
/* A serial device (one arm) serves what it holds one after the other. */
gboolean _iochart_sim_device_is_serial (IochartSimDevice  *dev);

/* The workload's tables, for the engine. */
typedef struct {
  IochartCapture     *capture;
  guint               device;          /* capture device index */
  guint               n_rq;
  IochartSimRq       *rq;
  guint32            *source;          /* per request: index in the capture */
  gint64             *observed_service_ns; /* per request: its own time on a one-at-a-time device */
  guint32            *parent;          /* per process */
  guint8             *dropped;         /* per process */
  gboolean            classes_changed; /* --set-class gave some request another class */
  guint16            *group;           /* per process: its cgroup (--set-group), 0 the root; NULL: none */
  guint              *group_weight;    /* per cgroup, the root's first */
  guint               n_groups;
  /* The dependency graph: nodes are arrivals [0, R), completions [R, 2R), forks [2R, 2R+P) and
   * exits [2R+P, 2R+2P). A live node with a predecessor becomes ready gap_ns after it; a root at
   * gap_ns (its observed time). */
  guint               n_nodes;
  guint32            *pred;            /* per node: predecessor, IOCHART_SIM_NONE for roots */
  gint64             *gap_ns;
  guint8             *live;            /* per node */
  guint32            *succ_start;      /* CSR of successors: n_nodes + 1 */
  guint32            *succ;
  guint32            *roots;           /* live nodes without predecessor, by time */
  guint               n_roots;
} IochartSimGraph;

const IochartSimGraph *_iochart_sim_workload_get_graph (IochartSimWorkload *wl);

/* When the process handed a request to the block layer: the earliest time seen of it. */
static inline gint64
_iochart_sim_submit_ns (const IochartRequest *r)
{
  gint64 t = r->issue_ns;

  if (r->insert_ns != IOCHART_TIME_UNKNOWN && r->insert_ns < t)
    t = r->insert_ns;
  if (r->queue_ns != IOCHART_TIME_UNKNOWN && r->queue_ns < t)
    t = r->queue_ns;
  return t;
}

G_END_DECLS
