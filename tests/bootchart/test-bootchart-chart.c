/* test-bootchart-chart.c: the boot chart on captures the test writes, the sample bundle and (with
 * --xrmx, exit 77 when absent) the shared xrmx captures.
 * IOCHART_UPDATE_GOLDEN=1 rewrites the golden display list. */
#include "../test-util.h"
#include <string.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "bootchart/iochart-bootchart-chart.h"
#include "bootchart/iochart-bootchart-range.h"
#include "iochart-capture-private.h"
#include "iochart-error.h"
#include "analysis/iochart-time-split.h"
#include "render/iochart-svg.h"

#define S  G_GINT64_CONSTANT (1000000000)
#define MS G_GINT64_CONSTANT (1000000)

static void
ps_line (GString *s, int pid, const char *comm, char state, int ppid, int utime, int stime, int starttime)
{
  g_string_append_printf (s, "%d (%s) %c %d 0 0 0 -1 0 0 0 0 0 %d %d 0 0 20 0 1 0 %d 1000 10\n",
                          pid, comm, state, ppid, utime, stime, starttime);
}

/* Writes the four sample logs into dir and frees them. */
static void
put_logs (const char *dir, GString *ps, GString *st, GString *ds, GString *mem)
{
  test_put (dir, "proc_ps.log", ps->str, ps->len);
  test_put (dir, "proc_stat.log", st->str, st->len);
  test_put (dir, "proc_diskstats.log", ds->str, ds->len);
  test_put (dir, "proc_meminfo.log", mem->str, mem->len);
  g_string_free (ps, TRUE);
  g_string_free (st, TRUE);
  g_string_free (ds, TRUE);
  g_string_free (mem, TRUE);
}

/* 11 samples 0.2 s apart from 1 s: init, rc, two readers (one idle-class, one best-effort in
 * the trace) in D state from 1.2 to 2.4 s, a CPU-bound job; the disk idles from 2.4 s. */
static char *
write_small_capture (void)
{
  char *dir = test_make_dir ();
  GString *ps = g_string_new (NULL), *st = g_string_new (NULL), *ds = g_string_new (NULL);
  GString *mem = g_string_new (NULL);
  int user = 100, sys = 50, idle = 1000, iowait = 10, rd_ios = 10, rd_sect = 1000, io_ms = 100;

  for (int i = 0; i <= 10; i++)
    {
      int t = 100 + 20 * i;   /* centiseconds */
      gboolean reading = t >= 120 && t <= 240;

      g_string_append_printf (ps, "%d\n", t);
      ps_line (ps, 1, "init", 'S', 0, 5, 5, 2);
      ps_line (ps, 50, "rc", 'S', 1, 2 * i, 0, 90);
      if (reading)
        {
          ps_line (ps, 60, "reader", 'D', 50, i, i, 115);
          ps_line (ps, 61, "reader", 'D', 50, i, i, 115);
        }
      if (t >= 140 && t <= 200)
        ps_line (ps, 70, "cpu hog", 'R', 50, 15 * (i - 2), 0, 135);
      g_string_append (ps, "\n");

      /* counters grow by interval: 40 ticks of 2 CPUs, the hog's, a little system, I/O wait */
      if (i > 0)
        {
          int u = t >= 140 && t <= 200 ? 15 : 0, w = reading ? 10 : 0;
          user += u;
          sys += 1;
          iowait += w;
          idle += 40 - u - 1 - w;
          rd_ios += reading ? 50 : 0;
          rd_sect += reading ? 8000 : 0;
          io_ms += reading ? 180 : 0;
        }
      g_string_append_printf (st, "%d\ncpu  %d 0 %d %d %d 0 0\n\n", t, user, sys, idle, iowait);
      g_string_append_printf (ds, "%d\n   8       0 sda %d 0 %d 0 0 0 0 0 0 %d 0\n\n", t, rd_ios, rd_sect, io_ms);
      g_string_append_printf (mem, "%d\nMemTotal: 1000000 kB\nMemFree: %d kB\nBuffers: 1000 kB\n"
                              "Cached: %d kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n\n",
                              t, 800000 - 10000 * i, 50000 + 5000 * i);
    }
  test_put (dir, "header", "version = test\ntitle = Boot chart for testbox\nsystem.uname = Linux 6.1.0 x86_64\n"
                      "system.release = Debian 12\nsystem.cpu = model name\t: Test CPU @ 1GHz\n"
                      "model name : Test CPU (2)\nsystem.kernel.options = root=/dev/sda1 quiet\n", -1);
  put_logs (dir, ps, st, ds, mem);
  return dir;
}

