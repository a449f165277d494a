/* iochart-bootchart-tree.c: the process tree shown, simplified the way bootchart does it
 *
 * The parsed processes stay untouched; the tree is made of copies, so each simplification can be
 * switched on or off and the tree rebuilt. Order of the steps (bootchart's): fold the logger's
 * helpers, prune idle and short-lived processes, fold exploders, merge same-name siblings, merge
 * same-name single-child runs, sort children by pid.
 */
#include <string.h>

#include "iochart-bootchart-private.h"

/* Processes known to spawn huge meaningless subtrees. */
static const char * const exploders[] = { "hwup" };
/* The collectors' own names, when the user named none. */
static const char * const loggers[] = { "bootchartd", "bootchart-colle", "iochart" };

typedef struct {
  IochartBootchart *self;
  gint64 start_ns;
  gint64 end_ns;
  gint64 period_ns;
} Pass;

/* A node shares p's samples (a merge makes its own: merge_samples): copying every process's
 * was a tenth of loading a boot chart, for nodes most of which pruning drops. */
static IochartBootchartProcess *
clone_node (IochartBootchart *self, IochartBootchartProcess *p, IochartBootchartProcess *parent)
{
  IochartBootchartProcess *n = g_new (IochartBootchartProcess, 1);

  *n = *p;
  n->cmd = g_strdup (p->cmd);
  n->exe = g_strdup (p->exe);
  n->args = g_strdupv (p->args);
  n->n_merged = 0;
  n->parent = parent;
  n->children = g_ptr_array_sized_new (p->children->len);
  n->samples = g_array_ref (p->samples);
  g_ptr_array_add (self->tree_nodes, n);
  for (guint i = 0; i < p->children->len; i++)
    g_ptr_array_add (n->children, clone_node (self, g_ptr_array_index (p->children, i), n));
  return n;
}

static gint64
end_of (IochartBootchartProcess *p)
{
  return p->start_ns + p->duration_ns;
}

static int
compare_samples (gconstpointer a, gconstpointer b)
{
  const IochartBootchartProcSample *s = a, *t = b;
  return (s->time_ns > t->time_ns) - (s->time_ns < t->time_ns);
}

static gboolean
in_time_order (GArray *samples)
{
  for (guint i = 1; i < samples->len; i++)
    if (compare_samples (&g_array_index (samples, IochartBootchartProcSample, i - 1),
                         &g_array_index (samples, IochartBootchartProcSample, i)) > 0)
      return FALSE;
  return TRUE;
}

/* a's samples and b's, in time order, a's first at equal times: what g_array_sort (a stable
 * sort) makes of them appended, merged when both are in order (sorting them was half of building
 * a boot chart's tree), into an array of their own: a node's may be its process's (clone_node) */
static void
merge_samples (GArray **a, GArray *b)
{
  const IochartBootchartProcSample *x = (const IochartBootchartProcSample *) (*a)->data;
  const IochartBootchartProcSample *y = (const IochartBootchartProcSample *) b->data;
  guint i = 0, j = 0, k = 0, n = (*a)->len + b->len;
  GArray *merged = g_array_sized_new (FALSE, FALSE, sizeof (IochartBootchartProcSample), n);
  IochartBootchartProcSample *out;

  if (!in_time_order (*a) || !in_time_order (b))
    {
      g_array_append_vals (merged, x, (*a)->len);
      g_array_append_vals (merged, y, b->len);
      g_array_sort (merged, compare_samples);
    }
  else
    {
      g_array_set_size (merged, n);
      out = (IochartBootchartProcSample *) merged->data;
      while (i < (*a)->len && j < b->len)
        out[k++] = compare_samples (&x[i], &y[j]) <= 0 ? x[i++] : y[j++];
      while (i < (*a)->len)
        out[k++] = x[i++];
      while (j < b->len)
        out[k++] = y[j++];
    }
  g_array_unref (*a);
  *a = merged;
}

