/* iochart-lane-index.c: running totals per process and class, outstanding runs, issue times */
#include <stdlib.h>
#include <string.h>
#include "iochart-lane-index-private.h"

#define NC IOCHART_N_CLASSES

/* One process's requests of one class: entries [first, first + n) of both sides. */
typedef struct {
  guint32 process;
  guint32 klass;
  guint   first;
  guint   n;
  gint64  min_a, max_b;
} Stream;

/* Entries of every stream, each stream's ascending by t: by start (ext: the greatest end up to
 * here) or by end (ext: the least start from here on). Running totals include the entry. */
typedef struct {
  gint64  *t;
  gint64  *ext;
  guint64 *bytes;
  guint32 *issues;
} Side;

/* A grouping's time with I/O outstanding, per group: the union of its requests' spans as
 * disjoint runs by time, with running lengths. */
typedef struct {
  IochartGroupBy used;
  guint32       *group_of;          /* per process (+1: none) */
  guint          n_groups;
  guint         *at;                /* n_groups + 1: each group's runs */
  gint64        *start, *end, *cum;
} GroupRuns;

/* Issued requests of one class and op by issue time, with running totals. */
typedef struct {
  guint    first, n;
} Bucket;

struct _IochartLaneIndex {
  int        device;
  guint      n_processes, n_capture_requests;
  guint      n;                     /* entries: requests with a life */
  Stream    *streams;
  guint      n_streams;
  Side       by_start, by_end;
  /* legend counts */
  Bucket     buckets[NC][IOCHART_N_OPS];
  gint64    *issue_ns;
  guint64   *issue_bytes;
  guint32   *issue_issues;
  guint32   *issue_count;
  guint      n_issued;
  guint64    never_issued;
  /* outstanding runs, filed by the set of groups outstanding in them */
  IochartGroupBy asked, used;
  guint      n_groups;
  guint      n_keys;
  guint     *key_at;                /* n_keys + 1: each key's members in key_groups */
  guint32   *key_groups;
  guint     *run_at;                /* n_keys + 1: each key's runs */
  gint64    *run_start, *run_end, *run_cum;
  guint      n_runs;
  guint32   *group_of;              /* the default grouping's, per process (+1: none) */
  /* another grouping's runs, built when first asked (one kept): each group's own union */
  GMutex     lock;
  GroupRuns *other;
};

static gboolean
known (gint64 ts)
{
  return ts != IOCHART_TIME_UNKNOWN;
}

/* ---- building ---- */

typedef struct {
  gint64  a, b;
  guint64 bytes;
  guint32 issues;
  guint32 group;
} Life;

static int
life_a_cmp (const void *x, const void *y)
{
  const Life *p = x, *q = y;
  return (p->a > q->a) - (p->a < q->a);
}

static int
life_b_cmp (const void *x, const void *y)
{
  const Life *p = x, *q = y;
  return (p->b > q->b) - (p->b < q->b);
}

/* Requests are stored about in time order: a sort only where a chunk is not already sorted. */
static void
sort_chunk (Life *v, guint n, gboolean by_b)
{
  for (guint i = 1; i < n; i++)
    if (by_b ? v[i].b < v[i - 1].b : v[i].a < v[i - 1].a)
      {
        qsort (v, n, sizeof *v, by_b ? life_b_cmp : life_a_cmp);
        return;
      }
}

static void
side_alloc (Side *s, guint n)
{
  s->t = g_new (gint64, MAX (n, 1));
  s->ext = g_new (gint64, MAX (n, 1));
  s->bytes = g_new (guint64, MAX (n, 1));
  s->issues = g_new (guint32, MAX (n, 1));
}

static void
side_free (Side *s)
{
  g_free (s->t);
  g_free (s->ext);
  g_free (s->bytes);
  g_free (s->issues);
}