/* 11 samples 0.2 s apart from 1 s: a shell started before them, its first child (a long name)
 * at 1.01 s, at the plot's left edge, so that the name sits over its bar or right of it, and its
 * second at 1.2 s, whose link from the shell runs down past the first one's name. */
static char *
write_links_capture (void)
{
  char *dir = test_make_dir ();
  GString *ps = g_string_new (NULL), *st = g_string_new (NULL), *ds = g_string_new (NULL);
  GString *mem = g_string_new (NULL);

  for (int i = 0; i <= 10; i++)
    {
      int t = 100 + 20 * i;   /* centiseconds */

      g_string_append_printf (ps, "%d\n", t);
      ps_line (ps, 1, "init", 'S', 0, 5, 5, 2);
      ps_line (ps, 50, "rc", 'R', 1, 3 * i, i, 90);
      ps_line (ps, 55, "a-first-child-with-a-long-name", 'R', 50, 4 * i, i, 101);
      if (t >= 120)
        ps_line (ps, 56, "second", 'R', 50, 4 * (i - 1), i, 120);
      g_string_append (ps, "\n");
      g_string_append_printf (st, "%d\ncpu  %d 0 %d %d 0 0 0\n\n", t, 100 + 20 * i, 50 + 5 * i, 1000 + 15 * i);
      g_string_append_printf (ds, "%d\n   8       0 sda %d 0 %d 0 0 0 0 0 0 %d 0\n\n", t, 10 + i, 1000 + 8 * i, 100 + i);
      g_string_append_printf (mem, "%d\nMemTotal: 1000000 kB\nMemFree: 800000 kB\nBuffers: 1000 kB\n"
                              "Cached: 50000 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n\n", t);
    }
  test_put (dir, "header", "version = test\ntitle = Boot chart for testbox\nsystem.uname = Linux 6.1.0 x86_64\n", -1);
  put_logs (dir, ps, st, ds, mem);
  return dir;
}

static void
block (IochartBuilder *b, IochartBlockAction action, gint64 ts, guint64 sector, gint32 pid,
       const char *comm, gint32 ioprio)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;

  ev.ts_ns = ts;
  ev.dev = IOCHART_DEV_MAKE (8, 0);
  ev.sector = sector;
  ev.nr_sector = 256;
  ev.op = IOCHART_OP_READ;
  ev.pid = action == IOCHART_BLOCK_COMPLETE ? -1 : pid;
  ev.comm = action == IOCHART_BLOCK_COMPLETE ? NULL : comm;
  ev.comm_len = comm ? strlen (comm) : 0;
  ev.ioprio = ioprio;
  _iochart_builder_block (b, action, &ev);
}

/* The two readers' requests, side by side from 1.2 to 2.4 s (+ shift): the idle one steals. */
static IochartCapture *
make_io (gint64 shift)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("trace.dat");

  _iochart_builder_device_name (b, IOCHART_DEV_MAKE (8, 0), "sda");
  _iochart_builder_fork (b, shift + 1150 * MS, 50, 60, "reader");
  _iochart_builder_fork (b, shift + 1150 * MS, 50, 61, "reader");
  for (int k = 0; k < 24; k++)
    {
      gint64 t = shift + 1200 * MS + k * 50 * MS;
      block (b, IOCHART_BLOCK_ISSUE, t, 1000 + 256 * k, 60, "reader", IOCHART_IOPRIO_MAKE (3, 7));
      block (b, IOCHART_BLOCK_ISSUE, t + 1 * MS, 900000 + 256 * k, 61, "reader", IOCHART_IOPRIO_MAKE (2, 4));
      block (b, IOCHART_BLOCK_COMPLETE, t + 20 * MS, 1000 + 256 * k, -1, NULL, -1);
      block (b, IOCHART_BLOCK_COMPLETE, t + 21 * MS, 900000 + 256 * k, -1, NULL, -1);
    }
  return _iochart_builder_finish (b);
}

static guint
count_texts (IochartDisplayList *dl, const char *needle)
{
  guint n = 0;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && strstr (item->text, needle))
        n++;
    }
  return n;
}

static gboolean
has_tooltip (IochartDisplayList *dl, const char *needle)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->tooltip && strstr (item->tooltip, needle))
        return TRUE;
    }
  return FALSE;
}

