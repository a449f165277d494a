/* test-dat-writer.c: .dat v6 files we write read back with libtracecmd and `trace-cmd report`
 *
 * Synthetic: one made-up event format and hand-built ring-buffer pages, in a file of two CPUs;
 * the same format through iochart_dat_writer_add_event, with gaps that need time extends; the
 * trace clock where libtracecmd reads it, wherever the CPU table ends against a page boundary.
 * Live (root with tracefs only, else skipped): a private instance records sched events while
 * `true` runs; its raw pages go through the writer.
 */
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <trace-cmd/trace-cmd.h>
#include <tracefs.h>

#include "readers/iochart-dat-writer.h"
#include "iochart-error.h"

#define PAGE 4096

/* exported by libtracecmd 1.3, declared only in trace-cmd's private header */
const char *tracecmd_get_trace_clock (struct tracecmd_input *handle);

static const char header_page[] =
  "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
  "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
  "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
  "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] =
  "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
  "\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
  "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

static const char test_format[] =
  "name: iochart_test\nID: 900\nformat:\n"
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
  "\tfield:unsigned int value;\toffset:8;\tsize:4;\tsigned:0;\n\n"
  "print fmt: \"value=%u\", REC->value\n";

/* One page: n events of iochart_test, 1 us apart from base_ns; values from first_value. */
static void
make_page (guint8 *page, guint64 base_ns, guint n, guint32 first_value, gint32 pid)
{
  guint64 commit = n * 16;
  memset (page, 0, PAGE);
  memcpy (page, &base_ns, 8);
  memcpy (page + 8, &commit, 8);
  for (guint i = 0; i < n; i++)
    {
      guint8 *e = page + 16 + i * 16;
      guint32 header = 3 | ((i == 0 ? 0 : 1000u) << 5);   /* 12 bytes of payload */
      guint16 type = 900;
      guint32 value = first_value + i;
      memcpy (e, &header, 4);
      memcpy (e + 4, &type, 2);
      memcpy (e + 8, &pid, 4);
      memcpy (e + 12, &value, 4);
    }
}

typedef struct {
  guint    n;
  guint64  last_ts;
  guint64  sum;
  gboolean ordered;
} Seen;

static int
on_record (struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
  Seen *seen = data;
  struct tep_handle *tep = tracecmd_get_tep (h);
  struct tep_event *event = tep_find_event_by_record (tep, rec);
  unsigned long long value = 0;

  g_assert_nonnull (event);
  g_assert_cmpstr (event->name, ==, "iochart_test");
  g_assert_cmpint (tep_data_pid (tep, rec), ==, 4242);
  g_assert_cmpint (tep_get_field_val (NULL, event, "value", rec, &value, 0), ==, 0);
  seen->ordered = seen->ordered && rec->ts >= seen->last_ts;
  seen->last_ts = rec->ts;
  seen->sum += value;
  seen->n++;
  return 0;
}

/* Every record of the file, through libtracecmd. */
static Seen
read_back (const char *path)
{
  struct tracecmd_input *h = tracecmd_open (path, 0);
  Seen seen = { 0, 0, 0, TRUE };

  g_assert_nonnull (h);
  g_assert_cmpint (tracecmd_iterate_events (h, NULL, 0, on_record, &seen), >=, 0);
  tracecmd_close (h);
  return seen;
}

static char *
report (const char *path)
{
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;
  const char *argv[] = { "trace-cmd", "report", "-i", path, NULL };

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &err,
                     &status, &error))
    return NULL;
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&out);
}

