/* iochart-lanes.c: grouping processes into lanes */
#include <stdlib.h>
#include <string.h>
#include "iochart-lanes.h"
#include "iochart-capture-private.h"
#include "iochart-lane-index-private.h"
#include "iochart-steal.h"
#include "iochart-format.h"

struct _IochartLanes {
  IochartCapture *capture;
  IochartGroupBy  group_by;
  guint           n_processes;  /* the capture's when grouped: a live one grows after */
  guint32        *group_of;     /* per process (+1 slot for "no process"): group id */
  guint           n_groups;
  int            *lane_of;      /* per group: lane index or -1 */
  GArray         *lanes;        /* IochartLane */
};

typedef struct {
  guint32  head;
  guint    n_processes;
  guint    n_requests;
  guint64  bytes;
  guint64  class_bytes[IOCHART_N_CLASSES];
  guint    class_mask;
  gint64   first_io_ns, last_io_ns;
  gint64   start_ns, exit_ns;
  gboolean matches;
  guint64  head_bytes;
  guint32  family;              /* the expanded lane's head it came out of, or IOCHART_NO_PROCESS */
  GHashTable *comms;            /* comm -> count of members, for the label */
} Group;

static const char * const group_names[] = { "tree", "pid", "comm", "parent", "class" };

gboolean
iochart_group_by_from_name (const char *name, IochartGroupBy *group_by)
{
  for (guint i = 0; i < G_N_ELEMENTS (group_names); i++)
    if (g_strcmp0 (name, group_names[i]) == 0)
      {
        *group_by = i;
        return TRUE;
      }
  return FALSE;
}

static const char * const order_names[] = { "first-io", "bytes", "stolen" };

gboolean
iochart_lane_order_from_name (const char *name, IochartLaneOrder *order)
{
  for (guint i = 0; i < G_N_ELEMENTS (order_names); i++)
    if (g_strcmp0 (name, order_names[i]) == 0)
      {
        *order = i;
        return TRUE;
      }
  return FALSE;
}

const char *
iochart_lane_order_name (IochartLaneOrder order)
{
  return order < G_N_ELEMENTS (order_names) ? order_names[order] : "?";
}

IochartCapture *
iochart_lanes_get_capture (IochartLanes *lanes)
{
  return lanes->capture;
}

const char *
iochart_group_by_name (IochartGroupBy group_by)
{
  return group_by < G_N_ELEMENTS (group_names) ? group_names[group_by] : "?";
}

static gboolean
known (gint64 ts)
{
  return ts != IOCHART_TIME_UNKNOWN;
}

/* A `cat` run by `find -exec` lives for milliseconds; the `find` for the whole run. A process
 * folds into its parent when both its fork and exit were seen and it lived briefly next to the
 * capture's span. */
static guint32 *
group_tree (IochartCapture *capture, guint n, gboolean only_parent)
{
  guint32 *root = g_new (guint32, n + 1);
  gint64 span = iochart_capture_get_end_ns (capture) - iochart_capture_get_start_ns (capture);
  gint64 brief = span / 10;

  for (guint i = 0; i <= n; i++)
    root[i] = G_MAXUINT32;
  root[n] = n;
  for (guint i = 0; i < n; i++)
    {
      guint32 p = i, steps = 0;

      if (only_parent)
        {
          const IochartProcess *proc = iochart_capture_get_process (capture, i);
          root[i] = proc->parent < n ? proc->parent : i;
          continue;
        }
      /* walk up while foldable; steps bound a (corrupt) parent cycle */
      while (root[p] == G_MAXUINT32 && steps++ < n)
        {
          const IochartProcess *proc = iochart_capture_get_process (capture, p);
          if (proc->parent >= n || !known (proc->start_ns) || !known (proc->exit_ns) ||
              proc->exit_ns - proc->start_ns >= brief)
            break;
          p = proc->parent;
        }
      if (root[p] == G_MAXUINT32)
        root[p] = p;
      for (guint32 q = i; q != p && root[q] == G_MAXUINT32;)
        {
          guint32 up = iochart_capture_get_process (capture, q)->parent;
          root[q] = root[p];
          q = up;
        }
    }
  return root;
}

/* A name and a class, as group_by_comm() tells groups apart. */
typedef struct {
  const char *comm;
  guint       klass;
} CommKey;

static guint
comm_key_hash (gconstpointer p)
{
  const CommKey *k = p;

  return g_str_hash (k->comm) * 31 + k->klass;
}

static gboolean
comm_key_equal (gconstpointer a, gconstpointer b)
{
  const CommKey *x = a, *y = b;

  return x->klass == y->klass && strcmp (x->comm, y->comm) == 0;
}