static void
assert_no_overlap (IochartDisplayList *dl)
{
  guint a, b;

  if (iochart_display_list_find_text_overlap (dl, &a, &b))
    g_error ("texts overlap: \"%s\" and \"%s\"", iochart_display_list_get_item (dl, a)->text,
             iochart_display_list_get_item (dl, b)->text);
}

/* ---- annotations ---- */

static void
test_annotation_parse (void)
{
  IochartBootchartChartAnnotation a;
  static const char * const bad[] = { "", "=x", "12x", "pid:abc", "gdm=", "  =  ", "1.5.2" };

  g_assert_true (iochart_bootchart_chart_annotation_parse ("12.5s=fsck done", &a, NULL));
  g_assert_cmpint (a.time_ns, ==, 12500 * MS);
  g_assert_null (a.process);
  g_assert_cmpstr (a.label, ==, "fsck done");
  iochart_bootchart_chart_annotation_clear (&a);

  g_assert_true (iochart_bootchart_chart_annotation_parse ("800ms", &a, NULL));
  g_assert_cmpint (a.time_ns, ==, 800 * MS);
  g_assert_cmpstr (a.label, ==, "800ms");
  iochart_bootchart_chart_annotation_clear (&a);

  g_assert_true (iochart_bootchart_chart_annotation_parse ("2m", &a, NULL));
  g_assert_cmpint (a.time_ns, ==, 120 * S);
  iochart_bootchart_chart_annotation_clear (&a);

  g_assert_true (iochart_bootchart_chart_annotation_parse (" gdm = login screen ", &a, NULL));
  g_assert_cmpint (a.time_ns, ==, IOCHART_TIME_UNKNOWN);
  g_assert_cmpstr (a.process, ==, "gdm");
  g_assert_cmpstr (a.label, ==, "login screen");
  iochart_bootchart_chart_annotation_clear (&a);

  g_assert_true (iochart_bootchart_chart_annotation_parse ("pid:42", &a, NULL));
  g_assert_cmpstr (a.process, ==, "pid:42");
  g_assert_cmpstr (a.label, ==, "pid:42");
  iochart_bootchart_chart_annotation_clear (&a);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_assert_false (iochart_bootchart_chart_annotation_parse (bad[i], &a, &error));
      g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
      g_assert_nonnull (strstr (error->message, "annotation"));
    }
}

