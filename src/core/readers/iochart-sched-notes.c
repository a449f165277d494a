/* iochart-sched-notes.c: CFQ and BFQ note parsing; see the header for what each note tells */
#include <string.h>
#include "iochart-sched-notes.h"

/* A bounded cursor over a note that need not be NUL-terminated. */
typedef struct {
  const char *p;
  const char *end;
} Cursor;

static gboolean
eat (Cursor *c, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (c->end - c->p) < n || memcmp (c->p, word, n) != 0)
    return FALSE;
  c->p += n;
  return TRUE;
}

static gboolean
eat_number (Cursor *c, gint64 *out)
{
  gint64 v = 0;
  const char *start = c->p;
  const char *stop = c->end - c->p > 10 ? c->p + 10 : c->end;   /* ten digits at most */

  /* one test a digit: a byte below '0' wraps round to a large number */
  while (c->p < stop && (guint8) (*c->p - '0') < 10)
    v = v * 10 + (*c->p++ - '0');
  *out = v;
  return c->p > start;
}

static void
skip_spaces (Cursor *c)
{
  while (c->p < c->end && *c->p == ' ')
    c->p++;
}

/* Finds word in the rest of the note and moves past it. */
static gboolean
seek (Cursor *c, const char *word)
{
  gsize n = strlen (word);

  for (const char *q = c->p; q + n <= c->end; q++)
    if (*q == *word && memcmp (q, word, n) == 0)
      {
        c->p = q + n;
        return TRUE;
      }
  return FALSE;
}

/* "PID[SA]" after the scheduler's name; older kernels and group scheduling add a cgroup path. */
static gboolean
parse_queue (Cursor *c, IochartSchedNote *note)
{
  gint64 pid;

  if (eat (c, "SHARED-"))
    pid = -1;
  else if (!eat_number (c, &pid))
    return FALSE;
  note->pid = pid;
  if (c->p < c->end && (*c->p == 'S' || *c->p == 'A'))
    note->sync = *c->p++ == 'S';
  if (c->p < c->end && *c->p == 'N')   /* CFQ's sync-noidle workload */
    c->p++;
  skip_spaces (c);
  if (c->p < c->end && *c->p == '/')
    {
      while (c->p < c->end && *c->p != ' ')
        c->p++;
      skip_spaces (c);
    }
  return TRUE;
}

static void
parse_cfq (Cursor *c, IochartSchedNote *note)
{
  static const IochartClass cfq_class[] = { IOCHART_CLASS_BE, IOCHART_CLASS_RT, IOCHART_CLASS_IDLE };
  gint64 wl;

  if (!eat (c, "set_active"))
    return;
  skip_spaces (c);
  if (!(eat (c, "wl_class:") || eat (c, "wl_prio:")) || !eat_number (c, &wl) ||
      wl >= (gint64) G_N_ELEMENTS (cfq_class))
    return;
  note->klass = cfq_class[wl];
  /* CFQ never names the level: the default one, 7 for idle as ionice shows it. */
  note->level = note->klass == IOCHART_CLASS_IDLE ? 7 : 4;
}

static inline void
parse_bfq (Cursor *c, IochartSchedNote *note)
{
  gint64 level, weight;

  /* The note follows the queue's name at once: no need to search the rest of every note. */
  if (!eat (c, "new_ioprio ") || !eat_number (c, &level) || level > 7)
    return;
  skip_spaces (c);
  if (!eat (c, "new_weight ") || !eat_number (c, &weight))
    return;
  note->level = level;
  note->has_level = TRUE;
  if (level == 7)
    {
      /* IDLE queues get level 7 too: weight 10 either way. */
      note->klass = IOCHART_CLASS_IDLE;
      note->ambiguous = TRUE;
    }
  else
    note->klass = IOCHART_CLASS_BE;
}

/* BFQ's common shape, "bfqPID[SA] word" with a pid of at most 7 digits, the queue read a word
 * at a time (parse_queue() takes a hundred instructions over it): the word's start, NULL for any
 * other shape, which parse_queue() reads as it would have anyway. */
static inline const char *
quick_bfq_queue (const char *text, const char *end, IochartSchedNote *note)
{
  const char *p = text + 3;
  guint n;
  gint32 pid = 0;

  if (end - p < 10 || memcmp (text, "bfq", 3) != 0)
    return NULL;
  n = _iochart_leading_digits8 (p);
  /* room checked: p[n + 2] is inside the note, n <= 7 */
  if (n == 0 || n == 8 || (p[n] != 'S' && p[n] != 'A') || p[n + 1] != ' ' || p[n + 2] == ' ' || p[n + 2] == '/')
    return NULL;
  for (guint i = 0; i < n; i++)
    pid = pid * 10 + (p[i] - '0');
  note->pid = pid;
  note->sync = p[n] == 'S';
  return p + n + 2;
}

/* iochart_sched_note_parse() of the note from text to end (no NUL inside); *word: where the word
 * after the queue's name starts, when the note is about a queue. */
