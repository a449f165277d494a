/* iochart-bins.c: one pass over the requests, spread over pixel columns */
#include <math.h>
#include <string.h>
#include "iochart-bins-private.h"
#include "iochart-capture-private.h"
#include "iochart-latency-private.h"

static gboolean
known (gint64 ts)
{
  return ts != IOCHART_TIME_UNKNOWN;
}

void
iochart_columns_spread (double *cols, guint n_columns, gint64 from_ns, double ns_per_column,
                        gint64 a, gint64 b, double weight)
{
  _iochart_columns_spread (cols, n_columns, from_ns, ns_per_column, a, b, weight);
}

#define column_of _iochart_bins_column_of

/* The bucket by its definition: IOCHART_LAT_SUB a doubling from 2^IOCHART_LAT_MIN_LOG2 ns. */
guint
_iochart_bins_latency_bucket_log2 (gint64 latency_ns)
{
  double l;
  int b;

  if (latency_ns <= (G_GINT64_CONSTANT (1) << IOCHART_LAT_MIN_LOG2))
    return 0;
  l = log2 ((double) latency_ns);
  b = (int) ((l - IOCHART_LAT_MIN_LOG2) * IOCHART_LAT_SUB);
  return CLAMP (b, 0, IOCHART_LAT_BUCKETS - 1);
}

/* Each bucket's least latency by the definition (which grows with the latency), found once. */
static const gint64 *
bucket_firsts (void)
{
  static gint64 first[IOCHART_LAT_BUCKETS];
  static gsize done;

  if (g_once_init_enter (&done))
    {
      for (guint b = 1; b < IOCHART_LAT_BUCKETS; b++)
        {
          gint64 lo = 1, hi = G_GINT64_CONSTANT (1) << (IOCHART_LAT_MAX_LOG2 + 1);

          while (lo < hi)
            {
              gint64 mid = lo + (hi - lo) / 2;
              if (_iochart_bins_latency_bucket_log2 (mid) >= b)
                hi = mid;
              else
                lo = mid + 1;
            }
          first[b] = lo;
        }
      g_once_init_leave (&done, 1);
    }
  return first;
}

/* _iochart_bins_latency_bucket_log2 from the buckets' bounds: a log2 a request at load cost more
 * than the rest of its completion's entry. */
guint
iochart_bins_latency_bucket (gint64 latency_ns)
{
  const gint64 *first = bucket_firsts ();
  int b;

  if (latency_ns <= (G_GINT64_CONSTANT (1) << IOCHART_LAT_MIN_LOG2))
    return 0;
  /* its doubling's first bucket, then on to the one it reaches */
  b = (g_bit_storage ((guint64) latency_ns) - 1 - IOCHART_LAT_MIN_LOG2) * IOCHART_LAT_SUB - 1;
  b = CLAMP (b, 0, IOCHART_LAT_BUCKETS - 1);
  while (b > 0 && latency_ns < first[b])
    b--;
  while (b + 1 < IOCHART_LAT_BUCKETS && latency_ns >= first[b + 1])
    b++;
  return b;
}

double
iochart_bins_latency_quantile (const IochartBins *bins, IochartLatGroup group, guint i, double q)
{
  const guint32 *h = bins->latency[group] + (gsize) i * IOCHART_LAT_BUCKETS;
  guint64 total = 0, acc = 0, want;

  for (guint k = 0; k < IOCHART_LAT_BUCKETS; k++)
    total += h[k];
  if (total == 0)
    return -1;
  want = (guint64) ceil (q * total);
  want = MAX (want, 1);
  for (guint k = 0; k < IOCHART_LAT_BUCKETS; k++)
    {
      acc += h[k];
      if (acc >= want)
        /* the bucket's geometric middle */
        return exp2 (IOCHART_LAT_MIN_LOG2 + (k + 0.5) / IOCHART_LAT_SUB);
    }
  return -1;
}

double
iochart_bins_column_ns (const IochartBins *bins, guint i)
{
  return bins->ns_per_column;
}

