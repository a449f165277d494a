/* test-bootchart.c: the bootchart reader on captures written by the test itself */
#include "bootchart/iochart-bootchart-range.h"
#include "../test-util.h"
#include <string.h>
#include <glib/gstdio.h>
#include <archive.h>
#include <archive_entry.h>
#include <sys/resource.h>

#include "bootchart/iochart-bootchart-private.h"
#include "iochart-error.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif

/* A /proc/PID/stat line with the fields bootchart reads; times in ticks. */
static void
ps_line (GString *s, int pid, const char *comm, char state, int ppid, int utime, int stime,
         int starttime)
{
  g_string_append_printf (s, "%d (%s) %c %d 0 0 0 -1 0 0 0 0 0 %d %d 0 0 20 0 1 0 %d 1000 10\n",
                          pid, comm, state, ppid, utime, stime, starttime);
}

/* Three samples 0.2 s apart: init all along, a shell with children, a short-lived sleep. */
static GString *
small_ps (void)
{
  GString *s = g_string_new (NULL);
  g_string_append (s, "100\n");
  ps_line (s, 1, "init", 'S', 0, 5, 5, 2);
  ps_line (s, 2, "kthreadd", 'S', 0, 0, 0, 2);
  ps_line (s, 50, "rc", 'R', 1, 1, 0, 90);
  ps_line (s, 51, "my (odd) name", 'R', 50, 0, 0, 95);
  g_string_append (s, "\n120\n");
  ps_line (s, 1, "init", 'S', 0, 5, 5, 2);
  ps_line (s, 2, "kthreadd", 'S', 0, 0, 0, 2);
  ps_line (s, 50, "rc", 'R', 1, 11, 0, 90);
  ps_line (s, 51, "my (odd) name", 'D', 50, 4, 6, 95);
  ps_line (s, 60, "sleep", 'S', 50, 0, 0, 115);
  g_string_append (s, "\n140\n");
  ps_line (s, 1, "init", 'S', 0, 5, 5, 2);
  ps_line (s, 2, "kthreadd", 'S', 0, 0, 0, 2);
  ps_line (s, 50, "rc", 'S', 1, 21, 0, 90);
  g_string_append (s, "\n");
  return s;
}

static IochartBootchartProcess *
find (IochartBootchart *bc, int pid)
{
  GPtrArray *all = iochart_bootchart_get_processes (bc);
  for (guint i = 0; i < all->len; i++)
    if (((IochartBootchartProcess *) all->pdata[i])->pid == pid)
      return all->pdata[i];
  return NULL;
}

static void
test_proc_ps (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GString) ps = small_ps ();
  g_autoptr(GError) error = NULL;

  test_put (dir, "header", "title = Boot chart for test\nsystem.cpu = model name : Foo\n"
                      "model name : Foo (2)\n", -1);
  test_put (dir, "proc_ps.log", ps->str, ps->len);
  g_assert_true (iochart_bootchart_sniff_path (dir));

  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_bootchart_get_n_samples (bc), ==, 3);
  g_assert_cmpint (iochart_bootchart_get_sample_period_ns (bc), ==, 200000000);
  g_assert_cmpuint (iochart_bootchart_get_n_cpus (bc), ==, 2);   /* "(2)" on the continued line */
  g_assert_cmpstr (iochart_bootchart_get_header_value (bc, "title"), ==, "Boot chart for test");
  g_assert_cmpuint (iochart_bootchart_get_processes (bc)->len, ==, 5);
  g_assert_cmpuint (iochart_bootchart_get_warnings (bc)->len, ==, 0);

  IochartBootchartProcess *odd = find (bc, 51);
  g_assert_nonnull (odd);
  g_assert_cmpstr (odd->cmd, ==, "my (odd) name");
  g_assert_true (odd->parent == find (bc, 50));
  g_assert_cmpint (odd->start_ns, ==, 950000000);        /* starttime 95 ticks */
  g_assert_cmpint (odd->duration_ns, ==, 250000000);      /* last seen at 1.20 s */
  g_assert_cmpuint (odd->samples->len, ==, 2);
  IochartBootchartProcSample *s = &g_array_index (odd->samples, IochartBootchartProcSample, 1);
  g_assert_cmpint (s->state, ==, 'D');
  g_assert_cmpfloat_with_epsilon (s->user, 0.2, 1e-6);    /* 4 ticks in 20 */
  g_assert_cmpfloat_with_epsilon (s->sys, 0.3, 1e-6);

  IochartBootchartProcess *rc = find (bc, 50);
  g_assert_false (rc->active);   /* CPU in two samples: bootchart wants more than two */
  g_assert_cmpuint (rc->children->len, ==, 2);
  g_assert_cmpint (find (bc, 60)->start_ns, ==, 1150000000);

  test_remove_dir (dir);
}

