/* iochart-bin-index.c: prefix sums and length classes over one device's request lives */
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include "iochart-bin-index-private.h"
#include "iochart-bins-private.h"
#include "iochart-capture-private.h"
#include "iochart-lane-index-private.h"
#include "iochart-radix-private.h"
#include "iochart-sector-index.h"
#include "iochart-steal-private.h"

/* Spread series: bytes per class and direction, time in flight, time queued before the issue
 * and (not spread: counted once started) requests, per class. */
#define N_SERIES       (IOCHART_N_CLASSES * 5)
#define SERIES_BYTES(k, rw) ((k) * 2 + (rw))
#define SERIES_FLIGHT(k)    (IOCHART_N_CLASSES * 2 + (k))
#define SERIES_WAIT(k)      (IOCHART_N_CLASSES * 3 + (k))
#define SERIES_STARTED(k)   (IOCHART_N_CLASSES * 4 + (k))
/* Entries per stored prefix of the spread series, and per stored prefix of completions. */
#define SPAN_BLOCK     64
#define DONE_BLOCK     512
/* Entries and completions per search sample: a search over a few megabytes of samples, then
 * within SAMPLE neighbours, misses the cache a few times, not once a probe of a gigabyte. */
#define SAMPLE         64
/* Length class c holds spans up to 4^c µs (the last one: any). */
#define N_LENGTHS      16
#define LONG_SPAN      G_MAXUINT32
/* Requests from which the steal events are finished on a thread of their own. */
#define PARALLEL_MIN   50000
#define SIGN_BIT       (G_GUINT64_CONSTANT (1) << 63)
#define T48_MASK       ((G_GUINT64_CONSTANT (1) << 48) - 1)

enum {
  FLAG_DATA = 1 << 3,    /* bits 0-2: class */
  FLAG_WRITE = 1 << 4,
};

/* One indexed request: 24 bytes. start is a 48-bit offset from the index's origin with the
 * flags above it; the issue and the completion follow as 32-bit gaps (LONG_SPAN: in `longs`). */
typedef struct {
  guint64 start_flags;
  guint32 wait;          /* issue - start */
  guint32 dur;           /* completion - issue */
  guint32 bytes;
  guint32 rec;           /* capture request index */
} Entry;

G_STATIC_ASSERT (sizeof (Entry) == 24);

typedef struct {
  gint64 wait, dur;
} LongSpan;

/* A completion: its 48-bit offset, class in bits 48-50, latency bucket in 51-57, bit 58 set
 * when it has a latency of the index's kind. */
#define DONE_CLASS(v)   ((guint) ((v) >> 48) & 7)
#define DONE_BUCKET(v)  ((guint) ((v) >> 51) & 0x7f)
#define DONE_HAS_LAT(v) (((v) >> 58) & 1)

typedef struct {
  guint32 count[IOCHART_N_CLASSES];
  guint32 latency[IOCHART_N_LAT_GROUPS][IOCHART_LAT_BUCKETS];
} DonePrefix;

struct _IochartBinIndex {
  gint                ref_count;
  IochartCapture     *capture;
  int                 device;
  IochartLatencyKind  latency_kind;
  gboolean            latency_indexed;
  gint64              origin_ns;
  Entry              *entries;        /* by length class, then start */
  guint               n;
  guint               class_start[N_LENGTHS + 1];
  gint64              class_max_span[N_LENGTHS];   /* longest completion - start in the class */
  double             *prefix;         /* (n / SPAN_BLOCK + 1) × N_SERIES: sums of totals before */
  double              class_base[N_LENGTHS][N_SERIES];   /* the same at each class's first entry */
  GHashTable         *longs;          /* rec -> LongSpan, for gaps over 4.3 s */
  gint64             *start_sample;   /* every SAMPLE-th entry's start: searches touch these first */
  guint64            *done;           /* completions by time */
  gint64             *done_sample;    /* every SAMPLE-th completion's offset */
  DonePrefix         *done_prefix;    /* per DONE_BLOCK completions: counts before */
  GArray             *loose;          /* guint32 recs, ascending: see iochart_bin_index_find_all */
  IochartStealEvents *steal;          /* the device's steal events, so a range sweeps only its own */
  IochartSectorIndex *sm;             /* the sector map's */
  IochartLaneIndex   *lanes;          /* the device's lane index: lanes, strips and legend counts */
};

typedef IochartRadixPair Pair;

typedef gint64 ClassCounts[IOCHART_N_CLASSES];

/* What a frame's spread and completions found at each column edge, for the lanes' device counts
 * to take where their edge is the same time rather than search again: the least start the
 * spread's G left out and each class's entries started before it; the completions' edge, the
 * first completion at or after it and each class's completions before it. */
typedef struct {
  gint64      start_t, done_t;
  guint       done_at;
  ClassCounts started, ended;
} EdgeCounts;

static gboolean
known (gint64 ts)
{
  return ts != IOCHART_TIME_UNKNOWN;
}

static guint
length_class (gint64 span)
{
  guint c = 0;

  while (c < N_LENGTHS - 1 && span > (G_GINT64_CONSTANT (1000) << (2 * c)))
    c++;
  return c;
}

/* ---- an entry's times ---- */

static inline gint64
entry_start (const Entry *e)
{
  return (gint64) (e->start_flags & T48_MASK);
}

static void
entry_gaps (const IochartBinIndex *self, const Entry *e, gint64 *wait, gint64 *dur)
{
  if (G_UNLIKELY (e->wait == LONG_SPAN || e->dur == LONG_SPAN))
    {
      const LongSpan *l = g_hash_table_lookup (self->longs, GUINT_TO_POINTER (e->rec));
      *wait = l->wait;
      *dur = l->dur;
      return;
    }
  *wait = e->wait;
  *dur = e->dur;
}