typedef IochartSectorSpan SectorSpan;

static int
cmp_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* The k-th least of v[0, n) (v reordered): what v[k] is once sorted, by quickselect, as a frame
 * asks it of a sample of thousands (sorting them took a millisecond or two a frame). */
static guint64
select_nth (guint64 *v, guint n, guint k)
{
  guint lo = 0, hi = n - 1;

  for (guint round = 0; lo < hi; round++)
    {
      guint64 a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi], pivot;
      guint i = lo, j = hi;

      if (round == 64)
        {
          /* a sample chosen to defeat the pivots: sort what is left */
          qsort (v + lo, hi - lo + 1, sizeof *v, cmp_u64);
          break;
        }
      pivot = MAX (MIN (a, b), MIN (MAX (a, b), c));   /* median of three */
      while (i <= j)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i <= j)
            {
              guint64 t = v[i];
              v[i] = v[j];
              v[j] = t;
              i++;
              if (j == 0)
                break;
              j--;
            }
        }
      /* now v[lo, j] <= pivot <= v[i, hi], and v(j, i) == pivot */
      if (k <= j && j != G_MAXUINT)
        hi = j;
      else if (k >= i)
        lo = i;
      else
        break;
    }
  return v[k];
}

guint _iochart_sector_cells = IOCHART_SECTOR_CELLS;

void
_iochart_bins_set_sector_cells (guint n)
{
  _iochart_sector_cells = n ? n : IOCHART_SECTOR_CELLS;
}

/* The band of sectors the range's requests touch: from 0 unless the unused band below it would
 * take a fifth of the map, so that I/O in a small band of a big device is not squashed. With
 * many requests the band leaves out the 1% furthest on each side (a sample decides, taken by
 * the requests' own levels so that a chart is the same every time and an index takes the same
 * one): one stray request must not flatten the rest; the outliers are drawn at the map's edges. */
void
_iochart_bins_set_band (IochartBins *bins, guint64 min, guint64 max, guint64 seen, GArray *sample)
{
  bins->sector_trimmed = FALSE;
  if (seen >= 100 && sample->len > 0)
    {
      guint cut = MAX (sample->len / 100, 1), n = sample->len;
      g_autofree guint64 *v = g_new (guint64, n);
      guint64 lo, hi;

      /* the cut-th least start and the cut-th greatest end: their sorted places */
      for (guint i = 0; i < n; i++)
        v[i] = g_array_index (sample, SectorSpan, i).start;
      lo = select_nth (v, n, MIN (cut, n - 1));
      for (guint i = 0; i < n; i++)
        v[i] = g_array_index (sample, SectorSpan, i).end;
      hi = select_nth (v, n, n - 1 - MIN (cut, n - 1));
      /* trim only when it buys the rest at least twice the room */
      if (hi > lo && (double) (hi - lo) * 2 < (double) (max - min))
        {
          min = lo;
          max = hi;
          bins->sector_trimmed = TRUE;
        }
    }
  if (max == 0)
    min = 0;
  else if (min < (max - min) / 4)
    min = 0;
  bins->min_sector = min;
  bins->max_sector = max;
  bins->sector_level = _iochart_sector_cells_level (seen);
}

/* A data request the sector band looks at: issued in the range, or at no known time. */
static gboolean
band_span (const IochartBins *bins, const IochartRequest *rq, int device, SectorSpan *span)
{
  if (rq->device != device || rq->op == IOCHART_OP_FLUSH || rq->bytes == 0)
    return FALSE;
  if (known (rq->issue_ns) && (rq->issue_ns < bins->from_ns || rq->issue_ns > bins->to_ns))
    return FALSE;
  span->start = rq->sector;
  span->end = rq->sector + rq->bytes / 512;
  return TRUE;
}

/* recs: the capture indices to look at, in order (NULL: every request). Two passes: the count
 * decides the sample's level. */
