/* Unit tests of the text readers: ftrace `trace` and `trace-cmd report` text, blk tracer text and
 * blkparse text, on small inline captures, plus the shipped samples with their expected figures. */
#include <string.h>
#include "iochart-capture-private.h"
#include "readers/iochart-text-private.h"

#define DEV_LOOP IOCHART_DEV_MAKE (7, 0)
#define DEV_VDA  IOCHART_DEV_MAKE (254, 0)

typedef gboolean (*ReadFunc) (IochartBuilder *, const IochartText *, GError **);

static IochartCapture *
read_text (ReadFunc read, const char *data, GError **error)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  IochartText text = { "x.txt", data, strlen (data) };

  if (!read (b, &text, error))
    return NULL;
  return _iochart_builder_finish (b);
}

static IochartRequest
req (IochartCapture *c, guint i)
{
  IochartRequest r;

  g_assert_cmpuint (i, <, iochart_capture_get_n_requests (c));
  iochart_capture_get_request (c, i, &r);
  return r;
}

static const IochartProcess *
proc_of (IochartCapture *c, const IochartRequest *r)
{
  g_assert_cmpuint (r->process, !=, IOCHART_NO_PROCESS);
  return iochart_capture_get_process (c, r->process);
}

static const IochartProcess *
proc_by_pid (IochartCapture *c, gint32 pid)
{
  const IochartProcess *found = NULL;

  for (guint i = 0; i < iochart_capture_get_n_processes (c); i++)
    if (iochart_capture_get_process (c, i)->pid == pid)
      found = iochart_capture_get_process (c, i);
  return found;
}

static guint32
dev_of (IochartCapture *c, const IochartRequest *r)
{
  return iochart_capture_get_device (c, r->device)->dev;
}

static guint
n_warnings (IochartCapture *c)
{
  const char * const *w = iochart_capture_get_warnings (c);

  return w ? g_strv_length ((char **) w) : 0;
}

/* ---- number parsing ---- */

static gint64
seconds (const char *s)
{
  const char *p = s;
  gint64 ns = -1;

  if (!_iochart_parse_seconds (&p, s + strlen (s), &ns))
    return -1;
  g_assert_true (p == s + strlen (s));
  return ns;
}

static void
test_numbers (void)
{
  const char *s;
  guint32 dev = 0;
  guint64 v = 0;

  /* exact, whatever the number of decimals: 2^53 + 1 ns would not survive a double */
  g_assert_cmpint (seconds ("1470.236581"), ==, G_GINT64_CONSTANT (1470236581000));
  g_assert_cmpint (seconds ("566.784731815"), ==, G_GINT64_CONSTANT (566784731815));
  g_assert_cmpint (seconds ("0.000000001"), ==, 1);
  g_assert_cmpint (seconds ("9007199.254740993"), ==, G_GINT64_CONSTANT (9007199254740993));
  g_assert_cmpint (seconds ("2.5"), ==, G_GINT64_CONSTANT (2500000000));
  g_assert_cmpint (seconds ("1.1234567890"), ==, -1);
  g_assert_cmpint (seconds ("1."), ==, -1);
  g_assert_cmpint (seconds (".5"), ==, -1);
  g_assert_cmpint (seconds ("99999999999999999999.0"), ==, -1);
  s = "254,0 ";
  g_assert_true (_iochart_parse_dev (&s, s + 6, &dev));
  g_assert_cmpuint (dev, ==, DEV_VDA);
  s = "7,";
  g_assert_false (_iochart_parse_dev (&s, s + 2, &dev));
  s = "0x00004004,";
  g_assert_true (_iochart_parse_num (&s, s + 11, &v));
  g_assert_cmpuint (v, ==, 0x4004);
  g_assert_cmpint (*s, ==, ',');
  s = "18446744073709551616";
  g_assert_false (_iochart_parse_u64 (&s, s + strlen (s), &v));
  s = "18446744073709551615";
  g_assert_true (_iochart_parse_u64 (&s, s + strlen (s), &v));
  g_assert_cmpuint (v, ==, G_MAXUINT64);
}

/* ---- ftrace text ---- */

/* The same events as the kernel's `trace` file prints them and as `trace-cmd report` does from a
 * capture taken in an instance ("inst"): names, classes and times must come out the same. */
