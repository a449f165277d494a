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

#define MAX_DIGIT_BITS 13

/* Sorts keys[0..m) (with idx alongside) by least significant digit first, in as few passes of at
 * most MAX_DIGIT_BITS as max_key needs. tmp_* hold m each; the sorted result ends in keys and idx. */
static void
radix_sort (guint64 **keys, guint32 **idx, guint64 **tmp_keys, guint32 **tmp_idx, gsize m, guint64 max_key)
{
  guint bits = max_key == 0 ? 0 : 64 - __builtin_clzll (max_key);
  guint passes = (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
  guint digit = passes ? (bits + passes - 1) / passes : 1;
  guint64 mask = (G_GUINT64_CONSTANT (1) << digit) - 1;
  g_autofree gsize *count = g_new0 (gsize, (gsize) MAX (passes, 1) << digit);

  for (gsize j = 0; j < m; j++)
    for (guint d = 0; d < passes; d++)
      count[((gsize) d << digit) + (((*keys)[j] >> (d * digit)) & mask)]++;
  for (guint d = 0; d < passes; d++)
    {
      gsize *c = count + ((gsize) d << digit), sum = 0;
      guint64 *k = *keys, *tk = *tmp_keys;
      guint32 *x = *idx, *tx = *tmp_idx;

      for (gsize b = 0; b <= mask; b++)
        {
          gsize here = c[b];
          c[b] = sum;
          sum += here;
        }
      for (gsize j = 0; j < m; j++)
        {
          gsize to = c[(k[j] >> (d * digit)) & mask]++;
          tk[to] = k[j];
          tx[to] = x[j];
        }
      *tmp_keys = k, *keys = tk;
      *tmp_idx = x, *idx = tx;
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

/* Counts and sums per group of every grouping, and the ranks each group looks for. */
static void
walk_init (const gint64 *values, gsize n, const gint32 *groups, IochartLatencyGrouping *groupings,
           guint n_groupings, GroupWalk **walks)
{
  static const guint pcts[] = { 50, 95, 99 };

  for (guint g = 0; g < n_groupings; g++)
    memset (walks[g], 0, groupings[g].n_groups * sizeof (GroupWalk));
  for (gsize i = 0; i < n; i++)
    if (values[i] != IOCHART_TIME_UNKNOWN)
      for (guint g = 0; g < n_groupings; g++)
        {
          gint32 k = groups[i * n_groupings + g];

          if (k >= 0)
            {
              walks[g][k].n++;
              walks[g][k].sum += (guint64) values[i];
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
      }
}

#define WALK_PREFETCH 16

/* One pass over the values in sorted order: each group of each grouping takes the value at its
 * ranks. */
static void
walk_sorted (const guint64 *keys, const guint32 *idx, gsize m, gint64 vmin, const gint32 *groups,
             IochartLatencyGrouping *groupings, guint n_groupings, IochartLatencyKind kind, GroupWalk **walks)
{
  g_autofree guint *walked = g_new (guint, MAX (n_groupings, 1));
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
          set_stat (&groupings[g].rows[k].kind[kind], w->next, (gint64) ((guint64) vmin + keys[w->at[w->next] - 1]));
    }
  for (gsize j = 0; j < m; j++)
    {
      const gint32 *of = &groups[(gsize) idx[j] * n_groupings];

      /* the sorted order visits the requests' groups at random: ask for them well before */
      if (j + WALK_PREFETCH < m)
        __builtin_prefetch (&groups[(gsize) idx[j + WALK_PREFETCH] * n_groupings]);

      for (guint i = 0; i < n_walked; i++)
        {
          guint g = walked[i];
          GroupWalk *w;
          guint64 c;

          if (of[g] < 0)
            continue;
          w = &walks[g][of[g]];
          c = ++w->seen;
          if (c != w->want)
            continue;
          for (; w->at[w->next] == c; w->next++)
            set_stat (&groupings[g].rows[of[g]].kind[kind], w->next, (gint64) ((guint64) vmin + keys[j]));
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

void
_iochart_latency_compute_values (const gint64 *values, gsize n, const gint32 *groups,
                                 IochartLatencyGrouping *groupings, guint n_groupings, IochartLatencyKind kind)
{
  g_autofree guint64 *key_buf = g_new (guint64, MAX (n, 1) * 2);
  g_autofree guint32 *idx_buf = g_new (guint32, MAX (n, 1) * 2);
  guint64 *keys = key_buf, *tmp_keys = key_buf + MAX (n, 1);
  guint32 *idx = idx_buf, *tmp_idx = idx_buf + MAX (n, 1);
  g_autofree GroupWalk **walks = g_new (GroupWalk *, MAX (n_groupings, 1));
  gint64 vmin = G_MAXINT64, vmax = G_MININT64;
  gsize m = 0;

  g_return_if_fail (n <= G_MAXUINT32);
  for (guint g = 0; g < n_groupings; g++)
    walks[g] = g_new (GroupWalk, MAX (groupings[g].n_groups, 1));
  for (gsize i = 0; i < n; i++)
    if (values[i] != IOCHART_TIME_UNKNOWN)
      {
        vmin = MIN (vmin, values[i]);
        vmax = MAX (vmax, values[i]);
      }
  for (gsize i = 0; i < n; i++)
    if (values[i] != IOCHART_TIME_UNKNOWN)
      {
        keys[m] = (guint64) values[i] - (guint64) vmin;
        idx[m++] = i;
      }
  if (m > 0)
    radix_sort (&keys, &idx, &tmp_keys, &tmp_idx, m, (guint64) vmax - (guint64) vmin);
  walk_init (values, n, groups, groupings, n_groupings, walks);
  walk_sorted (keys, idx, m, vmin, groups, groupings, n_groupings, kind, walks);
  for (guint g = 0; g < n_groupings; g++)
    g_free (walks[g]);
}

void
_iochart_latency_compute_all (const gint64 *values, gsize n, IochartLatencyGrouping *groupings, guint n_groupings)
{
  g_autofree IochartLatencyGrouping *distinct = g_new (IochartLatencyGrouping, MAX (n_groupings, 1));
  g_autofree gint32 *groups = NULL;
  guint n_distinct = 0;

  for (guint g = 0; g < n_groupings; g++)
    if (same_as_earlier (groupings, g, n) == NULL)
      distinct[n_distinct++] = groupings[g];
  /* a request's groups side by side: the sorted walk visits requests in no useful order */
  groups = g_new (gint32, MAX (n, 1) * MAX (n_distinct, 1));
  for (gsize i = 0; i < n; i++)
    for (guint g = 0; g < n_distinct; g++)
      groups[i * n_distinct + g] = distinct[g].group[i];
  for (guint kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
    _iochart_latency_compute_values (values + kind * n, n, groups, distinct, n_distinct, kind);
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