/* p absorbs q's samples and lifetime (not its children). */
static void
absorb (IochartBootchartProcess *p, IochartBootchartProcess *q)
{
  gint64 end = MAX (end_of (p), end_of (q));

  merge_samples (&p->samples, q->samples);
  p->start_ns = MIN (p->start_ns, q->start_ns);
  p->duration_ns = end - p->start_ns;
  p->n_seen += q->n_seen;
  p->n_merged += 1 + q->n_merged;
  p->active = p->active || q->active;
  if (q->cpu_ns >= 0)
    p->cpu_ns = MAX (p->cpu_ns, 0) + q->cpu_ns;
  if (q->blkio_delay_ns >= 0)
    p->blkio_delay_ns = MAX (p->blkio_delay_ns, 0) + q->blkio_delay_ns;
}

static void
absorb_subtree (IochartBootchartProcess *p, IochartBootchartProcess *q)
{
  for (guint i = 0; i < q->children->len; i++)
    absorb_subtree (p, g_ptr_array_index (q->children, i));
  g_ptr_array_set_size (q->children, 0);
  if (p != q)
    absorb (p, q);
}

static void
adopt (IochartBootchartProcess *p, GPtrArray *children)
{
  for (guint i = 0; i < children->len; i++)
    {
      IochartBootchartProcess *c = g_ptr_array_index (children, i);
      c->parent = p;
      g_ptr_array_add (p->children, c);
    }
  g_ptr_array_set_size (children, 0);
}

static gboolean
is_logger (Pass *pass, const char *cmd)
{
  if (pass->self->logger_name != NULL)
    return strcmp (cmd, pass->self->logger_name) == 0;
  for (guint i = 0; i < G_N_ELEMENTS (loggers); i++)
    if (strcmp (cmd, loggers[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The logger's helpers (sleep, cat...) fold into each of its direct children. */
static void
merge_logger (Pass *pass, GPtrArray *list, gboolean below_logger)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      if (!below_logger && is_logger (pass, p->cmd))
        merge_logger (pass, p->children, TRUE);
      else if (below_logger)
        absorb_subtree (p, p);
      else
        merge_logger (pass, p->children, FALSE);
    }
}

static guint
count_nodes (GPtrArray *list)
{
  guint n = list->len;
  for (guint i = 0; i < list->len; i++)
    n += count_nodes (((IochartBootchartProcess *) g_ptr_array_index (list, i))->children);
  return n;
}

static gboolean
should_prune (Pass *pass, IochartBootchartProcess *p)
{
  IochartBootchartTreeFlags flags = pass->self->tree_flags;
  gint64 span = pass->end_ns - pass->start_ns;
  /* span * 9 / 10 without the product: a damaged log's times overflow it */
  gint64 nine_tenths = span / 10 * 9 + span % 10 * 9 / 10;

  if (flags & IOCHART_BOOTCHART_TREE_PRUNE_IDLE)
    {
      /* a sleepy daemon started during boot and still there at the end */
      if (!p->active && end_of (p) >= pass->end_ns && p->start_ns > pass->start_ns
          && p->duration_ns > nine_tenths && count_nodes (p->children) == 0)
        return TRUE;
    }
  if (flags & IOCHART_BOOTCHART_TREE_PRUNE_SHORT)
    {
      /* bootchart drops what lived two sample periods or less, counting a whole period after
       * the last sighting (and nothing for a process seen once); our durations stop at the
       * last sighting, hence one period here */
      if (p->n_seen <= 1 || p->duration_ns <= pass->period_ns)
        return TRUE;
    }
  return FALSE;
}

/* A pruned process leaves its children to its parent; roots with children are never pruned. */
static void
prune (Pass *pass, GPtrArray *list, IochartBootchartProcess *parent)
{
  guint i = 0;
  while (i < list->len)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      if ((parent != NULL || p->children->len == 0) && should_prune (pass, p))
        {
          g_ptr_array_remove_index (list, i);
          for (guint j = 0; j < p->children->len; j++)
            {
              IochartBootchartProcess *c = g_ptr_array_index (p->children, j);
              c->parent = parent;
              g_ptr_array_insert (list, i + j, c);
            }
          g_ptr_array_set_size (p->children, 0);
          continue;
        }
      prune (pass, p->children, p);
      i++;
    }
}

static void
merge_exploders (Pass *pass, GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      gboolean exploder = FALSE;
      for (guint k = 0; k < G_N_ELEMENTS (exploders); k++)
        exploder = exploder || strcmp (p->cmd, exploders[k]) == 0;
      if (exploder && p->children->len > 0)
        {
          absorb_subtree (p, p);
          char *cmd = g_strconcat (p->cmd, " (+)", NULL);
          g_free (p->cmd);
          p->cmd = cmd;
        }
      else
        merge_exploders (pass, p->children);
    }
}