static const char kernel_text[] =
  "# tracer: nop\n"
  "#\n"
  "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
  "#              | |         |   |||||     |         |\n"
  "            bash-99      [000] .....    10.000000: sched_process_fork: comm=bash pid=99 child_comm=bash child_pid=100\n"
  "              dd-100     [000] .....    10.000000: sched_process_exec: filename=/usr/bin/dd pid=100 old_pid=100\n"
  "              dd-100     [000] .....    10.000001: block_bio_queue: 254,0 WS 2048 + 8 [dd]\n"
  "              dd-100     [000] .....    10.000001: block_bio_queue: 254,0 WS 2056 + 8 [dd]\n"
  "              dd-100     [000] .....    10.000001: block_bio_backmerge: 254,0 WS 2056 + 8 [dd]\n"
  "              dd-100     [000] ...1.    10.000002: block_rq_insert: 254,0 WS 8192 () 2048 + 16 be,0,4 [dd]\n"
  "              dd-100     [000] .....    10.000003: block_rq_issue: 254,0 WS 8192 () 2048 + 16 be,0,4 [dd]\n"
  "          <idle>-0       [001] d.s1.    10.000500: block_rq_complete: 254,0 WS () 2048 + 16 be,0,4 [0]\n"
  "  [pango] FcInit-4142    [000] .....    10.001000: block_rq_issue: 254,0 R 4096 () 4096 + 8 idle,0,7 [[pango] FcInit]\n"
  "           <...>-4142    [001] d.s1.    10.002000: block_rq_complete: 254,0 R () 4096 + 8 idle,0,7 [-5]\n"
  "    kworker/1:1H-44      [001] .....    10.003000: block_rq_issue: 254,0 FF 0 () 0 + 0 none,0,0 [kworker/1:1H]\n"
  "     ksoftirqd/1-22      [001] ..s1.    10.003500: block_rq_complete: 254,0 FF () 18446744073709551615 + 0 none,0,0 [0]\n"
  "              dd-100     [000] .....    10.004000: sched_switch: prev_comm=dd prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
  "              dd-100     [000] .....    10.005000: sched_process_exit: comm=dd pid=100 prio=120 group_dead=true\n";

static const char report_text[] =
  "cpus=2\n"
  "inst:             bash-99    [000]    10.000000: sched_process_fork:   comm=bash pid=99 child_comm=bash child_pid=100\n"
  "inst:               dd-100   [000]    10.000000: sched_process_exec:   filename=/usr/bin/dd pid=100 old_pid=100\n"
  "inst:               dd-100   [000]    10.000001: block_bio_queue:      254,0 WS 2048 + 8 [dd]\n"
  "inst:               dd-100   [000]    10.000001: block_bio_queue:      254,0 WS 2056 + 8 [dd]\n"
  "inst:               dd-100   [000]    10.000001: block_bio_backmerge:  254,0 WS 2056 + 8 [dd]\n"
  "inst:               dd-100   [000]    10.000002: block_rq_insert:      254,0 WS 8192 () 2048 + 16 0x2,0,4 [dd]\n"
  "inst:               dd-100   [000]    10.000003: block_rq_issue:       254,0 WS 8192 () 2048 + 16 0x2,0,4 [dd]\n"
  "inst:           <idle>-0     [001]    10.000500: block_rq_complete:    254,0 WS () 2048 + 16 0x2,0,4 [0]\n"
  "inst:   [pango] FcInit-4142  [000]    10.001000: block_rq_issue:       254,0 R 4096 () 4096 + 8 0x3,0,7 [[pango] FcInit]\n"
  "inst:            <...>-4142  [001]    10.002000: block_rq_complete:    254,0 R () 4096 + 8 0x3,0,7 [-5]\n"
  "inst:     kworker/1:1H-44    [001]    10.003000: block_rq_issue:       254,0 FF 0 () 0 + 0 0x0,0,0 [kworker/1:1H]\n"
  "inst:      ksoftirqd/1-22    [001]    10.003500: block_rq_complete:    254,0 FF () 18446744073709551615 + 0 0x0,0,0 [0]\n"
  "inst:               dd-100   [000]    10.004000: sched_switch:         prev_comm=dd prev_pid=100 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
  "inst:               dd-100   [000]    10.005000: sched_process_exit:   comm=dd pid=100 prio=120 group_dead=true\n";