/* A log over 256 KiB is read in two halves at once: the same processes, samples and CPU use
 * across the halves' seam, a pid reused across it, and the first bad line in the log's order. */
static GString *
big_ps (guint bad_a, guint bad_b, guint *bad_line)
{
  GString *s = g_string_new (NULL);
  guint line = 0;

  *bad_line = 0;
  for (guint i = 0; i < 600; i++)
    {
      g_string_append_printf (s, "%u\n", 100 + 10 * i), line++;
      for (int pid = 1; pid <= 10; pid++)
        {
          if ((i == bad_a || i == bad_b) && pid == 5)
            {
              g_string_append (s, "5 (broken) S 1 0\n"), line++;
              if (*bad_line == 0)
                *bad_line = line;
              continue;
            }
          ps_line (s, pid, "daemon", 'S', pid > 1, 2 * i, i, 50), line++;
        }
      /* pid 500: one process until sample 349, another from 350 */
      ps_line (s, 500, i < 350 ? "first" : "second", 'R', 1, 0, 0, i < 350 ? 60 : 100 + 10 * 350), line++;
      g_string_append (s, "\n"), line++;
    }
  return s;
}

static void
test_big_proc_ps (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GError) error = NULL;
  guint bad_line;
  g_autoptr(GString) ps = big_ps (G_MAXUINT, G_MAXUINT, &bad_line);

  g_assert_cmpuint (ps->len, >, 256 * 1024);   /* PS_PARALLEL_BYTES */
  test_put (dir, "proc_ps.log", ps->str, ps->len);
  {
    g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (iochart_bootchart_get_n_samples (bc), ==, 600);
    g_assert_cmpuint (iochart_bootchart_get_processes (bc)->len, ==, 12);
    IochartBootchartProcess *init = find (bc, 1);
    g_assert_cmpuint (init->samples->len, ==, 600);
    for (guint i = 1; i < 600; i++)
      {
        IochartBootchartProcSample *x = &g_array_index (init->samples, IochartBootchartProcSample, i);
        g_assert_cmpint (x->time_ns, ==, (100 + 10 * (gint64) i) * 10000000);
        g_assert_cmpfloat_with_epsilon (x->user, 0.2, 1e-6);   /* 2 ticks in 10, each sample */
        g_assert_cmpfloat_with_epsilon (x->sys, 0.1, 1e-6);
      }
    GPtrArray *all = iochart_bootchart_get_processes (bc);
    guint n500 = 0;
    for (guint i = 0; i < all->len; i++)
      {
        IochartBootchartProcess *p = all->pdata[i];
        if (p->pid != 500)
          continue;
        n500++;
        g_assert_cmpuint (p->samples->len, ==, strcmp (p->cmd, "first") == 0 ? 350 : 250);
      }
    g_assert_cmpuint (n500, ==, 2);
  }

  /* a bad line in the second half only, then in both: the first in the log is named */
  for (int both = 0; both < 2; both++)
    {
      g_autoptr(GString) bad = big_ps (both ? 100 : 450, 450, &bad_line);
      g_autofree char *where = g_strdup_printf ("line %u:", bad_line);
      g_autoptr(IochartBootchart) bc = NULL;

      test_put (dir, "proc_ps.log", bad->str, bad->len);
      g_clear_error (&error);
      bc = iochart_bootchart_load (dir, &error);
      g_assert_null (bc);
      g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
      g_assert_nonnull (strstr (error->message, where));
      g_assert_nonnull (strstr (error->message, "too few fields"));
    }
  test_remove_dir (dir);
}

static guint
count (GPtrArray *list)
{
  guint n = list->len;
  for (guint i = 0; i < list->len; i++)
    n += count (((IochartBootchartProcess *) list->pdata[i])->children);
  return n;
}

static IochartBootchartProcess *
process_of (IochartBootchart *bc, gint32 pid)
{
  GPtrArray *all = iochart_bootchart_get_processes (bc);

  for (guint i = 0; i < all->len; i++)
    if (((IochartBootchartProcess *) all->pdata[i])->pid == pid)
      return all->pdata[i];
  g_assert_not_reached ();
}

