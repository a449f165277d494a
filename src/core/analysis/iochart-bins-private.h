/* iochart-bins-private.h: what the bin index shares with the bins' walk, so that the sector map
 * answered from the index is the walk's, cell for cell */
#pragma once

#include "iochart-bins.h"

G_BEGIN_DECLS

/* Every class (IochartBins's sector_classes). */
#define IOCHART_BINS_ALL_CLASSES ((1u << IOCHART_N_CLASSES) - 1)

/* iochart_columns_spread() into up to three arrays at once (x and z may be NULL), each by its
 * weight, inline: the walks spread a request four times, and a call cost as much as the one
 * column most requests fall in; a request's service goes into throughput, in flight and its
 * lane, over the same columns. */
static inline void
_iochart_columns_spread3 (guint n_columns, gint64 from_ns, double ns_per_column, gint64 a, gint64 b,
                          double *x, double wx, double *y, double wy, double *z, double wz)
{
  double ra = (double) (a - from_ns), rb = (double) (b - from_ns);
  gint64 c0, c1;

  if (rb <= 0 || ra >= ns_per_column * n_columns || b <= a)
    return;
  ra = MAX (ra, 0);
  rb = MIN (rb, ns_per_column * n_columns);
  c0 = (gint64) (ra / ns_per_column);
  c1 = MIN ((gint64) (rb / ns_per_column), (gint64) n_columns - 1);
  for (gint64 c = c0; c <= c1; c++)
    {
      double lo = MAX (ra, c * ns_per_column), hi = MIN (rb, (c + 1) * ns_per_column);

      if (hi > lo)
        {
          if (x)
            x[c] += wx * (hi - lo);
          y[c] += wy * (hi - lo);
          if (z)
            z[c] += wz * (hi - lo);
        }
    }
}

static inline void
_iochart_columns_spread (double *cols, guint n_columns, gint64 from_ns, double ns_per_column,
                         gint64 a, gint64 b, double weight)
{
  _iochart_columns_spread3 (n_columns, from_ns, ns_per_column, a, b, NULL, 0, cols, weight, NULL, 0);
}

/* The sector map's band is decided on at most about this many requests of the range. */
#define IOCHART_SECTOR_SAMPLE 8192

typedef struct {
  guint64 start, end;
} IochartSectorSpan;

/* A request's sample level, from its capture index alone (so that walking the requests in any
 * order, or asking an index, takes the same sample): the leading zero bits of a hash of it. A
 * range of `seen` requests samples those with a level of at least
 * _iochart_sector_sample_level (seen): about half of each level is left in the next. */
static inline guint
_iochart_sector_level (guint32 rec)
{
  guint32 x = rec + 0x9e3779b9u;

  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x ? (guint) __builtin_clz (x) : 32;
}

static inline guint
_iochart_sector_sample_level (guint64 seen)
{
  guint level = 0;

  while (seen > ((guint64) IOCHART_SECTOR_SAMPLE << level))
    level++;
  return level;
}

/* The sector map's cells count every request up to this many in the range; over it, those of a
 * sample level (each as 2^level of them), so that a frame of a 10M-request range costs a sample
 * found by searches, not a pass over every request (the map only shows where I/O went). */
#define IOCHART_SECTOR_CELLS (1u << 18)
/* That many, unless a test set fewer (_iochart_bins_set_sector_cells). */
extern guint _iochart_sector_cells;

static inline guint
_iochart_sector_cells_level (guint64 seen)
{
  guint level = 0;

  while (seen > ((guint64) _iochart_sector_cells << level))
    level++;
  return level;
}

/* Sets bins' band from the least start and greatest end of the `seen` requests of the range
 * (data requests issued in it, or of no known issue) and the sample of them (reordered), and
 * the level of its cells' sample. */
void     _iochart_bins_set_band     (IochartBins *bins,
                                     guint64      min,
                                     guint64      max,
                                     guint64      seen,
                                     GArray      *sample);