static void
device_sector_band (IochartBins *bins, IochartCapture *capture, int device, GArray *recs)
{
  guint n = recs ? recs->len : iochart_capture_get_n_requests (capture);
  guint64 min = G_MAXUINT64, max = 0, seen = 0;
  g_autoptr(GArray) sample = g_array_sized_new (FALSE, FALSE, sizeof (SectorSpan), IOCHART_SECTOR_SAMPLE);
  guint level;

  for (guint i = 0; i < n; i++)
    {
      IochartRequest rq;
      SectorSpan span;

      _iochart_capture_unpack (capture, recs ? g_array_index (recs, guint32, i) : i, &rq);
      if (!band_span (bins, &rq, device, &span))
        continue;
      min = MIN (min, span.start);
      max = MAX (max, span.end);
      seen++;
    }
  level = _iochart_sector_sample_level (seen);
  for (guint i = 0; i < n && seen >= 100; i++)
    {
      guint32 rec = recs ? g_array_index (recs, guint32, i) : i;
      IochartRequest rq;
      SectorSpan span;

      if (_iochart_sector_level (rec) < level)
        continue;
      _iochart_capture_unpack (capture, rec, &rq);
      if (band_span (bins, &rq, device, &span))
        g_array_append_val (sample, span);
    }
  _iochart_bins_set_band (bins, min, max, seen, sample);
}

/* Each span is counted in the column where it ended, as a latency plot of completions is. */
static void
add_latency (IochartBins *bins, const IochartRequest *rq, guint k)
{
  static const gsize end_of[IOCHART_N_LATENCY_KINDS] = {
    G_STRUCT_OFFSET (IochartRequest, insert_ns), G_STRUCT_OFFSET (IochartRequest, issue_ns),
    G_STRUCT_OFFSET (IochartRequest, complete_ns), G_STRUCT_OFFSET (IochartRequest, complete_ns),
  };
  gint64 v = _iochart_latency_of (rq, bins->latency_kind);
  int col;

  if (v == IOCHART_TIME_UNKNOWN ||
      (col = column_of (bins, G_STRUCT_MEMBER (gint64, rq, end_of[bins->latency_kind]))) < 0)
    return;
  bins->latency[k == IOCHART_CLASS_IDLE ? IOCHART_LAT_IDLE : IOCHART_LAT_FOREGROUND]
               [(gsize) col * IOCHART_LAT_BUCKETS + iochart_bins_latency_bucket (v)]++;
}

/* The request's life as the bins see it; FALSE when it has none in the bins' range. */
static gboolean
request_life (const IochartBins *bins, const IochartRequest *rq, gint64 *start, gint64 *issue, gint64 *done)
{
  return _iochart_bins_request_life (rq, start, issue, done) && *done >= bins->from_ns && *start <= bins->to_ns;
}

/* Throughput, IOPS and in flight (what an index answers without the requests), and the lane's
 * service time when lane_service is given. */
static void
add_strips (IochartBins *bins, const IochartRequest *rq, gint64 issue, gint64 done, double *lane_service)
{
  guint k = MIN (rq->klass, IOCHART_N_CLASSES - 1);
  double *bytes = NULL, per_ns = 0;
  int col;

  if (rq->op != IOCHART_OP_FLUSH && rq->bytes > 0)
    {
      int rw = rq->op == IOCHART_OP_WRITE || rq->op == IOCHART_OP_DISCARD;
      if (done > issue)
        bytes = bins->bytes[k][rw], per_ns = (double) rq->bytes / (done - issue);
      else if ((col = column_of (bins, done)) >= 0)
        bins->bytes[k][rw][col] += rq->bytes;
    }
  _iochart_columns_spread3 (bins->n_columns, bins->from_ns, bins->ns_per_column, issue, done, bytes, per_ns,
                            bins->inflight_ns[k], 1.0, lane_service, 1.0);
  if ((col = column_of (bins, done)) >= 0)
    bins->completions[k][col] += 1;
}

