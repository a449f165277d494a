/* Unit tests of the idle-steal analysis on captures made through the builder. */
#include <json-glib/json-glib.h>
#include "render-test-util.h"
#include "analysis/iochart-steal.h"
#include "analysis/iochart-bin-index.h"

static const IochartStealDevice *
only_device (IochartSteal *steal)
{
  g_assert_cmpuint (iochart_steal_get_n_devices (steal), >=, 1);
  return iochart_steal_get_primary (steal);
}

/* One request at a time: the idle request's whole service while the foreground waits. */
static void
test_serial_device (void)
{
  const TestRq rqs[] = {
    /* idle on the device 0..10 ms; the foreground request waits from 1 ms, served 10..20 ms */
    { DEV_LOOP, 1000, 8, "R", 300, "idle-reader", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg-reader", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 10 * MS, 20 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartSteal) steal = iochart_steal_new (c, NULL);
  const IochartStealDevice *d = only_device (steal);
  const IochartStealEpisode *ep;

  g_assert_cmpint (d->stolen_ns, ==, 9 * MS);
  g_assert_cmpint (d->foreground_active_ns, ==, 19 * MS);
  g_assert_cmpuint (d->n_episodes, ==, 1);
  g_assert_cmpuint (d->idle->len, ==, 1);
  g_assert_cmpint (iochart_capture_get_process (c, g_array_index (d->idle, IochartStealShare, 0).process)->pid,
                   ==, 300);
  ep = iochart_steal_get_episode (steal, 0);
  g_assert_cmpint (ep->start_ns, ==, 1 * MS);
  g_assert_cmpint (ep->end_ns, ==, 10 * MS);
  g_assert_cmpint (iochart_capture_get_process (c, ep->idle_process)->pid, ==, 300);
  g_assert_cmpuint (ep->waiting->len, ==, 1);
  g_assert_cmpint (iochart_capture_get_process (c, g_array_index (ep->waiting, guint32, 0))->pid, ==, 200);
}

/* Several slots: one idle next to one foreground request in flight takes half. */
static void
test_shared_slots (void)
{
  const TestRq rqs[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "idle", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg", IOCHART_CLASS_BE, 0, 0, 0, 10 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartSteal) steal = iochart_steal_new (c, NULL);

  g_assert_cmpint (only_device (steal)->stolen_ns, ==, 5 * MS);
  g_assert_cmpint (only_device (steal)->foreground_active_ns, ==, 10 * MS);
}

/* Idle I/O with no foreground outstanding takes nothing from anyone. */
static void
test_idle_alone (void)
{
  const TestRq rqs[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "idle", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg", IOCHART_CLASS_BE, 20 * MS, 20 * MS, 21 * MS, 30 * MS },
    /* a flush is not foreground work */
    { DEV_LOOP, 0, 0, "FWS", 201, "jbd2", IOCHART_CLASS_NONE, 2 * MS, -1, 2 * MS, 5 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartSteal) steal = iochart_steal_new (c, NULL);

  g_assert_cmpint (only_device (steal)->stolen_ns, ==, 0);
  g_assert_cmpint (only_device (steal)->foreground_active_ns, ==, 10 * MS);
  g_assert_cmpuint (iochart_steal_get_n_episodes (steal), ==, 0);
}

/* Stolen intervals closer than the gap are one episode. */
static void
test_episode_gap (void)
{
  const TestRq rqs[] = {
    { DEV_LOOP, 5000, 8, "R", 200, "fg", IOCHART_CLASS_BE, 0, 0, 30 * MS, 31 * MS },
    { DEV_LOOP, 1000, 8, "R", 300, "idle", IOCHART_CLASS_IDLE, 0, 0, 0, 2 * MS },
    { DEV_LOOP, 1100, 8, "R", 300, "idle", IOCHART_CLASS_IDLE, 7 * MS, 7 * MS, 7 * MS, 9 * MS },
    { DEV_LOOP, 1200, 8, "R", 301, "idle2", IOCHART_CLASS_IDLE, 20 * MS, 20 * MS, 20 * MS, 26 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) merged = iochart_steal_new (c, NULL);
  g_autoptr(IochartSteal) split = NULL;
  const IochartStealEpisode *ep;

  /* 0-2 and 7-9 are 5 ms apart: one episode at the default 8 ms; 20-26 is 11 ms later */
  g_assert_cmpuint (iochart_steal_get_n_episodes (merged), ==, 2);
  ep = iochart_steal_get_episode (merged, 0);
  g_assert_cmpint (ep->start_ns, ==, 0);
  g_assert_cmpint (ep->end_ns, ==, 9 * MS);
  g_assert_cmpint (ep->stolen_ns, ==, 4 * MS);
  ep = iochart_steal_get_episode (merged, 1);
  g_assert_cmpint (iochart_capture_get_process (c, ep->idle_process)->pid, ==, 301);
  g_assert_cmpint (only_device (merged)->stolen_ns, ==, 10 * MS);

  o.gap_ns = 1 * MS;
  split = iochart_steal_new (c, &o);
  g_assert_cmpuint (iochart_steal_get_n_episodes (split), ==, 3);
  g_assert_cmpint (only_device (split)->stolen_ns, ==, 10 * MS);
}

/* A loop device and the disk below each have their own figures, never a sum. */
static void
test_per_device (void)
{
  const TestRq rqs[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "idle", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg", IOCHART_CLASS_BE, 0, 0, 10 * MS, 12 * MS },
    { DEV_LOOP, 6000, 8, "R", 201, "fg2", IOCHART_CLASS_BE, 0, 0, 10 * MS, 12 * MS },
    { DEV_VDA, 1000, 8, "R", 50, "kworker", IOCHART_CLASS_IDLE, 0, 0, 0, 4 * MS },
    { DEV_VDA, 9000, 8, "R", 51, "kworker2", IOCHART_CLASS_BE, 0, 0, 4 * MS, 6 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartSteal) steal = iochart_steal_new (c, NULL);
  IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) one = NULL;
  int loop = iochart_capture_find_device (c, DEV_LOOP), vda = iochart_capture_find_device (c, DEV_VDA);

  g_assert_cmpuint (iochart_steal_get_n_devices (steal), ==, 2);
  g_assert_cmpint (iochart_steal_find_device (steal, loop)->stolen_ns, ==, 10 * MS);
  g_assert_cmpint (iochart_steal_find_device (steal, vda)->stolen_ns, ==, 4 * MS);
  /* the device where most processes issue I/O is the headline */
  g_assert_cmpint (iochart_steal_get_primary (steal)->device, ==, loop);

  o.device = vda;
  one = iochart_steal_new (c, &o);
  g_assert_cmpuint (iochart_steal_get_n_devices (one), ==, 1);
  g_assert_cmpint (iochart_steal_get_primary (one)->stolen_ns, ==, 4 * MS);
}

/* Three devices' requests interleaved in time, hundreds of each: the events sort by device, then
 * time (through the buckets and the insertion pass over all of them), and every device's sweep
 * sees its own repetitions of the serial case, 9 of 19 ms stolen each. */
static void
test_interleaved_devices (void)
{
  const guint32 devs[] = { DEV_LOOP, DEV_VDA, IOCHART_DEV_MAKE (8, 0) };
  const guint reps = 300;
  g_autofree TestRq *rqs = g_new (TestRq, G_N_ELEMENTS (devs) * reps * 2);
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  guint n = 0;

  for (guint k = 0; k < reps; k++)
    for (guint d = 0; d < G_N_ELEMENTS (devs); d++)
      {
        gint64 base = k * 40 * MS + d * 7 * MS;

        rqs[n++] = (TestRq) { devs[d], 1000 + 16 * k, 8, "R", 300 + d, "idle", IOCHART_CLASS_IDLE,
                              base, base, base, base + 10 * MS };
        rqs[n++] = (TestRq) { devs[d], 900000 + 16 * k, 8, "R", 200 + d, "fg", IOCHART_CLASS_BE,
                              base + 1 * MS, base + 1 * MS, base + 10 * MS, base + 20 * MS };
      }
  c = test_capture (rqs, n);
  steal = iochart_steal_new (c, NULL);
  g_assert_cmpuint (iochart_steal_get_n_devices (steal), ==, G_N_ELEMENTS (devs));
  for (guint d = 0; d < G_N_ELEMENTS (devs); d++)
    {
      const IochartStealDevice *sd = iochart_steal_find_device (steal, iochart_capture_find_device (c, devs[d]));

      g_assert_cmpint (sd->stolen_ns, ==, reps * 9 * MS);
      g_assert_cmpint (sd->foreground_active_ns, ==, reps * 19 * MS);
    }
}

/* A caller that says only how many requests have no class when no idle class is known (`iochart
 * info` as text) asks for no sweep: the same counts, the other figures left 0. A device with
 * idle-class requests is swept all the same. */
static void
test_counts_if_unknown (void)
{
  const TestRq unknown[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "reader", IOCHART_CLASS_UNKNOWN, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 10 * MS, 20 * MS },
  };
  const TestRq idle[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "idle-reader", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg-reader", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 10 * MS, 20 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (unknown, G_N_ELEMENTS (unknown));
  g_autoptr(IochartCapture) ci = test_capture (idle, G_N_ELEMENTS (idle));
  IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) full = iochart_steal_new (c, NULL);
  g_autoptr(IochartSteal) counts = NULL, swept = NULL;

  o.counts_if_unknown = TRUE;
  counts = iochart_steal_new (c, &o);
  swept = iochart_steal_new (ci, &o);
  g_assert_true (iochart_steal_device_is_unknown (only_device (full)));
  g_assert_true (iochart_steal_device_is_unknown (only_device (counts)));
  g_assert_cmpuint (only_device (counts)->unknown_requests, ==, 1);
  g_assert_cmpuint (only_device (full)->unknown_requests, ==, 1);
  g_assert_cmpuint (only_device (counts)->idle_requests, ==, 0);
  g_assert_cmpint (only_device (full)->foreground_active_ns, ==, 20 * MS);   /* unknown counts as foreground */
  g_assert_cmpint (only_device (counts)->foreground_active_ns, ==, 0);   /* not swept */
  g_assert_cmpuint (only_device (counts)->idle->len, ==, 0);
  g_assert_false (iochart_steal_device_is_unknown (only_device (swept)));
  g_assert_cmpint (only_device (swept)->stolen_ns, ==, 9 * MS);
  g_assert_cmpint (only_device (swept)->foreground_active_ns, ==, 19 * MS);
}

/* A range clips the integral; per-column figures add up to the totals. */
static void
test_range_and_columns (void)
{
  const TestRq rqs[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "idle", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg", IOCHART_CLASS_BE, 0, 0, 10 * MS, 20 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
  g_autoptr(IochartSteal) steal = NULL;
  const IochartStealDevice *d;
  double sum = 0, active = 0;

  o.from_ns = 4 * MS;
  o.to_ns = 14 * MS;
  o.n_columns = 10;
  steal = iochart_steal_new (c, &o);
  d = only_device (steal);
  g_assert_cmpint (d->stolen_ns, ==, 6 * MS);
  g_assert_cmpint (d->foreground_active_ns, ==, 10 * MS);
  for (guint i = 0; i < 10; i++)
    {
      sum += d->stolen_columns[i];
      active += d->active_columns[i];
    }
  g_assert_cmpfloat_with_epsilon (sum, 6 * MS, 1);
  g_assert_cmpfloat_with_epsilon (active, 10 * MS, 1);
  g_assert_cmpfloat_with_epsilon (d->stolen_columns[9], 0, 1e-9);
}

static void
test_json (void)
{
  const TestRq rqs[] = {
    { DEV_LOOP, 1000, 8, "R", 300, "idle-reader", IOCHART_CLASS_IDLE, 0, 0, 0, 10 * MS },
    { DEV_LOOP, 5000, 8, "R", 200, "fg-reader", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 10 * MS, 20 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartSteal) steal = iochart_steal_new (c, NULL);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  JsonObject *o, *ep;
  JsonArray *episodes;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "idle_steal");
  iochart_steal_to_json (steal, b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  o = json_object_get_object_member (json_node_get_object (root), "idle_steal");
  g_assert_cmpint (json_object_get_int_member (o, "stolen_ns"), ==, 9 * MS);
  g_assert_cmpint (json_object_get_int_member (o, "foreground_active_ns"), ==, 19 * MS);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "stolen_pct"), 900.0 / 19, 1e-9);
  g_assert_cmpstr (json_object_get_string_member (o, "dev"), ==, "7,0");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "devices")), ==, 1);
  episodes = json_object_get_array_member (o, "episodes");
  g_assert_cmpuint (json_array_get_length (episodes), ==, 1);
  ep = json_array_get_object_element (episodes, 0);
  g_assert_cmpint (json_object_get_int_member (ep, "start_ns"), ==, 1 * MS);
  g_assert_cmpint (json_object_get_int_member (ep, "end_ns"), ==, 10 * MS);
  g_assert_cmpstr (json_object_get_string_member (ep, "dev"), ==, "7,0");
  g_assert_cmpint (json_object_get_int_member (ep, "idle_pid"), ==, 300);
  g_assert_cmpstr (json_object_get_string_member (ep, "idle_comm"), ==, "idle-reader");
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (ep, "waiting_pids"), 0), ==, 200);
}