/* Processes of one name share a lane; with by_class, of one name and one class. */
static guint32 *
group_by_comm (IochartCapture *capture, guint n, gboolean by_class, guint *n_groups)
{
  guint32 *group = g_new (guint32, n + 1);
  /* keys in one block, borrowing the processes' names: a "comm/class" string printed and
   * allocated per process was most of this */
  g_autofree CommKey *keys = g_new (CommKey, MAX (n, 1));
  g_autoptr(GHashTable) ids = g_hash_table_new (comm_key_hash, comm_key_equal);

  for (guint i = 0; i < n; i++)
    {
      const IochartProcess *proc = iochart_capture_get_process (capture, i);
      gpointer id;

      keys[i] = (CommKey) { proc->comm ? proc->comm : "", by_class ? proc->klass : 0u };
      if (!g_hash_table_lookup_extended (ids, &keys[i], NULL, &id))
        {
          id = GUINT_TO_POINTER (g_hash_table_size (ids));
          g_hash_table_insert (ids, &keys[i], id);
        }
      group[i] = GPOINTER_TO_UINT (id);
    }
  group[n] = g_hash_table_size (ids);
  *n_groups = group[n] + 1;
  return group;
}

static gboolean
any_parent (IochartCapture *capture, guint n)
{
  for (guint i = 0; i < n; i++)
    if (iochart_capture_get_process (capture, i)->parent != IOCHART_NO_PROCESS)
      return TRUE;
  return FALSE;
}