/* every parsed process keeps a sample for each proc_ps.log line of it, in time order */
static void
assert_processes_whole (IochartBootchart *bc)
{
  GPtrArray *all = iochart_bootchart_get_processes (bc);

  for (guint i = 0; i < all->len; i++)
    {
      IochartBootchartProcess *p = all->pdata[i];

      g_assert_cmpuint (p->samples->len, ==, p->n_seen);
      for (guint k = 1; k < p->samples->len; k++)
        g_assert_cmpint (g_array_index (p->samples, IochartBootchartProcSample, k - 1).time_ns, <,
                         g_array_index (p->samples, IochartBootchartProcSample, k).time_ns);
    }
}

static void
test_tree_flags (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GString) ps = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  /* init, rc and four same-name workers of rc living 1 s, one sleep seen once */
  for (int t = 0; t <= 10; t++)
    {
      g_string_append_printf (ps, "%d\n", 100 + t * 10);
      ps_line (ps, 1, "init", 'S', 0, t, 0, 1);
      ps_line (ps, 40, "rc", 'S', 1, t, 0, 50);
      for (int w = 0; w < 4 && t < 6; w++)
        ps_line (ps, 41 + w, "worker", 'R', 40, t * 2, 0, 95);
      if (t == 3)
        ps_line (ps, 70, "sleep", 'S', 40, 0, 0, 129);
      g_string_append_c (ps, '\n');
    }
  test_put (dir, "proc_ps.log", ps->str, ps->len);

  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_bootchart_get_tree_flags (bc), ==, IOCHART_BOOTCHART_TREE_DEFAULT);
  /* default: sleep pruned, the four workers one node */
  g_assert_cmpuint (count (iochart_bootchart_get_tree (bc)), ==, 3);
  IochartBootchartProcess *rc = ((IochartBootchartProcess *) iochart_bootchart_get_tree (bc)->pdata[0])->children->pdata[0];
  g_assert_cmpstr (rc->cmd, ==, "rc");
  g_assert_cmpuint (rc->children->len, ==, 1);
  IochartBootchartProcess *w = rc->children->pdata[0];
  g_assert_cmpuint (w->n_merged, ==, 3);
  g_assert_cmpuint (w->samples->len, ==, 24);

  /* a node nothing was folded into shares its process's samples, not a copy of them */
  assert_processes_whole (bc);
  g_assert_true (rc->samples == process_of (bc, 40)->samples);
  g_assert_true (w->samples != process_of (bc, w->pid)->samples);

  iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_AS_PARSED);
  g_assert_cmpuint (count (iochart_bootchart_get_tree (bc)), ==, 7);
  iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_MERGE_SIBLINGS);
  g_assert_cmpuint (count (iochart_bootchart_get_tree (bc)), ==, 4);
  iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_PRUNE_SHORT);
  g_assert_cmpuint (count (iochart_bootchart_get_tree (bc)), ==, 6);
  /* the parsed processes are untouched by the tree, their samples too: the trees built again */
  g_assert_cmpuint (iochart_bootchart_get_processes (bc)->len, ==, 7);
  assert_processes_whole (bc);
  iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_DEFAULT);
  w = ((IochartBootchartProcess *) ((IochartBootchartProcess *) iochart_bootchart_get_tree (bc)->pdata[0])
       ->children->pdata[0])->children->pdata[0];
  g_assert_cmpuint (w->n_merged, ==, 3);
  g_assert_cmpuint (w->samples->len, ==, 24);
  for (guint i = 1; i < w->samples->len; i++)
    g_assert_cmpint (g_array_index (w->samples, IochartBootchartProcSample, i - 1).time_ns, <=,
                     g_array_index (w->samples, IochartBootchartProcSample, i).time_ns);
  assert_processes_whole (bc);

  test_remove_dir (dir);
}

static void
test_truncated (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GString) ps = small_ps ();
  g_autoptr(GError) error = NULL;

  /* cut in the middle of the last sample's second line */
  const char *last = strstr (ps->str, "\n140\n");
  gsize cut = last - ps->str + 5 + 30;
  test_put (dir, "proc_ps.log", ps->str, cut);

  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_bootchart_get_n_samples (bc), ==, 2);
  GPtrArray *warnings = iochart_bootchart_get_warnings (bc);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_nonnull (strstr (warnings->pdata[0], "'proc_ps.log': line 14"));
  g_assert_nonnull (strstr (warnings->pdata[0], "dropped"));
  g_assert_nonnull (find (bc, 60));

  test_remove_dir (dir);
}

