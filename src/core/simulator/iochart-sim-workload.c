/* iochart-sim-workload.c: a capture's requests, forks and exits as a closed-loop dependency graph
 *
 * Each process has a timeline: its fork, its sync requests' submissions and completions, the
 * forks and exits of its children, its exit. Every submission, fork of a child and exit follows
 * the latest earlier entry of that timeline by the observed gap: after a completion that is think
 * time, after a submission still outstanding it is the offset of an overlapping request
 * (readahead, AIO), after a child's exit it is a parent that waited (`find -exec cat`).
 */
#include <string.h>
#include "iochart-sim-private.h"
#include "iochart-error.h"
#include "analysis/iochart-steal.h"

struct _IochartSimWorkload {
  IochartSimGraph g;
  guint           n_dropped;
};

enum { K_START, K_COMPLETE, K_CHILD_EXIT, K_CHILD_FORK, K_SUBMIT, K_EXIT };

/* An entry of one process's timeline (its bucket says which process): 16 bytes. */
typedef struct {
  gint64  ns;
  guint32 node;
  guint8  kind;
} Entry;

G_STATIC_ASSERT (sizeof (Entry) == 16);

static int
entry_cmp (gconstpointer a, gconstpointer b)
{
  const Entry *x = a, *y = b;

  if (x->ns != y->ns)
    return x->ns < y->ns ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

typedef IochartSimKeyed Keyed;

static inline gboolean
known (gint64 ns)
{
  return ns != IOCHART_TIME_UNKNOWN;
}

/* Marks processes matching one of the names, and their descendants. */
static void
mark_tree (IochartCapture *c, const guint32 *parent, const char * const *match, guint n_match,
           gssize stride, int *which)
{
  guint n = iochart_capture_get_n_processes (c);

  for (guint i = 0; i < n; i++)
    {
      which[i] = -1;
      for (guint m = 0; m < n_match; m++)
        if (iochart_capture_process_matches (c, i, *(const char * const *) ((const char *) match + m * stride)))
          which[i] = m;
    }
  /* a descendant takes the nearest marked ancestor's mark; steps bound a corrupt cycle */
  for (guint i = 0; i < n; i++)
    {
      guint32 p = parent[i];
      guint steps = 0;

      while (which[i] < 0 && p < n && steps++ < n)
        {
          if (which[p] >= 0)
            which[i] = which[p];
          p = parent[p];
        }
    }
}

/* --set-group COMM_OR_PID=NAME[:WEIGHT]: each process of a rule's tree in the rule's group; one
 * group per NAME, the root (weight 1000, as CFQ gave it) first. */
static gboolean
assign_groups (IochartCapture *c, IochartSimGraph *g, const char * const *rules, GError **error)
{
  guint n_rules = rules ? g_strv_length ((char **) rules) : 0, P = iochart_capture_get_n_processes (c);
  g_autofree const char **match = g_new0 (const char *, MAX (n_rules, 1));
  g_autofree guint *rule_group = g_new0 (guint, MAX (n_rules, 1));
  g_autofree int *which = g_new (int, MAX (P, 1));
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) matches = g_new0 (char *, n_rules + 1);

  if (n_rules == 0)
    return TRUE;
  g->group_weight = g_new (guint, n_rules + 1);
  g->group_weight[0] = 1000;
  g_ptr_array_add (names, g_strdup (""));
  for (guint i = 0; i < n_rules; i++)
    {
      const char *eq = strrchr (rules[i], '='), *colon;
      g_autofree char *name = NULL;
      guint64 weight = 500;
      guint k;

      if (eq == NULL || eq == rules[i] || eq[1] == '\0' || eq[1] == ':')
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                       "'%s': a group rule is COMM_OR_PID=NAME[:WEIGHT]", rules[i]);
          return FALSE;
        }
      colon = strchr (eq, ':');
      if (colon && !g_ascii_string_to_unsigned (colon + 1, 10, 100, 1000, &weight, NULL))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': the weight must be 100 to 1000", rules[i]);
          return FALSE;
        }
      name = colon ? g_strndup (eq + 1, colon - eq - 1) : g_strdup (eq + 1);
      for (k = 1; k < names->len && strcmp (names->pdata[k], name) != 0; k++)
        ;
      if (k == names->len)
        g_ptr_array_add (names, g_steal_pointer (&name));
      g->group_weight[k] = weight;
      rule_group[i] = k;
      matches[i] = g_strndup (rules[i], eq - rules[i]);
      match[i] = matches[i];
    }
  g->n_groups = names->len;
  mark_tree (c, g->parent, match, n_rules, sizeof (char *), which);
  g->group = g_new0 (guint16, MAX (P, 1));
  for (guint p = 0; p < P; p++)
    g->group[p] = which[p] >= 0 ? rule_group[which[p]] : 0;
  for (guint i = 0; i < n_rules; i++)
    {
      gboolean any = FALSE;

      for (guint p = 0; p < P && !any; p++)
        any = which[p] == (int) i;
      if (!any)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': --set-group matches no process",
                       match[i]);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
