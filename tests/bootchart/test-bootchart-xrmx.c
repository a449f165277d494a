/* test-bootchart-xrmx.c: our process tree against the original bootchart's on real captures
 *
 * ../shared/bootchart/xrmx-examples-1 holds the Java bootchart's parsed trees
 * (extract.processtree.N.log: pid, cmd, start ms, duration ms, children, samples, in tree
 * order): .1 as parsed, .5 after the whole pruning. At least 95% of its processes must be ours
 * too, same pid and name, start and duration within one sample period. Skips (77) without the
 * shared folder.
 */
#include <stdlib.h>
#include <string.h>

#include "bootchart/iochart-bootchart-private.h"
#include "iochart-error.h"

typedef struct {
  int    pid;
  char  *cmd;
  gint64 start_ms;
  gint64 duration_ms;
} Expected;

static char *shared_dir;

static GArray *
read_extract (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (Expected));

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (char **l = lines; *l; l++)
    {
      g_auto(GStrv) f = g_strsplit (*l, "\t", -1);
      if (g_strv_length (f) < 4)
        continue;
      Expected e = { atoi (f[0]), g_strdup (f[1]), g_ascii_strtoll (f[2], NULL, 10),
                     g_ascii_strtoll (f[3], NULL, 10) };
      g_array_append_val (rows, e);
    }
  return rows;
}

static void
index_tree (GPtrArray *list, GHashTable *by_pid)
{
  for (guint i = 0; i < list->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (list, i);
      g_hash_table_insert (by_pid, GINT_TO_POINTER (p->pid), p);
      index_tree (p->children, by_pid);
    }
}

static guint
count (GPtrArray *list)
{
  guint n = list->len;
  for (guint i = 0; i < list->len; i++)
    n += count (((IochartBootchartProcess *) g_ptr_array_index (list, i))->children);
  return n;
}

/* Returns the share of expected rows we match; prints the figures. */
static double
agreement (IochartBootchart *bc, const char *extract, const char *label)
{
  g_autofree char *path = g_build_filename (shared_dir, "xrmx-examples-1", extract, NULL);
  g_autoptr(GArray) rows = read_extract (path);
  g_autoptr(GHashTable) ours = g_hash_table_new (NULL, NULL);
  gint64 period_ms = iochart_bootchart_get_sample_period_ns (bc) / 1000000;
  guint matched = 0, same_pid = 0;
  double start_err = 0, duration_err = 0;

  index_tree (iochart_bootchart_get_tree (bc), ours);
  for (guint i = 0; i < rows->len; i++)
    {
      Expected *e = &g_array_index (rows, Expected, i);
      IochartBootchartProcess *p = g_hash_table_lookup (ours, GINT_TO_POINTER (e->pid));
      if (p == NULL || strcmp (p->cmd, e->cmd) != 0)
        {
          g_test_message ("%s: missing %d %s", label, e->pid, e->cmd);
          continue;
        }
      same_pid++;
      gint64 ds = ABS (p->start_ns / 1000000 - e->start_ms);
      gint64 dd = ABS (p->duration_ns / 1000000 - e->duration_ms);
      start_err += ds;
      duration_err += dd;
      if (ds <= period_ms && dd <= period_ms)
        matched++;
      else
        g_test_message ("%s: %d %s start %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT " ms, duration %"
                        G_GINT64_FORMAT "/%" G_GINT64_FORMAT " ms", label, e->pid, e->cmd,
                        p->start_ns / 1000000, e->start_ms, p->duration_ns / 1000000,
                        e->duration_ms);
    }
  printf ("# %s: %u of %u processes match (%.1f%%), %u with pid and name; ours %u; "
          "mean |start| error %.1f ms, mean |duration| error %.1f ms, period %" G_GINT64_FORMAT
          " ms\n", label, matched, rows->len, 100.0 * matched / rows->len, same_pid,
          count (iochart_bootchart_get_tree (bc)), start_err / MAX (same_pid, 1),
          duration_err / MAX (same_pid, 1), period_ms);
  for (guint i = 0; i < rows->len; i++)
    g_free (g_array_index (rows, Expected, i).cmd);
  return (double) matched / rows->len;
}

