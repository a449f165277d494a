/* test-blktrace-blkparse.c: the real 3 s capture gives blkparse's own summary figures
 *
 * Q events, dispatched and completed requests and KiB per direction must equal the "Total"
 * section of `blkparse -i loop0 -D DIR`. blkparse 1.2 neither prints nor counts message notes
 * that carry a cgroup id, nor PROCESS notes: those are counted here from the files themselves.
 * Skips (77) when blkparse or the capture is absent.
 */
#include <stdio.h>
#include <string.h>
#include "iochart-loader.h"

#define SKIP 77

typedef struct {
  guint64 queued[2], queued_kib[2];
  guint64 dispatched[2], dispatched_kib[2];
  guint64 completed[2], completed_kib[2];
  guint64 events;
} Summary;

/* "Reads Queued:        1257,   247476KiB	 Writes Queued:    0,    0KiB" */
static gboolean
parse_pair (const char *text, const char *r, const char *w, guint64 *count, guint64 *kib)
{
  const char *total = strstr (text, "Total (");
  const char *p;

  if (total == NULL)
    return FALSE;
  if ((p = strstr (total, r)) == NULL ||
      sscanf (p + strlen (r), " %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "KiB", &count[0], &kib[0]) != 2)
    return FALSE;
  if ((p = strstr (total, w)) == NULL ||
      sscanf (p + strlen (w), " %" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "KiB", &count[1], &kib[1]) != 2)
    return FALSE;
  return TRUE;
}

static gboolean
blkparse_summary (const char *dir, Summary *s)
{
  const char *argv[] = { "blkparse", "-i", "loop0", "-D", dir, NULL };
  g_autofree char *out = NULL;
  int status;
  const char *p;

  /* The summary follows the event lines on stdout. */
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &status, NULL))
    return FALSE;
  g_assert_true (parse_pair (out, "Reads Queued:", "Writes Queued:", s->queued, s->queued_kib));
  g_assert_true (parse_pair (out, "Read Dispatches:", "Write Dispatches:", s->dispatched, s->dispatched_kib));
  g_assert_true (parse_pair (out, "Reads Completed:", "Writes Completed:", s->completed, s->completed_kib));
  p = strstr (out, "Events (");
  g_assert_nonnull (p);
  g_assert_cmpint (sscanf (strstr (p, "):") + 2, " %" G_GUINT64_FORMAT " entries", &s->events), ==, 1);
  return TRUE;
}

/* Records that blkparse leaves out of its count: cgroup-tagged messages and PROCESS notes. */
static guint64
count_hidden_notes (const char *dir)
{
  guint64 n = 0;

  for (int cpu = 0;; cpu++)
    {
      g_autofree char *path = g_strdup_printf ("%s/loop0.blktrace.%d", dir, cpu);
      g_autofree char *data = NULL;
      gsize len, off = 0;

      if (!g_file_get_contents (path, &data, &len, NULL))
        break;
      while (off + 48 <= len)
        {
          guint32 action;
          guint16 pdu_len;

          /* The shared captures are little-endian. */
          memcpy (&action, data + off + 28, 4);
          memcpy (&pdu_len, data + off + 46, 2);
          action = GUINT32_FROM_LE (action);
          pdu_len = GUINT16_FROM_LE (pdu_len);
          if ((action >> 16) & 0x400)
            {
              guint code = action & 0xff;
              if (code == 0 || (code == 2 && (action & 0x100)))
                n++;
            }
          off += 48 + pdu_len;
        }
    }
  return n;
}

int
main (void)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT");
  g_autofree char *dir = g_build_filename (root ? root : ".", "..", "shared", "captures",
                                           "blktrace-bfq-idle-vs-normal-3s", NULL);
  g_autofree char *blkparse = g_find_program_in_path ("blkparse");
  const char *paths[] = { dir, NULL };
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  Summary s = { 0 };
  guint64 queued[2] = { 0 }, queued_b[2] = { 0 }, disp[2] = { 0 }, disp_b[2] = { 0 };
  guint64 done[2] = { 0 }, done_b[2] = { 0 }, hidden;
  g_autoptr(GHashTable) q_events = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (blkparse == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_print ("SKIP: needs blkparse and %s\n", dir);
      return SKIP;
    }
  g_assert_true (blkparse_summary (dir, &s));
  cap = iochart_load (paths, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < iochart_capture_get_n_requests (cap); i++)
    {
      IochartRequest rq;
      guint dir_i;

      iochart_capture_get_request (cap, i, &rq);
      if (rq.op != IOCHART_OP_READ && rq.op != IOCHART_OP_WRITE)
        continue;
      dir_i = rq.op == IOCHART_OP_WRITE;
      /* A request stands for its own Q and for every bio merged into it; the pieces of a split
       * bio share its Q (same queue time and process) and count once. */
      queued[dir_i] += rq.merges;
      if (rq.queue_ns != IOCHART_TIME_UNKNOWN)
        {
          g_autofree char *q = g_strdup_printf ("%" G_GINT64_FORMAT "/%u", rq.queue_ns, rq.process);

          if (g_hash_table_add (q_events, g_steal_pointer (&q)))
            queued[dir_i]++;
          queued_b[dir_i] += rq.bytes;
        }
      if (rq.issue_ns != IOCHART_TIME_UNKNOWN)
        {
          disp[dir_i]++;
          disp_b[dir_i] += rq.bytes;
        }
      if (rq.complete_ns != IOCHART_TIME_UNKNOWN)
        {
          done[dir_i]++;
          done_b[dir_i] += rq.bytes;
        }
    }
  hidden = count_hidden_notes (dir);
  for (guint d = 0; d < 2; d++)
    {
      g_print ("%s: Q %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " KiB %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
               "  D %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " KiB %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
               "  C %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " KiB %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT
               " (iochart/blkparse)\n", d ? "write" : "read",
               queued[d], s.queued[d], queued_b[d] / 1024, s.queued_kib[d],
               disp[d], s.dispatched[d], disp_b[d] / 1024, s.dispatched_kib[d],
               done[d], s.completed[d], done_b[d] / 1024, s.completed_kib[d]);
      g_assert_cmpuint (queued[d], ==, s.queued[d]);
      g_assert_cmpuint (queued_b[d] / 1024, ==, s.queued_kib[d]);
      g_assert_cmpuint (disp[d], ==, s.dispatched[d]);
      g_assert_cmpuint (disp_b[d] / 1024, ==, s.dispatched_kib[d]);
      g_assert_cmpuint (done[d], ==, s.completed[d]);
      g_assert_cmpuint (done_b[d] / 1024, ==, s.completed_kib[d]);
    }
  g_print ("events: iochart %" G_GUINT64_FORMAT ", blkparse %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT
           " hidden notes\n", iochart_capture_get_n_events (cap), s.events, hidden);
  /* Every record read is an event. */
  g_assert_cmpuint (iochart_capture_get_n_events (cap), ==, s.events + hidden);
  return 0;
}
