/* fuzz-builder.c: libFuzzer target for the request builder alone, fed events in any order.
 *
 * The readers' fuzzers reach the builder only through what their formats can say, and slowly (a
 * .dat input passes libtracecmd first). Here each 16 bytes of input are one event on few devices,
 * sectors, pids and names, so that events meet the same requests in every order (queue, merge,
 * insert, issue, requeue, split, complete, and the process events around them): the builder's
 * tables and the analyses and chart of what it built must take any of them.
 */
#include "iochart-capture-private.h"
#include "../fuzz-analyse.h"

enum { RECORD = 16 };

/* What a record does beyond the block actions (IOCHART_BLOCK_OTHER is the last of those). */
enum {
  DO_FORK = IOCHART_BLOCK_OTHER + 1,
  DO_EXEC,
  DO_EXIT,
  DO_COMM,
  DO_IOPRIO_SET,
  DO_SWITCH,
  DO_WAKEUP,
  DO_HINT,
  DO_MESSAGE,
  DO_KINDS
};

static const char *const names[] = { "kworker/u8:1", "find", "cat", "DFGirl-W6-WIN-BF", "", "<...>" };
static const char *const notes[] = { "bfq1234S new_ioprio 7", "bfq99A put_queue", "cfq1234S /", "bfq0A new_ioprio 2",
                                     "bfq7S set_next_ioprio 3 class 3", "insert_request" };

static gint64
record_time (const guint8 *r, gint64 *now_ns)
{
  guint16 step = r[8] | r[9] << 8;

  /* now and then a step back, as per-CPU buffers give */
  if (step >= 0xf000)
    *now_ns -= step & 0xfff;
  else
    *now_ns += step;
  return *now_ns;
}

static void
block (IochartBuilder *b, IochartBlockAction action, const guint8 *r, gint64 ts_ns)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  const char *name = names[r[15] % G_N_ELEMENTS (names)];

  ev.ts_ns = ts_ns;
  ev.dev = (8u << 20) | (r[1] & 3);
  ev.sector = (guint64) (r[2] | r[3] << 8) * 8;
  ev.nr_sector = r[4] & 0x80 ? 0 : r[4] * 8u;
  ev.bytes = r[5] & 0x80 ? r[4] * 4096u : 0;
  ev.op = r[5] & 7;
  ev.flags = r[5] >> 3 & 0xf;
  ev.pid = r[6] % 8 + 100;
  ev.ioprio = r[7] == 0xff ? -1 : (r[7] >> 5 & 7) << 13 | (r[7] & 7);
  ev.error = r[10] & 0x80 ? -(r[10] & 0x7f) : 0;
  if (r[11] & 1)
    {
      ev.comm = name;
      ev.comm_len = r[11] >> 1 & 0x1f;
      ev.comm_len = MIN (ev.comm_len, strlen (name));
    }
  _iochart_builder_block (b, action, &ev);
}

static void
one (IochartBuilder *b, const guint8 *r, gint64 *now_ns)
{
  gint64 ts_ns = record_time (r, now_ns);
  guint kind = r[0] % DO_KINDS;
  gint32 pid = r[6] % 8 + 100, other = r[12] % 8 + 100;
  const char *name = names[r[15] % G_N_ELEMENTS (names)];

  switch (kind)
    {
    case DO_FORK: _iochart_builder_fork (b, ts_ns, pid, other, name); break;
    case DO_EXEC: _iochart_builder_exec (b, ts_ns, pid, name); break;
    case DO_EXIT: _iochart_builder_exit (b, ts_ns, pid); break;
    case DO_COMM: _iochart_builder_comm (b, ts_ns, pid, name, strlen (name)); break;
    case DO_IOPRIO_SET: _iochart_builder_ioprio_set (b, ts_ns, pid, r[13] % 4, other, r[7] << 5 | r[14]); break;
    case DO_SWITCH: _iochart_builder_sched_switch (b, ts_ns, pid, _iochart_task_state_from_kernel (r[13]), other); break;
    case DO_WAKEUP: _iochart_builder_sched_wakeup (b, ts_ns, pid); break;
    case DO_HINT:
      _iochart_builder_hint_class (b, ts_ns, pid, r[13] % (IOCHART_CLASS_IDLE + 1), r[14] & 7, r[7] % 4);
      break;
    case DO_MESSAGE:
      {
        const char *note = notes[r[13] % G_N_ELEMENTS (notes)];

        _iochart_builder_message (b, ts_ns, (8u << 20) | (r[1] & 3), pid, note, strlen (note));
      }
      break;
    default:
      block (b, kind, r, ts_ns);
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("fuzz");
  gint64 now_ns = 1000;

  for (gsize at = 0; at + RECORD <= size; at += RECORD)
    one (b, data + at, &now_ns);
  /* (records, not bytes: fuzz_finish () draws one input in 16 by this count) */
  fuzz_finish (_iochart_builder_finish (b), size / RECORD);
  return 0;
}