static inline gboolean
parse_note (const char *text, const char *end, gboolean quick, IochartSchedNote *note, const char **word)
{
  Cursor c = { text, end };
  gboolean cfq;

  *note = (IochartSchedNote) { .klass = IOCHART_CLASS_UNKNOWN };
  c.p = quick ? quick_bfq_queue (text, end, note) : NULL;
  if (c.p != NULL)
    {
      *word = c.p;
      parse_bfq (&c, note);
      return TRUE;
    }
  c.p = text;
  if (eat (&c, "cfq"))
    cfq = TRUE;
  else if (eat (&c, "bfq"))
    cfq = FALSE;
  else
    return FALSE;
  /* "bfq dispatch requests", "cfq schedule dispatch": about the scheduler, not a queue */
  if (!parse_queue (&c, note))
    return FALSE;
  *word = c.p;
  if (cfq)
    parse_cfq (&c, note);
  else
    parse_bfq (&c, note);
  return TRUE;
}

gboolean
iochart_sched_note_parse (const char *text, gsize len, IochartSchedNote *note)
{
  const char *word;

  return parse_note (text, text + strnlen (text, len), TRUE, note, &word);
}

gboolean
_iochart_sched_note_parse_slow (const char *text, gsize len, IochartSchedNote *note)
{
  const char *word;

  return parse_note (text, text + strnlen (text, len), FALSE, note, &word);
}

/* Whether " allocated" is in the note (BFQ's note that names the queue of a level just seen):
 * in the common shape it is the word after the queue's name, found without a search. */
static inline gboolean
says_allocated (const char *text, const char *end, const char *word)
{
  if (end - word >= 9 && word > text && word[-1] == ' ' && memcmp (word, "allocated", 9) == 0)
    return TRUE;
  return seek (&(Cursor) { text, end }, " allocated");
}

gboolean
iochart_sched_note_track (IochartSchedNoteTracker *tracker, guint32 dev, gint32 ctx_pid,
                          const char *text, gsize len, IochartSchedNote *note)
{
  const char *end = text + strnlen (text, len), *word;

  if (!parse_note (text, end, TRUE, note, &word))
    return FALSE;
  if (ctx_pid <= 0)
    return TRUE;
  /* a slot waits (its ctx_pid is not 0) exactly when its bit in live is set: only those are
   * looked at, in the same order */
  for (guint live = tracker->live; live != 0; live &= live - 1)
    {
      guint i = __builtin_ctz (live);

      if (tracker->pending[i].ctx_pid != ctx_pid || tracker->pending[i].dev != dev)
        continue;
      /* Only the very next note of that task names the queue. */
      tracker->pending[i].ctx_pid = 0;
      tracker->live &= ~(1u << i);
      if (note->pid > 0 && note->klass == IOCHART_CLASS_UNKNOWN && says_allocated (text, end, word))
        {
          IochartSchedNote *p = &tracker->pending[i].note;

          note->klass = p->klass;
          note->level = p->level;
          note->has_level = p->has_level;
          note->ambiguous = p->ambiguous;
        }
      break;
    }
  if (note->pid == 0 && note->has_level)
    {
      guint slot = tracker->next++ % G_N_ELEMENTS (tracker->pending);

      tracker->pending[slot].dev = dev;
      tracker->pending[slot].ctx_pid = ctx_pid;
      tracker->pending[slot].note = *note;
      tracker->live |= 1u << slot;
    }
  return TRUE;
}

/* The exact test, for the notes the quick one leaves open (shared queues, cgroup paths). */
static gboolean
queue_then_word_tells (const char *text, gsize len)
{
  Cursor c = { text, text + len };
  IochartSchedNote queue;

  if (!(eat (&c, "bfq") || eat (&c, "cfq")) || !parse_queue (&c, &queue))
    return FALSE;
  return eat (&c, "new_ioprio") || eat (&c, "set_active");
}

/* Whether the word at p is one of the two that tell a class. */
static inline gboolean
word_tells (const char *p, const char *end)
{
  return end - p >= 10 && (_iochart_same10 (p, "new_ioprio") || _iochart_same10 (p, "set_active"));
}

/* The whole test, for what the header's quick one leaves open: a task that may be naming the
 * queue of a level just seen, a shared queue, a cgroup path, a short note or an odd shape. */
gboolean
_iochart_sched_note_may_tell_class_slow (const IochartSchedNoteTracker *tracker, guint32 dev, gint32 ctx_pid,
                                         const char *text, gsize len)
{
  const char *p, *end;

  if (ctx_pid > 0 && tracker->live != 0)
    for (guint i = 0; i < G_N_ELEMENTS (tracker->pending); i++)
      if (tracker->pending[i].ctx_pid == ctx_pid && tracker->pending[i].dev == dev)
        return TRUE;
  if (len < 4 || text[1] != 'f' || text[2] != 'q' || (text[0] != 'b' && text[0] != 'c'))
    return FALSE;
  p = text + 3;
  end = text + len;
  if (*p == 'S')
    return queue_then_word_tells (text, len);   /* "SHARED-" */
  if (end - p >= 8)
    {
      guint n = _iochart_leading_digits8 (p);

      /* the common shape, "PID[SA] word": straight to the word (what the loops below would find) */
      if (n < 8 && (p[n] == 'S' || p[n] == 'A') && end - p > n + 2 && p[n + 1] == ' ' &&
          p[n + 2] != ' ' && p[n + 2] != '/')
        return word_tells (p + n + 2, end);
      p += n;
    }
  while (p < end && g_ascii_isdigit (*p))
    p++;
  while (p < end && (*p == 'S' || *p == 'A' || *p == 'N'))
    p++;
  while (p < end && *p == ' ')
    p++;
  if (p < end && *p == '/')
    return queue_then_word_tells (text, len);
  return word_tells (p, end);
}