static void
check_ftrace_capture (IochartCapture *c)
{
  IochartRequest r;
  const IochartProcess *p;

  g_assert_cmpuint (n_warnings (c), ==, 0);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 14);
  g_assert_cmpint (iochart_capture_get_start_ns (c), ==, G_GINT64_CONSTANT (10000000000));
  g_assert_cmpint (iochart_capture_get_end_ns (c), ==, G_GINT64_CONSTANT (10005000000));
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 3);

  r = req (c, 0);
  g_assert_cmpuint (dev_of (c, &r), ==, DEV_VDA);
  g_assert_cmpuint (r.sector, ==, 2048);
  g_assert_cmpuint (r.bytes, ==, 8192);
  g_assert_cmpuint (r.op, ==, IOCHART_OP_WRITE);
  g_assert_cmpuint (r.flags, ==, IOCHART_RQ_SYNC);
  g_assert_cmpuint (r.merges, ==, 1);
  g_assert_cmpint (r.queue_ns, ==, G_GINT64_CONSTANT (10000001000));
  g_assert_cmpint (r.insert_ns, ==, G_GINT64_CONSTANT (10000002000));
  g_assert_cmpint (r.issue_ns, ==, G_GINT64_CONSTANT (10000003000));
  g_assert_cmpint (r.complete_ns, ==, G_GINT64_CONSTANT (10000500000));
  g_assert_cmpuint (r.klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpuint (r.level, ==, 4);
  g_assert_cmpuint (r.class_source, ==, IOCHART_CLASS_SOURCE_IOPRIO_FIELD);
  p = proc_of (c, &r);
  g_assert_cmpint (p->pid, ==, 100);
  g_assert_cmpstr (p->comm, ==, "dd");
  g_assert_cmpint (p->ppid, ==, 99);
  g_assert_cmpint (p->exit_ns, ==, G_GINT64_CONSTANT (10005000000));

  /* a name with spaces and brackets, an error, a completion in another context */
  r = req (c, 1);
  g_assert_cmpuint (r.klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (r.level, ==, 7);
  g_assert_cmpint (r.error, ==, -5);
  g_assert_cmpint (r.complete_ns, ==, G_GINT64_CONSTANT (10002000000));
  g_assert_cmpstr (proc_of (c, &r)->comm, ==, "[pango] FcInit");

  /* a flush: issued at sector 0, completed at all-ones */
  r = req (c, 2);
  g_assert_cmpuint (r.op, ==, IOCHART_OP_FLUSH);
  g_assert_cmpuint (r.flags, ==, IOCHART_RQ_PREFLUSH);
  g_assert_cmpuint (r.klass, ==, IOCHART_CLASS_NONE);
  g_assert_cmpint (r.complete_ns, ==, G_GINT64_CONSTANT (10003500000));
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (c), ==, 0);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_issues (c), ==, 0);
}

static void
test_ftrace_kernel_text (void)
{
  g_autoptr(GError) error = NULL;
  IochartText text = { "t", kernel_text, sizeof kernel_text - 1 };
  g_autoptr(IochartCapture) c = NULL;

  g_assert_false (_iochart_blk_text_sniff (&text));
  g_assert_false (_iochart_blkparse_text_sniff (&text));
  g_assert_true (_iochart_ftrace_text_sniff (&text));
  c = read_text (_iochart_ftrace_text_read, kernel_text, &error);
  g_assert_no_error (error);
  check_ftrace_capture (c);
}

static void
test_ftrace_report_text (void)
{
  g_autoptr(GError) error = NULL;
  IochartText text = { "t", report_text, sizeof report_text - 1 };
  g_autoptr(IochartCapture) c = NULL;

  g_assert_false (_iochart_blk_text_sniff (&text));
  g_assert_false (_iochart_blkparse_text_sniff (&text));
  g_assert_true (_iochart_ftrace_text_sniff (&text));
  c = read_text (_iochart_ftrace_text_read, report_text, &error);
  g_assert_no_error (error);
  check_ftrace_capture (c);
}