void
_iochart_bins_add_sector (IochartBins *bins, const IochartRequest *rq, guint32 rec)
{
  guint k = MIN (rq->klass, IOCHART_N_CLASSES - 1);
  gint64 start, issue, done;
  int col;

  if (rq->op != IOCHART_OP_FLUSH && rq->bytes > 0 && bins->max_sector > 0 &&
      (bins->sector_level == 0 || _iochart_sector_level (rec) >= bins->sector_level) &&
      request_life (bins, rq, &start, &issue, &done) && (col = column_of (bins, issue)) >= 0)
    bins->sectors[k][(gsize) _iochart_bins_sector_row (bins, rq->sector) * bins->n_columns + col] +=
      1u << bins->sector_level;
}

/* The lanes: per request, whoever finds the requests (the service time: add_strips). */
static void
add_lane (IochartBins *bins, const IochartRequest *rq, int lane, gint64 start, gint64 issue, gint64 done)
{
  guint k = MIN (rq->klass, IOCHART_N_CLASSES - 1);

  _iochart_columns_spread (bins->lane_wait_ns[lane], bins->n_columns, bins->from_ns,
                           bins->ns_per_column, start, issue, 1.0);
  /* a request shorter than a column still marks the column it touches */
  for (int c = MAX (column_of (bins, MAX (start, bins->from_ns)), 0),
           e = column_of (bins, MIN (done, bins->to_ns)); c <= e && c >= 0; c++)
    bins->lane_classes[lane][c] |= 1u << k;
}

IochartBins *
iochart_bins_new (IochartCapture *capture, int device, gint64 from_ns, gint64 to_ns,
                  guint n_columns, guint sector_rows, IochartLanes *lanes)
{
  return iochart_bins_new_full (capture, device, from_ns, to_ns, n_columns, sector_rows, lanes,
                                IOCHART_LATENCY_Q2C);
}

/* The lanes' cells, once the lanes are known. */
static void
bins_alloc_lanes (IochartBins *bins, IochartLanes *lanes)
{
  bins->n_lanes = lanes ? iochart_lanes_get_n_lanes (lanes) : 0;
  bins->lane_service_ns = g_new0 (double *, bins->n_lanes + 1);
  bins->lane_wait_ns = g_new0 (double *, bins->n_lanes + 1);
  bins->lane_classes = g_new0 (guint8 *, bins->n_lanes + 1);
  for (guint l = 0; l < bins->n_lanes; l++)
    {
      bins->lane_service_ns[l] = g_new0 (double, bins->n_columns);
      bins->lane_wait_ns[l] = g_new0 (double, bins->n_columns);
      bins->lane_classes[l] = g_new0 (guint8, bins->n_columns);
    }
}

/* The sector map's cells of the classes asked for, and one block of zeros for the others;
 * cleared: FALSE leaves the classes' own cells to whoever counts them (_iochart_bins_clear_sectors). */
static void
sectors_alloc (IochartBins *bins, guint classes, gboolean cleared)
{
  gsize cells = (gsize) bins->n_columns * bins->sector_rows;
  guint own = (guint) __builtin_popcount (classes), n = own + (classes != IOCHART_BINS_ALL_CLASSES), slot = 0;

  bins->sector_classes = classes;
  if (cleared)
    bins->sector_cells = g_new0 (guint32, cells * MAX (n, 1));
  else
    {
      bins->sector_cells = g_new (guint32, cells * MAX (n, 1));
      memset (bins->sector_cells + cells * own, 0, cells * (n - own) * sizeof (guint32));
    }
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    bins->sectors[k] = bins->sector_cells + cells * (classes & (1u << k) ? slot++ : n - 1);
}

void
_iochart_bins_clear_sectors (IochartBins *bins, guint from, guint to)
{
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    for (guint r = 0; r < bins->sector_rows && (bins->sector_classes & (1u << k)); r++)
      memset (bins->sectors[k] + (gsize) r * bins->n_columns + from, 0, (to - from) * sizeof (guint32));
}

