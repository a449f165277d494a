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

static void
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

gboolean
iochart_sched_note_parse (const char *text, gsize len, IochartSchedNote *note)
{
  Cursor c = { text, text + strnlen (text, len) };
  gboolean cfq;

  *note = (IochartSchedNote) { .klass = IOCHART_CLASS_UNKNOWN };
  if (eat (&c, "cfq"))
    cfq = TRUE;
  else if (eat (&c, "bfq"))
    cfq = FALSE;
  else
    return FALSE;
  /* "bfq dispatch requests", "cfq schedule dispatch": about the scheduler, not a queue */
  if (!parse_queue (&c, note))
    return FALSE;
  if (cfq)
    parse_cfq (&c, note);
  else
    parse_bfq (&c, note);
  return TRUE;
}

gboolean
iochart_sched_note_track (IochartSchedNoteTracker *tracker, guint32 dev, gint32 ctx_pid,
                          const char *text, gsize len, IochartSchedNote *note)
{
  if (!iochart_sched_note_parse (text, len, note))
    return FALSE;
  if (ctx_pid <= 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (tracker->pending); i++)
    {
      if (tracker->pending[i].ctx_pid != ctx_pid || tracker->pending[i].dev != dev)
        continue;
      /* Only the very next note of that task names the queue. */
      tracker->pending[i].ctx_pid = 0;
      tracker->live &= ~(1u << i);
      if (note->pid > 0 && note->klass == IOCHART_CLASS_UNKNOWN &&
          seek (&(Cursor) { text, text + strnlen (text, len) }, " allocated"))
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
