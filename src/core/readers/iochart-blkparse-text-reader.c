/* iochart-blkparse-text-reader.c: blkparse's default output
 *
 *   7,0    1        2     0.000000000 25859  Q  RM 69896 + 8 [find]
 *   DEV    CPU      SEQ   SECONDS     PID    ACT RWBS  ...
 *
 * The blk tracer's `blk_classic` option prints the same without SEQ, with absolute times and a
 * "# tracer: blk" header: both are read. blkparse's times are seconds since the first event. blkparse ends with summary blocks ("CPU0 (loop0):", "Total
 * (loop0):", "Throughput ...", "Events ...", "Skips ..."), skipped without counting them bad.
 */
#include "iochart-text-private.h"

typedef enum { LINE_SKIP, LINE_GOOD, LINE_BAD } LineResult;

static gboolean
blkparse_body (IochartBuilder *b, const char *p, const char *end, gboolean feed)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  const char *tok, *rwbs, *rwbs_end;
  guint64 cpu, seq, pid;
  int act;

  p = _iochart_skip_spaces (p, end);
  if (!_iochart_parse_dev (&p, end, &ev.dev))
    return FALSE;
  p = _iochart_skip_spaces (p, end);
  if (!_iochart_parse_u64 (&p, end, &cpu))
    return FALSE;
  p = _iochart_skip_spaces (p, end);
  /* the sequence number, unless this is the time already */
  tok = p;
  if (!_iochart_parse_u64 (&tok, end, &seq))
    return FALSE;
  if (tok < end && *tok != '.')
    p = _iochart_skip_spaces (tok, end);
  if (!_iochart_parse_seconds (&p, end, &ev.ts_ns))
    return FALSE;
  p = _iochart_skip_spaces (p, end);
  if (!_iochart_parse_u64 (&p, end, &pid) || pid > G_MAXINT32)
    return FALSE;
  ev.pid = (gint32) pid;
  tok = _iochart_skip_spaces (p, end);
  p = _iochart_skip_token (tok, end);
  act = _iochart_text_action (tok, p - tok);
  if (act == IOCHART_TEXT_ACT_BAD)
    return FALSE;
  rwbs = _iochart_skip_spaces (p, end);
  rwbs_end = _iochart_skip_token (rwbs, end);
  if (!_iochart_is_rwbs (rwbs, rwbs_end - rwbs))
    return FALSE;
  if (!feed)
    return TRUE;
  return _iochart_blk_feed (b, act, &ev, rwbs, rwbs_end - rwbs, _iochart_skip_spaces (rwbs_end, end), end);
}

/* The first line of blkparse's summary: "CPU0 (loop0):" or "Total (loop0):". */
static gboolean
is_summary_start (const char *line, const char *end)
{
  const char *p = line;

  if (_iochart_has_prefix (p, end, "Total (", 7))
    return TRUE;
  if (!_iochart_has_prefix (p, end, "CPU", 3))
    return FALSE;
  p += 3;
  while (p < end && _iochart_is_digit (*p))
    p++;
  return p > line + 3 && _iochart_has_prefix (p, end, " (", 2);
}

gboolean
_iochart_blkparse_text_sniff (const IochartText *text)
{
  IochartLines l;
  const char *line, *end;
  guint good = 0, bad = 0;

  _iochart_lines_init (&l, text);
  while (good + bad < 32 && l.line_no < 256 && _iochart_lines_next (&l, &line, &end))
    {
      const char *p = _iochart_skip_spaces (line, end);

      if (p == end || *p == '#')
        continue;
      if (is_summary_start (line, end))
        break;
      if (blkparse_body (NULL, line, end, FALSE))
        good++;
      else
        bad++;
    }
  return good > 0 && good >= bad;
}

gboolean
_iochart_blkparse_text_read (IochartBuilder *b, const IochartText *text, GError **error)
{
  IochartLines l;
  const char *line, *end;
  gboolean summary = FALSE;

  _iochart_lines_init (&l, text);
  while (_iochart_lines_next (&l, &line, &end))
    {
      const char *p = _iochart_skip_spaces (line, end);

      _iochart_lines_progress (&l, b);
      if (p == end || *p == '#')
        continue;
      if (blkparse_body (b, line, end, TRUE))
        l.good++;
      else if (summary || (summary = is_summary_start (line, end)))
        continue;
      else
        _iochart_lines_bad (&l);
    }
  return _iochart_lines_finish (&l, b, "blkparse", error);
}