static void
fill_stream (IochartLaneIndex *self, Stream *st, Life *lives)
{
  Life *v = lives + st->first;
  guint64 bytes = 0;
  guint32 issues = 0;
  gint64 ext = G_MININT64;

  sort_chunk (v, st->n, FALSE);
  for (guint i = 0; i < st->n; i++)
    {
      guint j = st->first + i;

      ext = MAX (ext, v[i].b);
      bytes += v[i].bytes;
      issues += v[i].issues;
      self->by_start.t[j] = v[i].a;
      self->by_start.ext[j] = ext;
      self->by_start.bytes[j] = bytes;
      self->by_start.issues[j] = issues;
    }
  st->min_a = v[0].a;
  st->max_b = ext;
  sort_chunk (v, st->n, TRUE);
  bytes = 0;
  issues = 0;
  for (guint i = 0; i < st->n; i++)
    {
      guint j = st->first + i;

      bytes += v[i].bytes;
      issues += v[i].issues;
      self->by_end.t[j] = v[i].b;
      self->by_end.bytes[j] = bytes;
      self->by_end.issues[j] = issues;
    }
  ext = G_MAXINT64;
  for (guint i = st->n; i-- > 0;)
    {
      ext = MIN (ext, v[i].a);
      self->by_end.ext[st->first + i] = ext;
    }
}

typedef struct {
  gint64  t;
  guint64 bytes;
  guint32 issues;
} Issue;

static int
issue_cmp (const void *x, const void *y)
{
  const Issue *p = x, *q = y;
  return (p->t > q->t) - (p->t < q->t);
}

static void
fill_bucket (IochartLaneIndex *self, const Bucket *bk, Issue *v)
{
  guint64 bytes = 0;
  guint32 issues = 0;

  for (guint i = 1; i < bk->n; i++)
    if (v[i].t < v[i - 1].t)
      {
        qsort (v, bk->n, sizeof *v, issue_cmp);
        break;
      }
  for (guint i = 0; i < bk->n; i++)
    {
      guint j = bk->first + i;

      bytes += v[i].bytes;
      issues += v[i].issues;
      self->issue_ns[j] = v[i].t;
      self->issue_bytes[j] = bytes;
      self->issue_issues[j] = issues;
      self->issue_count[j] = i + 1;
    }
}

/* ---- outstanding runs ---- */

typedef struct {
  const guint32 *groups;
  guint          n;
} Key;

static guint
key_hash (gconstpointer p)
{
  const Key *k = p;
  guint h = 5381;

  for (guint i = 0; i < k->n; i++)
    h = h * 33 + k->groups[i];
  return h;
}

static gboolean
key_equal (gconstpointer p, gconstpointer q)
{
  const Key *x = p, *y = q;
  return x->n == y->n && memcmp (x->groups, y->groups, x->n * sizeof (guint32)) == 0;
}

typedef struct {
  gint64  t;
  guint32 group;
  guint32 start;
} Edge;

static int
edge_cmp (const void *x, const void *y)
{
  const Edge *p = x, *q = y;
  return (p->t > q->t) - (p->t < q->t);
}

typedef struct {
  gint64  start, end;
  guint32 key;
} Run;

typedef void (*UnionFunc) (guint32 group, gint64 a, gint64 b, gpointer data);

/* Calls func with each group's union of its lives' spans, a disjoint run at a time, by group
 * and then time (lives: sorted by group here). */
