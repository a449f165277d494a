/* iochart-builder.c: rebuilds request lives from block events, whatever the format
 *
 * Every reader feeds the same calls in time order. A request is created at its first event
 * (queue, insert or issue) and found again at later ones by (device, sector, sectors), first in
 * first out among equal keys: one chain per state under each key, so that a request for the same
 * sectors that is queued while an older one is in flight is never confused with it. Merges fold
 * into the request they joined and leave a dead record behind, dropped when the capture is
 * finished.
 */
#include <string.h>
#include <sys/mman.h>
#include "iochart-capture-private.h"
#include "readers/iochart-sched-notes.h"

#define NONE G_MAXUINT32
#define OP_DEAD 7

typedef enum { ST_QUEUED, ST_INSERTED, ST_INFLIGHT, ST_DONE, ST_DEAD } RqState;

/* Build-time state of a request, parallel to the capture's request array. */
typedef struct {
  guint32 next;       /* next request with the same key in the same state table */
  guint32 nr;         /* current size in sectors, as the events give it */
  guint8  state;
  guint8  field_rank; /* which event's ioprio field set the class: 0 none, 1 C, 2 I, 3 D */
  guint8  in_qlist : 1; /* on its device's list of queued bios */
  guint8  split : 1;    /* its first bio was split: btt leaves it out */
  guint8  folded : 1;   /* has an entry in the builder's folded table */
  guint32 qprev, qnext;
} Pending;

/* A bio folded into a request, for btt's per-bio figures. */
typedef struct {
  gint64  queue_ns;
  guint32 process;
} FoldedBio;

/* Queued bios of one device in queue order, for the pieces of a split bio. */
typedef struct {
  guint32 head, tail;
  guint   len;
} QueuedList;

/* A device whose bios never become requests (bio-based, like dm) must not make every search
 * slow: past this many, the oldest queued bios are no longer offered to split pieces. */
#define QLIST_MAX 4096

/* Open-addressing table: key (dev, sector, nr) -> a FIFO chain of requests through Pending.next
 * for each state a request waits in (ST_QUEUED, ST_INSERTED, ST_INFLIGHT: one table for the
 * three, so that a request moving on finds its next chain in the slot it leaves, with no search),
 * or a single request in chain 0 where chains are not needed (the ends and starts of requests). */
#define N_CHAINS 3

typedef struct {
  guint64 sector;
  guint32 dev;
  guint32 nr;
  guint32 used;             /* a bit per chain that is not empty; 0: an empty slot */
  guint32 head[N_CHAINS];   /* a chain's ends, set while it is not empty */
  guint32 tail[N_CHAINS];
} Slot;

G_STATIC_ASSERT (ST_INFLIGHT < N_CHAINS);

typedef struct {
  Slot  *slots;
  gsize  mask;
  gsize  live;
  guint  shift;       /* 64 - log2 (size) */
} RqMap;

typedef struct {
  IochartClass       klass;
  guint8             level;
  IochartClassSource source;   /* UNKNOWN: no hint */
} ClassHint;

typedef struct {
  guint32     process;
  gint64      ns;
  const char *comm;
} CommEntry;

typedef struct {
  gpointer data;
  guint    room;
} ArrayRoom;

struct _IochartBuilder {
  IochartCapture     *capture;
  GArray             *pending;       /* Pending */
  ArrayRoom           requests_room, pending_room;
  RqMap               states;        /* requests queued, inserted and in flight by key */
  RqMap               ends, starts;  /* single request per key, for merges */
  GArray             *qlists;        /* QueuedList per device index */
  GHashTable         *folded;        /* request -> GArray of FoldedBio, until it completes */
  guint32             fold_rq;       /* the request btt_fold() gave bios to last (NONE: none) and */
  GArray             *fold_bios;     /* its entry: a request takes its merges in a run */
  ArrayRoom           fold_room;     /* fold_bios's room, NULL data when it is not known */
  GArray             *btt_procs;     /* IochartBttFigures per process index */
  GArray             *btt_retired;   /* IochartBttFigures by name of processes a live window dropped */
  GHashTable         *pid_to_proc;   /* pid -> process index + 1 */
  gint32              last_pid;      /* the pid proc_for() saw last (-1: none) and its process: */
  guint32             last_proc;     /* a run of records from one task looks it up once */
  /* the bytes proc_set_comm() was given last, for which process and what that process's comm was
   * after it: given the same again, with the comm unchanged, it would change nothing */
  guint32             comm_proc;
  guint8              comm_len;
  char                comm_bytes[16];
  const char         *comm_after;
  GArray             *hints;         /* ClassHint per process */
  GHashTable         *dev_to_index;  /* dev + 1 -> device index + 1 */
  guint32             last_dev;      /* the dev device_index() saw last + 1 (0: none), and its */
  guint16             last_device;   /* index: a capture's requests are mostly on one device */
  GArray             *rules;         /* IochartClassRule (match owned) */
  GArray             *comm_log;      /* CommEntry, in arrival order */
  IochartLoadProgress progress;
  gpointer            progress_data;
  guint64             lost_merges;
  gboolean            seen_admission;  /* the capture has queue or insert events */
  guint32             recent_done[256]; /* last completed requests, for flush-sequence ends */
  guint               n_done;
  IochartSchedNoteTracker notes;
  GHashTable         *ambiguous;     /* processes whose notes said "idle or be 7" */
  GArray             *ambiguous_in;  /* guint8 per process: 1 once it is in ambiguous (the notes
                                      * repeat it thousands of times; cleared on renumbering) */
  guint64             bad_times;     /* events dropped: time out of [0, IOCHART_TIME_MAX_NS) */
  guint64             bad_classes;   /* ioprio fields of class 5-7, read as no field */
  GHashTable         *unowned_tasks; /* pid -> GArray of IochartTaskRec, until the pid has a process */
  /* live use: requests below base were handed on and forgotten; below settled none changes */
  guint32             base;
  guint32             settled;
  /* The bio the last queue event made, not yet on the tables (NONE: none), and its device's
   * number: most are merged or inserted by the very next event, which takes it as it is
   * (take_hot()) instead of finding it again; anything else puts it on them first (flush_hot()). */
  guint32             hot;
  guint32             hot_dev;
};

/* ---- the table ---- */

/* Fibonacci hashing: one multiply, the table's index from the product's top bits, which every
 * bit of the key reaches (nearby sectors spread over the table). */