/* ---- degenerate inputs (issue 9: UBSan "zero offset to null pointer" in the steal analysis) ---- */

/* One block event of a best-effort or idle 8-sector read at sector on dev. */
static void
feed_one (IochartBuilder *b, IochartBlockAction action, guint32 dev, guint64 sector, IochartClass klass, gint64 ts)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  IochartOp op;
  guint8 flags;

  iochart_rwbs_parse ("R", 1, &op, &flags);
  ev.ts_ns = ts;
  ev.dev = dev;
  ev.sector = sector;
  ev.nr_sector = 8;
  ev.op = op;
  ev.flags = flags;
  ev.pid = klass == IOCHART_CLASS_IDLE ? 300 : 200;
  ev.comm = klass == IOCHART_CLASS_IDLE ? "idle" : "fg";
  ev.comm_len = strlen (ev.comm);
  ev.ioprio = IOCHART_IOPRIO_MAKE (klass, klass == IOCHART_CLASS_IDLE ? 7 : 4);
  _iochart_builder_block (b, action, &ev);
}

/* Every way the sweep can meet nothing: no events at all (an array never allocated: NULL with a
 * count of 0), ranges past the data, columns, a device asked for that has no request. Nothing is
 * stolen, no episode, the JSON is whole. Under the sanitizer build UBSan stops on any arithmetic
 * on a NULL array (the test's meson suite runs there too). */