static void
each_union (Life *lives, guint n, guint n_groups, UnionFunc func, gpointer data)
{
  g_autofree guint *at = g_new0 (guint, n_groups + 1);
  g_autofree Life *by_group = g_new (Life, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    at[lives[i].group + 1]++;
  for (guint g = 0; g < n_groups; g++)
    at[g + 1] += at[g];
  for (guint i = 0; i < n; i++)
    by_group[at[lives[i].group]++] = lives[i];
  for (guint g = 0, from = 0; g < n_groups; from = at[g++])
    {
      Life *v = by_group + from;
      guint m = at[g] - from;
      gint64 a = 0, b = 0;
      gboolean open = FALSE;

      sort_chunk (v, m, FALSE);
      for (guint i = 0; i <= m; i++)
        {
          if (i < m && open && v[i].a <= b)
            {
              b = MAX (b, v[i].b);
              continue;
            }
          if (open)
            func (g, a, b, data);
          if (i < m)
            {
              a = v[i].a;
              b = v[i].b;
              open = TRUE;
            }
        }
    }
}

static void
add_edges (guint32 group, gint64 a, gint64 b, gpointer data)
{
  GArray *edges = data;

  g_array_append_val (edges, ((Edge) { a, group, 1 }));
  g_array_append_val (edges, ((Edge) { b, group, 0 }));
}

/* Each group's union of its requests' spans, then a sweep over the unions' edges: a run
 * wherever the set of groups outstanding stays the same. */
static GArray *
group_edges (Life *lives, guint n, guint n_groups)
{
  GArray *edges = g_array_new (FALSE, FALSE, sizeof (Edge));

  each_union (lives, n, n_groups, add_edges, edges);
  /* an empty array's data is NULL, which qsort must not be given */
  if (edges->len > 1)
    qsort (edges->data, edges->len, sizeof (Edge), edge_cmp);
  return edges;
}

/* Instants and backward spans add no outstanding time: keeps the rest, returns how many. */
static guint
keep_spans (Life *lives, guint n)
{
  guint kept = 0;

  for (guint i = 0; i < n; i++)
    if (lives[i].b > lives[i].a)
      lives[kept++] = lives[i];
  return kept;
}

static void
build_runs (IochartLaneIndex *self, Life *lives, guint n)
{
  g_autoptr(GArray) edges = NULL;
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  g_autoptr(GArray) active = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) key_at = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GHashTable) keys = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  guint kept = keep_spans (lives, n);

  edges = group_edges (lives, kept, self->n_groups);
  g_array_append_val (key_at, (guint) { 0 });
  for (guint i = 0; i < edges->len;)
    {
      gint64 t = g_array_index (edges, Edge, i).t;

      for (; i < edges->len && g_array_index (edges, Edge, i).t == t; i++)
        {
          const Edge *e = &g_array_index (edges, Edge, i);
          guint lo = 0, hi = active->len;

          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;
              if (g_array_index (active, guint32, mid) < e->group) lo = mid + 1; else hi = mid;
            }
          if (e->start)
            g_array_insert_val (active, lo, e->group);
          else
            g_array_remove_index (active, lo);
        }
      if (runs->len > 0 && g_array_index (runs, Run, runs->len - 1).end == G_MAXINT64)
        g_array_index (runs, Run, runs->len - 1).end = t;
      if (active->len > 0)
        {
          Key probe = { (const guint32 *) active->data, active->len };
          gpointer id;

          if (!g_hash_table_lookup_extended (keys, &probe, NULL, &id))
            {
              Key *k = g_new (Key, 1);

              id = GUINT_TO_POINTER (g_hash_table_size (keys));
              k->n = active->len;
              k->groups = g_memdup2 (active->data, active->len * sizeof (guint32));
              g_array_append_vals (members, active->data, active->len);
              g_hash_table_insert (keys, k, id);
              g_array_append_val (key_at, members->len);
            }
          g_array_append_val (runs, ((Run) { t, G_MAXINT64, GPOINTER_TO_UINT (id) }));
        }
    }
  {
    GHashTableIter iter;
    gpointer k;

    /* the keys' copies go with the table: free them beside it */
    g_hash_table_iter_init (&iter, keys);
    while (g_hash_table_iter_next (&iter, &k, NULL))
      g_free ((gpointer) ((Key *) k)->groups);
  }

  self->n_keys = key_at->len - 1;
  self->key_at = g_memdup2 (key_at->data, key_at->len * sizeof (guint));
  self->key_groups = g_memdup2 (members->data, MAX (members->len, 1) * sizeof (guint32));
  self->n_runs = runs->len;
  self->run_at = g_new0 (guint, self->n_keys + 1);
  self->run_start = g_new (gint64, MAX (runs->len, 1));
  self->run_end = g_new (gint64, MAX (runs->len, 1));
  self->run_cum = g_new (gint64, MAX (runs->len, 1));
  for (guint i = 0; i < runs->len; i++)
    self->run_at[g_array_index (runs, Run, i).key + 1]++;
  for (guint k = 0; k < self->n_keys; k++)
    self->run_at[k + 1] += self->run_at[k];
  {
    g_autofree guint *put = g_memdup2 (self->run_at, (self->n_keys + 1) * sizeof (guint));

    for (guint i = 0; i < runs->len; i++)
      {
        const Run *r = &g_array_index (runs, Run, i);
        guint j = put[r->key]++;

        self->run_start[j] = r->start;
        self->run_end[j] = r->end;
        self->run_cum[j] = (j > self->run_at[r->key] ? self->run_cum[j - 1] : 0) + (r->end - r->start);
      }
  }
}

static void
group_runs_free (GroupRuns *gr)
{
  if (gr == NULL)
    return;
  g_free (gr->group_of);
  g_free (gr->at);
  g_free (gr->start);
  g_free (gr->end);
  g_free (gr->cum);
  g_free (gr);
}

typedef struct {
  GArray  *start, *end, *cum;
  guint   *at;
  guint32  group;          /* the group being added, and its first run */
  guint    first;
} RunsFill;

