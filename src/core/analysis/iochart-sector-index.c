/* iochart-sector-index.c: data requests by sample level, then issue time; block extents */
#include "iochart-sector-index.h"
#include "iochart-bins-private.h"
#include "iochart-radix-private.h"
#include <string.h>

/* The sector map's requests: the device's data requests with an issue time, by sample level
 * (highest first), then issue time, so that the requests of level L or more are the first
 * levels' runs and a range's sample (of the band, or of the cells) is a search in each run.
 * key: the issue's 48-bit offset from the map's origin, the class in bits 48-50, SM_LIFE when
 * the request has a life (the map counts it), its sample level in bits 52-57; span: the sector
 * (40 bits) and the sectors (24 bits). Per SM_BLOCK of them the least start and greatest end. */
#define SM_BLOCK        256
#define SM_LEVELS       33
#define SM_LIFE         (G_GUINT64_CONSTANT (1) << 51)
#define SM_KLASS(v)     ((guint) ((v) >> 48) & 7)
#define SM_LEVEL(v)     ((guint) ((v) >> 52) & 63)
#define SM_SECTOR_BITS  40
#define T48_MASK        ((G_GUINT64_CONSTANT (1) << 48) - 1)
#define SM_START(v)     ((v) & ((G_GUINT64_CONSTANT (1) << SM_SECTOR_BITS) - 1))
#define SM_END(v)       (SM_START (v) + ((v) >> SM_SECTOR_BITS))

struct _IochartSectorIndex {
  gboolean  usable;
  gint64    origin_ns;
  guint     n;
  guint64  *key;
  guint64  *span;
  guint64  *block_min, *block_max;
  guint     run[SM_LEVELS + 1];   /* level l's requests: [run[SM_LEVELS - 1 - l], run[SM_LEVELS - l]) */
  GArray   *loose;           /* guint32 recs of data requests with no issue time */
  guint     n_seen;          /* data requests with an issue time (the first pass) */
  guint     classes;         /* 1 << class of the data requests added */
  GArray   *pairs;           /* IochartRadixPair while building (NULL before the second pass) */
};

/* The sector map's part, from its requests (key and span as IochartSectorIndex keeps them) in
 * any order: by issue time, then stably by level. */
static void
build_sectors (IochartSectorIndex *sm, GArray *pairs)
{
  guint n = pairs->len, n_blocks = (n + SM_BLOCK - 1) / SM_BLOCK;
  guint at[SM_LEVELS + 1] = { 0 };

  _iochart_radix_sort ((IochartRadixPair *) pairs->data, n, 48);
  sm->n = n;
  sm->key = g_new (guint64, MAX (n, 1));
  sm->span = g_new (guint64, MAX (n, 1));
  sm->block_min = g_new (guint64, MAX (n_blocks, 1));
  sm->block_max = g_new0 (guint64, MAX (n_blocks, 1));
  for (guint b = 0; b < n_blocks; b++)
    sm->block_min[b] = G_MAXUINT64;
  for (guint i = 0; i < n; i++)
    sm->run[SM_LEVELS - SM_LEVEL (g_array_index (pairs, IochartRadixPair, i).key)]++;
  for (guint r = 1; r <= SM_LEVELS; r++)
    sm->run[r] += sm->run[r - 1];
  memcpy (at, sm->run, sizeof at);
  for (guint i = 0; i < n; i++)
    {
      const IochartRadixPair *p = &g_array_index (pairs, IochartRadixPair, i);
      guint j = at[SM_LEVELS - 1 - SM_LEVEL (p->key)]++;

      sm->key[j] = p->key;
      sm->span[j] = p->value;
      sm->block_min[j / SM_BLOCK] = MIN (sm->block_min[j / SM_BLOCK], SM_START (p->value));
      sm->block_max[j / SM_BLOCK] = MAX (sm->block_max[j / SM_BLOCK], SM_END (p->value));
    }
}

static void
free_sectors (IochartSectorIndex *sm)
{
  g_free (sm->key);
  g_free (sm->span);
  g_free (sm->block_min);
  g_free (sm->block_max);
  g_clear_pointer (&sm->loose, g_array_unref);
}