static gboolean
process_matches (const IochartProcess *proc, const IochartLanesOptions *o)
{
  for (guint i = 0; i < o->n_pids; i++)
    if (proc->pid == o->pids[i])
      return TRUE;
  for (guint i = 0; o->comms && o->comms[i]; i++)
    if (g_strcmp0 (proc->comm, o->comms[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_filter (const IochartLanesOptions *o)
{
  return o->n_pids > 0 || (o->comms && o->comms[0]);
}

static void
request_span (const IochartRequest *rq, gint64 *a, gint64 *b)
{
  *a = known (rq->insert_ns) ? rq->insert_ns : known (rq->queue_ns) ? rq->queue_ns : rq->issue_ns;
  if (known (rq->queue_ns) && (!known (*a) || rq->queue_ns < *a))
    *a = rq->queue_ns;
  *b = known (rq->complete_ns) ? rq->complete_ns : rq->issue_ns;
  if (!known (*a))
    *a = *b;
}

gboolean
_iochart_lanes_request_span (const IochartRequest *rq, gint64 *a, gint64 *b)
{
  request_span (rq, a, b);
  return known (*a) && known (*b);
}

static gboolean
request_in_view (const IochartRequest *rq, const IochartLanesOptions *o, gint64 a, gint64 b)
{
  if (o->device >= 0 && rq->device != o->device)
    return FALSE;
  if (!known (a) || !known (b))
    return FALSE;
  if (known (o->from_ns) && b < o->from_ns)
    return FALSE;
  if (known (o->to_ns) && a > o->to_ns)
    return FALSE;
  return TRUE;
}

static const char *
comm_of (IochartCapture *capture, guint32 p)
{
  const char *comm = p < iochart_capture_get_n_processes (capture)
                     ? iochart_capture_get_process (capture, p)->comm : NULL;
  return comm ? comm : "?";
}

/* "find[27822] + 5,476 × cat", "cat × 5,476", "idle class" */
static char *
make_label (IochartCapture *capture, IochartGroupBy by, const Group *g, guint group_id)
{
  const IochartProcess *head = g->head < iochart_capture_get_n_processes (capture)
                               ? iochart_capture_get_process (capture, g->head) : NULL;
  GHashTableIter iter;
  gpointer key, value;
  const char *top_comm = NULL;
  guint top = 0, others = 0;
  g_autofree char *count = NULL;

  if (by == IOCHART_GROUP_CLASS)
    return g_strdup_printf ("%s class", iochart_class_name (group_id));
  if (head == NULL)
    return g_strdup ("unknown process");
  if (by == IOCHART_GROUP_COMM)
    {
      count = iochart_format_count (g->n_processes);
      return g->n_processes > 1 ? g_strdup_printf ("%s × %s", comm_of (capture, g->head), count)
                                : g_strdup_printf ("%s[%d]", comm_of (capture, g->head), head->pid);
    }
  g_hash_table_iter_init (&iter, g->comms);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      others += GPOINTER_TO_UINT (value);
      if (GPOINTER_TO_UINT (value) > top ||
          (GPOINTER_TO_UINT (value) == top && g_strcmp0 (key, top_comm) < 0))
        {
          top = GPOINTER_TO_UINT (value);
          top_comm = key;
        }
    }
  if (others == 0)
    return g_strdup_printf ("%s[%d]", comm_of (capture, g->head), head->pid);
  count = iochart_format_count (others);
  if (head->comm == NULL)
    {
      /* a process the capture never named (it began before, and exec'd nothing since): its
       * children name it */
      g_autofree char *name = g_strdup_printf ("parent of %s", top_comm);

      return top == others ? g_strdup_printf ("%s[%d] + %s × %s", name, head->pid, count, top_comm)
                           : g_strdup_printf ("%s[%d] + %s processes", name, head->pid, count);
    }
  if (by == IOCHART_GROUP_PARENT)
    return top == others
           ? g_strdup_printf ("children of %s[%d]: %s × %s", comm_of (capture, g->head), head->pid,
                              count, top_comm)
           : g_strdup_printf ("children of %s[%d]: %s processes", comm_of (capture, g->head),
                              head->pid, count);
  if (top == others)
    return g_strdup_printf ("%s[%d] + %s × %s", comm_of (capture, g->head), head->pid, count,
                            top_comm);
  return g_strdup_printf ("%s[%d] + %s processes", comm_of (capture, g->head), head->pid, count);
}

/* Whether the i-th group by bytes goes into "others": past --top, or it moved no data (flushes
 * only: it says little). */
/* rank: the group's place by bytes among the groups of its family (those of one expanded lane,
 * or all the others); n_plain: how many groups are in no family. */
static gboolean
folds (const IochartLanesOptions *options, GArray *order, const Group *groups, guint i, guint rank, guint n_plain)
{
  guint id = g_array_index (order, guint, i);
  const Group *g = &groups[id];

  /* an expanded lane's processes do not count against --top: they stand for one lane; its head
   * stays to name it */
  if (g->family != IOCHART_NO_PROCESS)
    return rank >= IOCHART_LANES_EXPAND_MAX && g->head != g->family;
  return (options->top_n > 0 && rank >= options->top_n && n_plain > options->top_n + 1) ||
         (g->bytes == 0 && order->len > 1 && i > 0);
}

/* A lane's sort key, and its family's (the lanes of one expanded lane stay together where the
 * lane would be). */
typedef struct {
  gint64  first_io_ns;
  guint64 bytes;
  gint64  stolen_ns;
} SortKey;

typedef struct {
  const IochartLane *lanes;
  const SortKey     *own;
  const SortKey     *family;
  IochartLaneOrder   order;
} SortData;

static int
key_cmp (const SortKey *x, const SortKey *y, IochartLaneOrder order)
{
  if (order == IOCHART_LANE_ORDER_BYTES && x->bytes != y->bytes)
    return x->bytes > y->bytes ? -1 : 1;
  if (order == IOCHART_LANE_ORDER_STOLEN && x->stolen_ns != y->stolen_ns)
    return x->stolen_ns > y->stolen_ns ? -1 : 1;
  if (x->first_io_ns != y->first_io_ns)
    return x->first_io_ns < y->first_io_ns ? -1 : 1;
  return 0;
}

static int
lane_cmp (gconstpointer a, gconstpointer b, gpointer data)
{
  const SortData *d = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  const IochartLane *x = &d->lanes[i], *y = &d->lanes[j];
  int r;

  if (x->others != y->others)
    return x->others ? 1 : -1;
  if ((r = key_cmp (&d->family[i], &d->family[j], d->order)) != 0)
    return r;
  if (x->expanded_from != y->expanded_from)
    return x->expanded_from < y->expanded_from ? -1 : 1;
  /* in a family, the expanded lane's head first */
  if ((x->head == x->expanded_from) != (y->head == y->expanded_from))
    return x->head == x->expanded_from ? -1 : 1;
  if ((r = key_cmp (&d->own[i], &d->own[j], d->order)) != 0)
    return r;
  return g_strcmp0 (x->label, y->label);
}

/* Time each lane's idle I/O stole (lane index before sorting, others last). */
static void
lanes_stolen (IochartLanes *self, const IochartLanesOptions *o, const Group *groups, SortKey *keys)
{
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) steal = NULL;
  const IochartStealDevice *d;
  guint n = self->lanes->len;
  gboolean has_others = n > 0 && g_array_index (self->lanes, IochartLane, n - 1).others;

  so.device = o->device;
  so.from_ns = o->from_ns;
  so.to_ns = o->to_ns;
  steal = iochart_steal_new (self->capture, &so);
  if ((d = iochart_steal_get_primary (steal)) == NULL)
    return;
  for (guint i = 0; i < d->idle->len; i++)
    {
      const IochartStealShare *sh = &g_array_index (d->idle, IochartStealShare, i);
      guint32 g;
      int l;

      if (sh->process >= iochart_capture_get_n_processes (self->capture))
        continue;
      g = self->group_of[sh->process];
      l = self->lane_of[g] >= 0 ? self->lane_of[g] : has_others && groups[g].n_requests > 0 ? (int) n - 1 : -1;
      if (l >= 0)
        keys[l].stolen_ns += sh->stolen_ns;
    }
}

static void clear_lane (gpointer data);

/* Puts the lanes in the order asked; pos[i] is where lane i went. */
static void
sort_lanes (IochartLanes *self, const IochartLanesOptions *o, const Group *groups, guint *pos)
{
  guint n = self->lanes->len;
  g_autofree SortKey *own = g_new0 (SortKey, MAX (n, 1));
  g_autofree SortKey *family = g_new0 (SortKey, MAX (n, 1));
  g_autoptr(GArray) perm = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (IochartLane), n);
  SortData data = { (const IochartLane *) self->lanes->data, own, family, o->order };

  for (guint i = 0; i < n; i++)
    {
      const IochartLane *l = &g_array_index (self->lanes, IochartLane, i);
      own[i] = (SortKey) { l->first_io_ns, l->bytes, 0 };
    }
  if (o->order == IOCHART_LANE_ORDER_STOLEN)
    lanes_stolen (self, o, groups, own);
  /* a family sorts as the lane it was: its first I/O, its bytes and its theft added up */
  for (guint i = 0; i < n; i++)
    {
      const IochartLane *l = &g_array_index (self->lanes, IochartLane, i);

      family[i] = own[i];
      if (l->expanded_from == IOCHART_NO_PROCESS)
        continue;
      family[i].bytes = 0;
      family[i].first_io_ns = G_MAXINT64;
      for (guint j = 0; j < n; j++)
        if (g_array_index (self->lanes, IochartLane, j).expanded_from == l->expanded_from)
          {
            family[i].bytes += own[j].bytes;
            family[i].stolen_ns += j == i ? 0 : own[j].stolen_ns;
            family[i].first_io_ns = MIN (family[i].first_io_ns, own[j].first_io_ns);
          }
    }
  for (guint i = 0; i < n; i++)
    g_array_append_val (perm, i);
  g_array_sort_with_data (perm, lane_cmp, &data);
  for (guint i = 0; i < n; i++)
    {
      guint from = g_array_index (perm, guint, i);
      pos[from] = i;
      g_array_append_val (sorted, g_array_index (self->lanes, IochartLane, from));
    }
  g_array_set_clear_func (self->lanes, NULL);
  g_array_set_size (self->lanes, 0);
  g_array_append_vals (self->lanes, sorted->data, sorted->len);
  g_array_set_clear_func (self->lanes, clear_lane);
}

/* Group by tree: the processes of an expanded lane become groups of their own (the tree's group
 * ids are process indices, and a process that is not a root owns no group). */
static void
expand_groups (IochartLanes *self, const IochartLanesOptions *o, guint n_proc, guint32 *family_of)
{
  for (guint p = 0; p < n_proc; p++)
    {
      family_of[p] = IOCHART_NO_PROCESS;
      for (guint i = 0; i < o->n_expand; i++)
        if (self->group_of[p] == o->expand[i])
          family_of[p] = o->expand[i];
    }
  for (guint p = 0; p < n_proc; p++)
    if (family_of[p] != IOCHART_NO_PROCESS)
      self->group_of[p] = p;
}

typedef struct {
  gint64 a, b;
  guint  lane;
} Span;

static int
span_start_cmp (gconstpointer pa, gconstpointer pb)
{
  const Span *x = pa, *y = pb;

  return (x->a > y->a) - (x->a < y->a);
}

/* Orders spans by lane, then by start: the union below needs no more. Requests are stored in
 * the order they arrived, so a lane's spans mostly start in order already: a counting sort by
 * lane, and a sort by start only where a lane's are not. */
static GArray *
sort_spans (GArray *spans, guint n_lanes)
{
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (Span), spans->len);
  g_autofree guint *at = g_new0 (guint, n_lanes + 1);

  g_array_set_size (out, spans->len);
  for (guint i = 0; i < spans->len; i++)
    at[g_array_index (spans, Span, i).lane + 1]++;
  for (guint l = 0; l < n_lanes; l++)
    at[l + 1] += at[l];
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *s = &g_array_index (spans, Span, i);

      g_array_index (out, Span, at[s->lane]++) = *s;
    }
  for (guint l = 0, from = 0; l < n_lanes; from = at[l++])
    for (guint i = from + 1; i < at[l]; i++)
      if (g_array_index (out, Span, i).a < g_array_index (out, Span, i - 1).a)
        {
          qsort (&g_array_index (out, Span, from), at[l] - from, sizeof (Span), span_start_cmp);
          break;
        }
  return out;
}

