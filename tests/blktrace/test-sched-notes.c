/* test-sched-notes.c: what CFQ and BFQ notes say about classes, and what they cannot say */
#include <string.h>
#include "readers/iochart-sched-notes.h"

static IochartSchedNote
parse_ok (const char *text)
{
  IochartSchedNote n;

  g_assert_true (iochart_sched_note_parse (text, strlen (text), &n));
  return n;
}

static void
test_cfq (void)
{
  IochartSchedNote n = parse_ok ("cfq2891S  set_active wl_class:2 wl_type:1");

  g_assert_cmpint (n.pid, ==, 2891);
  g_assert_true (n.sync);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_IDLE);
  g_assert_false (n.has_level);
  g_assert_false (n.ambiguous);
  /* CFQ's own enum: BE 0, RT 1; "N" marks the sync-noidle workload; cgroup paths may follow. */
  n = parse_ok ("cfq17SN /user.slice set_active wl_class:0 wl_type:2");
  g_assert_cmpint (n.pid, ==, 17);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_BE);
  n = parse_ok ("cfq9A set_active wl_prio:1 wl_type:0");
  g_assert_false (n.sync);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_RT);
  n = parse_ok ("cfq9S slice expired t=0");
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_UNKNOWN);
  n = parse_ok ("cfq9S set_active wl_class:3 wl_type:0");
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_UNKNOWN);
}

static void
test_bfq (void)
{
  IochartSchedNote n = parse_ok ("bfq25859S add_request 1");

  g_assert_cmpint (n.pid, ==, 25859);
  g_assert_true (n.sync);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_UNKNOWN);
  n = parse_ok ("bfq0A new_ioprio 4 new_weight 40");
  g_assert_cmpint (n.pid, ==, 0);
  g_assert_false (n.sync);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpint (n.level, ==, 4);
  g_assert_true (n.has_level);
  g_assert_false (n.ambiguous);
  /* Level 7 and weight 10: BE 7 and IDLE print the same. */
  n = parse_ok ("bfq0A new_ioprio 7 new_weight 10");
  g_assert_cmpint (n.level, ==, 7);
  g_assert_true (n.ambiguous);
  n = parse_ok ("bfq311S /system.slice new_ioprio 0 new_weight 80");
  g_assert_cmpint (n.pid, ==, 311);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpint (n.level, ==, 0);
  n = parse_ok ("bfqSHARED-S add_request 1");
  g_assert_cmpint (n.pid, ==, -1);
}

static void
test_not_queue_notes (void)
{
  IochartSchedNote n;
  const char *texts[] = { "bfq dispatch requests: 1 busy queues", "cfq schedule dispatch",
                          "bfq [bfq_limit_depth] wr_busy 0 sync 1 depth 256", "hello", "", "bfq", "cfq" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    g_assert_false (iochart_sched_note_parse (texts[i], strlen (texts[i]), &n));
  /* Not NUL-terminated: the length bounds the parse. */
  g_assert_true (iochart_sched_note_parse ("bfq0A new_ioprio 4 new_weight 40XXXX", 31, &n));
  g_assert_cmpint (n.level, ==, 4);
  g_assert_true (iochart_sched_note_parse ("bfq0A new_ioprio 4 new_weight 40", 20, &n));
  g_assert_false (n.has_level);
}

/* BFQ prints new_ioprio before the queue has its pid: the next note of that task names it. */
static void
test_tracker (void)
{
  IochartSchedNoteTracker t = IOCHART_SCHED_NOTE_TRACKER_INIT;
  IochartSchedNote n;
  guint32 dev = 7u << 20;

#define TRACK(d, ctx, s) iochart_sched_note_track (&t, d, ctx, s, strlen (s), &n)
  g_assert_true (TRACK (dev, 100, "bfq0A new_ioprio 4 new_weight 40"));
  g_assert_true (TRACK (dev, 200, "bfq0A new_ioprio 7 new_weight 10"));
  g_assert_true (TRACK (dev, 200, "bfq200S allocated"));
  g_assert_cmpint (n.pid, ==, 200);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_IDLE);
  g_assert_true (n.ambiguous);
  g_assert_true (TRACK (dev, 100, "bfq100S allocated"));
  g_assert_cmpint (n.pid, ==, 100);
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpint (n.level, ==, 4);
  g_assert_false (n.ambiguous);
  /* Notes about no queue in between do not part the pair; a note about a queue does. */
  g_assert_true (TRACK (dev, 300, "bfq0A new_ioprio 2 new_weight 60"));
  g_assert_false (TRACK (dev, 300, "bfq dispatch requests: 1 busy queues"));
  g_assert_true (TRACK (dev, 300, "bfq300S allocated"));
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_BE);
  g_assert_true (TRACK (dev, 300, "bfq0A new_ioprio 2 new_weight 60"));
  g_assert_true (TRACK (dev, 300, "bfq300S add_request 1"));
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_UNKNOWN);
  /* Another device or another task does not pick it up. */
  g_assert_true (TRACK (dev, 400, "bfq0A new_ioprio 1 new_weight 70"));
  g_assert_true (TRACK (dev + 1, 400, "bfq400S allocated"));
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_UNKNOWN);
  g_assert_true (TRACK (dev, 401, "bfq400S allocated"));
  g_assert_cmpint (n.klass, ==, IOCHART_CLASS_UNKNOWN);
