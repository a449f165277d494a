/* test-latency-captures.c: on every sample and shared capture, each request's life is in order
 * (queue <= insert <= issue <= complete, so Q2C >= D2C), and every count adds up: devices, ops,
 * classes and lanes give the same number of issued requests as the whole. The shared captures
 * are used when ../shared is there. */
#include <string.h>
#include "iochart-loader.h"
#include "iochart-summary.h"
#include "iochart-latency.h"
#include "iochart-lanes.h"

static const char *const samples[] = {
  "samples/ionice-bfq.dat", "samples/ionice-mq-deadline.dat", "samples/ionice-bfq.trace.txt",
  "samples/ionice-bfq.report.txt", "samples/ionice-mq-deadline.trace.txt", "samples/blk-ionice-loop.txt",
  "samples/ftrace-ionice-loop.trace", "samples/hdd-blktrace-5s.blkparse.txt",
  "samples/hdd-bfq-idle-vs-normal-5s.report.txt.xz", "samples/blktrace/bfq-idle-vs-be-dd",
  "samples/blktrace/bfq-idle-vs-be-dd-bigendian",
};

static const char *const shared[] = {
  "seed-bfq-idle-vs-normal.dat", "seed-bfq-normal-alone.dat", "seed-none-idle-vs-normal.dat",
  "hdd-bfq-idle-vs-normal.dat", "hdd-bfq-normal-alone.dat", "hdd-none-idle-vs-normal.dat",
  "hdd-bfq-idle-vs-normal-5s.dat", "blktrace-bfq-idle-vs-normal-3s", "hdd-blktrace-bfq-idle-vs-normal-5s",
  "ftrace-blk-bfq-idle-vs-normal-3s.txt", "hdd-blk-bfq-idle-vs-normal-5s.txt",
};

static gboolean
known (gint64 t)
{
  return t != IOCHART_TIME_UNKNOWN;
}

static void
check_order (IochartCapture *c, const char *path)
{
  guint n = iochart_capture_get_n_requests (c), bad = 0;

  for (guint i = 0; i < n; i++)
    {
      IochartRequest r;
      gint64 t[4];
      gint64 last = G_MININT64;
      gint64 q2c, d2c;

      iochart_capture_get_request (c, i, &r);
      t[0] = r.queue_ns, t[1] = r.insert_ns, t[2] = r.issue_ns, t[3] = r.complete_ns;
      for (guint k = 0; k < 4; k++)
        if (known (t[k]))
          {
            /* a requeued request is inserted again after its first issue: its insert time is the last */
            if (t[k] < last && !(k == 2 && r.requeues > 0))
              bad++;
            last = MAX (last, t[k]);
          }
      q2c = iochart_latency_of (&r, IOCHART_LATENCY_Q2C);
      d2c = iochart_latency_of (&r, IOCHART_LATENCY_D2C);
      if (known (q2c) && known (d2c) && q2c < d2c)
        bad++;
    }
  if (bad > 0)
    g_error ("%s: %u requests out of order", path, bad);
}

static void
check_counts (IochartCapture *c, const char *path)
{
  g_autoptr(IochartSummary) s = iochart_summary_new (c, -1, 0);
  IochartCounts whole;
  guint64 dev_sum = 0, op_sum = 0, class_sum = 0, lane_sum = 0, proc_sum = 0;

  iochart_counts_compute (c, -1, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, &whole);
  g_assert_cmpuint (whole.issued.requests, ==, s->counts.issued.requests);
  for (guint d = 0; d < s->devices->len; d++)
    dev_sum += g_array_index (s->devices, IochartSummaryDevice, d).counts.issued.requests;
  for (guint k = 0; k < IOCHART_N_OPS; k++)
    op_sum += whole.by_op[k].requests;
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    class_sum += whole.by_class[k].requests;
  for (guint l = 0; l < s->lane_rows->len; l++)
    lane_sum += g_array_index (s->lane_rows, IochartSummaryLane, l).l->n_requests;
  for (guint p = 0; p < s->processes->len; p++)
    proc_sum += g_array_index (s->processes, IochartSummaryProcess, p).count.requests;
  if (dev_sum != whole.issued.requests || op_sum != whole.issued.requests || class_sum != whole.issued.requests ||
      lane_sum != whole.issued.requests || proc_sum > whole.issued.requests)
    g_error ("%s: issued %" G_GUINT64_FORMAT ", devices %" G_GUINT64_FORMAT ", ops %" G_GUINT64_FORMAT
             ", classes %" G_GUINT64_FORMAT ", lanes %" G_GUINT64_FORMAT ", processes %" G_GUINT64_FORMAT,
             path, whole.issued.requests, dev_sum, op_sum, class_sum, lane_sum, proc_sum);
  g_assert_cmpuint (whole.issued.requests, >, 0);
}

/* A summary only printed as text leaves out per-process latency unless lanes are by pid: what it
 * prints is the same as the full summary's. */
static void
check_text_only (IochartCapture *c, const char *path)
{
  static const IochartGroupBy groupings[] = { IOCHART_GROUP_TREE, IOCHART_GROUP_PID, IOCHART_GROUP_COMM };

  for (guint i = 0; i < G_N_ELEMENTS (groupings); i++)
    {
      IochartSummaryOptions o = IOCHART_SUMMARY_OPTIONS_INIT;
      IochartSummary *full, *text;
      g_autoptr(GString) a = g_string_new (NULL);
      g_autoptr(GString) b = g_string_new (NULL);
      guint64 full_n = 0, text_n = 0;

      o.group_by = groupings[i];
      o.top = 0;
      full = iochart_summary_new_full (c, &o);
      o.text_only = TRUE;
      text = iochart_summary_new_full (c, &o);
      iochart_summary_print (full, a);
      iochart_summary_print (text, b);
      if (strcmp (a->str, b->str) != 0)
        g_error ("%s: text-only summary prints differently (grouping %u)", path, i);
      for (guint k = 0; k < full->processes->len; k++)
        {
          full_n += g_array_index (full->processes, IochartSummaryProcess, k).latency.kind[IOCHART_LATENCY_D2C].n;
          text_n += g_array_index (text->processes, IochartSummaryProcess, k).latency.kind[IOCHART_LATENCY_D2C].n;
        }
      if (groupings[i] == IOCHART_GROUP_PID || full_n == 0)
        g_assert_cmpuint (text_n, ==, full_n);
      else
        g_assert_cmpuint (text_n, ==, 0);
      iochart_summary_free (full);
      iochart_summary_free (text);
    }
}

static void
check (gconstpointer data)
{
  const char *path = data;
  const char *paths[] = { path, NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) c = NULL;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("not here");
      return;
    }
  c = iochart_load (paths, NULL, &error);
  g_assert_no_error (error);
  check_order (c, path);
  check_counts (c, path);
  check_text_only (c, path);
}

int
main (int argc, char **argv)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT");

  g_test_init (&argc, &argv, NULL);
  root = root ? root : ".";
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      char *path = g_build_filename (root, samples[i], NULL);
      char *name = g_strdup_printf ("/latency/samples/%s", samples[i] + strlen ("samples/"));

      g_test_add_data_func_full (name, path, check, g_free);
      g_free (name);
    }
  for (guint i = 0; i < G_N_ELEMENTS (shared); i++)
    {
      char *path = g_build_filename (root, "..", "shared", "captures", shared[i], NULL);
      char *name = g_strdup_printf ("/latency/shared/%s", shared[i]);

      g_test_add_data_func_full (name, path, check, g_free);
      g_free (name);
    }
  return g_test_run ();
}