static void
add_group_run (guint32 group, gint64 a, gint64 b, gpointer data)
{
  RunsFill *f = data;
  guint n = f->start->len;
  gint64 cum;

  if (n == 0 || group != f->group)
    {
      f->group = group;
      f->first = n;
    }
  cum = (n > f->first ? g_array_index (f->cum, gint64, n - 1) : 0) + (b - a);
  g_array_append_val (f->start, a);
  g_array_append_val (f->end, b);
  g_array_append_val (f->cum, cum);
  f->at[group + 1] = n + 1;
}

/* A grouping's runs: one pass over the device's requests, each group's union of their spans. */
static GroupRuns *
group_runs_new (IochartCapture *capture, int device, IochartGroupBy used, const guint32 *group_of,
                guint n_groups)
{
  GroupRuns *gr = g_new0 (GroupRuns, 1);
  guint n_rq = iochart_capture_get_n_requests (capture), n_proc = iochart_capture_get_n_processes (capture);
  g_autoptr(GArray) lives = g_array_new (FALSE, FALSE, sizeof (Life));
  RunsFill f = { g_array_new (FALSE, FALSE, sizeof (gint64)), g_array_new (FALSE, FALSE, sizeof (gint64)),
                 g_array_new (FALSE, FALSE, sizeof (gint64)), NULL, 0, 0 };

  gr->used = used;
  gr->group_of = g_memdup2 (group_of, (n_proc + 1) * sizeof (guint32));
  gr->n_groups = n_groups;
  gr->at = f.at = g_new0 (guint, n_groups + 1);
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;
      Life l = { 0 };

      iochart_capture_get_request (capture, i, &rq);
      if (rq.device != device || !_iochart_lanes_request_span (&rq, &l.a, &l.b))
        continue;
      l.group = used == IOCHART_GROUP_CLASS ? MIN (rq.klass, NC - 1) : group_of[MIN (rq.process, n_proc)];
      g_array_append_val (lives, l);
    }
  each_union ((Life *) lives->data, keep_spans ((Life *) lives->data, lives->len), n_groups, add_group_run, &f);
  /* groups with no run start where the one before them ended */
  for (guint g = 0; g < n_groups; g++)
    gr->at[g + 1] = MAX (gr->at[g + 1], gr->at[g]);
  gr->start = (gint64 *) g_array_free (f.start, FALSE);
  gr->end = (gint64 *) g_array_free (f.end, FALSE);
  gr->cum = (gint64 *) g_array_free (f.cum, FALSE);
  return gr;
}