/* spans: each request in view as fill_groups() found it, its group in `lane`; they become the
 * lanes' spans in place, so that the requests are read once for both. */
static void
compute_outstanding (IochartLanes *self, const IochartLanesOptions *o, GArray *spans)
{
  g_autoptr(GArray) sorted = NULL;
  gint64 from = known (o->from_ns) ? o->from_ns : G_MININT64 + 1;
  gint64 to = known (o->to_ns) ? o->to_ns : G_MAXINT64;
  gint64 cur_a = 0, cur_b = 0;
  int cur_lane = -1;
  guint kept = 0;

  for (guint j = 0; j < spans->len; j++)
    {
      Span s = g_array_index (spans, Span, j);
      int lane = self->lane_of[s.lane];

      if (lane < 0)
        continue;
      s.a = MAX (s.a, from);
      s.b = MIN (s.b, to);
      s.lane = lane;
      if (s.b > s.a)
        g_array_index (spans, Span, kept++) = s;
    }
  g_array_set_size (spans, kept);
  sorted = sort_spans (spans, self->lanes->len);
  for (guint i = 0; i <= sorted->len; i++)
    {
      const Span *s = i < sorted->len ? &g_array_index (sorted, Span, i) : NULL;

      if (s && (int) s->lane == cur_lane && s->a <= cur_b)
        {
          cur_b = MAX (cur_b, s->b);
          continue;
        }
      if (cur_lane >= 0)
        g_array_index (self->lanes, IochartLane, cur_lane).outstanding_ns += cur_b - cur_a;
      if (s)
        {
          cur_lane = s->lane;
          cur_a = s->a;
          cur_b = s->b;
        }
    }
}