#undef TRACK
}

/* The filter lets through every note that can tell a class and drops the everyday ones. */
static void
test_may_tell_class (void)
{
  IochartSchedNoteTracker t = IOCHART_SCHED_NOTE_TRACKER_INIT;
  IochartSchedNote n;
  const guint32 dev = 7u << 20;
#define MAY(text, pid) iochart_sched_note_may_tell_class (&t, dev, pid, text, strlen (text))

  g_assert_true (MAY ("bfq0A new_ioprio 7 new_weight 10", 100));
  g_assert_true (MAY ("cfq123S set_active wl_class:2 wl_type:1", 123));
  g_assert_true (MAY ("cfq123S set_active wl_prio:0 wl_type:2", 123));
  g_assert_false (MAY ("bfq25859S add_request 1", 100));
  g_assert_false (MAY ("bfq [bfq_limit_depth] wr_busy 0 sync 1 depth 256", 100));
  g_assert_false (MAY ("new_iopri", 100));   /* cut: no room for the whole word */
  g_assert_false (MAY ("bfq100S new_iopri", 100));
  g_assert_true (MAY ("cfq123SN /grp1 set_active wl_class:1 wl_type:2", 123));
  g_assert_true (MAY ("bfq100A  new_ioprio 4 new_weight 40", 100));
  g_assert_false (MAY ("bfq dispatch requests: 2 busy queues", 100));
  g_assert_false (MAY ("bfq100S select_queue: new_ioprio later in the note", 100));
  g_assert_false (MAY ("cfq", 100));
  /* after a level, the same task's next note names the queue, whatever it says */
  g_assert_true (iochart_sched_note_track (&t, dev, 100, "bfq0A new_ioprio 7 new_weight 10", 31, &n));
  g_assert_true (MAY ("bfq100S allocated", 100));
  g_assert_false (MAY ("bfq100S allocated", 101));
  g_assert_false (iochart_sched_note_may_tell_class (&t, 8u << 20, 100, "bfq100S allocated", 17));
#undef MAY
}

/* The quick test inline in the header answers as the whole one does, and a note's padding NULs
 * change no answer (the blktrace merge tests notes with their padding on), for every cut of
 * notes of every shape; and no cut that tells a class is held back. */
