/* test-lane-order.c: the lanes' order (first I/O, bytes, time stolen), an expanded lane's processes
 * kept together and capped, and the text a lane's figures are copied as. Captures are made through
 * the builder, or the shipped ionice-bfq.dat sample. */
#include "iochart-capture-private.h"
#include "iochart-loader.h"
#include "analysis/iochart-lanes.h"
#include "analysis/iochart-steal.h"
#include "analysis/iochart-summary.h"

#define MS 1000000

static void
request (IochartBuilder *b, gint32 pid, const char *comm, gint64 t, gint64 dur, guint64 s, guint32 bytes,
         IochartClass klass)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;

  ev.dev = IOCHART_DEV_MAKE (8, 0);
  ev.sector = s;
  ev.nr_sector = bytes / 512;
  ev.bytes = bytes;
  ev.op = IOCHART_OP_READ;
  ev.pid = pid;
  ev.comm = comm;
  ev.comm_len = strlen (comm);
  ev.ioprio = IOCHART_IOPRIO_MAKE (klass, 4);
  ev.ts_ns = t;
  _iochart_builder_block (b, IOCHART_BLOCK_INSERT, &ev);
  ev.ts_ns = t + 1;
  _iochart_builder_block (b, IOCHART_BLOCK_ISSUE, &ev);
  ev.comm = NULL;
  ev.ts_ns = t + dur;
  _iochart_builder_block (b, IOCHART_BLOCK_COMPLETE, &ev);
}

static IochartCapture *
load_sample (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "samples", "ionice-bfq.dat", NULL);
  const char *paths[] = { path, NULL };
  g_autoptr(GError) error = NULL;
  IochartCapture *c = iochart_load (paths, NULL, &error);

  g_assert_no_error (error);
  return c;
}

static const IochartLane *
lane (IochartLanes *lanes, guint i)
{
  return iochart_lanes_get_lane (lanes, i);
}

/* Three lanes: a (first, 4 KiB), b (second, 64 KiB), c (third, idle, 16 KiB, overlapping b's
 * requests so that it steals): each order puts them as it says. */
static void
test_orders (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  g_autoptr(IochartCapture) c = NULL;
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  const char *want[IOCHART_N_LANE_ORDERS][3] = {
    { "a[1]", "b[2]", "c[3]" }, { "b[2]", "c[3]", "a[1]" }, { "c[3]", "a[1]", "b[2]" } };

  request (b, 1, "a", 1 * MS, MS, 1000, 4096, IOCHART_CLASS_BE);
  for (int i = 0; i < 4; i++)
    {
      request (b, 2, "b", (10 + 10 * i) * MS, 8 * MS, 2000 + 64 * i, 16384, IOCHART_CLASS_BE);
      request (b, 3, "c", (11 + 10 * i) * MS, 6 * MS, 9000 + 64 * i, 4096, IOCHART_CLASS_IDLE);
    }
  c = _iochart_builder_finish (b);
  for (IochartLaneOrder order = 0; order < IOCHART_N_LANE_ORDERS; order++)
    {
      g_autoptr(IochartLanes) lanes = NULL;
      IochartLaneOrder back;

      o.order = order;
      o.group_by = IOCHART_GROUP_PID;
      lanes = iochart_lanes_new (c, &o);
      g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 3);
      for (guint i = 0; i < 3; i++)
        {
          g_assert_cmpstr (lane (lanes, i)->label, ==, want[order][i]);
          /* lane_of follows the order */
          g_assert_cmpint (iochart_lanes_lane_of_process (lanes, lane (lanes, i)->head), ==, i);
        }
      g_assert_true (iochart_lane_order_from_name (iochart_lane_order_name (order), &back));
      g_assert_cmpint (back, ==, order);
    }
}

/* On the sample: the idle process that stole most heads the first lane, bytes descend. */
static void
test_sample_orders (void)
{
  g_autoptr(IochartCapture) c = load_sample ();
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(IochartLanes) by_stolen = NULL, by_bytes = NULL;
  const IochartStealDevice *d;

  o.device = so.device = iochart_steal_pick_device (c);
  steal = iochart_steal_new (c, &so);
  d = iochart_steal_get_primary (steal);
  g_assert_cmpuint (d->idle->len, >, 0);
  o.order = IOCHART_LANE_ORDER_STOLEN;
  by_stolen = iochart_lanes_new (c, &o);
  g_assert_cmpint (iochart_lanes_lane_of_process (by_stolen, g_array_index (d->idle, IochartStealShare, 0).process),
                   ==, 0);
  o.order = IOCHART_LANE_ORDER_BYTES;
  by_bytes = iochart_lanes_new (c, &o);
  for (guint i = 1; i < iochart_lanes_get_n_lanes (by_bytes); i++)
    if (!lane (by_bytes, i)->others)
      g_assert_cmpuint (lane (by_bytes, i - 1)->bytes, >=, lane (by_bytes, i)->bytes);
}

