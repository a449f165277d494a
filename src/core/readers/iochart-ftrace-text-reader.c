/* iochart-ftrace-text-reader.c: the tracefs `trace`/`trace_pipe` text and `trace-cmd report` text
 *
 * Both print one event a line after the same head (see IochartFtraceHead); trace-cmd report adds
 * a `cpus=N` line, the instance buffer's name before each line, and prints the ioprio class as a
 * number ("0x2,0,4") where the kernel prints its name ("be,0,4"). Event bodies follow the
 * kernel's print formats; each is parsed from both ends because task names may hold spaces and
 * brackets. The task name of the head comes from the saved-cmdlines cache, read when the text was
 * printed: the event's own comm field is what the builder is given.
 */
#include "iochart-text-private.h"

typedef enum {
  KIND_RQ,          /* dev rwbs bytes (cmd) sector + nr [ioprio] [comm] */
  KIND_RQ_DONE,     /* dev rwbs (cmd) sector + nr [ioprio] [error] */
  KIND_BIO,         /* dev rwbs sector + nr [comm] */
  KIND_FORK,
  KIND_EXEC,
  KIND_EXIT,
  KIND_IOPRIO_SET,
  KIND_SWITCH,
  KIND_WAKEUP,
  KIND_OTHER,
} EventKind;

typedef struct {
  const char *name;
  gsize       len;
  EventKind   kind;
  int         action;
} EventInfo;

#define EV(name, kind, action) { name, sizeof name - 1, kind, action }

static const EventInfo events[] = {
  EV ("block_rq_issue", KIND_RQ, IOCHART_BLOCK_ISSUE),
  EV ("block_rq_insert", KIND_RQ, IOCHART_BLOCK_INSERT),
  EV ("block_rq_merge", KIND_RQ, IOCHART_BLOCK_RQ_MERGE),
  EV ("block_rq_complete", KIND_RQ_DONE, IOCHART_BLOCK_COMPLETE),
  EV ("block_rq_requeue", KIND_RQ_DONE, IOCHART_BLOCK_REQUEUE),
  EV ("block_bio_queue", KIND_BIO, IOCHART_BLOCK_QUEUE),
  EV ("block_bio_backmerge", KIND_BIO, IOCHART_BLOCK_BACKMERGE),
  EV ("block_bio_frontmerge", KIND_BIO, IOCHART_BLOCK_FRONTMERGE),
  EV ("block_getrq", KIND_BIO, IOCHART_BLOCK_GETRQ),
  EV ("block_bio_bounce", KIND_BIO, IOCHART_BLOCK_BOUNCE),
  EV ("sched_process_fork", KIND_FORK, 0),
  EV ("sched_process_exec", KIND_EXEC, 0),
  EV ("sched_process_exit", KIND_EXIT, 0),
  EV ("sched_switch", KIND_SWITCH, 0),
  EV ("sched_wakeup", KIND_WAKEUP, 0),
  EV ("sched_wakeup_new", KIND_WAKEUP, 0),
  EV ("sys_enter_ioprio_set", KIND_IOPRIO_SET, 0),
  EV ("sys_ioprio_set", KIND_IOPRIO_SET, 0),     /* the kernel's own print of syscall entries */
};

typedef enum { LINE_SKIP, LINE_GOOD, LINE_BAD } LineResult;

static const EventInfo *
event_lookup (const char *name, gsize n)
{
  static const EventInfo other = { NULL, 0, KIND_OTHER, 0 };

  /* Most lines are block events: one compare rules the rest out quickly. */
  if (!(n > 6 && memcmp (name, "block_", 6) == 0) && !(n > 6 && memcmp (name, "sched_", 6) == 0) &&
      !(n > 4 && memcmp (name, "sys_", 4) == 0))
    return &other;
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    if (events[i].len == n && memcmp (events[i].name, name, n) == 0)
      return &events[i];
  return &other;
}