static void
test_may_tell_class_padded (void)
{
  static const char *notes[] = {
    "bfq0A new_ioprio 7 new_weight 10", "cfq123S set_active wl_class:2 wl_type:1",
    "bfq25859S add_request 1", "bfq [bfq_limit_depth] wr_busy 0 sync 1 depth 256",
    "bfq100S new_iopri", "cfq123SN /grp1 set_active wl_class:1 wl_type:2",
    "bfq100A  new_ioprio 4 new_weight 40", "bfq dispatch requests: 2 busy queues",
    "bfq new_ioprio 3 new_weight 50", "bfqS new_ioprio 3 new_weight 50",
    "bfqSHARED-S new_ioprio 2 new_weight 60", "bfq12345678S new_ioprio 1 new_weight 70",
    "bfq123456789A new_ioprio 1 new_weight 70", "bfq7S /a/b new_ioprio 0 new_weight 80",
    "bfq7S /new_ioprio 0", "bfq7 new_ioprio 0 new_weight 80", "cfq9A set_active wl_prio:1",
    "bfq7X new_ioprio 0", "bfq7S\tnew_ioprio", "bfq42S set_activeX", "bfq 12S new_ioprio",
    /* the quick test finds the word after the first space: its shapes around that */
    "xfq12S new_ioprio 1 new_weight 70", "bfq1234567A new_ioprio 1 new_weight 70",
    "bfq123456 set_active wl_class:1", "bfq12 /x set_active wl_class:1", "bfqS new_ioprio 3",
    "bfq12SA new_ioprio 2 new_weight 60", "cfq3SN set_active wl_class:0 wl_type:1",
    /* words whose first byte the quick test drops at once, or looks at closer for nothing (a byte
     * with the low 6 bits of 'n', 's', ' ' or '/') */
    "bfq12S calc_finish: serv 1024, w 1200", "bfq12S onew_ioprio 1", "bfq12S .ew_ioprio 1",
    "bfq12S 3et_active wl_class:1", "bfq12S `new_ioprio 1", "bfq12S Set_active wl_class:1",
    "bfq12S selected_active wl_class:1", "bfq12S nice_ioprio 1",
  };
  IochartSchedNoteTracker t = IOCHART_SCHED_NOTE_TRACKER_INIT;
  const guint32 dev = 7u << 20;
  char buf[96];

  for (guint i = 0; i < G_N_ELEMENTS (notes); i++)
    for (gsize len = 0; len <= strlen (notes[i]); len++)
      {
        IochartSchedNote n;
        gboolean may = iochart_sched_note_may_tell_class (&t, dev, 5, notes[i], len);

        g_assert_cmpint (may, ==, _iochart_sched_note_may_tell_class_slow (&t, dev, 5, notes[i], len));
        if (iochart_sched_note_parse (notes[i], len, &n) && n.klass != IOCHART_CLASS_UNKNOWN)
          g_assert_true (may);
        for (gsize pad = 1; pad <= 20; pad++)
          {
            memset (buf, 0, sizeof buf);
            memcpy (buf, notes[i], len);
            if (iochart_sched_note_may_tell_class (&t, dev, 5, buf, len + pad) != may)
              g_error ("'%.*s' with %" G_GSIZE_FORMAT " NULs: %d, not %d", (int) len, notes[i], pad, !may, may);
          }
      }
}

/* The first space among bytes 3..10 of 16 is found wherever it is, whatever lies around it. */
static void
test_early_space (void)
{
  char buf[16];

  for (guint first = 0; first <= 16; first++)
    for (guint fill = 0; fill < 4; fill++)
      {
        const char *expect = NULL;

        memset (buf, "a\0\xa0\x7f"[fill], sizeof buf);
        for (guint i = first; i < 16; i += 3)
          buf[i] = ' ';
        for (guint i = 3; i <= 10 && expect == NULL; i++)
          if (buf[i] == ' ')
            expect = buf + i + 1;
        g_assert_true (_iochart_after_early_space (buf) == expect);
      }
}

static void
assert_same_note (const IochartSchedNote *a, const IochartSchedNote *b)
{
  g_assert_cmpint (a->pid, ==, b->pid);
  g_assert_cmpint (a->sync, ==, b->sync);
  g_assert_cmpint (a->klass, ==, b->klass);
  g_assert_cmpint (a->level, ==, b->level);
  g_assert_cmpint (a->has_level, ==, b->has_level);
  g_assert_cmpint (a->ambiguous, ==, b->ambiguous);
}