/* ---- building ---- */

/* What one entry adds to each spread series once it is over. */
static void
entry_totals (const IochartBinIndex *self, const Entry *e, double *v)
{
  guint k = e->start_flags >> 48 & 7;
  gint64 wait, dur;

  entry_gaps (self, e, &wait, &dur);
  if (e->start_flags >> 48 & FLAG_DATA)
    v[SERIES_BYTES (k, (e->start_flags >> 48 & FLAG_WRITE) != 0)] += e->bytes;
  v[SERIES_FLIGHT (k)] += (double) dur;
  v[SERIES_WAIT (k)] += (double) wait;
  v[SERIES_STARTED (k)] += 1;
}

static void
build_prefix (IochartBinIndex *self)
{
  guint n_blocks = self->n / SPAN_BLOCK + 1;
  double acc[N_SERIES] = { 0 };
  guint c = 0;

  self->prefix = g_new (double, (gsize) n_blocks * N_SERIES);
  for (guint i = 0; i <= self->n; i++)
    {
      if (i % SPAN_BLOCK == 0)
        memcpy (self->prefix + (gsize) (i / SPAN_BLOCK) * N_SERIES, acc, sizeof acc);
      /* the classes starting here (class_start ascends) */
      for (; c < N_LENGTHS && self->class_start[c] == i; c++)
        memcpy (self->class_base[c], acc, sizeof acc);
      if (i < self->n)
        entry_totals (self, &self->entries[i], acc);
    }
}

static void
build_done_prefix (IochartBinIndex *self)
{
  guint n_blocks = self->n / DONE_BLOCK + 1;
  DonePrefix acc = { 0 };

  self->done_prefix = g_new (DonePrefix, n_blocks);
  for (guint i = 0; i <= self->n; i++)
    {
      guint64 v;

      if (i % DONE_BLOCK == 0)
        self->done_prefix[i / DONE_BLOCK] = acc;
      if (i == self->n)
        break;
      v = self->done[i];
      acc.count[DONE_CLASS (v)]++;
      if (DONE_HAS_LAT (v))
        acc.latency[DONE_CLASS (v) == IOCHART_CLASS_IDLE][DONE_BUCKET (v)]++;
    }
}

static gint64
latency_end (const IochartRequest *rq, IochartLatencyKind kind)
{
  return kind == IOCHART_LATENCY_Q2I ? rq->insert_ns : kind == IOCHART_LATENCY_I2D ? rq->issue_ns
                                                                                     : rq->complete_ns;
}

/* Requests a range must always take: no entry, no issue, or a time before the entry's start
 * (an insert before the queue), which another analysis's span may begin with. */
static gboolean
is_loose (const IochartRequest *rq, gboolean entry, gint64 start)
{
  return !entry || !known (rq->issue_ns) || (known (rq->queue_ns) && rq->queue_ns < start) ||
         (known (rq->insert_ns) && rq->insert_ns < start);
}

/* Entries [from, to) of one length class (in the requests' order) by start, stably: requests
 * are stored about in time order, so most classes are in order already. */
static void
sort_class (Entry *entries, guint from, guint to)
{
  guint n = to - from;
  g_autofree Pair *pairs = NULL;
  g_autofree Entry *sorted = NULL;
  guint i;

  for (i = from + 1; i < to; i++)
    if (entry_start (&entries[i]) < entry_start (&entries[i - 1]))
      break;
  if (i >= to)
    return;
  pairs = g_new (Pair, n);
  for (i = 0; i < n; i++)
    pairs[i] = (Pair) { (guint64) entry_start (&entries[from + i]), i };
  _iochart_radix_sort (pairs, n, 48);
  sorted = g_new (Entry, n);
  for (i = 0; i < n; i++)
    sorted[i] = entries[from + pairs[i].value];
  memcpy (entries + from, sorted, n * sizeof (Entry));
}

/* The completions by time (their low 48 bits), stably. */
static void
sort_done (guint64 *done, guint n)
{
  g_autofree Pair *pairs = NULL;
  guint i;

  for (i = 1; i < n; i++)
    if ((done[i] & T48_MASK) < (done[i - 1] & T48_MASK))
      break;
  if (i >= n)
    return;
  pairs = g_new (Pair, n);
  for (i = 0; i < n; i++)
    pairs[i] = (Pair) { done[i] & T48_MASK, done[i] };
  _iochart_radix_sort (pairs, n, 48);
  for (i = 0; i < n; i++)
    done[i] = pairs[i].value;
}