/* "be,0,4" (kernel), "0x2,0,4" (trace-cmd report): class, hint, level. */
static gboolean
parse_ioprio (const char *p, const char *end, gint32 *ioprio)
{
  static const char *const names[] = { "none", "rt", "be", "idle", "invalid" };
  const char *comma = memchr (p, ',', end - p);
  guint64 klass = G_MAXUINT64, hint, level;

  if (comma == NULL)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if ((gsize) (comma - p) == strlen (names[i]) && memcmp (p, names[i], comma - p) == 0)
      klass = i;
  if (klass == G_MAXUINT64 && (!_iochart_parse_num (&p, comma, &klass) || p != comma || klass > 7))
    return FALSE;
  p = comma + 1;
  if (!_iochart_parse_num (&p, end, &hint) || hint > 0x3ff || p >= end || *p != ',')
    return FALSE;
  p++;
  if (!_iochart_parse_num (&p, end, &level) || p != end || level > 7)
    return FALSE;
  *ioprio = (gint32) (klass << 13 | hint << 3 | level);
  return TRUE;
}

/* The block events of the rq and bio families; see EventKind for their shapes. */
static gboolean
block_line (IochartBuilder *b, const EventInfo *info, const IochartFtraceHead *h, const char *p,
            const char *end)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  const char *rwbs, *rwbs_end, *open, *q;
  guint32 bytes;
  IochartOp op;

  ev.ts_ns = h->ts_ns;
  ev.pid = h->pid;
  end = _iochart_trim_end (p, end);
  if (!_iochart_parse_dev (&p, end, &ev.dev))
    return FALSE;
  rwbs = _iochart_skip_spaces (p, end);
  rwbs_end = _iochart_skip_token (rwbs, end);
  p = _iochart_skip_spaces (rwbs_end, end);
  if (info->kind == KIND_RQ)
    {
      if (!_iochart_parse_u32 (&p, end, &bytes))
        return FALSE;
      ev.bytes = bytes;
      p = _iochart_skip_spaces (p, end);
    }
  if (info->kind != KIND_BIO)
    {
      /* the command of passthrough requests, "()" for all others: no parenthesis inside */
      if (p >= end || *p != '(' || (q = memchr (p, ')', end - p)) == NULL)
        return FALSE;
      p = _iochart_skip_spaces (q + 1, end);
    }
  if (!_iochart_parse_u64 (&p, end, &ev.sector))
    return FALSE;
  p = _iochart_skip_spaces (p, end);
  if (p >= end || *p != '+')
    return FALSE;
  p = _iochart_skip_spaces (p + 1, end);
  if (!_iochart_parse_u32 (&p, end, &ev.nr_sector))
    return FALSE;
  p = _iochart_skip_spaces (p, end);
  if (p < end && *p != '[')
    {
      /* the ioprio field, since Linux 6.11 or so */
      q = _iochart_skip_token (p, end);
      if (info->kind == KIND_BIO || !parse_ioprio (p, q, &ev.ioprio))
        return FALSE;
      p = _iochart_skip_spaces (q, end);
    }
  if (p >= end || *p != '[' || end[-1] != ']' || end - p < 2)
    return FALSE;
  open = p + 1;
  if (info->kind == KIND_RQ_DONE)
    {
      q = open;
      if (!_iochart_parse_i32 (&q, end - 1, &ev.error) || q != end - 1)
        return FALSE;
    }
  else
    {
      ev.comm = open;
      ev.comm_len = end - 1 - open;
    }
  iochart_rwbs_parse (rwbs, rwbs_end - rwbs, &op, &ev.flags);
  ev.op = op;
  _iochart_builder_block (b, info->action, &ev);
  return TRUE;
}

/* The value of " KEY=" found last in [p, end): digits up to the next space or the end. */
static gboolean
field_pid (const char *p, const char *end, const char *key, gsize key_len, const char **at,
           gint32 *pid)
{
  const char *k = _iochart_rfind (p, end, key, key_len);
  const char *q;
  guint64 v;

  if (k == NULL)
    return FALSE;
  q = k + key_len;
  if (!_iochart_parse_u64 (&q, end, &v) || v > G_MAXINT32 || (q < end && *q != ' '))
    return FALSE;
  *pid = (gint32) v;
  *at = k;
  return TRUE;
}