static void
test_example_1 (void)
{
  g_autofree char *dir = g_build_filename (shared_dir, "xrmx-examples-1", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (iochart_bootchart_sniff_path (dir));
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_bootchart_get_n_samples (bc), ==, 141);
  g_assert_cmpuint (iochart_bootchart_get_processes (bc)->len, ==, 861);

  iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_AS_PARSED);
  g_assert_cmpfloat (agreement (bc, "extract.processtree.1.log", "as parsed"), >=, 0.95);
  iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_DEFAULT);
  iochart_bootchart_set_logger_name (bc, "bootchartd");
  g_assert_cmpfloat (agreement (bc, "extract.processtree.5.log", "pruned"), >=, 0.95);
}

static IochartBootchart *
load_without (const char *dir, const char *skip)
{
  const char *names[] = { "header", "proc_stat.log", "proc_diskstats.log", "proc_ps.log",
                          "kernel_pacct" };
  g_autoptr(IochartBootchart) bc = _iochart_bootchart_new (dir);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);
      g_autofree char *data = NULL;
      gsize len;
      if (g_strcmp0 (names[i], skip) == 0 || !g_file_get_contents (path, &data, &len, NULL))
        continue;
      g_autoptr(GBytes) bytes = g_bytes_new_take (g_steal_pointer (&data), len);
      g_assert_true (_iochart_bootchart_add_member (bc, names[i], bytes, &error));
    }
  g_assert_true (_iochart_bootchart_finish (bc, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&bc);
}

static void
test_example_2_pacct (void)
{
  g_autofree char *dir = g_build_filename (shared_dir, "xrmx-examples-2", NULL);
  g_autoptr(IochartBootchart) with = load_without (dir, NULL);
  g_autoptr(IochartBootchart) without = load_without (dir, "kernel_pacct");
  guint recorded = 0, agree = 0, roots_with = 0, roots_without = 0;

  g_assert_cmpuint (iochart_bootchart_get_n_samples (with), ==, 199);
  g_assert_cmpuint (iochart_bootchart_get_processes (with)->len, ==, 817);
  g_assert_cmpuint (iochart_bootchart_get_warnings (with)->len, ==, 0);
  g_assert_cmpuint (g_hash_table_size (with->pacct_map), ==, 321408 / 64);   /* distinct pids */
  GPtrArray *a = iochart_bootchart_get_processes (with);
  GPtrArray *b = iochart_bootchart_get_processes (without);
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    {
      IochartBootchartProcess *p = a->pdata[i], *q = b->pdata[i];
      gpointer value;
      g_assert_cmpint (p->pid, ==, q->pid);
      roots_with += p->parent == NULL;
      roots_without += q->parent == NULL;
      /* the accounting record's parent (at exit) is /proc's (at first sight) unless orphaned */
      if (g_hash_table_lookup_extended (with->pacct_map, GINT_TO_POINTER (p->pid), NULL, &value)
          && GPOINTER_TO_INT (value) > 1)
        {
          recorded++;
          agree += GPOINTER_TO_INT (value) == q->ppid;
        }
    }
  printf ("# kernel_pacct: %u sampled processes have a record with a parent; it agrees with "
          "/proc for %u (%.1f%%); roots %u with it, %u without; %u nodes in the pruned tree\n",
          recorded, agree, 100.0 * agree / MAX (recorded, 1), roots_with, roots_without,
          count (iochart_bootchart_get_tree (with)));
  g_assert_cmpuint (recorded, >, 300);
  g_assert_cmpfloat ((double) agree / recorded, >=, 0.95);
  g_assert_cmpuint (roots_with, <=, roots_without);
}

int
main (int argc, char **argv)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT");

  g_test_init (&argc, &argv, NULL);
  shared_dir = g_build_filename (root ? root : ".", "..", "shared", "bootchart", NULL);
  g_autofree char *probe = g_build_filename (shared_dir, "xrmx-examples-1",
                                             "extract.processtree.5.log", NULL);
  if (!g_file_test (probe, G_FILE_TEST_EXISTS))
    {
      printf ("# skipping: %s is absent\n", probe);
      return 77;
    }
  g_test_add_func ("/bootchart/xrmx/example-1", test_example_1);
  g_test_add_func ("/bootchart/xrmx/example-2-pacct", test_example_2_pacct);
  return g_test_run ();
}