/* Kernels before 6.11 have no ioprio field: the class comes from ioprio_set and fork. Also the
 * record-tgid column, nanosecond times, trace_pipe (no header) and CRLF line ends. */
static void
test_ftrace_no_ioprio_field (void)
{
  static const char text[] =
    "          ionice-200   (    200) [001] .....  20.000000001: sys_ioprio_set(which: 1, who: 0, ioprio: 0x6007)\r\n"
    "          ionice-200   (    200) [001] .....  20.000000002: sched_process_exec: filename=/usr/bin/find pid=200 old_pid=200\r\n"
    "            find-200   (    200) [001] .....  20.000000003: sched_process_fork: comm=find pid=200 child_comm=find child_pid=201\r\n"
    "             cat-201   (    201) [000] .....  20.000000004: sched_process_exec: filename=/usr/bin/cat pid=201 old_pid=201\r\n"
    "             cat-201   (    201) [000] .....  20.000000005: block_rq_insert: 7,0 RA 4096 () 100 + 8 [cat]\r\n"
    "             cat-201   (    201) [000] .....  20.000000006: block_rq_issue: 7,0 RA 4096 () 100 + 8 [cat]\r\n"
    "          <idle>-0     (-------) [000] d.s1.  20.000000107: block_rq_complete: 7,0 RA () 100 + 8 [0]\r\n"
    "             cat-300   (    300) [000] .....  20.000000200: sys_enter_ioprio_set: which: 0x00000001, who: 0x00000000, ioprio: 0x00004002\r\n"
    "             cat-300   (    300) [000] .....  20.000000201: block_rq_issue: 7,0 R 4096 () 300 + 8 [cat]\r\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) c = read_text (_iochart_ftrace_text_read, text, &error);
  IochartRequest r;
  const IochartProcess *p;

  g_assert_no_error (error);
  g_assert_cmpuint (n_warnings (c), ==, 0);
  r = req (c, 0);
  g_assert_cmpuint (r.op, ==, IOCHART_OP_READ);
  g_assert_cmpuint (r.flags, ==, IOCHART_RQ_READAHEAD);
  g_assert_cmpint (r.issue_ns, ==, G_GINT64_CONSTANT (20000000006));
  g_assert_cmpint (r.complete_ns, ==, G_GINT64_CONSTANT (20000000107));
  g_assert_cmpuint (r.klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (r.level, ==, 7);
  g_assert_cmpuint (r.class_source, ==, IOCHART_CLASS_SOURCE_INHERITED);
  p = proc_of (c, &r);
  g_assert_cmpint (p->pid, ==, 201);
  g_assert_cmpint (p->ppid, ==, 200);
  g_assert_cmpstr (p->comm, ==, "cat");
  g_assert_cmpstr (proc_by_pid (c, 200)->comm, ==, "find");
  /* trace-cmd's form of the syscall */
  r = req (c, 1);
  g_assert_cmpuint (r.klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpuint (r.level, ==, 2);
  g_assert_cmpuint (r.class_source, ==, IOCHART_CLASS_SOURCE_IOPRIO_SET);
}

static void
test_ftrace_requeue_and_others (void)
{
  static const char text[] =
    "  kworker/0:1H-40 [000] ..... 5.000001: block_rq_issue: 254,0 W 4096 () 10 + 8 be,0,4 [kworker/0:1H]\n"
    "  kworker/0:1H-40 [000] ..... 5.000002: block_rq_requeue: 254,0 W () 10 + 8 be,0,4 [0]\n"
    "  kworker/0:1H-40 [000] ..... 5.000003: block_rq_issue: 254,0 W 4096 () 10 + 8 be,0,4 [kworker/0:1H]\n"
    "        <idle>-0  [000] d.s1. 5.000004: block_rq_complete: 254,0 W () 10 + 8 be,0,4 [0]\n"
    "         <...>-77 [000] ..... 5.000004: block_getrq: 254,0 W 30 + 8 [getter]\n"
    "            dd-9  [000] ..... 5.000005: block_plug: [dd]\n"
    "            dd-9  [000] ..... 5.000006: block_unplug: [dd] 1\n"
    "            dd-9  [000] ..... 5.000007: block_split: 254,0 W 10 / 18 [dd]\n"
    "            dd-9  [000] ..... 5.000008: block_bio_remap: 254,0 W 2058 + 8 <- (254,1) 10\n"
    "            dd-9  [000] ..... 5.000009: sys_read -> 0x0\n"
    "CPU:1 [LOST 12 EVENTS]\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) c = read_text (_iochart_ftrace_text_read, text, &error);
  const char * const *w;
  IochartRequest r;

  g_assert_no_error (error);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 1);
  r = req (c, 0);
  g_assert_cmpuint (r.requeues, ==, 1);
  g_assert_cmpuint (r.issues, ==, 2);
  g_assert_cmpint (r.complete_ns, ==, G_GINT64_CONSTANT (5000004000));
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 10);
  g_assert_cmpstr (proc_by_pid (c, 77)->comm, ==, "getter");
  w = iochart_capture_get_warnings (c);
  g_assert_cmpuint (n_warnings (c), ==, 1);
  g_assert_nonnull (strstr (w[0], "lost 12 events"));
}