/* Copies [p, end) into buf as a C string, cut to fit. */
static const char *
cstr (char *buf, gsize size, const char *p, const char *end)
{
  gsize n = MIN ((gsize) (end - p), size - 1);

  memcpy (buf, p, n);
  buf[n] = '\0';
  return buf;
}

/* "comm=run2.sh pid=27779 child_comm=run2.sh child_pid=27818" */
static gboolean
fork_line (IochartBuilder *b, const IochartFtraceHead *h, const char *p, const char *end)
{
  const char *cp, *cc, *pp;
  gint32 child, parent;
  char child_comm[64];

  end = _iochart_trim_end (p, end);
  if (!_iochart_has_prefix (p, end, "comm=", 5) ||
      !field_pid (p, end, " child_pid=", 11, &cp, &child) ||
      (cc = _iochart_rfind (p, cp, " child_comm=", 12)) == NULL ||
      !field_pid (p, cc, " pid=", 5, &pp, &parent))
    return FALSE;
  _iochart_builder_comm (b, h->ts_ns, parent, p + 5, pp - p - 5);
  _iochart_builder_fork (b, h->ts_ns, parent, child, cstr (child_comm, sizeof child_comm, cc + 12, cp));
  return TRUE;
}

/* "filename=/usr/bin/time pid=27819 old_pid=27819" */
static gboolean
exec_line (IochartBuilder *b, const IochartFtraceHead *h, const char *p, const char *end)
{
  const char *op, *pp, *base;
  gint32 pid, old_pid;
  char name[256];

  end = _iochart_trim_end (p, end);
  if (!_iochart_has_prefix (p, end, "filename=", 9) ||
      !field_pid (p, end, " old_pid=", 9, &op, &old_pid) ||
      !field_pid (p, op, " pid=", 5, &pp, &pid))
    return FALSE;
  /* The builder keeps the base name only: a long path need not fit. */
  base = _iochart_rfind (p + 9, pp, "/", 1);
  base = base ? base + 1 : p + 9;
  _iochart_builder_exec (b, h->ts_ns, pid, cstr (name, sizeof name, base, pp));
  return TRUE;
}

/* "comm=cat pid=27824 prio=120 group_dead=true" (group_dead since Linux 6.16) */
static gboolean
exit_line (IochartBuilder *b, const IochartFtraceHead *h, const char *p, const char *end)
{
  const char *prio, *pp;
  gint32 pid;

  end = _iochart_trim_end (p, end);
  if (!_iochart_has_prefix (p, end, "comm=", 5) ||
      (prio = _iochart_rfind (p, end, " prio=", 6)) == NULL ||
      !field_pid (p, prio, " pid=", 5, &pp, &pid))
    return FALSE;
  _iochart_builder_comm (b, h->ts_ns, pid, p + 5, pp - p - 5);
  _iochart_builder_exit (b, h->ts_ns, pid);
  return TRUE;
}

/* A task in the trace-cmd form "comm:pid [prio]" ending at end: its pid. */
static gboolean
task_pid (const char *p, const char *end, gint32 *pid)
{
  const char *bracket = _iochart_rfind (p, end, " [", 2);
  const char *colon = bracket ? _iochart_rfind (p, bracket, ":", 1) : NULL;
  guint64 v;

  if (colon == NULL)
    return FALSE;
  colon++;
  if (!_iochart_parse_u64 (&colon, bracket, &v) || colon != bracket || v > G_MAXINT32)
    return FALSE;
  *pid = (gint32) v;
  return TRUE;
}

/* "R", "R+" (preempted), "D", "S", "I", "X"...: the first letter decides. */
static IochartTaskState
task_state (char c)
{
  switch (c)
    {
    case 'R': return IOCHART_TASK_RUNNABLE;
    case 'D': return IOCHART_TASK_UNINTERRUPTIBLE;
    case 'X': case 'Z': return IOCHART_TASK_DEAD;
    default: return IOCHART_TASK_SLEEPING;
    }
}

