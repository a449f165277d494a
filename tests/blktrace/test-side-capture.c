/* test-side-capture.c: classes for blktrace requests from a .dat of the same run
 *
 * ../shared/captures/hdd-blktrace-bfq-idle-vs-normal-5s/ and hdd-bfq-idle-vs-normal-5s.dat
 * recorded the same 409 dispatches on 7,0 (213 best-effort, 196 idle): each must get its class.
 * Also checks what BFQ's own notes in the blktrace files say against the .dat's truth.
 * Skips (77) when the captures are absent.
 */
#include <string.h>
#include "iochart-loader.h"
#include "iochart-side-capture.h"
#include "blktrace-test-notes.h"

#define SKIP 77


int
main (void)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT");
  g_autofree char *shared = g_build_filename (root ? root : ".", "..", "shared", "captures", NULL);
  g_autofree char *dir = g_build_filename (shared, "hdd-blktrace-bfq-idle-vs-normal-5s", NULL);
  g_autofree char *dat = g_build_filename (shared, "hdd-bfq-idle-vs-normal-5s.dat", NULL);
  const char *blk_only[] = { dir, NULL };
  const char *both[] = { dir, dat, NULL };
  g_autoptr(IochartCapture) plain = NULL, merged = NULL;
  g_autoptr(GHashTable) notes = NULL;
  g_autoptr(GError) error = NULL;
  guint counts[IOCHART_N_CLASSES] = { 0 }, issued = 0, agree = 0, ambiguous_ok = 0, disagree = 0;
  int dev;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR) || !g_file_test (dat, G_FILE_TEST_EXISTS))
    {
      g_print ("SKIP: needs %s and %s\n", dir, dat);
      return SKIP;
    }
  merged = iochart_load (both, NULL, &error);
  g_assert_no_error (error);
  dev = iochart_capture_find_device (merged, 7u << 20);
  g_assert_cmpint (dev, >=, 0);
  for (guint i = 0; i < iochart_capture_get_n_requests (merged); i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (merged, i, &rq);
      if (rq.device != dev || rq.issue_ns == IOCHART_TIME_UNKNOWN)
        continue;
      issued++;
      counts[rq.klass]++;
      g_assert_cmpint (rq.class_source, ==, IOCHART_CLASS_SOURCE_SIDE_CAPTURE);
    }
  g_print ("dispatched on 7,0: %u; be %u, idle %u, unknown %u\n", issued, counts[IOCHART_CLASS_BE],
           counts[IOCHART_CLASS_IDLE], counts[IOCHART_CLASS_UNKNOWN]);
  g_assert_cmpuint (issued, ==, 409);
  g_assert_cmpuint (counts[IOCHART_CLASS_BE], ==, 213);
  g_assert_cmpuint (counts[IOCHART_CLASS_IDLE], ==, 196);

  /* Per process: the class was recomputed from the newly classed requests. */
  for (guint i = 0; i < iochart_capture_get_n_processes (merged); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (merged, i);
      if (p->requests > 0)
        {
          g_assert_cmpint (p->klass, !=, IOCHART_CLASS_UNKNOWN);
          g_assert_cmpint (p->class_source, ==, IOCHART_CLASS_SOURCE_SIDE_CAPTURE);
        }
    }

  /* The .dat lends its process tree: every cat that read on 7,0 has a known life and a find for
   * a parent, so lanes fold the cats into the two readers. */
  {
    guint cats = 0;

    for (guint i = 0; i < iochart_capture_get_n_processes (merged); i++)
      {
        const IochartProcess *p = iochart_capture_get_process (merged, i);

        if (p->requests == 0 || g_strcmp0 (p->comm, "cat") != 0)
          continue;
        cats++;
        g_assert_cmpuint (p->parent, !=, IOCHART_NO_PROCESS);
        g_assert_cmpstr (iochart_capture_get_process (merged, p->parent)->comm, ==, "find");
        g_assert_cmpint (p->start_ns, !=, IOCHART_TIME_UNKNOWN);
        g_assert_cmpint (p->exit_ns, >, p->start_ns);
      }
    g_assert_cmpuint (cats, >, 300);
  }

  /* The notes alone: every pid BFQ names gets its class right, or an honest "idle or be 7". */
  notes = test_note_classes (dir, "loop0");
  for (guint i = 0; i < iochart_capture_get_n_processes (merged); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (merged, i);
      const IochartSchedNote *nc = g_hash_table_lookup (notes, GINT_TO_POINTER (p->pid));

      if (p->requests == 0 || nc == NULL)
        continue;
      if (nc->ambiguous)
        {
          if ((p->klass == IOCHART_CLASS_IDLE) || (p->klass == IOCHART_CLASS_BE && p->level == 7))
            ambiguous_ok++;
          else
            disagree++;
        }
      else if (nc->klass == p->klass && nc->level == p->level)
        agree++;
      else
        disagree++;
    }
  g_print ("BFQ notes against the .dat: %u processes agree, %u are idle-or-be7 as the notes say, "
           "%u disagree (of %u named by notes)\n", agree, ambiguous_ok, disagree, g_hash_table_size (notes));
  g_assert_cmpuint (disagree, ==, 0);
  g_assert_cmpuint (agree, >, 0);

  /* Without the .dat, nothing invents a class. */
  plain = iochart_load (blk_only, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < iochart_capture_get_n_requests (plain); i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (plain, i, &rq);
      g_assert_cmpint (rq.class_source, !=, IOCHART_CLASS_SOURCE_SIDE_CAPTURE);
    }
  return 0;
}
