/* iochart-side-capture.c: classes from a second capture of the same run
 *
 * blktrace records carry no ioprio; a trace-cmd .dat recorded at the same time does. The same
 * request shows in both with the same device, sector and size; its times differ by the offset
 * between the two clocks (zero when both came from the same tracing clock). The offset is
 * estimated first from the keys that occur once in each capture, the median of their time
 * differences; then, key by key, requests are paired in time order within a tolerance.
 */
#include <stdlib.h>
#include "iochart-side-capture.h"
#include "iochart-capture-private.h"

#define MIN_TOLERANCE_NS G_GINT64_CONSTANT (1000000)

typedef struct {
  guint32 dev;
  guint32 bytes;
  guint64 sector;
  gint64  t;          /* issue, else insert, else queue, else complete */
  guint32 index;      /* request index in its capture */
} Entry;

static int
entry_cmp (const void *a, const void *b)
{
  const Entry *x = a, *y = b;

  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  if (x->sector != y->sector)
    return x->sector < y->sector ? -1 : 1;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? -1 : 1;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static inline gboolean
same_key (const Entry *x, const Entry *y)
{
  return x->dev == y->dev && x->sector == y->sector && x->bytes == y->bytes;
}

static int
gint64_cmp (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static gint64
request_time (IochartCapture *c, const IochartRequestRec *rec)
{
  static const guint order[] = { IOCHART_T_ISSUE, IOCHART_T_INSERT, IOCHART_T_QUEUE, IOCHART_T_COMPLETE };

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      gint64 t = _iochart_rec_get_time (c, rec, order[i]);

      if (t != IOCHART_TIME_UNKNOWN)
        return t;
    }
  return IOCHART_TIME_UNKNOWN;
}

/* The requests of c as sorted entries; with_class keeps only those whose class is known. */
static GArray *
collect (IochartCapture *c, gboolean with_class)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (Entry), c->requests->len);

  for (guint i = 0; i < c->requests->len; i++)
    {
      const IochartRequestRec *rec = &g_array_index (c->requests, IochartRequestRec, i);
      Entry e = { 0 };

      if (with_class && ((rec->prio & 7) == IOCHART_CLASS_UNKNOWN || (rec->merges_source >> 12) == IOCHART_CLASS_SOURCE_UNKNOWN))
        continue;
      e.t = request_time (c, rec);
      if (e.t == IOCHART_TIME_UNKNOWN)
        continue;
      e.dev = g_array_index (c->devices, IochartDevice, rec->device).dev;
      e.sector = rec->sector;
      e.bytes = rec->bytes;
      e.index = i;
      g_array_append_val (out, e);
    }
  qsort (out->data, out->len, sizeof (Entry), entry_cmp);
  return out;
}

/* How much a class source is worth: side-capture classes replace anything below the ioprio field. */
static gboolean
weaker_than_side (guint source)
{
  return source != IOCHART_CLASS_SOURCE_IOPRIO_FIELD && source != IOCHART_CLASS_SOURCE_SIDE_CAPTURE;
}

/* Walks the key groups that both sides share: calls func on each pair of group ranges. */
typedef void (*GroupFunc) (const Entry *p, guint np, const Entry *s, guint ns, gpointer data);

static void
each_shared_group (GArray *prim, GArray *side, GroupFunc func, gpointer data)
{
  const Entry *p = (const Entry *) prim->data, *s = (const Entry *) side->data;
  guint i = 0, j = 0;

  while (i < prim->len && j < side->len)
    {
      guint ie = i, je = j;
      int c = entry_cmp (&p[i], &s[j]);

      if (!same_key (&p[i], &s[j]))
        {
          if (c < 0)
            i++;
          else
            j++;
          continue;
        }
      while (ie < prim->len && same_key (&p[ie], &p[i]))
        ie++;
      while (je < side->len && same_key (&s[je], &s[j]))
        je++;
      func (&p[i], ie - i, &s[j], je - j, data);
      i = ie;
      j = je;
    }
}

static void
collect_unique_diffs (const Entry *p, guint np, const Entry *s, guint ns, gpointer data)
{
  GArray *diffs = data;
  gint64 d;

  if (np != 1 || ns != 1)
    return;
  d = s->t - p->t;
  g_array_append_val (diffs, d);
}

typedef struct {
  IochartCapture *primary;
  IochartCapture *side;
  gint64          offset;
  gint64          tolerance;
  guint           given;
  guint           matched;
} Pairing;

