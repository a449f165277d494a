/* iochart-sched-notes.h: what CFQ and BFQ notes say about a queue's priority
 *
 * CFQ names the class it serves when it activates a queue: "cfq123S set_active wl_class:2
 * wl_type:1" (its own enum: BE 0, RT 1, IDLE 2; "wl_prio:" before 3.x), never the level.
 * BFQ names a level and a weight, never the class: "bfq0A new_ioprio 7 new_weight 10". The
 * weight is (8 - level) * 10 for every class, so level 7 is BE 7 or IDLE (ambiguous), and any
 * other level is BE (or RT, which the note cannot tell apart: RT is taken to be absent).
 *
 * BFQ prints new_ioprio while it sets up a new queue, before it gives the queue its pid and its
 * sync flag: so the note reads "bfq0A" whatever the queue, and the very next note from the same
 * task, "bfq25860S allocated", names the queue it was about. iochart_sched_note_track() pairs
 * the two; iochart_sched_note_parse() sees one note alone.
 */
#pragma once

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "iochart-types.h"

G_BEGIN_DECLS

typedef struct {
  gint32       pid;          /* the queue's pid; 0 for BFQ's "bfq0A" notes, -1 for shared queues */
  gboolean     sync;         /* S or A queue */
  IochartClass klass;        /* IOCHART_CLASS_UNKNOWN when the note does not tell */
  guint8       level;
  gboolean     has_level;
  gboolean     ambiguous;    /* BFQ weight 10 / level 7: BE 7 and IDLE look the same */
} IochartSchedNote;

/* Parses one scheduler message ("bfq25859S add_request 1", "cfq123S set_active wl_class:0 ...").
 * Returns TRUE when the note is about a queue; klass/level are filled when it tells them. */
gboolean iochart_sched_note_parse (const char       *text,
                                   gsize             len,
                                   IochartSchedNote *note);

/* iochart_sched_note_parse() without its quick way through BFQ's common shape, for tests. */
gboolean _iochart_sched_note_parse_slow (const char       *text,
                                         gsize             len,
                                         IochartSchedNote *note);

/* Remembers BFQ's unnamed new_ioprio notes per device until the queue they were about is named. */
typedef struct {
  struct {
    guint32          dev;
    gint32           ctx_pid;   /* the task that ran the note: 0 is a free slot */
    IochartSchedNote note;
  } pending[8];
  guint  next;
  guint8 live;        /* bit i: pending[i] waits (most of the time none does) */
} IochartSchedNoteTracker;

#define IOCHART_SCHED_NOTE_TRACKER_INIT { 0 }

/* Like iochart_sched_note_parse(), for a note on dev run by ctx_pid (the record's pid). When
 * the note is BFQ's "bfqPID[SA] allocated" right after a "bfq0A new_ioprio" from the same task
 * on the same device, the returned note carries that class and level for PID. */
gboolean iochart_sched_note_track (IochartSchedNoteTracker *tracker,
                                   guint32                  dev,
                                   gint32                   ctx_pid,
                                   const char              *text,
                                   gsize                    len,
                                   IochartSchedNote        *note);

/* The rest of iochart_sched_note_may_tell_class(), for the notes its quick test leaves open. */
gboolean _iochart_sched_note_may_tell_class_slow (const IochartSchedNoteTracker *tracker,
                                                  guint32                        dev,
                                                  gint32                         ctx_pid,
                                                  const char                    *text,
                                                  gsize                          len);

/* How many of the 8 bytes at p are digits before the first that is not: the queue's pid at
 * once, not a byte at a time (this runs on every note). */
static inline guint
_iochart_leading_digits8 (const char *p)
{
  const guint64 high = G_GUINT64_CONSTANT (0x8080808080808080);
  guint64 x, not_digit;

  memcpy (&x, p, 8);
  x = GUINT64_FROM_LE (x) ^ G_GUINT64_CONSTANT (0x3030303030303030);   /* digits become 0..9 */
  /* a byte's high bit: set where x >= 10 (no borrow crosses bytes: each is >= 0x80 first) */
  not_digit = (((x | high) - G_GUINT64_CONSTANT (0x0a0a0a0a0a0a0a0a)) | x) & high;
  return not_digit ? (guint) __builtin_ctzll (not_digit) / 8 : 8;
}

/* memcmp (p, word, 10) == 0 as two loads: a call to memcmp costs more than the rest of the test. */
static inline gboolean
_iochart_same10 (const char *p, const char *word)
{
  guint64 a, b;
  guint16 c, d;

  memcpy (&a, p, 8);
  memcpy (&b, word, 8);
  memcpy (&c, p + 8, 2);
  memcpy (&d, word + 8, 2);
  return a == b && c == d;
}

/* The spaces among the 8 bytes at p, a word at a time: the high bit of the first space's byte is
 * the lowest bit set (above it, a borrow may set more), 0 when there is none. */