IochartBinIndex *
iochart_bin_index_new (IochartCapture *capture, int device, IochartLatencyKind latency_kind)
{
  IochartBinIndex *self;
  guint n_rq = iochart_capture_get_n_requests (capture);
  guint at[N_LENGTHS] = { 0 };
  guint n = 0;
  IochartLaneIndexBuild *lanes;
  IochartStealCollect *steal;
  GThread *steal_thread = NULL;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);

  self = g_new0 (IochartBinIndex, 1);
  self->ref_count = 1;
  self->capture = g_object_ref (capture);
  self->device = device;
  self->latency_kind = MIN (latency_kind, IOCHART_N_LATENCY_KINDS - 1);
  self->latency_indexed = self->latency_kind == IOCHART_LATENCY_Q2C || self->latency_kind == IOCHART_LATENCY_D2C;
  self->longs = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  self->origin_ns = G_MAXINT64;
  self->loose = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->sm = iochart_sector_index_new ();
  /* the lane index and the steal events take the requests this unpacks: no passes of their own */
  lanes = _iochart_lane_index_begin (capture, device);
  steal = _iochart_steal_collect_begin (capture, device);

  /* first pass: the origins, so that offsets fit 48 bits, and each length class's size, so that
   * the second pass writes each entry where its class goes */
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;
      gint64 start, issue, done;

      _iochart_capture_unpack (capture, i, &rq);
      if (rq.device != device)
        continue;
      if (_iochart_bins_request_life (&rq, &start, &issue, &done))
        {
          self->origin_ns = MIN (self->origin_ns, start);
          self->class_start[length_class (done - start) + 1]++;
          n++;
        }
      iochart_sector_index_see (self->sm, &rq);
      _iochart_lane_index_count (lanes, &rq);
    }
  _iochart_lane_index_layout (lanes);
  for (guint c = 0; c < N_LENGTHS; c++)
    {
      self->class_start[c + 1] += self->class_start[c];
      at[c] = self->class_start[c];
    }
  self->entries = g_new (Entry, MAX (n, 1));
  self->done = g_new (guint64, MAX (n, 1));
  n = 0;
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;
      gint64 start, issue, done, lat;
      guint k, c;
      guint64 flags, *d;
      Entry *e;

      _iochart_capture_unpack (capture, i, &rq);
      if (rq.device != device)
        continue;
      start = 0;
      if (is_loose (&rq, _iochart_bins_request_life (&rq, &start, &issue, &done), start))
        g_array_append_val (self->loose, i);
      iochart_sector_index_add (self->sm, &rq, i, _iochart_bins_request_life (&rq, &start, &issue, &done));
      _iochart_lane_index_put (lanes, &rq);
      if (steal)
        _iochart_steal_collect_add (steal, &rq);
      if (!_iochart_bins_request_life (&rq, &start, &issue, &done))
        continue;
      k = MIN (rq.klass, IOCHART_N_CLASSES - 1);
      flags = k;
      if (rq.op != IOCHART_OP_FLUSH && rq.bytes > 0)
        flags |= FLAG_DATA;
      if (rq.op == IOCHART_OP_WRITE || rq.op == IOCHART_OP_DISCARD)
        flags |= FLAG_WRITE;
      c = length_class (done - start);
      self->class_max_span[c] = MAX (self->class_max_span[c], done - start);
      e = &self->entries[at[c]++];
      e->start_flags = (guint64) (start - self->origin_ns) | flags << 48;
      e->bytes = rq.bytes;
      e->rec = i;
      if (issue - start >= LONG_SPAN || done - issue >= LONG_SPAN)
        {
          LongSpan *l = g_new (LongSpan, 1);
          l->wait = issue - start;
          l->dur = done - issue;
          g_hash_table_insert (self->longs, GUINT_TO_POINTER (i), l);
          e->wait = e->dur = LONG_SPAN;
        }
      else
        {
          e->wait = (guint32) (issue - start);
          e->dur = (guint32) (done - issue);
        }
      d = &self->done[n];
      *d = (guint64) (done - self->origin_ns) | (guint64) k << 48;
      lat = iochart_latency_of (&rq, self->latency_kind);
      if (self->latency_indexed && known (lat) && latency_end (&rq, self->latency_kind) == done)
        *d |= (guint64) iochart_bins_latency_bucket (lat) << 51 | G_GUINT64_CONSTANT (1) << 58;
      n++;
    }
  self->n = n;

  /* the steal events (sorted, their checks and the device's whole steal) on a second core while
   * this one finishes the rest: nothing of the one reads the other */
  if (steal && n >= PARALLEL_MIN)
    steal_thread = g_thread_new ("iochart-steal-events", (GThreadFunc) _iochart_steal_collect_end, steal);
  else if (steal)
    self->steal = _iochart_steal_collect_end (steal);
  /* by length class, then start: the classes are in place, each sorted where it is not already */
  for (guint c = 0; c < N_LENGTHS; c++)
    sort_class (self->entries, self->class_start[c], self->class_start[c + 1]);
  build_prefix (self);
  self->start_sample = g_new (gint64, n / SAMPLE + 1);
  for (guint i = 0; i < n; i += SAMPLE)
    self->start_sample[i / SAMPLE] = entry_start (&self->entries[i]);
  sort_done (self->done, n);
  build_done_prefix (self);
  self->done_sample = g_new (gint64, n / SAMPLE + 1);
  for (guint i = 0; i < n; i += SAMPLE)
    self->done_sample[i / SAMPLE] = (gint64) (self->done[i] & T48_MASK);
  iochart_sector_index_finish (self->sm);
  self->lanes = _iochart_lane_index_end (lanes);
  if (steal_thread)
    self->steal = g_thread_join (steal_thread);

  if (n == 0)
    self->origin_ns = 0;
  return self;
}

IochartBinIndex *
iochart_bin_index_ref (IochartBinIndex *index)
{
  g_atomic_int_inc (&index->ref_count);
  return index;
}

void
iochart_bin_index_unref (IochartBinIndex *index)
{
  if (index == NULL || !g_atomic_int_dec_and_test (&index->ref_count))
    return;
  g_clear_object (&index->capture);
  g_free (index->entries);
  g_free (index->prefix);
  g_hash_table_unref (index->longs);
  g_free (index->done);
  g_free (index->start_sample);
  g_free (index->done_sample);
  g_free (index->done_prefix);
  g_array_unref (index->loose);
  iochart_steal_events_free (index->steal);
  iochart_sector_index_free (index->sm);
  iochart_lane_index_free (index->lanes);
  g_free (index);
}

IochartCapture *
iochart_bin_index_get_capture (const IochartBinIndex *index)
{
  return index->capture;
}

int
iochart_bin_index_get_device (const IochartBinIndex *index)
{
  return index->device;
}