static void
pair_group (const Entry *p, guint np, const Entry *s, guint ns, gpointer data)
{
  Pairing *pr = data;
  guint j = 0;

  /* Both sides are in time order: pair them in order, skipping what has no partner. */
  for (guint i = 0; i < np && j < ns; i++)
    {
      gint64 want = p[i].t + pr->offset;
      IochartRequestRec *prec;
      const IochartRequestRec *srec;

      while (j < ns && s[j].t < want - pr->tolerance)
        j++;
      if (j == ns || s[j].t > want + pr->tolerance)
        continue;
      prec = &g_array_index (pr->primary->requests, IochartRequestRec, p[i].index);
      srec = &g_array_index (pr->side->requests, IochartRequestRec, s[j].index);
      j++;
      pr->matched++;
      if ((prec->prio & 7) != IOCHART_CLASS_UNKNOWN && !weaker_than_side (prec->merges_source >> 12))
        continue;
      prec->prio = srec->prio;
      prec->merges_source = (prec->merges_source & 0xfff) | IOCHART_CLASS_SOURCE_SIDE_CAPTURE << 12;
      pr->given++;
    }
}



static guint
count_unclassed_issued (IochartCapture *c)
{
  guint n = 0;

  for (guint i = 0; i < c->requests->len; i++)
    {
      const IochartRequestRec *rec = &g_array_index (c->requests, IochartRequestRec, i);

      if ((rec->counts & 15) != 0 && (rec->prio & 7) == IOCHART_CLASS_UNKNOWN)
        n++;
    }
  return n;
}

/* ---- processes: blktrace knows pids, but no forks or exits and often not even names ("<...>");
 * the side capture of the same run lends them, so lanes fold short-lived children into the
 * process that forked them ---- */

typedef struct {
  IochartCapture *primary;
  IochartCapture *side;
  GHashTable     *primary_by_pid;   /* pid -> index + 1 */
  GHashTable     *side_by_pid;
  gint64          offset;           /* side clock - primary clock */
} Lending;

static GHashTable *
index_by_pid (IochartCapture *c)
{
  GHashTable *h = g_hash_table_new (NULL, NULL);

  /* the last process of a reused pid wins */
  for (guint i = 0; i < c->processes->len; i++)
    g_hash_table_insert (h, GINT_TO_POINTER (g_array_index (c->processes, IochartProcess, i).pid),
                         GUINT_TO_POINTER (i + 1));
  return h;
}

static gint64
to_primary (const Lending *l, gint64 side_ns)
{
  return side_ns == IOCHART_TIME_UNKNOWN ? side_ns : side_ns - l->offset;
}

static guint32 lend_process (Lending *l, guint32 pi, guint32 si, guint depth);

/* The primary's process for a side process: its own of that pid, else a new one without I/O. */
static guint32
primary_for (Lending *l, guint32 si, guint depth)
{
  const IochartProcess *sp = &g_array_index (l->side->processes, IochartProcess, si);
  gpointer v = g_hash_table_lookup (l->primary_by_pid, GINT_TO_POINTER (sp->pid));
  IochartProcess np = { .pid = sp->pid, .tgid = sp->tgid, .ppid = -1, .parent = IOCHART_NO_PROCESS,
                        .start_ns = IOCHART_TIME_UNKNOWN, .exit_ns = IOCHART_TIME_UNKNOWN,
                        .klass = sp->klass, .level = sp->level, .class_source = IOCHART_CLASS_SOURCE_SIDE_CAPTURE };
  guint32 pi;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  g_array_append_val (l->primary->processes, np);
  pi = l->primary->processes->len - 1;
  g_hash_table_insert (l->primary_by_pid, GINT_TO_POINTER (sp->pid), GUINT_TO_POINTER (pi + 1));
  return lend_process (l, pi, si, depth + 1);
}

static guint32
lend_process (Lending *l, guint32 pi, guint32 si, guint depth)
{
  const IochartProcess *sp = &g_array_index (l->side->processes, IochartProcess, si);
  IochartProcess *pp = &g_array_index (l->primary->processes, IochartProcess, pi);
  guint32 sparent = sp->parent;

  if (pp->n_comms == 0 && sp->comm != NULL)
    {
      /* a process without names gets its history appended at the end of the one array */
      guint n;
      const IochartComm *comms = iochart_capture_get_comms (l->side, si, &n);

      pp->first_comm = l->primary->comms->len;
      pp->n_comms = n;
      for (guint k = 0; k < n; k++)
        {
          IochartComm c = { to_primary (l, comms[k].ns), _iochart_capture_intern (l->primary, comms[k].comm, -1) };
          g_array_append_val (l->primary->comms, c);
        }
      pp->comm = _iochart_capture_intern (l->primary, sp->comm, -1);
    }
  if (pp->start_ns == IOCHART_TIME_UNKNOWN)
    pp->start_ns = to_primary (l, sp->start_ns);
  if (pp->exit_ns == IOCHART_TIME_UNKNOWN)
    pp->exit_ns = to_primary (l, sp->exit_ns);
  if (pp->parent == IOCHART_NO_PROCESS && sparent != IOCHART_NO_PROCESS && depth < 64)
    {
      guint32 parent = primary_for (l, sparent, depth);

      /* primary_for() may have grown the array */
      pp = &g_array_index (l->primary->processes, IochartProcess, pi);
      if (parent != pi)
        {
          pp->parent = parent;
          pp->ppid = g_array_index (l->primary->processes, IochartProcess, parent).pid;
        }
    }
  return pi;
}