static void
assert_nothing_stolen (IochartCapture *c)
{
  for (int variant = 0; variant < 4; variant++)
    {
      IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
      g_autoptr(IochartSteal) steal = NULL;
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      if (variant >= 1)
        o.n_columns = 16;
      if (variant == 2)
        {
          o.from_ns = iochart_capture_get_start_ns (c) + 5 * MS;
          o.to_ns = o.from_ns + 1;
        }
      if (variant == 3)
        o.device = 0;
      steal = iochart_steal_new (c, &o);
      g_assert_nonnull (steal);
      g_assert_cmpuint (iochart_steal_get_n_episodes (steal), ==, 0);
      g_assert_cmpuint (iochart_steal_get_n_devices (steal), <=, MAX (iochart_capture_get_n_devices (c), 1));
      for (guint d = 0; d < iochart_steal_get_n_devices (steal); d++)
        {
          const IochartStealDevice *dev = iochart_steal_get_device (steal, d);

          g_assert_cmpint (dev->stolen_ns, ==, 0);
          g_assert_cmpuint (dev->n_episodes, ==, 0);
          g_assert_cmpuint (dev->idle->len, ==, 0);
          for (guint col = 0; dev->stolen_columns && col < o.n_columns; col++)
            g_assert_cmpfloat (dev->stolen_columns[col], ==, 0);
        }
      g_assert_null (iochart_steal_find_device (steal, 4242));
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "idle_steal");
      iochart_steal_to_json (steal, b);
      json_builder_end_object (b);
      root = json_builder_get_root (b);
      g_assert_true (json_object_has_member (json_node_get_object (root), "idle_steal"));
    }
}