pick_device (IochartCapture *c, int asked, guint *device, GError **error)
{
  int d = asked >= 0 ? asked : iochart_steal_pick_device (c);

  if (d < 0 || (guint) d >= iochart_capture_get_n_devices (c))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': no request to simulate",
                   iochart_capture_get_name (c));
      return FALSE;
    }
  *device = d;
  return TRUE;
}

/* The requests of the device with a whole life, read once: by submission time in keyed, with
 * their lives in obs (indexed by keyed[].index). */
typedef struct {
  IochartRequest r;
  guint32        index;     /* in the capture */
} Obs;

static GArray *
collect_requests (IochartCapture *c, guint device, GArray **obs)
{
  guint n = iochart_capture_get_n_requests (c);
  GArray *keyed = g_array_new (FALSE, FALSE, sizeof (Keyed));

  *obs = g_array_new (FALSE, FALSE, sizeof (Obs));
  for (guint i = 0; i < n; i++)
    {
      Obs o = { .index = i };

      iochart_capture_get_request (c, i, &o.r);
      if (o.r.device != device || !known (o.r.issue_ns) || !known (o.r.complete_ns) ||
          o.r.complete_ns < o.r.issue_ns || o.r.op == IOCHART_OP_FLUSH)
        continue;
      g_array_append_val (keyed, ((Keyed) { _iochart_sim_submit_ns (&o.r), (*obs)->len }));
      g_array_append_val (*obs, o);
    }
  _iochart_sim_sort_keyed ((Keyed *) keyed->data, keyed->len);
  return keyed;
}

/* Each request's own time on a device that serves one at a time: from its issue, or from the
 * previous completion when it had to wait behind it. */
static void
observed_service (IochartSimGraph *g, const gint64 *issue, const gint64 *done)
{
  g_autofree Keyed *by_done = g_new (Keyed, MAX (g->n_rq, 1));
  gint64 prev = G_MININT64;

  for (guint i = 0; i < g->n_rq; i++)
    by_done[i] = (Keyed) { done[i], i };
  _iochart_sim_sort_keyed (by_done, g->n_rq);
  for (guint k = 0; k < g->n_rq; k++)
    {
      guint32 i = by_done[k].index;
      gint64 from = MAX (issue[i], prev);

      g->observed_service_ns[i] = MAX (by_done[k].ns - from, 1000);
      prev = by_done[k].ns;
    }
}

static void
fill_requests (IochartSimGraph *g, const Keyed *keyed, const Obs *obs, const int *set_rule,
               const IochartSimWorkloadOptions *o, gint64 *submit, gint64 *issue, gint64 *done)
{
  for (guint i = 0; i < g->n_rq; i++)
    {
      const IochartRequest *r = &obs[keyed[i].index].r;
      IochartSimRq *q = &g->rq[i];

      g->source[i] = obs[keyed[i].index].index;
      submit[i] = keyed[i].ns;
      issue[i] = r->issue_ns;
      done[i] = r->complete_ns;
      q->sector = r->sector;
      q->bytes = r->bytes;
      q->process = r->process;
      q->klass = r->klass;
      q->level = r->level;
      q->op = r->op;
      q->flags = r->flags;
      if (r->process != IOCHART_NO_PROCESS && set_rule[r->process] >= 0)
        {
          g->classes_changed = TRUE;
          q->klass = o->set_class[set_rule[r->process]].klass;
          q->level = o->set_class[set_rule[r->process]].level;
        }
    }
}

static inline guint32
arrival_node (guint32 rq)
{
  return rq;
}

/* Async writes are the kernel's writeback: they stay at their observed times. */
static gboolean
in_timeline (const IochartSimRq *q)
{
  return q->process != IOCHART_NO_PROCESS && _iochart_sim_rq_is_sync (q);
}