static void
test_ftrace_bad_lines (void)
{
  static const char text[] =
    "# tracer: nop\n"
    "            dd-100   [000] .....    10.000001: block_bio_queue: 254,0 WS 2048 + 8 [dd]\n"
    "garbage\n"
    "            dd-100   [000] .....    10.000002: block_rq_issue: 254,0 WS 4096 () 2048 + 8 be,0,4\n"
    "            dd-100   [000] .....    10.000003: block_rq_issue: 254,0 WS 4096 () 2048 + 8 be,9,4,7 [dd]\n"
    "            dd-100   [000] .....    10.000004: block_rq_issue: 254,0 WS 4096 () 2048 + 8 be,0,4 [dd]\n"
    "            dd-100   [000] .....    10.0000";
  static const char all_bad[] = "# tracer: nop\n\nnot a trace\n  dd-1 [000] 1.0: block_rq_issue: x\n";
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) c = read_text (_iochart_ftrace_text_read, text, &error);
  g_autoptr(IochartCapture) none = NULL;

  g_assert_no_error (error);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 1);
  g_assert_cmpuint (n_warnings (c), ==, 1);
  g_assert_cmpstr (iochart_capture_get_warnings (c)[0], ==, "'x.txt': skipped 4 bad lines (first at line 3); the text ends in a cut line");

  none = read_text (_iochart_ftrace_text_read, all_bad, &error);
  g_assert_null (none);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_cmpstr (error->message, ==, "'x.txt': no valid ftrace event line (first bad line 3)");
  g_clear_error (&error);

  none = read_text (_iochart_ftrace_text_read, "# tracer: nop\n#\n", &error);
  g_assert_null (none);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY);
  g_clear_error (&error);
  none = read_text (_iochart_ftrace_text_read, "", &error);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY);
}

/* ---- blk tracer text ---- */

static const char blk_text[] =
  "# tracer: blk\n"
  "#\n"
  "            find-25859   [001] d..1.  1470.236581:   7,0    Q  RM 69896 + 8 [find]\n"
  "            find-25859   [001] d....  1470.236590:   7,0   1,0  m   N bfq [bfq_limit_depth] wr_busy 0 sync 1 depth 256\n"
  "            find-25859   [001] d..1.  1470.236595:   7,0    G  RM 69896 + 8 [find]\n"
  "            find-25859   [001] d..1.  1470.236596:   7,0    P   N [find]\n"
  "            find-25859   [001] d..1.  1470.236596:   7,0    U   N [find] 1\n"
  "            find-25859   [001] d..1.  1470.236602:   7,0   1,0  m   N bfq0A new_ioprio 4 new_weight 40\n"
  "            find-25859   [001] d..2.  1470.236607:   7,0    I  RM 69896 + 8 [find]\n"
  "            find-25859   [001] d..1.  1470.236623:   7,0    D  RM 69896 + 8 [find]\n"
  "            find-25860   [001] d.s1.  1470.236909:   7,0    C  RM 69896 + 8 [0]\n"
  "           <...>-25861   [000] d..1.  1470.237598:   7,0    Q  RA 4368 + 8 [<...>]\n"
  "           <...>-25861   [000] d..1.  1470.237599:   7,0    Q  RA 4376 + 8 [<...>]\n"
  "           <...>-25861   [000] d..1.  1470.237600:   7,0    M  RA 4376 + 8 [<...>]\n"
  "           <...>-25861   [000] d..1.  1470.237601:   7,0    X  RA 9000 / 9004 [<...>]\n"
  "           <...>-25861   [000] d..2.  1470.237640:   7,0    I  RA 4368 + 16 [<...>]\n"
  "    kworker/0:1H-44      [000] d..1.  1470.237700:   7,0    D  RA 4368 + 16 [kworker/0:1H]\n"
  "          <idle>-0       [000] d.s1.  1470.238000:   7,0    C  RA 4368 + 16 [-5]\n";