/* "prev_comm=cc1 prev_pid=32646 prev_prio=130 prev_state=R+ ==> next_comm=cat next_pid=695
 * next_prio=120" (kernel) or "cc1:32646 [130] R+ ==> cat:695 [120]" (trace-cmd report) */
static gboolean
switch_line (IochartBuilder *b, const IochartFtraceHead *h, const char *p, const char *end)
{
  const char *arrow, *at, *st;
  gint32 prev, next;

  end = _iochart_trim_end (p, end);
  if ((arrow = _iochart_rfind (p, end, " ==> ", 5)) == NULL)
    return FALSE;
  if (_iochart_has_prefix (p, end, "prev_comm=", 10))
    {
      if (!field_pid (p, arrow, " prev_pid=", 10, &at, &prev) ||
          (st = _iochart_rfind (p, arrow, " prev_state=", 12)) == NULL || st + 12 >= arrow ||
          !field_pid (arrow, end, " next_pid=", 10, &at, &next))
        return FALSE;
      st += 12;
    }
  else
    {
      const char *close = _iochart_rfind (p, arrow, "] ", 2);
      if (close == NULL || !task_pid (p, close + 1, &prev) || !task_pid (arrow + 5, end, &next))
        return FALSE;
      st = close + 2;
    }
  _iochart_builder_sched_switch (b, h->ts_ns, prev, task_state (*st), next);
  return TRUE;
}

/* "comm=cat pid=695 prio=120 target_cpu=001" (kernel), "cat:695 [120] CPU:001" or with
 * "success=1 CPU:001" (trace-cmd report) */
static gboolean
wakeup_line (IochartBuilder *b, const IochartFtraceHead *h, const char *p, const char *end)
{
  const char *prio, *pp;
  gint32 pid;

  end = _iochart_trim_end (p, end);
  if (_iochart_has_prefix (p, end, "comm=", 5))
    {
      if ((prio = _iochart_rfind (p, end, " prio=", 6)) == NULL || !field_pid (p, prio, " pid=", 5, &pp, &pid))
        return FALSE;
    }
  else if (!task_pid (p, (prio = _iochart_rfind (p, end, "]", 1)) ? prio + 1 : end, &pid))
    return FALSE;
  _iochart_builder_sched_wakeup (b, h->ts_ns, pid);
  return TRUE;
}

/* "which: 0x00000001, who: 0x00000000, ioprio: 0x00004004" (trace-cmd), or the kernel's
 * "which: 1, who: 0, ioprio: 0x4005" */
static gboolean
ioprio_set_line (IochartBuilder *b, const IochartFtraceHead *h, const char *p, const char *end)
{
  static const char *const keys[] = { "which: ", "who: ", "ioprio: " };
  guint64 v[3];

  for (guint i = 0; i < 3; i++)
    {
      const char *k = _iochart_find (p, end, keys[i], strlen (keys[i]));

      if (k == NULL)
        return FALSE;
      p = k + strlen (keys[i]);
      if (!_iochart_parse_num (&p, end, &v[i]))
        return FALSE;
    }
  _iochart_builder_ioprio_set (b, h->ts_ns, h->pid, (gint32) v[0], (gint32) v[1], (guint32) v[2]);
  return TRUE;
}

/* The event name after the head: "block_rq_issue: ..." or the kernel's "sys_ioprio_set(...)". */
static gboolean
split_event (const IochartFtraceHead *h, const char *end, const char **name_end, const char **body,
             const char **body_end)
{
  const char *p = h->rest;

  while (p < end && (g_ascii_isalnum (*p) || *p == '_'))
    p++;
  if (p == h->rest || p >= end)
    return FALSE;
  *name_end = p;
  *body_end = end;
  if (*p == ':')
    *body = _iochart_skip_spaces (p + 1, end);
  else if (*p == '(')
    {
      const char *close = _iochart_rfind (p, end, ")", 1);

      *body = p + 1;
      *body_end = close ? close : end;
    }
  else if (*p == ' ')
    *body = p;    /* "sys_read -> 0x0": a syscall exit */
  else
    return FALSE;
  return TRUE;
}