static void
test_annotations_file (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "marks", NULL);
  g_autoptr(GArray) marks = iochart_bootchart_chart_annotations_new ();
  g_autoptr(GError) error = NULL;

  test_put (dir, "marks", "# milestones\n\n1.5=root mounted\nrc\n  pid:60 = first reader  \n", -1);
  g_assert_true (iochart_bootchart_chart_annotations_parse_file (path, marks, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (marks->len, ==, 3);
  g_assert_cmpint (g_array_index (marks, IochartBootchartChartAnnotation, 0).time_ns, ==, 1500 * MS);
  g_assert_cmpstr (g_array_index (marks, IochartBootchartChartAnnotation, 1).process, ==, "rc");
  g_assert_cmpstr (g_array_index (marks, IochartBootchartChartAnnotation, 2).label, ==, "first reader");

  test_put (dir, "marks", "1=a\n\n12 parsecs=b\n", -1);
  g_assert_false (iochart_bootchart_chart_annotations_parse_file (path, marks, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
  g_assert_nonnull (strstr (error->message, "line 3"));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);

  g_remove (path);
  g_assert_false (iochart_bootchart_chart_annotations_parse_file (path, marks, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_IO);
  test_remove_dir (dir);
}

/* ---- the chart ---- */

static void
test_boot_done (void)
{
  g_autofree char *dir = write_small_capture ();
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, NULL);
  gint64 done = 0;

  g_assert_nonnull (bc);
  /* CPU busy up to 2.0 s, disk up to 2.4 s; idle after */
  g_assert_true (iochart_bootchart_chart_find_boot_done (bc, 400 * MS, &done));
  g_assert_cmpint (done, ==, 2400 * MS);
  g_assert_false (iochart_bootchart_chart_find_boot_done (bc, 2 * S, &done));
  test_remove_dir (dir);
}

/* The display list of a small capture with its block I/O, against a golden dump. */
static void
test_golden (void)
{
  g_autofree char *dir = write_small_capture ();
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, NULL);
  g_autoptr(IochartCapture) io = make_io (0);
  IochartBootchartChartOptions o = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
  IochartBootchartChartAnnotation marks[2] = { 0 };
  g_autoptr(IochartDisplayList) dl = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL, *golden_path = NULL, *golden = NULL;

  g_assert_true (iochart_bootchart_chart_annotation_parse ("1.3s=udev settled", &marks[0], NULL));
  g_assert_true (iochart_bootchart_chart_annotation_parse ("cpu hog=hog starts", &marks[1], NULL));
  o.width = 900;
  o.done_window_ns = 400 * MS;
  o.annotations = marks;
  o.n_annotations = 2;
  dl = iochart_bootchart_chart_draw (bc, io, &o, &error);
  g_assert_no_error (error);
  g_assert_nonnull (dl);
  assert_no_overlap (dl);

  text = iochart_display_list_to_text (dl);
  golden_path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT") ? g_getenv ("IOCHART_SOURCE_ROOT") : ".",
                                  "tests", "bootchart", "bootchart-chart.golden", NULL);
  if (g_getenv ("IOCHART_UPDATE_GOLDEN"))
    g_assert_true (g_file_set_contents (golden_path, text, -1, NULL));
  g_assert_true (g_file_get_contents (golden_path, &golden, NULL, NULL));
  if (strcmp (text, golden) != 0)
    {
      g_autofree char *got = g_build_filename (g_get_tmp_dir (), "bootchart-chart.got", NULL);
      g_file_set_contents (got, text, -1, NULL);
      g_error ("display list differs from %s (got: %s; IOCHART_UPDATE_GOLDEN=1 to accept)", golden_path, got);
    }
  /* what a reader must find */
  g_assert_cmpuint (count_texts (dl, "Boot done at 2.4 s"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "boot done 2.4 s"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "udev settled"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "hog starts"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "Test CPU @ 1GHz (2 CPUs)"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "root=/dev/sda1 quiet"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "same clock"), ==, 1);
  /* memory: the strip is scaled to the most in use (MemTotal - MemFree: 1,000,000 - 700,000 kB),
   * not to MemTotal, which the header tells */
  g_assert_cmpuint (count_texts (dl, "293 MiB"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "977 MiB"), ==, 1);   /* the header only */
  g_assert_cmpuint (count_texts (dl, "(2 CPUs) · memory: 977 MiB"), ==, 1);
  /* the two readers keep their own bars with block I/O present, each with its class */
  g_assert_cmpuint (count_texts (dl, "reader · 3.0 MiB idle"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "reader · 3.0 MiB be"), ==, 1);
  g_assert_true (has_tooltip (dl, "block I/O throughput, idle class"));
  g_assert_true (has_tooltip (dl, "idle steal"));
  /* the capture's own tree flags are left as they were */
  g_assert_cmpint (iochart_bootchart_get_tree_flags (bc), ==, IOCHART_BOOTCHART_TREE_DEFAULT);

  for (guint i = 0; i < 2; i++)
    iochart_bootchart_chart_annotation_clear (&marks[i]);
  test_remove_dir (dir);
}

/* Many milestones at one time and the right edge: labels stack, none overlaps, none is lost. */
static void
test_crowded_milestones (void)
{
  g_autofree char *dir = write_small_capture ();
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, NULL);
  IochartBootchartChartOptions o = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
  IochartBootchartChartAnnotation marks[12];
  g_autoptr(IochartDisplayList) dl = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      g_autofree char *spec = g_strdup_printf ("%s=milestone number %u with a long label", i % 2 ? "1.5" : "3", i);
      g_assert_true (iochart_bootchart_chart_annotation_parse (spec, &marks[i], NULL));
    }
  o.width = 700;
  o.annotations = marks;
  o.n_annotations = G_N_ELEMENTS (marks);
  o.theme = IOCHART_THEME_DARK;
  dl = iochart_bootchart_chart_draw (bc, NULL, &o, &error);
  g_assert_no_error (error);
  assert_no_overlap (dl);
  for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
    {
      g_autofree char *label = g_strdup_printf ("milestone number %u with", i);
      g_assert_cmpuint (count_texts (dl, label), ==, 1);
      iochart_bootchart_chart_annotation_clear (&marks[i]);
    }
  g_assert_cmphex (iochart_display_list_get_background (dl), ==, 0x1c1c20ff);

  /* a process that is not there is an error naming it */
  {
    IochartBootchartChartAnnotation m;
    g_autoptr(IochartDisplayList) none = NULL;
    g_assert_true (iochart_bootchart_chart_annotation_parse ("gdm", &m, NULL));
    o.annotations = &m;
    o.n_annotations = 1;
    none = iochart_bootchart_chart_draw (bc, NULL, &o, &error);
    g_assert_null (none);
    g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
    g_assert_nonnull (strstr (error->message, "'gdm'"));
    iochart_bootchart_chart_annotation_clear (&m);
  }
  test_remove_dir (dir);
}