static void
test_blk_text (void)
{
  IochartText text = { "t", blk_text, sizeof blk_text - 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) c = NULL;
  IochartRequest r;

  g_assert_true (_iochart_blk_text_sniff (&text));
  g_assert_false (_iochart_blkparse_text_sniff (&text));
  c = read_text (_iochart_blk_text_read, blk_text, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_warnings (c), ==, 0);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 16);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  r = req (c, 0);
  g_assert_cmpuint (dev_of (c, &r), ==, DEV_LOOP);
  g_assert_cmpuint (r.sector, ==, 69896);
  g_assert_cmpuint (r.bytes, ==, 4096);
  g_assert_cmpuint (r.flags, ==, IOCHART_RQ_META);
  g_assert_cmpint (r.queue_ns, ==, G_GINT64_CONSTANT (1470236581000));
  g_assert_cmpint (r.complete_ns, ==, G_GINT64_CONSTANT (1470236909000));
  g_assert_cmpstr (proc_of (c, &r)->comm, ==, "find");
  g_assert_cmpint (proc_of (c, &r)->pid, ==, 25859);
  /* a merge, a request issued by a kworker: it stays with the pid that queued it */
  r = req (c, 1);
  g_assert_cmpuint (r.bytes, ==, 8192);
  g_assert_cmpuint (r.merges, ==, 1);
  g_assert_cmpint (r.error, ==, -5);
  g_assert_cmpint (proc_of (c, &r)->pid, ==, 25861);
  g_assert_null (proc_of (c, &r)->comm);
}

/* ---- blkparse text ---- */

static const char blkparse_text[] =
  "  7,0    1        2     0.000000000 25859  Q  RM 69896 + 8 [find]\n"
  "  7,0    1        4     0.000013105 25859  G  RM 69896 + 8 [find]\n"
  "  7,0    1        5     0.000014598 25859  P   N [find]\n"
  "  7,0    1        6     0.000014809 25859  U   N [find] 1\n"
  "  7,0    1        7     0.000020000 25859  m   N bfq25859S add_request 1\n"
  "  7,0    1       10     0.000025589 25859  I  RM 69896 + 8 [find]\n"
  "  7,0    1       25     0.000041159 25859  D  RM 69896 + 8 [find]\n"
  "  7,0    1       27     0.000327816 25860  C  RM 69896 + 8 [0]\n"
  "  7,0    0     2373     0.679035057 25961 UT   N [<...>] 1\n"
  "  7,0    1     1815     0.680000000 25867  X  RA 5939872 / 5942432 [<...>]\n"
  "254,0    1       30     0.690000000  9999  A   R 100 + 8 <- (7,0) 69896\n"
  "CPU0 (loop0):\n"
  " Reads Queued:         509,    68984KiB\t Writes Queued:           0,        0KiB\n"
  " Read depth:             9        \t Write depth:             0\n"
  "\n"
  "Total (loop0):\n"
  " Reads Queued:        1257,   247476KiB\t Writes Queued:           0,        0KiB\n"
  "\n"
  "Throughput (R/W): 82519KiB/s / 0KiB/s\n"
  "Events (loop0): 6607 entries\n"
  "Skips: 0 forward (0 -   0.0%)\n";