/* Insertion sort by entry_cmp: short timelines, and the runs of equal times of long ones. */
static void
insertion_sort (Entry *e, guint n)
{
  for (guint i = 1; i < n; i++)
    {
      Entry x = e[i];
      guint j = i;

      for (; j > 0 && entry_cmp (&e[j - 1], &x) > 0; j--)
        e[j] = e[j - 1];
      e[j] = x;
    }
}

/* Sorts a process's timeline: a long one (a `find` that forked a million `cat`s) by time in
 * linear time, then each run of equal times by kind and node. */
static void
sort_bucket (Entry *e, guint n)
{
  if (n <= 32)
    {
      insertion_sort (e, n);
      return;
    }
  _iochart_sim_sort_by_ns (e, n, sizeof (Entry), G_STRUCT_OFFSET (Entry, ns));
  for (guint i = 0, j; i < n; i = j)
    {
      for (j = i + 1; j < n && e[j].ns == e[i].ns; j++)
        ;
      if (j - i > 1)
        insertion_sort (e + i, j - i);
    }
}

typedef struct {
  Entry   *v;
  guint32 *start;     /* per process + 1 */
  guint    n;
} Timelines;

/* Every process's timeline, bucketed by process (two passes: count, then place). */
static void
timeline_entries (IochartCapture *c, IochartSimGraph *g, const gint64 *submit, const gint64 *done,
                  Timelines *t)
{
  guint R = g->n_rq, P = iochart_capture_get_n_processes (c);
  g_autofree guint32 *fill = NULL;

  t->start = g_new0 (guint32, P + 2);
  for (int pass = 0; pass < 2; pass++)
    {
#define PUT(proc, kind, ns, node) \
      G_STMT_START { \
        if (pass == 0) t->start[(proc) + 1]++; \
        else t->v[t->start[proc] + fill[proc]++] = (Entry) { ns, node, kind }; \
      } G_STMT_END
      for (guint i = 0; i < R; i++)
        if (in_timeline (&g->rq[i]))
          {
            PUT (g->rq[i].process, K_SUBMIT, submit[i], arrival_node (i));
            PUT (g->rq[i].process, K_COMPLETE, done[i], R + i);
          }
      for (guint p = 0; p < P; p++)
        {
          const IochartProcess *proc = iochart_capture_get_process (c, p);
          guint32 fork = 2 * R + p, exit = 2 * R + P + p;

          if (known (proc->start_ns))
            {
              PUT (p, K_START, proc->start_ns, fork);
              if (g->parent[p] < P)
                PUT (g->parent[p], K_CHILD_FORK, proc->start_ns, fork);
            }
          if (known (proc->exit_ns))
            {
              PUT (p, K_EXIT, proc->exit_ns, exit);
              if (g->parent[p] < P)
                PUT (g->parent[p], K_CHILD_EXIT, proc->exit_ns, exit);
            }
        }
#undef PUT
      if (pass == 0)
        {
          for (guint p = 0; p < P; p++)
            t->start[p + 1] += t->start[p];
          t->n = t->start[P];
          t->v = g_new (Entry, MAX (t->n, 1));
          fill = g_new0 (guint32, MAX (P, 1));
        }
    }
  for (guint p = 0; p < P; p++)
    sort_bucket (t->v + t->start[p], t->start[p + 1] - t->start[p]);
}

/* Every node that a process makes happen follows the latest earlier entry of its timeline. */
static void
link_timelines (IochartSimGraph *g, const Timelines *t, gint64 *obs)
{
  guint32 last = IOCHART_SIM_NONE, proc = 0;
  gint64 last_ns = 0;

  for (guint k = 0; k < t->n; k++)
    {
      const Entry *en = &t->v[k];

      while (k == t->start[proc + 1])   /* the next process's bucket begins */
        {
          proc++;
          last = IOCHART_SIM_NONE;
        }
      obs[en->node] = en->ns;
      if (en->kind == K_SUBMIT || en->kind == K_CHILD_FORK || en->kind == K_EXIT)
        {
          g->pred[en->node] = last;
          g->gap_ns[en->node] = last == IOCHART_SIM_NONE ? en->ns : en->ns - last_ns;
        }
      last = en->node;
      last_ns = en->ns;
    }
}