/* The quick way through BFQ's common shape ("bfqPID[SA] word") reads every cut of every note,
 * padded or not, as the whole parse does; and the tracker finds " allocated" (a word it looks
 * for where the queue's name ends) wherever a search of the note would. */
static void
test_quick_parse (void)
{
  static const char *notes[] = {
    "bfq0A new_ioprio 4 new_weight 40", "bfq0A new_ioprio 7 new_weight 10", "bfq0A new_ioprio 8 new_weight 1",
    "bfq25859S add_request 1", "bfq25860S allocated", "bfq1234567A allocated", "bfq12345678S allocated",
    "bfq1234567890123S allocated", "bfq12SN allocated", "bfq12S  allocated", "bfq12S /a/b allocated",
    "bfq12Sallocated", "bfq12S put_queue allocated", "bfq12S allocatedX", "bfq12S alloc", "bfq12X allocated",
    "bfq12 allocated", "bfq0A  new_ioprio 4 new_weight 40", "bfq0S new_ioprio 4  new_weight 40",
    "bfq0A new_ioprio 12 new_weight 40", "bfq0A new_ioprio 4 new_weight x", "bfqSHARED-S allocated",
    "bfq dispatch requests: 1 busy queues", "cfq123S set_active wl_class:2 wl_type:1", "bfq9S\tallocated",
    "cfq12S allocated", "xfq12S allocated", "bfq12S all\0ocated",
  };
  const guint32 dev = 7u << 20;
  char buf[96];

  for (guint i = 0; i < G_N_ELEMENTS (notes); i++)
    for (gsize len = 0; len <= strlen (notes[i]); len++)
      for (gsize pad = 0; pad <= 9; pad++)
        {
          IochartSchedNoteTracker t = IOCHART_SCHED_NOTE_TRACKER_INIT;
          IochartSchedNote quick, slow, level;
          gboolean ok, allocated;

          memset (buf, 0, sizeof buf);
          memcpy (buf, notes[i], len);
          ok = _iochart_sched_note_parse_slow (buf, len + pad, &slow);
          g_assert_cmpint (iochart_sched_note_parse (buf, len + pad, &quick), ==, ok);
          if (ok)
            assert_same_note (&quick, &slow);
          /* after a level from task 12, its next note names the queue if it says " allocated" */
          g_assert_true (iochart_sched_note_track (&t, dev, 12, "bfq0A new_ioprio 2 new_weight 60", 31, &level));
          g_assert_cmpint (iochart_sched_note_track (&t, dev, 12, buf, len + pad, &quick), ==, ok);
          if (!ok)
            continue;
          allocated = slow.pid > 0 && slow.klass == IOCHART_CLASS_UNKNOWN &&
                      g_strstr_len (buf, strnlen (buf, len), " allocated") != NULL;
          if (allocated)
            {
              slow.klass = level.klass;
              slow.level = level.level;
              slow.has_level = TRUE;
            }
          assert_same_note (&quick, &slow);
          g_assert_cmpint (t.live, ==, slow.pid == 0 && slow.has_level ? 2 : 0);
        }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sched-notes/cfq", test_cfq);
  g_test_add_func ("/sched-notes/bfq", test_bfq);
  g_test_add_func ("/sched-notes/not-queue-notes", test_not_queue_notes);
  g_test_add_func ("/sched-notes/tracker", test_tracker);
  g_test_add_func ("/sched-notes/may-tell-class", test_may_tell_class);
  g_test_add_func ("/sched-notes/may-tell-class-padded", test_may_tell_class_padded);
  g_test_add_func ("/sched-notes/quick-parse", test_quick_parse);
  g_test_add_func ("/sched-notes/early-space", test_early_space);
  return g_test_run ();
}