guint
iochart_bin_index_get_n_requests (const IochartBinIndex *index)
{
  return index->n;
}

gsize
iochart_bin_index_get_size (const IochartBinIndex *index)
{
  return sizeof *index + (gsize) index->n * (sizeof (Entry) + sizeof (guint64)) +
         (gsize) (index->n / SAMPLE + 1) * 2 * sizeof (gint64) +
         (gsize) (index->n / SPAN_BLOCK + 1) * N_SERIES * sizeof (double) +
         (gsize) (index->n / DONE_BLOCK + 1) * sizeof (DonePrefix) +
         (gsize) index->loose->len * sizeof (guint32) +
         g_hash_table_size (index->longs) * (sizeof (LongSpan) + 32) +
         iochart_steal_events_get_size (index->steal) + iochart_sector_index_get_size (index->sm);
}

const IochartLaneIndex *
iochart_bin_index_get_lane_index (const IochartBinIndex *index)
{
  return index->lanes;
}

const IochartStealEvents *
iochart_bin_index_get_steal_events (const IochartBinIndex *index)
{
  return index->steal;
}

gboolean
iochart_bin_index_has_latency (const IochartBinIndex *index, IochartLatencyKind kind)
{
  return index->latency_indexed && kind == index->latency_kind;
}

/* ---- finding requests by time ---- */

