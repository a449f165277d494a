/* iochart-lane-index.c: a device's requests per process and class (lanes, lane strips), the
 * outstanding runs, the issue times (legend counts) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "iochart-lane-index-private.h"
#include "iochart-bins-private.h"
#include "iochart-capture-private.h"
#include "iochart-radix-private.h"

#define NC IOCHART_N_CLASSES
/* Positions per stored running total (of times, and of bytes and issues). */
#define BLOCK 16

typedef struct {
  guint64 bytes;       /* bytes × issues */
  guint32 issues;
  guint32 count;
} Totals;

/* A stream: one process's requests of one class, their lane spans. */
typedef struct {
  guint32 process;     /* capture process index, or the capture's n_processes: none */
  guint32 klass;
  guint   first, n;
  gint64  min_a, max_b;
  gint64  max_a, min_b;     /* the last start, the first end */
  gint64  ext0;             /* the end of the first by start */
  Totals  started, ended;   /* weights before first, by start and by end: every frame's, kept */
} Stream;

/* Sorted times with running sums. */
typedef struct {
  gint64   *t;
  __int128 *sum;       /* per BLOCK positions: the sum of the times before */
  gint64   *sample;    /* every SAMPLE-th time (of the flat array): searches look here first */
} Times;

/* Times per search sample: a search over the samples, then among SAMPLE neighbours, misses the
 * cache a few times, not once a probe of a strip of millions. */
#define SAMPLE 64

/* Each position's bytes and issues, and per BLOCK positions the totals before. */
typedef struct {
  guint32 *bytes;
  guint8  *issues;
  Totals  *block;
} Weights;

/* The lanes' strips of one grouping: per group and class (a strip), the lives of its requests as
 * the bins see them (first of queue, insert or issue; the issue; the completion), each side
 * sorted with running sums, so that a lane made of many processes costs its groups, not them. */
enum { S_START, S_ISSUE, S_DONE, S_N };

typedef struct {
  guint32 group, klass;
  guint32 rep;         /* a process of the group (or the capture's n_processes): its lane is the group's */
  guint   first, n;
} Strip;

typedef struct {
  IochartGroupBy used;
  guint32       *group_of;          /* per process (+1: none) */
  guint          n_groups;
  guint          n_processes;
  guint          n;
  guint         *at;                /* while built: per group and class, its next position */
  guint32       *rep;               /* while built: per group and class, its first process */
  Strip         *strips;
  guint          n_strips;
  Times          times[S_N];
} GroupStrips;

/* A grouping's time with I/O outstanding, per group: the union of its requests' spans as
 * disjoint runs by time, with running lengths. */
typedef struct {
  IochartGroupBy used;
  guint32       *group_of;          /* per process (+1: none) */
  guint          n_groups;
  guint         *at;                /* n_groups + 1: each group's runs */
  gint64        *start, *end, *cum;
} GroupRuns;

/* Issued requests of one class and op by issue time. */
typedef struct {
  guint    first, n;
} Bucket;

struct _IochartLaneIndex {
  int        device;
  guint      n_processes, n_capture_requests;
  guint      n;                     /* requests with a lane span */
  Stream    *streams;
  guint      n_streams;
  gint64    *start, *end;           /* each stream's lane spans' starts, and ends, sorted */
  gint64    *ext;                   /* by start: the greatest end up to here */
  gint64    *dir[3];                /* every SAMPLE-th of start, end and ext: a frame's searches
                                     * of a stream look here first */
  Weights    by_start, by_end;      /* the lane spans' bytes and issues, by start and by end */
  /* legend counts */
  Bucket     buckets[NC][IOCHART_N_OPS];
  gint64    *issue_ns;
  Weights    issue_w;
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
  GroupStrips *strips;              /* the default grouping's strips */
  /* another grouping's runs and strips, built when first asked (one kept of each) */
  GMutex     lock;
  GroupRuns *other;
  GroupStrips *other_strips;
};

static gboolean
known (gint64 ts)
{
  return ts != IOCHART_TIME_UNKNOWN;
}

/* ---- building ---- */

typedef struct {
  gint64  a, b;
  guint32 bytes;
  guint8  issues;
  guint32 group;
} Life;

/* Requests are stored about in time order: chunks already sorted cost one look, the rest a
 * stable radix sort (a comparison sort of a million lives was a third of the index). */
static void
sort_chunk (Life *v, guint n, gboolean by_b)
{
  _iochart_radix_sort_records (v, n, sizeof *v, by_b ? G_STRUCT_OFFSET (Life, b) : G_STRUCT_OFFSET (Life, a));
}

static void
sort_times (gint64 *v, guint n)
{
  _iochart_radix_sort_records (v, n, sizeof *v, 0);
}

static void
weights_alloc (Weights *w, guint n)
{
  w->bytes = g_new (guint32, MAX (n, 1));
  w->issues = g_new (guint8, MAX (n, 1));
  w->block = g_new (Totals, n / BLOCK + 1);
}

static void
weights_free (Weights *w)
{
  g_free (w->bytes);
  g_free (w->issues);
  g_free (w->block);
}

/* The totals per BLOCK, once every position's own are in. */
static void
weights_finish (Weights *w, guint n)
{
  Totals t = { 0 };

  for (guint i = 0; i <= n; i++)
    {
      if (i % BLOCK == 0)
        w->block[i / BLOCK] = t;
      if (i < n)
        {
          t.bytes += (guint64) w->bytes[i] * w->issues[i];
          t.issues += w->issues[i];
          t.count++;
        }
    }
}

/* The totals of positions [0, i). */
static Totals
weights_before (const Weights *w, guint i)
{
  Totals t = w->block[i / BLOCK];

  for (guint j = i / BLOCK * BLOCK; j < i; j++)
    {
      t.bytes += (guint64) w->bytes[j] * w->issues[j];
      t.issues += w->issues[j];
      t.count++;
    }
  return t;
}

static void
times_finish (Times *ts, guint n)
{
  __int128 acc = 0;

  ts->sample = g_new (gint64, n / SAMPLE + 1);
  for (guint i = 0; i < n; i += SAMPLE)
    ts->sample[i / SAMPLE] = ts->t[i];
  ts->sum = g_new (__int128, n / BLOCK + 1);
  for (guint i = 0; i <= n; i++)
    {
      if (i % BLOCK == 0)
        ts->sum[i / BLOCK] = acc;
      if (i < n)
        acc += ts->t[i];
    }
}

