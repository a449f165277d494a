/* iochart-blk-text-reader.c: the text of the ftrace `blk` tracer
 *
 *   find-25859 [001] d..1.  1470.236581:   7,0    Q  RM 69896 + 8 [find]
 *   find-25859 [001] d..1.  1470.236608:   7,0   1,0  m   N bfq25859S add_request 1
 *
 * The ftrace head (task-pid, CPU, flags, time), then what the kernel's blk tracer prints: the
 * device, a cgroup id ("INO,GEN" in hex) when the record carries one, the action, RWBS and the
 * action's own fields, as blkparse prints them. Both names on a line come from the kernel's
 * saved-cmdlines cache and may be "<...>".
 */
#include "iochart-text-private.h"

typedef enum { LINE_SKIP, LINE_GOOD, LINE_BAD } LineResult;

/* The part after "SECONDS:": "7,0 [CGID] ACTION RWBS ...". */
static gboolean
blk_body (IochartBuilder *b, const IochartFtraceHead *h, const char *end, gboolean feed)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  const char *p = h->rest, *tok, *tok_end, *rwbs, *rwbs_end;
  int act;

  if (!_iochart_parse_dev (&p, end, &ev.dev) || p >= end || *p != ' ')
    return FALSE;
  tok = _iochart_skip_spaces (p, end);
  tok_end = _iochart_skip_token (tok, end);
  /* a cgroup id: hexadecimal "ino,gen" */
  if (memchr (tok, ',', tok_end - tok) != NULL)
    {
      tok = _iochart_skip_spaces (tok_end, end);
      tok_end = _iochart_skip_token (tok, end);
    }
  act = _iochart_text_action (tok, tok_end - tok);
  if (act == IOCHART_TEXT_ACT_BAD)
    return FALSE;
  rwbs = _iochart_skip_spaces (tok_end, end);
  rwbs_end = _iochart_skip_token (rwbs, end);
  if (!_iochart_is_rwbs (rwbs, rwbs_end - rwbs))
    return FALSE;
  if (!feed)
    return TRUE;
  ev.ts_ns = h->ts_ns;
  ev.pid = h->pid;
  p = _iochart_skip_spaces (rwbs_end, end);
  return _iochart_blk_feed (b, act, &ev, rwbs, rwbs_end - rwbs, p, end);
}

static LineResult
blk_line (IochartBuilder *b, const char *line, const char *end)
{
  IochartFtraceHead h;

  line = _iochart_skip_spaces (line, end);
  if (line == end || *line == '#')
    return LINE_SKIP;
  if (!_iochart_ftrace_head (line, end, &h))
    return _iochart_has_prefix (line, end, "CPU", 3) ? LINE_SKIP : LINE_BAD;
  return blk_body (b, &h, end, TRUE) ? LINE_GOOD : LINE_BAD;
}

gboolean
_iochart_blk_text_sniff (const IochartText *text)
{
  IochartLines l;
  const char *line, *end;
  IochartFtraceHead h;
  guint good = 0, bad = 0;
  gboolean header = FALSE;

  _iochart_lines_init (&l, text);
  while (good + bad < 32 && l.line_no < 256 && _iochart_lines_next (&l, &line, &end))
    {
      /* With its blk_classic option the blk tracer prints blkparse's columns under the same
       * header: the lines decide. */
      if (l.line_no == 1 && _iochart_has_prefix (line, end, "# tracer: blk", 13))
        header = TRUE;
      line = _iochart_skip_spaces (line, end);
      if (line == end || *line == '#')
        continue;
      if (_iochart_ftrace_head (line, end, &h) && blk_body (NULL, &h, end, FALSE))
        good++;
      else
        bad++;
    }
  return good > 0 ? good >= bad : header && bad == 0;
}

gboolean
_iochart_blk_text_read (IochartBuilder *b, const IochartText *text, GError **error)
{
  IochartLines l;
  const char *line, *end;

  _iochart_lines_init (&l, text);
  while (_iochart_lines_next (&l, &line, &end))
    {
      _iochart_lines_progress (&l, b);
      switch (blk_line (b, line, end))
        {
        case LINE_GOOD: l.good++; break;
        case LINE_BAD: _iochart_lines_bad (&l); break;
        case LINE_SKIP: break;
        }
    }
  return _iochart_lines_finish (&l, b, "blk tracer", error);
}
