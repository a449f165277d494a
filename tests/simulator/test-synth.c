/* The synthetic readers (src/core/synth/): the .dat they write reads back as the capture built
 * without the file, request by request and process by process, and `trace-cmd report` (when
 * installed) reads the file as a recording. */
#include <string.h>
#include <glib/gstdio.h>
#include "iochart-error.h"
#include "iochart-loader.h"
#include "synth/iochart-synth.h"

static IochartCapture *
load (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr(GError) error = NULL;
  IochartCapture *c = iochart_load (paths, NULL, &error);

  g_assert_no_error (error);
  return c;
}

static void
assert_same_requests (IochartCapture *a, IochartCapture *b)
{
  g_assert_cmpuint (iochart_capture_get_n_requests (a), ==, iochart_capture_get_n_requests (b));
  for (guint i = 0; i < iochart_capture_get_n_requests (a); i++)
    {
      IochartRequest x, y;

      iochart_capture_get_request (a, i, &x);
      iochart_capture_get_request (b, i, &y);
      g_assert_cmpint (x.queue_ns, ==, y.queue_ns);
      g_assert_cmpint (x.insert_ns, ==, y.insert_ns);
      g_assert_cmpint (x.issue_ns, ==, y.issue_ns);
      g_assert_cmpint (x.complete_ns, ==, y.complete_ns);
      g_assert_cmpuint (x.sector, ==, y.sector);
      g_assert_cmpuint (x.bytes, ==, y.bytes);
      g_assert_cmpuint (x.flags, ==, y.flags);
      g_assert_cmpuint (x.klass, ==, y.klass);
      g_assert_cmpuint (x.level, ==, y.level);
      g_assert_cmpuint (x.class_source, ==, y.class_source);
      g_assert_cmpint (iochart_capture_get_process (a, x.process)->pid, ==,
                       iochart_capture_get_process (b, y.process)->pid);
    }
}

static void
assert_same_processes (IochartCapture *a, IochartCapture *b)
{
  g_assert_cmpuint (iochart_capture_get_n_processes (a), ==, iochart_capture_get_n_processes (b));
  for (guint i = 0; i < iochart_capture_get_n_processes (a); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (a, i), *q = iochart_capture_get_process (b, i);

      g_assert_cmpint (p->pid, ==, q->pid);
      g_assert_cmpint (p->ppid, ==, q->ppid);
      g_assert_cmpint (p->start_ns, ==, q->start_ns);
      g_assert_cmpint (p->exit_ns, ==, q->exit_ns);
      g_assert_cmpstr (p->comm, ==, q->comm);
      g_assert_cmpuint (p->klass, ==, q->klass);
      g_assert_cmpuint (p->bytes, ==, q->bytes);
    }
}

static char *
report (const char *path)
{
  g_autofree char *out = NULL;
  int status;
  const char *argv[] = { "trace-cmd", "report", "-i", path, NULL };

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL))
    return NULL;
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&out);
}

static guint
count (const char *text, const char *what)
{
  guint n = 0;

  for (const char *p = text; (p = strstr (p, what)) != NULL; p += strlen (what))
    n++;
  return n;
}

static void
test_round_trip (void)
{
  IochartSynthReader readers[IOCHART_SYNTH_MAX_READERS];
  guint n = iochart_synth_scenario_readers (IOCHART_SYNTH_IDLE, 100, readers);
  g_autofree char *dir = g_dir_make_tmp ("iochart-synth-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "idle.dat", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) direct = iochart_synth_capture (readers, n);
  g_autoptr(IochartCapture) read = NULL;
  g_autofree char *text = NULL;
  guint n_requests = iochart_capture_get_n_requests (direct);

  g_assert_cmpuint (n, ==, 2);
  g_assert_true (iochart_synth_write_dat (readers, n, path, &error));
  g_assert_no_error (error);
  read = load (path);
  /* 300 files, a directory block every 40 and an inode block every 16 of each reader's */
  g_assert_cmpuint (n_requests, ==, 300 + (3 + 5) + (7 + 13));
  g_assert_cmpint (iochart_synth_reader_pid (readers, 1), ==, IOCHART_SYNTH_FIRST_PID + 101);
  assert_same_requests (direct, read);
  assert_same_processes (direct, read);

  if ((text = report (path)) == NULL)
    {
      g_test_message ("no trace-cmd: the report part skipped");
      goto out;
    }
  g_assert_cmpuint (count (text, "block_rq_issue:"), ==, n_requests);
  g_assert_cmpuint (count (text, "block_rq_complete:"), ==, n_requests);
  g_assert_cmpuint (count (text, "block_bio_queue:"), ==, n_requests);
  g_assert_cmpuint (count (text, "sched_process_fork:"), ==, 2 + 300);
  g_assert_cmpuint (count (text, "filename=/usr/bin/cat"), ==, 300);
  g_assert_cmpuint (count (text, "0x3,0,7"), ==, 3 * (200 + 5 + 13));   /* idle: insert, issue, complete */
  g_assert_nonnull (strstr (text, "find-1000 "));
  g_assert_nonnull (strstr (text, "cat-1001 "));
out:
  g_remove (path);
  g_rmdir (dir);
}

/* A reader is the same in every scenario: alone it is the others' baseline. */
static void
test_scenarios (void)
{
  IochartSynthReader alone[IOCHART_SYNTH_MAX_READERS], normal[IOCHART_SYNTH_MAX_READERS];
  IochartSynthScenario s;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (iochart_synth_scenario_readers (IOCHART_SYNTH_ALONE, 50, alone), ==, 1);
  g_assert_cmpuint (iochart_synth_scenario_readers (IOCHART_SYNTH_NORMAL, 50, normal), ==, 2);
  g_assert_cmpint (alone[0].klass, ==, normal[0].klass);
  g_assert_cmpuint (alone[0].n_files, ==, normal[0].n_files);
  g_assert_cmpuint (alone[0].region, ==, normal[0].region);
  g_assert_cmpuint (alone[0].seed, ==, normal[0].seed);
  g_assert_cmpint (normal[1].klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpuint (normal[1].n_files, ==, 100);
  g_assert_true (iochart_synth_scenario_parse ("normal", &s, &error));
  g_assert_cmpint (s, ==, IOCHART_SYNTH_NORMAL);
  g_assert_false (iochart_synth_scenario_parse ("busy", &s, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/synth/round-trip", test_round_trip);
  g_test_add_func ("/synth/scenarios", test_scenarios);
  return g_test_run ();
}
