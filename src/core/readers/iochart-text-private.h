/* iochart-text-private.h: line walking and number parsing shared by the text readers
 *
 * Text captures are large and read once: everything here works on [p, end) ranges of the mapped
 * text, never copies a line and never allocates. Lines are parsed from both ends because task
 * names may hold spaces and brackets ("[pango] FcInit").
 */
#pragma once

#include <string.h>
#include "iochart-readers-private.h"

G_BEGIN_DECLS

/* ---- ranges ---- */

static inline gboolean
_iochart_is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static inline const char *
_iochart_skip_spaces (const char *p, const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  return p;
}

/* Moves end back over trailing spaces (and a carriage return) of [p, end). */
static inline const char *
_iochart_trim_end (const char *p, const char *end)
{
  while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
    end--;
  return end;
}

static inline const char *
_iochart_skip_token (const char *p, const char *end)
{
  while (p < end && *p != ' ' && *p != '\t')
    p++;
  return p;
}

/* The last occurrence of needle in [p, end), or NULL. */
static inline const char *
_iochart_rfind (const char *p, const char *end, const char *needle, gsize n)
{
  if ((gsize) (end - p) < n)
    return NULL;
  for (const char *q = end - n;; q--)
    {
      if (*q == *needle && memcmp (q, needle, n) == 0)
        return q;
      if (q == p)
        return NULL;
    }
}

/* The first occurrence of needle in [p, end), or NULL. */
static inline const char *
_iochart_find (const char *p, const char *end, const char *needle, gsize n)
{
  for (const char *q = p; q + n <= end; q++)
    {
      q = memchr (q, *needle, end - q);
      if (q == NULL || q + n > end)
        return NULL;
      if (memcmp (q, needle, n) == 0)
        return q;
    }
  return NULL;
}

static inline gboolean
_iochart_has_prefix (const char *p, const char *end, const char *prefix, gsize n)
{
  return (gsize) (end - p) >= n && memcmp (p, prefix, n) == 0;
}

/* ---- numbers ---- */

/* Decimal digits at *p (at least one), no overflow; *p moves past them. */
static inline gboolean
_iochart_parse_u64 (const char **p, const char *end, guint64 *out)
{
  const char *q = *p;
  guint64 v = 0;

  if (q >= end || !_iochart_is_digit (*q))
    return FALSE;
  for (; q < end && _iochart_is_digit (*q); q++)
    {
      guint d = *q - '0';
      if (v > (G_MAXUINT64 - d) / 10)
        return FALSE;
      v = v * 10 + d;
    }
  *p = q;
  *out = v;
  return TRUE;
}

static inline gboolean
_iochart_parse_u32 (const char **p, const char *end, guint32 *out)
{
  guint64 v;

  if (!_iochart_parse_u64 (p, end, &v) || v > G_MAXUINT32)
    return FALSE;
  *out = v;
  return TRUE;
}

/* A decimal number, or a hexadecimal one when it starts with 0x ("0x00004004", "0x4005", "1"). */
static inline gboolean
_iochart_parse_num (const char **p, const char *end, guint64 *out)
{
  const char *q = *p;
  guint64 v = 0;
  gboolean any = FALSE;

  if (end - q < 2 || q[0] != '0' || (q[1] != 'x' && q[1] != 'X'))
    return _iochart_parse_u64 (p, end, out);
  for (q += 2; q < end && g_ascii_isxdigit (*q); q++, any = TRUE)
    {
      if (v >> 60)
        return FALSE;
      v = v << 4 | g_ascii_xdigit_value (*q);
    }
  if (!any)
    return FALSE;
  *p = q;
  *out = v;
  return TRUE;
}

/* "SECONDS.FRACTION" with 1 to 9 decimals, exactly, to nanoseconds. */
static inline gboolean
_iochart_parse_seconds (const char **p, const char *end, gint64 *ns)
{
  static const guint32 scale[] = { 1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000,
                                   100, 10, 1 };
  const char *q = *p, *frac;
  guint64 secs, f;

  if (!_iochart_parse_u64 (&q, end, &secs) || q >= end || *q != '.' || secs > G_MAXINT64 / 1000000000 - 1)
    return FALSE;
  frac = ++q;
  if (!_iochart_parse_u64 (&q, end, &f) || q - frac > 9)
    return FALSE;
  *ns = (gint64) secs * 1000000000 + (gint64) f * scale[q - frac];
  *p = q;
  return TRUE;
}