/* Block I/O on another clock: aligned by the processes both saw start. */
static void
test_shifted_clock (void)
{
  g_autofree char *dir = write_small_capture ();
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, NULL);
  g_autoptr(IochartCapture) io = make_io (5000 * S);
  g_autoptr(IochartDisplayList) dl = iochart_bootchart_chart_draw (bc, io, NULL, NULL);

  g_assert_nonnull (dl);
  g_assert_cmpuint (count_texts (dl, "aligned by 2 processes' starts"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "reader · 3.0 MiB idle"), ==, 1);
  assert_no_overlap (dl);
  test_remove_dir (dir);
}

static gboolean
have_program (const char *name)
{
  g_autofree char *path = g_find_program_in_path (name);

  return path != NULL;
}

static gboolean
run_ok (const char *const *argv)
{
  int status = -1;
  g_autoptr(GError) error = NULL;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* SVG, PNG and a PDF of the small capture; the SVG is valid XML that rsvg renders. */
static void
test_outputs (void)
{
  g_autofree char *dir = write_small_capture ();
  g_autofree char *svg = g_build_filename (dir, "chart.svg", NULL);
  g_autofree char *png = g_build_filename (dir, "chart.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "chart.pdf", NULL);
  g_autofree char *png2 = g_build_filename (dir, "rsvg.png", NULL);
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (dir, NULL);
  g_autoptr(IochartCapture) io = make_io (0);
  g_autoptr(GError) error = NULL;
  g_autofree char *head = NULL;
  gsize len;

  g_assert_true (iochart_bootchart_chart_write (bc, io, NULL, svg, png, pdf, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (png, &head, &len, NULL));
  g_assert_cmpuint (len, >, 1000);
  g_assert_cmpmem (head, 4, "\x89PNG", 4);
  g_clear_pointer (&head, g_free);
  g_assert_true (g_file_get_contents (pdf, &head, &len, NULL));
  g_assert_cmpmem (head, 5, "%PDF-", 5);
  if (have_program ("xmllint"))
    g_assert_true (run_ok ((const char *[]) { "xmllint", "--noout", svg, NULL }));
  if (have_program ("rsvg-convert"))
    g_assert_true (run_ok ((const char *[]) { "rsvg-convert", "-o", png2, svg, NULL }));

  /* an unwritable path is an error naming it */
  g_assert_false (iochart_bootchart_chart_write (bc, NULL, NULL, "/nonexistent/dir/x.svg", NULL, NULL, &error));
  g_assert_nonnull (error);
  test_remove_dir (dir);
}

/* 30 minutes at 50 Hz: scaled to the width, a PDF of an overview and a page a minute. */
static void
test_long_boot (void)
{
  g_autofree char *dir = test_make_dir ();
  GString *ps = g_string_sized_new (40 << 20), *st = g_string_sized_new (8 << 20);
  const int n = 30 * 60 * 50;
  g_autoptr(IochartBootchart) bc = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  g_autoptr(GArray) pages = NULL;
  IochartBootchartChartOptions o = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  gint64 t0;

  for (int i = 0; i < n; i++)
    {
      int t = 100 + 2 * i;   /* centiseconds */
      int job = i / 1000;    /* a new job every 20 s, living 16 s */

      g_string_append_printf (ps, "%d\n", t);
      ps_line (ps, 1, "init", 'S', 0, 5, 5, 2);
      ps_line (ps, 2, "busy", i % 7 ? 'R' : 'D', 1, i, i / 2, 50);
      if (i % 1000 < 800)
        ps_line (ps, 100 + job, "job", i % 3 ? 'R' : 'S', 1, i % 1000, 0, 100 + 2000 * job);
      g_string_append (ps, "\n");
      g_string_append_printf (st, "%d\ncpu  %d 0 %d %d %d 0 0\n\n", t, i, i / 2, i, i / 4);
    }
  test_put (dir, "header", "title = long boot\n", -1);
  test_put (dir, "proc_ps.log", ps->str, ps->len);
  test_put (dir, "proc_stat.log", st->str, st->len);
  g_string_free (ps, TRUE);
  g_string_free (st, TRUE);

  bc = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  t0 = g_get_monotonic_time ();
  dl = iochart_bootchart_chart_draw (bc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("long boot drawn in %.0f ms, %u items, %.0f×%.0f px", (g_get_monotonic_time () - t0) / 1e3,
                  iochart_display_list_get_n_items (dl), iochart_display_list_get_width (dl),
                  iochart_display_list_get_height (dl));
  g_assert_cmpfloat (iochart_display_list_get_width (dl), ==, IOCHART_BOOTCHART_DEFAULT_WIDTH);
  g_assert_cmpfloat (iochart_display_list_get_height (dl), <, 32767);
  g_assert_cmpuint (iochart_display_list_get_n_items (dl), <, 50000);
  assert_no_overlap (dl);

  pages = iochart_bootchart_chart_get_pages (bc, &o);
  g_assert_cmpuint (pages->len, ==, 2 * 31);   /* the overview, then 30 minutes */
  g_assert_cmpint (g_array_index (pages, gint64, 2), ==, iochart_bootchart_get_start_ns (bc));
  g_assert_cmpint (g_array_index (pages, gint64, 3) - g_array_index (pages, gint64, 2), ==, 60 * S);
  g_assert_cmpint (g_array_index (pages, gint64, pages->len - 1), ==, iochart_bootchart_get_end_ns (bc));

  /* a minute of it */
  o.from_ns = g_array_index (pages, gint64, 20);
  o.to_ns = g_array_index (pages, gint64, 21);
  g_clear_pointer (&dl, iochart_display_list_free);
  dl = iochart_bootchart_chart_draw (bc, NULL, &o, &error);
  g_assert_no_error (error);
  assert_no_overlap (dl);
  g_assert_cmpuint (count_texts (dl, "job"), <=, 3);
  test_remove_dir (dir);
}

/* ---- real data ---- */

/* Groups of a meta whose tooltip is tooltip (NULL: any). */
static guint
count_groups (IochartDisplayList *dl, const char *meta, const char *tooltip)
{
  guint n = 0;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *it = iochart_display_list_get_item (dl, i);
      n += it->kind == IOCHART_DL_GROUP_BEGIN && g_strcmp0 (it->meta, meta) == 0
           && (tooltip == NULL || g_strcmp0 (it->tooltip, tooltip) == 0);
    }
  return n;
}

static void
test_sample_bundle (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT") ? g_getenv ("IOCHART_SOURCE_ROOT") : ".",
                                            "samples", "bootchart-ionice.tgz", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartBootchart) bc = iochart_bootchart_load (path, &error);
  g_autoptr(IochartCapture) io = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;

  g_assert_no_error (error);
  io = iochart_bootchart_chart_load_bundle_io (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (io);
  g_assert_cmpuint (iochart_capture_get_n_requests (io), >, 1000);
  dl = iochart_bootchart_chart_draw (bc, io, NULL, &error);
  g_assert_no_error (error);
  assert_no_overlap (dl);
  /* the two ionice'd dd readers of the recording, each on its own bar with its class */
  g_assert_cmpuint (count_texts (dl, "dd · 8.0 MiB idle"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "dd · 8.0 MiB be"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "Block I/O (events.dat) on vda (254,0)"), ==, 1);
  g_assert_cmpuint (count_texts (dl, "same clock as the samples"), ==, 1);
  g_assert_cmpuint (count_groups (dl, "time-split", NULL), ==, 0);
  /* the idle steal of a range since boot, on the chart's device: over the chart's range, the
   * header's figure; the app's side panel shows it for a selection */
  {
    gint64 offset_ns;
    g_autofree char *how = iochart_bootchart_align_io (bc, io, &offset_ns);
    g_autoptr(IochartSteal) steal = iochart_bootchart_range_steal (bc, io, offset_ns, iochart_bootchart_get_start_ns (bc),
                                                                   iochart_bootchart_get_end_ns (bc));
    const IochartStealDevice *d = iochart_steal_get_primary (steal);
    g_autofree char *head = NULL;

    g_assert_nonnull (d);
    g_assert_cmpint ((int) d->device, ==, iochart_bootchart_io_device (bc, io));
    g_assert_cmpint ((int) d->device, ==, iochart_capture_find_device (io, IOCHART_DEV_MAKE (254, 0)));
    g_assert_cmpint (d->stolen_ns, >, 0);
    head = g_strdup_printf ("Idle steal on vda (254,0): %.1f ms stolen", d->stolen_ns / 1e6);
    g_assert_cmpuint (count_texts (dl, head), ==, 1);
  }

  /* with the states the samples lend, a bar under each dd's name: its time split, as info has it */
  iochart_bootchart_lend_task_states (bc, io);
  g_clear_pointer (&dl, iochart_display_list_free);
  dl = iochart_bootchart_chart_draw (bc, io, NULL, &error);
  g_assert_no_error (error);
  assert_no_overlap (dl);
  {
    g_autoptr(IochartTimeSplits) splits = iochart_time_splits_new (io, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN);
    guint n_dd = 0;

    for (guint i = 0; i < iochart_capture_get_n_processes (io); i++)
      {
        const IochartProcess *p = iochart_capture_get_process (io, i);
        const IochartTimeSplit *sp = iochart_time_splits_get_process (splits, i);
        g_autoptr(GString) tip = g_string_new ("where its time went: ");

        if (g_strcmp0 (p->comm, "dd") != 0)
          continue;
        for (guint k = 0; k < IOCHART_N_SPLITS; k++)
          g_string_append_printf (tip, "%s%.0f%% %s", k ? " · " : "", 100.0 * sp->ns[k] / sp->life_ns,
                                  iochart_split_kind_label (k));
        g_test_message ("dd[%d]: %s", p->pid, tip->str);
        g_assert_cmpuint (count_groups (dl, "time-split", tip->str), ==, 1);
        n_dd++;
      }
    g_assert_cmpuint (n_dd, ==, 2);
    g_assert_cmpuint (count_texts (dl, "Bar under a name: its time running"), ==, 1);
  }
}

/* Whether the segment x,y0 - x,y1 (vertical) crosses the box. */
static gboolean
crosses (double x, double y0, double y1, double bx, double by, double bw, double bh)
{
  return x > bx && x < bx + bw && MAX (y0, y1) > by && MIN (y0, y1) < by + bh;
}

/* The links (dashed, vertical, under the "Processes" title: a milestone's line runs down the
 * whole chart) that cross a text's box; how many links there are in *n_links. */
static guint
links_crossing_names (IochartDisplayList *dl, const char *what, guint *n_links)
{
  const IochartDlItem *title = NULL;
  guint n = 0;

  *n_links = 0;
  for (guint i = 0; i < iochart_display_list_get_n_items (dl) && !title; i++)
    {
      const IochartDlItem *it = iochart_display_list_get_item (dl, i);
      if (it->kind == IOCHART_DL_TEXT && g_str_equal (it->text, "Processes"))
        title = it;
    }
  g_assert_nonnull (title);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *link = iochart_display_list_get_item (dl, i);

      if (link->kind != IOCHART_DL_LINE || !link->dashed || link->x != link->x2 || MIN (link->y, link->y2) < title->y)
        continue;
      (*n_links)++;
      for (guint j = 0; j < iochart_display_list_get_n_items (dl); j++)
        {
          const IochartDlItem *text = iochart_display_list_get_item (dl, j);
          double bx, by, bw, bh;

          if (text->kind != IOCHART_DL_TEXT || !text->text[0])
            continue;
          iochart_dl_item_text_box (text, &bx, &by, &bw, &bh);
          if (crosses (link->x, link->y, link->y2, bx, by, bw, bh))
            {
              g_test_message ("%s: the link at x %.1f, y %.1f to %.1f crosses '%s' (%.1f,%.1f %.1fx%.1f)", what,
                              link->x, link->y, link->y2, text->text, bx, by, bw, bh);
              n++;
            }
        }
    }
  return n;
}

static const guint link_widths[] = { 640, 700, 1600, 4000 };
static const int link_flags[] = { IOCHART_BOOTCHART_TREE_DEFAULT, IOCHART_BOOTCHART_TREE_AS_PARSED };

/* The dashed lines from a parent's bar down to its child's start ran through the names of the
 * rows between (a sibling's name over its bar, or right of it): in the sample bundle's chart and
 * one of a parent whose first child started at the plot's left edge and a second later, at
 * every width, with the tree as shown and as parsed, no such line crosses a text's box. */
static void
test_links_clear_names (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT") ? g_getenv ("IOCHART_SOURCE_ROOT") : ".",
                                            "samples", "bootchart-ionice.tgz", NULL);
  g_autofree char *dir = write_links_capture ();
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartBootchart) sample = iochart_bootchart_load (path, &error);
  g_autoptr(IochartBootchart) made = NULL;
  g_autoptr(IochartCapture) io = NULL;

  g_assert_no_error (error);
  io = iochart_bootchart_chart_load_bundle_io (path, &error);
  g_assert_no_error (error);
  made = iochart_bootchart_load (dir, &error);
  g_assert_no_error (error);
  for (guint f = 0; f < G_N_ELEMENTS (link_flags); f++)
    for (guint k = 0; k < G_N_ELEMENTS (link_widths); k++)
      {
        IochartBootchartChartOptions o = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
        g_autoptr(IochartDisplayList) a = NULL, b = NULL;
        g_autofree char *what = g_strdup_printf ("%u px, tree flags %#x", link_widths[k], link_flags[f]);
        guint n_links;

        o.width = link_widths[k];
        o.tree_flags = link_flags[f];
        a = iochart_bootchart_chart_draw (sample, io, &o, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (links_crossing_names (a, what, &n_links), ==, 0);
        b = iochart_bootchart_chart_draw (made, NULL, &o, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (links_crossing_names (b, what, &n_links), ==, 0);
        g_test_message ("%s: %u pieces of links", what, n_links);
        g_assert_cmpuint (n_links, >=, 2);
      }
  test_remove_dir (dir);
}

static int
xrmx_main (void)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT") ? g_getenv ("IOCHART_SOURCE_ROOT") : ".";

  for (int k = 1; k <= 2; k++)
    {
      g_autofree char *name = g_strdup_printf ("xrmx-examples-%d", k);
      g_autofree char *path = g_build_filename (root, "..", "shared", "bootchart", name, NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(IochartBootchart) bc = NULL;
      g_autoptr(IochartDisplayList) dl = NULL;
      g_autofree char *svg = g_build_filename (g_get_tmp_dir (), "iochart-xrmx-chart.svg", NULL);
      guint a, b;

      if (!g_file_test (path, G_FILE_TEST_IS_DIR))
        {
          printf ("SKIP: %s absent\n", path);
          return 77;
        }
      bc = iochart_bootchart_load (path, &error);
      g_assert_no_error (error);
      dl = iochart_bootchart_chart_draw (bc, NULL, NULL, &error);
      g_assert_no_error (error);
      if (iochart_display_list_find_text_overlap (dl, &a, &b))
        g_error ("%s: texts overlap", name);
      g_assert_cmpuint (count_texts (dl, " · CPU: "), ==, 1);
      g_assert_true (iochart_svg_write (dl, svg, &error));
      if (have_program ("xmllint"))
        g_assert_true (run_ok ((const char *[]) { "xmllint", "--noout", svg, NULL }));
      g_remove (svg);
      /* every process drawn as parsed too */
      {
        IochartBootchartChartOptions o = IOCHART_BOOTCHART_CHART_OPTIONS_INIT;
        g_autoptr(IochartDisplayList) all = NULL;
        o.tree_flags = IOCHART_BOOTCHART_TREE_AS_PARSED;
        all = iochart_bootchart_chart_draw (bc, NULL, &o, &error);
        g_assert_no_error (error);
        g_assert_cmpfloat (iochart_display_list_get_height (all), >, iochart_display_list_get_height (dl));
        if (iochart_display_list_find_text_overlap (all, &a, &b))
          g_error ("%s as parsed: texts overlap", name);
      }
      printf ("%s: %u items, %.0f px tall\n", name, iochart_display_list_get_n_items (dl),
              iochart_display_list_get_height (dl));
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--xrmx") == 0)
    return xrmx_main ();
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/bootchart-chart/annotation-parse", test_annotation_parse);
  g_test_add_func ("/bootchart-chart/annotations-file", test_annotations_file);
  g_test_add_func ("/bootchart-chart/boot-done", test_boot_done);
  g_test_add_func ("/bootchart-chart/golden", test_golden);
  g_test_add_func ("/bootchart-chart/crowded-milestones", test_crowded_milestones);
  g_test_add_func ("/bootchart-chart/shifted-clock", test_shifted_clock);
  g_test_add_func ("/bootchart-chart/outputs", test_outputs);
  g_test_add_func ("/bootchart-chart/long-boot", test_long_boot);
  g_test_add_func ("/bootchart-chart/sample-bundle", test_sample_bundle);
  g_test_add_func ("/bootchart-chart/links-clear-names", test_links_clear_names);
  return g_test_run ();
}