static IochartBins *
bins_new_empty (gint64 from_ns, gint64 to_ns, guint n_columns, guint sector_rows, IochartLatencyKind latency_kind,
                guint sector_classes, gboolean sectors_cleared)
{
  IochartBins *bins = g_new0 (IochartBins, 1);

  bins->n_columns = n_columns;
  bins->from_ns = from_ns;
  bins->to_ns = to_ns;
  bins->ns_per_column = (double) (to_ns - from_ns) / n_columns;
  bins->latency_kind = MIN (latency_kind, IOCHART_N_LATENCY_KINDS - 1);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      bins->bytes[k][0] = g_new0 (double, n_columns);
      bins->bytes[k][1] = g_new0 (double, n_columns);
      bins->completions[k] = g_new0 (double, n_columns);
      bins->inflight_ns[k] = g_new0 (double, n_columns);
    }
  for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
    bins->latency[g] = g_new0 (guint32, (gsize) n_columns * IOCHART_LAT_BUCKETS);
  bins->sector_rows = MAX (sector_rows, 1);
  sectors_alloc (bins, sector_classes, sectors_cleared);
  return bins;
}

IochartBins *
_iochart_bins_new_empty (gint64 from_ns, gint64 to_ns, guint n_columns, guint sector_rows,
                         IochartLatencyKind latency_kind)
{
  return bins_new_empty (from_ns, to_ns, n_columns, sector_rows, latency_kind, IOCHART_BINS_ALL_CLASSES, TRUE);
}

static IochartBins *
bins_alloc (gint64 from_ns, gint64 to_ns, guint n_columns, guint sector_rows, IochartLanes *lanes,
            IochartLatencyKind latency_kind, guint sector_classes, gboolean sectors_cleared)
{
  IochartBins *bins = bins_new_empty (from_ns, to_ns, n_columns, sector_rows, latency_kind, sector_classes,
                                      sectors_cleared);

  bins_alloc_lanes (bins, lanes);
  return bins;
}

/* A walked request's share of every strip, its latency and its sector and lane cells. */
static void
add_request (IochartBins *bins, const IochartRequest *rq, guint32 rec, IochartLanes *lanes)
{
  gint64 start, issue, done;
  int lane;

  if (!request_life (bins, rq, &start, &issue, &done))
    return;
  lane = lanes ? iochart_lanes_lane_of_request (lanes, rq) : -1;
  add_strips (bins, rq, issue, done, lane >= 0 ? bins->lane_service_ns[lane] : NULL);
  add_latency (bins, rq, MIN (rq->klass, IOCHART_N_CLASSES - 1));
  _iochart_bins_add_sector (bins, rq, rec);
  if (lane >= 0)
    add_lane (bins, rq, lane, start, issue, done);
}

/* Every figure of the device's requests in one walk (the band first: it sets the sector rows):
 * three walks, one for each group of figures, unpacked and filtered every request three times,
 * which cost a sixth of the view. */
void
_iochart_bins_walk (IochartBins *bins, IochartCapture *capture, int device, IochartLanes *lanes)
{
  guint n = iochart_capture_get_n_requests (capture);

  bins_alloc_lanes (bins, lanes);
  device_sector_band (bins, capture, device, NULL);
  for (guint i = 0; i < n; i++)
    {
      IochartRequest rq;

      _iochart_capture_unpack (capture, i, &rq);
      if (rq.device == (guint) device)
        add_request (bins, &rq, i, lanes);
    }
}

IochartBins *
iochart_bins_new_full (IochartCapture *capture, int device, gint64 from_ns, gint64 to_ns,
                       guint n_columns, guint sector_rows, IochartLanes *lanes, IochartLatencyKind latency_kind)
{
  IochartBins *bins;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  g_return_val_if_fail (n_columns > 0 && to_ns > from_ns, NULL);

  bins = _iochart_bins_new_empty (from_ns, to_ns, n_columns, sector_rows, latency_kind);
  _iochart_bins_walk (bins, capture, device, lanes);
  return bins;
}

