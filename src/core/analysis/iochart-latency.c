/* iochart-latency.c: exact latency percentiles per group, without sorting every group */
#include <string.h>
#include "iochart-latency-private.h"

static const char *const kind_names[IOCHART_N_LATENCY_KINDS] = { "q2i", "i2d", "d2c", "q2c" };

const char *
iochart_latency_kind_name (IochartLatencyKind kind)
{
  return kind < IOCHART_N_LATENCY_KINDS ? kind_names[kind] : "?";
}

gboolean
iochart_latency_kind_from_name (const char *name, IochartLatencyKind *kind)
{
  for (guint k = 0; k < IOCHART_N_LATENCY_KINDS; k++)
    if (g_ascii_strcasecmp (name, kind_names[k]) == 0)
      {
        *kind = k;
        return TRUE;
      }
  return FALSE;
}

gint64
iochart_latency_of (const IochartRequest *rq, IochartLatencyKind kind)
{
  return _iochart_latency_of (rq, kind);
}

/* Nearest rank, as btt and fio report percentiles: the 1-based position in sorted order. */
static guint64
rank (guint64 n, guint pct)
{
  return (n * pct + 99) / 100;
}

/* Requests whose groups are the same in every grouping (a process's in its lane, class and device,
 * mostly) form a cell: each value is counted once into its cell, not once into each grouping, and
 * the sorted walk finds its groups in a small table. */
typedef struct {
  guint32 *cell_of;   /* request -> cell */
  gint32  *groups;    /* cell c's group in grouping g: groups[c * n_groupings + g] */
  guint    n_cells;
  guint    n_groupings;
} Cells;

static void
cells_clear (Cells *c)
{
  g_free (c->cell_of);
  g_free (c->groups);
}

/* Distinct 64-bit keys numbered in order of first appearance, in an open-addressed table grown to
 * stay at most half full. */
typedef struct {
  guint64 *key;
  guint32 *id;    /* id + 1, 0 empty */
  gsize    cap;
  guint32  n;
} KeyIds;

