/* iochart-steal.c: the idle-steal sweep over request lives, one device at a time */
#include <math.h>
#include <string.h>
#include "iochart-steal-private.h"
#include "iochart-capture-private.h"
#include "iochart-summary.h"
#include "iochart-bins.h"
#include "iochart-bin-index.h"
#include "iochart-radix-private.h"
#include "iochart-bins-private.h"

struct _IochartSteal {
  IochartCapture *capture;
  GArray         *devices;     /* IochartStealDevice */
  GArray         *episodes;    /* IochartStealEpisode */
  int             primary;     /* index into devices, -1 */
  guint64         n_read;      /* events the figures read (sweeps and the scans at episode edges) */
};

/* The packed events' checks, built by their device's whole sweep (see checks_begin). */
typedef struct _ChecksBuild ChecksBuild;

static IochartSteal *steal_new (IochartCapture *capture, const IochartStealOptions *options,
                                const IochartStealEvents *packed, ChecksBuild *checks);
static void checks_event (ChecksBuild *b, guint i, gint64 t, guint kind, guint32 p);
static void checks_book (ChecksBuild *b, gint64 from, gint64 to);

typedef enum {
  EV_FG_OUT_START,   /* a non-idle request becomes outstanding */
  EV_FG_ISSUE,
  EV_FG_END,         /* completion of an outstanding non-idle request */
  EV_FG_END_ISSUED,  /* the same, for one that was in flight */
  EV_IDLE_ISSUE,
  EV_IDLE_END,
} EventKind;

typedef struct {
  gint64  ts_ns;
  guint32 process;
  guint16 device;
  guint8  kind;
} Event;

/* A multiset of processes with O(1) add/remove and a dense list to walk. */
typedef struct {
  guint32 *count;      /* per process (+1 slot for "no process") */
  guint32 *pos;        /* index in list, valid while count > 0 */
  guint32 *list;       /* processes with count > 0 (room for every one: no regrowing) */
  guint    len;
  guint    total;
} ProcSet;

static void
proc_set_init (ProcSet *s, guint n)
{
  s->count = g_new0 (guint32, n + 1);
  s->pos = g_new0 (guint32, n + 1);
  s->list = g_new (guint32, n + 1);
  s->len = 0;
  s->total = 0;
}

static void
proc_set_clear (ProcSet *s)
{
  g_free (s->count);
  g_free (s->pos);
  g_free (s->list);
}

static void
proc_set_add (ProcSet *s, guint32 p)
{
  if (s->count[p]++ == 0)
    {
      s->pos[p] = s->len;
      s->list[s->len++] = p;
    }
  s->total++;
}

static void
proc_set_remove (ProcSet *s, guint32 p)
{
  g_assert (s->count[p] > 0);
  s->total--;
  if (--s->count[p] == 0)
    {
      guint32 last = s->list[--s->len];
      s->pos[last] = s->pos[p];
      s->list[s->pos[p]] = last;
    }
}

static int
event_cmp (gconstpointer a, gconstpointer b)
{
  const Event *x = a, *y = b;

  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  if (x->ts_ns != y->ts_ns)
    return x->ts_ns < y->ts_ns ? -1 : 1;
  return (int) x->kind - (int) y->kind;
}

static guint64
event_key (const Event *e, gint64 min_ts)
{
  return (guint64) e->device << 48 | (guint64) (e->ts_ns - min_ts);
}

/* LSD radix on 16-bit digits: stable, O(n) whatever the times. */
static void
radix_sort_events (Event *a, guint n, gint64 min_ts, guint64 max_key)
{
  g_autofree Event *tmp = g_new (Event, n);
  g_autofree guint *count = g_new (guint, 65536);

  for (guint shift = 0; shift < 64 && (max_key >> shift) > 0; shift += 16)
    {
      guint sum = 0;

      memset (count, 0, 65536 * sizeof (guint));
      for (guint i = 0; i < n; i++)
        count[(event_key (&a[i], min_ts) >> shift) & 0xffff]++;
      for (guint d = 0; d < 65536; d++)
        {
          guint c = count[d];
          count[d] = sum;
          sum += c;
        }
      for (guint i = 0; i < n; i++)
        tmp[count[(event_key (&a[i], min_ts) >> shift) & 0xffff]++] = a[i];
      memcpy (a, tmp, sizeof (Event) * n);
    }
}

/* One stable pass into about n / 2 buckets by the key's top bits, then a stable insertion sort
 * of each: events spread over time land a few to a bucket, and this costs a third of the radix
 * sort's three or four passes. FALSE (nothing moved) when the buckets are too full for that. */
static gboolean
bucket_sort_events (Event *a, guint n, gint64 min_ts, guint64 max_key)
{
  guint bits = 1, key_bits = g_bit_storage (max_key), shift;
  guint64 work = 0, last;
  g_autofree guint *start = NULL;
  g_autofree Event *tmp = NULL;

  /* up to 2^25 buckets: 10M requests' 30M events still land a few to one */
  while (bits < 25 && (1u << bits) < n / 2)
    bits++;
  shift = key_bits > bits ? key_bits - bits : 0;
  start = g_new0 (guint, (1u << bits) + 1);
  for (guint i = 0; i < n; i++)
    start[(event_key (&a[i], min_ts) >> shift) + 1]++;
  for (guint d = 0; d < (1u << bits); d++)
    {
      work += (guint64) start[d + 1] * start[d + 1];
      start[d + 1] += start[d];
    }
  if (work > (guint64) n * 16)
    return FALSE;
  tmp = g_new (Event, n);
  /* each bucket's start moves to its end as it fills: nothing reads the starts after */
  for (guint i = 0; i < n; i++)
    tmp[start[event_key (&a[i], min_ts) >> shift]++] = a[i];
  /* one insertion sort over all: every key of a bucket is below every key of the next, so none
   * moves past its bucket's start, and this costs no look at each of the n / 2 buckets; the
   * greatest key so far is the last event's, whether this one moved or not */
  last = event_key (&tmp[0], min_ts);
  for (guint i = 1; i < n; i++)
    {
      Event e = tmp[i];
      guint64 k = event_key (&e, min_ts);
      guint j = i;

      if (last <= k)
        {
          last = k;
          continue;
        }
      for (; j > 0 && event_key (&tmp[j - 1], min_ts) > k; j--)
        tmp[j] = tmp[j - 1];
      tmp[j] = e;
    }
  memcpy (a, tmp, sizeof (Event) * n);
  return TRUE;
}

/* By device, then time, stably (the order within one instant does not matter to the sweep,
 * which applies every change at an instant before it books the next interval, but the bin
 * index's checks every 64 events see it). Millions of events sort in a fraction of the time a
 * comparison sort takes. */
static void
sort_events (GArray *events)
{
  Event *a = (Event *) events->data;
  guint n = events->len;
  gint64 min_ts = G_MAXINT64, max_ts = G_MININT64;
  guint16 max_device = 0;
  guint64 max_key;

  for (guint i = 0; i < n; i++)
    {
      min_ts = MIN (min_ts, a[i].ts_ns);
      max_ts = MAX (max_ts, a[i].ts_ns);
      max_device = MAX (max_device, a[i].device);
    }
  if (n < 2)
    return;
  if ((guint64) (max_ts - min_ts) >= (G_GUINT64_CONSTANT (1) << 48))
    {
      g_array_sort (events, event_cmp);
      return;
    }
  /* at least the greatest key, with the same highest bit: all the sorts ask of it */
  max_key = (guint64) max_device << 48 | (guint64) (max_ts - min_ts);
  if (!bucket_sort_events (a, n, min_ts, max_key))
    radix_sort_events (a, n, min_ts, max_key);
}

/* Events are written in place: collect_events sizes the array for every one. */
static void
push (GArray *events, gint64 ts, guint32 process, guint16 device, EventKind kind)
{
  ((Event *) events->data)[events->len++] = (Event) { ts, process, device, kind };
}

static gboolean
known (gint64 ts)
{
  return ts != IOCHART_TIME_UNKNOWN;
}

/* One request's events (rq of the device asked for, if any). Flushes carry no data: they are
 * neither foreground nor idle work. issues, when given: the (issue time, issues) pairs of the
 * device's issued idle-class ([0]) and unknown-class ([1]) requests. */
static void
collect_request (GArray *events, const IochartRequest *rq, guint n_processes, GArray **issues)
{
  guint32 p;

  /* an unknown issue time (G_MININT64) sorts first: only a range without a start takes it;
   * written in place, as push() does (the arrays are sized for every request) */
  if (issues && rq->issues > 0 && (rq->klass == IOCHART_CLASS_IDLE || rq->klass == IOCHART_CLASS_UNKNOWN))
    {
      GArray *to = issues[rq->klass != IOCHART_CLASS_IDLE];
      gint64 *pair = (gint64 *) to->data + 2 * to->len++;

      pair[0] = rq->issue_ns;
      pair[1] = rq->issues;
    }
  if (rq->op == IOCHART_OP_FLUSH || rq->bytes == 0 || !known (rq->complete_ns))
    return;
  p = rq->process == IOCHART_NO_PROCESS || rq->process >= n_processes ? n_processes : rq->process;
  if (rq->klass == IOCHART_CLASS_IDLE)
    {
      if (!known (rq->issue_ns) || rq->issue_ns > rq->complete_ns)
        return;
      push (events, rq->issue_ns, p, rq->device, EV_IDLE_ISSUE);
      push (events, rq->complete_ns, p, rq->device, EV_IDLE_END);
    }
  else
    {
      gint64 out = known (rq->insert_ns) ? rq->insert_ns
                 : known (rq->queue_ns) ? rq->queue_ns : rq->issue_ns;
      gboolean issued = known (rq->issue_ns) && rq->issue_ns <= rq->complete_ns;

      if (!known (out) || out > rq->complete_ns)
        return;
      if (issued && rq->issue_ns < out)
        out = rq->issue_ns;
      push (events, out, p, rq->device, EV_FG_OUT_START);
      if (issued)
        push (events, rq->issue_ns, p, rq->device, EV_FG_ISSUE);
      push (events, rq->complete_ns, p, rq->device, issued ? EV_FG_END_ISSUED : EV_FG_END);
    }
}