static void
test_bad_input (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GError) error = NULL;
  IochartBootchart *bc;

  test_put (dir, "proc_ps.log", "100\n1 (init) S 0 0\n\n", -1);
  bc = iochart_bootchart_load (dir, &error);
  g_assert_null (bc);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_nonnull (strstr (error->message, "'proc_ps.log': line 2: too few fields"));
  g_clear_error (&error);

  test_put (dir, "proc_ps.log", "100\n\nten\n1 (init) S\n\n", -1);
  bc = iochart_bootchart_load (dir, &error);
  g_assert_null (bc);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_nonnull (strstr (error->message, "'proc_ps.log': line 3: expected a timestamp: 'ten'"));
  g_clear_error (&error);

  g_autofree char *proc_ps = g_build_filename (dir, "proc_ps.log", NULL);
  g_remove (proc_ps);
  test_put (dir, "header", "title = x\n", -1);
  bc = iochart_bootchart_load (dir, &error);
  g_assert_null (bc);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY);
  g_clear_error (&error);

  test_remove_dir (dir);
  g_assert_false (iochart_bootchart_sniff_path (dir));
  bc = iochart_bootchart_load (dir, &error);
  g_assert_null (bc);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_IO);
}

/* struct acct_v3, one record, little-endian then big-endian. */
static const guint8 acct_le[64] = {
  0x00, 0x03,                   /* flag, version 3 */
  0x00, 0x00,                   /* tty */
  0x00, 0x00, 0x00, 0x00,       /* exitcode */
  0x00, 0x00, 0x00, 0x00,       /* uid */
  0x00, 0x00, 0x00, 0x00,       /* gid */
  0x37, 0x00, 0x00, 0x00,       /* pid 55 */
  0x33, 0x00, 0x00, 0x00,       /* ppid 51 */
  0x00, 0x00, 0x00, 0x00,       /* btime */
  0x00, 0x00, 0x00, 0x00,       /* etime */
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   /* comp_t times and counts */
  's', 'l', 'e', 'e', 'p', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};
static const guint8 acct_be[64] = {
  0x00, 0x83,                   /* flag, version 3 | ACCT_BYTEORDER */
  0x00, 0x00,
  0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x37,       /* pid 55 */
  0x00, 0x00, 0x00, 0x33,       /* ppid 51 */
  0x00, 0x00, 0x00, 0x00,
  0x00, 0x00, 0x00, 0x00,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  's', 'l', 'e', 'e', 'p', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static void
check_pacct (const guint8 *record)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GString) ps = small_ps ();
  g_autoptr(GError) error = NULL;
  guint8 two[130];

  memcpy (two, record, 64);
  memcpy (two + 64, record, 64);
  two[128] = two[129] = 0;         /* a cut third record */
  /* sleep's parent, 55, lived too short to be sampled; kernel_pacct knows it was 51's child */
  g_string_replace (ps, "60 (sleep) S 50", "60 (sleep) S 55", 0);
  test_put (dir, "proc_ps.log", ps->str, ps->len);
  test_put (dir, "kernel_pacct", (const char *) two, sizeof two);

  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  /* the unsampled parent is skipped for its own parent */
  g_assert_cmpint (find (bc, 60)->ppid, ==, 51);
  g_assert_true (find (bc, 60)->parent == find (bc, 51));
  g_assert_cmpuint (iochart_bootchart_get_warnings (bc)->len, ==, 1);
  g_assert_nonnull (strstr (iochart_bootchart_get_warnings (bc)->pdata[0], "offset 128"));

  /* a bad version byte is an error naming the offset */
  two[64 + 1] = 7;
  test_put (dir, "kernel_pacct", (const char *) two, 128);
  g_clear_object (&bc);
  bc = iochart_bootchart_load (dir, &error);
  g_assert_null (bc);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_nonnull (strstr (error->message, "'kernel_pacct': not an acct v3 record at offset 64"));
  test_remove_dir (dir);
}

static void
test_pacct (void)
{
  check_pacct (acct_le);
  check_pacct (acct_be);
}

static void
test_whole_disks (void)
{
  const char *yes[] = { "sda", "sdab", "hda", "vda", "xvda", "nvme0n1", "nvme10n12", "mmcblk0",
                        "dm-0", "md127", "loop0" };
  const char *no[] = { "sda1", "hda2", "vda3", "xvda1", "nvme0n1p1", "nvme0", "mmcblk0p1",
                       "mmcblk0boot0", "dm-", "md", "loop", "ram0", "sr0", "md0p1" };
  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    g_assert_true (_iochart_bootchart_is_whole_disk (yes[i]));
  for (guint i = 0; i < G_N_ELEMENTS (no); i++)
    g_assert_false (_iochart_bootchart_is_whole_disk (no[i]));
}