static void
lend_processes (IochartCapture *primary, IochartCapture *side, gint64 offset)
{
  Lending l = { primary, side, index_by_pid (primary), index_by_pid (side), offset };
  guint n = primary->processes->len;

  for (guint i = 0; i < n; i++)
    {
      gpointer v = g_hash_table_lookup (l.side_by_pid,
                                        GINT_TO_POINTER (g_array_index (primary->processes, IochartProcess, i).pid));
      if (v != NULL)
        lend_process (&l, i, GPOINTER_TO_UINT (v) - 1, 0);
    }
  g_hash_table_unref (l.primary_by_pid);
  g_hash_table_unref (l.side_by_pid);
}

/* Whether side holds requests of prim at all, classed or not: a capture of the same run that
 * knows no class the first does not (blkparse text beside its blktrace files) is no stranger. */
static gboolean
same_requests (GArray *prim, IochartCapture *side)
{
  g_autoptr(GArray) all = collect (side, FALSE);
  g_autoptr(GArray) diffs = g_array_new (FALSE, FALSE, sizeof (gint64));

  each_shared_group (prim, all, collect_unique_diffs, diffs);
  return diffs->len > 0;
}

guint
iochart_side_capture_apply (IochartCapture *primary, IochartCapture *side)
{
  g_autoptr(GArray) prim = NULL;
  g_autoptr(GArray) sides = NULL;
  g_autoptr(GArray) diffs = g_array_new (FALSE, FALSE, sizeof (gint64));
  Pairing pr = { primary, side, 0, MIN_TOLERANCE_NS, 0, 0 };
  guint unclassed;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (primary), 0);
  g_return_val_if_fail (IOCHART_IS_CAPTURE (side), 0);
  prim = collect (primary, FALSE);
  sides = collect (side, TRUE);
  each_shared_group (prim, sides, collect_unique_diffs, diffs);
  if (diffs->len > 0)
    {
      g_autofree gint64 *dev = g_new (gint64, diffs->len);

      qsort (diffs->data, diffs->len, sizeof (gint64), gint64_cmp);
      pr.offset = g_array_index (diffs, gint64, diffs->len / 2);
      /* Tolerance: a generous multiple of the spread of the unique pairs around the offset. */
      for (guint i = 0; i < diffs->len; i++)
        dev[i] = ABS (g_array_index (diffs, gint64, i) - pr.offset);
      qsort (dev, diffs->len, sizeof (gint64), gint64_cmp);
      pr.tolerance = MAX (MIN_TOLERANCE_NS, 8 * dev[diffs->len / 2]);
    }
  each_shared_group (prim, sides, pair_group, &pr);
  g_debug ("side capture '%s': clock offset %" G_GINT64_FORMAT " ns (from %u unique requests), "
           "tolerance %" G_GINT64_FORMAT " ns, %u of %u requests matched, %u given a class",
           side->name, pr.offset, diffs->len, pr.tolerance, pr.matched, prim->len, pr.given);
  if (pr.matched > 0)
    lend_processes (primary, side, pr.offset);
  if (pr.given > 0)
    _iochart_capture_retally (primary);
  unclassed = count_unclassed_issued (primary);
  if (pr.matched == 0 && !same_requests (prim, side))
    _iochart_capture_add_warning (primary, g_strdup_printf ("'%s': no request matches those of '%s' by device, sector "
                                           "and size: not the same run?", side->name, primary->name));
  else if (pr.matched == 0 && unclassed > 0)
    _iochart_capture_add_warning (primary, g_strdup_printf ("'%s': the same run, but it knows no class for the %u issued "
                                           "requests without one", side->name, unclassed));
  else if (unclassed > 0)
    _iochart_capture_add_warning (primary, g_strdup_printf ("'%s': %u issued requests still have no class after matching "
                                           "(%u of %u matched)", side->name, unclassed, pr.matched, prim->len));
  return pr.given;
}