static void
test_degenerate (void)
{
  enum { EMPTY, DEVICE_ONLY, NO_COMPLETE, NO_ISSUE, FLUSH_ONLY, IDLE_ONLY, BE_ONLY, COMPLETE_FIRST, N_CASES };

  for (int k = 0; k < N_CASES; k++)
    {
      g_autoptr(IochartBuilder) b = _iochart_builder_new ("degenerate");
      g_autoptr(IochartCapture) c = NULL;

      switch (k)
        {
        case EMPTY:
          break;
        case DEVICE_ONLY:   /* a device named, no request on it */
          _iochart_builder_device_name (b, DEV_LOOP, "loop0");
          break;
        case NO_COMPLETE:   /* idle and foreground issued, never completed */
          feed_one (b, IOCHART_BLOCK_INSERT, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 1 * MS);
          feed_one (b, IOCHART_BLOCK_ISSUE, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 2 * MS);
          feed_one (b, IOCHART_BLOCK_INSERT, DEV_LOOP, 900, IOCHART_CLASS_BE, 2 * MS);
          feed_one (b, IOCHART_BLOCK_ISSUE, DEV_LOOP, 900, IOCHART_CLASS_BE, 3 * MS);
          break;
        case NO_ISSUE:      /* inserted and completed, no issue event: idle ones cannot be placed */
          feed_one (b, IOCHART_BLOCK_INSERT, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 1 * MS);
          feed_one (b, IOCHART_BLOCK_INSERT, DEV_LOOP, 900, IOCHART_CLASS_BE, 1 * MS);
          feed_one (b, IOCHART_BLOCK_COMPLETE, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 4 * MS);
          feed_one (b, IOCHART_BLOCK_COMPLETE, DEV_LOOP, 900, IOCHART_CLASS_BE, 5 * MS);
          break;
        case FLUSH_ONLY:
          {
            const TestRq rq[] = { { DEV_LOOP, 0, 0, "FWS", 201, "jbd2", IOCHART_CLASS_NONE, 2 * MS, -1, 2 * MS, 5 * MS } };
            test_feed (b, rq, 1, NULL, 0);
          }
          break;
        case IDLE_ONLY:
        case BE_ONLY:
          {
            IochartClass klass = k == IDLE_ONLY ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE;
            const TestRq rq[] = {
              { DEV_LOOP, 100, 8, "R", 300, "a", klass, 0, 0, 1 * MS, 3 * MS },
              { DEV_VDA, 900, 8, "R", 301, "b", klass, 0, 0, 2 * MS, 4 * MS },
            };
            test_feed (b, rq, G_N_ELEMENTS (rq), NULL, 0);
          }
          break;
        case COMPLETE_FIRST:   /* a completion stamped before its issue: dropped, not negative */
          feed_one (b, IOCHART_BLOCK_INSERT, DEV_LOOP, 900, IOCHART_CLASS_BE, 1 * MS);
          feed_one (b, IOCHART_BLOCK_ISSUE, DEV_LOOP, 900, IOCHART_CLASS_BE, 6 * MS);
          feed_one (b, IOCHART_BLOCK_INSERT, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 2 * MS);
          feed_one (b, IOCHART_BLOCK_ISSUE, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 5 * MS);
          feed_one (b, IOCHART_BLOCK_COMPLETE, DEV_LOOP, 100, IOCHART_CLASS_IDLE, 5 * MS);
          break;
        }
      c = _iochart_builder_finish (b);
      g_test_message ("case %d: %u devices, %u requests", k, iochart_capture_get_n_devices (c),
                      iochart_capture_get_n_requests (c));
      assert_nothing_stolen (c);
      g_assert_cmpint (iochart_steal_pick_device (c), ==, iochart_capture_get_n_devices (c) ? 0 : -1);
    }
}