IochartLaneIndex *
iochart_lane_index_new (IochartCapture *capture, int device)
{
  IochartLaneIndex *self = g_new0 (IochartLaneIndex, 1);
  guint n_rq = iochart_capture_get_n_requests (capture);
  guint n_proc = iochart_capture_get_n_processes (capture);
  g_autofree guint *slot = g_new0 (guint, (gsize) (n_proc + 1) * NC + 1);
  guint32 *group_of;
  g_autofree Life *lives = NULL;
  g_autofree Issue *issues = NULL;
  guint n_bucket[NC][IOCHART_N_OPS] = { { 0 } };

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  self->device = device;
  self->n_processes = n_proc;
  self->n_capture_requests = n_rq;
  self->asked = IOCHART_GROUP_TREE;
  g_mutex_init (&self->lock);
  self->group_of = group_of = _iochart_lanes_group_of (capture, self->asked, &self->used, &self->n_groups);

  /* first pass: how many requests each stream and bucket holds */
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;
      gint64 a, b;
      guint p, k;

      iochart_capture_get_request (capture, i, &rq);
      if (rq.device != device)
        continue;
      k = MIN (rq.klass, NC - 1);
      if (rq.issues == 0)
        self->never_issued++;
      else
        {
          n_bucket[k][MIN (rq.op, IOCHART_N_OPS - 1)]++;
          self->n_issued++;
        }
      if (!_iochart_lanes_request_span (&rq, &a, &b))
        continue;
      p = MIN (rq.process, n_proc);
      slot[p * NC + k + 1]++;
      self->n++;
    }
  for (guint s = 0; s < (n_proc + 1) * NC; s++)
    self->n_streams += slot[s + 1] > 0;
  self->streams = g_new0 (Stream, MAX (self->n_streams, 1));
  for (guint s = 0, j = 0; s < (n_proc + 1) * NC; s++)
    {
      if (slot[s + 1] > 0)
        self->streams[j++] = (Stream) { s / NC, s % NC, slot[s], slot[s + 1], 0, 0 };
      slot[s + 1] += slot[s];
    }
  for (guint k = 0, at = 0; k < NC; k++)
    for (guint o = 0; o < IOCHART_N_OPS; o++)
      {
        self->buckets[k][o] = (Bucket) { at, n_bucket[k][o] };
        at += n_bucket[k][o];
        n_bucket[k][o] = self->buckets[k][o].first;
      }

  /* second pass: the lives in stream order, the issues in bucket order */
  lives = g_new (Life, MAX (self->n, 1));
  issues = g_new (Issue, MAX (self->n_issued, 1));
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;
      gint64 a, b;
      guint p, k;
      guint64 bytes;

      iochart_capture_get_request (capture, i, &rq);
      if (rq.device != device)
        continue;
      k = MIN (rq.klass, NC - 1);
      bytes = (guint64) rq.issues * rq.bytes;
      if (rq.issues > 0)
        issues[n_bucket[k][MIN (rq.op, IOCHART_N_OPS - 1)]++] = (Issue) { rq.issue_ns, bytes, rq.issues };
      if (!_iochart_lanes_request_span (&rq, &a, &b))
        continue;
      p = MIN (rq.process, n_proc);
      lives[slot[p * NC + k]++] = (Life) { a, b, bytes, rq.issues,
                                           self->used == IOCHART_GROUP_CLASS ? k : group_of[p] };
    }

  side_alloc (&self->by_start, self->n);
  side_alloc (&self->by_end, self->n);
  for (guint s = 0; s < self->n_streams; s++)
    fill_stream (self, &self->streams[s], lives);

  self->issue_ns = g_new (gint64, MAX (self->n_issued, 1));
  self->issue_bytes = g_new (guint64, MAX (self->n_issued, 1));
  self->issue_issues = g_new (guint32, MAX (self->n_issued, 1));
  self->issue_count = g_new (guint32, MAX (self->n_issued, 1));
  for (guint k = 0; k < NC; k++)
    for (guint o = 0; o < IOCHART_N_OPS; o++)
      fill_bucket (self, &self->buckets[k][o], issues + self->buckets[k][o].first);

  build_runs (self, lives, self->n);
  return self;
}

void
iochart_lane_index_free (IochartLaneIndex *index)
{
  if (index == NULL)
    return;
  g_free (index->streams);
  side_free (&index->by_start);
  side_free (&index->by_end);
  g_free (index->issue_ns);
  g_free (index->issue_bytes);
  g_free (index->issue_issues);
  g_free (index->issue_count);
  g_free (index->key_at);
  g_free (index->key_groups);
  g_free (index->run_at);
  g_free (index->run_start);
  g_free (index->run_end);
  g_free (index->run_cum);
  g_free (index->group_of);
  group_runs_free (index->other);
  g_mutex_clear (&index->lock);
  g_free (index);
}

int
iochart_lane_index_get_device (const IochartLaneIndex *index)
{
  return index->device;
}

guint
iochart_lane_index_get_n_requests (const IochartLaneIndex *index)
{
  return index->n;
}

gsize
iochart_lane_index_get_size (const IochartLaneIndex *index)
{
  return sizeof *index + index->n_streams * sizeof (Stream) +
         2 * (gsize) index->n * (2 * sizeof (gint64) + sizeof (guint64) + sizeof (guint32)) +
         (gsize) index->n_issued * (sizeof (gint64) + sizeof (guint64) + 2 * sizeof (guint32)) +
         (index->n_keys + 1) * 2 * sizeof (guint) + index->key_at[index->n_keys] * sizeof (guint32) +
         (gsize) index->n_runs * 3 * sizeof (gint64);
}

gboolean
iochart_lane_index_covers (const IochartLaneIndex *index, IochartCapture *capture)
{
  return iochart_capture_get_n_requests (capture) == index->n_capture_requests &&
         iochart_capture_get_n_processes (capture) == index->n_processes;
}

/* ---- asking ---- */

gboolean
iochart_lane_index_serves (const IochartLaneIndex *index, IochartCapture *capture, const IochartLanesOptions *options)
{
  return index != NULL && options->device >= 0 && index->device == options->device &&
         iochart_lane_index_covers (index, capture);
}