/* at most three events a request: sized once, as regrowing hundreds of MB costs more */
static GArray *
events_sized (guint n_requests)
{
  return g_array_sized_new (FALSE, FALSE, sizeof (Event), (guint) MIN ((guint64) n_requests * 3, G_MAXUINT));
}

/* The issues of idle-class and unknown-class requests per device index (n_devices each). */
typedef struct {
  guint64 *idle, *unknown;
  guint    n_devices;
} ClassIssues;

static void
class_issues_init (ClassIssues *ci, IochartCapture *capture)
{
  ci->n_devices = iochart_capture_get_n_devices (capture);
  ci->idle = g_new0 (guint64, MAX (ci->n_devices, 1));
  ci->unknown = g_new0 (guint64, MAX (ci->n_devices, 1));
}

static void
class_issues_add (ClassIssues *ci, const IochartRequest *rq, const IochartStealOptions *o)
{
  if (!iochart_counts_request_in (rq, o->device, o->from_ns, o->to_ns) || rq->device >= ci->n_devices)
    return;
  if (rq->klass == IOCHART_CLASS_IDLE)
    ci->idle[rq->device] += rq->issues;
  else if (rq->klass == IOCHART_CLASS_UNKNOWN)
    ci->unknown[rq->device] += rq->issues;
}

/* ci, when given, counts the class issues from the same unpacking (class_issues_count()). */
static GArray *
collect_events (IochartCapture *capture, const IochartStealOptions *o, guint n_processes, ClassIssues *ci)
{
  int only_device = o->device;
  guint n = o->requests ? o->n_requests : iochart_capture_get_n_requests (capture);
  GArray *events = events_sized (n);

  if (ci)
    class_issues_init (ci, capture);
  for (guint j = 0; j < n; j++)
    {
      IochartRequest rq;

      _iochart_capture_unpack (capture, o->requests ? o->requests[j] : j, &rq);
      if (ci)
        class_issues_add (ci, &rq, o);
      if (only_device < 0 || rq.device == only_device)
        collect_request (events, &rq, n_processes, NULL);
    }
  sort_events (events);
  return events;
}

typedef struct {
  IochartSteal *self;
  guint         n_processes;
  gint64        from_ns, to_ns, gap_ns;
  guint         n_columns;
  gint64        col_from_ns;
  double        ns_per_column;
  gboolean      columns_later;    /* the columns come from the events' running integrals */
  /* the device being swept */
  IochartStealDevice *dev;
  /* Each idle request in flight during a stolen instant takes 1 / (n_idle + n_fg) of it: with
   * F(t) the integral of that, a request's share is F(end) - F(start), so attribution costs
   * O(1) per event: issue subtracts F, completion adds it. */
  double        F;
  double       *idle_stolen;      /* per process, F-encoded */
  double        stolen;
  ProcSet      *idle;             /* the idle requests in flight */
  ProcSet      *fg_out;
  gboolean      fg_dirty;         /* fg_out gained a process since the last marking */
  /* the open episode */
  gboolean      in_episode;
  guint         serial;           /* episode number, for the stamps */
  gint64        ep_start, ep_end;
  double        ep_stolen;
  double       *ep_idle;          /* per process, F-encoded like idle_stolen */
  guint        *ep_touched_stamp; /* serial when the process entered ep_touched */
  GArray       *ep_touched;       /* idle processes with a part in the episode */
  guint        *ep_wait_stamp;    /* serial when the process entered ep_waiting */
  GArray       *ep_waiting;       /* guint32 */
  ChecksBuild  *checks;           /* built on the way (a whole sweep of packed events), or NULL */
} Sweep;

static int
share_cmp (gconstpointer a, gconstpointer b)
{
  const IochartStealShare *x = a, *y = b;

  if (x->stolen_ns != y->stolen_ns)
    return x->stolen_ns > y->stolen_ns ? -1 : 1;
  return x->process < y->process ? -1 : x->process > y->process;
}

static int
u32_cmp (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static void
touch (Sweep *s, guint32 p)
{
  if (s->ep_touched_stamp[p] != s->serial)
    {
      s->ep_touched_stamp[p] = s->serial;
      g_array_append_val (s->ep_touched, p);
    }
}

static void
close_episode (Sweep *s)
{
  IochartStealEpisode ep = { 0 };

  if (!s->in_episode)
    return;
  ep.start_ns = s->ep_start;
  ep.end_ns = s->ep_end;
  ep.device = s->dev->device;
  ep.stolen_ns = (gint64) llround (s->ep_stolen);
  ep.idle = g_array_new (FALSE, FALSE, sizeof (IochartStealShare));
  ep.waiting = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < s->ep_touched->len; i++)
    {
      guint32 p = g_array_index (s->ep_touched, guint32, i);
      double v = s->ep_idle[p] + s->idle->count[p] * s->F;
      IochartStealShare share = { p == s->n_processes ? IOCHART_NO_PROCESS : p, (gint64) llround (v) };

      if (share.stolen_ns > 0)
        g_array_append_val (ep.idle, share);
      /* requests still in flight count from here on for the next episode */
      s->ep_idle[p] = -(double) s->idle->count[p] * s->F;
    }
  g_array_sort (ep.idle, share_cmp);
  ep.idle_process = ep.idle->len ? g_array_index (ep.idle, IochartStealShare, 0).process
                                 : IOCHART_NO_PROCESS;
  for (guint i = 0; i < s->ep_waiting->len; i++)
    {
      guint32 p = g_array_index (s->ep_waiting, guint32, i);
      if (p < s->n_processes)
        g_array_append_val (ep.waiting, p);
    }
  g_array_sort (ep.waiting, u32_cmp);
  g_array_append_val (s->self->episodes, ep);
  s->dev->n_episodes++;
  g_array_set_size (s->ep_touched, 0);
  g_array_set_size (s->ep_waiting, 0);
  s->in_episode = FALSE;
}

static void
open_episode (Sweep *s, gint64 a)
{
  s->in_episode = TRUE;
  s->serial++;
  s->ep_start = a;
  s->ep_stolen = 0;
  s->fg_dirty = TRUE;
  for (guint i = 0; i < s->idle->len; i++)
    touch (s, s->idle->list[i]);
}

/* Books [a, b) where the state is constant. */
static void
segment (Sweep *s, gint64 a, gint64 b, guint n_fg_flight)
{
  double denom, dt, share;

  a = MAX (a, s->from_ns);
  b = MIN (b, s->to_ns);
  if (b <= a || s->fg_out->total == 0)
    return;
  s->dev->foreground_active_ns += b - a;
  if (s->n_columns && !s->columns_later)
    _iochart_columns_spread (s->dev->active_columns, s->n_columns, s->col_from_ns,
                            s->ns_per_column, a, b, 1.0);
  if (s->idle->total == 0)
    return;

  /* the episode boundary first: closing books the parts up to the current F */
  if (s->in_episode && a - s->ep_end > s->gap_ns)
    close_episode (s);
  if (!s->in_episode)
    open_episode (s, a);

  dt = (double) (b - a);
  denom = s->idle->total + n_fg_flight;
  share = s->idle->total / denom;
  s->stolen += dt * share;
  s->F += dt / denom;
  if (s->n_columns && !s->columns_later)
    _iochart_columns_spread (s->dev->stolen_columns, s->n_columns, s->col_from_ns,
                            s->ns_per_column, a, b, share);
  s->ep_end = b;
  s->ep_stolen += dt * share;
  if (s->fg_dirty)
    {
      for (guint i = 0; i < s->fg_out->len; i++)
        {
          guint32 p = s->fg_out->list[i];
          if (s->ep_wait_stamp[p] != s->serial)
            {
              s->ep_wait_stamp[p] = s->serial;
              g_array_append_val (s->ep_waiting, p);
            }
        }
      s->fg_dirty = FALSE;
    }
}

static void
finish_device (Sweep *s)
{
  close_episode (s);
  s->dev->stolen_ns = (gint64) llround (s->stolen);
  for (guint p = 0; p <= s->n_processes; p++)
    {
      /* every request has ended: the F-encoded sums are final */
      IochartStealShare share = { p == s->n_processes ? IOCHART_NO_PROCESS : p,
                                  (gint64) llround (s->idle_stolen[p]) };
      if (share.stolen_ns > 0)
        g_array_append_val (s->dev->idle, share);
    }
  g_array_sort (s->dev->idle, share_cmp);
}

/* A device's events sorted by time, packed: the low 32 bits of each time since origin_ns with
 * the process and kind beside them; the high bits start at the events `epochs` name. Also the
 * issue times of idle and unknown-class requests, for the counts the figures come with. */
#define PK_KIND_BITS 3
#define PK_MAX_PROCESS (G_MAXUINT32 >> PK_KIND_BITS)

typedef struct {
  guint32 first;       /* first event of the epoch */
  guint32 hi;          /* (ts - origin) >> 32 of its events */
} Epoch;

typedef struct {
  gint64  *issue_ns;   /* ascending */
  guint32 *issues;     /* issues before each, n + 1, modulo 2^32 (a range's difference is exact) */
  guint    n;
} IssueTimes;