static inline guint64
_iochart_spaces8 (const char *p)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101), high = ones << 7;
  guint64 x;

  memcpy (&x, p, 8);
  x = GUINT64_FROM_LE (x) ^ (ones * ' ');   /* spaces become 0 */
  return (x - ones) & ~x & high;
}

/* Where the first space among text[3..10] is (text has 16 bytes to read): one past it, NULL when
 * none is. With SSE2 one 16-byte compare finds it; else a word at a time, as _iochart_spaces8(). */
static inline const char *
_iochart_after_early_space (const char *text)
{
#ifdef __SSE2__
  __m128i v;
  guint mask;

  memcpy (&v, text, 16);
  mask = (guint) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, _mm_set1_epi8 (' '))) & 0x7f8u;
  return mask != 0 ? text + __builtin_ctz (mask) + 1 : NULL;
#else
  guint64 spaces = _iochart_spaces8 (text + 3);

  return spaces != 0 ? text + 3 + __builtin_ctzll (spaces) / 8 + 1 : NULL;
#endif
}

/* Cheap: whether a note can tell a class at all (a BFQ level, CFQ's workload class, or the note
 * that names the queue of a level just seen). Schedulers write a dozen notes a request; the rest
 * need not be parsed. Inline, for the common shape "bfqPID[SA] word", because it runs on every
 * note of a capture, most of whose records are notes: both notes that tell a class follow the
 * queue's name at once, so the word after the first space is looked at, never the rest of the
 * note, and the rest of the shape is checked only when that word is one of the two. It answers
 * as _iochart_sched_note_may_tell_class_slow() does: it may let through a note that tells
 * nothing (iochart_sched_note_track() parses it exactly), never hold one back. Trailing NULs in
 * text (a note's padding) change no answer: every word compared has none. */
/* 8 or 2 bytes of a word as one little-endian number */
#define _IOCHART_LE8(a, b, c, d, e, f, g, h) \
  ((guint64) (a) | (guint64) (b) << 8 | (guint64) (c) << 16 | (guint64) (d) << 24 | \
   (guint64) (e) << 32 | (guint64) (f) << 40 | (guint64) (g) << 48 | (guint64) (h) << 56)
#define _IOCHART_LE2(a, b) ((guint16) ((a) | (b) << 8))

G_ALWAYS_INLINE static inline gboolean
iochart_sched_note_may_tell_class (const IochartSchedNoteTracker *tracker, guint32 dev, gint32 ctx_pid,
                                   const char *text, gsize len)
{
  /* the first bytes a word that needs a closer look may start with ('n', 's', ' ', '/'), by their
   * low 6 bits: a few others share them and are looked at closer for nothing */
  const guint64 closer = 1ull << ('n' & 63) | 1ull << ('s' & 63) | 1ull << (' ' & 63) | 1ull << ('/' & 63);
  const char *w;
  guint16 after, tail;
  guint64 word;

  /* room for the 16 bytes the space is sought in (among text[3..10]) and 8 bytes of the word
   * after it, read without more checks */
  if (G_UNLIKELY (tracker->live != 0) || len < 20)
    return _iochart_sched_note_may_tell_class_slow (tracker, dev, ctx_pid, text, len);
  /* the word the whole test looks at, when it looks at one, is the first after the scheduler's
   * name ("bfq", "bfqPID[SA]"): right after the first space when that comes early and one space
   * leads to a word; any other shape gets the whole test */
  w = _iochart_after_early_space (text);
  if (w == NULL)
    return _iochart_sched_note_may_tell_class_slow (tracker, dev, ctx_pid, text, len);
  memcpy (&word, w, 8);
  word = GUINT64_FROM_LE (word);
  if (!((closer >> (word & 63)) & 1))
    return FALSE;
  if (word == _IOCHART_LE8 ('n', 'e', 'w', '_', 'i', 'o', 'p', 'r'))
    tail = _IOCHART_LE2 ('i', 'o');
  else if (word == _IOCHART_LE8 ('s', 'e', 't', '_', 'a', 'c', 't', 'i'))
    tail = _IOCHART_LE2 ('v', 'e');
  else if ((word & 0xff) == ' ' || (word & 0xff) == '/')
    return _iochart_sched_note_may_tell_class_slow (tracker, dev, ctx_pid, text, len);   /* more spaces, a path */
  else
    return FALSE;
  if (text + len - w < 10)
    return FALSE;
  memcpy (&after, w + 8, 2);
  /* one of the two words: whether what comes before it is a queue's name is for the whole test
   * (few notes come this far) */
  return GUINT16_FROM_LE (after) == tail &&
         _iochart_sched_note_may_tell_class_slow (tracker, dev, ctx_pid, text, len);
}

G_END_DECLS