/* First position of [lo, hi) whose t is > x (after: TRUE) or >= x. */
static guint
search (const gint64 *t, guint lo, guint hi, gint64 x, gboolean after)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (after ? t[mid] <= x : t[mid] < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
_iochart_lane_index_each_stream (const IochartLaneIndex *index, gint64 from_ns, gint64 to_ns,
                                 IochartLaneStreamFunc func, gpointer data)
{
  gint64 from = known (from_ns) ? from_ns : G_MININT64;
  gint64 to = known (to_ns) ? to_ns : G_MAXINT64;

  for (guint s = 0; s < index->n_streams; s++)
    {
      const Stream *st = &index->streams[s];
      guint lo = st->first, hi = st->first + st->n, ia, ib;
      IochartLaneStream out;

      /* in view: started by `to`, less those over before `from` (those started by then too) */
      if (st->min_a > to || st->max_b < from)
        continue;
      ia = search (index->by_start.t, lo, hi, to, TRUE);
      ib = search (index->by_end.t, lo, hi, from, FALSE);
      if (ia - lo <= ib - lo)
        continue;
      out.process = st->process;
      out.klass = st->klass;
      out.n_in_view = (ia - lo) - (ib - lo);
      out.issues = index->by_start.issues[ia - 1] - (ib > lo ? index->by_end.issues[ib - 1] : 0);
      out.bytes = index->by_start.bytes[ia - 1] - (ib > lo ? index->by_end.bytes[ib - 1] : 0);
      out.first_io_ns = index->by_end.ext[ib];
      out.last_io_ns = index->by_start.ext[ia - 1];
      func (&out, data);
    }
}

/* The time of runs [lo, hi) (disjoint, by time, cum their running lengths) within [from, to]. */
static gint64
runs_within (const gint64 *start, const gint64 *end, const gint64 *cum, guint lo, guint hi, gint64 from, gint64 to)
{
  guint i, j;

  if (lo == hi || start[lo] >= to || end[hi - 1] <= from)
    return 0;
  i = search (end, lo, hi, from, TRUE);       /* first ending after from */
  j = search (start, lo, hi, to, FALSE);      /* first starting at to or later */
  if (i >= j)
    return 0;
  /* the runs met, less what lies outside the range (no bound: no subtraction to overflow) */
  return cum[j - 1] - (i > lo ? cum[i - 1] : 0) - (MAX (start[i], from) - start[i]) -
         (end[j - 1] - MIN (end[j - 1], to));
}

/* The default grouping's runs, filed by the set of groups outstanding: a lane's time is a sum
 * over the sets holding one of its groups, whatever folds into it. */
static void
outstanding_by_set (const IochartLaneIndex *index, const int *lane_of, gint64 from, gint64 to, gint64 *lane_ns)
{
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint k = 0; k < index->n_keys; k++)
    {
      gint64 ns = runs_within (index->run_start, index->run_end, index->run_cum, index->run_at[k],
                               index->run_at[k + 1], from, to);

      if (ns <= 0)
        continue;
      /* a lane holding several of the set's groups has the time once */
      g_array_set_size (seen, 0);
      for (guint m = index->key_at[k]; m < index->key_at[k + 1]; m++)
        {
          int lane = lane_of[index->key_groups[m]];
          gboolean dup = FALSE;

          for (guint x = 0; x < seen->len && !dup; x++)
            dup = g_array_index (seen, int, x) == lane;
          if (lane < 0 || dup)
            continue;
          g_array_append_val (seen, lane);
          lane_ns[lane] += ns;
        }
    }
}

typedef struct {
  gint64 a, b;
  int    lane;
} Piece;

static int
piece_cmp (const void *x, const void *y)
{
  const Piece *p = x, *q = y;

  if (p->lane != q->lane)
    return (p->lane > q->lane) - (p->lane < q->lane);
  return (p->a > q->a) - (p->a < q->a);
}

/* Another grouping's runs, each group's own: a lane of one group takes its time in two
 * searches; a lane of several (the folded "others") the union of their runs in the range. */
