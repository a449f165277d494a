/* test-blktrace-samples.c: the blktrace samples of samples/blktrace/ (see samples/README.md)
 *
 * The same records in both byte orders give the same capture, with blkparse's totals; BFQ's
 * notes name the best-effort reader's level and leave the idle one honestly ambiguous.
 */
#include "blktrace-test-notes.h"
#include <string.h>
#include "iochart-loader.h"
#include "readers/iochart-sched-notes.h"

static IochartCapture *
load_sample (const char *name)
{
  g_autofree char *dir = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "samples", "blktrace", name, NULL);
  const char *paths[] = { dir, NULL };
  g_autoptr(GError) error = NULL;
  IochartCapture *cap = iochart_load (paths, NULL, &error);

  g_assert_no_error (error);
  return cap;
}

typedef struct {
  guint   dispatched, completed;
  guint64 read_bytes;
} Totals;

static Totals
totals (IochartCapture *cap)
{
  Totals t = { 0 };

  for (guint i = 0; i < iochart_capture_get_n_requests (cap); i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (cap, i, &rq);
      if (rq.issue_ns != IOCHART_TIME_UNKNOWN)
        {
          t.dispatched++;
          if (rq.op == IOCHART_OP_READ)
            t.read_bytes += rq.bytes;
        }
      if (rq.complete_ns != IOCHART_TIME_UNKNOWN)
        t.completed++;
    }
  return t;
}

static void
test_both_orders (void)
{
  g_autoptr(IochartCapture) le = load_sample ("bfq-idle-vs-be-dd");
  g_autoptr(IochartCapture) be = load_sample ("bfq-idle-vs-be-dd-bigendian");
  Totals t = totals (le);

  /* blkparse -i loop2 -D samples/blktrace/bfq-idle-vs-be-dd: Read Dispatches 39, 2432 KiB. */
  g_assert_cmpuint (iochart_capture_get_n_events (le), ==, 1085);
  g_assert_cmpuint (t.dispatched, ==, 39);
  g_assert_cmpuint (t.read_bytes, ==, 2432 * 1024);
  g_assert_cmpuint (iochart_capture_get_n_requests (le), ==, iochart_capture_get_n_requests (be));
  g_assert_cmpuint (iochart_capture_get_n_events (le), ==, iochart_capture_get_n_events (be));
  for (guint i = 0; i < iochart_capture_get_n_requests (le); i++)
    {
      IochartRequest a, b;

      iochart_capture_get_request (le, i, &a);
      iochart_capture_get_request (be, i, &b);
      g_assert_cmpint (a.queue_ns, ==, b.queue_ns);
      g_assert_cmpint (a.insert_ns, ==, b.insert_ns);
      g_assert_cmpint (a.issue_ns, ==, b.issue_ns);
      g_assert_cmpint (a.complete_ns, ==, b.complete_ns);
      g_assert_cmpuint (a.sector, ==, b.sector);
      g_assert_cmpuint (a.bytes, ==, b.bytes);
      g_assert_cmpuint (a.process, ==, b.process);
      g_assert_cmpuint (a.op, ==, b.op);
      g_assert_cmpuint (a.flags, ==, b.flags);
      g_assert_cmpuint (a.merges, ==, b.merges);
      g_assert_cmpint (a.error, ==, b.error);
    }
  g_assert_cmpstr (iochart_capture_get_device (le, 0)->name, ==, "loop2");
}

/* pid -> what the paired BFQ notes say, read from the little-endian files. */
static void
test_notes (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "samples", "blktrace",
                                           "bfq-idle-vs-be-dd", NULL);
  g_autoptr(GHashTable) notes = test_note_classes (dir, "loop2");
  const IochartSchedNote *idle = g_hash_table_lookup (notes, GINT_TO_POINTER (15077));
  const IochartSchedNote *be = g_hash_table_lookup (notes, GINT_TO_POINTER (15078));

  /* dd 15077 ran under ionice -c3, dd 15078 under ionice -c2 -n4. */
  g_assert_nonnull (idle);
  g_assert_true (idle->ambiguous);
  g_assert_cmpint (idle->level, ==, 7);
  g_assert_nonnull (be);
  g_assert_false (be->ambiguous);
  g_assert_cmpint (be->klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpint (be->level, ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/blktrace-samples/both-orders", test_both_orders);
  g_test_add_func ("/blktrace-samples/notes", test_notes);
  return g_test_run ();
}