/* A parent forks 80 short-lived children with I/O: expanded, the 64 biggest become lanes of their
 * own, together, the rest fold into "others"; --top does not cut them. */
static void
test_expand (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartLanes) folded = NULL, expanded = NULL;
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  guint32 head;
  guint n_family = 0, first = G_MAXUINT, last = 0;
  guint64 bytes = 0;

  request (b, 50, "early", 1 * MS, MS, 100, 4096, IOCHART_CLASS_BE);
  request (b, 100, "find", 2 * MS, MS, 200, 4096, IOCHART_CLASS_BE);
  for (int i = 0; i < 80; i++)
    {
      _iochart_builder_fork (b, (10 + 10 * i) * MS, 100, 1000 + i, "cat");
      request (b, 1000 + i, "cat", (11 + 10 * i) * MS, MS, 10000 + 64 * i, 4096 * (1 + i), IOCHART_CLASS_BE);
      _iochart_builder_exit (b, (12 + 10 * i) * MS, 1000 + i);
    }
  request (b, 60, "late", 900 * MS, MS, 300, 4096, IOCHART_CLASS_BE);
  c = _iochart_builder_finish (b);
  o.top_n = 2;
  folded = iochart_lanes_new (c, &o);
  g_assert_cmpstr (lane (folded, 1)->label, ==, "find[100] + 80 × cat");
  head = lane (folded, 1)->head;
  o.expand = &head;
  o.n_expand = 1;
  expanded = iochart_lanes_new (c, &o);
  for (guint i = 0; i < iochart_lanes_get_n_lanes (expanded); i++)
    {
      g_test_message ("lane %u: %s", i, lane (expanded, i)->label);
      if (lane (expanded, i)->expanded_from != head)
        continue;
      n_family++;
      first = MIN (first, i);
      last = MAX (last, i);
      bytes += lane (expanded, i)->bytes;
      g_assert_cmpuint (lane (expanded, i)->n_processes, ==, 1);
    }
  g_assert_cmpuint (n_family, ==, IOCHART_LANES_EXPAND_MAX + 1);   /* and its small head, to name it */
  g_assert_cmpuint (last - first + 1, ==, n_family);
  g_assert_cmpstr (lane (expanded, first)->label, ==, "find[100]");   /* the head first */
  /* the smallest cats folded: the family keeps the biggest */
  g_assert_cmpuint (bytes, >, lane (folded, 1)->bytes / 2);
  g_assert_true (lane (expanded, iochart_lanes_get_n_lanes (expanded) - 1)->others);
}

/* The copied text is info's lane row under the capture, the full name, device and range. */
static void
test_print_lane (void)
{
  g_autoptr(IochartCapture) c = load_sample ();
  IochartSummaryOptions so = IOCHART_SUMMARY_OPTIONS_INIT;
  g_autoptr(IochartSummary) s = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) info = g_string_new (NULL);
  const IochartSummaryLane *row;
  g_auto(GStrv) lines = NULL;

  so.device = iochart_steal_pick_device (c);
  so.top = 0;
  s = iochart_summary_new_full (c, &so);
  row = &g_array_index (s->lane_rows, IochartSummaryLane, 0);
  g_assert_true (iochart_summary_print_lane (s, row->l->head, text));
  g_test_message ("%s", text->str);
  iochart_summary_print (s, info);
  lines = g_strsplit (text->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);
  g_assert_true (g_str_has_prefix (lines[0], "ionice-bfq.dat: "));
  g_assert_nonnull (strstr (lines[0], row->l->label));
  g_assert_true (g_str_has_prefix (lines[1], "device 7,1, requests issued from 0 s to "));
  /* the header and the row are info's own lines */
  g_assert_nonnull (strstr (info->str, lines[2]));
  g_assert_nonnull (strstr (info->str, lines[3]));
  g_assert_false (iochart_summary_print_lane (s, IOCHART_NO_PROCESS, text));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lanes/order/three", test_orders);
  g_test_add_func ("/lanes/order/sample", test_sample_orders);
  g_test_add_func ("/lanes/expand", test_expand);
  g_test_add_func ("/lanes/print-lane", test_print_lane);
  return g_test_run ();
}