static LineResult
ftrace_line (IochartBuilder *b, const char *line, const char *end, guint64 *lost)
{
  IochartFtraceHead h;
  const char *name_end, *body, *body_end;
  const EventInfo *info;
  gboolean ok = TRUE;

  line = _iochart_skip_spaces (line, end);
  if (line == end || *line == '#' || _iochart_has_prefix (line, end, "cpus=", 5))
    return LINE_SKIP;
  if (!_iochart_ftrace_head (line, end, &h))
    {
      const char *q;
      guint64 n;

      /* "CPU:1 [LOST 1234 EVENTS]" (kernel), "CPU 0 is empty" (trace-cmd report) */
      if (!_iochart_has_prefix (line, end, "CPU", 3))
        return LINE_BAD;
      if ((q = _iochart_find (line, end, "[LOST ", 6)) != NULL)
        {
          q += 6;
          if (_iochart_parse_u64 (&q, end, &n))
            *lost += n;
        }
      return LINE_SKIP;
    }
  if (!split_event (&h, end, &name_end, &body, &body_end))
    return LINE_BAD;
  info = event_lookup (h.rest, name_end - h.rest);
  switch (info->kind)
    {
    case KIND_RQ:
    case KIND_RQ_DONE:
    case KIND_BIO: ok = block_line (b, info, &h, body, body_end); break;
    case KIND_FORK: ok = fork_line (b, &h, body, body_end); break;
    case KIND_EXEC: ok = exec_line (b, &h, body, body_end); break;
    case KIND_EXIT: ok = exit_line (b, &h, body, body_end); break;
    case KIND_IOPRIO_SET: ok = ioprio_set_line (b, &h, body, body_end); break;
    case KIND_SWITCH: ok = switch_line (b, &h, body, body_end); break;
    case KIND_WAKEUP: ok = wakeup_line (b, &h, body, body_end); break;
    case KIND_OTHER: _iochart_builder_add_events (b, 1); break;
    }
  return ok ? LINE_GOOD : LINE_BAD;
}

gboolean
_iochart_ftrace_text_sniff (const IochartText *text)
{
  IochartLines l;
  const char *line, *end;
  IochartFtraceHead h;
  guint good = 0, bad = 0;

  _iochart_lines_init (&l, text);
  while (good + bad < 32 && l.line_no < 256 && _iochart_lines_next (&l, &line, &end))
    {
      const char *name_end, *body, *body_end;

      if (l.line_no == 1 && (_iochart_has_prefix (line, end, "cpus=", 5) ||
                             (_iochart_has_prefix (line, end, "# tracer: ", 10) &&
                              !_iochart_has_prefix (line, end, "# tracer: blk", 13))))
        return TRUE;
      line = _iochart_skip_spaces (line, end);
      if (line == end || *line == '#')
        continue;
      if (_iochart_ftrace_head (line, end, &h) && split_event (&h, end, &name_end, &body, &body_end) &&
          !_iochart_is_digit (*h.rest))
        good++;
      else
        bad++;
    }
  return good > 0 && good >= bad;
}

gboolean
_iochart_ftrace_text_read (IochartBuilder *b, const IochartText *text, GError **error)
{
  IochartLines l;
  const char *line, *end;
  guint64 lost = 0;

  _iochart_lines_init (&l, text);
  while (_iochart_lines_next (&l, &line, &end))
    {
      _iochart_lines_progress (&l, b);
      switch (ftrace_line (b, line, end, &lost))
        {
        case LINE_GOOD: l.good++; break;
        case LINE_BAD: _iochart_lines_bad (&l); break;
        case LINE_SKIP: break;
        }
    }
  _iochart_builder_lost_events (b, lost);
  if (lost > 0)
    _iochart_builder_warn (b, "'%s': the kernel lost %" G_GUINT64_FORMAT " events (its ring buffer "
                           "overran): requests around them may be incomplete", text->path, lost);
  return _iochart_lines_finish (&l, b, "ftrace event", error);
}
