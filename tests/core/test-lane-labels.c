/* test-lane-labels.c: lane labels a new user read wrongly (issue 9): an unnamed head, mixed
 * classes, "others" of one lane, plurals. Captures are made through the builder. */
#include "iochart-capture-private.h"
#include "analysis/iochart-lanes.h"

#define MS 1000000

/* One read of 4 KiB by pid at t ms, sector s, in the given ioprio class. */
static void
request (IochartBuilder *b, gint32 pid, const char *comm, gint64 t, guint64 s, IochartClass klass)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;

  ev.dev = IOCHART_DEV_MAKE (8, 0);
  ev.sector = s;
  ev.nr_sector = 8;
  ev.bytes = 4096;
  ev.op = IOCHART_OP_READ;
  ev.pid = pid;
  ev.comm = comm;
  ev.comm_len = comm ? strlen (comm) : 0;
  ev.ioprio = IOCHART_IOPRIO_MAKE (klass, 4);
  ev.ts_ns = t * MS;
  _iochart_builder_block (b, IOCHART_BLOCK_INSERT, &ev);
  ev.ts_ns = t * MS + 1;
  _iochart_builder_block (b, IOCHART_BLOCK_ISSUE, &ev);
  ev.comm = NULL;
  ev.ts_ns = t * MS + 2;
  _iochart_builder_block (b, IOCHART_BLOCK_COMPLETE, &ev);
}

/* A flush (no data) by pid at t ms. */
static void
flush (IochartBuilder *b, gint32 pid, const char *comm, gint64 t)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;

  ev.dev = IOCHART_DEV_MAKE (8, 0);
  ev.op = IOCHART_OP_FLUSH;
  ev.pid = pid;
  ev.comm = comm;
  ev.comm_len = strlen (comm);
  ev.ts_ns = t * MS;
  _iochart_builder_block (b, IOCHART_BLOCK_INSERT, &ev);
  ev.ts_ns = t * MS + 1;
  _iochart_builder_block (b, IOCHART_BLOCK_ISSUE, &ev);
  ev.ts_ns = t * MS + 2;
  _iochart_builder_block (b, IOCHART_BLOCK_COMPLETE, &ev);
}

static const IochartLane *
lane_named (IochartLanes *lanes, const char *prefix)
{
  for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
    if (g_str_has_prefix (iochart_lanes_get_lane (lanes, i)->label, prefix))
      return iochart_lanes_get_lane (lanes, i);
  for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
    g_test_message ("lane %u: %s", i, iochart_lanes_get_lane (lanes, i)->label);
  return NULL;
}

/* pid 100 forks three short-lived cats and is never named: its children name it */
static void
test_unnamed_head (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartLanes) lanes = NULL;
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;

  for (int i = 0; i < 3; i++)
    {
      _iochart_builder_fork (b, (10 + 10 * i) * MS, 100, 101 + i, "cat");
      request (b, 101 + i, "cat", 11 + 10 * i, 1000 + 8 * i, IOCHART_CLASS_BE);
      _iochart_builder_exit (b, (11 + 10 * i) * MS + MS / 2, 101 + i);
    }
  c = _iochart_builder_finish (b);
  lanes = iochart_lanes_new (c, &o);
  g_assert_nonnull (lane_named (lanes, "parent of cat[100] + 3 × cat"));
}

/* one name in three classes: the lane says so, not the class of most bytes alone */
static void
test_mixed_classes (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartLanes) lanes = NULL;
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  g_autofree char *text = NULL;

  request (b, 200, "cat", 10, 1000, IOCHART_CLASS_RT);
  request (b, 201, "cat", 20, 2000, IOCHART_CLASS_BE);
  request (b, 202, "cat", 30, 3000, IOCHART_CLASS_IDLE);
  c = _iochart_builder_finish (b);
  o.group_by = IOCHART_GROUP_COMM;
  lanes = iochart_lanes_new (c, &o);
  g_assert_nonnull (lane_named (lanes, "cat × 3"));
  text = iochart_lane_class_text (lane_named (lanes, "cat × 3"));
  g_assert_cmpstr (text, ==, "rt+be+idle");
}

/* a flush-only lane alone would fold: "others: 1 lanes" hides a name and saves no room; under
 * --top 1 three lanes fold, and the label counts them right */
static void
test_others (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartLanes) three = NULL, four = NULL;
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;

  request (b, 300, "a", 10, 1000, IOCHART_CLASS_BE);
  request (b, 300, "a", 11, 1100, IOCHART_CLASS_BE);
  request (b, 300, "a", 12, 1200, IOCHART_CLASS_BE);
  request (b, 301, "b", 20, 2000, IOCHART_CLASS_BE);
  request (b, 301, "b", 21, 2100, IOCHART_CLASS_BE);
  request (b, 302, "c", 30, 3000, IOCHART_CLASS_BE);
  flush (b, 303, "jbd2", 40);
  c = _iochart_builder_finish (b);
  o.group_by = IOCHART_GROUP_PID;
  o.top_n = 3;
  three = iochart_lanes_new (c, &o);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (three), ==, 4);
  g_assert_null (lane_named (three, "others"));
  g_assert_nonnull (lane_named (three, "jbd2[303]"));
  o.top_n = 1;
  four = iochart_lanes_new (c, &o);
  g_assert_nonnull (lane_named (four, "others: 3 lanes, 3 processes"));
}

/* a tree with no fork events groups by name and class: one lane for each pair, whatever the
 * names hold ("/" too) and however their processes interleave */
static void
test_name_and_class (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("test");
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartLanes) lanes = NULL;
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  struct { const char *comm; IochartClass klass; guint n_processes; } want[] = {
    { "cat", IOCHART_CLASS_BE, 2 }, { "cat", IOCHART_CLASS_IDLE, 1 }, { "kworker/1:0", IOCHART_CLASS_BE, 2 },
    { "kworker/1", IOCHART_CLASS_BE, 1 },
  };
  guint found = 0;

  request (b, 400, "cat", 10, 1000, IOCHART_CLASS_BE);
  request (b, 401, "kworker/1:0", 11, 1100, IOCHART_CLASS_BE);
  request (b, 402, "cat", 12, 1200, IOCHART_CLASS_IDLE);
  request (b, 403, "cat", 13, 1300, IOCHART_CLASS_BE);
  request (b, 404, "kworker/1", 14, 1400, IOCHART_CLASS_BE);
  request (b, 405, "kworker/1:0", 15, 1500, IOCHART_CLASS_BE);
  c = _iochart_builder_finish (b);
  o.top_n = 0;
  lanes = iochart_lanes_new (c, &o);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
    {
      const IochartLane *l = iochart_lanes_get_lane (lanes, i);
      const char *comm = iochart_capture_get_process (c, l->head)->comm;

      for (guint w = 0; w < G_N_ELEMENTS (want); w++)
        if (g_strcmp0 (comm, want[w].comm) == 0 && l->klass == want[w].klass)
          {
            g_assert_cmpuint (l->n_processes, ==, want[w].n_processes);
            g_assert_cmpuint (l->class_mask, ==, 1u << want[w].klass);
            found |= 1u << w;
          }
    }
  g_assert_cmpuint (found, ==, (1u << G_N_ELEMENTS (want)) - 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lanes/label/unnamed-head", test_unnamed_head);
  g_test_add_func ("/lanes/label/mixed-classes", test_mixed_classes);
  g_test_add_func ("/lanes/label/others", test_others);
  g_test_add_func ("/lanes/label/name-and-class", test_name_and_class);
  return g_test_run ();
}