static gsize
sectors_size (const IochartSectorIndex *sm)
{
  return (gsize) sm->n * 2 * sizeof (guint64) + ((gsize) sm->n / SM_BLOCK + 1) * 2 * sizeof (guint64) +
         (sm->loose ? sm->loose->len * sizeof (guint32) : 0);
}

/* A data request into the sector map's pairs (or its loose ones); FALSE when it cannot be kept. */
static gboolean
add_sector (IochartSectorIndex *sm, GArray *pairs, const IochartRequest *rq, guint32 rec, gboolean life)
{
  guint64 nr = rq->bytes / 512;
  IochartRadixPair p;

  if (rq->op == IOCHART_OP_FLUSH || rq->bytes == 0)
    return TRUE;
  if (rq->sector >> SM_SECTOR_BITS || nr >> (64 - SM_SECTOR_BITS))
    return FALSE;
  sm->classes |= 1u << MIN (rq->klass, IOCHART_N_CLASSES - 1);
  if (rq->issue_ns == IOCHART_TIME_UNKNOWN)
    {
      g_array_append_val (sm->loose, rec);
      return TRUE;
    }
  if ((guint64) (rq->issue_ns - sm->origin_ns) > T48_MASK)
    return FALSE;
  p.key = (guint64) (rq->issue_ns - sm->origin_ns) | (guint64) MIN (rq->klass, IOCHART_N_CLASSES - 1) << 48 |
          (life ? SM_LIFE : 0) | (guint64) _iochart_sector_level (rec) << 52;
  p.value = rq->sector | nr << SM_SECTOR_BITS;
  /* in place where the array was sized for it: the call costs more than the pair */
  if (G_LIKELY (pairs->len < sm->n_seen))
    ((IochartRadixPair *) pairs->data)[pairs->len++] = p;
  else
    g_array_append_val (pairs, p);
  return TRUE;
}

IochartSectorIndex *
iochart_sector_index_new (void)
{
  IochartSectorIndex *sm = g_new0 (IochartSectorIndex, 1);

  sm->usable = TRUE;
  sm->origin_ns = G_MAXINT64;
  sm->loose = g_array_new (FALSE, FALSE, sizeof (guint32));
  return sm;
}

static gboolean
is_data (const IochartRequest *rq)
{
  return rq->op != IOCHART_OP_FLUSH && rq->bytes > 0;
}

void
iochart_sector_index_see (IochartSectorIndex *sm, const IochartRequest *rq)
{
  if (is_data (rq) && rq->issue_ns != IOCHART_TIME_UNKNOWN)
    {
      sm->origin_ns = MIN (sm->origin_ns, rq->issue_ns);
      sm->n_seen++;
    }
}

void
iochart_sector_index_add (IochartSectorIndex *sm, const IochartRequest *rq, guint32 rec, gboolean life)
{
  if (sm->pairs == NULL)
    sm->pairs = g_array_sized_new (FALSE, FALSE, sizeof (IochartRadixPair), sm->n_seen);
  if (sm->usable)
    sm->usable = add_sector (sm, sm->pairs, rq, rec, life);
}

void
iochart_sector_index_finish (IochartSectorIndex *sm)
{
  if (sm->pairs == NULL)
    sm->pairs = g_array_new (FALSE, FALSE, sizeof (IochartRadixPair));
  if (sm->usable)
    build_sectors (sm, sm->pairs);
  g_clear_pointer (&sm->pairs, g_array_unref);
}

void
iochart_sector_index_free (IochartSectorIndex *sm)
{
  if (sm == NULL)
    return;
  free_sectors (sm);
  g_clear_pointer (&sm->pairs, g_array_unref);
  g_free (sm);
}

guint
iochart_sector_index_get_classes (const IochartSectorIndex *sm)
{
  return sm->usable ? sm->classes : IOCHART_BINS_ALL_CLASSES;
}

gsize
iochart_sector_index_get_size (const IochartSectorIndex *sm)
{
  return sizeof *sm + sectors_size (sm);
}