/* The same from the index's outstanding runs. */
static void
outstanding_indexed (IochartLanes *self, const IochartLanesOptions *o)
{
  g_autofree gint64 *ns = g_new0 (gint64, self->lanes->len + 1);

  _iochart_lane_index_outstanding (o->index, self->capture, self->group_by, self->group_of, self->n_groups,
                                   self->lane_of, o->from_ns, o->to_ns, ns);
  for (guint l = 0; l < self->lanes->len; l++)
    g_array_index (self->lanes, IochartLane, l).outstanding_ns += ns[l];
}

static void
clear_lane (gpointer data)
{
  g_free (((IochartLane *) data)->label);
}

static void
add_lifetime (Group *g, const IochartProcess *proc)
{
  if (known (proc->start_ns) && (!known (g->start_ns) || proc->start_ns < g->start_ns))
    g->start_ns = proc->start_ns;
  if (known (proc->exit_ns) && (!known (g->exit_ns) || proc->exit_ns > g->exit_ns))
    g->exit_ns = proc->exit_ns;
}

static void
fill_groups_init (Group *groups, guint n_groups)
{
  for (guint g = 0; g < n_groups; g++)
    {
      groups[g].head = IOCHART_NO_PROCESS;
      groups[g].first_io_ns = groups[g].last_io_ns = IOCHART_TIME_UNKNOWN;
      groups[g].start_ns = groups[g].exit_ns = IOCHART_TIME_UNKNOWN;
      groups[g].comms = g_hash_table_new (g_str_hash, g_str_equal);
    }
}

/* Grouped by name, the lane is named after its process with the most bytes in the capture (the
 * first one on a tie). */
static void
comm_head (IochartCapture *capture, Group *g, guint32 p)
{
  guint64 bytes = iochart_capture_get_process (capture, p)->bytes;

  if (g->head == IOCHART_NO_PROCESS || bytes > g->head_bytes || (bytes == g->head_bytes && p < g->head))
    {
      g->head = p;
      g->head_bytes = bytes;
    }
}

static void fill_members (IochartLanes *self, const IochartLanesOptions *o, Group *groups);

/* Fills groups from the requests in view, and spans with each one's span and group. */
static void
fill_groups (IochartLanes *self, const IochartLanesOptions *o, Group *groups, guint n_groups, GArray *spans)
{
  IochartCapture *capture = self->capture;
  guint n_proc = iochart_capture_get_n_processes (capture);
  guint n = o->requests ? o->n_requests : iochart_capture_get_n_requests (capture), m = spans->len;
  g_autofree gboolean *in_view = self->group_by == IOCHART_GROUP_COMM ? g_new0 (gboolean, MAX (n_proc, 1)) : NULL;

  fill_groups_init (groups, n_groups);
  /* room for every request, written in place and cut to what was in view */
  g_array_set_size (spans, m + n);
  for (guint j = 0; j < n; j++)
    {
      IochartRequest rq;
      gint64 a, b;
      guint32 p;
      Group *g;
      Span span;

      _iochart_capture_unpack (capture, o->requests ? o->requests[j] : j, &rq);
      request_span (&rq, &a, &b);
      if (!request_in_view (&rq, o, a, b))
        continue;
      p = rq.process < n_proc ? rq.process : n_proc;
      span.a = a;
      span.b = b;
      span.lane = self->group_by == IOCHART_GROUP_CLASS ? MIN (rq.klass, IOCHART_N_CLASSES - 1) : self->group_of[p];
      g_array_index (spans, Span, m++) = span;
      g = &groups[span.lane];
      /* counted as iochart_counts_compute() counts: issues */
      g->n_requests += rq.issues;
      g->bytes += (guint64) rq.issues * rq.bytes;
      g->class_bytes[MIN (rq.klass, IOCHART_N_CLASSES - 1)] += (guint64) rq.issues * rq.bytes;
      g->class_mask |= 1u << MIN (rq.klass, IOCHART_N_CLASSES - 1);
      if (!known (g->first_io_ns) || a < g->first_io_ns)
        g->first_io_ns = a;
      if (!known (g->last_io_ns) || b > g->last_io_ns)
        g->last_io_ns = b;
      if (self->group_by == IOCHART_GROUP_CLASS && p < n_proc &&
          process_matches (iochart_capture_get_process (capture, p), o))
        g->matches = TRUE;
      if (self->group_by == IOCHART_GROUP_COMM && p < n_proc)
        in_view[p] = TRUE;
    }
  g_array_set_size (spans, m);
  /* a head depends only on which processes have requests in view: looked at once each */
  for (guint32 p = 0; self->group_by == IOCHART_GROUP_COMM && p < n_proc; p++)
    if (in_view[p])
      comm_head (capture, &groups[self->group_of[p]], p);
  fill_members (self, o, groups);
}