static void
test_system_logs (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GString) ps = small_ps ();
  g_autoptr(GError) error = NULL;

  test_put (dir, "proc_ps.log", ps->str, ps->len);
  test_put (dir, "proc_stat.log",
       "100\ncpu  10 0 10 80 0 0 0\ncpu0 5 0 5 40 0 0 0\ncpu1 5 0 5 40 0 0 0\n"
       "procs_running 2\nprocs_blocked 0\n\n"
       "120\ncpu  20 0 15 100 5 0 0\ncpu0 10 0 10 50 0 0 0\ncpu1 10 0 5 50 5 0 0\n"
       "procs_running 3\nprocs_blocked 1\n\n", -1);
  /* nvme0n1 reads 2048 sectors (1 MiB) in 0.2 s, busy 100 of 200 ms; its partition and the
   * never-used loop0 are not shown */
  test_put (dir, "proc_diskstats.log",
       "100\n 259 0 nvme0n1 10 0 100 5 0 0 0 0 0 10 10\n 259 1 nvme0n1p1 10 0 100 5 0 0 0 0 0 10 10\n"
       "   7 0 loop0 0 0 0 0 0 0 0 0 0 0 0\n   8 0 sda 1 2 3 4\n\n"
       "120\n 259 0 nvme0n1 20 0 2148 9 3 0 8 1 0 110 12\n 259 1 nvme0n1p1 20 0 2148 9 0 0 0 0 0 110 12\n"
       "   7 0 loop0 0 0 0 0 0 0 0 0 0 0 0\n\n", -1);
  test_put (dir, "proc_meminfo.log", "100\nMemTotal:  1000 kB\nMemFree:  600 kB\nCached: 100 kB\n\n", -1);
  static const char cmdline2[] = "51\n:/bin/odd\n:odd\0--flag\0\n\n99\n:/gone\n:gone\0\n\n";
  test_put (dir, "cmdline2.log", cmdline2, sizeof cmdline2 - 1);
  test_put (dir, "dmesg",
       "[    0.100000] calling  pci_init+0x0/0x40 @ 1\n"
       "[    0.100500] initcall pci_init+0x0/0x40 returned 0 after 488 usecs\n"
       "[    0.200000] something else\n", -1);

  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  GArray *cpu = iochart_bootchart_get_cpu_samples (bc);
  g_assert_cmpuint (cpu->len, ==, 1);
  IochartBootchartCpuSample *c = &g_array_index (cpu, IochartBootchartCpuSample, 0);
  g_assert_cmpfloat_with_epsilon (c->user, 10.0 / 40, 1e-6);
  g_assert_cmpfloat_with_epsilon (c->sys, 5.0 / 40, 1e-6);
  g_assert_cmpfloat_with_epsilon (c->iowait, 5.0 / 40, 1e-6);
  g_assert_cmpuint (c->procs_blocked, ==, 1);
  g_assert_cmpuint (iochart_bootchart_get_n_cpus (bc), ==, 2);

  GPtrArray *disks = iochart_bootchart_get_disks (bc);
  g_assert_cmpuint (disks->len, ==, 1);
  IochartBootchartDisk *d = disks->pdata[0];
  g_assert_cmpstr (d->name, ==, "nvme0n1");
  g_assert_cmpuint (d->read_bytes, ==, 2048 * 512);
  g_assert_cmpuint (d->written_bytes, ==, 8 * 512);
  IochartBootchartDiskSample *ds = &g_array_index (d->samples, IochartBootchartDiskSample, 0);
  g_assert_cmpfloat_with_epsilon (ds->read_bytes_per_s, 2048 * 512 / 0.2, 1e-3);
  g_assert_cmpfloat_with_epsilon (ds->util, 0.5, 1e-6);

  GArray *mem = iochart_bootchart_get_mem_samples (bc);
  g_assert_cmpuint (mem->len, ==, 1);
  g_assert_cmpuint (g_array_index (mem, IochartBootchartMemSample, 0).free_kb, ==, 600);

  IochartBootchartProcess *odd = find (bc, 51);
  g_assert_cmpstr (odd->exe, ==, "/bin/odd");
  g_assert_cmpuint (g_strv_length (odd->args), ==, 2);
  g_assert_cmpstr (odd->args[1], ==, "--flag");

  GArray *calls = iochart_bootchart_get_initcalls (bc);
  g_assert_cmpuint (calls->len, ==, 1);
  IochartBootchartInitcall *ic = &g_array_index (calls, IochartBootchartInitcall, 0);
  g_assert_cmpstr (ic->name, ==, "pci_init");
  g_assert_cmpint (ic->start_ns, ==, 100000000);
  g_assert_cmpint (ic->duration_ns, ==, 488000);

  /* info and JSON */
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);
  iochart_bootchart_print_info (bc, out);
  fclose (out);
  g_assert_nonnull (strstr (text, "nvme0n1 (259:0): 1.0"));
  g_assert_nonnull (strstr (text, "5 read"));
  free (text);

  g_autoptr(JsonBuilder) jb = json_builder_new ();
  iochart_bootchart_to_json (bc, jb);
  g_autoptr(JsonNode) root = json_builder_get_root (jb);
  JsonObject *o = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (o, "format"), ==, "bootchart");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "tree")), ==, 2);

  test_remove_dir (dir);
}