/* A node whose predecessor was dropped follows that one's own predecessor, gaps added up. */
static void
bypass_dead (IochartSimGraph *g)
{
  for (guint n = 0; n < g->n_nodes; n++)
    {
      guint steps = 0;

      if (!g->live[n])
        continue;
      while (g->pred[n] != IOCHART_SIM_NONE && !g->live[g->pred[n]] && steps++ < g->n_nodes)
        {
          guint32 d = g->pred[n];

          if (g->pred[d] == IOCHART_SIM_NONE)
            {
              g->pred[n] = IOCHART_SIM_NONE;
              g->gap_ns[n] += g->gap_ns[d];   /* a root's gap is its time */
            }
          else
            {
              g->pred[n] = g->pred[d];
              g->gap_ns[n] += g->gap_ns[d];
            }
        }
    }
}

static void
build_successors (IochartSimGraph *g, const gint64 *obs)
{
  g_autofree guint32 *fill = g_new0 (guint32, g->n_nodes);
  g_autofree Keyed *roots = g_new (Keyed, g->n_nodes);
  guint n_roots = 0;

  g->succ_start = g_new0 (guint32, g->n_nodes + 1);
  /* a completion's link to its arrival only served bypass_dead: the device completes it */
  for (guint n = g->n_rq; n < 2 * g->n_rq; n++)
    g->pred[n] = IOCHART_SIM_NONE;
  for (guint n = 0; n < g->n_nodes; n++)
    if (g->live[n] && g->pred[n] != IOCHART_SIM_NONE)
      g->succ_start[g->pred[n] + 1]++;
  for (guint n = 0; n < g->n_nodes; n++)
    g->succ_start[n + 1] += g->succ_start[n];
  g->succ = g_new (guint32, MAX (g->succ_start[g->n_nodes], 1));
  for (guint n = 0; n < g->n_nodes; n++)
    {
      if (!g->live[n])
        continue;
      if (g->pred[n] != IOCHART_SIM_NONE)
        {
          guint32 p = g->pred[n];
          g->succ[g->succ_start[p] + fill[p]++] = n;
        }
      else if (n < g->n_rq || n >= 2 * g->n_rq)   /* completions come from the device */
        roots[n_roots++] = (Keyed) { obs[n], n };
    }
  _iochart_sim_sort_keyed (roots, n_roots);
  g->roots = g_new (guint32, MAX (n_roots, 1));
  for (guint i = 0; i < n_roots; i++)
    g->roots[i] = roots[i].index;
  g->n_roots = n_roots;
}

static void
init_nodes (IochartCapture *c, IochartSimGraph *g, const gint64 *submit, const gint64 *done)
{
  guint R = g->n_rq, P = iochart_capture_get_n_processes (c);

  g->n_nodes = 2 * R + 2 * P;
  g->pred = g_new (guint32, g->n_nodes);
  g->gap_ns = g_new0 (gint64, g->n_nodes);
  g->live = g_new0 (guint8, g->n_nodes);
  for (guint n = 0; n < g->n_nodes; n++)
    g->pred[n] = IOCHART_SIM_NONE;
  for (guint i = 0; i < R; i++)
    {
      gboolean alive = g->rq[i].process == IOCHART_NO_PROCESS || !g->dropped[g->rq[i].process];

      g->gap_ns[i] = submit[i];                       /* a root until its timeline says otherwise */
      g->pred[R + i] = i;                             /* only for bypassing a dropped completion */
      g->gap_ns[R + i] = done[i] - submit[i];
      g->live[i] = g->live[R + i] = alive;
    }
  for (guint p = 0; p < P; p++)
    {
      const IochartProcess *proc = iochart_capture_get_process (c, p);

      g->gap_ns[2 * R + p] = proc->start_ns;
      g->gap_ns[2 * R + P + p] = proc->exit_ns;
      g->live[2 * R + p] = known (proc->start_ns) && !g->dropped[p];
      g->live[2 * R + P + p] = known (proc->exit_ns) && !g->dropped[p];
    }
}