static inline gsize
slot_hash (const RqMap *m, guint32 dev, guint64 sector, guint32 nr)
{
  guint64 x = sector ^ ((guint64) dev << 32) ^ ((guint64) nr << 48) ^ ((guint64) nr >> 16);

  return (x * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> m->shift;
}

static void map_grow (RqMap *m);
static Slot *map_insert_grown (RqMap *m, guint32 dev, guint64 sector, guint32 nr);

/* Inline: a request's life looks its keys up about twenty times, and the call cost about as
 * much as the search. A slot it adds has no chain yet (used 0): the caller fills one before the
 * table is searched again. The table has slots from the builder's start (map_grow()). */
static inline G_ALWAYS_INLINE Slot *
map_find (RqMap *m, guint32 dev, guint64 sector, guint32 nr, gboolean insert)
{
  for (gsize i = slot_hash (m, dev, sector, nr);; i = (i + 1) & m->mask)
    {
      Slot *s = &m->slots[i];

      if (s->used == 0)
        {
          if (!insert)
            return NULL;
          /* kept at most half full: a miss then walks about two slots */
          if (G_UNLIKELY ((m->live + 1) * 2 > m->mask + 1))
            return map_insert_grown (m, dev, sector, nr);
          s->sector = sector;
          s->dev = dev;
          s->nr = nr;
          s->used = 0;
          m->live++;
          return s;
        }
      if (s->sector == sector && s->dev == dev && s->nr == nr)
        return s;
    }
}

/* A table holds the requests of one state, a queue's worth: it starts small and grows with the
 * queue, so that the five tables stay in the first-level cache (at 1,024 slots each they did not,
 * and a lookup's first probe missed it on most requests). */
#define MAP_MIN_SLOTS 64

static void
map_grow (RqMap *m)
{
  Slot *old = m->slots;
  gsize old_size = old ? m->mask + 1 : 0;
  gsize size = MAX (MAP_MIN_SLOTS, old_size * 2);

  m->slots = g_new (Slot, size);
  for (gsize i = 0; i < size; i++)
    m->slots[i].used = 0;
  m->mask = size - 1;
  m->shift = 64 - g_bit_storage (m->mask);
  m->live = 0;
  for (gsize i = 0; i < old_size; i++)
    if (old[i].used != 0)
      *map_find (m, old[i].dev, old[i].sector, old[i].nr, TRUE) = old[i];
  g_free (old);
}

static G_NO_INLINE Slot *
map_insert_grown (RqMap *m, guint32 dev, guint64 sector, guint32 nr)
{
  map_grow (m);
  return map_find (m, dev, sector, nr, TRUE);
}

/* Every request is deleted again: instead of a tombstone (they piled up and made the table be
 * rebuilt over and over), the entries after s that probed past it move back (linear probing's
 * deletion), so a search still stops at the first empty slot. */
static G_NO_INLINE void
map_delete_shifting (RqMap *m, gsize i)
{
  for (gsize j = (i + 1) & m->mask; m->slots[j].used != 0; j = (j + 1) & m->mask)
    {
      const Slot *t = &m->slots[j];
      gsize home = slot_hash (m, t->dev, t->sector, t->nr);

      /* t may fill the hole at i unless its home lies cyclically in (i, j] */
      if (((j - home) & m->mask) >= ((j - i) & m->mask))
        {
          m->slots[i] = *t;
          i = j;
        }
    }
  m->slots[i].used = 0;
}

static inline void
map_delete (RqMap *m, Slot *s)
{
  gsize i = s - m->slots;

  m->live--;
  if (m->slots[(i + 1) & m->mask].used == 0)
    s->used = 0;   /* nothing probed past it: most deletions */
  else
    map_delete_shifting (m, i);
}

static void
map_clear (RqMap *m)
{
  g_clear_pointer (&m->slots, g_free);
  m->mask = m->live = 0;
}

/* ---- requests ---- */

/* From the rooms' copies of the arrays' data (array_push() and _iochart_builder_reserve() keep
 * them, and nothing else moves the arrays): a request's life asks for its records about thirty
 * times, and the arrays are two loads further away. */
static inline IochartRequestRec *
rec_at (IochartBuilder *b, guint32 rq)
{
  return (IochartRequestRec *) b->requests_room.data + (rq - b->base);
}

static inline Pending *
pending_at (IochartBuilder *b, guint32 rq)
{
  return (Pending *) b->pending_room.data + (rq - b->base);
}

static G_NO_INLINE void
qlists_grow (IochartBuilder *b, guint16 device)
{
  guint old = b->qlists->len;

  g_array_set_size (b->qlists, device + 1);
  for (guint i = old; i <= device; i++)
    g_array_index (b->qlists, QueuedList, i) = (QueuedList) { NONE, NONE, 0 };
}

static inline QueuedList *
qlist_of (IochartBuilder *b, guint32 rq)
{
  guint16 device = rec_at (b, rq)->device;

  if (G_UNLIKELY (device >= b->qlists->len))
    qlists_grow (b, device);
  return &g_array_index (b->qlists, QueuedList, device);
}

static inline G_ALWAYS_INLINE void
qlist_remove (IochartBuilder *b, guint32 rq)
{
  Pending *p = pending_at (b, rq);
  QueuedList *l;

  if (!p->in_qlist)
    return;
  l = qlist_of (b, rq);
  if (p->qprev == NONE)
    l->head = p->qnext;
  else
    pending_at (b, p->qprev)->qnext = p->qnext;
  if (p->qnext == NONE)
    l->tail = p->qprev;
  else
    pending_at (b, p->qnext)->qprev = p->qprev;
  p->in_qlist = FALSE;
  l->len--;
}

/* Puts rq after `after` on its device's list, or at the end when after is NONE. */
static inline G_ALWAYS_INLINE void
qlist_insert (IochartBuilder *b, guint32 rq, guint32 after)
{
  QueuedList *l = qlist_of (b, rq);
  Pending *p = pending_at (b, rq);

  if (after == NONE)
    after = l->tail;
  p->in_qlist = TRUE;
  p->qprev = after;
  p->qnext = after == NONE ? l->head : pending_at (b, after)->qnext;
  if (after == NONE)
    l->head = rq;
  else
    pending_at (b, after)->qnext = rq;
  if (p->qnext == NONE)
    l->tail = rq;
  else
    pending_at (b, p->qnext)->qprev = rq;
  if (++l->len > QLIST_MAX)
    qlist_remove (b, l->head);
}

/* The oldest queued bio of dev whose sectors hold sector. */
static guint32
qlist_find (IochartBuilder *b, guint16 device, guint64 sector)
{
  if (device >= b->qlists->len)
    return NONE;
  for (guint32 rq = g_array_index (b->qlists, QueuedList, device).head; rq != NONE; rq = pending_at (b, rq)->qnext)
    {
      const IochartRequestRec *rec = rec_at (b, rq);

      if (rec->sector <= sector && sector < rec->sector + pending_at (b, rq)->nr)
        return rq;
    }
  return NONE;
}

static inline G_ALWAYS_INLINE void
slot_push (IochartBuilder *b, Slot *s, guint chain, guint32 rq)
{
  pending_at (b, rq)->next = NONE;
  if (s->used & (1u << chain))
    pending_at (b, s->tail[chain])->next = rq;
  else
    {
      s->head[chain] = rq;
      s->used |= 1u << chain;
    }
  s->tail[chain] = rq;
}

static inline G_ALWAYS_INLINE void
chain_push (IochartBuilder *b, RqMap *m, guint chain, guint32 dev, guint64 sector, guint32 nr, guint32 rq)
{
  slot_push (b, map_find (m, dev, sector, nr, TRUE), chain, rq);
}

/* Takes the first request of a chain that is not empty. The slot stays even when it is left
 * with no chain: the caller pushes the request on in it, or lets it go. */
static inline G_ALWAYS_INLINE guint32
slot_pop (IochartBuilder *b, Slot *s, guint chain)
{
  guint32 rq = s->head[chain];

  s->head[chain] = pending_at (b, rq)->next;
  if (s->head[chain] == NONE)
    s->used &= ~(1u << chain);
  return rq;
}

static inline G_ALWAYS_INLINE void
slot_let_go (RqMap *m, Slot *s)
{
  if (s != NULL && s->used == 0)
    map_delete (m, s);
}

static inline G_ALWAYS_INLINE gboolean
slot_has (const Slot *s, guint chain)
{
  return s != NULL && (s->used & (1u << chain));
}

static inline G_ALWAYS_INLINE guint32
chain_pop (IochartBuilder *b, RqMap *m, guint chain, guint32 dev, guint64 sector, guint32 nr)
{
  Slot *s = map_find (m, dev, sector, nr, FALSE);
  guint32 rq;

  if (!slot_has (s, chain))
    return NONE;
  rq = slot_pop (b, s, chain);
  slot_let_go (m, s);
  return rq;
}

/* Removes one given request from its chain (merges re-key requests that are not at the head). */
static void
chain_remove (IochartBuilder *b, RqMap *m, guint chain, guint32 dev, guint64 sector, guint32 nr, guint32 rq)
{
  Slot *s = map_find (m, dev, sector, nr, FALSE);
  guint32 prev = NONE;

  if (!slot_has (s, chain))
    return;
  for (guint32 cur = s->head[chain]; cur != NONE; prev = cur, cur = pending_at (b, cur)->next)
    {
      if (cur != rq)
        continue;
      if (prev == NONE)
        s->head[chain] = pending_at (b, cur)->next;
      else
        pending_at (b, prev)->next = pending_at (b, cur)->next;
      if (s->tail[chain] == rq)
        s->tail[chain] = prev;
      if (s->head[chain] == NONE)
        s->used &= ~(1u << chain);
      slot_let_go (m, s);
      return;
    }
}

static inline G_ALWAYS_INLINE void
single_set (RqMap *m, guint32 dev, guint64 sector, guint32 rq)
{
  Slot *s = map_find (m, dev, sector, 0, TRUE);

  s->head[0] = s->tail[0] = rq;
  s->used = 1;
}

static inline G_ALWAYS_INLINE guint32
single_get (RqMap *m, guint32 dev, guint64 sector)
{
  Slot *s = map_find (m, dev, sector, 0, FALSE);

  return s ? s->head[0] : NONE;
}

/* Flushes issue at sector 0 and complete at all-ones, both with no sectors: one FIFO per device. */
static inline guint64
key_sector (guint64 sector, guint32 nr)
{
  return (nr == 0 && (sector == 0 || sector == G_MAXUINT64)) ? G_MAXUINT64 : sector;
}

/* dev: the request's device's number (the event's, which matched it). */
static inline G_ALWAYS_INLINE void
track_extent (IochartBuilder *b, guint32 rq, guint32 dev)
{
  IochartRequestRec *rec = rec_at (b, rq);
  guint32 nr = pending_at (b, rq)->nr;

  if (nr == 0)
    return;
  single_set (&b->ends, dev, rec->sector + nr, rq);
  single_set (&b->starts, dev, rec->sector, rq);
}

/* Merges only join waiting requests: forget the extent of one that left, so the tables stay
 * the size of the queue, not of the capture. */
static inline G_ALWAYS_INLINE void
untrack_extent (IochartBuilder *b, guint32 rq, guint32 dev)
{
  IochartRequestRec *rec = rec_at (b, rq);
  guint32 nr = pending_at (b, rq)->nr;
  Slot *s;

  if (nr == 0)
    return;
  if ((s = map_find (&b->ends, dev, rec->sector + nr, 0, FALSE)) != NULL && s->head[0] == rq)
    map_delete (&b->ends, s);
  if ((s = map_find (&b->starts, dev, rec->sector, 0, FALSE)) != NULL && s->head[0] == rq)
    map_delete (&b->starts, s);
}

/* Moves rq to state (queued, inserted or in flight) on device number dev. from: the slot of
 * b->states that rq was just taken from under its key, or NULL; the request goes on in it. */
static void
set_state (IochartBuilder *b, guint32 rq, guint8 state, guint32 dev, Slot *from)
{
  IochartRequestRec *rec = rec_at (b, rq);
  Pending *p = pending_at (b, rq);

  if (p->state == ST_QUEUED && state != ST_QUEUED)
    qlist_remove (b, rq);
  else if (p->state != ST_QUEUED && state == ST_QUEUED && !p->in_qlist)
    qlist_insert (b, rq, NONE);
  p->state = state;
  if (from != NULL)
    slot_push (b, from, state, rq);
  else
    chain_push (b, &b->states, state, dev, key_sector (rec->sector, p->nr), p->nr, rq);
  if (state == ST_QUEUED || state == ST_INSERTED)
    track_extent (b, rq, dev);
  else
    untrack_extent (b, rq, dev);
}

static inline IochartProcess *proc_at (IochartBuilder *b, guint32 index);

static void
room_grow (ArrayRoom *r, GArray *a, guint least)
{
  guint len = a->len;

  r->room = MAX (len + 1, MAX (least, len * 2));
  g_array_set_size (a, r->room);   /* GArray keeps its allocation when it shrinks */
  g_array_set_size (a, len);
  r->data = a->data;
}

/* One more element at a's end (not cleared, the array must not be zero-terminated), filled by
 * the caller: g_array_append_val's and g_array_set_size's calls cost a fifth of a request's
 * creation. The allocation is known to hold r->room while it is at r->data (NULL: unknown);
 * grown, it holds at least `least`. */
static inline gpointer
array_push (ArrayRoom *r, GArray *a, gsize elt_size, guint least)
{
  if (G_UNLIKELY (a->data != r->data || a->len >= r->room))
    room_grow (r, a, least);
  return a->data + (gsize) (a->len++) * elt_size;
}

/* ---- btt's per-bio figures ---- */

static void
btt_add (IochartBttStat *st, gint64 v)
{
  if (st->n == 0 || v < st->min_ns)
    st->min_ns = v;
  if (st->n == 0 || v > st->max_ns)
    st->max_ns = v;
  st->sum_ns += v;
  st->n++;
}

static inline IochartBttFigures *
btt_slot (GArray *figures, guint index)
{
  IochartBttFigures *f;

  if (G_UNLIKELY (index >= figures->len))
    g_array_set_size (figures, index + 1);
  f = &g_array_index (figures, IochartBttFigures, index);
  f->index = index;
  return f;
}

static inline G_ALWAYS_INLINE void
btt_sample (IochartBuilder *b, guint16 device, guint32 process, gint64 q2c_ns, gint64 d2c_ns)
{
  IochartBttFigures *f = btt_slot (b->capture->btt_devices, device);

  btt_add (&f->q2c, q2c_ns);
  btt_add (&f->d2c, d2c_ns);
  if (process == IOCHART_NO_PROCESS)
    return;
  f = btt_slot (b->btt_procs, process);
  btt_add (&f->q2c, q2c_ns);
  btt_add (&f->d2c, d2c_ns);
}

/* The bios folded into rq, taken out of the table (most requests have none: no lookup). */
static GArray *
folded_take (IochartBuilder *b, guint32 rq)
{
  GArray *bios = NULL;

  if (!pending_at (b, rq)->folded)
    return NULL;
  pending_at (b, rq)->folded = FALSE;
  if (rq == b->fold_rq)
    b->fold_rq = NONE, b->fold_bios = NULL;
  g_hash_table_steal_extended (b->folded, GUINT_TO_POINTER (rq), NULL, (gpointer *) &bios);
  return bios;
}

static void
folded_drop (IochartBuilder *b, guint32 rq)
{
  GArray *bios = folded_take (b, rq);

  if (bios != NULL)
    g_array_unref (bios);
}

/* Moves the bios of `from` (its own and those folded into it) to `into`, which it joined. */
static void
btt_fold (IochartBuilder *b, guint32 from, guint32 into)
{
  const IochartRequestRec *rec = rec_at (b, from);
  gint64 queue_ns = _iochart_rec_get_time (b->capture, rec, IOCHART_T_QUEUE);
  gboolean own = queue_ns != IOCHART_TIME_UNKNOWN && !pending_at (b, from)->split;
  GArray *src = NULL, *dst;

  src = folded_take (b, from);
  if (!own && src == NULL)
    return;
  dst = into == b->fold_rq ? b->fold_bios
        : pending_at (b, into)->folded ? g_hash_table_lookup (b->folded, GUINT_TO_POINTER (into)) : NULL;
  if (dst == NULL)
    {
      /* room for a run of merges: grown one bio at a time, its reallocations cost more than
       * the appends */
      dst = g_array_sized_new (FALSE, FALSE, sizeof (FoldedBio), 16);
      g_hash_table_insert (b->folded, GUINT_TO_POINTER (into), dst);
      pending_at (b, into)->folded = TRUE;
      b->fold_room = (ArrayRoom) { dst->data, 16 };
    }
  else if (dst != b->fold_bios)
    b->fold_room.data = NULL;
  b->fold_rq = into;
  b->fold_bios = dst;
  if (own)
    *(FoldedBio *) array_push (&b->fold_room, dst, sizeof (FoldedBio), 16) = (FoldedBio) { queue_ns, rec->process };
  if (src != NULL)
    {
      g_array_append_vals (dst, src->data, src->len);
      g_array_unref (src);
    }
}

static void
btt_complete (IochartBuilder *b, guint32 rq)
{
  const IochartRequestRec *rec = rec_at (b, rq);
  gint64 c = _iochart_rec_get_time (b->capture, rec, IOCHART_T_COMPLETE);
  gint64 d = _iochart_rec_get_time (b->capture, rec, IOCHART_T_ISSUE);
  gint64 q = _iochart_rec_get_time (b->capture, rec, IOCHART_T_QUEUE);
  g_autoptr(GArray) folded = NULL;

  folded = folded_take (b, rq);
  if (d == IOCHART_TIME_UNKNOWN)
    return;
  if (q != IOCHART_TIME_UNKNOWN && !pending_at (b, rq)->split)
    btt_sample (b, rec->device, rec->process, c - q, c - d);
  for (guint i = 0; folded != NULL && i < folded->len; i++)
    {
      const FoldedBio *bio = &g_array_index (folded, FoldedBio, i);
      btt_sample (b, rec->device, bio->process, c - bio->queue_ns, c - d);
    }
}

static void
btt_merge (IochartBttStat *dst, const IochartBttStat *src)
{
  if (src->n == 0)
    return;
  if (dst->n == 0 || src->min_ns < dst->min_ns)
    dst->min_ns = src->min_ns;
  if (dst->n == 0 || src->max_ns > dst->max_ns)
    dst->max_ns = src->max_ns;
  dst->n += src->n;
  dst->sum_ns += src->sum_ns;
}

static int
btt_comm_cmp (gconstpointer a, gconstpointer b)
{
  return strcmp (((const IochartBttFigures *) a)->comm, ((const IochartBttFigures *) b)->comm);
}

/* Adds f to the figures of name comm in figures (by_comm: comm -> index there). */
static void
btt_add_named (GArray *figures, GHashTable *by_comm, const char *comm, const IochartBttFigures *f)
{
  gpointer at;
  IochartBttFigures *dst;

  if (!g_hash_table_lookup_extended (by_comm, comm, NULL, &at))
    {
      IochartBttFigures fresh = { G_MAXUINT32, comm, { 0 }, { 0 } };

      g_array_append_val (figures, fresh);
      at = GUINT_TO_POINTER (figures->len - 1);
      g_hash_table_insert (by_comm, (gpointer) comm, at);
    }
  dst = &g_array_index (figures, IochartBttFigures, GPOINTER_TO_UINT (at));
  btt_merge (&dst->q2c, &f->q2c);
  btt_merge (&dst->d2c, &f->d2c);
}

/* Keeps the figures per process name, as btt adds them up, in dst: the capture being built, or
 * a live snapshot (names interned there). */
static void
btt_finish_into (IochartBuilder *b, IochartCapture *dst)
{
  IochartCapture *c = b->capture;
  g_autoptr(GHashTable) by_comm = g_hash_table_new (NULL, NULL);

  if (dst != c)
    {
      g_array_set_size (dst->btt_devices, 0);
      g_array_append_vals (dst->btt_devices, c->btt_devices->data, c->btt_devices->len);
      g_array_set_size (dst->btt_processes, 0);
    }
  g_array_set_size (dst->btt_devices, c->devices->len);
  for (guint i = 0; i < dst->btt_devices->len; i++)
    g_array_index (dst->btt_devices, IochartBttFigures, i).index = i;
  for (guint i = 0; i < b->btt_procs->len; i++)
    {
      const IochartBttFigures *f = &g_array_index (b->btt_procs, IochartBttFigures, i);

      if (f->q2c.n > 0)
        btt_add_named (dst->btt_processes, by_comm,
                       _iochart_capture_intern (dst, proc_at (b, i)->comm ? proc_at (b, i)->comm : "<...>", -1), f);
    }
  for (guint i = 0; i < b->btt_retired->len; i++)
    btt_add_named (dst->btt_processes, by_comm, _iochart_capture_intern (dst, g_array_index (b->btt_retired, IochartBttFigures, i).comm, -1),
                   &g_array_index (b->btt_retired, IochartBttFigures, i));
  g_array_sort (dst->btt_processes, btt_comm_cmp);
}

static void
btt_finish (IochartBuilder *b)
{
  btt_finish_into (b, b->capture);
}

void
_iochart_builder_snapshot_btt (IochartBuilder *b, IochartCapture *dst)
{
  btt_finish_into (b, dst);
}

/* ---- devices and processes ---- */

static guint16
device_index (IochartBuilder *b, guint32 dev)
{
  gpointer v;
  IochartDevice d = { dev, NULL };

  if (b->last_dev != 0 && dev + 1 == b->last_dev)
    return b->last_device;
  v = g_hash_table_lookup (b->dev_to_index, GUINT_TO_POINTER (dev + 1));
  if (v == NULL)
    {
      g_array_append_val (b->capture->devices, d);
      v = GUINT_TO_POINTER (b->capture->devices->len);
      g_hash_table_insert (b->dev_to_index, GUINT_TO_POINTER (dev + 1), v);
    }
  b->last_dev = dev + 1;
  b->last_device = GPOINTER_TO_UINT (v) - 1;
  return b->last_device;
}

static inline IochartProcess *
proc_at (IochartBuilder *b, guint32 index)
{
  return &g_array_index (b->capture->processes, IochartProcess, index);
}

static gboolean
comm_is_useful (const char *comm, gsize len)
{
  return comm != NULL && len > 0 && comm[0] != '\0' && !(len == 5 && memcmp (comm, "<...>", 5) == 0);
}

static G_NO_INLINE void
proc_take_comm (IochartBuilder *b, guint32 index, gint64 ts_ns, const char *comm, gsize len)
{
  IochartProcess *p = proc_at (b, index);
  const char *interned;
  CommEntry c;

  len = strnlen (comm, len);
  if (!comm_is_useful (comm, len))
    return;
  /* most records name the comm the process has: no need to intern it again */
  if (p->comm != NULL && strncmp (p->comm, comm, len) == 0 && p->comm[len] == '\0')
    return;
  interned = _iochart_capture_intern (b->capture, comm, len);
  if (p->comm == interned)
    return;
  p->comm = interned;
  p->n_comms++;
  c.process = index;
  c.ns = ts_ns;
  c.comm = interned;
  g_array_append_val (b->comm_log, c);
}

/* proc_take_comm() is the same for the same bytes while the process's comm stays as it left it
 * (it changes nothing the second time): records repeat their task's name, so the last bytes and
 * what followed from them are kept. */
/* a[0..len) == b[0..len) for len <= 16, as two overlapping loads of fixed size (inlined, where
 * memcmp's call cost more than the comparison) */
static inline gboolean
same_short (const char *a, const char *b, gsize len)
{
  if (len >= 8)
    return memcmp (a, b, 8) == 0 && memcmp (a + len - 8, b + len - 8, 8) == 0;
  if (len >= 4)
    return memcmp (a, b, 4) == 0 && memcmp (a + len - 4, b + len - 4, 4) == 0;
  for (gsize i = 0; i < len; i++)
    if (a[i] != b[i])
      return FALSE;
  return TRUE;
}

static inline G_ALWAYS_INLINE void
proc_set_comm (IochartBuilder *b, guint32 index, gint64 ts_ns, const char *comm, gsize len)
{
  IochartProcess *p = proc_at (b, index);

  gsize given = len;

  if (index == b->comm_proc && len == b->comm_len && p->comm == b->comm_after &&
      same_short (comm, b->comm_bytes, len))
    return;
  proc_take_comm (b, index, ts_ns, comm, len);
  if (given <= sizeof b->comm_bytes)
    {
      b->comm_proc = index;
      b->comm_len = given;
      memcpy (b->comm_bytes, comm, given);
      b->comm_after = p->comm;
    }
}

/* Task states seen before the pid had a process (a process that was running before the capture
 * started shows up at its first I/O) become the new process's. */
static void
adopt_tasks (IochartBuilder *b, gint32 pid, guint32 index)
{
  GArray *early = b->unowned_tasks ? g_hash_table_lookup (b->unowned_tasks, GINT_TO_POINTER (pid)) : NULL;

  if (early == NULL)
    return;
  for (guint i = 0; i < early->len; i++)
    g_array_index (early, IochartTaskRec, i).process = index;
  g_array_append_vals (b->capture->tasks, early->data, early->len);
  g_hash_table_remove (b->unowned_tasks, GINT_TO_POINTER (pid));
}

static guint32
proc_new (IochartBuilder *b, gint32 pid)
{
  IochartProcess p = {
    .pid = pid, .tgid = -1, .ppid = -1, .parent = IOCHART_NO_PROCESS,
    .start_ns = IOCHART_TIME_UNKNOWN, .exit_ns = IOCHART_TIME_UNKNOWN,
    .klass = IOCHART_CLASS_UNKNOWN,
  };
  ClassHint none = { IOCHART_CLASS_UNKNOWN, 0, IOCHART_CLASS_SOURCE_UNKNOWN };

  g_array_append_val (b->capture->processes, p);
  g_array_append_val (b->hints, none);
  g_hash_table_insert (b->pid_to_proc, GINT_TO_POINTER (pid), GUINT_TO_POINTER (b->capture->processes->len));
  b->last_pid = pid;
  b->last_proc = b->capture->processes->len - 1;
  adopt_tasks (b, pid, b->capture->processes->len - 1);
  return b->capture->processes->len - 1;
}

static inline guint32
proc_for (IochartBuilder *b, gint32 pid, gint64 ts_ns, const char *comm, gsize len)
{
  gpointer v;
  guint32 index;

  if (pid < 0)
    return IOCHART_NO_PROCESS;
  if (pid == b->last_pid)
    index = b->last_proc;
  else
    {
      v = g_hash_table_lookup (b->pid_to_proc, GINT_TO_POINTER (pid));
      index = v ? GPOINTER_TO_UINT (v) - 1 : proc_new (b, pid);
      b->last_pid = pid;
      b->last_proc = index;
    }
  if (comm != NULL)
    proc_set_comm (b, index, ts_ns, comm, len);
  return index;
}

static inline void
widen_span (IochartCapture *c, gint64 ts_ns)
{
  if (c->start_ns == IOCHART_TIME_UNKNOWN || ts_ns < c->start_ns)
    c->start_ns = ts_ns;
  if (c->end_ns == IOCHART_TIME_UNKNOWN || ts_ns > c->end_ns)
    c->end_ns = ts_ns;
}

/* FALSE for a time no clock gives: the event is dropped (and counted). */
static inline gboolean
see_time (IochartBuilder *b, gint64 ts_ns)
{
  IochartCapture *c = b->capture;

  if (G_UNLIKELY (ts_ns < 0 || ts_ns >= IOCHART_TIME_MAX_NS))
    {
      b->bad_times++;
      return FALSE;
    }

  widen_span (c, ts_ns);
  c->n_events++;
  return TRUE;
}

/* ---- public builder API ---- */

IochartBuilder *
_iochart_builder_new (const char *name)
{
  IochartBuilder *b = g_new0 (IochartBuilder, 1);

  b->capture = g_object_new (IOCHART_TYPE_CAPTURE, NULL);
  b->capture->name = g_strdup (name);
  b->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  map_grow (&b->states);
  map_grow (&b->ends);
  map_grow (&b->starts);
  b->qlists = g_array_new (FALSE, FALSE, sizeof (QueuedList));
  b->folded = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  b->fold_rq = NONE;
  b->hot = NONE;
  b->btt_procs = g_array_new (FALSE, TRUE, sizeof (IochartBttFigures));
  b->btt_retired = g_array_new (FALSE, TRUE, sizeof (IochartBttFigures));
  b->pid_to_proc = g_hash_table_new (NULL, NULL);
  b->last_pid = -1;
  b->comm_proc = NONE;
  b->hints = g_array_new (FALSE, FALSE, sizeof (ClassHint));
  b->dev_to_index = g_hash_table_new (NULL, NULL);
  b->rules = g_array_new (FALSE, TRUE, sizeof (IochartClassRule));
  b->comm_log = g_array_new (FALSE, FALSE, sizeof (CommEntry));
  b->ambiguous = g_hash_table_new (NULL, NULL);
  b->ambiguous_in = g_array_new (FALSE, TRUE, sizeof (guint8));
  return b;
}

void
_iochart_builder_free (IochartBuilder *b)
{
  if (b == NULL)
    return;
  g_clear_object (&b->capture);
  g_array_unref (b->pending);
  g_array_unref (b->qlists);
  g_hash_table_unref (b->folded);
  g_array_unref (b->btt_procs);
  g_array_unref (b->btt_retired);
  map_clear (&b->states);
  map_clear (&b->ends);
  map_clear (&b->starts);
  g_hash_table_unref (b->pid_to_proc);
  g_array_unref (b->hints);
  g_hash_table_unref (b->dev_to_index);
  for (guint i = 0; i < b->rules->len; i++)
    iochart_class_rule_clear (&g_array_index (b->rules, IochartClassRule, i));
  g_array_unref (b->rules);
  g_array_unref (b->comm_log);
  g_hash_table_unref (b->ambiguous);
  g_array_unref (b->ambiguous_in);
  g_clear_pointer (&b->unowned_tasks, g_hash_table_unref);
  g_free (b);
}

void
_iochart_builder_set_progress (IochartBuilder *b, IochartLoadProgress func, gpointer user_data)
{
  b->progress = func;
  b->progress_data = user_data;
}

void
_iochart_builder_progress (IochartBuilder *b, double fraction)
{
  if (b->progress != NULL)
    b->progress (CLAMP (fraction, 0.0, 1.0), b->progress_data);
}

void
_iochart_builder_warn (IochartBuilder *b, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (b->capture->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* A large reserved array is faulted in 2 MiB at a time, not 4 KiB: the builder took a page
 * fault every 85 requests (1,700 of them for 2M records), on the thread that sets the pace.
 * Only the pages it touches are used, as before. */
static void
advise_huge_pages (GArray *a, gsize bytes)
{
#ifdef MADV_HUGEPAGE
  const guintptr huge = 2u << 20;
  guintptr start = ((guintptr) a->data + huge - 1) & ~(huge - 1);
  guintptr end = ((guintptr) a->data + bytes) & ~(huge - 1);

  if (end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

void
_iochart_builder_reserve (IochartBuilder *b, guint n_requests)
{
  GArray *reqs = b->capture->requests;
  guint len = reqs->len;

  n_requests = MIN (n_requests, 64u << 20);
  if (n_requests <= len)
    return;
  /* GArray keeps its allocation when it shrinks */
  g_array_set_size (reqs, n_requests);
  g_array_set_size (reqs, len);
  advise_huge_pages (reqs, (gsize) n_requests * sizeof (IochartRequestRec));
  b->requests_room = (ArrayRoom) { reqs->data, n_requests };
  len = b->pending->len;
  g_array_set_size (b->pending, n_requests);
  g_array_set_size (b->pending, len);
  advise_huge_pages (b->pending, (gsize) n_requests * sizeof (Pending));
  b->pending_room = (ArrayRoom) { b->pending->data, n_requests };
}

void
_iochart_map_for_reading (const void *data, gsize len)
{
#ifdef MADV_POPULATE_READ
  if (madvise ((void *) data, len, MADV_POPULATE_READ) == 0)
    return;
#endif
  madvise ((void *) data, len, MADV_WILLNEED);
}

void
_iochart_builder_wall_clock (IochartBuilder *b, gint64 offset_ns)
{
  b->capture->wall_offset_ns = offset_ns;
}

void
_iochart_builder_lost_events (IochartBuilder *b, guint64 n)
{
  b->capture->lost_events = MAX (b->capture->lost_events, n);
}

/* ---- task states ---- */

IochartTaskState
_iochart_task_state_from_kernel (guint64 prev_state)
{
  /* TASK_REPORT bits: 0 running (preempted; TASK_REPORT_MAX too), 1 S, 2 D, 4 T, 8 t, 0x10 X,
   * 0x20 Z, 0x40 P, 0x80 I (idle kthreads, not waiting for anything) */
  guint64 bits = prev_state & 0xff;

  if (bits == 0)
    return IOCHART_TASK_RUNNABLE;
  if (bits & 0x02)
    return IOCHART_TASK_UNINTERRUPTIBLE;
  if (bits & 0x30)
    return IOCHART_TASK_DEAD;
  return IOCHART_TASK_SLEEPING;
}

static void
task_change (IochartBuilder *b, gint64 ts_ns, gint32 pid, IochartTaskState state)
{
  gpointer v = g_hash_table_lookup (b->pid_to_proc, GINT_TO_POINTER (pid));
  IochartTaskRec rec = { .process = v ? GPOINTER_TO_UINT (v) - 1 : IOCHART_NO_PROCESS, .state = state };
  GArray *to = b->capture->tasks;

  _iochart_t48_set (b->capture, rec.t, ts_ns);
  if (v == NULL)
    {
      if (b->unowned_tasks == NULL)
        b->unowned_tasks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
      to = g_hash_table_lookup (b->unowned_tasks, GINT_TO_POINTER (pid));
      if (to == NULL)
        {
          to = g_array_new (FALSE, FALSE, sizeof (IochartTaskRec));
          g_hash_table_insert (b->unowned_tasks, GINT_TO_POINTER (pid), to);
        }
    }
  g_array_append_val (to, rec);
}

void
_iochart_builder_sched_switch (IochartBuilder *b, gint64 ts_ns, gint32 prev_pid,
                               IochartTaskState prev_state, gint32 next_pid)
{
  if (!see_time (b, ts_ns))
    return;
  b->capture->has_tasks = TRUE;
  if (prev_pid > 0)
    task_change (b, ts_ns, prev_pid, prev_state);
  if (next_pid > 0)
    task_change (b, ts_ns, next_pid, IOCHART_TASK_RUNNING);
}

void
_iochart_builder_sched_wakeup (IochartBuilder *b, gint64 ts_ns, gint32 pid)
{
  if (!see_time (b, ts_ns))
    return;
  if (pid > 0)
    task_change (b, ts_ns, pid, IOCHART_TASK_RUNNABLE);
}

void
_iochart_builder_add_events (IochartBuilder *b, guint64 n)
{
  b->capture->n_events += n;
}

void
_iochart_builder_quiet_events (IochartBuilder *b, guint64 n, gint64 first_ns, gint64 last_ns)
{
  if (n == 0)
    return;
  widen_span (b->capture, first_ns);
  widen_span (b->capture, last_ns);
  b->capture->n_events += n;
}

void
_iochart_builder_device_name (IochartBuilder *b, guint32 dev, const char *name)
{
  guint16 i = device_index (b, dev);

  g_array_index (b->capture->devices, IochartDevice, i).name = _iochart_capture_intern (b->capture, name, -1);
}

static void
apply_field (IochartBuilder *b, guint32 rq, gint32 ioprio, guint8 rank)
{
  IochartRequestRec *rec = rec_at (b, rq);
  Pending *p = pending_at (b, rq);

  if (ioprio < 0 || rank < p->field_rank)
    return;
  p->field_rank = rank;
  rec->prio = IOCHART_IOPRIO_CLASS (ioprio) | IOCHART_IOPRIO_LEVEL (ioprio) << 3;
  rec->merges_source = (rec->merges_source & 0xfff) | IOCHART_CLASS_SOURCE_IOPRIO_FIELD << 12;
}

static guint32
request_new (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint32 proc = proc_for (b, ev->pid, ev->ts_ns, ev->comm, ev->comm_len);
  ClassHint hint = { IOCHART_CLASS_UNKNOWN, 0, IOCHART_CLASS_SOURCE_UNKNOWN };
  guint16 device = device_index (b, ev->dev);
  IochartRequestRec *rec = array_push (&b->requests_room, b->capture->requests, sizeof *rec, 1024);
  Pending *p = array_push (&b->pending_room, b->pending, sizeof *p, 1024);

  if (proc != IOCHART_NO_PROCESS)
    hint = g_array_index (b->hints, ClassHint, proc);
  *p = (Pending) { .next = NONE, .nr = ev->nr_sector, .state = ST_DEAD };
  *rec = (IochartRequestRec) {
    .sector = ev->sector,
    .bytes = ev->bytes ? ev->bytes : ev->nr_sector * 512u,
    .process = proc,
    .device = device,
    .op_flags = ev->op | ev->flags << 3,
    .prio = hint.klass | hint.level << 3,
    .merges_source = hint.source << 12,
  };
  for (guint i = 0; i < 4; i++)
    _iochart_rec_set_time (b->capture, rec, i, IOCHART_TIME_UNKNOWN);
  return b->base + b->capture->requests->len - 1;
}

static void
bury_request (IochartBuilder *b, guint32 rq)
{
  qlist_remove (b, rq);
  pending_at (b, rq)->state = ST_DEAD;
  rec_at (b, rq)->op_flags = OP_DEAD;
}

/* Queues the hot bio, as its queue event would have. */
static inline G_ALWAYS_INLINE void
flush_hot (IochartBuilder *b)
{
  guint32 rq = b->hot;

  if (rq == NONE)
    return;
  b->hot = NONE;
  set_state (b, rq, ST_QUEUED, b->hot_dev, NULL);
}

/* The hot bio, when the event is about it and pop_queued() would have taken it had it been
 * queued: no other bio of its key waits (the oldest would come first), and one more on its
 * device's list would not have pushed the oldest out. NONE, and nothing done, otherwise. */
static guint32
take_hot (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint32 rq = b->hot;
  const IochartRequestRec *rec;
  guint64 key = key_sector (ev->sector, ev->nr_sector);
  guint32 nr;

  if (rq == NONE || ev->dev != b->hot_dev)
    return NONE;
  rec = rec_at (b, rq);
  nr = pending_at (b, rq)->nr;
  if (ev->nr_sector != nr || key != key_sector (rec->sector, nr) ||
      slot_has (map_find (&b->states, ev->dev, key, nr, FALSE), ST_QUEUED) ||
      (rec->device < b->qlists->len && g_array_index (b->qlists, QueuedList, rec->device).len >= QLIST_MAX))
    return NONE;
  b->hot = NONE;
  return rq;
}

/* What queueing rq and then taking it off would leave of its extent: none at its keys, whatever
 * request held them before. */
static void
clear_extent (IochartBuilder *b, guint32 rq, guint32 dev)
{
  const IochartRequestRec *rec = rec_at (b, rq);
  guint32 nr = pending_at (b, rq)->nr;
  Slot *s;

  if (nr == 0)
    return;
  if ((s = map_find (&b->ends, dev, rec->sector + nr, 0, FALSE)) != NULL)
    map_delete (&b->ends, s);
  if ((s = map_find (&b->starts, dev, rec->sector, 0, FALSE)) != NULL)
    map_delete (&b->starts, s);
}

static void
add_merges (IochartRequestRec *rec, guint n)
{
  guint merges = MIN ((rec->merges_source & 0xfff) + n, 0xfff);

  rec->merges_source = (rec->merges_source & 0xf000) | merges;
}

/* Grows target by nr sectors (and bytes) at its back, or at its front when front is set. */
static void
grow_request (IochartBuilder *b, guint32 target, guint32 dev, guint64 sector, guint32 nr, guint32 bytes,
              gboolean front, guint merges)
{
  IochartRequestRec *rec = rec_at (b, target);
  Pending *p = pending_at (b, target);
  gboolean edge_only = p->nr != 0 && nr != 0 && p->nr + nr != 0;
  Slot *s;

  /* what untrack_extent() and track_extent() would do where neither end moves by zero: the end
   * that moves is taken off and set again, the one that stays is set */
  if (!edge_only)
    untrack_extent (b, target, dev);
  else if (front && (s = map_find (&b->starts, dev, rec->sector, 0, FALSE)) != NULL && s->head[0] == target)
    map_delete (&b->starts, s);
  else if (!front && (s = map_find (&b->ends, dev, rec->sector + p->nr, 0, FALSE)) != NULL && s->head[0] == target)
    map_delete (&b->ends, s);
  chain_remove (b, &b->states, p->state, dev, key_sector (rec->sector, p->nr), p->nr, target);
  if (front)
    rec->sector = sector;
  p->nr += nr;
  rec->bytes += bytes;
  add_merges (rec, merges);
  chain_push (b, &b->states, p->state, dev, key_sector (rec->sector, p->nr), p->nr, target);
  track_extent (b, target, dev);
}

/* The request that the extent (sector, nr) joins: one ending where it starts, or starting where
 * it ends, still waiting (queued or inserted). */
static guint32
merge_target (IochartBuilder *b, guint32 dev, guint64 sector, guint32 nr, gboolean *front)
{
  guint32 t = single_get (&b->ends, dev, sector);

  *front = FALSE;
  if (t != NONE && pending_at (b, t)->state <= ST_INSERTED &&
      rec_at (b, t)->sector + pending_at (b, t)->nr == sector)
    return t;
  t = single_get (&b->starts, dev, sector + nr);
  if (t != NONE && pending_at (b, t)->state <= ST_INSERTED && rec_at (b, t)->sector == sector + nr)
    {
      *front = TRUE;
      return t;
    }
  return NONE;
}

static guint32 pop_queued (IochartBuilder *b, const IochartBlockEvent *ev, Slot **from);

static void
on_merge (IochartBuilder *b, IochartBlockAction action, const IochartBlockEvent *ev)
{
  guint64 key = key_sector (ev->sector, ev->nr_sector);
  guint32 merged, target;
  guint32 bytes = ev->bytes ? ev->bytes : ev->nr_sector * 512u;
  guint extra = 0;
  gboolean front, hot = FALSE;
  Slot *from;

  /* A bio merge follows the bio's own queue event (or takes a piece of a split bio); a request
   * merge names a waiting request. */
  if (action == IOCHART_BLOCK_RQ_MERGE)
    {
      from = map_find (&b->states, ev->dev, key, ev->nr_sector, FALSE);
      merged = slot_has (from, ST_QUEUED) ? slot_pop (b, from, ST_QUEUED)
               : slot_has (from, ST_INSERTED) ? slot_pop (b, from, ST_INSERTED) : NONE;
    }
  else if ((merged = take_hot (b, ev)) != NONE)
    {
      from = NULL;
      hot = TRUE;
    }
  else
    {
      flush_hot (b);
      merged = pop_queued (b, ev, &from);
    }
  slot_let_go (&b->states, from);
  if (merged != NONE)
    {
      bytes = rec_at (b, merged)->bytes;
      extra = rec_at (b, merged)->merges_source & 0xfff;
      if (hot)
        clear_extent (b, merged, ev->dev);
      else
        untrack_extent (b, merged, ev->dev);
      bury_request (b, merged);
    }
  target = merge_target (b, ev->dev, ev->sector, ev->nr_sector, &front);
  if (target == NONE || target == merged)
    {
      b->lost_merges++;
      if (merged != NONE)
        folded_drop (b, merged);
      return;
    }
  if (merged != NONE)
    btt_fold (b, merged, target);
  grow_request (b, target, ev->dev, ev->sector, ev->nr_sector, bytes, front, 1 + extra);
}

/* A new record for the sectors [sector, sector + nr) of rq, with its queue time, owner and class. */
static guint32
clone_piece (IochartBuilder *b, guint32 rq, guint64 sector, guint32 nr)
{
  IochartRequestRec copy = *rec_at (b, rq);
  Pending pend = { .next = NONE, .nr = nr, .state = ST_DEAD, .field_rank = pending_at (b, rq)->field_rank,
                   .split = pending_at (b, rq)->split };

  copy.sector = sector;
  copy.bytes = nr * 512u;
  copy.merges_source &= 0xf000;
  *(IochartRequestRec *) array_push (&b->requests_room, b->capture->requests, sizeof copy, 1024) = copy;
  *(Pending *) array_push (&b->pending_room, b->pending, sizeof pend, 1024) = pend;
  return b->base + b->capture->requests->len - 1;
}

/* Gives a queued bio the sectors [sector, sector + nr) that are left of it. */
static void
rekey_queued (IochartBuilder *b, guint32 rq, guint32 dev, guint64 sector, guint32 nr)
{
  IochartRequestRec *rec = rec_at (b, rq);
  Pending *p = pending_at (b, rq);

  untrack_extent (b, rq, dev);
  chain_remove (b, &b->states, ST_QUEUED, dev, key_sector (rec->sector, p->nr), p->nr, rq);
  rec->sector = sector;
  rec->bytes = nr * 512u;
  p->nr = nr;
  chain_push (b, &b->states, ST_QUEUED, dev, sector, nr, rq);
  track_extent (b, rq, dev);
}

/* Queues a piece right after the bio it came from, so that first in stays first out. */
static void
queue_after (IochartBuilder *b, guint32 rq, guint32 after, guint32 dev)
{
  const IochartRequestRec *rec = rec_at (b, rq);
  Pending *p = pending_at (b, rq);

  p->state = ST_QUEUED;
  chain_push (b, &b->states, ST_QUEUED, dev, rec->sector, p->nr, rq);
  track_extent (b, rq, dev);
  qlist_insert (b, rq, after);
}

/* A bio too big for the device is split after it was queued: the front piece keeps the queue
 * event's request, the rest becomes a request of its own with the same queue time and owner. */
static void
on_split (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint32 rq = single_get (&b->starts, ev->dev, ev->sector), rest;
  guint64 sector;
  guint32 nr;

  if (rq == NONE || ev->nr_sector == 0)
    return;
  sector = rec_at (b, rq)->sector;
  nr = pending_at (b, rq)->nr;
  if (pending_at (b, rq)->state != ST_QUEUED || sector != ev->sector || nr <= ev->nr_sector)
    return;
  rest = clone_piece (b, rq, sector + ev->nr_sector, nr - ev->nr_sector);
  rekey_queued (b, rq, ev->dev, sector, ev->nr_sector);
  queue_after (b, rest, rq, ev->dev);
  pending_at (b, rq)->split = pending_at (b, rest)->split = TRUE;
}

/* Most captures have no split events: a request that no queue event matches exactly takes its
 * sectors from the oldest queued bio that holds its first sector, as the split did, with that
 * bio's queue time and owner; the bio keeps what is left. A piece in the middle leaves two. */
static guint32
take_piece (IochartBuilder *b, guint32 bio, const IochartBlockEvent *ev)
{
  guint64 s = rec_at (b, bio)->sector, e = s + pending_at (b, bio)->nr;
  guint64 a = ev->sector, z = MIN (a + ev->nr_sector, e);
  guint32 piece;

  if (a == s && z == e)
    {
      /* the whole rest of it: the caller moves it on to its next state */
      IochartRequestRec *rec = rec_at (b, bio);
      Pending *p = pending_at (b, bio);

      untrack_extent (b, bio, ev->dev);
      chain_remove (b, &b->states, ST_QUEUED, ev->dev, key_sector (s, p->nr), p->nr, bio);
      p->nr = ev->nr_sector;
      rec->bytes = ev->nr_sector * 512u;
      return bio;
    }
  pending_at (b, bio)->split = TRUE;
  piece = clone_piece (b, bio, a, ev->nr_sector);
  if (a > s && z < e)
    queue_after (b, clone_piece (b, bio, z, e - z), bio, ev->dev);
  if (a == s)
    rekey_queued (b, bio, ev->dev, z, e - z);
  else
    rekey_queued (b, bio, ev->dev, s, a - s);
  return piece;
}

/* The piece of a split bio that an event is about, NONE when there is none. */
static guint32
pop_piece (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint32 bio;
  gpointer v;

  if (ev->nr_sector == 0)
    return NONE;
  v = g_hash_table_lookup (b->dev_to_index, GUINT_TO_POINTER (ev->dev + 1));
  if (v == NULL || (bio = qlist_find (b, GPOINTER_TO_UINT (v) - 1, ev->sector)) == NONE)
    return NONE;
  return take_piece (b, bio, ev);
}

/* The queued bio an event is about: the one with its exact sectors, else the piece of a split
 * bio; NONE when there is neither. *from: the slot of b->states the first was taken from (see
 * slot_pop()), NULL for the others. */
static guint32
pop_queued (IochartBuilder *b, const IochartBlockEvent *ev, Slot **from)
{
  *from = map_find (&b->states, ev->dev, key_sector (ev->sector, ev->nr_sector), ev->nr_sector, FALSE);
  if (slot_has (*from, ST_QUEUED))
    return slot_pop (b, *from, ST_QUEUED);
  *from = NULL;
  return pop_piece (b, ev);
}

static void
on_insert (IochartBuilder *b, const IochartBlockEvent *ev)
{
  Slot *from = NULL;
  guint32 rq = take_hot (b, ev), proc;
  IochartRequestRec *rec;

  if (rq == NONE)
    {
      flush_hot (b);
      rq = pop_queued (b, ev, &from);
    }
  proc = proc_for (b, ev->pid, ev->ts_ns, ev->comm, ev->comm_len);
  if (rq == NONE)
    rq = request_new (b, ev);
  rec = rec_at (b, rq);

  if (rec->process == IOCHART_NO_PROCESS)
    rec->process = proc;
  if (ev->bytes)
    rec->bytes = ev->bytes;
  _iochart_rec_set_time (b->capture, rec, IOCHART_T_INSERT, ev->ts_ns);
  apply_field (b, rq, ev->ioprio, 2);
  set_state (b, rq, ST_INSERTED, ev->dev, from);
}

static void
on_issue (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint64 key = key_sector (ev->sector, ev->nr_sector);
  Slot *from = map_find (&b->states, ev->dev, key, ev->nr_sector, FALSE);
  guint32 proc = proc_for (b, ev->pid, ev->ts_ns, ev->comm, ev->comm_len);
  IochartRequestRec *rec;
  gboolean again = FALSE;
  guint32 rq;

  if (slot_has (from, ST_INSERTED))
    rq = slot_pop (b, from, ST_INSERTED);
  else if (slot_has (from, ST_QUEUED))
    rq = slot_pop (b, from, ST_QUEUED);
  else if (b->seen_admission && ev->nr_sector != 0 && slot_has (from, ST_INFLIGHT))
    {
      /* A request the driver could not take is dispatched again with no new insert or requeue
       * event: the same (device, sector, size) issued while already in flight, with no newer
       * request of that key waiting. Only captures that show admissions can tell this from a
       * second request. */
      rq = from->head[ST_INFLIGHT];
      again = TRUE;
    }
  else
    {
      from = NULL;
      rq = pop_piece (b, ev);
    }
  if (rq == NONE)
    rq = request_new (b, ev);
  rec = rec_at (b, rq);
  /* Issue often runs in a kworker: it names the process only when nothing earlier did. */
  if (rec->process == IOCHART_NO_PROCESS)
    rec->process = proc;
  if (ev->bytes)
    rec->bytes = ev->bytes;
  _iochart_rec_set_time (b->capture, rec, IOCHART_T_ISSUE, ev->ts_ns);
  if ((rec->counts & 15) < 15)
    rec->counts++;
  apply_field (b, rq, ev->ioprio, 3);
  if (!again)
    set_state (b, rq, ST_INFLIGHT, ev->dev, from);
}

static void
on_requeue (IochartBuilder *b, const IochartBlockEvent *ev)
{
  Slot *from = map_find (&b->states, ev->dev, key_sector (ev->sector, ev->nr_sector), ev->nr_sector, FALSE);
  IochartRequestRec *rec;
  guint32 rq;

  b->capture->requeues++;
  if (!slot_has (from, ST_INFLIGHT))
    return;
  rq = slot_pop (b, from, ST_INFLIGHT);
  rec = rec_at (b, rq);
  if ((rec->counts >> 4) < 15)
    rec->counts += 16;
  set_state (b, rq, ST_INSERTED, ev->dev, from);
}

/* A write with preflush or FUA on a device without FUA completes twice: its data, then, after
 * the post-flush, the whole sequence with no sectors. The writer waited until the second. */
static gboolean
end_flush_sequence (IochartBuilder *b, const IochartBlockEvent *ev)
{
  for (guint i = 0; i < MIN (b->n_done, G_N_ELEMENTS (b->recent_done)); i++)
    {
      guint32 rq = b->recent_done[(b->n_done - 1 - i) % G_N_ELEMENTS (b->recent_done)];
      IochartRequestRec *rec;

      if (rq < b->base)
        continue;   /* live use: handed on already */
      rec = rec_at (b, rq);

      if (rec->sector == ev->sector && rec->op_flags != OP_DEAD &&
          g_array_index (b->capture->devices, IochartDevice, rec->device).dev == ev->dev)
        {
          _iochart_rec_set_time (b->capture, rec, IOCHART_T_COMPLETE, ev->ts_ns);
          return TRUE;
        }
    }
  /* An empty preflush ("WS 0 + 0") ran as the flush request that just completed. */
  return ev->sector == 0 || ev->sector == G_MAXUINT64;
}

static void
on_complete (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint64 key = key_sector (ev->sector, ev->nr_sector);
  guint32 rq;
  IochartRequestRec *rec;

  /* A data-less completion that no data-less request in flight waits for ends a flush sequence. */
  if (ev->nr_sector == 0 && ev->op != IOCHART_OP_FLUSH)
    {
      Slot *s = map_find (&b->states, ev->dev, key, 0, FALSE);

      if ((!slot_has (s, ST_INFLIGHT) || (rec_at (b, s->head[ST_INFLIGHT])->op_flags & 7) == IOCHART_OP_FLUSH) &&
          end_flush_sequence (b, ev))
        return;
    }
  rq = chain_pop (b, &b->states, ST_INFLIGHT, ev->dev, key, ev->nr_sector);
  if (rq == NONE)
    {
      b->capture->unmatched_completions++;
      return;
    }
  rec = rec_at (b, rq);
  _iochart_rec_set_time (b->capture, rec, IOCHART_T_COMPLETE, ev->ts_ns);
  rec->error = (guint8) MIN (ABS (ev->error), 255);
  btt_complete (b, rq);
  apply_field (b, rq, ev->ioprio, 1);
  pending_at (b, rq)->state = ST_DONE;
  b->recent_done[b->n_done++ % G_N_ELEMENTS (b->recent_done)] = rq;
}

static void
on_queue (IochartBuilder *b, const IochartBlockEvent *ev)
{
  guint32 rq = request_new (b, ev);

  _iochart_rec_set_time (b->capture, rec_at (b, rq), IOCHART_T_QUEUE, ev->ts_ns);
  b->hot = rq;
  b->hot_dev = ev->dev;
}

void
_iochart_builder_block (IochartBuilder *b, IochartBlockAction action, const IochartBlockEvent *ev)
{
  IochartBlockEvent checked;

  if (!see_time (b, ev->ts_ns))
    return;
  if (G_UNLIKELY (ev->ioprio >= 0 && IOCHART_IOPRIO_CLASS (ev->ioprio) > IOCHART_CLASS_IDLE))
    {
      /* the kernel knows classes 0-3 only: a damaged field tells no class */
      b->bad_classes++;
      checked = *ev;
      checked.ioprio = -1;
      ev = &checked;
    }
  if (_iochart_block_action_names_only (action))
    {
      /* they still name the process that ran them */
      if (ev->comm != NULL)
        proc_for (b, ev->pid, ev->ts_ns, ev->comm, ev->comm_len);
      return;
    }
  /* bio merges and inserts take the hot bio, or queue it, themselves */
  if (action != IOCHART_BLOCK_BACKMERGE && action != IOCHART_BLOCK_FRONTMERGE && action != IOCHART_BLOCK_INSERT)
    flush_hot (b);
  switch (action)
    {
    case IOCHART_BLOCK_QUEUE: b->seen_admission = TRUE; on_queue (b, ev); break;
    case IOCHART_BLOCK_BACKMERGE:
    case IOCHART_BLOCK_FRONTMERGE:
    case IOCHART_BLOCK_RQ_MERGE: on_merge (b, action, ev); break;
    case IOCHART_BLOCK_INSERT: b->seen_admission = TRUE; on_insert (b, ev); break;
    case IOCHART_BLOCK_ISSUE: on_issue (b, ev); break;
    case IOCHART_BLOCK_REQUEUE: on_requeue (b, ev); break;
    case IOCHART_BLOCK_COMPLETE: on_complete (b, ev); break;
    case IOCHART_BLOCK_SPLIT: on_split (b, ev); break;
    default: g_assert_not_reached ();
    }
}

void
_iochart_builder_comm (IochartBuilder *b, gint64 ts_ns, gint32 pid, const char *comm, gsize comm_len)
{
  if (G_UNLIKELY (ts_ns < 0 || ts_ns >= IOCHART_TIME_MAX_NS))
    return;
  proc_for (b, pid, ts_ns, comm, comm_len);
}

void
_iochart_builder_fork (IochartBuilder *b, gint64 ts_ns, gint32 parent_pid, gint32 child_pid,
                       const char *child_comm)
{
  guint32 parent, child;
  ClassHint hint;
  IochartProcess *p;

  if (!see_time (b, ts_ns) || parent_pid < 0 || child_pid < 0)   /* a damaged record */
    return;
  parent = proc_for (b, parent_pid, ts_ns, NULL, 0);
  child = proc_new (b, child_pid);   /* a fork always starts a new process, even on a reused pid */
  p = proc_at (b, child);
  p->ppid = parent_pid;
  p->parent = parent;
  p->start_ns = ts_ns;
  if (child_comm != NULL)
    proc_set_comm (b, child, ts_ns, child_comm, strlen (child_comm));
  hint = g_array_index (b->hints, ClassHint, parent);
  if (hint.source != IOCHART_CLASS_SOURCE_UNKNOWN)
    {
      if (hint.source == IOCHART_CLASS_SOURCE_IOPRIO_SET)
        hint.source = IOCHART_CLASS_SOURCE_INHERITED;
      g_array_index (b->hints, ClassHint, child) = hint;
    }
}

void
_iochart_builder_exec (IochartBuilder *b, gint64 ts_ns, gint32 pid, const char *filename)
{
  g_autofree char *base = g_path_get_basename (filename);

  if (!see_time (b, ts_ns))
    return;
  /* The kernel names a task after the first 15 bytes of its program's base name. */
  proc_for (b, pid, ts_ns, base, MIN (strlen (base), 15));
}

void
_iochart_builder_exit (IochartBuilder *b, gint64 ts_ns, gint32 pid)
{
  guint32 index;

  if (!see_time (b, ts_ns))
    return;
  if ((index = proc_for (b, pid, ts_ns, NULL, 0)) != IOCHART_NO_PROCESS)   /* a damaged pid */
    proc_at (b, index)->exit_ns = ts_ns;
}

void
_iochart_builder_hint_class (IochartBuilder *b, gint64 ts_ns, gint32 pid, IochartClass klass,
                             guint8 level, IochartClassSource source)
{
  guint32 index = proc_for (b, pid, ts_ns, NULL, 0);
  ClassHint hint = { klass, level & 7, source };

  if (index != IOCHART_NO_PROCESS)
    g_array_index (b->hints, ClassHint, index) = hint;
}

void
_iochart_builder_ioprio_set (IochartBuilder *b, gint64 ts_ns, gint32 caller_pid, gint32 which,
                             gint32 who, guint32 ioprio)
{
  IochartClass klass = IOCHART_IOPRIO_CLASS (ioprio);
  guint8 level = IOCHART_IOPRIO_LEVEL (ioprio);

  if (!see_time (b, ts_ns))
    return;
  /* IOPRIO_WHO_PGRP and _USER name groups we cannot enumerate: the caller, or the group's
   * leader, is the best evidence a trace gives. */
  if (who == 0 || which < 1 || which > 3)
    who = caller_pid;
  /* Class none means "from the nice value": best effort, level 4 at nice 0. */
  if (klass == IOCHART_CLASS_NONE)
    {
      klass = IOCHART_CLASS_BE;
      level = 4;
    }
  if (klass > IOCHART_CLASS_IDLE)
    return;
  _iochart_builder_hint_class (b, ts_ns, who, klass, level, IOCHART_CLASS_SOURCE_IOPRIO_SET);
}

static void
add_ambiguous (IochartBuilder *b, guint32 process)
{
  if (process < b->ambiguous_in->len && g_array_index (b->ambiguous_in, guint8, process))
    return;
  if (process >= b->ambiguous_in->len)
    g_array_set_size (b->ambiguous_in, process + 1);
  g_array_index (b->ambiguous_in, guint8, process) = 1;
  g_hash_table_add (b->ambiguous, GUINT_TO_POINTER (process + 1));
}

/* What a parsed note tells about its queue's process. */
static void
apply_sched_note (IochartBuilder *b, gint64 ts_ns, const IochartSchedNote *note)
{
  if (!_iochart_sched_note_is_about_process (note))
    return;
  if (note->ambiguous)
    add_ambiguous (b, proc_for (b, note->pid, ts_ns, NULL, 0));
  else if (note->klass != IOCHART_CLASS_UNKNOWN)
    _iochart_builder_hint_class (b, ts_ns, note->pid, note->klass, note->level,
                                 IOCHART_CLASS_SOURCE_SCHEDULER_NOTE);
}

void
_iochart_builder_message (IochartBuilder *b, gint64 ts_ns, guint32 dev, gint32 pid, const char *text,
                          gsize len)
{
  IochartSchedNote note;

  if (!see_time (b, ts_ns))
    return;
  if (!iochart_sched_note_may_tell_class (&b->notes, dev, pid, text, len) ||
      !iochart_sched_note_track (&b->notes, dev, pid, text, len, &note))
    return;
  apply_sched_note (b, ts_ns, &note);
}

void
_iochart_builder_sched_note (IochartBuilder *b, gint64 ts_ns, const IochartSchedNote *note)
{
  if (see_time (b, ts_ns))
    apply_sched_note (b, ts_ns, note);
}

void
_iochart_builder_add_rule (IochartBuilder *b, const IochartClassRule *rule)
{
  IochartClassRule copy = *rule;

  copy.match = g_strdup (rule->match);
  g_array_append_val (b->rules, copy);
}

/* ---- finishing ---- */

/* Lays the name histories out one process after another: one array for all, not one each.
 * c is the capture being built, or a live snapshot holding a copy of its processes. */
static void
group_comms_into (IochartBuilder *b, IochartCapture *c)
{
  g_autofree guint32 *next = g_new (guint32, c->processes->len + 1);
  guint32 offset = 0;

  for (guint i = 0; i < c->processes->len; i++)
    {
      IochartProcess *p = &g_array_index (c->processes, IochartProcess, i);

      p->first_comm = next[i] = offset;
      offset += p->n_comms;
    }
  g_array_set_size (c->comms, offset);
  for (guint i = 0; i < b->comm_log->len; i++)
    {
      const CommEntry *e = &g_array_index (b->comm_log, CommEntry, i);
      IochartComm *out = &g_array_index (c->comms, IochartComm, next[e->process]++);

      out->ns = e->ns;
      out->comm = c == b->capture ? e->comm : _iochart_capture_intern (c, e->comm, -1);
    }
}

static void
group_comms (IochartBuilder *b)
{
  group_comms_into (b, b->capture);
  g_array_set_size (b->comm_log, 0);
}

gboolean
_iochart_builder_has_rules (IochartBuilder *b)
{
  return b->rules->len > 0;
}

gint32
_iochart_builder_rule_of (IochartBuilder *b, IochartCapture *c, guint process)
{
  for (guint r = 0; r < b->rules->len; r++)
    if (iochart_capture_process_matches (c, process, g_array_index (b->rules, IochartClassRule, r).match))
      return r;
  return -1;
}

void
_iochart_builder_apply_rule (IochartBuilder *b, gint32 rule, IochartRequestRec *rec)
{
  const IochartClassRule *r;
  guint source = rec->merges_source >> 12;

  if (source == IOCHART_CLASS_SOURCE_RULE && rule < 0)
    {
      rec->prio = IOCHART_CLASS_UNKNOWN;
      rec->merges_source &= 0xfff;
      return;
    }
  if (rule < 0 || ((rec->prio & 7) != IOCHART_CLASS_UNKNOWN && source != IOCHART_CLASS_SOURCE_RULE))
    return;
  r = &g_array_index (b->rules, IochartClassRule, rule);
  rec->prio = r->klass | (r->level & 7) << 3;
  rec->merges_source = (rec->merges_source & 0xfff) | IOCHART_CLASS_SOURCE_RULE << 12;
}

static void
apply_rules (IochartBuilder *b)
{
  IochartCapture *c = b->capture;
  g_autofree gint32 *rule_of = NULL;

  if (b->rules->len == 0)
    return;
  rule_of = g_new (gint32, c->processes->len);
  for (guint i = 0; i < c->processes->len; i++)
    rule_of[i] = _iochart_builder_rule_of (b, c, i);
  for (guint i = 0; i < c->requests->len; i++)
    {
      IochartRequestRec *rec = rec_at (b, i);

      if (rec->process != IOCHART_NO_PROCESS)
        _iochart_builder_apply_rule (b, rule_of[rec->process], rec);
    }
}

static void
drop_dead (IochartBuilder *b)
{
  GArray *reqs = b->capture->requests;
  guint out = 0;

  for (guint i = 0; i < reqs->len; i++)
    {
      IochartRequestRec *rec = &g_array_index (reqs, IochartRequestRec, i);
      Pending *p = pending_at (b, i);

      if (rec->op_flags == OP_DEAD)
        continue;
      if (p->state == ST_INFLIGHT)
        b->capture->unmatched_issues++;
      if (out != i)
        g_array_index (reqs, IochartRequestRec, out) = *rec;
      out++;
    }
  g_array_set_size (reqs, out);
}

/* A process without I/O keeps the class it was given; _iochart_capture_retally() decides the rest
 * from the requests. */
static void
classes_from_hints_into (IochartBuilder *b, GArray *processes)
{
  for (guint i = 0; i < processes->len; i++)
    {
      IochartProcess *p = &g_array_index (processes, IochartProcess, i);
      const ClassHint *hint = &g_array_index (b->hints, ClassHint, i);

      p->klass = hint->klass;
      p->level = hint->level;
      p->class_source = hint->source;
    }
}

static void
classes_from_hints (IochartBuilder *b)
{
  classes_from_hints_into (b, b->capture->processes);
}

/* Scheduler notes often come after a request was queued (BFQ names a new queue only once its
 * first request arrives): they still tell that request's class. A class set by ioprio_set does
 * not reach back. */
static void
late_hints (IochartBuilder *b)
{
  for (guint i = 0; i < b->capture->requests->len; i++)
    {
      IochartRequestRec *rec = rec_at (b, i);
      const ClassHint *h;

      if ((rec->prio & 7) != IOCHART_CLASS_UNKNOWN || rec->process == IOCHART_NO_PROCESS)
        continue;
      h = &g_array_index (b->hints, ClassHint, rec->process);
      if (h->source != IOCHART_CLASS_SOURCE_SCHEDULER_NOTE)
        continue;
      rec->prio = h->klass | h->level << 3;
      rec->merges_source = (rec->merges_source & 0xfff) | h->source << 12;
    }
}

static void
keep_ambiguous (IochartBuilder *b)
{
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, b->ambiguous);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint32 index = GPOINTER_TO_UINT (key) - 1;
      g_array_append_val (b->capture->ambiguous, index);
    }
}

IochartCapture *
_iochart_builder_finish (IochartBuilder *b)
{
  IochartCapture *c = b->capture;

  flush_hot (b);
  drop_dead (b);
  btt_finish (b);
  group_comms (b);
  late_hints (b);
  apply_rules (b);
  classes_from_hints (b);
  _iochart_capture_retally (c);
  keep_ambiguous (b);
  _iochart_capture_group_tasks (b->capture);
  g_clear_pointer (&b->unowned_tasks, g_hash_table_unref);
  if (b->bad_times > 0)
    _iochart_builder_warn (b, "'%s': %" G_GUINT64_FORMAT " event%s with a time no clock gives (negative or "
                           "past 2^62 ns) dropped as damaged", c->name, b->bad_times, b->bad_times == 1 ? "" : "s");
  if (b->bad_classes > 0)
    _iochart_builder_warn (b, "'%s': %" G_GUINT64_FORMAT " event%s with an ioprio class of 4-7 (the kernel "
                           "has 0-3): read as giving no class", c->name, b->bad_classes,
                           b->bad_classes == 1 ? "" : "s");
  if (b->lost_merges > 0)
    g_debug ("%" G_GUINT64_FORMAT " merges into requests that began before the capture", b->lost_merges);
  g_ptr_array_add (c->warnings, NULL);
  _iochart_builder_progress (b, 1.0);
  b->capture = NULL;
  return c;
}

/* ---- live use: what a snapshot takes before the capture is finished ---- */

IochartCapture *
_iochart_builder_peek (IochartBuilder *b)
{
  return b->capture;
}

guint32
_iochart_builder_get_base (IochartBuilder *b)
{
  return b->base;
}

guint32
_iochart_builder_get_end (IochartBuilder *b)
{
  return b->base + b->capture->requests->len;
}

const IochartRequestRec *
_iochart_builder_get_request (IochartBuilder *b, guint32 rq, gboolean *in_flight)
{
  const Pending *p;

  flush_hot (b);
  p = pending_at (b, rq);
  *in_flight = p->state == ST_INFLIGHT;
  return rec_at (b, rq)->op_flags == OP_DEAD ? NULL : rec_at (b, rq);
}

static gint64
first_time (IochartBuilder *b, const IochartRequestRec *rec)
{
  for (guint i = IOCHART_T_QUEUE; i <= IOCHART_T_COMPLETE; i++)
    {
      gint64 t = _iochart_rec_get_time (b->capture, rec, i);
      if (t != IOCHART_TIME_UNKNOWN)
        return t;
    }
  return IOCHART_TIME_UNKNOWN;
}

guint32
_iochart_builder_settle (IochartBuilder *b)
{
  guint32 end = _iochart_builder_get_end (b), limit = end;

  flush_hot (b);
  /* the last completions may still take the end of a flush sequence */
  for (guint i = 0; i < MIN (b->n_done, G_N_ELEMENTS (b->recent_done)); i++)
    limit = MIN (limit, MAX (b->recent_done[i], b->base));
  b->settled = MAX (b->settled, b->base);
  while (b->settled < limit && pending_at (b, b->settled)->state >= ST_DONE)
    b->settled++;
  return b->settled;
}

void
_iochart_builder_expire (IochartBuilder *b, gint64 before_ns)
{
  guint32 end = _iochart_builder_get_end (b);
  guint kept = 0;

  flush_hot (b);
  for (guint32 rq = MAX (b->settled, b->base); rq < end; rq++)
    {
      IochartRequestRec *rec = rec_at (b, rq);
      Pending *p = pending_at (b, rq);
      gint64 t = first_time (b, rec);
      guint32 dev;

      if (t == IOCHART_TIME_UNKNOWN || t >= before_ns)
        break;
      if (p->state >= ST_DONE)
        continue;
      dev = g_array_index (b->capture->devices, IochartDevice, rec->device).dev;
      chain_remove (b, &b->states, p->state, dev, key_sector (rec->sector, p->nr), p->nr, rq);
      untrack_extent (b, rq, dev);
      qlist_remove (b, rq);
      folded_drop (b, rq);
      if (p->state == ST_INFLIGHT)
        b->capture->unmatched_issues++;
      p->state = ST_DONE;
    }
  /* completions that old take no flush-sequence end any more */
  for (guint i = 0; i < MIN (b->n_done, G_N_ELEMENTS (b->recent_done)); i++)
    {
      guint32 rq = b->recent_done[(b->n_done - 1 - i) % G_N_ELEMENTS (b->recent_done)];
      gint64 t = rq >= b->base ? _iochart_rec_get_time (b->capture, rec_at (b, rq), IOCHART_T_COMPLETE)
                               : IOCHART_TIME_UNKNOWN;
      if (t == IOCHART_TIME_UNKNOWN || t < before_ns)
        break;
      kept++;
    }
  if (kept < MIN (b->n_done, G_N_ELEMENTS (b->recent_done)))
    {
      guint32 ring[G_N_ELEMENTS (b->recent_done)];

      for (guint i = 0; i < kept; i++)
        ring[kept - 1 - i] = b->recent_done[(b->n_done - 1 - i) % G_N_ELEMENTS (b->recent_done)];
      memcpy (b->recent_done, ring, kept * sizeof (guint32));
      b->n_done = kept;
    }
}

void
_iochart_builder_forget (IochartBuilder *b, guint32 upto)
{
  upto = MIN (upto, b->settled);
  if (upto <= b->base)
    return;
  g_array_remove_range (b->capture->requests, 0, upto - b->base);
  g_array_remove_range (b->pending, 0, upto - b->base);
  b->base = upto;
}

void
_iochart_builder_processes_in_use (IochartBuilder *b, gboolean *in_use)
{
  GHashTableIter iter;
  gpointer value;

  for (guint32 rq = b->base; rq < _iochart_builder_get_end (b); rq++)
    if (rec_at (b, rq)->process != IOCHART_NO_PROCESS)
      in_use[rec_at (b, rq)->process] = TRUE;
  g_hash_table_iter_init (&iter, b->folded);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    for (guint i = 0; i < ((GArray *) value)->len; i++)
      {
        const FoldedBio *bio = &g_array_index ((GArray *) value, FoldedBio, i);
        if (bio->process != IOCHART_NO_PROCESS)
          in_use[bio->process] = TRUE;
      }
}

void
_iochart_builder_drop_processes (IochartBuilder *b, const guint32 *remap)
{
  IochartCapture *c = b->capture;
  guint n = c->processes->len, kept = 0;
  g_autoptr(GHashTable) by_comm = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) ambiguous = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint out;

  for (guint i = 0; i < b->btt_retired->len; i++)
    g_hash_table_insert (by_comm, (gpointer) g_array_index (b->btt_retired, IochartBttFigures, i).comm,
                         GUINT_TO_POINTER (i));
  /* btt's figures of a dropped process stay, under its name */
  for (guint i = 0; i < n && i < b->btt_procs->len; i++)
    if (remap[i] == IOCHART_NO_PROCESS && g_array_index (b->btt_procs, IochartBttFigures, i).q2c.n > 0)
      btt_add_named (b->btt_retired, by_comm, _iochart_capture_intern (c, proc_at (b, i)->comm ? proc_at (b, i)->comm : "<...>", -1),
                     &g_array_index (b->btt_procs, IochartBttFigures, i));
  for (guint i = 0; i < n; i++)
    {
      IochartProcess p;

      if (remap[i] == IOCHART_NO_PROCESS)
        continue;
      g_assert (remap[i] == kept);
      p = *proc_at (b, i);
      p.parent = p.parent == IOCHART_NO_PROCESS ? IOCHART_NO_PROCESS : remap[p.parent];
      *proc_at (b, kept) = p;
      g_array_index (b->hints, ClassHint, kept) = g_array_index (b->hints, ClassHint, i);
      if (kept < b->btt_procs->len)   /* it grows as processes need it: i may be past it */
        {
          static const IochartBttFigures none;
          g_array_index (b->btt_procs, IochartBttFigures, kept) =
            i < b->btt_procs->len ? g_array_index (b->btt_procs, IochartBttFigures, i) : none;
        }
      kept++;
    }
  g_array_set_size (c->processes, kept);
  g_array_set_size (b->hints, kept);
  g_array_set_size (b->btt_procs, MIN (b->btt_procs->len, kept));
  for (guint i = 0; i < b->btt_procs->len; i++)
    g_array_index (b->btt_procs, IochartBttFigures, i).index = i;
  out = 0;
  for (guint i = 0; i < b->comm_log->len; i++)
    {
      CommEntry e = g_array_index (b->comm_log, CommEntry, i);

      if ((e.process = remap[e.process]) != IOCHART_NO_PROCESS)
        g_array_index (b->comm_log, CommEntry, out++) = e;
    }
  g_array_set_size (b->comm_log, out);
  g_hash_table_iter_init (&iter, b->pid_to_proc);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (remap[GPOINTER_TO_UINT (value) - 1] == IOCHART_NO_PROCESS)
      g_hash_table_iter_remove (&iter);
    else
      g_hash_table_iter_replace (&iter, GUINT_TO_POINTER (remap[GPOINTER_TO_UINT (value) - 1] + 1));
  b->last_pid = -1;
  b->comm_proc = NONE;
  g_hash_table_iter_init (&iter, b->ambiguous);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (remap[GPOINTER_TO_UINT (key) - 1] != IOCHART_NO_PROCESS)
      g_hash_table_add (ambiguous, GUINT_TO_POINTER (remap[GPOINTER_TO_UINT (key) - 1] + 1));
  g_hash_table_remove_all (b->ambiguous);
  g_array_set_size (b->ambiguous_in, 0);
  g_hash_table_iter_init (&iter, ambiguous);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (b->ambiguous, key);
  for (guint32 rq = b->base; rq < _iochart_builder_get_end (b); rq++)
    if (rec_at (b, rq)->process != IOCHART_NO_PROCESS)
      rec_at (b, rq)->process = remap[rec_at (b, rq)->process];
  g_hash_table_iter_init (&iter, b->folded);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    for (guint i = 0; i < ((GArray *) value)->len; i++)
      {
        FoldedBio *bio = &g_array_index ((GArray *) value, FoldedBio, i);
        if (bio->process != IOCHART_NO_PROCESS)
          bio->process = remap[bio->process];
      }
  out = 0;
  for (guint i = 0; i < c->tasks->len; i++)
    {
      IochartTaskRec t = g_array_index (c->tasks, IochartTaskRec, i);

      if ((t.process = remap[t.process]) != IOCHART_NO_PROCESS)
        g_array_index (c->tasks, IochartTaskRec, out++) = t;
    }
  g_array_set_size (c->tasks, out);
}

void
_iochart_builder_snapshot_names (IochartBuilder *b, IochartCapture *dst)
{
  classes_from_hints_into (b, dst->processes);
  group_comms_into (b, dst);
}