/* Every STEAL_CHECK events: the device's stolen and foreground-active time before the event, and
 * the counts in force then, so that a column's figures are differences of running integrals. */
#define STEAL_CHECK 32
#define STEAL_SAMPLE 256

typedef struct {
  double  stolen, active;
  double  F;           /* the sweep's F: the integral of 1 / (n_idle + n_fg_in_flight) over stolen time */
  double  both;        /* stolen time (idle in flight while foreground outstanding), integer ns */
  guint32 idle, flight, fg_out;
} Check;

/* An idle process's requests paired first in, first out (its issues in order with its ends in
 * order: the same F-encoded sums as the true pairs, and a time's open pairs are one run): their
 * issue and end times ascending, and the F each pair booked before pair k, for
 * G(t) = sum over its requests of F(min(end, t)) - F(min(issue, t)), its share up to t. */
typedef struct {
  guint32  process;    /* the sweep's: n_processes for none */
  guint    first, n;   /* its run in the flat arrays */
  double   total;      /* the F all its pairs booked */
} IdleRun;

/* A foreground process's outstanding time with some stolen time in it: disjoint spans, the
 * gaps between them holding no stolen time, so that it waited in a window iff a span meets the
 * window's stolen time. */
typedef struct {
  guint32  process;
  guint    first, n;
} WaitRun;

struct _IochartStealEvents {
  Check     *checks;
  /* the time of every STEAL_SAMPLE-th event: a search for a column edge's events goes over these
   * (about a MB at 10M requests) before a KB of the events themselves, not by probes missing the
   * cache across all of them (hundreds of MB) */
  gint64    *sample_ts;
  IochartSteal *all;   /* the device's whole steal at the default gap: a range's whole episodes */
  IdleRun   *idle_runs;
  guint      n_idle_runs;
  gint64    *idle_issue, *idle_end;   /* per idle run, ascending */
  double    *idle_before;             /* F booked by the run's pairs before pair k */
  guint      n_idle_pairs, n_spans;
  WaitRun   *wait_runs;
  guint      n_wait_runs;
  gint64    *wait_start, *wait_end;   /* per wait run, ascending, disjoint */
  int        device;
  gint64     origin_ns;
  guint      n;
  guint32   *lo;
  guint32   *pk;
  Epoch     *epochs;
  guint      n_epochs;
  IssueTimes idle_issues, unknown_issues;
};

/* Where the sweep reads its events: an array (pre), then a stretch of a device's packed events. */
typedef struct {
  const Event              *pre;
  guint                     n_pre;
  const IochartStealEvents *packed;
  guint                     at, end;     /* stretch [at, end) of packed */
  guint                     epoch;
} Cursor;

static gint64
packed_ts (const IochartStealEvents *e, guint i, guint *epoch)
{
  while (*epoch + 1 < e->n_epochs && e->epochs[*epoch + 1].first <= i)
    (*epoch)++;
  while (*epoch > 0 && e->epochs[*epoch].first > i)
    (*epoch)--;
  return e->origin_ns + ((gint64) e->epochs[*epoch].hi << 32 | e->lo[i]);
}

/* The next event into ev; FALSE when none is left. */
static gboolean
cursor_peek (Cursor *c, Event *ev)
{
  if (c->n_pre > 0)
    {
      *ev = c->pre[0];
      return TRUE;
    }
  if (c->packed == NULL || c->at >= c->end)
    return FALSE;
  ev->ts_ns = packed_ts (c->packed, c->at, &c->epoch);
  ev->process = c->packed->pk[c->at] >> PK_KIND_BITS;
  ev->kind = c->packed->pk[c->at] & ((1u << PK_KIND_BITS) - 1);
  ev->device = c->packed->device;
  return TRUE;
}

static void
cursor_next (Cursor *c)
{
  if (c->n_pre > 0)
    {
      c->pre++;
      c->n_pre--;
    }
  else
    c->at++;
}

static void
apply_event (Sweep *s, const Event *ev, guint *n_fg_flight)
{
  guint32 p = ev->process;

  switch ((EventKind) ev->kind)
    {
    case EV_FG_OUT_START:
      proc_set_add (s->fg_out, p);
      s->fg_dirty = TRUE;
      break;
    case EV_FG_ISSUE:
      (*n_fg_flight)++;
      break;
    case EV_FG_END_ISSUED:
      (*n_fg_flight)--;
      G_GNUC_FALLTHROUGH;
    case EV_FG_END:
      proc_set_remove (s->fg_out, p);
      break;
    case EV_IDLE_ISSUE:
      proc_set_add (s->idle, p);
      s->idle_stolen[p] -= s->F;
      s->ep_idle[p] -= s->F;
      if (s->in_episode)
        touch (s, p);
      break;
    case EV_IDLE_END:
      proc_set_remove (s->idle, p);
      s->idle_stolen[p] += s->F;
      s->ep_idle[p] += s->F;
      break;
    }
}

/* Sweeps the cursor's events; with beyond_ns, the events after that time are not read: the
 * time after the range books nothing, and the idle requests still in flight end at the F the
 * range left (as their own completions would add it). */
static void
sweep_device (Sweep *s, Cursor *cur, guint device, gint64 beyond_ns)
{
  ProcSet fg_out, idle;
  guint n_fg_flight = 0;
  IochartStealDevice dev = { .device = device };
  gsize np = s->n_processes + 1;
  Event ev;
  gboolean more;

  dev.idle = g_array_new (FALSE, FALSE, sizeof (IochartStealShare));
  if (s->n_columns)
    {
      dev.stolen_columns = g_new0 (double, s->n_columns);
      dev.active_columns = g_new0 (double, s->n_columns);
    }
  g_array_append_val (s->self->devices, dev);
  s->dev = &g_array_index (s->self->devices, IochartStealDevice, s->self->devices->len - 1);
  memset (s->idle_stolen, 0, sizeof (double) * np);
  memset (s->ep_idle, 0, sizeof (double) * np);
  s->stolen = 0;
  s->F = 0;
  s->in_episode = FALSE;
  proc_set_init (&fg_out, s->n_processes);
  proc_set_init (&idle, s->n_processes);
  s->fg_out = &fg_out;
  s->idle = &idle;

  more = cursor_peek (cur, &ev);
  while (more)
    {
      gint64 ts = ev.ts_ns;

      if (ts > beyond_ns)
        break;   /* the segment before it was booked up to the range's end */
      /* every change at one instant first: zero-length states weigh nothing */
      while (more && ev.ts_ns == ts)
        {
          if (s->checks)
            checks_event (s->checks, cur->at, ts, ev.kind, ev.process);
          apply_event (s, &ev, &n_fg_flight);
          s->self->n_read++;
          cursor_next (cur);
          more = cursor_peek (cur, &ev);
        }
      if (more && s->checks)
        checks_book (s->checks, ts, ev.ts_ns);
      if (more)
        segment (s, ts, ev.ts_ns, n_fg_flight);
    }
  for (guint i = 0; i < idle.len; i++)
    {
      guint32 p = idle.list[i];
      for (guint k = 0; k < idle.count[p]; k++)
        s->idle_stolen[p] += s->F;
    }
  finish_device (s);
  proc_set_clear (&fg_out);
  proc_set_clear (&idle);
  s->fg_out = s->idle = NULL;
}

static int
episode_cmp (gconstpointer a, gconstpointer b)
{
  const IochartStealEpisode *x = a, *y = b;

  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return x->device < y->device ? -1 : x->device > y->device;
}

static void
clear_episode (gpointer data)
{
  IochartStealEpisode *ep = data;
  g_clear_pointer (&ep->idle, g_array_unref);
  g_clear_pointer (&ep->waiting, g_array_unref);
}

static void
clear_device (gpointer data)
{
  IochartStealDevice *dev = data;
  g_clear_pointer (&dev->idle, g_array_unref);
  g_clear_pointer (&dev->stolen_columns, g_free);
  g_clear_pointer (&dev->active_columns, g_free);
}

int
iochart_steal_pick_device (IochartCapture *capture)
{
  guint n_dev = iochart_capture_get_n_devices (capture);
  guint n_rq = iochart_capture_get_n_requests (capture);
  gsize n_proc = iochart_capture_get_n_processes (capture);
  g_autofree guint8 *seen = NULL;   /* a bit per (device, process) */
  g_autofree guint *distinct = g_new0 (guint, n_dev + 1);
  g_autofree guint64 *bytes = g_new0 (guint64, n_dev + 1);
  int best = -1;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), -1);

  if (n_dev <= 1)
    return n_dev == 1 ? 0 : -1;   /* the common case needs no look at the requests */
  seen = g_new0 (guint8, (n_dev * n_proc + 7) / 8);
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;
      gsize bit;

      _iochart_capture_unpack (capture, i, &rq);
      if (rq.device >= n_dev)
        continue;
      bytes[rq.device] += rq.bytes;
      if (rq.process == IOCHART_NO_PROCESS || rq.process >= n_proc)
        continue;
      bit = (gsize) rq.device * n_proc + rq.process;
      if (!(seen[bit / 8] & (1u << (bit % 8))))
        {
          seen[bit / 8] |= 1u << (bit % 8);
          distinct[rq.device]++;
        }
    }
  for (guint d = 0; d < n_dev; d++)
    if (best < 0 || distinct[d] > distinct[best] ||
        (distinct[d] == distinct[best] && bytes[d] > bytes[best]))
      best = d;
  return best;
}

static void
class_issues_count (ClassIssues *ci, IochartCapture *capture, const IochartStealOptions *o)
{
  guint n = o->requests ? o->n_requests : iochart_capture_get_n_requests (capture);

  class_issues_init (ci, capture);
  for (guint j = 0; j < n; j++)
    {
      IochartRequest rq;

      _iochart_capture_unpack (capture, o->requests ? o->requests[j] : j, &rq);
      class_issues_add (ci, &rq, o);
    }
}