/* First entry of [lo, hi) whose start is >= t (offsets from the origin). */
static guint
lower_start (const IochartBinIndex *self, guint lo, guint hi, gint64 t)
{
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (entry_start (&self->entries[mid]) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Marks the entries meeting [from_ns, to_ns] (and the loose requests) in a bitmap over the
 * capture's requests, so that they come out in capture order without a sort. */
static GArray *
find_marked (const IochartBinIndex *index, gint64 from_ns, gint64 to_ns, gboolean loose)
{
  guint n_rq = iochart_capture_get_n_requests (index->capture);
  g_autofree guint64 *bits = g_new0 (guint64, n_rq / 64 + 1);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 a = from_ns - index->origin_ns, b = to_ns - index->origin_ns;
  guint count = 0;

  if (index->n > 0 && b >= 0)
    for (guint c = 0; c < N_LENGTHS; c++)
      {
        guint lo = index->class_start[c], hi = index->class_start[c + 1];
        guint i = lower_start (index, lo, hi, MAX (a - index->class_max_span[c], 0));

        for (; i < hi && entry_start (&index->entries[i]) <= b; i++)
          {
            const Entry *e = &index->entries[i];
            gint64 wait, dur;

            entry_gaps (index, e, &wait, &dur);
            if (entry_start (e) + wait + dur >= a)
              {
                bits[e->rec / 64] |= G_GUINT64_CONSTANT (1) << (e->rec % 64);
                count++;
              }
          }
      }
  if (loose)
    for (guint i = 0; i < index->loose->len; i++)
      {
        guint32 r = g_array_index (index->loose, guint32, i);
        bits[r / 64] |= G_GUINT64_CONSTANT (1) << (r % 64);
        count++;
      }
  g_array_set_size (out, count);
  count = 0;
  for (guint w = 0; w <= n_rq / 64; w++)
    for (guint64 v = bits[w]; v; v &= v - 1)
      g_array_index (out, guint32, count++) = w * 64 + (guint) __builtin_ctzll (v);
  g_array_set_size (out, count);   /* a loose entry found too counts once */
  return out;
}

GArray *
iochart_bin_index_find (const IochartBinIndex *index, gint64 from_ns, gint64 to_ns)
{
  return find_marked (index, from_ns, to_ns, FALSE);
}

GArray *
iochart_bin_index_find_all (const IochartBinIndex *index, gint64 from_ns, gint64 to_ns)
{
  return find_marked (index, from_ns, to_ns, TRUE);
}

/* ---- the running integral of the spread series ---- */

/* What the entry has added to the series by x (offset from the origin, x > start); instants
 * (no time on the device) add their bytes once completed before x, or at x when inclusive. */
static void
entry_deficit (const IochartBinIndex *self, const Entry *e, double x, gboolean inclusive, double *v)
{
  guint k = e->start_flags >> 48 & 7;
  gboolean data = (e->start_flags >> 48 & FLAG_DATA) != 0;
  int rw = (e->start_flags >> 48 & FLAG_WRITE) != 0;
  gint64 wait, dur, issue;
  double left;

  entry_gaps (self, e, &wait, &dur);
  issue = entry_start (e) + wait;
  /* the part of [start, issue) after x */
  if (issue > x)
    v[SERIES_WAIT (k)] -= (double) issue - MAX (x, (double) entry_start (e));
  if (dur == 0)
    {
      if (data && (inclusive ? issue > x : issue >= x))
        v[SERIES_BYTES (k, rw)] -= e->bytes;
      return;
    }
  /* the part of [issue, done) after x */
  left = (double) (issue + dur) - MAX (x, (double) issue);
  if (left <= 0)
    return;
  if (data)
    v[SERIES_BYTES (k, rw)] -= (double) e->bytes / dur * left;
  v[SERIES_FLIGHT (k)] -= left;
}

/* First entry of [lo, hi) (one class's, sorted) whose start is >= t, galloping from lo: the
 * columns' edges are asked in order, and the next edge's entry is near the last one's when
 * zoomed in. Over the samples first, then among SAMPLE entries. The next edge's entry, sample
 * and prefix are asked for early (lo the last edge's answer). */
static guint
gallop_start (const IochartBinIndex *self, guint lo, guint hi, gint64 t)
{
  /* samples j0 .. j1 - 1 are entries of [lo, hi) */
  guint j0 = (lo + SAMPLE - 1) / SAMPLE, j1 = (hi + SAMPLE - 1) / SAMPLE;
  guint j = _iochart_gallop_i64 (self->start_sample, j0, j1, t);
  guint a = j > j0 ? (j - 1) * SAMPLE : lo, b = j < j1 ? j * SAMPLE : hi, u, next;

  u = lower_start (self, a, b, t);
  if ((next = _iochart_next_guess (lo, u, hi)) < hi)
    {
      __builtin_prefetch (&self->entries[next]);
      __builtin_prefetch (&self->start_sample[next / SAMPLE]);
      __builtin_prefetch (&self->prefix[(gsize) (next / SPAN_BLOCK) * N_SERIES]);
    }
  return u;
}

/* Where the last G(x) found each class's entries starting before x (the columns ask for
 * increasing x, so the next search starts there). */
typedef struct {
  guint u[N_LENGTHS];
} Cursor;

static void
cursor_init (const IochartBinIndex *self, Cursor *cur)
{
  memcpy (cur->u, self->class_start, sizeof cur->u);
}

/* Adds the totals of class c's entries before u (u in the class) to out: from the nearer stored
 * prefix, before u or after it less the entries between. The totals are whole numbers (bytes,
 * nanoseconds, counts), so the class's part is exact either way (below 2^53), and added to out
 * once. */
static void
prefix_at (const IochartBinIndex *self, guint u, guint c, double *out)
{
  guint b0 = u / SPAN_BLOCK;
  double part[N_SERIES] = { 0 };
  const double *pu;

  if (u % SPAN_BLOCK > SPAN_BLOCK / 2 && (b0 + 1) * SPAN_BLOCK <= self->n)
    {
      pu = self->prefix + (gsize) (b0 + 1) * N_SERIES;
      for (guint i = u; i < (b0 + 1) * SPAN_BLOCK; i++)
        entry_totals (self, &self->entries[i], part);
      for (guint s = 0; s < N_SERIES; s++)
        out[s] += (pu[s] - part[s]) - self->class_base[c][s];
      return;
    }
  pu = self->prefix + (gsize) b0 * N_SERIES;
  for (guint i = b0 * SPAN_BLOCK; i < u; i++)
    entry_totals (self, &self->entries[i], part);
  for (guint s = 0; s < N_SERIES; s++)
    out[s] += (pu[s] - self->class_base[c][s]) + part[s];
}

/* The least start G(x) leaves out: entries starting before x count, or at x when inclusive (an
 * instant at x). */
static gint64
spread_edge (double x, gboolean inclusive)
{
  gint64 t = (gint64) floor (x);

  return t + (inclusive || (double) t < x ? 1 : 0);
}

/* G(x) of every series: the sum over entries that started before x, less what the ones still
 * open at x have not yet added. cur: NULL, or where the last G of an x no greater left off. */
static void
integral_at (const IochartBinIndex *self, double x, gboolean inclusive, double *out, Cursor *cur)
{
  memset (out, 0, N_SERIES * sizeof (double));
  for (guint c = 0; c < N_LENGTHS; c++)
    {
      guint lo = self->class_start[c], hi = self->class_start[c + 1], u;
      gint64 t;

      if (lo == hi)
        continue;
      t = spread_edge (x, inclusive);
      if (cur)
        {
          /* (an x before the last one's starts over) */
          if (cur->u[c] > lo && entry_start (&self->entries[cur->u[c] - 1]) >= t)
            cur->u[c] = lo;
          u = cur->u[c] = gallop_start (self, cur->u[c], hi, t);
        }
      else
        u = lower_start (self, lo, hi, t);
      prefix_at (self, u, c, out);
      /* the ones still open: started within the class's longest span before x */
      for (guint i = u; i > lo; i--)
        {
          const Entry *e = &self->entries[i - 1];
          if ((double) (entry_start (e) + self->class_max_span[c]) < x)
            break;
          entry_deficit (self, e, x, inclusive, out);
        }
    }
}

/* ---- completions ---- */

static int
done_column (const IochartBins *bins, gint64 ts)
{
  double r = (double) (ts - bins->from_ns) / bins->ns_per_column;

  /* past the range (where r could overflow an int) counts with the last column */
  if (ts > bins->to_ns)
    return (int) bins->n_columns - 1;
  return MIN ((int) r, (int) bins->n_columns - 1);
}

/* The completions' column edges, as offsets from the index's origin: edge[c] the least time
 * whose column (done_column, monotone) is c or later, edge[0] the range's start and edge[n]
 * just past its end. Found once a frame near where the arithmetic puts them, so that the
 * columns' searches compare times, not divide them at every probe. */
static gint64 *
done_edges (const IochartBinIndex *self, const IochartBins *bins)
{
  guint n = bins->n_columns;
  gint64 *edge = g_new (gint64, n + 1);

  edge[0] = bins->from_ns;
  edge[n] = bins->to_ns == G_MAXINT64 ? G_MAXINT64 : bins->to_ns + 1;
  for (guint c = 1; c < n; c++)
    {
      gint64 guess = bins->from_ns + (gint64) (c * bins->ns_per_column);
      gint64 lo = MAX (guess - 64, edge[c - 1]), hi = MIN (guess + 64, bins->to_ns);

      /* (done_column (to) is the last column, so the edge is in [edge[c - 1], to]) */
      if (lo > hi || done_column (bins, lo) >= (int) c || done_column (bins, hi) < (int) c)
        lo = edge[c - 1], hi = bins->to_ns;
      while (lo < hi)
        {
          gint64 mid = lo + (hi - lo) / 2;
          if (done_column (bins, mid) < (int) c)
            lo = mid + 1;
          else
            hi = mid;
        }
      edge[c] = lo;
    }
  for (guint c = 0; c <= n; c++)
    edge[c] = edge[c] == G_MAXINT64 ? G_MAXINT64 : edge[c] - self->origin_ns;
  return edge;
}

/* First completion at or after lo (all before it are before offset t) at or after t. Galloping
 * from lo over the samples, then among SAMPLE completions: the columns are asked in order, and
 * the next one's first completion is near when zoomed in, far when zoomed out. */
static guint
done_from (const IochartBinIndex *self, guint lo, gint64 t)
{
  guint j0 = (lo + SAMPLE - 1) / SAMPLE, j1 = (self->n + SAMPLE - 1) / SAMPLE;
  guint j = _iochart_gallop_i64 (self->done_sample, j0, j1, t), hi = j < j1 ? j * SAMPLE : self->n;
  guint from = lo, next;

  lo = j > j0 ? (j - 1) * SAMPLE : lo;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if ((gint64) (self->done[mid] & T48_MASK) < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  /* the next column's, as gallop_start asks for its entry */
  if ((next = _iochart_next_guess (from, lo, self->n)) < self->n)
    {
      __builtin_prefetch (&self->done[next]);
      __builtin_prefetch (&self->done_sample[next / SAMPLE]);
    }
  return lo;
}

/* Adds sign (1 or -1, as a wrapping guint32) × completions [a, b) to out. A wide frame's columns
 * add about a hundred each: a completion with no latency adds 0 to bucket 0 (its bucket bits)
 * rather than branching, and the two groups' buckets are one array. */
static void
done_add (const IochartBinIndex *self, guint a, guint b, guint32 sign, DonePrefix *out)
{
  const guint64 *done = self->done;
  guint32 *latency = out->latency[0];

  for (guint j = a; j < b; j++)
    {
      guint64 v = done[j];
      guint k = DONE_CLASS (v);

      out->count[k] += sign;
      latency[(k == IOCHART_CLASS_IDLE) * IOCHART_LAT_BUCKETS + DONE_BUCKET (v)] +=
        sign & (0u - (guint32) DONE_HAS_LAT (v));
    }
}

/* Where done_prefix_at (i) reads: from the nearer stored prefix, before i or after it; sets the
 * completions [a, b) between and returns the prefix's block. */
static guint
done_prefix_span (const IochartBinIndex *self, guint i, guint *a, guint *b)
{
  guint block = i / DONE_BLOCK;

  if (i % DONE_BLOCK > DONE_BLOCK / 2 && (block + 1) * DONE_BLOCK <= self->n)
    {
      *a = i;
      *b = (block + 1) * DONE_BLOCK;
      return block + 1;
    }
  *a = block * DONE_BLOCK;
  *b = i;
  return block;
}

/* Asks memory early for what done_prefix_at (i) will read: on a wide frame of a large capture
 * each column's prefix (14 lines) and its hundred or so completions lie where no other column
 * read, and the reads waited on memory. */
static void
done_prefix_prefetch (const IochartBinIndex *self, guint i)
{
  guint a, b, block = done_prefix_span (self, i, &a, &b);
  const char *p = (const char *) &self->done_prefix[block];

  for (gsize o = 0; o < sizeof (DonePrefix); o += 64)
    __builtin_prefetch (p + o);
  for (guint j = a; j < b; j += 64 / sizeof (guint64))
    __builtin_prefetch (&self->done[j]);
}

/* Counts of the completions before i: from the nearer stored prefix, before or after it (the
 * counts are integers, so taking the later one less what lies between is exact). */
static void
done_prefix_at (const IochartBinIndex *self, guint i, DonePrefix *out)
{
  guint a, b, block = done_prefix_span (self, i, &a, &b);

  *out = self->done_prefix[block];
  done_add (self, a, b, b > i ? (guint32) -1 : 1, out);
}

/* Completions of each request class before i: from the nearer stored prefix. */
static void
ended_before (const IochartBinIndex *self, guint i, gint64 *ended)
{
  guint a, b, block = done_prefix_span (self, i, &a, &b);
  gint64 sign = b > i ? -1 : 1;

  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    ended[k] = self->done_prefix[block].count[k];
  for (guint j = a; j < b; j++)
    ended[DONE_CLASS (self->done[j])] += sign;
}

/* Counts completions [a, b) into column c directly: cheaper than two prefixes when few. Each
 * class's count is also left in count. */
static void
done_count (const IochartBinIndex *self, IochartBins *bins, gboolean lat, guint a, guint b, guint c,
            guint32 *count)
{
  memset (count, 0, IOCHART_N_CLASSES * sizeof (guint32));
  for (guint j = a; j < b; j++)
    {
      guint64 v = self->done[j];
      count[DONE_CLASS (v)]++;
      if (lat && DONE_HAS_LAT (v))
        bins->latency[DONE_CLASS (v) == IOCHART_CLASS_IDLE][(gsize) c * IOCHART_LAT_BUCKETS + DONE_BUCKET (v)]++;
    }
  /* (whole numbers: the same double as adding them one by one) */
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    bins->completions[k][c] += count[k];
}

/* Keeps edge c's time (offset t), its first completion at and each class's completions before
 * it: edge c - 1's and the column's count. */
static void
edge_ended (EdgeCounts *edges, guint c, gint64 t, guint at, const guint32 *count)
{
  edges[c].done_t = t;
  edges[c].done_at = at;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    edges[c].ended[k] = edges[c - 1].ended[k] + count[k];
}

/* The completions' columns; edges: NULL, or (n_columns + 1) where the completions before each
 * edge are kept (edge_ended). */
static void
fill_completions (const IochartBinIndex *self, IochartBins *bins, EdgeCounts *edges)
{
  gboolean lat = iochart_bin_index_has_latency (self, bins->latency_kind), have_before = FALSE;
  DonePrefix prefix[2], *before = &prefix[0], *after = &prefix[1], *swap;
  g_autofree gint64 *edge = done_edges (self, bins);
  guint at = done_from (self, 0, edge[0]);

  if (edges)
    {
      edges[0].done_t = edge[0];
      edges[0].done_at = at;
      ended_before (self, at, edges[0].ended);
    }
  for (guint c = 0; c < bins->n_columns; c++)
    {
      guint next = done_from (self, at, edge[c + 1]), guess;
      guint32 count[IOCHART_N_CLASSES];

      if (next - at <= DONE_BLOCK / 2)
        {
          done_count (self, bins, lat, at, next, c, count);
          if (edges)
            edge_ended (edges, c + 1, edge[c + 1], next, count);
          have_before = FALSE;
          at = next;
          continue;
        }
      if (!have_before)
        done_prefix_at (self, at, before);
      /* the next column's, where it will likely end (as done_from guesses) */
      if ((guess = _iochart_next_guess (at, next, self->n)) < self->n)
        done_prefix_prefetch (self, guess);
      done_prefix_at (self, next, after);
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        bins->completions[k][c] = count[k] = after->count[k] - before->count[k];
      if (edges)
        edge_ended (edges, c + 1, edge[c + 1], next, count);
      if (lat)
        for (guint g = 0; g < IOCHART_N_LAT_GROUPS; g++)
          for (guint b = 0; b < IOCHART_LAT_BUCKETS; b++)
            bins->latency[g][(gsize) c * IOCHART_LAT_BUCKETS + b] = after->latency[g][b] - before->latency[g][b];
      /* the next column's before: this one's after, not a copy of its 884 bytes */
      swap = before;
      before = after;
      after = swap;
      have_before = TRUE;
      at = next;
    }
}

guint
iochart_bin_index_get_sector_classes (const IochartBinIndex *index)
{
  return iochart_sector_index_get_classes (index->sm);
}

gboolean
iochart_bin_index_fill_sectors (const IochartBinIndex *index, IochartBins *bins)
{
  return iochart_sector_index_fill (index->sm, index->capture, bins);
}

/* Keeps edge c's start (t) and each class's entries started before it (G's count, exact). */
static void
edge_started (EdgeCounts *edges, guint c, gint64 t, const double *g)
{
  edges[c].start_t = t;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    edges[c].started[k] = (gint64) g[SERIES_STARTED (k)];
}

/* The spread series' columns; wait: NULL, or (n_columns per class) each class's time queued in
 * each column, as the lanes' device_wait sums it (its edges are these, but for the last);
 * edges: NULL, or (n_columns + 1) where the starts are kept (edge_started). */
static void
fill_spread (const IochartBinIndex *index, IochartBins *bins, double *wait, EdgeCounts *edges)
{
  double before[N_SERIES], after[N_SERIES];
  double from = (double) (bins->from_ns - index->origin_ns);
  guint n = bins->n_columns;
  Cursor cur;

  cursor_init (index, &cur);
  integral_at (index, from, FALSE, before, &cur);
  if (edges)
    edge_started (edges, 0, spread_edge (from, FALSE), before);
  for (guint c = 0; c < n; c++)
    {
      gboolean last = c == n - 1;
      double x = last ? (double) (bins->to_ns - index->origin_ns) : from + (c + 1) * bins->ns_per_column;

      if (last && wait)
        {
          /* device_wait's last edge is not inclusive, nor always at to */
          double plain[N_SERIES];

          integral_at (index, from + (c + 1) * bins->ns_per_column, FALSE, plain, NULL);
          for (guint k = 0; k < IOCHART_N_CLASSES; k++)
            wait[k * n + c] = plain[SERIES_WAIT (k)] - before[SERIES_WAIT (k)];
        }
      integral_at (index, x, last, after, &cur);
      if (edges)
        edge_started (edges, c + 1, spread_edge (x, last), after);
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          bins->bytes[k][0][c] = after[SERIES_BYTES (k, 0)] - before[SERIES_BYTES (k, 0)];
          bins->bytes[k][1][c] = after[SERIES_BYTES (k, 1)] - before[SERIES_BYTES (k, 1)];
          bins->inflight_ns[k][c] = after[SERIES_FLIGHT (k)] - before[SERIES_FLIGHT (k)];
          if (wait && !last)
            wait[k * n + c] = after[SERIES_WAIT (k)] - before[SERIES_WAIT (k)];
        }
      memcpy (before, after, sizeof after);
    }
}

void
iochart_bin_index_fill (const IochartBinIndex *index, IochartBins *bins)
{
  if (index->n == 0)
    return;
  fill_spread (index, bins, NULL, NULL);
  fill_completions (index, bins, NULL);
}

/* ---- the lanes' strips: the lane index's, the device's figures from here ---- */

/* Entries of each request class started before t (an offset from the origin): G's count of
 * them, without the open entries' deficits, which the count does not have. */
static void
started_before (const IochartBinIndex *self, gint64 t, Cursor *cur, gint64 *started)
{
  memset (started, 0, IOCHART_N_CLASSES * sizeof (gint64));
  for (guint c = 0; c < N_LENGTHS; c++)
    {
      guint lo = self->class_start[c], hi = self->class_start[c + 1], u, b0;
      const double *pu;

      if (lo == hi)
        continue;
      if (cur->u[c] > lo && entry_start (&self->entries[cur->u[c] - 1]) >= t)
        cur->u[c] = lo;
      u = cur->u[c] = gallop_start (self, cur->u[c], hi, t);
      b0 = u / SPAN_BLOCK;
      pu = self->prefix + (gsize) b0 * N_SERIES;
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        started[k] += (gint64) (pu[SERIES_STARTED (k)] - self->class_base[c][SERIES_STARTED (k)]);
      for (guint i = b0 * SPAN_BLOCK; i < u; i++)
        started[self->entries[i].start_flags >> 48 & 7]++;
    }
}

/* What the lanes ask of the device: the index, and its time queued per class and column and
 * what it found at each column edge when the strips' fill kept them (else NULL). */
typedef struct {
  const IochartBinIndex *index;
  const double          *wait;
  const EdgeCounts      *edges;
} LaneDevice;

/* Requests of the device (every class) started before each T[e], and ended before it: what the
 * spread and the completions found at the same edge (edges: NULL, or theirs), else searched.
 * Returns how many of the counts were the ones found. */
static guint
device_counts_at (const IochartBinIndex *self, const EdgeCounts *edges, const gint64 *T, guint n,
                  ClassCounts *started, ClassCounts *ended)
{
  guint at = 0, kept = 0;
  Cursor cur;

  cursor_init (self, &cur);
  for (guint c = 0; c <= n; c++)
    {
      gint64 t = T[c] - self->origin_ns;
      guint last = at;

      if (edges && edges[c].start_t == t)
        {
          memcpy (started[c], edges[c].started, sizeof (ClassCounts));
          kept++;
        }
      else
        started_before (self, t, &cur, started[c]);
      if (edges && edges[c].done_t == t)
        {
          memcpy (ended[c], edges[c].ended, sizeof (ClassCounts));
          at = edges[c].done_at;
          kept++;
          continue;
        }
      /* the first completion at or after t, galloping from the last edge's */
      at = done_from (self, at, t);
      /* few since the last edge: counted on from its counts */
      if (c > 0 && at - last <= DONE_BLOCK / 4)
        {
          memcpy (ended[c], ended[c - 1], sizeof (ClassCounts));
          for (guint i = last; i < at; i++)
            ended[c][DONE_CLASS (self->done[i])]++;
        }
      else
        ended_before (self, at, ended[c]);
    }
  return kept;
}

/* Tests: NULL, or where device_counts adds how many counts it took from the edges found, having
 * asserted that searching gives the same. */
static guint *check_kept;

void
_iochart_bin_index_set_check_edges (guint *kept)
{
  check_kept = kept;
}

static void
device_counts (gconstpointer data, const gint64 *T, guint n, ClassCounts *started, ClassCounts *ended)
{
  const LaneDevice *device = data;
  guint kept = device_counts_at (device->index, device->edges, T, n, started, ended);

  if (G_UNLIKELY (check_kept != NULL))
    {
      g_autofree ClassCounts *searched_started = g_new (ClassCounts, n + 1);
      g_autofree ClassCounts *searched_ended = g_new (ClassCounts, n + 1);

      device_counts_at (device->index, NULL, T, n, searched_started, searched_ended);
      g_assert_cmpmem (started, (n + 1) * sizeof (ClassCounts), searched_started, (n + 1) * sizeof (ClassCounts));
      g_assert_cmpmem (ended, (n + 1) * sizeof (ClassCounts), searched_ended, (n + 1) * sizeof (ClassCounts));
      *check_kept += kept;
    }
}

/* Time queued per column, every class (the device's, from the spread series). */
static void
device_wait (gconstpointer data, const IochartBins *bins, double *cols)
{
  const IochartBinIndex *self = ((const LaneDevice *) data)->index;
  const double *wait = ((const LaneDevice *) data)->wait;
  double before[N_SERIES], after[N_SERIES];
  double from = (double) (bins->from_ns - self->origin_ns);
  Cursor cur;

  if (wait)
    {
      /* the same differences, added in the same order */
      for (guint c = 0; c < bins->n_columns; c++)
        for (guint k = 0; k < IOCHART_N_CLASSES; k++)
          cols[c] += wait[k * bins->n_columns + c];
      return;
    }
  cursor_init (self, &cur);
  integral_at (self, from, FALSE, before, &cur);
  for (guint c = 0; c < bins->n_columns; c++)
    {
      integral_at (self, from + (c + 1) * bins->ns_per_column, FALSE, after, &cur);
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        cols[c] += after[SERIES_WAIT (k)] - before[SERIES_WAIT (k)];
      memcpy (before, after, sizeof after);
    }
}

void
iochart_bin_index_fill_lanes (const IochartBinIndex *index, IochartBins *bins, struct _IochartLanes *lanes)
{
  LaneDevice data = { index, NULL, NULL };
  IochartLaneDevice device = { device_wait, device_counts, &data };

  _iochart_lane_index_fill_strips (index->lanes, bins, lanes, &device);
}

void
iochart_bin_index_fill_with_lanes (const IochartBinIndex *index, IochartBins *bins, struct _IochartLanes *lanes)
{
  g_autofree double *wait = NULL;
  g_autofree EdgeCounts *edges = NULL;
  LaneDevice data = { index, NULL, NULL };
  IochartLaneDevice device = { device_wait, device_counts, &data };

  if (index->n > 0)
    {
      wait = g_new (double, (gsize) IOCHART_N_CLASSES * bins->n_columns);
      edges = lanes ? g_new (EdgeCounts, bins->n_columns + 1) : NULL;
      fill_spread (index, bins, wait, edges);
      fill_completions (index, bins, edges);
      data.wait = wait;
      data.edges = edges;
    }
  if (lanes)
    _iochart_lane_index_fill_strips (index->lanes, bins, lanes, &device);
}
