/* iochart-latency.c: exact latency percentiles per group, without sorting every group */
#include <string.h>
#include "iochart-latency.h"

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

static gint64
span (gint64 a, gint64 b)
{
  return a == IOCHART_TIME_UNKNOWN || b == IOCHART_TIME_UNKNOWN || b < a ? IOCHART_TIME_UNKNOWN : b - a;
}

gint64
iochart_latency_of (const IochartRequest *rq, IochartLatencyKind kind)
{
  if (rq->issues == 0)
    return IOCHART_TIME_UNKNOWN;
  switch (kind)
    {
    case IOCHART_LATENCY_Q2I: return span (rq->queue_ns, rq->insert_ns);
    case IOCHART_LATENCY_I2D: return span (rq->insert_ns, rq->issue_ns);
    case IOCHART_LATENCY_D2C: return span (rq->issue_ns, rq->complete_ns);
    case IOCHART_LATENCY_Q2C: return span (rq->queue_ns, rq->complete_ns);
    default: return IOCHART_TIME_UNKNOWN;
    }
}

/* Puts the k-th smallest of v[0..n) at v[k], smaller ones before it (Hoare's selection). */
static void
select_kth (gint64 *v, gsize n, gsize k)
{
  gsize lo = 0, hi = n - 1;

  while (lo < hi)
    {
      gint64 a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi];
      gint64 pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
      gsize i = lo, j = hi;

      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              gint64 t = v[i];
              v[i] = v[j];
              v[j] = t;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      if (k <= j)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        return;
    }
}

/* Nearest rank, as btt and fio report percentiles. */
static gsize
rank (gsize n, guint pct)
{
  return (n * pct + 99) / 100 - 1;
}

static void
stats_of (gint64 *v, gsize n, IochartLatencyStats *st)
{
  gint64 sum = 0;
  static const guint pcts[] = { 50, 95, 99 };
  gint64 *out[] = { &st->p50_ns, &st->p95_ns, &st->p99_ns };
  gsize from = 0;

  st->n = n;
  if (n == 0)
    {
      st->min_ns = st->avg_ns = st->p50_ns = st->p95_ns = st->p99_ns = st->max_ns = IOCHART_TIME_UNKNOWN;
      return;
    }
  st->min_ns = st->max_ns = v[0];
  for (gsize i = 0; i < n; i++)
    {
      sum += v[i];
      st->min_ns = MIN (st->min_ns, v[i]);
      st->max_ns = MAX (st->max_ns, v[i]);
    }
  st->avg_ns = sum / (gint64) n;
  /* each rank is at or above the last, so each selection works on what is above the last */
  for (guint p = 0; p < G_N_ELEMENTS (pcts); p++)
    {
      gsize k = rank (n, pcts[p]);

      select_kth (v + from, n - from, k - from);
      *out[p] = v[k];
      from = k;
    }
}

static void
compute_grouping (const gint64 *values, gsize n, IochartLatencyGrouping *g, IochartLatencyKind kind,
                  gint64 *scratch, gsize *offsets)
{
  memset (offsets, 0, (g->n_groups + 1) * sizeof (gsize));
  for (gsize i = 0; i < n; i++)
    if (values[i] != IOCHART_TIME_UNKNOWN && g->group[i] >= 0)
      offsets[g->group[i] + 1]++;
  for (guint k = 0; k < g->n_groups; k++)
    offsets[k + 1] += offsets[k];
  {
    g_autofree gsize *fill = g_memdup2 (offsets, g->n_groups * sizeof (gsize));

    for (gsize i = 0; i < n; i++)
      if (values[i] != IOCHART_TIME_UNKNOWN && g->group[i] >= 0)
        scratch[fill[g->group[i]]++] = values[i];
  }
  for (guint k = 0; k < g->n_groups; k++)
    stats_of (scratch + offsets[k], offsets[k + 1] - offsets[k], &g->rows[k].kind[kind]);
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
iochart_latency_compute (IochartCapture *capture, IochartLatencyGrouping *groupings, guint n_groupings)
{
  gsize n = iochart_capture_get_n_requests (capture), max_groups = 0;
  g_autofree gint64 *values = g_new (gint64, MAX (n, 1) * IOCHART_N_LATENCY_KINDS);
  g_autofree gint64 *scratch = g_new (gint64, MAX (n, 1));
  g_autofree gsize *offsets = NULL;

  for (guint g = 0; g < n_groupings; g++)
    max_groups = MAX (max_groups, groupings[g].n_groups);
  offsets = g_new (gsize, max_groups + 1);
  /* one unpacking of each request for all kinds: it costs more than the rest of the work */
  for (gsize i = 0; i < n; i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (capture, i, &rq);
      for (guint kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
        values[kind * n + i] = iochart_latency_of (&rq, kind);
    }
  for (guint g = 0; g < n_groupings; g++)
    {
      IochartLatencyGrouping *same = same_as_earlier (groupings, g, n);

      if (same != NULL)
        {
          memcpy (groupings[g].rows, same->rows, same->n_groups * sizeof *same->rows);
          continue;
        }
      for (guint kind = 0; kind < IOCHART_N_LATENCY_KINDS; kind++)
        compute_grouping (values + kind * n, n, &groupings[g], kind, scratch, offsets);
    }
}