/* First of [lo, hi) (one level's run) issued at or after t. */
static guint
sm_lower (const IochartSectorIndex *sm, guint lo, guint hi, gint64 t)
{
  if (t <= sm->origin_ns)
    return lo;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if ((gint64) (sm->key[mid] & T48_MASK) < t - sm->origin_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Least start and greatest end of [lo, hi). */
static void
sm_extent (const IochartSectorIndex *sm, guint lo, guint hi, guint64 *min, guint64 *max)
{
  guint i = lo;

  while (i < hi)
    {
      if (i % SM_BLOCK == 0 && i + SM_BLOCK <= hi)
        {
          *min = MIN (*min, sm->block_min[i / SM_BLOCK]);
          *max = MAX (*max, sm->block_max[i / SM_BLOCK]);
          i += SM_BLOCK;
          continue;
        }
      *min = MIN (*min, SM_START (sm->span[i]));
      *max = MAX (*max, SM_END (sm->span[i]));
      i++;
    }
}

static void
sample_append (GArray *sample, guint64 span)
{
  IochartSectorSpan s = { SM_START (span), SM_END (span) };
  g_array_append_val (sample, s);
}

/* The cells' edges, found once a range (the walk's own functions are monotone, so a request's
 * cell is where its issue and sector fall among them: the walk's cell, at a compare or two a
 * request instead of two divisions): col_t[c], the least issue offset from the map's origin in
 * column c or later; row_s[r], the least sector in row r or later. */
typedef struct {
  gint64  *col_t;
  guint64 *row_s;
  double   rows_per_sector;
  /* the row of the first sector of each 2^lut_shift past the band's least, with LUT_SPLIT when
   * the bucket's sectors are in more than that row (a bucket is a small part of a row, so most
   * take the bucket's row, the others walk from it): no division a request */
  guint    lut_shift;
  guint16 *lut;
} Edges;

#define LUT_SIZE       4096
#define LUT_SPLIT      0x8000u
/* rows a LUT entry holds beside LUT_SPLIT (a map taller is walked: no chart is) */
#define LUT_MAX_ROWS   LUT_SPLIT

static void lut_init (Edges *e, const IochartBins *bins);

static gint64
least_offset_in (const IochartSectorIndex *sm, const IochartBins *bins, gint64 lo, gint64 hi, int col)
{
  /* in [lo, hi]: column_of (hi) >= col */
  while (lo < hi)
    {
      gint64 mid = lo + (hi - lo) / 2;
      if (_iochart_bins_column_of (bins, sm->origin_ns + mid) < col)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
edges_init (Edges *e, const IochartSectorIndex *sm, const IochartBins *bins)
{
  /* the map's offsets are in [0, 2^48) */
  gint64 first = bins->from_ns <= sm->origin_ns ? 0 : MIN (bins->from_ns - sm->origin_ns, (gint64) T48_MASK + 1);
  gint64 last = bins->to_ns - (gint64) T48_MASK - 1 >= sm->origin_ns ? (gint64) T48_MASK + 1
                : MAX (bins->to_ns - sm->origin_ns, first);

  e->col_t = g_new (gint64, bins->n_columns + 1);
  e->row_s = g_new (guint64, bins->sector_rows + 1);
  e->col_t[0] = G_MININT64;
  e->col_t[bins->n_columns] = G_MAXINT64;
  for (guint c = 1; c < bins->n_columns; c++)
    {
      /* near where the arithmetic puts it, else anywhere after the last edge */
      gint64 guess = bins->from_ns - sm->origin_ns + (gint64) (c * bins->ns_per_column);
      gint64 lo = MAX (MAX (guess - 64, e->col_t[c - 1]), first), hi = MIN (guess + 64, last);

      if (lo > hi || _iochart_bins_column_of (bins, sm->origin_ns + lo) >= (int) c ||
          _iochart_bins_column_of (bins, sm->origin_ns + hi) < (int) c)
        lo = MAX (e->col_t[c - 1], first), hi = last;
      e->col_t[c] = least_offset_in (sm, bins, lo, hi, (int) c);
    }
  e->row_s[0] = 0;
  e->row_s[bins->sector_rows] = G_MAXUINT64;
  for (guint r = 1; r < bins->sector_rows; r++)
    {
      guint64 lo = MAX (bins->min_sector, e->row_s[r - 1]), hi = G_GUINT64_CONSTANT (1) << SM_SECTOR_BITS;

      while (lo < hi)
        {
          guint64 mid = lo + (hi - lo) / 2;
          if (_iochart_bins_sector_row (bins, mid) < r)
            lo = mid + 1;
          else
            hi = mid;
        }
      e->row_s[r] = lo;
    }
  e->rows_per_sector = (double) bins->sector_rows / (bins->max_sector - bins->min_sector + 1);
  lut_init (e, bins);
}

static void
edges_clear (Edges *e)
{
  g_free (e->col_t);
  g_free (e->row_s);
  g_free (e->lut);
}

/* The row of sector among the edges, from a guess near it. */
static inline guint
rows_walk (const guint64 *row_s, guint r, guint64 sector)
{
  while (sector >= row_s[r + 1])
    r++;
  while (sector < row_s[r])
    r--;
  return r;
}

static guint
edges_row_slow (const Edges *e, const IochartBins *bins, guint64 sector)
{
  double guess = (double) (sector - MIN (sector, bins->min_sector)) * e->rows_per_sector;

  return rows_walk (e->row_s, (guint) MIN (guess, (double) (bins->sector_rows - 1)), sector);
}

static void
lut_init (Edges *e, const IochartBins *bins)
{
  guint64 band = bins->max_sector - bins->min_sector + 1;

  e->lut_shift = 0;
  while ((band >> e->lut_shift) >= LUT_SIZE)
    e->lut_shift++;
  /* and one past the band's last bucket: the last row, where sectors past the band go */
  e->lut = g_new (guint16, LUT_SIZE + 1);
  for (guint j = 0; j < LUT_SIZE; j++)
    {
      guint64 first = bins->min_sector + ((guint64) j << e->lut_shift);
      guint r = edges_row_slow (e, bins, first);

      e->lut[j] = (guint16) (r | (e->row_s[r + 1] < first + (G_GUINT64_CONSTANT (1) << e->lut_shift) ? LUT_SPLIT : 0));
    }
  e->lut[LUT_SIZE] = (guint16) (bins->sector_rows - 1);
}

/* Counts [lo, hi) (a level's run, by issue), each as 2^level requests, up to the first issued
 * at or after offset `until` (a column's edge); returns where it stopped. The map's cost (a wide
 * frame counts 2^18 requests) is this loop's instructions, not its cache misses: what it reads
 * is in locals (a count stored could alias the bins' and edges' fields and have them reloaded),
 * one compare a request finds its column and most find their row in the table alone, and the
 * class and life bits pick the plane and the weight (0 with no life) with no branch. */
static guint
sm_cells (const IochartSectorIndex *sm, IochartBins *bins, const Edges *e, guint lo, guint hi, gint64 until)
{
  const guint64 *key = sm->key, *span = sm->span, *row_s = e->row_s;
  const gint64 *col_t = e->col_t;
  const guint16 *lut = e->lut;
  guint32 *planes[16], weights[16];
  guint64 min_sector = bins->min_sector;
  gsize n = bins->n_columns;
  guint shift = e->lut_shift, c, p;
  gint64 next;

  if (lo >= hi || (gint64) (key[lo] & T48_MASK) >= until)
    return lo;
  /* by bits 48-51 of a key: its class, and its life */
  for (guint i = 0; i < G_N_ELEMENTS (planes); i++)
    {
      planes[i] = bins->sectors[MIN (i & 7, IOCHART_N_CLASSES - 1)];
      weights[i] = i & (SM_LIFE >> 48) ? 1u << bins->sector_level : 0;
    }
  c = (guint) _iochart_bins_column_of (bins, sm->origin_ns + (gint64) (key[lo] & T48_MASK));
  next = col_t[c + 1];
  for (p = lo; p < hi; p++)
    {
      guint64 v = key[p], sector = SM_START (span[p]);
      gint64 t = (gint64) (v & T48_MASK);
      guint r;

      /* until is a later column's edge: past the column's, and only then, past it too */
      if (G_UNLIKELY (t >= next))
        {
          if (t >= until)
            break;
          do
            next = col_t[++c + 1];
          while (t >= next);
        }
      r = lut[MIN ((sector - MIN (sector, min_sector)) >> shift, LUT_SIZE)];
      if (G_UNLIKELY (r & LUT_SPLIT))
        r = rows_walk (row_s, r & ~LUT_SPLIT, sector);
      planes[v >> 48 & 15][r * n + c] += weights[v >> 48 & 15];
    }
  return p;
}

/* Columns counted at a time: every level's requests in them before the next ones, so that their
 * cells (a few rows of 32 counts each) stay in the cache, not swept once a level. */
#define SM_COLUMN_BLOCK 32

gboolean
iochart_sector_index_fill (const IochartSectorIndex *sm, IochartCapture *capture, IochartBins *bins)
{
  g_autoptr(GArray) sample = NULL;
  guint64 min = G_MAXUINT64, max = 0, seen;
  guint lo[SM_LEVELS], hi[SM_LEVELS], level;
  Edges edges;

  if (!sm->usable || bins->sector_rows > LUT_MAX_ROWS)
    return FALSE;
  /* each level's requests issued in the range: a stretch of its run */
  seen = sm->loose->len;
  for (guint l = 0; l < SM_LEVELS; l++)
    {
      guint a = sm->run[SM_LEVELS - 1 - l], b = sm->run[SM_LEVELS - l];

      lo[l] = sm_lower (sm, a, b, bins->from_ns);
      hi[l] = bins->to_ns == G_MAXINT64 ? b : sm_lower (sm, a, b, bins->to_ns + 1);
      hi[l] = MAX (hi[l], lo[l]);
      seen += hi[l] - lo[l];
      sm_extent (sm, lo[l], hi[l], &min, &max);
    }
  level = _iochart_sector_sample_level (seen);
  sample = g_array_new (FALSE, FALSE, sizeof (IochartSectorSpan));
  for (guint l = level; l < SM_LEVELS && seen >= 100; l++)
    {
      /* written in place: a call an append costs more than the span */
      guint at = sample->len;

      g_array_set_size (sample, at + hi[l] - lo[l]);
      for (guint i = lo[l]; i < hi[l]; i++)
        g_array_index (sample, IochartSectorSpan, at + i - lo[l]) =
          (IochartSectorSpan) { SM_START (sm->span[i]), SM_END (sm->span[i]) };
    }
  for (guint i = 0; i < sm->loose->len; i++)
    {
      guint32 rec = g_array_index (sm->loose, guint32, i);
      IochartRequest rq;

      iochart_capture_get_request (capture, rec, &rq);
      min = MIN (min, rq.sector);
      max = MAX (max, rq.sector + rq.bytes / 512);
      if (seen >= 100 && _iochart_sector_level (rec) >= level)
        sample_append (sample, rq.sector | (guint64) (rq.bytes / 512) << SM_SECTOR_BITS);
    }
  _iochart_bins_set_band (bins, min, max, seen, sample);
  if (bins->max_sector == 0)
    {
      _iochart_bins_clear_sectors (bins, 0, bins->n_columns);
      return TRUE;
    }

  /* the cells: the requests of their sample's levels */
  edges_init (&edges, sm, bins);
  for (guint c0 = 0; c0 < bins->n_columns; c0 += SM_COLUMN_BLOCK)
    {
      guint c1 = MIN (c0 + SM_COLUMN_BLOCK, bins->n_columns);
      gint64 until = edges.col_t[c1];

      _iochart_bins_clear_sectors (bins, c0, c1);
      for (guint l = bins->sector_level; l < SM_LEVELS; l++)
        lo[l] = sm_cells (sm, bins, &edges, lo[l], hi[l], until);
    }
  edges_clear (&edges);
  for (guint i = 0; i < sm->loose->len; i++)
    {
      guint32 rec = g_array_index (sm->loose, guint32, i);
      IochartRequest rq;

      iochart_capture_get_request (capture, rec, &rq);
      _iochart_bins_add_sector (bins, &rq, rec);
    }
  return TRUE;
}