static void
test_taskstats_only (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GError) error = NULL;

  test_put (dir, "taskstats.log",
       "100\n1 0 (init) 1000 0 0\n30 1 (udev worker) 0 0 0\n\n"
       "120\n1 0 (init) 1000 0 0\n30 1 (udev worker) 100000000 5000 0\n\n"
       "140\n30 1 (udev worker) 100000000 9000 0\n\n", -1);
  g_assert_true (iochart_bootchart_sniff_path (dir));
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  IochartBootchartProcess *w = find (bc, 30);
  g_assert_cmpstr (w->cmd, ==, "udev worker");
  g_assert_true (w->parent == find (bc, 1));
  g_assert_cmpint (w->blkio_delay_ns, ==, 9000);
  g_assert_cmpint (g_array_index (w->samples, IochartBootchartProcSample, 1).state, ==, 'R');
  g_assert_cmpfloat_with_epsilon (g_array_index (w->samples, IochartBootchartProcSample, 1).user,
                                  0.5, 1e-6);
  g_assert_cmpint (g_array_index (w->samples, IochartBootchartProcSample, 2).state, ==, 'D');
  test_remove_dir (dir);
}

static void
add_to_tar (struct archive *a, const char *name, const char *data, gsize len)
{
  struct archive_entry *e = archive_entry_new ();
  archive_entry_set_pathname (e, name);
  archive_entry_set_size (e, len);
  archive_entry_set_filetype (e, AE_IFREG);
  archive_entry_set_perm (e, 0644);
  g_assert_cmpint (archive_write_header (a, e), ==, ARCHIVE_OK);
  g_assert_cmpint (archive_write_data (a, data, len), ==, (la_ssize_t) len);
  archive_entry_free (e);
}

static void
write_tar (const char *path, gboolean gzip, GString *ps)
{
  struct archive *a = archive_write_new ();
  if (gzip)
    archive_write_add_filter_gzip (a);
  archive_write_set_format_pax_restricted (a);
  g_assert_cmpint (archive_write_open_filename (a, path), ==, ARCHIVE_OK);
  add_to_tar (a, "boot/header", "title = from a tgz\n", 19);
  add_to_tar (a, "boot/proc_ps.log", ps->str, ps->len);
  add_to_tar (a, "boot/deep/proc_stat.log", "garbage", 7);   /* too deep: ignored */
  archive_write_close (a);
  archive_write_free (a);
}

static void
test_tgz (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autofree char *tgz = g_build_filename (dir, "bootchart.tgz", NULL);
  g_autoptr(GString) ps = small_ps ();
  g_autoptr(GError) error = NULL;

  write_tar (tgz, TRUE, ps);
  g_assert_true (iochart_bootchart_sniff_path (tgz));
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (iochart_bootchart_get_header_value (bc, "title"), ==, "from a tgz");
  g_assert_cmpuint (iochart_bootchart_get_processes (bc)->len, ==, 5);
  g_assert_cmpuint (iochart_bootchart_get_warnings (bc)->len, ==, 0);

  /* a plain tar cut in proc_ps.log's last sample: the first two load, with warnings */
  write_tar (tgz, FALSE, ps);
  g_autofree char *whole = NULL;
  gsize len;
  g_file_get_contents (tgz, &whole, &len, NULL);
  const char *in_tar = memmem (whole, len, "\n140\n", 5);
  g_assert_nonnull (in_tar);
  test_put (dir, "bootchart.tgz", whole, in_tar - whole + 40);
  g_clear_object (&bc);
  bc = iochart_bootchart_load (tgz, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_bootchart_get_n_samples (bc), ==, 2);
  GPtrArray *warnings = iochart_bootchart_get_warnings (bc);
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_nonnull (strstr (warnings->pdata[0], "'boot/proc_ps.log' cut after"));
  g_assert_nonnull (strstr (warnings->pdata[1], "'proc_ps.log': line 14: last sample incomplete"));

  /* not an archive at all */
  test_put (dir, "bootchart.tgz", "hello", 5);
  g_assert_false (iochart_bootchart_sniff_path (tgz));
  g_clear_object (&bc);
  bc = iochart_bootchart_load (tgz, &error);
  g_assert_null (bc);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_nonnull (strstr (error->message, "bootchart.tgz': not a bootchart folder or archive"));
  test_remove_dir (dir);
}