/* A stream's lane spans (lives, in its part's order), by start and by end. */
/* Every SAMPLE-th of t[0..n) */
static gint64 *
directory (const gint64 *t, guint n)
{
  gint64 *dir = g_new (gint64, n / SAMPLE + 1);

  for (guint i = 0; i < n; i += SAMPLE)
    dir[i / SAMPLE] = t[i];
  return dir;
}

static void
fill_stream (IochartLaneIndex *self, Stream *st, Life *lives)
{
  guint first = st->first, n = st->n;
  Life *v = lives + first;
  gint64 ext = G_MININT64;

  sort_chunk (v, n, FALSE);
  for (guint i = 0; i < n; i++)
    {
      ext = MAX (ext, v[i].b);
      self->start[first + i] = v[i].a;
      self->ext[first + i] = ext;
      self->by_start.bytes[first + i] = v[i].bytes;
      self->by_start.issues[first + i] = v[i].issues;
    }
  st->min_a = v[0].a;
  st->max_a = v[n - 1].a;
  st->ext0 = v[0].b;
  st->max_b = ext;
  sort_chunk (v, n, TRUE);
  st->min_b = v[0].b;
  for (guint i = 0; i < n; i++)
    {
      self->end[first + i] = v[i].b;
      self->by_end.bytes[first + i] = v[i].bytes;
      self->by_end.issues[first + i] = v[i].issues;
    }
}

typedef struct {
  gint64  t;
  guint32 bytes;
  guint8  issues;
} Issue;