static void
class_issues_clear (ClassIssues *ci)
{
  g_clear_pointer (&ci->idle, g_free);
  g_clear_pointer (&ci->unknown, g_free);
}

/* Whether every device the options ask for would be iochart_steal_device_is_unknown(). */
static gboolean
class_issues_all_unknown (const ClassIssues *ci, IochartCapture *capture, const IochartStealOptions *o)
{
  guint n_dev = iochart_capture_get_n_devices (capture);

  for (guint d = 0; d < n_dev; d++)
    if ((o->device < 0 || (guint) o->device == d) && (ci->idle[d] > 0 || ci->unknown[d] == 0))
      return FALSE;
  return n_dev > 0;
}

static void
count_classes (IochartSteal *self, const ClassIssues *ci)
{
  for (guint i = 0; i < self->devices->len; i++)
    {
      IochartStealDevice *d = &g_array_index (self->devices, IochartStealDevice, i);

      d->idle_requests = ci->idle[d->device];
      d->unknown_requests = ci->unknown[d->device];
    }
}

gboolean
iochart_steal_device_is_unknown (const IochartStealDevice *d)
{
  return d != NULL && d->idle_requests == 0 && d->unknown_requests > 0;
}

gint64 *
iochart_steal_device_per_lane (const IochartStealDevice *d, IochartLanes *lanes)
{
  gint64 *per_lane = g_new0 (gint64, MAX (iochart_lanes_get_n_lanes (lanes), 1));

  for (guint i = 0; d->idle && i < d->idle->len; i++)
    {
      const IochartStealShare *share = &g_array_index (d->idle, IochartStealShare, i);
      int lane = iochart_lanes_lane_of_process (lanes, share->process);

      if (lane >= 0)
        per_lane[lane] += share->stolen_ns;
    }
  return per_lane;
}

/* ---- a device's events, sorted once ---- */

/* pairs: (issue time, issues) */
static void
issue_times_init (IssueTimes *t, GArray *pairs)
{
  _iochart_radix_sort_records (pairs->data, pairs->len, 2 * sizeof (gint64), 0);
  t->n = pairs->len;
  t->issue_ns = g_new (gint64, MAX (t->n, 1));
  t->issues = g_new (guint32, t->n + 1);
  t->issues[0] = 0;
  for (guint i = 0; i < t->n; i++)
    {
      const gint64 *pair = &g_array_index (pairs, gint64, 2 * i);

      t->issue_ns[i] = pair[0];
      t->issues[i + 1] = t->issues[i] + (guint32) pair[1];
    }
}

/* Issues at times in [from_ns, to_ns), as iochart_counts_request_in() takes them. */
static guint64
issue_times_count (const IssueTimes *t, gint64 from_ns, gint64 to_ns)
{
  guint lo = 0, hi = t->n, a;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (t->issue_ns[mid] < from_ns) lo = mid + 1; else hi = mid;
    }
  a = lo;
  hi = t->n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (t->issue_ns[mid] < to_ns) lo = mid + 1; else hi = mid;
    }
  return (guint32) (t->issues[lo] - t->issues[a]);
}

/* The counts an event changes (the sweep's sets, counted only). */
static void
check_apply (Check *c, guint kind)
{
  switch ((EventKind) kind)
    {
    case EV_FG_OUT_START: c->fg_out++; break;
    case EV_FG_ISSUE: c->flight++; break;
    case EV_FG_END_ISSUED: c->flight--; c->fg_out--; break;
    case EV_FG_END: c->fg_out--; break;
    case EV_IDLE_ISSUE: c->idle++; break;
    case EV_IDLE_END: c->idle--; break;
    }
}

/* Books [a, b) under c's counts as segment() does. */
static void
check_book (Check *c, double a, double b)
{
  if (b <= a || c->fg_out == 0)
    return;
  c->active += b - a;
  if (c->idle > 0)
    {
      c->stolen += (b - a) * c->idle / (c->idle + c->flight);
      c->F += (b - a) / (c->idle + c->flight);
      c->both += b - a;
    }
}

/* check_apply() undone: the counts before the event. */
static void
check_unapply (Check *c, guint kind)
{
  switch ((EventKind) kind)
    {
    case EV_FG_OUT_START: c->fg_out--; break;
    case EV_FG_ISSUE: c->flight--; break;
    case EV_FG_END_ISSUED: c->flight++; c->fg_out++; break;
    case EV_FG_END: c->fg_out++; break;
    case EV_IDLE_ISSUE: c->idle--; break;
    case EV_IDLE_END: c->idle++; break;
    }
}

static gboolean
check_stolen (const Check *c)
{
  return c->fg_out > 0 && c->idle > 0;
}

/* A foreground process's outstanding time being gathered into spans (see WaitRun). */
typedef struct {
  guint32 count;       /* its requests outstanding */
  gboolean any;        /* a span is pending */
  gint64  start, end;
  double  both_start, both_end;   /* stolen time before its start and end */
} WaitTrack;

/* spans: sized for a span a foreground request (written in place) */
static void
wait_span_flush (WaitTrack *w, guint32 p, GArray *spans)
{
  if (w->any && w->both_end > w->both_start)
    {
      gint64 *span = (gint64 *) spans->data + 3 * spans->len++;

      span[0] = p;
      span[1] = w->start;
      span[2] = w->end;
    }
  w->any = FALSE;
}

/* The checks, and from the same pass (the same F, bit for bit, as a check's replay gives) the
 * idle runs and the wait runs of n_slots processes (the last: none), being built by the device's
 * whole sweep: checks_event() for every event in turn, checks_book() between two times. */
struct _ChecksBuild {
  IochartStealEvents *self;
  guint     n_slots;
  Check     c;
  guint    *idle_first, *issued, *ended;
  double   *idle_f, *booked;
  WaitTrack *wait;
  GArray   *spans;
};

static ChecksBuild *
checks_begin (IochartStealEvents *self, guint n_slots)
{
  ChecksBuild *b = g_new0 (ChecksBuild, 1);
  guint n_idle, n_fg = 0;

  b->self = self;
  b->n_slots = n_slots;
  b->idle_first = g_new0 (guint, n_slots + 1);
  b->issued = g_new0 (guint, n_slots);
  b->ended = g_new0 (guint, n_slots);
  b->booked = g_new0 (double, n_slots);
  b->wait = g_new0 (WaitTrack, n_slots);
  for (guint i = 0; i < self->n; i++)
    if ((self->pk[i] & ((1u << PK_KIND_BITS) - 1)) == EV_IDLE_ISSUE)
      b->idle_first[(self->pk[i] >> PK_KIND_BITS) + 1]++;
    else
      n_fg += (self->pk[i] & ((1u << PK_KIND_BITS) - 1)) == EV_FG_OUT_START;
  b->spans = g_array_sized_new (FALSE, FALSE, 3 * sizeof (gint64), n_fg);
  for (guint p = 0; p < n_slots; p++)
    {
      b->idle_first[p + 1] += b->idle_first[p];
      self->n_idle_runs += b->idle_first[p + 1] > b->idle_first[p];
    }
  n_idle = self->n_idle_pairs = b->idle_first[n_slots];
  self->idle_issue = g_new (gint64, MAX (n_idle, 1));
  self->idle_end = g_new (gint64, MAX (n_idle, 1));
  self->idle_before = g_new (double, MAX (n_idle, 1));
  b->idle_f = g_new (double, MAX (n_idle, 1));
  self->checks = g_new (Check, self->n / STEAL_CHECK + 1);
  self->sample_ts = g_new (gint64, self->n / STEAL_SAMPLE + 1);
  return b;
}

/* Event i, at t. */
static void
checks_event (ChecksBuild *b, guint i, gint64 t, guint kind, guint32 p)
{
  Check *c = &b->c;
  WaitTrack *w = &b->wait[p];

  if (i % STEAL_CHECK == 0)
    b->self->checks[i / STEAL_CHECK] = *c;
  if (i % STEAL_SAMPLE == 0)
    b->self->sample_ts[i / STEAL_SAMPLE] = t;
  /* c->F and c->both are those at t: booked up to it */
  switch ((EventKind) kind)
    {
    case EV_IDLE_ISSUE:
      b->self->idle_issue[b->idle_first[p] + b->issued[p]] = t;
      b->idle_f[b->idle_first[p] + b->issued[p]++] = c->F;
      break;
    case EV_IDLE_END:
      {
        guint k = b->idle_first[p] + b->ended[p]++;

        b->self->idle_end[k] = t;
        b->self->idle_before[k] = b->booked[p];
        b->booked[p] += c->F - b->idle_f[k];
      }
      break;
    case EV_FG_OUT_START:
      if (w->count++ == 0 && !(w->any && w->both_end == c->both))
        {
          /* stolen time since its last span ended: a new span */
          wait_span_flush (w, p, b->spans);
          *w = (WaitTrack) { 1, TRUE, t, t, c->both, c->both };
        }
      break;
    case EV_FG_END:
    case EV_FG_END_ISSUED:
      if (--w->count == 0)
        {
          w->end = t;
          w->both_end = c->both;
        }
      break;
    default:
      break;
    }
  check_apply (c, kind);
}

static void
checks_book (ChecksBuild *b, gint64 from, gint64 to)
{
  check_book (&b->c, (double) from, (double) to);
}