typedef struct {
  IochartLanes              *self;
  const IochartLanesOptions *o;
  Group                     *groups;
} StreamFill;

/* What the walk above adds for a request, added for a process's requests of a class at once. */
static void
add_stream (const IochartLaneStream *s, gpointer data)
{
  StreamFill *f = data;
  IochartCapture *capture = f->self->capture;
  guint n_proc = iochart_capture_get_n_processes (capture);
  Group *g = &f->groups[f->self->group_by == IOCHART_GROUP_CLASS ? s->klass : f->self->group_of[s->process]];

  g->n_requests += s->issues;
  g->bytes += s->bytes;
  g->class_bytes[s->klass] += s->bytes;
  g->class_mask |= 1u << s->klass;
  if (!known (g->first_io_ns) || s->first_io_ns < g->first_io_ns)
    g->first_io_ns = s->first_io_ns;
  if (!known (g->last_io_ns) || s->last_io_ns > g->last_io_ns)
    g->last_io_ns = s->last_io_ns;
  if (f->self->group_by == IOCHART_GROUP_CLASS && s->process < n_proc &&
      process_matches (iochart_capture_get_process (capture, s->process), f->o))
    g->matches = TRUE;
  if (f->self->group_by == IOCHART_GROUP_COMM && s->process < n_proc)
    comm_head (capture, g, s->process);
}

/* Fills groups from the lane index: a process and class at a time. */
static void
fill_groups_indexed (IochartLanes *self, const IochartLanesOptions *o, Group *groups, guint n_groups)
{
  StreamFill f = { self, o, groups };

  fill_groups_init (groups, n_groups);
  _iochart_lane_index_each_stream (o->index, o->from_ns, o->to_ns, add_stream, &f);
  fill_members (self, o, groups);
}

/* members: the head is the group's own root process */
static void
fill_members (IochartLanes *self, const IochartLanesOptions *o, Group *groups)
{
  IochartCapture *capture = self->capture;
  guint n_proc = iochart_capture_get_n_processes (capture);

  for (guint p = 0; p < n_proc && self->group_by != IOCHART_GROUP_CLASS; p++)
    {
      const IochartProcess *proc = iochart_capture_get_process (capture, p);
      Group *g = &groups[self->group_of[p]];

      if (g->n_requests == 0)
        continue;
      g->n_processes++;
      if (process_matches (proc, o))
        g->matches = TRUE;
      if (self->group_by == IOCHART_GROUP_PARENT)
        g->head = self->group_of[p];
      if (self->group_by != IOCHART_GROUP_COMM && self->group_of[p] == p)
        g->head = p;
      else if (self->group_by != IOCHART_GROUP_COMM)
        {
          const char *comm = comm_of (capture, p);
          g_hash_table_insert (g->comms, (gpointer) comm,
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (g->comms, comm)) + 1));
        }
      if (self->group_by == IOCHART_GROUP_TREE || self->group_of[p] == p)
        add_lifetime (g, proc);
    }
}

static int
group_bytes_cmp (gconstpointer a, gconstpointer b, gpointer data)
{
  const Group *groups = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  if (groups[x].bytes != groups[y].bytes)
    return groups[x].bytes > groups[y].bytes ? -1 : 1;
  return x < y ? -1 : x > y;
}

guint32 *
_iochart_lanes_group_of (IochartCapture *capture, IochartGroupBy group_by, IochartGroupBy *used, guint *n_groups)
{
  guint n_proc = iochart_capture_get_n_processes (capture);
  guint32 *group_of;

  /* Without fork events (blktrace, blkparse text, no .dat beside them) no process has a parent,
   * and a tree would give each of a `find`'s thousand `cat`s a lane: name and class group them. */
  *used = group_by == IOCHART_GROUP_TREE && !any_parent (capture, n_proc) ? IOCHART_GROUP_COMM : group_by;
  switch (*used)
    {
    case IOCHART_GROUP_COMM:
      return group_by_comm (capture, n_proc, group_by == IOCHART_GROUP_TREE, n_groups);
    case IOCHART_GROUP_CLASS:
      *n_groups = IOCHART_N_CLASSES;
      return g_new0 (guint32, n_proc + 1);
    case IOCHART_GROUP_PID:
      group_of = g_new (guint32, n_proc + 1);
      for (guint i = 0; i <= n_proc; i++)
        group_of[i] = i;
      *n_groups = n_proc + 1;
      return group_of;
    case IOCHART_GROUP_TREE:
    case IOCHART_GROUP_PARENT:
    default:
      *n_groups = n_proc + 1;
      return group_tree (capture, n_proc, *used == IOCHART_GROUP_PARENT);
    }
}