static void
test_synthetic (void)
{
  g_autoptr(IochartDatWriter) w = iochart_dat_writer_new (2, PAGE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("iochart-dat-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "t.dat", NULL);
  guint8 pages[2 * PAGE];

  iochart_dat_writer_set_headers (w, header_page, header_event);
  iochart_dat_writer_add_format (w, "iochart", test_format);
  iochart_dat_writer_set_cmdlines (w, "4242 worker\n");
  iochart_dat_writer_set_trace_clock (w, "local [mono] boot\n");
  /* cpu 0: two pages of 3 events; cpu 1: one page of 2 events in between */
  make_page (pages, 1000000000, 3, 1, 4242);
  make_page (pages + PAGE, 1000010000, 3, 4, 4242);
  g_assert_true (iochart_dat_writer_add_pages (w, 0, pages, 2 * PAGE, &error));
  make_page (pages, 1000005000, 2, 7, 4242);
  g_assert_true (iochart_dat_writer_add_pages (w, 1, pages, PAGE, &error));
  g_assert_false (iochart_dat_writer_add_pages (w, 1, pages, 100, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
  g_clear_error (&error);
  g_assert_true (iochart_dat_writer_write (w, path, &error));
  g_assert_no_error (error);

  Seen seen = read_back (path);
  g_assert_cmpuint (seen.n, ==, 8);
  g_assert_cmpuint (seen.sum, ==, 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8);
  g_assert_true (seen.ordered);

  g_autofree char *text = report (path);
  if (text != NULL)
    {
      g_assert_nonnull (strstr (text, "worker-4242"));
      g_assert_nonnull (strstr (text, "iochart_test:"));
      g_assert_nonnull (strstr (text, "value=8"));
      g_assert_nonnull (strstr (text, "[001]     1.000006: iochart_test:         value=8"));
    }
  g_remove (path);
  g_rmdir (dir);
}

/* Events packed by the writer: deltas under 1 us to over 2^32 ns, across many pages. */
static void
test_events (void)
{
  g_autoptr(IochartDatWriter) w = iochart_dat_writer_new (1, PAGE);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("iochart-dat-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "events.dat", NULL);
  guint64 ts = 5000000000, expect_sum = 0, times[2000];
  guint8 rec[12] = { 0 };
  guint16 type = 900;
  gint32 pid = 4242;

  iochart_dat_writer_set_standard_headers (w);
  iochart_dat_writer_add_format (w, "iochart", test_format);
  memcpy (rec, &type, 2);
  memcpy (rec + 4, &pid, 4);
  for (guint32 i = 0; i < G_N_ELEMENTS (times); i++)
    {
      static const guint64 gaps[] = { 0, 1, 999, 134217727, 134217728, 200000000, 5000000000 };
      ts += gaps[i % G_N_ELEMENTS (gaps)];
      times[i] = ts;
      memcpy (rec + 8, &i, 4);
      expect_sum += i;
      g_assert_true (iochart_dat_writer_add_event (w, 0, ts, rec, sizeof rec, &error));
    }
  g_assert_false (iochart_dat_writer_add_event (w, 0, ts - 1, rec, sizeof rec, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
  g_clear_error (&error);
  g_assert_true (iochart_dat_writer_write (w, path, &error));
  g_assert_no_error (error);

  Seen seen = read_back (path);
  g_assert_cmpuint (seen.n, ==, G_N_ELEMENTS (times));
  g_assert_cmpuint (seen.sum, ==, expect_sum);
  g_assert_cmpuint (seen.last_ts, ==, times[G_N_ELEMENTS (times) - 1]);
  g_assert_true (seen.ordered);
  g_remove (path);
  g_rmdir (dir);
}

/* Writes one CPU's page at first_ns with the given saved cmdlines and trace clock text; returns
 * the file's bytes. */
static guint8 *
write_one_page (const char *path, const char *cmdlines, const char *clock, guint64 first_ns,
                guint8 *page, gsize *len)
{
  g_autoptr(IochartDatWriter) w = iochart_dat_writer_new (1, PAGE);
  g_autoptr(GError) error = NULL;
  char *data = NULL;

  iochart_dat_writer_set_headers (w, header_page, header_event);
  iochart_dat_writer_add_format (w, "iochart", test_format);
  iochart_dat_writer_set_cmdlines (w, cmdlines);
  iochart_dat_writer_set_trace_clock (w, clock);
  make_page (page, first_ns, 3, 1, 4242);
  g_assert_true (iochart_dat_writer_add_pages (w, 0, page, PAGE, &error));
  g_assert_true (iochart_dat_writer_write (w, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &data, len, NULL));
  return (guint8 *) data;
}

/* A file with saved cmdlines of cmdlines_len bytes and the clock mono; returns where the CPU table
 * ends (after "flyrecord\0" and 16 bytes). */
static guint64
write_clocked (const char *path, gsize cmdlines_len)
{
  g_autofree char *cmdlines = g_strnfill (cmdlines_len, 'x');
  guint8 page[PAGE];
  gsize len;
  /* a mono clock 5 h after boot */
  g_autofree guint8 *data = write_one_page (path, cmdlines, "local global [mono] boot\n", 0x114cd3cb097dull,
                                            page, &len);
  guint8 *fly = memmem (data, len, "flyrecord", 10);
  guint64 offset;

  g_assert_nonnull (fly);
  memcpy (&offset, fly + 10, 8);
  /* trace-cmd's save_clock (): size, then "[mono]", before the page-aligned data */
  g_assert_cmpmem (fly + 26, 14, "\6\0\0\0\0\0\0\0[mono]", 14);
  g_assert_cmpuint (offset, ==, (fly + 40 - data + PAGE - 1) / PAGE * PAGE);
  g_assert_cmpmem (data + offset, PAGE, page, PAGE);
  return fly + 26 - data;
}

/* libtracecmd reads the trace clock right after the CPU table of a v6 file with the TRACECLOCK
 * option. Without it there, a table ending less than 8 bytes before a page boundary gave it the
 * first page's timestamp as the clock's size (0x114cd3cb097d0000: malloc aborts under ASan). */
static void
test_clock (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iochart-dat-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "clock.dat", NULL);
  guint64 base = write_clocked (path, 100) - 100;

  /* the table's end from 12 bytes before a page boundary to 4 after it */
  for (gsize at = PAGE - 12; at <= PAGE + 4; at++)
    {
      gsize cmdlines_len = (2 * PAGE + at - base % PAGE) % PAGE;
      g_assert_cmpuint (write_clocked (path, cmdlines_len) % PAGE, ==, at % PAGE);
      struct tracecmd_input *h = tracecmd_open (path, TRACECMD_FL_LOAD_NO_PLUGINS);
      g_assert_nonnull (h);
      g_assert_cmpstr (tracecmd_get_trace_clock (h), ==, "mono");
      tracecmd_close (h);
      Seen seen = read_back (path);
      g_assert_cmpuint (seen.n, ==, 3);
      g_assert_cmpuint (seen.last_ts, ==, 0x114cd3cb097dull + 2000);
    }
  g_remove (path);
  g_rmdir (dir);
}

/* A clock text that names no clock writes neither the option nor the record: libtracecmd's parse
 * of "[]" gives sscanf () a NULL string. */
static void
test_no_clock (void)
{
  g_autofree char *dir = g_dir_make_tmp ("iochart-dat-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "no-clock.dat", NULL);
  guint8 page[PAGE];
  gsize len;
  g_autofree guint8 *data = write_one_page (path, "", "local [] boot\n", 1000000000, page, &len);
  const guint8 *options = memmem (data, len, "options  ", 10);
  guint16 first_option;

  g_assert_nonnull (options);
  memcpy (&first_option, options + 10, 2);
  g_assert_cmpuint (first_option, ==, 0);   /* no TRACECLOCK (4): done */
  struct tracecmd_input *h = tracecmd_open (path, TRACECMD_FL_LOAD_NO_PLUGINS);
  g_assert_nonnull (h);
  g_assert_null (tracecmd_get_trace_clock (h));
  tracecmd_close (h);
  g_remove (path);
  g_rmdir (dir);
}

static void
test_live (void)
{
  const char *events[] = { "sched_process_fork", "sched_process_exec", "sched_process_exit" };
  const char *systems[] = { "sched", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup_printf ("iochart-test-%d", getpid ());
  struct tracefs_instance *inst;
  int n_cpus = sysconf (_SC_NPROCESSORS_CONF);

  if (getuid () != 0 || tracefs_tracing_dir () == NULL
      || (inst = tracefs_instance_create (name)) == NULL)
    {
      g_test_skip ("needs root and tracefs");
      return;
    }
  tracefs_trace_off (inst);
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    g_assert_cmpint (tracefs_event_enable (inst, "sched", events[i]), ==, 0);
  tracefs_instance_file_write (inst, "trace_clock", "mono");
  tracefs_trace_on (inst);
  g_assert_true (g_spawn_command_line_sync ("true", NULL, NULL, NULL, NULL));
  tracefs_trace_off (inst);

  g_autoptr(IochartDatWriter) w = iochart_dat_writer_new (n_cpus, getpagesize ());
  g_assert_true (iochart_dat_writer_add_tracefs_metadata (w, systems, FALSE, &error));
  g_assert_no_error (error);
  g_autofree char *clock = tracefs_instance_file_read (inst, "trace_clock", NULL);
  iochart_dat_writer_set_trace_clock (w, clock);
  g_autofree guint8 *page = g_malloc (getpagesize ());
  for (int cpu = 0; cpu < n_cpus; cpu++)
    {
      struct tracefs_cpu *tcpu = tracefs_cpu_open (inst, cpu, true);
      if (tcpu == NULL)
        continue;
      int got;
      while ((got = tracefs_cpu_flush (tcpu, page)) > 0)
        g_assert_true (iochart_dat_writer_add_pages (w, cpu, page, getpagesize (), &error));
      tracefs_cpu_close (tcpu);
    }
  tracefs_instance_destroy (inst);
  tracefs_instance_free (inst);

  g_autofree char *dir = g_dir_make_tmp ("iochart-dat-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "live.dat", NULL);
  g_assert_true (iochart_dat_writer_write (w, path, &error));
  g_autofree char *text = report (path);
  if (text != NULL)
    {
      g_assert_nonnull (strstr (text, "sched_process_exec:"));
      g_assert_nonnull (strstr (text, "filename=/usr/bin/true"));
    }
  struct tracecmd_input *h = tracecmd_open (path, 0);
  g_assert_nonnull (h);
  tracecmd_close (h);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dat-writer/synthetic", test_synthetic);
  g_test_add_func ("/dat-writer/events", test_events);
  g_test_add_func ("/dat-writer/clock", test_clock);
  g_test_add_func ("/dat-writer/no-clock", test_no_clock);
  g_test_add_func ("/dat-writer/live", test_live);
  return g_test_run ();
}
