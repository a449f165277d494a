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
  for (const char *q = end - n; q >= p; q--)
    if (*q == *needle && memcmp (q, needle, n) == 0)
      return q;
  return NULL;
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

/* RWBS letters: F D W R N then F A S M, at most 8 of them. */
static inline gboolean
_iochart_is_rwbs (const char *p, gsize n)
{
  if (n == 0 || n > 10)
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (strchr ("FDWRNASMEB", p[i]) == NULL || p[i] == '\0')
      return FALSE;
  return TRUE;
}

/* ---- walking lines and counting bad ones ---- */

typedef struct {
  const IochartText *text;
  const char *pos;
  guint64     line_no;       /* of the line last returned, from 1 */
  guint64     good;
  guint64     bad;
  guint64     first_bad;
  guint64     next_progress;
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
                           G_GUINT64_FORMAT ")", l->text->path, l->bad, l->bad == 1 ? "" : "s",
                           l->first_bad);
  _iochart_builder_progress (b, 1.0);
  return TRUE;
}

G_END_DECLS