static void
fill_bucket (IochartLaneIndex *self, const Bucket *bk, Issue *v)
{
  _iochart_radix_sort_records (v, bk->n, sizeof *v, G_STRUCT_OFFSET (Issue, t));
  for (guint i = 0; i < bk->n; i++)
    {
      self->issue_ns[bk->first + i] = v[i].t;
      self->issue_w.bytes[bk->first + i] = v[i].bytes;
      self->issue_w.issues[bk->first + i] = v[i].issues;
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

typedef struct {
  gint64  start, end;
  guint32 key;
} Run;

typedef void (*UnionFunc) (guint32 group, gint64 a, gint64 b, gpointer data);

/* Calls func with each group's union of its lives' spans, a disjoint run at a time, by group
 * and then time. The lives stay where they are: one stable sort of (group, start, position)
 * pairs orders them, where a copy by group and a sort of each cost three times the memory. */
static void
each_union (const Life *lives, guint n, guint n_groups, UnionFunc func, gpointer data)
{
  g_autofree IochartRadixPair *order = g_new (IochartRadixPair, MAX (n, 1));
  gint64 min = G_MAXINT64, max = G_MININT64;
  guint time_bits, group_bits = g_bit_storage (MAX (n_groups, 1));

  for (guint i = 0; i < n; i++)
    {
      min = MIN (min, lives[i].a);
      max = MAX (max, lives[i].a);
    }
  time_bits = n > 0 ? g_bit_storage ((guint64) max - (guint64) min) : 0;
  if (time_bits + group_bits > 64)
    {
      /* starts over 2^(64 - group bits) ns apart: by group, then the start's order as unsigned */
      for (guint i = 0; i < n; i++)
        order[i] = (IochartRadixPair) { (guint64) lives[i].a ^ (G_GUINT64_CONSTANT (1) << 63), i };
      _iochart_radix_sort (order, n, 64);
      for (guint i = 0; i < n; i++)
        order[i].key = lives[order[i].value].group;
      _iochart_radix_sort (order, n, 64);
    }
  else
    {
      for (guint i = 0; i < n; i++)
        order[i] = (IochartRadixPair) { (guint64) lives[i].group << time_bits | ((guint64) lives[i].a - (guint64) min), i };
      _iochart_radix_sort (order, n, 64);
    }
  for (guint i = 0; i < n;)
    {
      guint32 g = lives[order[i].value].group;
      gint64 a = lives[order[i].value].a, b = lives[order[i].value].b;

      for (i++; i < n && lives[order[i].value].group == g && lives[order[i].value].a <= b; i++)
        b = MAX (b, lives[order[i].value].b);
      func (g, a, b, data);
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
  _iochart_radix_sort_records (edges->data, edges->len, sizeof (Edge), G_STRUCT_OFFSET (Edge, t));
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

/* ---- a grouping's strips ---- */

static guint32
strip_group (const GroupStrips *gs, const IochartRequest *rq)
{
  return gs->used == IOCHART_GROUP_CLASS ? MIN (rq->klass, NC - 1) : gs->group_of[MIN (rq->process, gs->n_processes)];
}

static GroupStrips *
group_strips_alloc (IochartGroupBy used, const guint32 *group_of, guint n_groups, guint n_processes)
{
  GroupStrips *gs = g_new0 (GroupStrips, 1);

  gs->used = used;
  gs->group_of = g_memdup2 (group_of, (n_processes + 1) * sizeof (guint32));
  gs->n_groups = n_groups;
  gs->n_processes = n_processes;
  gs->at = g_new0 (guint, (gsize) n_groups * NC + 1);
  gs->rep = g_new (guint32, (gsize) n_groups * NC);
  memset (gs->rep, 0xff, (gsize) n_groups * NC * sizeof (guint32));
  return gs;
}

static void
group_strips_free (GroupStrips *gs)
{
  if (gs == NULL)
    return;
  g_free (gs->group_of);
  g_free (gs->at);
  g_free (gs->rep);
  g_free (gs->strips);
  for (guint w = 0; w < S_N; w++)
    {
      g_free (gs->times[w].t);
      g_free (gs->times[w].sum);
      g_free (gs->times[w].sample);
    }
  g_free (gs);
}

/* First pass: rq counted in its strip. */
static void
group_strips_count (GroupStrips *gs, const IochartRequest *rq)
{
  gint64 s, i, d;
  gsize id;

  if (!_iochart_bins_request_life (rq, &s, &i, &d))
    return;
  id = (gsize) strip_group (gs, rq) * NC + MIN (rq->klass, NC - 1);
  gs->at[id + 1]++;
  if (gs->rep[id] == G_MAXUINT32)
    gs->rep[id] = MIN (rq->process, gs->n_processes);
}

/* Between the passes: the strips, and where each one's requests go. */
static void
group_strips_layout (GroupStrips *gs)
{
  gsize n_ids = (gsize) gs->n_groups * NC;

  for (gsize id = 0; id < n_ids; id++)
    gs->n_strips += gs->at[id + 1] > 0;
  gs->strips = g_new0 (Strip, MAX (gs->n_strips, 1));
  for (gsize id = 0, j = 0; id < n_ids; id++)
    {
      if (gs->at[id + 1] > 0)
        gs->strips[j++] = (Strip) { (guint32) (id / NC), (guint32) (id % NC), gs->rep[id], gs->at[id], gs->at[id + 1] };
      gs->at[id + 1] += gs->at[id];
    }
  gs->n = gs->at[n_ids];
  for (guint w = 0; w < S_N; w++)
    gs->times[w].t = g_new (gint64, MAX (gs->n, 1));
}

/* Second pass: rq's life in its strip. */
static void
group_strips_put (GroupStrips *gs, const IochartRequest *rq)
{
  gint64 s, i, d;
  guint j;

  if (!_iochart_bins_request_life (rq, &s, &i, &d))
    return;
  j = gs->at[(gsize) strip_group (gs, rq) * NC + MIN (rq->klass, NC - 1)]++;
  gs->times[S_START].t[j] = s;
  gs->times[S_ISSUE].t[j] = i;
  gs->times[S_DONE].t[j] = d;
}

static void
group_strips_finish (GroupStrips *gs)
{
  for (guint j = 0; j < gs->n_strips; j++)
    for (guint w = 0; w < S_N; w++)
      sort_times (gs->times[w].t + gs->strips[j].first, gs->strips[j].n);
  for (guint w = 0; w < S_N; w++)
    times_finish (&gs->times[w], gs->n);
  g_clear_pointer (&gs->at, g_free);
  g_clear_pointer (&gs->rep, g_free);
}

/* What is built from two passes over a device's requests: count each, lay out, put each again
 * in the same order. */
typedef void (*PassFunc) (gpointer build, const IochartRequest *rq);
typedef void (*LayoutFunc) (gpointer build);

static void
two_passes (IochartCapture *capture, int device, PassFunc count, LayoutFunc layout, PassFunc put, gpointer build)
{
  guint n_rq = iochart_capture_get_n_requests (capture);

  for (guint pass = 0; pass < 2; pass++)
    {
      for (guint i = 0; i < n_rq; i++)
        {
          IochartRequest rq;

          _iochart_capture_unpack (capture, i, &rq);
          if (rq.device == device)
            (pass == 0 ? count : put) (build, &rq);
        }
      if (pass == 0)
        layout (build);
    }
}

/* Another grouping's strips. */
static GroupStrips *
group_strips_new (IochartCapture *capture, int device, IochartGroupBy used, const guint32 *group_of,
                  guint n_groups)
{
  GroupStrips *gs = group_strips_alloc (used, group_of, n_groups, iochart_capture_get_n_processes (capture));

  two_passes (capture, device, (PassFunc) group_strips_count, (LayoutFunc) group_strips_layout,
              (PassFunc) group_strips_put, gs);
  group_strips_finish (gs);
  return gs;
}

static gsize
group_strips_size (const GroupStrips *gs)
{
  return sizeof *gs + gs->n_strips * sizeof (Strip) + (gs->n_processes + 1) * sizeof (guint32) +
         S_N * ((gsize) gs->n * sizeof (gint64) + (gs->n / BLOCK + 1) * sizeof (__int128) +
                (gs->n / SAMPLE + 1) * sizeof (gint64));
}

/* ---- building the index ---- */

/* An index being built from two passes over the device's requests (its own, or the bin
 * index's, which feeds it the requests it unpacks anyway). */
struct _IochartLaneIndexBuild {
  IochartLaneIndex *self;
  guint            *slot;
  Life             *lives;
  Issue            *issues;
  guint             n_bucket[NC][IOCHART_N_OPS];
};

IochartLaneIndexBuild *
_iochart_lane_index_begin (IochartCapture *capture, int device)
{
  IochartLaneIndexBuild *b = g_new0 (IochartLaneIndexBuild, 1);
  IochartLaneIndex *self = b->self = g_new0 (IochartLaneIndex, 1);
  guint n_proc = iochart_capture_get_n_processes (capture);

  self->device = device;
  self->n_processes = n_proc;
  self->n_capture_requests = iochart_capture_get_n_requests (capture);
  self->asked = IOCHART_GROUP_TREE;
  g_mutex_init (&self->lock);
  self->group_of = _iochart_lanes_group_of (capture, self->asked, &self->used, &self->n_groups);
  self->strips = group_strips_alloc (self->used, self->group_of, self->n_groups, n_proc);
  b->slot = g_new0 (guint, (gsize) (n_proc + 1) * NC + 1);
  return b;
}

/* First pass: how many requests each stream, strip and bucket holds (rq: of the device). */
void
_iochart_lane_index_count (IochartLaneIndexBuild *b, const IochartRequest *rq)
{
  IochartLaneIndex *self = b->self;
  gint64 a, e;
  guint p, k = MIN (rq->klass, NC - 1);

  if (rq->issues == 0)
    self->never_issued++;
  else
    {
      b->n_bucket[k][MIN (rq->op, IOCHART_N_OPS - 1)]++;
      self->n_issued++;
    }
  group_strips_count (self->strips, rq);
  if (!_iochart_lanes_request_span (rq, &a, &e))
    return;
  p = MIN (rq->process, self->n_processes);
  b->slot[p * NC + k + 1]++;
  self->n++;
}

/* Between the passes: where each stream's, bucket's and strip's requests go. */
void
_iochart_lane_index_layout (IochartLaneIndexBuild *b)
{
  IochartLaneIndex *self = b->self;
  guint n_slots = (self->n_processes + 1) * NC;

  for (guint s = 0; s < n_slots; s++)
    self->n_streams += b->slot[s + 1] > 0;
  self->streams = g_new0 (Stream, MAX (self->n_streams, 1));
  for (guint s = 0, j = 0; s < n_slots; s++)
    {
      if (b->slot[s + 1] > 0)
        self->streams[j++] = (Stream) { s / NC, s % NC, b->slot[s], b->slot[s + 1], 0, 0 };
      b->slot[s + 1] += b->slot[s];
    }
  for (guint k = 0, at = 0; k < NC; k++)
    for (guint o = 0; o < IOCHART_N_OPS; o++)
      {
        self->buckets[k][o] = (Bucket) { at, b->n_bucket[k][o] };
        at += b->n_bucket[k][o];
        b->n_bucket[k][o] = self->buckets[k][o].first;
      }
  group_strips_layout (self->strips);
  b->lives = g_new (Life, MAX (self->n, 1));
  b->issues = g_new (Issue, MAX (self->n_issued, 1));
}

/* Second pass: the lives in stream order, the issues in bucket order, the strips' lives. */
void
_iochart_lane_index_put (IochartLaneIndexBuild *b, const IochartRequest *rq)
{
  IochartLaneIndex *self = b->self;
  gint64 a, e;
  guint p, k = MIN (rq->klass, NC - 1);

  if (rq->issues > 0)
    b->issues[b->n_bucket[k][MIN (rq->op, IOCHART_N_OPS - 1)]++] = (Issue) { rq->issue_ns, rq->bytes, rq->issues };
  group_strips_put (self->strips, rq);
  if (!_iochart_lanes_request_span (rq, &a, &e))
    return;
  p = MIN (rq->process, self->n_processes);
  b->lives[b->slot[p * NC + k]++] = (Life) { a, e, rq->bytes, rq->issues,
                                             self->used == IOCHART_GROUP_CLASS ? k : self->group_of[p] };
}

IochartLaneIndex *
_iochart_lane_index_end (IochartLaneIndexBuild *b)
{
  IochartLaneIndex *self = b->self;

  group_strips_finish (self->strips);
  self->start = g_new (gint64, MAX (self->n, 1));
  self->end = g_new (gint64, MAX (self->n, 1));
  self->ext = g_new (gint64, MAX (self->n, 1));
  weights_alloc (&self->by_start, self->n);
  weights_alloc (&self->by_end, self->n);
  for (guint s = 0; s < self->n_streams; s++)
    fill_stream (self, &self->streams[s], b->lives);
  weights_finish (&self->by_start, self->n);
  weights_finish (&self->by_end, self->n);
  for (guint s = 0; s < self->n_streams; s++)
    {
      self->streams[s].started = weights_before (&self->by_start, self->streams[s].first);
      self->streams[s].ended = weights_before (&self->by_end, self->streams[s].first);
    }
  self->dir[0] = directory (self->start, self->n);
  self->dir[1] = directory (self->end, self->n);
  self->dir[2] = directory (self->ext, self->n);

  self->issue_ns = g_new (gint64, MAX (self->n_issued, 1));
  weights_alloc (&self->issue_w, self->n_issued);
  for (guint k = 0; k < NC; k++)
    for (guint o = 0; o < IOCHART_N_OPS; o++)
      fill_bucket (self, &self->buckets[k][o], b->issues + self->buckets[k][o].first);
  weights_finish (&self->issue_w, self->n_issued);

  build_runs (self, b->lives, self->n);
  g_free (b->slot);
  g_free (b->lives);
  g_free (b->issues);
  g_free (b);
  return self;
}

IochartLaneIndex *
iochart_lane_index_new (IochartCapture *capture, int device)
{
  IochartLaneIndexBuild *b;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  b = _iochart_lane_index_begin (capture, device);
  two_passes (capture, device, (PassFunc) _iochart_lane_index_count, (LayoutFunc) _iochart_lane_index_layout,
              (PassFunc) _iochart_lane_index_put, b);
  return _iochart_lane_index_end (b);
}

void
iochart_lane_index_free (IochartLaneIndex *index)
{
  if (index == NULL)
    return;
  g_free (index->streams);
  g_free (index->start);
  g_free (index->end);
  g_free (index->ext);
  for (guint i = 0; i < G_N_ELEMENTS (index->dir); i++)
    g_free (index->dir[i]);
  weights_free (&index->by_start);
  weights_free (&index->by_end);
  g_free (index->issue_ns);
  weights_free (&index->issue_w);
  g_free (index->key_at);
  g_free (index->key_groups);
  g_free (index->run_at);
  g_free (index->run_start);
  g_free (index->run_end);
  g_free (index->run_cum);
  g_free (index->group_of);
  group_strips_free (index->strips);
  group_runs_free (index->other);
  group_strips_free (index->other_strips);
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

static gsize
weights_size (guint n)
{
  return (gsize) n * (sizeof (guint32) + sizeof (guint8)) + (n / BLOCK + 1) * sizeof (Totals);
}

gsize
iochart_lane_index_get_size (const IochartLaneIndex *index)
{
  return sizeof *index + index->n_streams * sizeof (Stream) + 3 * (gsize) index->n * sizeof (gint64) +
         3 * (gsize) (index->n / SAMPLE + 1) * sizeof (gint64) +
         2 * weights_size (index->n) + (gsize) index->n_issued * sizeof (gint64) + weights_size (index->n_issued) +
         (index->n_processes + 1) * sizeof (guint32) + group_strips_size (index->strips) +
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

/* A search (t, lo, hi, x, after) through dir, t's every SAMPLE-th, in two steps: the samples
 * within [lo, hi) narrow it to [*a, *b), the (at most SAMPLE - 1) times between two of them,
 * asked for from memory at once; then search (t, *a, *b, x, after). */
static void
dir_window (const gint64 *t, const gint64 *dir, guint lo, guint hi, gint64 x, gboolean after, guint *a, guint *b)
{
  guint klo = lo / SAMPLE + (lo % SAMPLE != 0), khi = hi / SAMPLE + (hi % SAMPLE != 0);
  guint k = search (dir, klo, khi, x, after);

  *a = k > klo ? (k - 1) * SAMPLE + 1 : lo;
  *b = k < khi ? k * SAMPLE : hi;
  for (guint i = *a; i < *b; i += 64 / sizeof (gint64))
    __builtin_prefetch (t + i);
}

static void
prefetch_weights (const Weights *w, guint i)
{
  __builtin_prefetch (&w->block[i / BLOCK]);
  __builtin_prefetch (&w->bytes[i / BLOCK * BLOCK]);
  __builtin_prefetch (&w->issues[i / BLOCK * BLOCK]);
}

/* Streams searched at a time: each step's cache misses, over the batch's streams, are asked
 * for together, not one search's probe after the other's (a frame searches every stream of
 * millions of requests three times). */
#define STREAM_BATCH 16

/* A stream of a batch: the windows of its three searches (to among starts, from among ends and
 * among greatest ends), then their answers. */
typedef struct {
  const Stream *st;
  guint a[3], b[3];
  guint ia, ib, ie;
} Probe;

static void
probe_emit (const IochartLaneIndex *index, const Probe *pr, IochartLaneStreamFunc func, gpointer data)
{
  const Stream *st = pr->st;
  guint lo = st->first;
  Totals started = weights_before (&index->by_start, pr->ia), ended = weights_before (&index->by_end, pr->ib);
  IochartLaneStream out;

  out.process = st->process;
  out.klass = st->klass;
  out.n_in_view = (pr->ia - lo) - (pr->ib - lo);
  out.issues = (started.issues - st->started.issues) - (ended.issues - st->ended.issues);
  out.bytes = (started.bytes - st->started.bytes) - (ended.bytes - st->ended.bytes);
  /* the least start of those ending at `from` or later: by start, the first whose greatest end
   * so far reaches `from` */
  out.first_io_ns = index->start[pr->ie];
  out.last_io_ns = index->ext[pr->ia - 1];
  func (&out, data);
}

void
_iochart_lane_index_each_stream (const IochartLaneIndex *index, gint64 from_ns, gint64 to_ns,
                                 IochartLaneStreamFunc func, gpointer data)
{
  gint64 from = known (from_ns) ? from_ns : G_MININT64;
  gint64 to = known (to_ns) ? to_ns : G_MAXINT64;
  const gint64 *t[3] = { index->start, index->end, index->ext };
  const gint64 x[3] = { to, from, from };
  Probe batch[STREAM_BATCH];

  for (guint s = 0; s < index->n_streams;)
    {
      guint n = 0, m = 0;

      /* the windows, from the samples (in the cache: every frame reads them) */
      for (; s < index->n_streams && n < STREAM_BATCH; s++)
        {
          const Stream *st = &index->streams[s];
          guint lo = st->first, hi = lo + st->n;
          Probe *pr = &batch[n];
          /* a wide range holds most streams whole: their ends answer, no search */
          const gboolean whole[3] = { st->max_a <= to, st->min_b >= from, st->ext0 >= from };

          if (lo == hi || st->min_a > to || st->max_b < from)
            continue;
          pr->st = st;
          for (guint w = 0; w < 3; w++)
            if (whole[w])
              pr->a[w] = pr->b[w] = w == 0 ? hi : lo;
            else
              dir_window (t[w], index->dir[w], lo, hi, x[w], w == 0, &pr->a[w], &pr->b[w]);
          n++;
        }
      /* the answers in the windows; the weights and times they lead to asked for */
      for (guint i = 0; i < n; i++)
        {
          Probe *pr = &batch[i];

          pr->ia = search (t[0], pr->a[0], pr->b[0], to, TRUE);
          pr->ib = search (t[1], pr->a[1], pr->b[1], from, FALSE);
          if (pr->ia - pr->st->first <= pr->ib - pr->st->first)
            continue;
          pr->ie = search (t[2], pr->a[2], pr->b[2], from, FALSE);
          prefetch_weights (&index->by_start, pr->ia);
          prefetch_weights (&index->by_end, pr->ib);
          __builtin_prefetch (&index->ext[pr->ia - 1]);
          __builtin_prefetch (&index->start[pr->ie]);
          batch[m++] = *pr;
        }
      for (guint i = 0; i < m; i++)
        probe_emit (index, &batch[i], func, data);
    }
}

guint32 *
_iochart_lane_index_group_of (const IochartLaneIndex *index, IochartGroupBy group_by, IochartGroupBy *used,
                              guint *n_groups)
{
  if (group_by != index->asked)
    return NULL;
  *used = index->used;
  *n_groups = index->n_groups;
  return g_memdup2 (index->group_of, (index->n_processes + 1) * sizeof (guint32));
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
        Totals before, upto;
        guint64 issues, bytes, requests;

        if (a >= b)
          continue;
        before = weights_before (&index->issue_w, a);
        upto = weights_before (&index->issue_w, b);
        issues = upto.issues - before.issues;
        bytes = upto.bytes - before.bytes;
        requests = upto.count - before.count;
        counts->issued.requests += issues;
        counts->issued.bytes += bytes;
        counts->by_op[o].requests += issues;
        counts->by_op[o].bytes += bytes;
        counts->by_class[k].requests += issues;
        counts->by_class[k].bytes += bytes;
        counts->reissued += issues - requests;
      }
}

/* ---- the lanes' strips (iochart_bin_index_fill_lanes) ---- */

typedef gint64 ClassCounts[IOCHART_N_CLASSES];

/* A lane is taken as the device's less the others once it meets this many requests a column. */
static guint rest_factor = 2000;

void
_iochart_lane_index_set_rest_factor (guint factor)
{
  rest_factor = factor;
}

/* A range's columns: real edges as the spread takes them (offsets from the range's start) and
 * integer ones, the first time of each column (the last: past the range), as the walk's columns
 * of request instants fall. */
typedef struct {
  guint   n;
  gint64  from;      /* the range's start */
  double *x;         /* n + 1 */
  gint64 *T;         /* n + 1 */
} Edges;

static void
edges_init (Edges *e, const IochartBins *bins)
{
  e->n = bins->n_columns;
  e->from = bins->from_ns;
  e->x = g_new (double, e->n + 1);
  e->T = g_new (gint64, e->n + 1);
  for (guint c = 0; c <= e->n; c++)
    e->x[c] = c * bins->ns_per_column;
  e->T[0] = bins->from_ns;
  e->T[e->n] = bins->to_ns + 1;
  for (guint c = 1; c < e->n; c++)
    {
      gint64 t = MIN (bins->from_ns + (gint64) ceil (e->x[c]), bins->to_ns);

      t = MAX (t, e->T[c - 1]);
      while (t > e->T[c - 1] && _iochart_bins_column_of (bins, t - 1) >= (int) c)
        t--;
      while (t < bins->to_ns && _iochart_bins_column_of (bins, t) < (int) c)
        t++;
      e->T[c] = t;
    }
}

static void
edges_clear (Edges *e)
{
  g_free (e->x);
  g_free (e->T);
}

/* A column series being summed: column c gets (base + d[0] + ... + d[c]) × its width + part[c]:
 * the entries before it, each adding the column's width, and those in it, each the rest of it. */
typedef struct {
  double  base;
  double *d;         /* n */
  double *part;      /* n */
} Ramps;

static void
ramps_init (Ramps *r, guint n)
{
  r->base = 0;
  r->d = g_new0 (double, n + 1);
  r->part = g_new0 (double, n + 1);
}

static void
ramps_finish (Ramps *r, const Edges *e, double *cols)
{
  double count = r->base;

  for (guint c = 0; c < e->n; c++)
    {
      count += r->d[c];
      cols[c] += count * (e->x[c + 1] - e->x[c]) + r->part[c];
    }
  r->base = 0;
  memset (r->d, 0, (e->n + 1) * sizeof (double));
  memset (r->part, 0, (e->n + 1) * sizeof (double));
}

static void
ramps_clear (Ramps *r)
{
  g_free (r->d);
  g_free (r->part);
}

/* The column of a value from column c on (its edge c at or before it): of a (relative to from,
 * in [0, x[n])) against the real edges, or of t (in [T[c], T[n])) against the integer ones.
 * Galloping, as a stream's next time in the range is near or far; inlined with `real` known, so
 * each caller gets its own loop. */
static inline __attribute__ ((always_inline)) guint
edge_below (const Edges *e, guint c, gboolean real, double a, gint64 t)
{
  guint lo = c, hi, step = 1;

#define EDGE_AT_OR_BEFORE(k) (real ? e->x[k] <= a : e->T[k] <= t)
  while (lo + step < e->n && EDGE_AT_OR_BEFORE (lo + step))
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (lo + step, e->n) - 1;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo + 1) / 2;
      if (EDGE_AT_OR_BEFORE (mid))
        lo = mid;
      else
        hi = mid - 1;
    }
#undef EDGE_AT_OR_BEFORE
  return lo;
}

/* First of t[lo, hi) not before x (relative to from, real). */
static guint
lower_x (const gint64 *t, guint lo, guint hi, gint64 from, double x)
{
  guint step = 1;

  /* galloping: successive edges are near */
  while (lo + step < hi && (double) (t[lo + step] - from) < x)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (hi, lo + step + 1);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if ((double) (t[mid] - from) < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Narrows [*lo, *hi) of a strip's times to a window of at most SAMPLE (and what lies between *lo
 * and the first sample) holding its first time not before the bound: relative to from against
 * x when real, else against T; from the samples, galloping from *lo. */
static inline __attribute__ ((always_inline)) void
sample_window (const Times *ts, guint *lo, guint *hi, gboolean real, gint64 from, double x, gint64 T)
{
  guint j0 = (*lo + SAMPLE - 1) / SAMPLE, j1 = (*hi + SAMPLE - 1) / SAMPLE, j = j0, step = 1, end;

#define SAMPLE_BEFORE(k) (real ? (double) (ts->sample[k] - from) < x : ts->sample[k] < T)
  while (j + step - 1 < j1 && SAMPLE_BEFORE (j + step - 1))
    {
      j += step;
      step *= 2;
    }
  end = MIN (j + step - 1, j1);
  while (j < end)
    {
      guint mid = j + (end - j) / 2;
      if (SAMPLE_BEFORE (mid))
        j = mid + 1;
      else
        end = mid;
    }
#undef SAMPLE_BEFORE
  if (j > j0)
    *lo = (j - 1) * SAMPLE;
  if (j < j1)
    *hi = j * SAMPLE;
}

/* lower_x and the first time not before T of a strip's times through the samples. */
static guint
find_x (const Times *ts, guint lo, guint hi, gint64 from, double x)
{
  /* a wide range holds most strips whole: their ends answer, not searches missing the cache */
  if (lo == hi || (double) (ts->t[lo] - from) >= x)
    return lo;
  if ((double) (ts->t[hi - 1] - from) < x)
    return hi;
  sample_window (ts, &lo, &hi, TRUE, from, x, 0);
  return lower_x (ts->t, lo, hi, from, x);
}

static guint
find_t (const Times *ts, guint lo, guint hi, gint64 T)
{
  if (lo == hi || ts->t[lo] >= T)
    return lo;
  if (ts->t[hi - 1] < T)
    return hi;
  sample_window (ts, &lo, &hi, FALSE, 0, 0, T);
  return _iochart_gallop_i64 (ts->t, lo, hi, T);
}

/* find_x (real) or find_t from a guess of the answer in (lo, hi) (the last edge's stride on from
 * lo: a range's columns are of one width, and a busy strip's times come about evenly): galloping
 * from the guess, forward or back, a few probes when it is near; the same answer. */
static inline __attribute__ ((always_inline)) guint
find_near (const Times *ts, guint lo, guint hi, gboolean real, gint64 from, double x, gint64 T, guint guess)
{
  const gint64 *t = ts->t;
  guint g = guess, step = 1, top;

#define NEAR_BEFORE(k) (real ? (double) (t[k] - from) < x : t[k] < T)
  if (g <= lo || g >= hi)
    return real ? find_x (ts, lo, hi, from, x) : find_t (ts, lo, hi, T);
  if (NEAR_BEFORE (g))
    return real ? lower_x (t, g + 1, hi, from, x) : _iochart_gallop_i64 (t, g + 1, hi, T);
  /* t[g] is not before the bound: back from it, doubling, to one that is (or lo) */
  while (step <= g - lo && !NEAR_BEFORE (g - step))
    {
      g -= step;
      step *= 2;
    }
  /* the answer is in (g - step, g] */
  top = g;
  g = step <= g - lo ? g - step + 1 : lo;
  while (g < top)
    {
      guint mid = g + (top - g) / 2;
      if (NEAR_BEFORE (mid))
        g = mid + 1;
      else
        top = mid;
    }
#undef NEAR_BEFORE
  return g;
}

/* Asks memory early for what a column two on will read: the time its search probes first and
 * its running sum (at to a column's stride apart, each on lines no other column touched). */
static inline void
times_prefetch (const Times *ts, guint at, guint stride, guint hi)
{
  guint ahead = at + 2 * stride;

  if (stride > 0 && ahead < hi)
    {
      __builtin_prefetch (&ts->t[ahead]);
      __builtin_prefetch (&ts->sum[ahead / BLOCK]);
    }
}

static __int128
sum_before (const Times *ts, guint i)
{
  __int128 s = ts->sum[i / BLOCK];

  for (guint j = i / BLOCK * BLOCK; j < i; j++)
    s += ts->t[j];
  return s;
}

/* Adds sign × the ramps of a strip's times w (one side of it): by a search per edge when many
 * of them fall in the range, else by a pass over those. */
static void
ramps_add (const GroupStrips *gs, const Strip *st, guint w, const Edges *e, double sign, Ramps *r)
{
  const Times *ts = &gs->times[w];
  const gint64 *t = ts->t;
  guint lo = st->first, hi = lo + st->n;
  guint p = find_x (ts, lo, hi, e->from, 0), q = find_x (ts, p, hi, e->from, e->x[e->n]);

  r->base += sign * (p - lo);
  if (q - p > 24 * e->n)
    {
      guint at = p, stride = 0;
      __int128 s_at = sum_before (ts, p);

      for (guint c = 0; c < e->n && at < q; c++)
        {
          guint next = c + 1 < e->n ? find_near (ts, at, q, TRUE, e->from, e->x[c + 1], 0, at + stride) : q;
          __int128 s_next;

          stride = next - at;
          if (next == at)
            continue;
          times_prefetch (ts, next, stride, q);
          s_next = sum_before (ts, next);
          r->d[c + 1] += sign * (next - at);
          /* the entries in the column: each the column's time after it */
          r->part[c] += sign * ((double) (next - at) * e->x[c + 1] -
                                (double) (s_next - s_at - (__int128) (next - at) * e->from));
          at = next;
          s_at = s_next;
        }
      return;
    }
  for (guint i = p, c = 0; i < q; i++)
    {
      double a = (double) (t[i] - e->from);

      if (e->x[c + 1] <= a)
        c = edge_below (e, c + 1, TRUE, a, 0);
      r->d[c + 1] += sign;
      r->part[c] += sign * (e->x[c + 1] - a);
    }
}

/* Adds #{a strip's times w before T[e]} to every edge e's count, as differences: d[0] gets those
 * before the range, d[e] those in column e - 1. */
static void
counts_add (const GroupStrips *gs, const Strip *st, guint w, const Edges *e, gint64 *d)
{
  const Times *ts = &gs->times[w];
  const gint64 *t = ts->t;
  guint lo = st->first, hi = lo + st->n;
  guint p = find_t (ts, lo, hi, e->T[0]), q = find_t (ts, p, hi, e->T[e->n]);

  d[0] += p - lo;
  if (q - p > 24 * e->n)
    {
      guint at = p, stride = 0;

      for (guint c = 1; c <= e->n; c++)
        {
          guint next = c < e->n ? find_near (ts, at, q, FALSE, 0, 0, e->T[c], at + stride) : q;
          d[c] += next - at;
          stride = next - at;
          at = next;
        }
      return;
    }
  for (guint i = p, c = 0; i < q; i++)
    {
      if (e->T[c + 1] <= t[i])
        c = edge_below (e, c + 1, FALSE, 0, t[i]);
      d[c + 1]++;
    }
}

/* Requests meeting the range: started before its end, less those ended before its start. */
static guint
strip_meeting (const GroupStrips *gs, const Strip *st, const Edges *e)
{
  guint lo = st->first, hi = st->first + st->n;

  return find_t (&gs->times[S_START], lo, hi, e->T[e->n]) - find_t (&gs->times[S_DONE], lo, hi, e->T[0]);
}

/* A lane's class counts per edge, as differences (see counts_add): started, ended. */
typedef struct {
  gint64 *started[IOCHART_N_CLASSES];
  gint64 *ended[IOCHART_N_CLASSES];
} LaneCounts;

/* Folds c's differences into the classes each column's requests have, and (when total is not
 * NULL) adds each column's requests to total; clears c. */
static void
lane_counts_finish (LaneCounts *c, guint n, guint8 *classes, ClassCounts *total)
{
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      gint64 s = c->started[k][0], d = 0;

      for (guint col = 0; col < n; col++)
        {
          /* touching col: started by its end, less those ended before it */
          gint64 touching;

          d += c->ended[k][col];
          s += c->started[k][col + 1];
          touching = s - d;
          if (classes && touching > 0)
            classes[col] |= 1u << k;
          if (total)
            total[col][k] += touching;
        }
      memset (c->started[k], 0, (n + 1) * sizeof (gint64));
      memset (c->ended[k], 0, (n + 1) * sizeof (gint64));
    }
}

/* Adds a strip's time queued and in flight, and its class counts. */
static void
strip_add (const GroupStrips *gs, const Strip *st, const Edges *e, Ramps *wait, Ramps *service, LaneCounts *counts)
{
  ramps_add (gs, st, S_START, e, 1, wait);
  ramps_add (gs, st, S_ISSUE, e, -1, wait);
  ramps_add (gs, st, S_ISSUE, e, 1, service);
  ramps_add (gs, st, S_DONE, e, -1, service);
  counts_add (gs, st, S_START, e, counts->started[st->klass]);
  counts_add (gs, st, S_DONE, e, counts->ended[st->klass]);
}

/* The strips meeting the range (met: n of them, by strip), in place by lane, strips of no lane
 * first: a counting sort, each lane's in strip order. */
static void
sort_by_lane (guint32 *met, guint n, const int *lane_of, guint n_lanes)
{
  g_autofree guint *at = g_new0 (guint, n_lanes + 2);
  g_autofree guint32 *out = g_new (guint32, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    at[lane_of[met[i]] + 2]++;
  for (guint l = 0; l <= n_lanes; l++)
    at[l + 1] += at[l];
  for (guint i = 0; i < n; i++)
    out[at[lane_of[met[i]] + 1]++] = met[i];
  memcpy (met, out, n * sizeof (guint32));
}

static void
fill_strips (const GroupStrips *gs, IochartBins *bins, IochartLanes *lanes, const IochartLaneDevice *device)
{
  guint n = bins->n_columns, n_lanes = bins->n_lanes, n_order = 0;
  int rest = -1;
  g_autofree int *lane_of = g_new (int, MAX (gs->n_strips, 1));
  g_autofree guint32 *order = g_new (guint32, MAX (gs->n_strips, 1));
  g_autofree guint64 *meeting = g_new0 (guint64, n_lanes + 1);
  g_autofree gint64 *count_mem = g_new0 (gint64, 2 * IOCHART_N_CLASSES * (n + 1));
  g_autofree double *rest_wait = NULL, *rest_service = NULL, *scratch = NULL;
  g_autofree ClassCounts *rest_touch = NULL;
  LaneCounts counts;
  Edges e;
  Ramps wait, service;

  if (n_lanes == 0 || gs->n == 0)
    return;
  edges_init (&e, bins);
  /* each strip meeting the range, by lane */
  for (guint j = 0; j < gs->n_strips; j++)
    {
      IochartRequest rq = { 0 };
      guint m;

      rq.process = gs->strips[j].rep;
      rq.klass = gs->strips[j].klass;
      lane_of[j] = iochart_lanes_lane_of_request (lanes, &rq);
      if ((m = strip_meeting (gs, &gs->strips[j], &e)) == 0)
        continue;
      meeting[lane_of[j] >= 0 ? (guint) lane_of[j] : n_lanes] += m;
      order[n_order++] = j;
    }
  /* The lane meeting the most requests (the folded "others", as a rule), when it has so many
   * that a column's searches over the whole device cost less than its own: the device's less
   * the other lanes (and the strips of no lane). */
  for (guint l = 0; l < n_lanes; l++)
    if (meeting[l] > rest_factor * (guint64) n && (rest < 0 || meeting[l] > meeting[rest]))
      rest = (int) l;
  sort_by_lane (order, n_order, lane_of, n_lanes);

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      counts.started[k] = count_mem + (2 * k) * (n + 1);
      counts.ended[k] = count_mem + (2 * k + 1) * (n + 1);
    }
  ramps_init (&wait, n);
  ramps_init (&service, n);
  if (rest >= 0)
    {
      rest_wait = g_new0 (double, n);
      rest_service = g_new0 (double, n);
      scratch = g_new0 (double, 2 * n);
      rest_touch = g_new0 (ClassCounts, n);
    }
  for (guint i = 0; i < n_order;)
    {
      int l = lane_of[order[i]];
      gboolean drawn = l >= 0;

      if (l == rest || (!drawn && rest < 0))
        {
          /* the rest's streams are taken as the device's less the others; no lane's: not drawn */
          while (i < n_order && lane_of[order[i]] == l)
            i++;
          continue;
        }
      for (; i < n_order && lane_of[order[i]] == l; i++)
        strip_add (gs, &gs->strips[order[i]], &e, &wait, &service, &counts);
      {
        double *w = drawn ? bins->lane_wait_ns[l] : scratch, *sv = drawn ? bins->lane_service_ns[l] : scratch + n;

        ramps_finish (&wait, &e, w);
        ramps_finish (&service, &e, sv);
        lane_counts_finish (&counts, n, drawn ? bins->lane_classes[l] : NULL, rest_touch);
        for (guint c = 0; rest >= 0 && c < n; c++)
          {
            rest_wait[c] += w[c];
            rest_service[c] += sv[c];
          }
      }
    }
  if (rest >= 0)
    {
      g_autofree ClassCounts *dev_started = g_new0 (ClassCounts, n + 1);
      g_autofree ClassCounts *dev_ended = g_new0 (ClassCounts, n + 1);

      device->wait (device->data, bins, bins->lane_wait_ns[rest]);
      device->counts (device->data, e.T, n, dev_started, dev_ended);
      for (guint c = 0; c < n; c++)
        {
          double service_all = 0;

          for (guint k = 0; k < IOCHART_N_CLASSES; k++)
            {
              service_all += bins->inflight_ns[k][c];
              if (dev_started[c + 1][k] - dev_ended[c][k] - rest_touch[c][k] > 0)
                bins->lane_classes[rest][c] |= 1u << k;
            }
          bins->lane_wait_ns[rest][c] -= rest_wait[c];
          bins->lane_service_ns[rest][c] = service_all - rest_service[c];
        }
    }
  ramps_clear (&wait);
  ramps_clear (&service);
  edges_clear (&e);
}

static gboolean
same_grouping (IochartGroupBy used_a, const guint32 *group_of_a, guint n_groups_a, IochartGroupBy used,
               const guint32 *group_of, guint n_groups, guint n_processes)
{
  return used_a == used && n_groups_a == n_groups &&
         memcmp (group_of_a, group_of, (n_processes + 1) * sizeof (guint32)) == 0;
}

void
_iochart_lane_index_fill_strips (const IochartLaneIndex *index, IochartBins *bins, IochartLanes *lanes,
                                 const IochartLaneDevice *device)
{
  IochartLaneIndex *self = (IochartLaneIndex *) index;   /* the other grouping's strips: a cache */
  IochartGroupBy used;
  guint n_groups;
  const guint32 *group_of = _iochart_lanes_get_groups (lanes, &used, &n_groups);
  const GroupStrips *gs = index->strips;

  if (same_grouping (gs->used, gs->group_of, gs->n_groups, used, group_of, n_groups, index->n_processes))
    {
      fill_strips (gs, bins, lanes, device);
      return;
    }
  /* built when first asked (the app's lanes are laid out in a worker), kept for the next frames */
  g_mutex_lock (&self->lock);
  gs = self->other_strips;
  if (gs == NULL || !same_grouping (gs->used, gs->group_of, gs->n_groups, used, group_of, n_groups, index->n_processes))
    {
      group_strips_free (self->other_strips);
      self->other_strips = group_strips_new (iochart_lanes_get_capture (lanes), index->device, used, group_of,
                                             n_groups);
    }
  fill_strips (self->other_strips, bins, lanes, device);
  g_mutex_unlock (&self->lock);
}