static const IochartBootchartRangeProcess *
range_process (const IochartBootchartRange *r, gint32 pid)
{
  for (guint i = 0; i < r->processes->len; i++)
    if (g_array_index (r->processes, IochartBootchartRangeProcess, i).process->pid == pid)
      return &g_array_index (r->processes, IochartBootchartRangeProcess, i);
  return NULL;
}

/* Range figures of samples/bootchart-ionice.tgz, as a script over its proc_ps.log, proc_diskstats.log
 * and proc_stat.log counts them (ticks, sectors and io_ticks between two samples). */
static void
test_range (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT") ? g_getenv ("IOCHART_SOURCE_ROOT") : ".",
                                            "samples", "bootchart-ionice.tgz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (path, &error);
  g_autoptr(IochartBootchartRange) r = NULL, half = NULL, whole = NULL;
  const IochartBootchartRangeDisk *vda;
  const IochartBootchartRangeProcess *p;
  g_autoptr(GString) text = g_string_new (NULL);

  g_assert_no_error (error);
  /* 1968.87 s to 1969.49 s after boot: both dd readers in D, the recorder running */
  r = iochart_bootchart_range_new (bc, G_GINT64_CONSTANT (1968870000000), G_GINT64_CONSTANT (1969490000000));
  g_assert_nonnull (r);
  vda = &g_array_index (r->disks, IochartBootchartRangeDisk, 0);
  g_assert_cmpstr (vda->disk->name, ==, "vda");
  g_assert_cmpuint (vda->read_bytes, ==, 16777216);      /* 32768 sectors */
  g_assert_cmpuint (vda->written_bytes, ==, 1159168);    /* 2264 sectors */
  g_assert_cmpfloat_with_epsilon (vda->util, 0.108 / 0.62, 1e-6);   /* io_ticks 108 ms */
  g_assert_cmpfloat_with_epsilon (r->cpu_user, 0.544, 0.001);
  g_assert_cmpfloat_with_epsilon (r->cpu_iowait, 0, 1e-9);
  g_assert_cmpint ((p = range_process (r, 22522))->cpu_ns, ==, 20000000);   /* 2 ticks */
  g_assert_cmpint (range_process (r, 44)->cpu_ns, ==, 10000000);
  g_assert_cmpint (range_process (r, 77)->cpu_ns, ==, 10000000);
  for (gint32 pid = 22539; pid <= 22540; pid++)
    {
      g_assert_cmpint (range_process (r, pid)->d_state_ns, ==, 100000000);   /* D at 1968.97 s, gone by 1969.18 s */
      g_assert_cmpint (range_process (r, pid)->cpu_ns, ==, 0);
    }
  g_assert_cmpuint (r->processes->len, ==, 7);   /* ran or waited; the other 62 slept */
  g_assert_cmpuint (r->n_asleep, ==, 62);
  g_assert_true (r->processes->len > 0 && g_array_index (r->processes, IochartBootchartRangeProcess, 0).process->pid == 22522);
  /* a split sums to the life in the range */
  for (guint i = 0; i < r->processes->len; i++)
    {
      const IochartTimeSplit *sp = &g_array_index (r->processes, IochartBootchartRangeProcess, i).split;
      gint64 sum = 0;
      for (guint k = 0; k < IOCHART_N_SPLITS; k++)
        sum += sp->ns[k];
      g_assert_cmpint (sum, ==, sp->life_ns);
      g_assert_cmpint (sp->life_ns, <=, 620000000);
    }
  iochart_bootchart_range_print (r, 20, text);
  g_assert_nonnull (strstr (text->str, "vda: 16 MiB read"));
  {
    /* one disk line for `info` and the app's panel (there translated) */
    g_autofree char *line = iochart_bootchart_range_disk_text (&g_array_index (r->disks, IochartBootchartRangeDisk, 0),
                                                               FALSE);
    g_autofree char *in_text = g_strdup_printf ("  disks:          %s\n", line);

    g_assert_true (g_str_has_prefix (line, "vda: 16 MiB read ("));
    g_assert_true (g_str_has_suffix (line, "% busy"));
    g_assert_nonnull (strstr (text->str, in_text));
  }
  g_assert_nonnull (strstr (text->str, "(62 more asleep all the range)"));

  /* half of a sample interval takes half of it: 1969.18 s to 1969.235 s of the 1969.18-1969.29 s one */
  half = iochart_bootchart_range_new (bc, G_GINT64_CONSTANT (1969180000000), G_GINT64_CONSTANT (1969235000000));
  whole = iochart_bootchart_range_new (bc, G_GINT64_CONSTANT (1969180000000), G_GINT64_CONSTANT (1969290000000));
  g_assert_cmpint (llabs (2 * range_process (half, 22522)->cpu_ns - range_process (whole, 22522)->cpu_ns), <=, 1);
  g_assert_cmpint (llabs ((gint64) (2 * g_array_index (half->disks, IochartBootchartRangeDisk, 0).written_bytes)
                          - (gint64) g_array_index (whole->disks, IochartBootchartRangeDisk, 0).written_bytes), <=, 1);

  /* clipped to the samples; nothing after them */
  g_clear_pointer (&whole, iochart_bootchart_range_free);
  whole = iochart_bootchart_range_new (bc, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN);
  g_assert_cmpint (whole->from_ns, ==, iochart_bootchart_get_start_ns (bc));
  g_assert_cmpint (whole->to_ns, ==, iochart_bootchart_get_end_ns (bc));
  g_assert_cmpuint (g_array_index (whole->disks, IochartBootchartRangeDisk, 0).read_bytes, ==,
                    g_array_index (whole->disks, IochartBootchartRangeDisk, 0).disk->read_bytes);
  g_assert_null (iochart_bootchart_range_new (bc, G_GINT64_CONSTANT (1980000000000), IOCHART_TIME_UNKNOWN));
}