/* The sector map's row of sector, once the band is set. */
static inline guint
_iochart_bins_sector_row (const IochartBins *bins, guint64 sector)
{
  guint row = (guint) ((double) (sector - MIN (sector, bins->min_sector)) /
                       (bins->max_sector - bins->min_sector + 1) * bins->sector_rows);

  /* outliers of a trimmed band sit at its edges */
  return MIN (row, bins->sector_rows - 1);
}

/* Column of ts in bins, or -1 outside its range. */
static inline int
_iochart_bins_column_of (const IochartBins *bins, gint64 ts)
{
  double r = (double) (ts - bins->from_ns) / bins->ns_per_column;

  if (ts < bins->from_ns || ts > bins->to_ns)
    return -1;
  return MIN ((int) r, (int) bins->n_columns - 1);
}

/* Zeroes the sector map's cells of columns [from, to) (the classes' own; the bins an index
 * answers leave them to the sector index, which counts a block of columns at a time). */
void     _iochart_bins_clear_sectors (IochartBins *bins,
                                      guint        from,
                                      guint        to);

/* Counts rq (capture request rec) in the sector map as the walk does (its band set). */
void     _iochart_bins_add_sector   (IochartBins          *bins,
                                     const IochartRequest *rq,
                                     guint32               rec);

/* Tests: how many requests of a range the sector map's cells count before they sample (0: the
 * default, IOCHART_SECTOR_CELLS). */
void     _iochart_bins_set_sector_cells (guint n);

/* iochart_bins_new_full() in two parts, so that a caller can run other analyses beside the
 * walk: the bins without lanes, then _walk (band, latency, sector map, throughput, IOPS, in
 * flight and the lanes' cells, in one pass over the requests). */
IochartBins *_iochart_bins_new_empty   (gint64              from_ns,
                                        gint64              to_ns,
                                        guint               n_columns,
                                        guint               sector_rows,
                                        IochartLatencyKind  latency_kind);
void         _iochart_bins_walk        (IochartBins        *bins,
                                        IochartCapture     *capture,
                                        int                 device,
                                        IochartLanes       *lanes);

/* iochart_bins_latency_bucket() by its definition, through log2 (tests) */
guint        _iochart_bins_latency_bucket_log2 (gint64 latency_ns);

/* A request's life as the bins see it (first of queue, insert or issue, no later than the
 * issue; the issue; the completion); FALSE when it has none: no issue or completion. */
static inline gboolean
_iochart_bins_request_life (const IochartRequest *rq, gint64 *start, gint64 *issue, gint64 *done)
{
  gboolean q = rq->queue_ns != IOCHART_TIME_UNKNOWN, i = rq->insert_ns != IOCHART_TIME_UNKNOWN;

  *start = q ? rq->queue_ns : i ? rq->insert_ns : rq->issue_ns;
  *issue = rq->issue_ns != IOCHART_TIME_UNKNOWN ? rq->issue_ns : *start;
  *done = rq->complete_ns;
  if (*done == IOCHART_TIME_UNKNOWN || *issue == IOCHART_TIME_UNKNOWN || *done < *issue)
    return FALSE;
  if (*start == IOCHART_TIME_UNKNOWN || *start > *issue)
    *start = *issue;
  return TRUE;
}

/* First of v[lo, hi) that is >= t, galloping from lo: the indexes' per-column searches are asked
 * in order, and the next answer is near the last one when zoomed in. */
static inline guint
_iochart_gallop_i64 (const gint64 *v, guint lo, guint hi, gint64 t)
{
  guint step = 1;

  while (lo + step - 1 < hi && v[lo + step - 1] < t)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (lo + step - 1, hi);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Where the next column's search will likely end, to ask memory for early: as far on from u as u
 * from the last column's answer (a range's columns are of one width); n when not past u and
 * before n. On a wide frame of a large capture each column's search lands on lines no other
 * column touched, and its first probe would wait on memory. */
static inline guint
_iochart_next_guess (guint last, guint u, guint n)
{
  guint next = u + (u - last);

  return next > u && next < n ? next : n;
}

G_END_DECLS