static inline gsize
key_ids_slot (const KeyIds *t, guint64 key)
{
  gsize s = (gsize) ((key * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & (t->cap - 1);

  while (t->id[s] != 0 && t->key[s] != key)
    s = (s + 1) & (t->cap - 1);
  return s;
}

static void
key_ids_grow (KeyIds *t)
{
  KeyIds old = *t;

  t->cap = old.cap ? old.cap * 2 : 256;
  t->key = g_new (guint64, t->cap);
  t->id = g_new0 (guint32, t->cap);
  for (gsize s = 0; s < old.cap; s++)
    if (old.id[s] != 0)
      {
        gsize to = key_ids_slot (t, old.key[s]);

        t->key[to] = old.key[s];
        t->id[to] = old.id[s];
      }
  g_free (old.key);
  g_free (old.id);
}

/* Numbers keys[0..n) in place (a run of equal keys, a process's requests mostly, costs one
 * look) and returns how many differ; first[id] is where each first appeared. */
static guint32
key_ids_number (guint64 *keys, gsize n, GArray *first)
{
  KeyIds t = { 0 };
  guint64 prev_key = 0;
  guint32 prev_id = G_MAXUINT32;

  key_ids_grow (&t);
  g_array_set_size (first, 0);
  for (gsize i = 0; i < n; i++)
    {
      guint64 k = keys[i];
      guint32 id;
      gsize s;

      if (prev_id != G_MAXUINT32 && k == prev_key)
        {
          keys[i] = prev_id;
          continue;
        }
      s = key_ids_slot (&t, k);
      if (t.id[s] != 0)
        id = t.id[s] - 1;
      else
        {
          t.key[s] = k;
          t.id[s] = ++t.n;
          id = t.n - 1;
          g_array_append_val (first, i);
          if (2 * (gsize) t.n > t.cap)
            key_ids_grow (&t);
        }
      prev_key = k;
      prev_id = keys[i] = id;
    }
  g_free (t.key);
  g_free (t.id);
  return t.n;
}

/* The cells from the groupings' arrays: as many groupings as fit in 64 bits with the cells so far
 * packed into a key per request and the keys numbered, until every grouping is in. */
static void
cells_init (Cells *c, const IochartLatencyGrouping *groupings, guint n_groupings, gsize n)
{
  g_autofree guint64 *keys = g_new0 (guint64, MAX (n, 1));
  g_autoptr(GArray) first = g_array_new (FALSE, FALSE, sizeof (gsize));
  guint32 n_cells = 1;

  c->n_groupings = n_groupings;
  for (guint g = 0; g < n_groupings;)
    {
      guint used = g_bit_storage (n_cells - 1);

      for (; g < n_groupings && used + g_bit_storage (groupings[g].n_groups) <= 64; g++)
        {
          const gint32 *group = groupings[g].group;

          for (gsize i = 0; i < n; i++)
            keys[i] |= (guint64) (guint32) (group[i] + 1) << used;
          used += g_bit_storage (groupings[g].n_groups);
        }
      n_cells = key_ids_number (keys, n, first);
    }
  if (n == 0)
    n_cells = 0;
  c->n_cells = n_cells;
  c->cell_of = g_new (guint32, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    c->cell_of[i] = (guint32) keys[i];
  c->groups = g_new (gint32, MAX ((gsize) n_cells * n_groupings, 1));
  for (guint32 cell = 0; cell < n_cells; cell++)
    for (guint g = 0; g < n_groupings; g++)
      c->groups[(gsize) cell * n_groupings + g] = groupings[g].group[g_array_index (first, gsize, cell)];
}

#define MAX_DIGIT_BITS 13

/* Sorts keys[0..m) less least (which it subtracts) with pay alongside by least significant digit
 * first, in as few passes of at most MAX_DIGIT_BITS as max_key (the greatest less the least)
 * needs, every pass's counts from one look. tmp_* hold m each; the sorted result ends in keys and
 * pay. */
static void
radix_sort (guint64 **keys, guint32 **pay, guint64 **tmp_keys, guint32 **tmp_pay, gsize m, guint64 least,
            guint64 max_key)
{
  guint bits = max_key == 0 ? 0 : 64 - __builtin_clzll (max_key);
  guint passes = (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
  guint digit = passes ? (bits + passes - 1) / passes : 1;
  guint64 mask = (G_GUINT64_CONSTANT (1) << digit) - 1;
  g_autofree guint32 *count = g_new0 (guint32, (gsize) MAX (passes, 1) << digit);

  for (gsize j = 0; j < m; j++)
    {
      guint64 k = (*keys)[j] - least;

      (*keys)[j] = k;
      for (guint d = 0; d < passes; d++)
        count[((gsize) d << digit) + ((k >> (d * digit)) & mask)]++;
    }
  for (guint d = 0; d < passes; d++)
    {
      guint32 *c = count + ((gsize) d << digit), sum = 0;
      guint64 *k = *keys, *tk = *tmp_keys;
      guint32 *x = *pay, *tx = *tmp_pay;

      if (c[(k[0] >> (d * digit)) & mask] == m)
        continue;   /* every key has this digit: nothing moves */
      for (gsize b = 0; b <= mask; b++)
        {
          guint32 here = c[b];
          c[b] = sum;
          sum += here;
        }
      for (gsize j = 0; j < m; j++)
        {
          guint32 to = c[(k[j] >> (d * digit)) & mask]++;
          tk[to] = k[j];
          tx[to] = x[j];
        }
      *tmp_keys = k, *keys = tk;
      *tmp_pay = x, *pay = tx;
    }
}

/* Per group: the positions in sorted order (1-based) at which min, p50, p95, p99 and max are
 * reached, and a 0 that no position matches after them. */
typedef struct {
  guint64 seen, want;  /* want: at[next], the position the walk waits for */
  guint64 n;
  guint64 sum;        /* wraps as two's complement, where a signed sum's overflow is undefined */
  guint64 at[6];
  guint   next;
  IochartLatencyStats *st;   /* where the figures go */
} GroupWalk;

static void
set_stat (IochartLatencyStats *st, guint which, gint64 v)
{
  switch (which)
    {
    case 0: st->min_ns = v; break;
    case 1: st->p50_ns = v; break;
    case 2: st->p95_ns = v; break;
    case 3: st->p99_ns = v; break;
    default: st->max_ns = v; break;
    }
}

/* One look at every value: the least and the greatest, each cell's count and sum, and the known
 * values as keys with their cells. Returns how many are known. */
static gsize
gather (const gint64 *values, gsize n, const Cells *cells, guint64 *cell_n, guint64 *cell_sum, guint64 *keys,
        guint32 *pay, gint64 *vmin, gint64 *vmax)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  gsize m = 0;

  for (gsize i = 0; i < n; i++)
    {
      gint64 v = values[i];
      guint32 c = cells->cell_of[i];

      if (v == IOCHART_TIME_UNKNOWN)
        continue;
      lo = MIN (lo, v);
      hi = MAX (hi, v);
      cell_n[c]++;
      cell_sum[c] += (guint64) v;
      keys[m] = (guint64) v;
      pay[m++] = c;
    }
  *vmin = lo;
  *vmax = hi;
  return m;
}

/* Each group's count and sum from its cells', and the ranks it looks for. */
static void
walk_init (const Cells *cells, const guint64 *cell_n, const guint64 *cell_sum, IochartLatencyGrouping *groupings,
           guint n_groupings, IochartLatencyKind kind, GroupWalk **walks)
{
  static const guint pcts[] = { 50, 95, 99 };

  for (guint c = 0; c < cells->n_cells; c++)
    for (guint g = 0; g < n_groupings; g++)
      {
        gint32 k = cells->groups[(gsize) c * n_groupings + g];

        if (k >= 0)
          {
            walks[g][k].n += cell_n[c];
            walks[g][k].sum += cell_sum[c];
          }
      }
  for (guint g = 0; g < n_groupings; g++)
    for (guint k = 0; k < groupings[g].n_groups; k++)
      {
        GroupWalk *w = &walks[g][k];

        w->at[0] = 1;
        for (guint p = 0; p < G_N_ELEMENTS (pcts); p++)
          w->at[1 + p] = rank (w->n, pcts[p]);
        w->at[4] = w->n;
        w->at[5] = 0;
        w->want = 1;
        w->st = &groupings[g].rows[k].kind[kind];
      }
}

/* One pass over the values in sorted order: each group of each grouping takes the value at its
 * ranks. */
static void
walk_sorted (const guint64 *keys, const guint32 *pay, gsize m, gint64 vmin, const Cells *cells,
             IochartLatencyGrouping *groupings, guint n_groupings, IochartLatencyKind kind, GroupWalk **walks)
{
  g_autofree guint *walked = g_new (guint, MAX (n_groupings, 1));
  g_autofree GroupWalk **cell_walks = NULL;
  guint n_walked = 0;

  /* a group that holds every value (the device of a one-device capture) reads its ranks off the
   * sorted values: its grouping needs no walk */
  for (guint g = 0; g < n_groupings; g++)
    {
      guint k = 0;

      while (k < groupings[g].n_groups && walks[g][k].n != m)
        k++;
      if (m == 0 || k == groupings[g].n_groups)
        walked[n_walked++] = g;
      else
        for (GroupWalk *w = &walks[g][k]; w->next < 5; w->next++)
          set_stat (w->st, w->next, (gint64) ((guint64) vmin + keys[w->at[w->next] - 1]));
    }
  /* each cell's groups in the walked groupings, found once */
  cell_walks = g_new (GroupWalk *, MAX ((gsize) cells->n_cells * n_walked, 1));
  for (guint c = 0; c < cells->n_cells; c++)
    for (guint i = 0; i < n_walked; i++)
      {
        gint32 k = cells->groups[(gsize) c * n_groupings + walked[i]];

        cell_walks[(gsize) c * n_walked + i] = k < 0 ? NULL : &walks[walked[i]][k];
      }
  for (gsize j = 0; j < m; j++)
    {
      GroupWalk *const *of = &cell_walks[(gsize) pay[j] * n_walked];

      for (guint i = 0; i < n_walked; i++)
        {
          GroupWalk *w = of[i];
          guint64 c;

          if (w == NULL)
            continue;
          c = ++w->seen;
          if (c != w->want)
            continue;
          for (; w->at[w->next] == c; w->next++)
            set_stat (w->st, w->next, (gint64) ((guint64) vmin + keys[j]));
          w->want = w->at[w->next];
        }
    }
  for (guint g = 0; g < n_groupings; g++)
    for (guint k = 0; k < groupings[g].n_groups; k++)
      {
        IochartLatencyStats *st = &groupings[g].rows[k].kind[kind];

        st->n = walks[g][k].n;
        if (st->n == 0)
          st->min_ns = st->avg_ns = st->p50_ns = st->p95_ns = st->p99_ns = st->max_ns = IOCHART_TIME_UNKNOWN;
        else
          st->avg_ns = (gint64) walks[g][k].sum / (gint64) st->n;
      }
}

/* An earlier grouping that puts every request in the same group as grouping g does (on a
 * capture of one device, device x class is class), or NULL. */
static IochartLatencyGrouping *
same_as_earlier (IochartLatencyGrouping *groupings, guint g, gsize n)
{
  for (guint e = 0; e < g; e++)
    if (groupings[e].n_groups == groupings[g].n_groups &&
        memcmp (groupings[e].group, groupings[g].group, n * sizeof *groupings[g].group) == 0)
      return &groupings[e];
  return NULL;
}

static void
compute_kind (const gint64 *values, gsize n, const Cells *cells, IochartLatencyGrouping *groupings,
              guint n_groupings, IochartLatencyKind kind)
{
  g_autofree guint64 *key_buf = g_new (guint64, MAX (n, 1) * 2);
  g_autofree guint32 *pay_buf = g_new (guint32, MAX (n, 1) * 2);
  g_autofree guint64 *cell_n = g_new0 (guint64, MAX (cells->n_cells, 1) * 2);
  guint64 *cell_sum = cell_n + MAX (cells->n_cells, 1);
  guint64 *keys = key_buf, *tmp_keys = key_buf + MAX (n, 1);
  guint32 *pay = pay_buf, *tmp_pay = pay_buf + MAX (n, 1);
  g_autofree GroupWalk **walks = g_new (GroupWalk *, MAX (n_groupings, 1));
  gint64 vmin, vmax;
  gsize m;

  for (guint g = 0; g < n_groupings; g++)
    walks[g] = g_new0 (GroupWalk, MAX (groupings[g].n_groups, 1));
  m = gather (values, n, cells, cell_n, cell_sum, keys, pay, &vmin, &vmax);
  if (m > 0)
    radix_sort (&keys, &pay, &tmp_keys, &tmp_pay, m, (guint64) vmin, (guint64) vmax - (guint64) vmin);
  walk_init (cells, cell_n, cell_sum, groupings, n_groupings, kind, walks);
  walk_sorted (keys, pay, m, vmin, cells, groupings, n_groupings, kind, walks);
  for (guint g = 0; g < n_groupings; g++)
    g_free (walks[g]);
}

void
_iochart_latency_compute_values (const gint64 *values, gsize n, IochartLatencyGrouping *groupings,
                                 guint n_groupings, IochartLatencyKind kind)
{
  Cells cells;

  g_return_if_fail (n <= G_MAXUINT32);
  cells_init (&cells, groupings, n_groupings, n);
  compute_kind (values, n, &cells, groupings, n_groupings, kind);
  cells_clear (&cells);
}

/* Above this many requests a second thread takes kinds too: on a large capture the work after
 * loading is the critical path, and the other core has little else then. */
#define KINDS_THREAD_MIN 16384

typedef struct {
  const gint64           *values;
  gsize                   n;
  const Cells            *cells;
  IochartLatencyGrouping *groupings;
  guint                   n_groupings;
  gint                    next_kind;   /* atomic: the next kind to take */
} KindJobs;

/* Takes kinds until none is left; each fills only its own kind's figures. */
static gpointer
kind_jobs_run (gpointer data)
{
  KindJobs *j = data;
  gint kind;

  while ((kind = g_atomic_int_add (&j->next_kind, 1)) < IOCHART_N_LATENCY_KINDS)
    compute_kind (j->values + kind * j->n, j->n, j->cells, j->groupings, j->n_groupings, kind);
  return NULL;
}

void
_iochart_latency_compute_all (const gint64 *values, gsize n, IochartLatencyGrouping *groupings, guint n_groupings)
{
  g_autofree IochartLatencyGrouping *distinct = g_new (IochartLatencyGrouping, MAX (n_groupings, 1));
  guint n_distinct = 0;
  Cells cells;

  g_return_if_fail (n <= G_MAXUINT32);
  for (guint g = 0; g < n_groupings; g++)
    if (same_as_earlier (groupings, g, n) == NULL)
      distinct[n_distinct++] = groupings[g];
  cells_init (&cells, distinct, n_distinct, n);
  {
    KindJobs jobs = { values, n, &cells, distinct, n_distinct, 0 };
    GThread *side = n >= KINDS_THREAD_MIN ? g_thread_try_new ("iochart-latency", kind_jobs_run, &jobs, NULL) : NULL;

    kind_jobs_run (&jobs);
    if (side != NULL)
      g_thread_join (side);
  }
  cells_clear (&cells);
  for (guint g = 0; g < n_groupings; g++)
    {
      IochartLatencyGrouping *same = same_as_earlier (groupings, g, n);

      if (same != NULL && same->n_groups > 0)
        memcpy (groupings[g].rows, same->rows, same->n_groups * sizeof *same->rows);
    }
}

void
iochart_latency_compute (IochartCapture *capture, IochartLatencyGrouping *groupings, guint n_groupings)
{
  gsize n = iochart_capture_get_n_requests (capture);
  g_autofree gint64 *values = g_new (gint64, MAX (n, 1) * IOCHART_N_LATENCY_KINDS);

  /* one unpacking of each request for all kinds: it costs more than the rest of the work */
  for (gsize i = 0; i < n; i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (capture, i, &rq);
      for (guint kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
        values[kind * n + i] = _iochart_latency_of (&rq, kind);
    }
  _iochart_latency_compute_all (values, n, groupings, n_groupings);
}