IochartLanes *
iochart_lanes_new (IochartCapture *capture, const IochartLanesOptions *options)
{
  IochartLanesOptions defaults = IOCHART_LANES_OPTIONS_INIT;
  guint n_proc, n_groups = 0;
  IochartLanes *self;
  Group *groups;
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  IochartLane others = { .others = TRUE, .head = IOCHART_NO_PROCESS, .expanded_from = IOCHART_NO_PROCESS,
                         .first_io_ns = IOCHART_TIME_UNKNOWN, .last_io_ns = IOCHART_TIME_UNKNOWN,
                         .start_ns = IOCHART_TIME_UNKNOWN, .exit_ns = IOCHART_TIME_UNKNOWN };
  guint64 others_class_bytes[IOCHART_N_CLASSES] = { 0 };
  guint others_lanes = 0, n_folds = 0, n_plain = 0;
  g_autofree guint32 *family_of = NULL;
  g_autoptr(GHashTable) family_rank = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));
  gboolean indexed;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  if (options == NULL)
    options = &defaults;

  n_proc = iochart_capture_get_n_processes (capture);
  self = g_new0 (IochartLanes, 1);
  self->capture = g_object_ref (capture);
  self->n_processes = n_proc;
  self->group_by = options->group_by;
  self->lanes = g_array_new (FALSE, FALSE, sizeof (IochartLane));
  g_array_set_clear_func (self->lanes, clear_lane);

  indexed = iochart_lane_index_serves (options->index, capture, options);
  if (!indexed ||
      !(self->group_of = _iochart_lane_index_group_of (options->index, options->group_by, &self->group_by, &n_groups)))
    self->group_of = _iochart_lanes_group_of (capture, options->group_by, &self->group_by, &n_groups);
  if (self->group_by == IOCHART_GROUP_TREE && options->n_expand > 0)
    expand_groups (self, options, n_proc, family_of = g_new (guint32, n_proc + 1));

  self->n_groups = n_groups;
  groups = g_new0 (Group, n_groups);
  if (indexed)
    fill_groups_indexed (self, options, groups, n_groups);
  else
    fill_groups (self, options, groups, n_groups, spans);
  for (guint g = 0; g < n_groups; g++)
    groups[g].family = family_of && g < n_proc ? family_of[g] : IOCHART_NO_PROCESS;
  for (guint g = 0; g < n_groups; g++)
    if (groups[g].n_requests > 0 && (!has_filter (options) || groups[g].matches))
      g_array_append_val (order, g);
  g_array_sort_with_data (order, group_bytes_cmp, groups);

  /* folding a single lane into "others" hides its name and saves no room */
  for (guint i = 0; i < order->len; i++)
    n_plain += groups[g_array_index (order, guint, i)].family == IOCHART_NO_PROCESS;
  {
    g_autoptr(GHashTable) rank = g_hash_table_new (g_direct_hash, g_direct_equal);
    for (guint i = 0; i < order->len; i++)
      {
        guint32 f = groups[g_array_index (order, guint, i)].family;
        guint r = GPOINTER_TO_UINT (g_hash_table_lookup (rank, GUINT_TO_POINTER (f)));

        g_hash_table_insert (rank, GUINT_TO_POINTER (f), GUINT_TO_POINTER (r + 1));
        n_folds += folds (options, order, groups, i, r, n_plain);
      }
  }
  self->lane_of = g_new (int, n_groups);
  for (guint g = 0; g < n_groups; g++)
    self->lane_of[g] = -1;
  for (guint i = 0; i < order->len; i++)
    {
      guint id = g_array_index (order, guint, i);
      Group *g = &groups[id];
      guint rank = GPOINTER_TO_UINT (g_hash_table_lookup (family_rank, GUINT_TO_POINTER (g->family)));
      /* lanes that moved no data (flushes only) say little: they join "others" */
      gboolean fold = folds (options, order, groups, i, rank, n_plain) && n_folds > 1;
      IochartLane lane = { .expanded_from = IOCHART_NO_PROCESS };
      IochartLane *dst = fold ? &others : &lane;

      g_hash_table_insert (family_rank, GUINT_TO_POINTER (g->family), GUINT_TO_POINTER (rank + 1));

      if (!fold)
        {
          lane.label = make_label (capture, self->group_by, g, id);
          lane.head = g->head;
          lane.start_ns = g->start_ns;
          lane.exit_ns = g->exit_ns;
          lane.first_io_ns = g->first_io_ns;
          lane.last_io_ns = g->last_io_ns;
          lane.expanded_from = g->family;
          for (guint c = 0; c < IOCHART_N_CLASSES; c++)
            if (g->class_bytes[c] > g->class_bytes[lane.klass] || (g->bytes == 0 && (g->class_mask & (1u << c))))
              lane.klass = c;
        }
      else
        {
          others_lanes++;
          for (guint c = 0; c < IOCHART_N_CLASSES; c++)
            others_class_bytes[c] += g->class_bytes[c];
          if (!known (others.first_io_ns) || g->first_io_ns < others.first_io_ns)
            others.first_io_ns = g->first_io_ns;
          if (!known (others.last_io_ns) || g->last_io_ns > others.last_io_ns)
            others.last_io_ns = g->last_io_ns;
        }
      dst->class_mask |= g->class_mask;
      dst->n_processes += g->n_processes;
      dst->n_requests += g->n_requests;
      dst->bytes += g->bytes;
      if (!fold)
        {
          self->lane_of[id] = self->lanes->len;
          g_array_append_val (self->lanes, lane);
        }
    }
  if (others_lanes > 0)
    {
      g_autofree char *count = iochart_format_count (others.n_processes);
      for (guint c = 0; c < IOCHART_N_CLASSES; c++)
        if (others_class_bytes[c] > others_class_bytes[others.klass])
          others.klass = c;
      others.label = others.n_processes > 0
        ? g_strdup_printf ("others: %u lane%s, %s process%s", others_lanes, others_lanes == 1 ? "" : "s",
                           count, others.n_processes == 1 ? "" : "es")
        : g_strdup_printf ("others: %u lane%s", others_lanes, others_lanes == 1 ? "" : "s");
      g_array_append_val (self->lanes, others);
    }

  /* order as asked, then map groups to their final positions */
  {
    g_autofree guint *pos = g_new (guint, MAX (self->lanes->len, 1));

    sort_lanes (self, options, groups, pos);
    for (guint g = 0; g < n_groups; g++)
      {
        if (self->lane_of[g] >= 0)
          self->lane_of[g] = pos[self->lane_of[g]];
        else if (others_lanes > 0 && groups[g].n_requests > 0 &&
                 (!has_filter (options) || groups[g].matches))
          self->lane_of[g] = self->lanes->len - 1;
      }
  }

  for (guint g = 0; g < n_groups; g++)
    g_hash_table_unref (groups[g].comms);
  g_free (groups);

  if (indexed)
    outstanding_indexed (self, options);
  else
    compute_outstanding (self, options, spans);
  return self;
}