static void
checks_end (ChecksBuild *b)
{
  IochartStealEvents *self = b->self;
  guint n_slots = b->n_slots;
  GArray *spans = b->spans;

  if (self->n % STEAL_CHECK == 0)
    self->checks[self->n / STEAL_CHECK] = b->c;

  self->idle_runs = g_new (IdleRun, MAX (self->n_idle_runs, 1));
  for (guint p = 0, r = 0; p < n_slots; p++)
    if (b->idle_first[p + 1] > b->idle_first[p])
      self->idle_runs[r++] = (IdleRun) { p, b->idle_first[p], b->idle_first[p + 1] - b->idle_first[p], b->booked[p] };

  for (guint p = 0; p < n_slots; p++)
    wait_span_flush (&b->wait[p], p, spans);
  /* by process, then start: each process's spans were flushed in the order they started */
  _iochart_radix_sort_records (spans->data, spans->len, 3 * sizeof (gint64), 0);
  self->n_spans = spans->len;
  self->wait_start = g_new (gint64, MAX (spans->len, 1));
  self->wait_end = g_new (gint64, MAX (spans->len, 1));
  self->wait_runs = g_new (WaitRun, MAX (spans->len, 1));
  for (guint k = 0; k < spans->len; k++)
    {
      const gint64 *span = &g_array_index (spans, gint64, 3 * k);

      self->wait_start[k] = span[1];
      self->wait_end[k] = span[2];
      if (k == 0 || span[0] != span[-3])
        self->wait_runs[self->n_wait_runs++] = (WaitRun) { (guint32) span[0], k, 0 };
      self->wait_runs[self->n_wait_runs - 1].n++;
    }
  g_array_unref (spans);
  g_free (b->idle_first);
  g_free (b->issued);
  g_free (b->ended);
  g_free (b->idle_f);
  g_free (b->booked);
  g_free (b->wait);
  g_free (b);
}

static guint packed_lower (const IochartStealEvents *e, gint64 ts);

/* First event at or after ts of [lo, n), those before lo being before ts: galloping over the
 * samples' times from lo's, then a search among one sample's events. The next column edge's
 * events, check and sample are asked for early (lo the last edge's answer). */