/* Same-name neighbours are threads or workers of one job: one bar. */
static void
merge_siblings (GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      while (i + 1 < list->len)
        {
          IochartBootchartProcess *q = g_ptr_array_index (list, i + 1);
          if (strcmp (p->cmd, q->cmd) != 0)
            break;
          adopt (p, q->children);
          absorb (p, q);
          g_ptr_array_remove_index (list, i + 1);
        }
      merge_siblings (p->children);
    }
}

/* A process whose only child has its name (a shell re-executing itself...) is one bar. */
static void
merge_runs (GPtrArray *list)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      while (p->children->len == 1
             && strcmp (((IochartBootchartProcess *) g_ptr_array_index (p->children, 0))->cmd,
                        p->cmd) == 0)
        {
          IochartBootchartProcess *c = g_ptr_array_index (p->children, 0);
          g_ptr_array_set_size (p->children, 0);
          adopt (p, c->children);
          absorb (p, c);
        }
      merge_runs (p->children);
    }
}

static int
compare_pid (gconstpointer a, gconstpointer b)
{
  const IochartBootchartProcess *p = *(IochartBootchartProcess * const *) a;
  const IochartBootchartProcess *q = *(IochartBootchartProcess * const *) b;
  if (p->pid != q->pid)
    return p->pid < q->pid ? -1 : 1;
  return (p->start_ns > q->start_ns) - (p->start_ns < q->start_ns);
}

static void
sort_tree (GPtrArray *list)
{
  g_ptr_array_sort (list, compare_pid);
  for (guint i = 0; i < list->len; i++)
    sort_tree (((IochartBootchartProcess *) g_ptr_array_index (list, i))->children);
}

static void
span_of (GPtrArray *list, gint64 *start, gint64 *end)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      *start = MIN (*start, p->start_ns);
      *end = MAX (*end, end_of (p));
      span_of (p->children, start, end);
    }
}

void
_iochart_bootchart_build_tree (IochartBootchart *self)
{
  IochartBootchartTreeFlags flags = self->tree_flags;
  Pass pass = { self, G_MAXINT64, G_MININT64, self->period_ns };

  g_ptr_array_set_size (self->tree, 0);
  g_ptr_array_set_size (self->tree_nodes, 0);
  for (guint i = 0; i < self->processes->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (self->processes, i);
      if (p->parent == NULL)
        g_ptr_array_add (self->tree, clone_node (self, p, NULL));
    }
  span_of (self->tree, &pass.start_ns, &pass.end_ns);

  if (flags & IOCHART_BOOTCHART_TREE_MERGE_LOGGER)
    merge_logger (&pass, self->tree, FALSE);
  if (flags & (IOCHART_BOOTCHART_TREE_PRUNE_IDLE | IOCHART_BOOTCHART_TREE_PRUNE_SHORT))
    prune (&pass, self->tree, NULL);
  if (flags & IOCHART_BOOTCHART_TREE_MERGE_EXPLODERS)
    merge_exploders (&pass, self->tree);
  if (flags & IOCHART_BOOTCHART_TREE_MERGE_SIBLINGS)
    merge_siblings (self->tree);
  if (flags & IOCHART_BOOTCHART_TREE_MERGE_RUNS)
    merge_runs (self->tree);
  sort_tree (self->tree);
}