void
iochart_lanes_free (IochartLanes *lanes)
{
  if (lanes == NULL)
    return;
  g_clear_object (&lanes->capture);
  g_free (lanes->group_of);
  g_free (lanes->lane_of);
  g_array_unref (lanes->lanes);
  g_free (lanes);
}

IochartGroupBy
iochart_lanes_get_group_by (IochartLanes *lanes)
{
  return lanes->group_by;
}

const guint32 *
_iochart_lanes_get_groups (IochartLanes *lanes, IochartGroupBy *used, guint *n_groups)
{
  *used = lanes->group_by;
  *n_groups = lanes->n_groups;
  return lanes->group_of;
}

guint
iochart_lanes_get_n_lanes (IochartLanes *lanes)
{
  return lanes->lanes->len;
}

const IochartLane *
iochart_lanes_get_lane (IochartLanes *lanes, guint i)
{
  g_return_val_if_fail (i < lanes->lanes->len, NULL);
  return &g_array_index (lanes->lanes, IochartLane, i);
}

int
iochart_lanes_lane_of_request (IochartLanes *lanes, const IochartRequest *rq)
{
  guint n_proc = lanes->n_processes;

  if (lanes->group_by == IOCHART_GROUP_CLASS)
    return lanes->lane_of[MIN (rq->klass, IOCHART_N_CLASSES - 1)];
  return lanes->lane_of[lanes->group_of[rq->process < n_proc ? rq->process : n_proc]];
}

int
iochart_lanes_lane_of_process (IochartLanes *lanes, guint32 process)
{
  if (lanes->group_by == IOCHART_GROUP_CLASS ||
      process >= lanes->n_processes)
    return -1;
  return lanes->lane_of[lanes->group_of[process]];
}

gint64
iochart_lane_get_life_ns (const IochartLane *lane, gint64 from_ns, gint64 to_ns)
{
  gint64 a = known (lane->start_ns) ? lane->start_ns : lane->first_io_ns;
  gint64 b = known (lane->exit_ns) ? lane->exit_ns : lane->last_io_ns;

  if (known (lane->start_ns) && !known (lane->exit_ns))
    b = to_ns;
  if (!known (lane->start_ns) && known (lane->exit_ns))
    a = from_ns;
  a = MAX (a, from_ns);
  b = MIN (b, to_ns);
  return b > a ? b - a : 0;
}

char *
iochart_lane_class_text (const IochartLane *lane)
{
  GString *out = g_string_new (NULL);
  /* class none (no ioprio set: best effort by nice) beside others is a flush or a kernel thread's
   * write: it would only make every lane look mixed */
  guint mask = lane->class_mask & ~(1u << IOCHART_CLASS_NONE) ? lane->class_mask & ~(1u << IOCHART_CLASS_NONE)
                                                               : lane->class_mask;

  for (guint c = 0; c < IOCHART_N_CLASSES; c++)
    if (mask & (1u << c))
      g_string_append_printf (out, "%s%s", out->len ? "+" : "", iochart_class_name (c));
  if (out->len == 0 || !(mask & (mask - 1)))
    g_string_assign (out, iochart_class_name (lane->klass));
  return g_string_free (out, FALSE);
}