static guint
packed_lower_after (const IochartStealEvents *e, guint lo, gint64 ts, guint *epoch)
{
  guint n_samples = (e->n + STEAL_SAMPLE - 1) / STEAL_SAMPLE, j0 = (lo + STEAL_SAMPLE - 1) / STEAL_SAMPLE, j, hi;
  guint from = lo, next;

  /* sample j's event is the first at or after ts, or the answer lies between sample j - 1's and it */
  j = _iochart_gallop_i64 (e->sample_ts, j0, n_samples, ts);
  hi = j < n_samples ? j * STEAL_SAMPLE : e->n;
  lo = j > j0 ? (j - 1) * STEAL_SAMPLE : lo;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (packed_ts (e, mid, epoch) < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if ((next = _iochart_next_guess (from, lo, e->n)) < e->n)
    {
      __builtin_prefetch (&e->lo[next]);
      __builtin_prefetch (&e->pk[next]);
      __builtin_prefetch (&e->checks[next / STEAL_CHECK]);
      __builtin_prefetch (&e->sample_ts[next / STEAL_SAMPLE]);
    }
  return lo;
}

/* Where the last integral of a column edge found its events (the next edge's are at or after),
 * and its walk from their check as it stood before its last event (valid: walked): an edge
 * whose events share that check goes on from there, not from the check again, the very same
 * steps (a zoomed-in frame's edges are a few events apart, 64 a check). */
typedef struct {
  guint end, epoch;
  gboolean valid;
  guint walked;        /* the last event's index: the walk applied and booked those before it */
  Check before_last;
} EdgeHint;

static gboolean edge_resume = TRUE;

gboolean
_iochart_steal_set_edge_resume (gboolean resume)
{
  gboolean old = edge_resume;

  edge_resume = resume;
  return old;
}

/* First event at or after ts, searched from the hint's (galloping: the next column edge's is
 * near when zoomed in), the hint's epoch carried; the same as packed_lower. */
static guint
packed_lower_from (const IochartStealEvents *e, EdgeHint *hint, gint64 ts)
{
  guint lo = hint->end;

  if (lo > 0 && packed_ts (e, lo - 1, &hint->epoch) >= ts)
    lo = 0;
  hint->end = packed_lower_after (e, lo, ts, &hint->epoch);
  return hint->end;
}

/* The device's stolen and foreground-active time before x; hint: NULL, or the last edge's
 * (of an x no greater). */
static Check
steal_integral_from (const IochartStealEvents *e, double x, EdgeHint *hint)
{
  guint end = hint ? packed_lower_from (e, hint, (gint64) ceil (x)) : packed_lower (e, (gint64) ceil (x));
  guint epoch = hint ? hint->epoch : 0;
  /* the check before the last event under x: a check books up to its own event's time */
  guint i = end > 0 ? (end - 1) / STEAL_CHECK * STEAL_CHECK : 0;
  Check c = e->checks[i / STEAL_CHECK];

  if (hint && edge_resume && hint->valid && hint->walked / STEAL_CHECK == i / STEAL_CHECK && hint->walked >= i &&
      hint->walked < end)
    {
      c = hint->before_last;
      i = hint->walked;
    }
  for (; i < end; i++)
    {
      double t = (double) packed_ts (e, i, &epoch);

      if (hint && i + 1 == end)
        {
          hint->valid = TRUE;
          hint->walked = i;
          hint->before_last = c;
        }

      check_apply (&c, e->pk[i] & ((1u << PK_KIND_BITS) - 1));
      check_book (&c, t, i + 1 < end ? (double) packed_ts (e, i + 1, &epoch) : x);
    }
  return c;
}

static Check
steal_integral (const IochartStealEvents *e, double x)
{
  return steal_integral_from (e, x, NULL);
}

/* The range's columns as differences of the device's running integrals at their edges. */
static void
columns_from_checks (Sweep *s, const IochartStealEvents *e)
{
  Check before, after;
  EdgeHint hint = { 0 };

  if (e->n == 0)
    return;
  before = steal_integral_from (e, (double) s->col_from_ns, &hint);
  for (guint c = 0; c < s->n_columns; c++)
    {
      after = steal_integral_from (e, (double) s->col_from_ns + (c + 1) * s->ns_per_column, &hint);
      s->dev->stolen_columns[c] = after.stolen - before.stolen;
      s->dev->active_columns[c] = after.active - before.active;
      before = after;
    }
}

struct _IochartStealCollect {
  IochartCapture *capture;
  int             device;
  guint           n_processes;
  GArray         *events;
  GArray         *issues[2];   /* idle, unknown */
};

IochartStealCollect *
_iochart_steal_collect_begin (IochartCapture *capture, int device)
{
  IochartStealCollect *c;
  guint n_proc = iochart_capture_get_n_processes (capture);

  if (n_proc >= PK_MAX_PROCESS || device < 0)
    return NULL;
  c = g_new0 (IochartStealCollect, 1);
  c->capture = capture;
  c->device = device;
  c->n_processes = n_proc;
  c->events = events_sized (iochart_capture_get_n_requests (capture));
  /* never regrown: untouched room costs no memory */
  c->issues[0] = g_array_sized_new (FALSE, FALSE, 2 * sizeof (gint64), iochart_capture_get_n_requests (capture));
  c->issues[1] = g_array_sized_new (FALSE, FALSE, 2 * sizeof (gint64), iochart_capture_get_n_requests (capture));
  return c;
}

void
_iochart_steal_collect_add (IochartStealCollect *c, const IochartRequest *rq)
{
  collect_request (c->events, rq, c->n_processes, c->issues);
}

IochartStealEvents *
iochart_steal_events_new (IochartCapture *capture, int device)
{
  guint n_rq = iochart_capture_get_n_requests (capture);
  IochartStealCollect *c;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  if ((c = _iochart_steal_collect_begin (capture, device)) == NULL)
    return NULL;
  for (guint i = 0; i < n_rq; i++)
    {
      IochartRequest rq;

      _iochart_capture_unpack (capture, i, &rq);
      if (rq.device == device)
        _iochart_steal_collect_add (c, &rq);
    }
  return _iochart_steal_collect_end (c);
}

IochartStealEvents *
_iochart_steal_collect_end (IochartStealCollect *c)
{
  IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
  IochartCapture *capture = c->capture;
  int device = c->device;
  guint n_proc = c->n_processes;
  g_autoptr(GArray) events = c->events;
  g_autoptr(GArray) idle = c->issues[0];
  g_autoptr(GArray) unknown = c->issues[1];
  g_autoptr(GArray) epochs = g_array_new (FALSE, FALSE, sizeof (Epoch));
  IochartStealEvents *self;
  ChecksBuild *checks;
  const Event *ev;

  g_free (c);
  o.device = device;
  sort_events (events);
  ev = (const Event *) events->data;
  self = g_new0 (IochartStealEvents, 1);
  self->device = device;
  self->n = events->len;
  self->origin_ns = self->n ? ev[0].ts_ns : 0;
  self->lo = g_new (guint32, MAX (self->n, 1));
  self->pk = g_new (guint32, MAX (self->n, 1));
  for (guint i = 0; i < self->n; i++)
    {
      guint64 off = (guint64) (ev[i].ts_ns - self->origin_ns);
      Epoch e = { i, (guint32) (off >> 32) };

      if (i == 0 || e.hi != g_array_index (epochs, Epoch, epochs->len - 1).hi)
        g_array_append_val (epochs, e);
      self->lo[i] = (guint32) off;
      self->pk[i] = ev[i].process << PK_KIND_BITS | ev[i].kind;
    }
  if (epochs->len == 0)
    g_array_append_val (epochs, ((Epoch) { 0, 0 }));
  self->n_epochs = epochs->len;
  self->epochs = (Epoch *) g_array_free (g_steal_pointer (&epochs), FALSE);
  issue_times_init (&self->idle_issues, idle);
  issue_times_init (&self->unknown_issues, unknown);
  g_clear_pointer (&events, g_array_unref);
  /* the whole device's steal (a range's whole episodes are its, the app's episode list too), its
   * sweep building the checks */
  checks = checks_begin (self, n_proc + 1);
  self->all = steal_new (capture, &o, self, checks);
  checks_end (checks);
  return self;
}

void
iochart_steal_events_free (IochartStealEvents *events)
{
  if (events == NULL)
    return;
  g_free (events->lo);
  g_free (events->pk);
  iochart_steal_free (events->all);
  g_free (events->idle_runs);
  g_free (events->idle_issue);
  g_free (events->idle_end);
  g_free (events->idle_before);
  g_free (events->wait_runs);
  g_free (events->wait_start);
  g_free (events->wait_end);
  g_free (events->epochs);
  g_free (events->checks);
  g_free (events->sample_ts);
  g_free (events->idle_issues.issue_ns);
  g_free (events->idle_issues.issues);
  g_free (events->unknown_issues.issue_ns);
  g_free (events->unknown_issues.issues);
  g_free (events);
}

gsize
iochart_steal_events_get_size (const IochartStealEvents *events)
{
  if (events == NULL)
    return 0;
  return sizeof *events + (gsize) events->n * 2 * sizeof (guint32) + events->n_epochs * sizeof (Epoch) +
         ((gsize) events->n / STEAL_CHECK + 1) * sizeof (Check) + ((gsize) events->n / STEAL_SAMPLE + 1) * sizeof (gint64) +
         (gsize) (events->idle_issues.n + events->unknown_issues.n) * (sizeof (gint64) + sizeof (guint32)) +
         events->n_idle_runs * sizeof (IdleRun) + (gsize) events->n_idle_pairs * (2 * sizeof (gint64) + sizeof (double)) +
         events->n_wait_runs * sizeof (WaitRun) + (gsize) events->n_spans * 2 * sizeof (gint64);
}

/* First packed event at or after ts. */
static guint
packed_lower (const IochartStealEvents *e, gint64 ts)
{
  guint epoch = 0;

  return packed_lower_after (e, 0, ts, &epoch);
}

/* The range's sweep from the device's sorted events: those of the requests open at its start
 * that came before it, then every event from its start on, up to its end. Requests over before
 * the start change nothing in it (no time before the start is booked). */
static void
sweep_packed (Sweep *s, IochartCapture *capture, const IochartStealOptions *o, const IochartStealEvents *packed)
{
  gboolean bounded = o->from_ns != IOCHART_TIME_UNKNOWN;
  g_autoptr(GArray) open = bounded ? iochart_bin_index_find_all (o->index, o->from_ns, o->from_ns) : NULL;
  IochartStealOptions po = *o;
  g_autoptr(GArray) pre = NULL;
  guint n_pre = 0;
  Cursor cur = { 0 };
  IochartStealDevice *d;

  if (bounded)
    {
      po.requests = (const guint32 *) open->data;
      po.n_requests = open->len;
      po.index = NULL;
      pre = collect_events (capture, &po, s->n_processes, NULL);
      while (n_pre < pre->len && g_array_index (pre, Event, n_pre).ts_ns < o->from_ns)
        n_pre++;
    }
  cur.pre = n_pre ? (const Event *) pre->data : NULL;
  cur.n_pre = n_pre;
  cur.packed = packed;
  cur.at = bounded ? packed_lower (packed, o->from_ns) : 0;
  cur.end = packed->n;
  s->columns_later = s->n_columns > 0 && bounded;
  sweep_device (s, &cur, o->device, s->to_ns);
  d = &g_array_index (s->self->devices, IochartStealDevice, s->self->devices->len - 1);
  if (s->columns_later)
    columns_from_checks (s, packed);
  d->idle_requests = issue_times_count (&packed->idle_issues, bounded ? o->from_ns : G_MININT64, s->to_ns);
  d->unknown_requests = issue_times_count (&packed->unknown_issues, bounded ? o->from_ns : G_MININT64, s->to_ns);
}

/* ---- a range's steal from the device's running sums ---- */

/* Below this many events in a range, sweeping them costs less than the searches per process. */
static guint fast_min_events = 1u << 15;

guint
_iochart_steal_set_fast_min (guint n_events)
{
  guint old = fast_min_events;

  fast_min_events = n_events;
  return old;
}

guint64
_iochart_steal_get_n_read (IochartSteal *steal)
{
  return steal->n_read;
}

/* How many of v[0, n) are at or before t. A range at the capture's start or end (the whole
 * capture: the widest frames) asks each idle run's times at their ends: answered there, not by
 * a search whose every probe misses the cache on a large capture. */
#define IDLE_BATCH 8

static guint
count_upto (const gint64 *v, guint n, gint64 t)
{
  guint lo = 0, hi = n;

  if (n == 0 || v[0] > t)
    return 0;
  if (v[n - 1] <= t)
    return n;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (v[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static guint
event_kind (const IochartStealEvents *e, guint i)
{
  return e->pk[i] & ((1u << PK_KIND_BITS) - 1);
}

/* count_upto (v[i], n[i], t[i]) of k searches at once, a probe of each in turn: on a large
 * capture every probe misses the cache, and the searches' misses overlap rather than wait one
 * for the other. */
static void
count_upto_together (const gint64 *const *v, const guint *n, const gint64 *t, guint *out, guint k)
{
  guint len[IDLE_BATCH * 4];
  gboolean more = FALSE;

  for (guint i = 0; i < k; i++)
    {
      gboolean none = n[i] == 0 || v[i][0] > t[i], all = !none && v[i][n[i] - 1] <= t[i];

      out[i] = all ? n[i] : 0;
      len[i] = none || all ? 0 : n[i];
      more |= len[i] != 0;
    }
  while (more)
    {
      more = FALSE;
      for (guint i = 0; i < k; i++)
        if (len[i] != 0)
          {
            guint half = len[i] / 2;

            if (v[i][out[i] + half] <= t[i])
              out[i] += half + 1, len[i] -= half + 1;
            else
              len[i] = half;
            more |= len[i] != 0;
          }
    }
}

/* An idle run's share booked up to t (F_t: the device's F at t), a of its pairs ended by then
 * and b issued: their own, and F since its issue for each pair open at t. */
static double
idle_share_upto (const IochartStealEvents *e, const IdleRun *r, guint a, guint b, double F_t)
{
  const gint64 *issue = e->idle_issue + r->first;
  double g = a < r->n ? e->idle_before[r->first + a] : r->total;

  for (guint k = a; k < b; k++)
    g += F_t - steal_integral (e, (double) issue[k]).F;
  return g;
}

/* Every idle process's share of [a, b), those of a nanosecond or more, most stolen first. Each
 * run's pairs ended and issued by a and by b are counted IDLE_BATCH runs at a time. */
static GArray *
idle_shares (const IochartStealEvents *e, gint64 a, gint64 b, guint n_processes)
{
  GArray *shares = g_array_new (FALSE, FALSE, sizeof (IochartStealShare));
  double Fa = steal_integral (e, (double) a).F, Fb = steal_integral (e, (double) b).F;

  for (guint i0 = 0; i0 < e->n_idle_runs; i0 += IDLE_BATCH)
    {
      guint k = MIN (IDLE_BATCH, e->n_idle_runs - i0), n[IDLE_BATCH * 4], c[IDLE_BATCH * 4];
      const gint64 *v[IDLE_BATCH * 4];
      gint64 t[IDLE_BATCH * 4];

      /* per run: ended by b, issued by b, ended by a, issued by a */
      for (guint j = 0; j < 4 * k; j++)
        {
          const IdleRun *r = &e->idle_runs[i0 + j / 4];

          v[j] = (j % 2 ? e->idle_issue : e->idle_end) + r->first;
          n[j] = r->n;
          t[j] = j % 4 < 2 ? b : a;
        }
      count_upto_together (v, n, t, c, 4 * k);
      for (guint j = 0; j < k; j++)
        {
          const IdleRun *r = &e->idle_runs[i0 + j];
          double g = idle_share_upto (e, r, c[4 * j], c[4 * j + 1], Fb) -
                     idle_share_upto (e, r, c[4 * j + 2], c[4 * j + 3], Fa);
          IochartStealShare share = { r->process == n_processes ? IOCHART_NO_PROCESS : r->process,
                                      (gint64) llround (g) };

          if (share.stolen_ns > 0)
            g_array_append_val (shares, share);
        }
    }
  g_array_sort (shares, share_cmp);
  return shares;
}

/* Whether a foreground process had I/O outstanding in stolen time within [a, b), where a and b
 * are stolen edges (stolen time just after a and just before b): whether one of its spans meets
 * (a, b). A span inside holds stolen time; one over a has the process outstanding just after a
 * (else a is in a gap of the span, which holds no stolen time), and so waiting then; the same
 * just before b. */
static gboolean
waited (const IochartStealEvents *e, const WaitRun *w, gint64 a, gint64 b)
{
  guint j = count_upto (e->wait_end + w->first, w->n, a);   /* the first span ending after a */

  return j < w->n && e->wait_start[w->first + j] < b;
}

/* The counts after events [0, end). */
static Check
counts_before (const IochartStealEvents *e, guint end)
{
  guint i = end / STEAL_CHECK * STEAL_CHECK;
  Check c = e->checks[i / STEAL_CHECK];

  for (; i < end; i++)
    check_apply (&c, event_kind (e, i));
  return c;
}

/* The first stolen instant in [a, b), or G_MAXINT64; reads the events from a up to it. A state
 * counts only with an event after it (the sweep books nothing after the last). */
static gint64
first_stolen (const IochartStealEvents *e, gint64 a, gint64 b, guint64 *n_read)
{
  guint i = packed_lower (e, a + 1), epoch = 0;
  Check c = counts_before (e, i);

  if (check_stolen (&c) && i < e->n)
    return a;
  while (i < e->n)
    {
      gint64 t = packed_ts (e, i, &epoch);

      if (t >= b)
        break;
      for (; i < e->n && packed_ts (e, i, &epoch) == t; i++, (*n_read)++)
        check_apply (&c, event_kind (e, i));
      if (check_stolen (&c) && i < e->n)
        return t;
    }
  return G_MAXINT64;
}

/* The end of the last stolen time in (a, b], or G_MININT64; reads the events back from b. */
static gint64
last_stolen (const IochartStealEvents *e, gint64 a, gint64 b, guint64 *n_read)
{
  guint j = packed_lower (e, b), epoch = 0;
  Check c = counts_before (e, j);

  if (check_stolen (&c) && j < e->n)
    return b;
  while (j > 0)
    {
      gint64 t = packed_ts (e, j - 1, &epoch);

      if (t <= a)
        break;
      for (; j > 0 && packed_ts (e, j - 1, &epoch) == t; j--, (*n_read)++)
        check_unapply (&c, event_kind (e, j - 1));
      if (check_stolen (&c))
        return t;
    }
  return G_MININT64;
}

static void
episode_ref (GArray *episodes, const IochartStealEpisode *ep)
{
  IochartStealEpisode copy = *ep;

  copy.idle = g_array_ref (ep->idle);
  copy.waiting = g_array_ref (ep->waiting);
  g_array_append_val (episodes, copy);
}

/* The range's steal without sweeping its events: the device's figures and columns from the
 * running integrals, each idle process's share from its pairs' sums, the whole episodes inside
 * it as the device's whole sweep found them, and the (at most two) it cuts from the integrals
 * and the spans, their edges found reading the events from the cut to their stolen time. */
static void
sweep_fast (Sweep *s, const IochartStealOptions *o, const IochartStealEvents *e)
{
  IochartStealDevice dev = { .device = o->device };
  gboolean bounded = o->from_ns != IOCHART_TIME_UNKNOWN;
  gint64 first = e->n ? e->origin_ns : 0, last = e->n ? packed_ts (e, e->n - 1, &(guint) { 0 }) : 0;
  /* nothing is booked outside the events: the integrals stop at them */
  gint64 lo = CLAMP (s->from_ns, first, last), hi = CLAMP (s->to_ns, first, last);
  Check c0 = steal_integral (e, (double) lo), c1 = steal_integral (e, (double) hi);
  GArray *all = e->all->episodes;
  guint k = 0, n_all = all->len;

  dev.stolen_ns = (gint64) llround (c1.stolen - c0.stolen);
  dev.foreground_active_ns = (gint64) llround (c1.active - c0.active);
  dev.idle = idle_shares (e, lo, hi, s->n_processes);
  if (s->n_columns)
    {
      dev.stolen_columns = g_new0 (double, s->n_columns);
      dev.active_columns = g_new0 (double, s->n_columns);
    }
  g_array_append_val (s->self->devices, dev);
  s->dev = &g_array_index (s->self->devices, IochartStealDevice, s->self->devices->len - 1);

  /* the first episode ending after the start (episodes are disjoint: ends ascend too) */
  for (guint top = n_all; k < top;)
    {
      guint mid = k + (top - k) / 2;
      if (g_array_index (all, IochartStealEpisode, mid).end_ns <= s->from_ns)
        k = mid + 1;
      else
        top = mid;
    }
  for (; k < n_all; k++)
    {
      const IochartStealEpisode *E = &g_array_index (all, IochartStealEpisode, k);
      IochartStealEpisode ep = { 0 };
      gint64 a, b;

      if (E->start_ns >= s->to_ns)
        break;
      if (E->start_ns >= s->from_ns && E->end_ns <= s->to_ns)
        {
          episode_ref (s->self->episodes, E);
          s->dev->n_episodes++;
          continue;
        }
      a = E->start_ns >= s->from_ns ? E->start_ns : first_stolen (e, s->from_ns, MIN (E->end_ns, s->to_ns), &s->self->n_read);
      if (a == G_MAXINT64)
        continue;
      b = E->end_ns <= s->to_ns ? E->end_ns : last_stolen (e, a, s->to_ns, &s->self->n_read);
      if (b <= a)
        continue;
      ep.start_ns = a;
      ep.end_ns = b;
      ep.device = dev.device;
      ep.stolen_ns = (gint64) llround (steal_integral (e, (double) b).stolen - steal_integral (e, (double) a).stolen);
      ep.idle = idle_shares (e, a, b, s->n_processes);
      ep.idle_process = ep.idle->len ? g_array_index (ep.idle, IochartStealShare, 0).process : IOCHART_NO_PROCESS;
      ep.waiting = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint w = 0; w < e->n_wait_runs; w++)
        if (e->wait_runs[w].process < s->n_processes && waited (e, &e->wait_runs[w], a, b))
          g_array_append_val (ep.waiting, e->wait_runs[w].process);
      g_array_append_val (s->self->episodes, ep);
      s->dev->n_episodes++;
    }
  if (s->n_columns)
    {
      s->columns_later = TRUE;
      columns_from_checks (s, e);
    }
  s->dev->idle_requests = issue_times_count (&e->idle_issues, bounded ? o->from_ns : G_MININT64, s->to_ns);
  s->dev->unknown_requests = issue_times_count (&e->unknown_issues, bounded ? o->from_ns : G_MININT64, s->to_ns);
}

/* The device's whole steal, taken as it is (no columns, the default gap). */
static void
copy_all (Sweep *s, const IochartStealEvents *e)
{
  IochartStealDevice dev = g_array_index (e->all->devices, IochartStealDevice, 0);

  dev.idle = g_array_copy (dev.idle);
  g_array_append_val (s->self->devices, dev);
  for (guint k = 0; k < e->all->episodes->len; k++)
    episode_ref (s->self->episodes, &g_array_index (e->all->episodes, IochartStealEpisode, k));
}

/* The end of the events of devices up to device in n sorted by device: a search, not a walk
 * over a device's hundreds of thousands of events. */
static guint
events_device_end (const Event *ev, guint n, int device)
{
  guint lo = 0;

  while (lo < n)
    {
      guint mid = lo + (n - lo) / 2;

      if ((int) ev[mid].device <= device)
        lo = mid + 1;
      else
        n = mid;
    }
  return lo;
}

IochartSteal *
iochart_steal_new (IochartCapture *capture, const IochartStealOptions *options)
{
  const IochartStealEvents *packed;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  packed = options && options->index && options->device >= 0 &&
           iochart_bin_index_get_capture (options->index) == capture &&
           iochart_bin_index_get_device (options->index) == options->device
           ? iochart_bin_index_get_steal_events (options->index) : NULL;
  return steal_new (capture, options, packed, NULL);
}

static IochartSteal *
steal_new (IochartCapture *capture, const IochartStealOptions *options, const IochartStealEvents *packed,
           ChecksBuild *checks)
{
  IochartStealOptions defaults = IOCHART_STEAL_OPTIONS_INIT;
  IochartSteal *self;
  g_autoptr(GArray) events = NULL;
  Sweep s = { 0 };
  int primary_dev;
  gboolean unswept = FALSE;
  ClassIssues ci = { NULL, NULL };

  if (options == NULL)
    options = &defaults;

  self = g_new0 (IochartSteal, 1);
  self->capture = g_object_ref (capture);
  self->devices = g_array_new (FALSE, FALSE, sizeof (IochartStealDevice));
  g_array_set_clear_func (self->devices, clear_device);
  self->episodes = g_array_new (FALSE, FALSE, sizeof (IochartStealEpisode));
  g_array_set_clear_func (self->episodes, clear_episode);
  self->primary = -1;

  s.self = self;
  s.checks = checks;
  s.n_processes = iochart_capture_get_n_processes (capture);
  s.from_ns = options->from_ns != IOCHART_TIME_UNKNOWN ? options->from_ns : G_MININT64 + 1;
  s.to_ns = options->to_ns != IOCHART_TIME_UNKNOWN ? options->to_ns : G_MAXINT64;
  s.gap_ns = options->gap_ns >= 0 ? options->gap_ns : IOCHART_STEAL_DEFAULT_GAP_NS;
  s.idle_stolen = g_new0 (double, s.n_processes + 1);
  s.n_columns = options->n_columns;
  s.col_from_ns = options->from_ns != IOCHART_TIME_UNKNOWN ? options->from_ns
                                                           : iochart_capture_get_start_ns (capture);
  s.ns_per_column = (double) ((options->to_ns != IOCHART_TIME_UNKNOWN ? options->to_ns
                                                                      : iochart_capture_get_end_ns (capture))
                              - s.col_from_ns) / MAX (s.n_columns, 1);
  if (s.ns_per_column <= 0)
    s.n_columns = 0;
  s.ep_idle = g_new0 (double, s.n_processes + 1);
  s.ep_touched_stamp = g_new0 (guint, s.n_processes + 1);
  s.ep_wait_stamp = g_new0 (guint, s.n_processes + 1);
  s.ep_touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  s.ep_waiting = g_array_new (FALSE, FALSE, sizeof (guint32));

  /* a sweep that happens whatever the classes counts them while it collects its events */
  if (!packed && options->counts_if_unknown)
    class_issues_count (&ci, capture, options);
  if (packed && packed->all && s.gap_ns == IOCHART_STEAL_DEFAULT_GAP_NS && s.n_columns == 0 &&
      options->from_ns == IOCHART_TIME_UNKNOWN && options->to_ns == IOCHART_TIME_UNKNOWN)
    copy_all (&s, packed);
  else if (packed && packed->all && s.gap_ns == IOCHART_STEAL_DEFAULT_GAP_NS &&
           packed_lower (packed, s.to_ns) - packed_lower (packed, s.from_ns) >= fast_min_events)
    sweep_fast (&s, options, packed);
  else if (packed)
    sweep_packed (&s, capture, options, packed);
  else if (options->counts_if_unknown && class_issues_all_unknown (&ci, capture, options))
    unswept = TRUE;
  else
    events = collect_events (capture, options, s.n_processes, options->counts_if_unknown ? NULL : &ci);
  for (guint d = 0; !packed && d < iochart_capture_get_n_devices (capture); d++)
    {
      Cursor cur = { 0 };
      const Event *ev;
      guint lo = 0, hi;

      if (options->device >= 0 && (guint) options->device != d)
        continue;
      if (unswept)
        {
          IochartStealDevice dev = { .device = d, .idle = g_array_new (FALSE, FALSE, sizeof (IochartStealShare)) };

          g_array_append_val (self->devices, dev);   /* count_classes() below fills its counts */
          continue;
        }
      ev = (const Event *) events->data;
      lo = events_device_end (ev, events->len, (int) d - 1);
      hi = events_device_end (ev, events->len, d);
      /* no request at all leaves the array unallocated: no arithmetic on its NULL data */
      cur.pre = hi > lo ? ev + lo : NULL;
      cur.n_pre = hi - lo;
      sweep_device (&s, &cur, d, G_MAXINT64);
    }
  g_array_sort (self->episodes, episode_cmp);
  if (!packed)
    count_classes (self, &ci);
  class_issues_clear (&ci);

  primary_dev = options->device >= 0 ? options->device : iochart_steal_pick_device (capture);
  for (guint i = 0; i < self->devices->len; i++)
    if ((int) g_array_index (self->devices, IochartStealDevice, i).device == primary_dev)
      self->primary = i;

  g_free (s.idle_stolen);
  g_free (s.ep_idle);
  g_free (s.ep_touched_stamp);
  g_free (s.ep_wait_stamp);
  g_array_unref (s.ep_touched);
  g_array_unref (s.ep_waiting);
  return self;
}

void
iochart_steal_free (IochartSteal *steal)
{
  if (steal == NULL)
    return;
  g_clear_object (&steal->capture);
  g_array_unref (steal->devices);
  g_array_unref (steal->episodes);
  g_free (steal);
}

IochartCapture *
iochart_steal_get_capture (IochartSteal *steal)
{
  return steal->capture;
}

guint
iochart_steal_get_n_devices (IochartSteal *steal)
{
  return steal->devices->len;
}

const IochartStealDevice *
iochart_steal_get_device (IochartSteal *steal, guint i)
{
  g_return_val_if_fail (i < steal->devices->len, NULL);
  return &g_array_index (steal->devices, IochartStealDevice, i);
}

const IochartStealDevice *
iochart_steal_find_device (IochartSteal *steal, guint device)
{
  for (guint i = 0; i < steal->devices->len; i++)
    if (g_array_index (steal->devices, IochartStealDevice, i).device == device)
      return &g_array_index (steal->devices, IochartStealDevice, i);
  return NULL;
}

const IochartStealDevice *
iochart_steal_get_primary (IochartSteal *steal)
{
  return steal->primary >= 0 ? iochart_steal_get_device (steal, steal->primary) : NULL;
}

guint
iochart_steal_get_n_episodes (IochartSteal *steal)
{
  return steal->episodes->len;
}

const IochartStealEpisode *
iochart_steal_get_episode (IochartSteal *steal, guint i)
{
  g_return_val_if_fail (i < steal->episodes->len, NULL);
  return &g_array_index (steal->episodes, IochartStealEpisode, i);
}

static void
json_dev (JsonBuilder *b, IochartCapture *capture, guint device)
{
  const IochartDevice *d = iochart_capture_get_device (capture, device);
  g_autofree char *text = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (d->dev),
                                           IOCHART_DEV_MINOR (d->dev));
  json_builder_set_member_name (b, "dev");
  json_builder_add_string_value (b, text);
}

static void
json_process (JsonBuilder *b, IochartCapture *capture, guint32 p, const char *pid_key,
              const char *comm_key)
{
  const IochartProcess *proc = p != IOCHART_NO_PROCESS ? iochart_capture_get_process (capture, p) : NULL;

  json_builder_set_member_name (b, pid_key);
  if (proc)
    json_builder_add_int_value (b, proc->pid);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, comm_key);
  if (proc && proc->comm)
    json_builder_add_string_value (b, proc->comm);
  else
    json_builder_add_null_value (b);
}

static void
json_shares (JsonBuilder *b, IochartCapture *capture, GArray *shares)
{
  json_builder_set_member_name (b, "idle_processes");
  json_builder_begin_array (b);
  for (guint i = 0; i < shares->len; i++)
    {
      const IochartStealShare *sh = &g_array_index (shares, IochartStealShare, i);
      json_builder_begin_object (b);
      json_process (b, capture, sh->process, "pid", "comm");
      json_builder_set_member_name (b, "stolen_ns");
      json_builder_add_int_value (b, sh->stolen_ns);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
json_episode (JsonBuilder *b, IochartCapture *capture, const IochartStealEpisode *ep)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, ep->start_ns);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, ep->end_ns);
  json_dev (b, capture, ep->device);
  json_builder_set_member_name (b, "stolen_ns");
  json_builder_add_int_value (b, ep->stolen_ns);
  json_process (b, capture, ep->idle_process, "idle_pid", "idle_comm");
  json_builder_set_member_name (b, "waiting_pids");
  json_builder_begin_array (b);
  for (guint j = 0; j < ep->waiting->len; j++)
    {
      guint32 p = g_array_index (ep->waiting, guint32, j);
      json_builder_add_int_value (b, iochart_capture_get_process (capture, p)->pid);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* The figures of one device, and its episodes: a device's object says all about it. */
static void
json_figures (JsonBuilder *b, IochartSteal *steal, const IochartStealDevice *dev)
{
  gboolean unknown = iochart_steal_device_is_unknown (dev);

  json_builder_set_member_name (b, "verdict");
  json_builder_add_string_value (b, dev == NULL ? "no-device" : unknown ? "unknown" : "measured");
  json_builder_set_member_name (b, "stolen_ns");
  if (unknown)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, dev ? dev->stolen_ns : 0);
  json_builder_set_member_name (b, "foreground_active_ns");
  json_builder_add_int_value (b, dev ? dev->foreground_active_ns : 0);
  json_builder_set_member_name (b, "stolen_pct");
  if (unknown)
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, dev && dev->foreground_active_ns > 0
                                   ? 100.0 * dev->stolen_ns / dev->foreground_active_ns : 0.0);
  if (dev == NULL)
    return;
  if (unknown)
    {
      g_autofree char *reason = g_strdup_printf ("%" G_GUINT64_FORMAT " requests have no class", dev->unknown_requests);

      json_builder_set_member_name (b, "reason");
      json_builder_add_string_value (b, reason);
    }
  json_builder_set_member_name (b, "unknown_requests");
  json_builder_add_int_value (b, dev->unknown_requests);
  json_dev (b, steal->capture, dev->device);
  json_builder_set_member_name (b, "n_episodes");
  json_builder_add_int_value (b, dev->n_episodes);
  json_shares (b, steal->capture, dev->idle);
  json_builder_set_member_name (b, "episodes");
  json_builder_begin_array (b);
  for (guint i = 0; i < steal->episodes->len; i++)
    {
      const IochartStealEpisode *ep = iochart_steal_get_episode (steal, i);

      if (ep->device == dev->device)
        json_episode (b, steal->capture, ep);
    }
  json_builder_end_array (b);
}

