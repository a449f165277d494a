/* iochart-sector-index.c: data requests by issue time, sample levels, block extents */
#include "iochart-sector-index.h"
#include "iochart-bins-private.h"
#include "iochart-radix-private.h"

/* The sector map's requests: the device's data requests with an issue time, by issue time.
 * key: the issue's 48-bit offset from the map's origin, the class in bits 48-50, SM_LIFE when
 * the request has a life (the map counts it), its sample level in bits 52-57; span: the sector
 * (40 bits) and the sectors (24 bits). Per SM_BLOCK of them the least start and greatest end;
 * for each sample level from SM_FIRST_STORED on, the positions of the requests of that level or
 * more, so a range takes its sample without a pass. */
#define SM_BLOCK        256
#define SM_FIRST_STORED 3
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
  guint32  *sampled[SM_LEVELS];
  guint     n_sampled[SM_LEVELS];
  GArray   *loose;           /* guint32 recs of data requests with no issue time */
  guint     n_seen;          /* data requests with an issue time (the first pass) */
  GArray   *pairs;           /* IochartRadixPair while building (NULL before the second pass) */
};

/* The sector map's part, from its requests (key and span as IochartSectorIndex keeps them) in any order. */
static void
build_sectors (IochartSectorIndex *sm, GArray *pairs)
{
  guint n = pairs->len, n_blocks = (n + SM_BLOCK - 1) / SM_BLOCK;

  _iochart_radix_sort ((IochartRadixPair *) pairs->data, n, 48);
  sm->n = n;
  sm->key = g_new (guint64, MAX (n, 1));
  sm->span = g_new (guint64, MAX (n, 1));
  sm->block_min = g_new (guint64, MAX (n_blocks, 1));
  sm->block_max = g_new0 (guint64, MAX (n_blocks, 1));
  for (guint b = 0; b < n_blocks; b++)
    sm->block_min[b] = G_MAXUINT64;
  for (guint i = 0; i < n; i++)
    {
      const IochartRadixPair *p = &g_array_index (pairs, IochartRadixPair, i);
      guint level = SM_LEVEL (p->key);

      sm->key[i] = p->key;
      sm->span[i] = p->value;
      sm->block_min[i / SM_BLOCK] = MIN (sm->block_min[i / SM_BLOCK], SM_START (p->value));
      sm->block_max[i / SM_BLOCK] = MAX (sm->block_max[i / SM_BLOCK], SM_END (p->value));
      for (guint l = SM_FIRST_STORED; l <= level; l++)
        sm->n_sampled[l]++;
    }
  for (guint l = SM_FIRST_STORED; l < SM_LEVELS; l++)
    {
      sm->sampled[l] = g_new (guint32, MAX (sm->n_sampled[l], 1));
      sm->n_sampled[l] = 0;
    }
  for (guint i = 0; i < n; i++)
    for (guint l = SM_FIRST_STORED; l <= SM_LEVEL (sm->key[i]); l++)
      sm->sampled[l][sm->n_sampled[l]++] = i;
}

static void
free_sectors (IochartSectorIndex *sm)
{
  g_free (sm->key);
  g_free (sm->span);
  g_free (sm->block_min);
  g_free (sm->block_max);
  for (guint l = 0; l < SM_LEVELS; l++)
    g_free (sm->sampled[l]);
  g_clear_pointer (&sm->loose, g_array_unref);
}

static gsize
sectors_size (const IochartSectorIndex *sm)
{
  gsize size = (gsize) sm->n * 2 * sizeof (guint64) + ((gsize) sm->n / SM_BLOCK + 1) * 2 * sizeof (guint64) +
               (sm->loose ? sm->loose->len * sizeof (guint32) : 0);

  for (guint l = 0; l < SM_LEVELS; l++)
    size += sm->n_sampled[l] * sizeof (guint32);
  return size;
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

gsize
iochart_sector_index_get_size (const IochartSectorIndex *sm)
{
  return sizeof *sm + sectors_size (sm);
}

/* First of the map's requests issued at or after t. */
static guint
sm_lower (const IochartSectorIndex *sm, gint64 t)
{
  guint lo = 0, hi = sm->n;

  if (t <= sm->origin_ns)
    return 0;
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

/* First of [lo, hi) (issued in the bins' range) whose column is col or later. */
static guint
sm_column_lower (const IochartSectorIndex *sm, const IochartBins *bins, guint lo, guint hi, int col)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (_iochart_bins_column_of (bins, sm->origin_ns + (gint64) (sm->key[mid] & T48_MASK)) < col)
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

/* The requests of [lo, hi) of the sample's level or more. */
static void
sm_sample (const IochartSectorIndex *sm, guint lo, guint hi, guint level, GArray *sample)
{
  if (level < SM_FIRST_STORED)
    {
      for (guint i = lo; i < hi; i++)
        if (SM_LEVEL (sm->key[i]) >= level)
          sample_append (sample, sm->span[i]);
      return;
    }
  {
    const guint32 *pos = sm->sampled[MIN (level, SM_LEVELS - 1)];
    guint n = sm->n_sampled[MIN (level, SM_LEVELS - 1)], a = 0, b = n;

    while (a < b)
      {
        guint mid = a + (b - a) / 2;
        if (pos[mid] < lo)
          a = mid + 1;
        else
          b = mid;
      }
    for (; a < n && pos[a] < hi; a++)
      sample_append (sample, sm->span[pos[a]]);
  }
}

gboolean
iochart_sector_index_fill (const IochartSectorIndex *sm, IochartCapture *capture, IochartBins *bins)
{
  g_autoptr(GArray) sample = NULL;
  guint64 min = G_MAXUINT64, max = 0, seen;
  guint lo, hi, level, p;

  if (!sm->usable)
    return FALSE;
  lo = sm_lower (sm, bins->from_ns);
  hi = bins->to_ns == G_MAXINT64 ? sm->n : sm_lower (sm, bins->to_ns + 1);
  hi = MAX (hi, lo);
  seen = (guint64) (hi - lo) + sm->loose->len;
  sm_extent (sm, lo, hi, &min, &max);
  level = _iochart_sector_sample_level (seen);
  sample = g_array_new (FALSE, FALSE, sizeof (IochartSectorSpan));
  if (seen >= 100)
    sm_sample (sm, lo, hi, level, sample);
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
    return TRUE;

  /* the cells: a column's requests are a stretch of the issue order */
  p = lo;
  for (guint c = 0; c < bins->n_columns; c++)
    {
      guint e = c + 1 < bins->n_columns ? sm_column_lower (sm, bins, p, hi, (int) c + 1) : hi;

      for (; p < e; p++)
        {
          guint64 v = sm->key[p];

          if (v & SM_LIFE)
            bins->sectors[SM_KLASS (v)][(gsize) _iochart_bins_sector_row (bins, SM_START (sm->span[p])) *
                                        bins->n_columns + c]++;
        }
    }
  for (guint i = 0; i < sm->loose->len; i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (capture, g_array_index (sm->loose, guint32, i), &rq);
      _iochart_bins_add_sector (bins, &rq);
    }
  return TRUE;
}
