/* render-scale.c N: the chart of a synthetic N-request capture (default 5,000,000), through the
 * builder as readers feed it. Prints the time of the view (lanes, bins, steal), the drawing into
 * the display list, the SVG and PNG backends, and the SVG's size (goals: drawing well under a
 * second, SVG under 2 MB). */
#include <stdio.h>
#include <stdlib.h>
#include "iochart-capture-private.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"
#include "render/iochart-svg.h"

#define STEP_NS 10000            /* a request queued every 10 µs */

static void
event (IochartBuilder *b, IochartBlockAction action, guint64 k, gint64 ts)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  gint32 pid = 1000 + (gint32) (k % 400);      /* 400 processes, odd pids idle */

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

static double
now (void)
{
  return g_get_monotonic_time () / 1e6;
}

int
main (int argc, char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 5000000;
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("synthetic");
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartView) view = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autofree char *svg = NULL;
  gsize len;
  double t0, t1, t2, t3, t4, t5;

  t0 = now ();
  /* at step k: k queued and inserted, k-5 issued, k-20 completed: about 20 outstanding */
  for (guint64 k = 0; k < n + 20; k++)
    {
      gint64 ts = (gint64) k * STEP_NS;
      if (k < n)
        {
          event (b, IOCHART_BLOCK_QUEUE, k, ts);
          event (b, IOCHART_BLOCK_INSERT, k, ts);
        }
      if (k >= 5 && k - 5 < n)
        event (b, IOCHART_BLOCK_ISSUE, k - 5, ts);
      if (k >= 20)
        event (b, IOCHART_BLOCK_COMPLETE, k - 20, ts);
    }
  c = _iochart_builder_finish (b);
  t1 = now ();
  view = iochart_view_new (c, &vo);
  t2 = now ();
  dl = iochart_chart_draw (view, NULL);
  t3 = now ();
  svg = iochart_svg_to_string (dl, &len);
  t4 = now ();
  if (!iochart_cairo_write_png (dl, "/dev/null", NULL))
    fprintf (stderr, "png failed\n");
  t5 = now ();
  printf ("requests:            %u\n", iochart_capture_get_n_requests (c));
  printf ("build capture:       %.3f s\n", t1 - t0);
  printf ("view (lanes, bins, steal): %.3f s\n", t2 - t1);
  printf ("draw (display list): %.3f s, %u items\n", t3 - t2, iochart_display_list_get_n_items (dl));
  printf ("svg backend:         %.3f s, %.0f KB\n", t4 - t3, len / 1024.0);
  printf ("png backend:         %.3f s\n", t5 - t4);
  return 0;
}