void
iochart_steal_to_json (IochartSteal *steal, JsonBuilder *b)
{
  g_return_if_fail (steal != NULL && JSON_IS_BUILDER (b));

  json_builder_begin_object (b);
  /* the headline device's figures and episodes, then each device with its own */
  json_figures (b, steal, iochart_steal_get_primary (steal));
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < steal->devices->len; i++)
    {
      json_builder_begin_object (b);
      json_figures (b, steal, iochart_steal_get_device (steal, i));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

struct _IochartStealJob {
  IochartCapture            *capture;
  const IochartStealOptions *options;
  GThread                   *thread;
  IochartSteal              *steal;
};

/* Below this many requests the figures take less time than starting a thread. */
#define STEAL_THREAD_MIN_REQUESTS 2000

static gpointer
steal_job_run (gpointer data)
{
  IochartStealJob *job = data;

  return iochart_steal_new (job->capture, job->options);
}

IochartStealJob *
iochart_steal_start (IochartCapture *capture, const IochartStealOptions *options)
{
  IochartStealJob *job = g_new0 (IochartStealJob, 1);

  job->capture = g_object_ref (capture);
  job->options = options;
  if (iochart_capture_get_n_requests (capture) >= STEAL_THREAD_MIN_REQUESTS && g_get_num_processors () > 1)
    job->thread = g_thread_new ("iochart-steal", steal_job_run, job);
  else
    job->steal = iochart_steal_new (capture, options);
  return job;
}

IochartSteal *
iochart_steal_finish (IochartStealJob *job)
{
  IochartSteal *steal = job->thread ? g_thread_join (job->thread) : job->steal;

  g_object_unref (job->capture);
  g_free (job);
  return steal;
}
