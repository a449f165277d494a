/* synthetic-capture.h: an N-request capture made through the builder as readers feed it, for the
 * benchmarks: 400 processes (odd pids idle), a request queued every 10 µs, about 20 outstanding. */
#pragma once

#include <string.h>
#include "iochart-capture-private.h"

#define SYNTHETIC_STEP_NS 10000

static void
synthetic_event (IochartBuilder *b, IochartBlockAction action, guint64 k, gint64 ts)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  gint32 pid = 1000 + (gint32) (k % 400);

  ev.ts_ns = ts;
  ev.dev = IOCHART_DEV_MAKE (7, 0);
  ev.sector = (k * 2654435761u) % 8000000 * 8;
  ev.nr_sector = 8 + (k % 7) * 8;
  ev.op = k % 10 == 0 ? IOCHART_OP_WRITE : IOCHART_OP_READ;
  if (action == IOCHART_BLOCK_QUEUE || action == IOCHART_BLOCK_INSERT)
    {
      ev.pid = pid;
      ev.comm = pid % 2 ? "idle-reader" : "reader";
      ev.comm_len = strlen (ev.comm);
    }
  if (action != IOCHART_BLOCK_QUEUE)
    ev.ioprio = IOCHART_IOPRIO_MAKE (pid % 2 ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE, 4);
  _iochart_builder_block (b, action, &ev);
}

static IochartCapture *
synthetic_capture (guint64 n)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("synthetic");

  /* at step k: k queued and inserted, k-5 issued, k-20 completed */
  for (guint64 k = 0; k < n + 20; k++)
    {
      gint64 ts = (gint64) k * SYNTHETIC_STEP_NS;
      if (k < n)
        {
          synthetic_event (b, IOCHART_BLOCK_QUEUE, k, ts);
          synthetic_event (b, IOCHART_BLOCK_INSERT, k, ts);
        }
      if (k >= 5 && k - 5 < n)
        synthetic_event (b, IOCHART_BLOCK_ISSUE, k - 5, ts);
      if (k >= 20)
        synthetic_event (b, IOCHART_BLOCK_COMPLETE, k - 20, ts);
    }
  return _iochart_builder_finish (b);
}