static void
test_blkparse_text (void)
{
  IochartText text = { "t", blkparse_text, sizeof blkparse_text - 1 };
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) c = NULL;
  IochartRequest r;

  g_assert_false (_iochart_blk_text_sniff (&text));
  g_assert_true (_iochart_blkparse_text_sniff (&text));
  g_assert_false (_iochart_ftrace_text_sniff (&text));
  c = read_text (_iochart_blkparse_text_read, blkparse_text, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (n_warnings (c), ==, 0);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 11);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 1);
  r = req (c, 0);
  g_assert_cmpint (r.queue_ns, ==, 0);
  g_assert_cmpint (r.issue_ns, ==, 41159);
  g_assert_cmpint (r.complete_ns, ==, 327816);
  g_assert_cmpstr (proc_of (c, &r)->comm, ==, "find");
}

/* The blk tracer's blk_classic option: blkparse's columns without the sequence number. */
static void
test_blk_classic (void)
{
  static const char text[] =
    "# tracer: blk\n"
    "#\n"
    "  7,0    1 1470.236581000 25859  Q  RM 69896 + 8 [find]\n"
    "  7,0    1 1470.236623000 25859  D  RM 69896 + 8 [find]\n"
    "  7,0    1 1470.236909000 25860  C  RM 69896 + 8 [0]\n"
    "  7,0    1 1470.2369\n";
  g_autoptr(GError) error = NULL;
  IochartText t = { "t", text, sizeof text - 1 };
  g_autoptr(IochartCapture) c = NULL;
  IochartRequest r;

  g_assert_false (_iochart_blk_text_sniff (&t));
  g_assert_true (_iochart_blkparse_text_sniff (&t));
  c = read_text (_iochart_blkparse_text_read, text, &error);
  g_assert_no_error (error);
  r = req (c, 0);
  g_assert_cmpint (r.issue_ns, ==, G_GINT64_CONSTANT (1470236623000));
  g_assert_cmpuint (n_warnings (c), ==, 1);
  g_assert_cmpstr (iochart_capture_get_warnings (c)[0], ==, "'x.txt': skipped 1 bad line (first at line 6)");
  /* a blk tracer text with no event yet is still one */
  t.data = "# tracer: blk\n#\n";
  t.len = strlen (t.data);
  g_assert_true (_iochart_blk_text_sniff (&t));
}

/* ---- the shipped samples, through the loader ---- */

typedef struct {
  guint64 requests[IOCHART_N_CLASSES];
  guint64 bytes[IOCHART_N_CLASSES];
} ClassTotals;

static IochartCapture *
load_sample (const char *name, ClassTotals *t)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT");
  g_autofree char *path = g_build_filename (root ? root : ".", "samples", name, NULL);
  const char *paths[] = { path, NULL };
  g_autoptr(GError) error = NULL;
  IochartCapture *c = iochart_load (paths, NULL, &error);

  g_assert_no_error (error);
  memset (t, 0, sizeof *t);
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r = req (c, i);

      t->requests[r.klass] += r.issues;
      t->bytes[r.klass] += (guint64) r.issues * r.bytes;
    }
  /* BFQ's level-7 notes (idle or best-effort 7) are the only warning a clean sample may give */
  for (const char * const *w = iochart_capture_get_warnings (c); *w; w++)
    g_assert_nonnull (strstr (*w, "BFQ level 7"));
  return c;
}

static void
test_sample_ftrace (void)
{
  ClassTotals t;
  g_autoptr(IochartCapture) c = load_sample ("ftrace-ionice-loop.trace", &t);

  g_assert_cmpint (iochart_detect_format (iochart_capture_get_name (c), NULL), ==, IOCHART_FORMAT_FTRACE_TEXT);
  /* three readers, ionice -c1 -n2, -c2 -n5, -c3, 24 files each; ext4's own writes are none */
  g_assert_cmpuint (t.requests[IOCHART_CLASS_RT], ==, 24);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_IDLE], ==, 24);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_BE], ==, 28);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_NONE], ==, 2);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_UNKNOWN], ==, 0);
  g_assert_cmpuint (t.bytes[IOCHART_CLASS_RT], ==, 4915200);
  g_assert_cmpuint (t.bytes[IOCHART_CLASS_IDLE], ==, 4915200);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 567);
}