/* The whole capture's sweep (its events' bounds taken as they are collected) agrees with the
 * bin index's sweep of the same device (which sorts its events after a pass over them for their
 * bounds): requests near time order, some completing far later than any queues (the greatest
 * time is a completion's, its key a bit longer than the last queue's), many at equal times. */
static void
test_whole_vs_index (void)
{
  g_autoptr(GRand) r = g_rand_new_with_seed (2040);
  g_autoptr(GArray) rqs = g_array_new (FALSE, FALSE, sizeof (TestRq));
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartBinIndex) index = NULL;
  g_autoptr(IochartSteal) whole = NULL, indexed = NULL;
  IochartStealOptions o = IOCHART_STEAL_OPTIONS_INIT;
  const IochartStealDevice *a, *b;
  gint64 t = 0;

  for (guint i = 0; i < 3000; i++)
    {
      gboolean idle = g_rand_int_range (r, 0, 3) == 0;
      TestRq rq = { DEV_LOOP, 8 * i, 8, "R", idle ? 300 : 200 + g_rand_int_range (r, 0, 4),
                    idle ? "idle" : "fg", idle ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE };

      t += g_rand_int_range (r, 0, 2) * MS / 4;
      rq.queue = t;
      rq.insert = -1;
      rq.issue = t + g_rand_int_range (r, 0, 3) * MS / 4;
      rq.complete = rq.issue + (i % 500 == 7 ? g_rand_int_range (r, 1, 4) * 1000 * MS : g_rand_int_range (r, 1, 9) * MS / 4);
      g_array_append_val (rqs, rq);
    }
  c = test_capture ((const TestRq *) rqs->data, rqs->len);
  index = iochart_bin_index_new (c, 0, IOCHART_LATENCY_Q2C);
  o.device = 0;
  whole = iochart_steal_new (c, &o);
  o.index = index;
  indexed = iochart_steal_new (c, &o);
  a = iochart_steal_find_device (whole, 0);
  b = iochart_steal_find_device (indexed, 0);
  g_assert_cmpint (a->stolen_ns, >, 0);
  g_assert_cmpint (a->stolen_ns, ==, b->stolen_ns);
  g_assert_cmpint (a->foreground_active_ns, ==, b->foreground_active_ns);
  g_assert_cmpuint (a->n_episodes, ==, b->n_episodes);
  g_assert_cmpuint (iochart_steal_get_n_episodes (whole), ==, iochart_steal_get_n_episodes (indexed));
  for (guint i = 0; i < iochart_steal_get_n_episodes (whole); i++)
    {
      const IochartStealEpisode *x = iochart_steal_get_episode (whole, i), *y = iochart_steal_get_episode (indexed, i);

      g_assert_cmpint (x->start_ns, ==, y->start_ns);
      g_assert_cmpint (x->end_ns, ==, y->end_ns);
      g_assert_cmpint (x->stolen_ns, ==, y->stolen_ns);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/steal/serial-device", test_serial_device);
  g_test_add_func ("/steal/shared-slots", test_shared_slots);
  g_test_add_func ("/steal/idle-alone", test_idle_alone);
  g_test_add_func ("/steal/episode-gap", test_episode_gap);
  g_test_add_func ("/steal/per-device", test_per_device);
  g_test_add_func ("/steal/interleaved-devices", test_interleaved_devices);
  g_test_add_func ("/steal/counts-if-unknown", test_counts_if_unknown);
  g_test_add_func ("/steal/range-and-columns", test_range_and_columns);
  g_test_add_func ("/steal/json", test_json);
  g_test_add_func ("/steal/degenerate", test_degenerate);
  g_test_add_func ("/steal/whole-vs-index", test_whole_vs_index);
  return g_test_run ();
}