IochartSimWorkload *
iochart_sim_workload_new (IochartCapture *capture, const IochartSimWorkloadOptions *options,
                          GError **error)
{
  IochartSimWorkloadOptions defaults = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
  g_autoptr(IochartSimWorkload) wl = g_new0 (IochartSimWorkload, 1);
  IochartSimGraph *g = &wl->g;
  g_autoptr(GArray) keyed = NULL;
  g_autoptr(GArray) observed = NULL;
  Timelines timelines = { 0 };
  g_autofree int *drop_rule = NULL, *set_rule = NULL;
  g_autofree gint64 *submit = NULL, *obs = NULL, *issue = NULL, *done = NULL;
  guint P, n_drop = 0;

  g_return_val_if_fail (IOCHART_IS_CAPTURE (capture), NULL);
  if (options == NULL)
    options = &defaults;
  g->capture = g_object_ref (capture);
  if (!pick_device (capture, options->device, &g->device, error))
    return NULL;
  P = iochart_capture_get_n_processes (capture);
  g->parent = g_new (guint32, MAX (P, 1));
  g->dropped = g_new0 (guint8, MAX (P, 1));
  for (guint p = 0; p < P; p++)
    g->parent[p] = iochart_capture_get_process (capture, p)->parent;

  while (options->drop && options->drop[n_drop])
    n_drop++;
  drop_rule = g_new (int, MAX (P, 1));
  set_rule = g_new (int, MAX (P, 1));
  mark_tree (capture, g->parent, options->drop, n_drop, sizeof (char *), drop_rule);
  mark_tree (capture, g->parent, options->set_class ? (const char * const *) &options->set_class[0].match : NULL,
             options->n_set_class, sizeof (IochartClassRule), set_rule);
  for (guint p = 0; p < P; p++)
    if ((g->dropped[p] = drop_rule[p] >= 0))
      wl->n_dropped++;
  for (guint m = 0; m < n_drop; m++)
    {
      gboolean any = FALSE;
      for (guint p = 0; p < P; p++)
        any |= drop_rule[p] == (int) m;
      if (!any)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': --drop matches no process",
                       options->drop[m]);
          return NULL;
        }
    }

  if (!assign_groups (capture, g, options->set_group, error))
    return NULL;
  keyed = collect_requests (capture, g->device, &observed);
  g->n_rq = keyed->len;
  g->rq = g_new0 (IochartSimRq, MAX (g->n_rq, 1));
  g->source = g_new (guint32, MAX (g->n_rq, 1));
  g->observed_service_ns = g_new (gint64, MAX (g->n_rq, 1));
  submit = g_new (gint64, MAX (g->n_rq, 1));
  issue = g_new (gint64, MAX (g->n_rq, 1));
  done = g_new (gint64, MAX (g->n_rq, 1));
  fill_requests (g, (const Keyed *) keyed->data, (const Obs *) observed->data, set_rule, options, submit,
                 issue, done);
  g_clear_pointer (&observed, g_array_unref);
  observed_service (g, issue, done);

  init_nodes (capture, g, submit, done);
  obs = g_new (gint64, g->n_nodes);
  for (guint n = 0; n < g->n_nodes; n++)
    obs[n] = g->gap_ns[n];
  timeline_entries (capture, g, submit, done, &timelines);
  link_timelines (g, &timelines, obs);
  g_free (timelines.v);
  g_free (timelines.start);
  bypass_dead (g);
  build_successors (g, obs);
  return g_steal_pointer (&wl);
}

void
iochart_sim_workload_free (IochartSimWorkload *wl)
{
  IochartSimGraph *g;

  if (wl == NULL)
    return;
  g = &wl->g;
  g_clear_object (&g->capture);
  g_free (g->rq);
  g_free (g->source);
  g_free (g->observed_service_ns);
  g_free (g->parent);
  g_free (g->dropped);
  g_free (g->group);
  g_free (g->group_weight);
  g_free (g->pred);
  g_free (g->gap_ns);
  g_free (g->live);
  g_free (g->succ_start);
  g_free (g->succ);
  g_free (g->roots);
  g_free (wl);
}

IochartCapture *
iochart_sim_workload_get_capture (IochartSimWorkload *wl)
{
  return wl->g.capture;
}

guint
iochart_sim_workload_get_device (IochartSimWorkload *wl)
{
  return wl->g.device;
}

guint
iochart_sim_workload_get_n_requests (IochartSimWorkload *wl)
{
  return wl->g.n_rq;
}

guint
iochart_sim_workload_get_n_dropped (IochartSimWorkload *wl)
{
  return wl->n_dropped;
}

gboolean
iochart_sim_workload_is_dropped (IochartSimWorkload *wl, guint32 process)
{
  return process < iochart_capture_get_n_processes (wl->g.capture) && wl->g.dropped[process];
}

const IochartSimGraph *
_iochart_sim_workload_get_graph (IochartSimWorkload *wl)
{
  return &wl->g;
}