static void
outstanding_by_group (const GroupRuns *gr, const int *lane_of, gint64 from, gint64 to, gint64 *lane_ns)
{
  int n_lanes = 0;
  g_autofree guint *groups_in = NULL;
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));

  for (guint g = 0; g < gr->n_groups; g++)
    n_lanes = MAX (n_lanes, lane_of[g] + 1);
  groups_in = g_new0 (guint, n_lanes + 1);
  for (guint g = 0; g < gr->n_groups; g++)
    if (lane_of[g] >= 0 && gr->at[g + 1] > gr->at[g])
      groups_in[lane_of[g]]++;
  for (guint g = 0; g < gr->n_groups; g++)
    {
      int lane = lane_of[g];
      guint lo = gr->at[g], hi = gr->at[g + 1];

      if (lane < 0 || lo == hi)
        continue;
      if (groups_in[lane] == 1)
        {
          lane_ns[lane] += runs_within (gr->start, gr->end, gr->cum, lo, hi, from, to);
          continue;
        }
      if (gr->start[lo] >= to || gr->end[hi - 1] <= from)
        continue;
      for (guint i = search (gr->end, lo, hi, from, TRUE); i < hi && gr->start[i] < to; i++)
        {
          Piece p = { MAX (gr->start[i], from), MIN (gr->end[i], to), lane };

          if (p.b > p.a)
            g_array_append_val (pieces, p);
        }
    }
  if (pieces->len > 1)
    qsort (pieces->data, pieces->len, sizeof (Piece), piece_cmp);
  for (guint i = 0; i < pieces->len;)
    {
      Piece cur = g_array_index (pieces, Piece, i++);

      for (; i < pieces->len && g_array_index (pieces, Piece, i).lane == cur.lane &&
             g_array_index (pieces, Piece, i).a <= cur.b; i++)
        cur.b = MAX (cur.b, g_array_index (pieces, Piece, i).b);
      lane_ns[cur.lane] += cur.b - cur.a;
    }
}

void
_iochart_lane_index_outstanding (const IochartLaneIndex *index, IochartCapture *capture, IochartGroupBy used,
                                 const guint32 *group_of, guint n_groups, const int *lane_of, gint64 from_ns,
                                 gint64 to_ns, gint64 *lane_ns)
{
  IochartLaneIndex *self = (IochartLaneIndex *) index;   /* the other grouping's runs: a cache */
  gint64 from = known (from_ns) ? from_ns : G_MININT64 + 1;
  gint64 to = known (to_ns) ? to_ns : G_MAXINT64;
  gsize of_size = (index->n_processes + 1) * sizeof (guint32);

  if (used == index->used && n_groups == index->n_groups && memcmp (group_of, index->group_of, of_size) == 0)
    {
      outstanding_by_set (index, lane_of, from, to, lane_ns);
      return;
    }
  /* built when first asked (the app's lanes are laid out in a worker), kept for the next frames */
  g_mutex_lock (&self->lock);
  if (self->other == NULL || self->other->used != used || self->other->n_groups != n_groups ||
      memcmp (self->other->group_of, group_of, of_size) != 0)
    {
      group_runs_free (self->other);
      self->other = group_runs_new (capture, index->device, used, group_of, n_groups);
    }
  outstanding_by_group (self->other, lane_of, from, to, lane_ns);
  g_mutex_unlock (&self->lock);
}

void
iochart_lane_index_counts (const IochartLaneIndex *index, gint64 from_ns, gint64 to_ns, IochartCounts *counts)
{
  memset (counts, 0, sizeof *counts);
  counts->never_issued = index->never_issued;
  for (guint k = 0; k < NC; k++)
    for (guint o = 0; o < IOCHART_N_OPS; o++)
      {
        const Bucket *bk = &index->buckets[k][o];
        guint lo = bk->first, hi = bk->first + bk->n;
        /* issued in [from, to), as iochart_counts_request_in() takes them */
        guint a = known (from_ns) ? search (index->issue_ns, lo, hi, from_ns, FALSE) : lo;
        guint b = known (to_ns) ? search (index->issue_ns, lo, hi, to_ns, FALSE) : hi;
        guint64 issues, bytes, requests;

        if (a >= b)
          continue;
        issues = index->issue_issues[b - 1] - (a > lo ? index->issue_issues[a - 1] : 0);
        bytes = index->issue_bytes[b - 1] - (a > lo ? index->issue_bytes[a - 1] : 0);
        requests = index->issue_count[b - 1] - (a > lo ? index->issue_count[a - 1] : 0);
        counts->issued.requests += issues;
        counts->issued.bytes += bytes;
        counts->by_op[o].requests += issues;
        counts->by_op[o].bytes += bytes;
        counts->by_class[k].requests += issues;
        counts->by_class[k].bytes += bytes;
        counts->reissued += issues - requests;
      }
}