/* The logs are mapped, not read into fresh memory: reading an 8 MiB log faults on each of its
 * 2,048 pages (a fault costs ~10 us on a VM), a mapping made whole at once a few dozen times.
 * Run in a fresh process: malloc's state left by other tests would change the count. */
static void
test_logs_mapped (void)
{
#ifdef SANITIZED
  g_test_skip ("the sanitizer's shadow memory faults too");
  return;
#endif
  if (g_test_subprocess ())
    {
      g_autofree char *dir = test_make_dir ();
      g_autoptr(GString) ps = small_ps ();
      g_autoptr(GString) dmesg = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      struct rusage before, after;
      guint64 pages;

      /* lines without a printk time: skipped by the parser, which allocates nothing for them */
      while (dmesg->len < 8u << 20)
        g_string_append (dmesg, "a line of the kernel log without a time stamp, as after a cut\n");
      pages = dmesg->len / 4096;
      test_put (dir, "proc_ps.log", ps->str, ps->len);
      test_put (dir, "dmesg", dmesg->str, dmesg->len);
      getrusage (RUSAGE_SELF, &before);
      {
        g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (iochart_bootchart_get_processes (bc)->len, ==, 5);
      }
      getrusage (RUSAGE_SELF, &after);
      g_test_message ("%ld faults for %" G_GUINT64_FORMAT " pages of logs",
                      after.ru_minflt - before.ru_minflt, pages);
      g_assert_cmpuint (after.ru_minflt - before.ru_minflt, <, pages / 4);
      test_remove_dir (dir);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bootchart/range", test_range);
  g_test_add_func ("/bootchart/proc-ps", test_proc_ps);
  g_test_add_func ("/bootchart/proc-ps-big", test_big_proc_ps);
  g_test_add_func ("/bootchart/tree-flags", test_tree_flags);
  g_test_add_func ("/bootchart/truncated", test_truncated);
  g_test_add_func ("/bootchart/bad-input", test_bad_input);
  g_test_add_func ("/bootchart/pacct", test_pacct);
  g_test_add_func ("/bootchart/whole-disks", test_whole_disks);
  g_test_add_func ("/bootchart/system-logs", test_system_logs);
  g_test_add_func ("/bootchart/taskstats-only", test_taskstats_only);
  g_test_add_func ("/bootchart/tgz", test_tgz);
  g_test_add_func ("/bootchart/logs-mapped", test_logs_mapped);
  return g_test_run ();
}