/* "MAJ,MIN" */
static inline gboolean
_iochart_parse_dev (const char **p, const char *end, guint32 *dev)
{
  const char *q = *p;
  guint64 maj, min;

  if (!_iochart_parse_u64 (&q, end, &maj) || q >= end || *q != ',' || maj > 0xfff)
    return FALSE;
  q++;
  if (!_iochart_parse_u64 (&q, end, &min) || min > 0xfffff)
    return FALSE;
  *dev = IOCHART_DEV_MAKE (maj, min);
  *p = q;
  return TRUE;
}

/* ---- the blktrace action letters, shared by the blk tracer text and blkparse ---- */

typedef enum {
  IOCHART_TEXT_ACT_BAD = -1,
  IOCHART_TEXT_ACT_MESSAGE = IOCHART_BLOCK_OTHER + 1,
} IochartTextAct;

/* "Q", "UT", "m", or the blk tracer's long names with its `verbose` option ("queue"). */
static inline int
_iochart_text_action (const char *p, gsize n)
{
  static const struct { const char *s; const char *l; int a; } acts[] = {
    { "Q", "queue", IOCHART_BLOCK_QUEUE }, { "M", "backmerge", IOCHART_BLOCK_BACKMERGE },
    { "F", "frontmerge", IOCHART_BLOCK_FRONTMERGE }, { "G", "getrq", IOCHART_BLOCK_GETRQ },
    { "S", "sleeprq", IOCHART_BLOCK_SLEEPRQ }, { "R", "requeue", IOCHART_BLOCK_REQUEUE },
    { "D", "issue", IOCHART_BLOCK_ISSUE }, { "C", "complete", IOCHART_BLOCK_COMPLETE },
    { "P", "plug", IOCHART_BLOCK_PLUG }, { "U", "unplug_io", IOCHART_BLOCK_UNPLUG },
    { "UT", "unplug_timer", IOCHART_BLOCK_UNPLUG }, { "I", "insert", IOCHART_BLOCK_INSERT },
    { "X", "split", IOCHART_BLOCK_SPLIT }, { "B", "bounce", IOCHART_BLOCK_BOUNCE },
    { "A", "remap", IOCHART_BLOCK_REMAP }, { "m", "message", IOCHART_TEXT_ACT_MESSAGE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (acts); i++)
    if ((strlen (acts[i].s) == n && memcmp (acts[i].s, p, n) == 0) ||
        (strlen (acts[i].l) == n && memcmp (acts[i].l, p, n) == 0))
      return acts[i].a;
  return IOCHART_TEXT_ACT_BAD;
}

/* RWBS letters: F, then D W R N (E after D), then F A S M U; B from old blktrace. */
static inline gboolean
_iochart_is_rwbs (const char *p, gsize n)
{
  if (n == 0 || n > 10)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (strchr ("FDWRNEASMUB", p[i]) == NULL || p[i] == '\0')
      return FALSE;
  return TRUE;
}

/* A signed decimal, for errors ("[-5]"). */
static inline gboolean
_iochart_parse_i32 (const char **p, const char *end, gint32 *out)
{
  const char *q = *p;
  gboolean neg = q < end && *q == '-';
  guint64 v;

  if (neg)
    q++;
  if (!_iochart_parse_u64 (&q, end, &v) || v > G_MAXINT32)
    return FALSE;
  *out = neg ? -(gint32) v : (gint32) v;
  *p = q;
  return TRUE;
}

/* ---- what follows "ACTION RWBS" in the blk tracer's text and in blkparse's ----
 *   Q M F G S I D B  "SECTOR + N [COMM]", "[COMM]", or for SCSI commands "BYTES (CDB) [COMM]"
 *   C R              "SECTOR + N [ERROR]", "SECTOR [ERROR]", "(CDB) [ERROR]"; blkparse -t adds
 *                    "(ELAPSED)" before the error (and after N on D)
 *   P  "[COMM]"   U UT  "[COMM] DEPTH"   X  "SECTOR / NEW_SECTOR [COMM]"
 *   A  "SECTOR + N <- (MAJ,MIN) FROM_SECTOR"   m  free text
 * ev->ts_ns, dev and pid are set by the caller. */
static inline gboolean
_iochart_blk_feed (IochartBuilder *b, int act, IochartBlockEvent *ev, const char *rwbs,
                   gsize rwbs_len, const char *p, const char *end)
{
  const char *open, *close;
  gboolean has_extent = FALSE;
  guint64 sector;
  IochartOp op;

  if (act == IOCHART_TEXT_ACT_MESSAGE)
    {
      _iochart_builder_message (b, ev->ts_ns, ev->dev, ev->pid, p, end - p);
      return TRUE;
    }
  iochart_rwbs_parse (rwbs, rwbs_len, &op, &ev->flags);
  ev->op = op;
  end = _iochart_trim_end (p, end);
  if (act == IOCHART_BLOCK_REMAP)
    {
      /* Only the new extent matters: the old one is the same I/O on the device above. */
      if (!_iochart_parse_u64 (&p, end, &ev->sector))
        return FALSE;
      has_extent = TRUE;
    }
  else if (_iochart_parse_u64 (&p, end, &sector))
    {
      ev->sector = sector;
      p = _iochart_skip_spaces (p, end);
      if (p < end && *p == '+')
        {
          p = _iochart_skip_spaces (p + 1, end);
          if (!_iochart_parse_u32 (&p, end, &ev->nr_sector))
            return FALSE;
          has_extent = TRUE;
        }
      else if (p < end && *p == '/' && act == IOCHART_BLOCK_SPLIT)
        {
          guint64 remainder;

          /* "SECTOR / NEW_SECTOR": the front piece ends where the remainder starts */
          p = _iochart_skip_spaces (p + 1, end);
          if (_iochart_parse_u64 (&p, end, &remainder) && remainder > sector && remainder - sector <= G_MAXUINT32)
            ev->nr_sector = (guint32) (remainder - sector);
          has_extent = TRUE;
        }
      else if (act == IOCHART_BLOCK_COMPLETE || act == IOCHART_BLOCK_REQUEUE)
        has_extent = TRUE;   /* "SECTOR [ERROR]": no sectors */
      else
        has_extent = FALSE;  /* "BYTES (CDB) [COMM]": a SCSI command, no extent */
    }
  if (act == IOCHART_BLOCK_REMAP)
    {
      _iochart_builder_block (b, act, ev);
      return TRUE;
    }
  /* The bracket at the end: the error of C and R, the task name of the others. U and UT put
   * the queue depth after it. */
  close = end;
  if (act == IOCHART_BLOCK_UNPLUG)
    close = _iochart_rfind (p, end, "]", 1);
  else if (close > p && close[-1] == ']')
    close--;
  else
    close = NULL;
  open = close ? memchr (p, '[', close - p) : NULL;
  if (open == NULL)
    return FALSE;
  if (act == IOCHART_BLOCK_COMPLETE || act == IOCHART_BLOCK_REQUEUE)
    {
      const char *q = open + 1;

      if (!_iochart_parse_i32 (&q, close, &ev->error) || q != close)
        return FALSE;
    }
  else
    {
      ev->comm = open + 1;
      ev->comm_len = close - open - 1;
    }
  if (!has_extent && act != IOCHART_BLOCK_PLUG && act != IOCHART_BLOCK_UNPLUG)
    act = IOCHART_BLOCK_OTHER;
  _iochart_builder_block (b, act, ev);
  return TRUE;
}

/* ---- the ftrace line head: "[BUFFER: ]TASK-PID [(TGID)] [CPU] [FLAGS] SECONDS: " ---- */

typedef struct {
  const char *task;          /* from the saved-cmdlines cache: may be "<...>" or out of date */
  const char *task_end;
  gint32      pid;
  gint64      ts_ns;
  const char *rest;          /* what follows "SECONDS:", spaces skipped */
} IochartFtraceHead;

/* Tries the CPU field at br ("[001]"): the task-pid must end just before it, the time follow it. */
static inline gboolean
_iochart_ftrace_head_at (const char *start, const char *br, const char *end, IochartFtraceHead *h)
{
  const char *q = br + 1, *te, *dash;
  guint64 v;

  if (!_iochart_parse_u64 (&q, end, &v) || q >= end || *q != ']')
    return FALSE;
  /* After the CPU: the kernel's flags ("d..1.") unless trace-cmd left them out, then the time. */
  q = _iochart_skip_spaces (q + 1, end);
  if (!_iochart_parse_seconds (&q, end, &h->ts_ns))
    {
      q = _iochart_skip_spaces (_iochart_skip_token (q, end), end);
      if (!_iochart_parse_seconds (&q, end, &h->ts_ns))
        return FALSE;
    }
  if (q >= end || *q != ':')
    return FALSE;
  h->rest = _iochart_skip_spaces (q + 1, end);
  /* Before it: "TASK-PID", perhaps followed by "(  TGID)" with the record-tgid option. */
  te = _iochart_trim_end (start, br);
  if (te > start && te[-1] == ')')
    {
      while (te > start && te[-1] != '(')
        te--;
      if (te == start)
        return FALSE;
      te = _iochart_trim_end (start, te - 1);
    }
  dash = te;
  while (dash > start && _iochart_is_digit (dash[-1]))
    dash--;
  if (dash == te || dash == start || dash[-1] != '-' || te - dash > 9)
    return FALSE;
  q = dash;
  _iochart_parse_u64 (&q, te, &v);
  h->pid = (gint32) v;
  h->task = start;
  h->task_end = dash - 1;
  return TRUE;
}

static inline gboolean
_iochart_ftrace_head (const char *line, const char *end, IochartFtraceHead *h)
{
  const char *p = line, *t;

  /* trace-cmd report names the instance buffer first ("ceocap:  find-123 [000] ..."); a task
   * name never starts a line, it is right-aligned in 16 columns. */
  if (p < end && *p != ' ')
    {
      t = _iochart_skip_token (p, end);
      if (t > p && t[-1] == ':' && t < end)
        p = t;
    }
  p = _iochart_skip_spaces (p, end);
  /* The CPU field is the first " [N]" that a pid ends before and a time follows: a task name
   * may hold brackets too. It comes within a few columns (a name has 15 bytes at most, a pid and
   * a tgid 7 digits each): looking further would only make garbage lines slow. */
  for (t = p; (t = _iochart_find (t, MIN (end, p + 64), " [", 2)) != NULL; t += 2)
    if (_iochart_ftrace_head_at (p, t + 1, end, h))
      return TRUE;
  return FALSE;
}

/* ---- walking lines and counting bad ones ---- */

typedef struct {
  const IochartText *text;
  const char *pos;
  guint64     line_no;       /* of the line last returned, from 1 */
  guint64     good;
  guint64     bad;
  guint64     first_bad;
  gboolean    cut;           /* the last line was bad and had no newline: a cut capture */
} IochartLines;

static inline void
_iochart_lines_init (IochartLines *l, const IochartText *text)
{
  memset (l, 0, sizeof *l);
  l->text = text;
  l->pos = text->data;
}

/* The next line without its newline (and trailing carriage return); FALSE at the end. */
static inline gboolean
_iochart_lines_next (IochartLines *l, const char **line, const char **line_end)
{
  const char *end = l->text->data + l->text->len;
  const char *nl;

  if (l->pos >= end)
    return FALSE;
  nl = memchr (l->pos, '\n', end - l->pos);
  *line = l->pos;
  *line_end = nl ? nl : end;
  l->pos = nl ? nl + 1 : end;
  if (*line_end > *line && (*line_end)[-1] == '\r')
    (*line_end)--;
  l->line_no++;
  return TRUE;
}

static inline void
_iochart_lines_bad (IochartLines *l)
{
  if (l->bad++ == 0)
    l->first_bad = l->line_no;
  l->cut = l->pos == l->text->data + l->text->len && l->text->len > 0 &&
           l->text->data[l->text->len - 1] != '\n';
}

/* Reports progress now and then: every 64k lines is cheap and smooth enough. */
static inline void
_iochart_lines_progress (IochartLines *l, IochartBuilder *b)
{
  if ((l->line_no & 0xffff) == 0 && l->text->len > 0)
    _iochart_builder_progress (b, (double) (l->pos - l->text->data) / l->text->len);
}

/* Ends a read: warns about skipped lines, or fails when not one line was good. */
static inline gboolean
_iochart_lines_finish (IochartLines *l, IochartBuilder *b, const char *what, GError **error)
{
  if (l->good == 0)
    {
      if (l->bad == 0)
        g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': no %s lines", l->text->path, what);
      else
        g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                     "'%s': no valid %s line (first bad line %" G_GUINT64_FORMAT ")",
                     l->text->path, what, l->first_bad);
      return FALSE;
    }
  if (l->bad > 0)
    _iochart_builder_warn (b, "'%s': skipped %" G_GUINT64_FORMAT " bad line%s (first at line %"
                           G_GUINT64_FORMAT ")%s", l->text->path, l->bad, l->bad == 1 ? "" : "s",
                           l->first_bad, l->cut ? "; the text ends in a cut line" : "");
  _iochart_builder_progress (b, 1.0);
  return TRUE;
}

G_END_DECLS