static void
test_sample_blk (void)
{
  ClassTotals t;
  g_autoptr(IochartCapture) c = load_sample ("blk-ionice-loop.txt", &t);
  guint64 n = 0, bytes = 0;

  g_assert_cmpint (iochart_detect_format (iochart_capture_get_name (c), NULL), ==, IOCHART_FORMAT_BLK_TEXT);
  for (guint i = 0; i < IOCHART_N_CLASSES; i++)
    {
      n += t.requests[i];
      bytes += t.bytes[i];
    }
  g_assert_cmpuint (n, ==, 72);
  g_assert_cmpuint (bytes, ==, 14745600);
  /* BFQ's notes give the level only: the rt 2 and be 5 readers read as best effort, the idle
   * reader's level 7 is idle or be 7 and stays unknown */
  g_assert_cmpuint (t.requests[IOCHART_CLASS_BE], ==, 48);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_UNKNOWN], ==, 24);
  g_assert_cmpuint (n_warnings (c), ==, 1);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 2506);
}

static void
test_sample_report_xz (void)
{
  ClassTotals t;
  g_autoptr(IochartCapture) c = load_sample ("hdd-bfq-idle-vs-normal-5s.report.txt.xz", &t);
  guint n_loop = 0;

  g_assert_cmpint (iochart_detect_format (iochart_capture_get_name (c), NULL), ==, IOCHART_FORMAT_FTRACE_TEXT);
  /* ../shared/captures/README.md: 409 dispatches on 7,0; the disk below adds 511 */
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r = req (c, i);
      if (dev_of (c, &r) == DEV_LOOP)
        n_loop += r.issues;
    }
  g_assert_cmpuint (n_loop, ==, 409);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_BE], ==, 724);
  g_assert_cmpuint (t.requests[IOCHART_CLASS_IDLE], ==, 196);
  g_assert_cmpuint (t.bytes[IOCHART_CLASS_IDLE], ==, 10756096);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 6049);
}

/* blkparse's own summary at the end of the file: Q 647, D 409 (21736 KiB), C 408, M 238 */
static void
test_sample_blkparse (void)
{
  ClassTotals t;
  g_autoptr(IochartCapture) c = load_sample ("hdd-blktrace-5s.blkparse.txt", &t);
  guint64 queued = 0, issued = 0, completed = 0, merges = 0, bytes = 0;

  g_assert_cmpint (iochart_detect_format (iochart_capture_get_name (c), NULL), ==, IOCHART_FORMAT_BLKPARSE_TEXT);
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    {
      IochartRequest r = req (c, i);

      queued += r.queue_ns != IOCHART_TIME_UNKNOWN;
      issued += r.issues;
      bytes += (guint64) r.issues * r.bytes;
      completed += r.complete_ns != IOCHART_TIME_UNKNOWN;
      merges += r.merges;
    }
  g_assert_cmpuint (queued + merges, ==, 647);
  g_assert_cmpuint (merges, ==, 238);
  g_assert_cmpuint (issued, ==, 409);
  g_assert_cmpuint (bytes, ==, 21736 * 1024);
  g_assert_cmpuint (completed, ==, 408);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_issues (c), ==, 1);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 3316);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/text/numbers", test_numbers);
  g_test_add_func ("/text/ftrace/kernel", test_ftrace_kernel_text);
  g_test_add_func ("/text/ftrace/report", test_ftrace_report_text);
  g_test_add_func ("/text/ftrace/no-ioprio-field", test_ftrace_no_ioprio_field);
  g_test_add_func ("/text/ftrace/requeue-and-others", test_ftrace_requeue_and_others);
  g_test_add_func ("/text/ftrace/bad-lines", test_ftrace_bad_lines);
  g_test_add_func ("/text/blk", test_blk_text);
  g_test_add_func ("/text/blkparse", test_blkparse_text);
  g_test_add_func ("/text/blk-classic", test_blk_classic);
  g_test_add_func ("/text/sample/ftrace", test_sample_ftrace);
  g_test_add_func ("/text/sample/blk", test_sample_blk);
  g_test_add_func ("/text/sample/report-xz", test_sample_report_xz);
  g_test_add_func ("/text/sample/blkparse", test_sample_blkparse);
  return g_test_run ();
}
