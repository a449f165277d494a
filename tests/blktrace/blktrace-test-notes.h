/* blktrace-test-notes.h: what BFQ's notes in little-endian blktrace files say, read straight from
 * the files (not through the reader), to check the reader and the side capture against */
#pragma once

#include <string.h>
#include "readers/iochart-sched-notes.h"

/* pid -> IochartSchedNote of the last note that gave that pid a class. Files NAME.blktrace.0 and
 * .1; notes of one task are on one CPU at a time in the captures used, so per file is enough. */
static inline GHashTable *
test_note_classes (const char *dir, const char *name)
{
  GHashTable *out = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  IochartSchedNoteTracker tracker = IOCHART_SCHED_NOTE_TRACKER_INIT;

  for (int cpu = 0; cpu < 2; cpu++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s.blktrace.%d", dir, name, cpu);
      g_autofree char *data = NULL;
      gsize len, off = 0;

      g_assert_true (g_file_get_contents (path, &data, &len, NULL));
      while (off + 48 <= len)
        {
          guint32 action, pid, dev;
          guint16 pdu_len;
          IochartSchedNote n;

          memcpy (&action, data + off + 28, 4);
          memcpy (&pid, data + off + 32, 4);
          memcpy (&dev, data + off + 36, 4);
          memcpy (&pdu_len, data + off + 46, 2);
          /* a MESSAGE note (2) of the NOTIFY category with a cgroup id (0x100) before its text */
          if ((action >> 16) & 0x400 && (action & 0xff) == 2 && (action & 0x100) && pdu_len > 8 &&
              iochart_sched_note_track (&tracker, dev, pid, data + off + 56, pdu_len - 8, &n) &&
              n.pid > 0 && n.klass != IOCHART_CLASS_UNKNOWN)
            g_hash_table_insert (out, GINT_TO_POINTER (n.pid), g_memdup2 (&n, sizeof n));
          off += 48 + pdu_len;
        }
    }
  return out;
}