IochartBins *
iochart_bins_new_lane (const IochartBins *like, IochartCapture *capture, int device, const IochartBinIndex *index,
                       IochartLanes *lanes, int lane)
{
  IochartBins *bins;
  g_autoptr(GArray) found = NULL;
  guint n;

  g_return_val_if_fail (like != NULL && IOCHART_IS_CAPTURE (capture) && lanes != NULL, NULL);
  bins = bins_alloc (like->from_ns, like->to_ns, like->n_columns, like->sector_rows, lanes, like->latency_kind,
                     IOCHART_BINS_ALL_CLASSES, TRUE);
  bins->min_sector = like->min_sector;
  bins->max_sector = like->max_sector;
  bins->sector_trimmed = like->sector_trimmed;
  /* with an index, only the requests that meet the range */
  found = index ? iochart_bin_index_find (index, like->from_ns, like->to_ns) : NULL;
  n = found ? found->len : iochart_capture_get_n_requests (capture);
  for (guint i = 0; i < n; i++)
    {
      guint32 rec = found ? g_array_index (found, guint32, i) : i;
      IochartRequest rq;

      _iochart_capture_unpack (capture, rec, &rq);
      if (rq.device == device && iochart_lanes_lane_of_request (lanes, &rq) == lane)
        add_request (bins, &rq, rec, lanes);
    }
  return bins;
}

IochartBins *
iochart_bins_new_indexed (const IochartBinIndex *index, GArray *requests, gint64 from_ns, gint64 to_ns,
                          guint n_columns, guint sector_rows, IochartLanes *lanes, IochartLatencyKind latency_kind)
{
  IochartCapture *capture;
  IochartBins *bins;
  g_autoptr(GArray) found = NULL;
  gboolean latency, sectors;

  g_return_val_if_fail (index != NULL, NULL);
  g_return_val_if_fail (n_columns > 0 && to_ns > from_ns, NULL);

  capture = iochart_bin_index_get_capture (index);
  /* the sector map's cells: only those of the classes the index saw can count */
  bins = bins_alloc (from_ns, to_ns, n_columns, sector_rows, lanes, latency_kind,
                     iochart_bin_index_get_sector_classes (index), FALSE);
  latency = !iochart_bin_index_has_latency (index, bins->latency_kind);
  iochart_bin_index_fill_with_lanes (index, bins, lanes);
  sectors = iochart_bin_index_fill_sectors (index, bins);
  /* what the index does not answer: walked over the requests it finds */
  if (!latency && sectors)
    return bins;
  found = requests ? g_array_ref (requests) : iochart_bin_index_find_all (index, from_ns, to_ns);
  if (!sectors)
    {
      _iochart_bins_clear_sectors (bins, 0, bins->n_columns);
      device_sector_band (bins, capture, iochart_bin_index_get_device (index), found);
    }
  for (guint i = 0; i < found->len; i++)
    {
      IochartRequest rq;
      gint64 start, issue, done;

      _iochart_capture_unpack (capture, g_array_index (found, guint32, i), &rq);
      if (!request_life (bins, &rq, &start, &issue, &done))
        continue;
      if (latency)
        add_latency (bins, &rq, MIN (rq.klass, IOCHART_N_CLASSES - 1));
      if (!sectors)
        _iochart_bins_add_sector (bins, &rq, g_array_index (found, guint32, i));
    }
  return bins;
}

void
iochart_bins_free (IochartBins *bins)
{
  if (bins == NULL)
    return;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      g_free (bins->bytes[k][0]);
      g_free (bins->bytes[k][1]);
      g_free (bins->completions[k]);
      g_free (bins->inflight_ns[k]);
    }
  g_free (bins->sector_cells);
  for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
    g_free (bins->latency[g]);
  for (guint l = 0; l < bins->n_lanes; l++)
    {
      g_free (bins->lane_service_ns[l]);
      g_free (bins->lane_wait_ns[l]);
      g_free (bins->lane_classes[l]);
    }
  g_free (bins->lane_service_ns);
  g_free (bins->lane_wait_ns);
  g_free (bins->lane_classes);
  g_free (bins);
}
