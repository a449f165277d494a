/* Unit tests of the request builder: matching, merges, flushes, attribution and classes. */
#include <string.h>
#include "iochart-capture-private.h"

#define DEV_LOOP IOCHART_DEV_MAKE (7, 0)
#define DEV_VDA  IOCHART_DEV_MAKE (254, 0)
#define BE4  IOCHART_IOPRIO_MAKE (IOCHART_CLASS_BE, 4)
#define IDLE7 IOCHART_IOPRIO_MAKE (IOCHART_CLASS_IDLE, 7)

static void
ev (IochartBuilder *b, IochartBlockAction action, gint64 ts, guint32 dev, guint64 sector, guint32 nr,
    const char *rwbs, gint32 pid, const char *comm, gint32 ioprio)
{
  IochartBlockEvent e = IOCHART_BLOCK_EVENT_INIT;
  IochartOp op;
  guint8 flags;

  iochart_rwbs_parse (rwbs, strlen (rwbs), &op, &flags);
  e.ts_ns = ts;
  e.dev = dev;
  e.sector = sector;
  e.nr_sector = nr;
  e.op = op;
  e.flags = flags;
  e.pid = pid;
  e.comm = comm;
  e.comm_len = comm ? strlen (comm) : 0;
  e.ioprio = ioprio;
  _iochart_builder_block (b, action, &e);
}

static IochartRequest
req (IochartCapture *c, guint i)
{
  IochartRequest r;

  iochart_capture_get_request (c, i, &r);
  return r;
}

/* The request that starts at sector: records are not in queue order once bios are split. */
static IochartRequest
req_at (IochartCapture *c, guint64 sector)
{
  for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
    if (req (c, i).sector == sector)
      return req (c, i);
  g_assert_not_reached ();
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

static void
test_life_and_attribution (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  IochartRequest r;

  ev (b, IOCHART_BLOCK_QUEUE, 1000, DEV_LOOP, 800, 8, "RA", 42, "find", -1);
  ev (b, IOCHART_BLOCK_INSERT, 2000, DEV_LOOP, 800, 8, "RA", 42, "find", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 3000, DEV_LOOP, 800, 8, "RA", 99, "kworker/0:1H", BE4);
  /* The completion runs in whatever context: pid 0 must not own the request. */
  ev (b, IOCHART_BLOCK_COMPLETE, 9000, DEV_LOOP, 800, 8, "RA", 0, NULL, BE4);
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 1);
  r = req (c, 0);
  g_assert_cmpint (r.queue_ns, ==, 1000);
  g_assert_cmpint (r.insert_ns, ==, 2000);
  g_assert_cmpint (r.issue_ns, ==, 3000);
  g_assert_cmpint (r.complete_ns, ==, 9000);
  g_assert_cmpuint (r.bytes, ==, 4096);
  g_assert_cmpuint (r.op, ==, IOCHART_OP_READ);
  g_assert_true (r.flags & IOCHART_RQ_READAHEAD);
  g_assert_cmpint (iochart_capture_get_process (c, r.process)->pid, ==, 42);
  g_assert_cmpstr (iochart_capture_get_process (c, r.process)->comm, ==, "find");
  g_assert_cmpuint (r.klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpuint (r.level, ==, 4);
  g_assert_cmpuint (r.class_source, ==, IOCHART_CLASS_SOURCE_IOPRIO_FIELD);
  g_assert_cmpuint (proc_by_pid (c, 42)->requests, ==, 1);
  g_assert_cmpuint (proc_by_pid (c, 99)->requests, ==, 0);
  g_assert_cmpint (iochart_capture_get_start_ns (c), ==, 1000);
  g_assert_cmpint (iochart_capture_get_end_ns (c), ==, 9000);
  g_assert_cmpuint (iochart_capture_get_n_events (c), ==, 4);
}

static void
test_fifo_duplicates (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  /* Two reads of the same sectors in flight at once complete in issue order. */
  ev (b, IOCHART_BLOCK_ISSUE, 100, DEV_LOOP, 64, 8, "R", 1, "a", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 200, DEV_LOOP, 64, 8, "R", 2, "b", IDLE7);
  ev (b, IOCHART_BLOCK_COMPLETE, 300, DEV_LOOP, 64, 8, "R", 0, NULL, -1);
  ev (b, IOCHART_BLOCK_COMPLETE, 400, DEV_LOOP, 64, 8, "R", 0, NULL, -1);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  g_assert_cmpint (req (c, 0).complete_ns, ==, 300);
  g_assert_cmpint (req (c, 1).complete_ns, ==, 400);
  g_assert_cmpuint (req (c, 1).klass, ==, IOCHART_CLASS_IDLE);
}

static void
test_bio_merges (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  IochartRequest r;

  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 1000, 8, "RA", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 11, DEV_LOOP, 1008, 8, "RA", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_BACKMERGE, 12, DEV_LOOP, 1008, 8, "RA", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 13, DEV_LOOP, 992, 8, "RA", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_FRONTMERGE, 14, DEV_LOOP, 992, 8, "RA", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_INSERT, 20, DEV_LOOP, 992, 24, "RA", 5, "cat", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 30, DEV_LOOP, 992, 24, "RA", 5, "cat", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 40, DEV_LOOP, 992, 24, "RA", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 1);
  r = req (c, 0);
  g_assert_cmpuint (r.sector, ==, 992);
  g_assert_cmpuint (r.bytes, ==, 24 * 512);
  g_assert_cmpuint (r.merges, ==, 2);
  g_assert_cmpint (r.queue_ns, ==, 10);
  g_assert_cmpint (r.complete_ns, ==, 40);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (c), ==, 0);
}

static void
test_split (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  /* A 1 MiB bio queued whole, then split in two for a device that takes 512 KiB at a time. */
  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 4096, 2048, "R", 5, "dd", -1);
  ev (b, IOCHART_BLOCK_SPLIT, 11, DEV_LOOP, 4096, 1024, "R", 5, "dd", -1);
  ev (b, IOCHART_BLOCK_INSERT, 12, DEV_LOOP, 4096, 1024, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_INSERT, 13, DEV_LOOP, 5120, 1024, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 14, DEV_LOOP, 4096, 1024, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 15, DEV_LOOP, 5120, 1024, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 16, DEV_LOOP, 4096, 1024, "R", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 17, DEV_LOOP, 5120, 1024, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  g_assert_cmpint (req (c, 0).queue_ns, ==, 10);
  g_assert_cmpint (req (c, 1).queue_ns, ==, 10);
  g_assert_cmpuint (req (c, 0).bytes, ==, 512 * 1024);
  g_assert_cmpuint (req (c, 1).bytes, ==, 512 * 1024);
  g_assert_cmpint (req (c, 1).complete_ns, ==, 17);
  g_assert_cmpuint (proc_by_pid (c, 5)->bytes, ==, 1024 * 1024);
}

/* Splits without split events (.dat captures): each piece takes the queue time and owner of the
 * queued bio that holds its first sector, and the bio keeps the rest. */
static void
test_split_pieces_front (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 4096, 2048, "R", 5, "dd", -1);
  ev (b, IOCHART_BLOCK_INSERT, 12, DEV_LOOP, 4096, 1024, "R", 6, "kworker", BE4);
  ev (b, IOCHART_BLOCK_INSERT, 13, DEV_LOOP, 5120, 1024, "R", 6, "kworker", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 14, DEV_LOOP, 4096, 1024, "R", 6, "kworker", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 15, DEV_LOOP, 5120, 1024, "R", 6, "kworker", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 16, DEV_LOOP, 4096, 1024, "R", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 17, DEV_LOOP, 5120, 1024, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      IochartRequest r = req (c, i);

      g_assert_cmpint (r.queue_ns, ==, 10);
      g_assert_cmpuint (r.bytes, ==, 512 * 1024);
      g_assert_cmpint (iochart_capture_get_process (c, r.process)->pid, ==, 5);
      g_assert_cmpint (r.complete_ns - r.queue_ns, >=, r.complete_ns - r.issue_ns);
    }
  g_assert_cmpuint (proc_by_pid (c, 5)->bytes, ==, 1024 * 1024);
  /* btt leaves split bios out of its figures */
  g_assert_cmpuint (iochart_capture_get_btt_device (c, 0)->q2c.n, ==, 0);
}

static void
test_split_pieces_middle (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  /* the middle piece first: the bio is left with a front and a back, each still queued at 10 */
  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 0, 768, "R", 5, "dd", -1);
  ev (b, IOCHART_BLOCK_INSERT, 20, DEV_LOOP, 256, 256, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_INSERT, 21, DEV_LOOP, 0, 256, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_INSERT, 22, DEV_LOOP, 512, 256, "R", 5, "dd", BE4);
  for (guint i = 0; i < 3; i++)
    ev (b, IOCHART_BLOCK_ISSUE, 30 + i, DEV_LOOP, (guint64[]) { 256, 0, 512 }[i], 256, "R", 5, "dd", BE4);
  for (guint i = 0; i < 3; i++)
    ev (b, IOCHART_BLOCK_COMPLETE, 40 + i, DEV_LOOP, (guint64[]) { 256, 0, 512 }[i], 256, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (req (c, i).queue_ns, ==, 10);
      g_assert_cmpint (req (c, i).complete_ns, >=, 40);
      g_assert_cmpuint (req (c, i).bytes, ==, 256 * 512);
    }
}

/* The `none` scheduler inserts nothing: the pieces show first at issue. */
static void
test_split_pieces_at_issue (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 1000, 1024, "R", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 11, DEV_LOOP, 9000, 8, "R", 7, "find", -1);
  for (guint i = 0; i < 4; i++)
    ev (b, IOCHART_BLOCK_ISSUE, 20 + i, DEV_LOOP, 1000 + 256 * i, 256, "R", 5, "cat", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 25, DEV_LOOP, 9000, 8, "R", 7, "find", BE4);
  for (guint i = 0; i < 4; i++)
    ev (b, IOCHART_BLOCK_COMPLETE, 30 + i, DEV_LOOP, 1000 + 256 * i, 256, "R", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 35, DEV_LOOP, 9000, 8, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 5);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (req_at (c, 1000 + 256 * i).queue_ns, ==, 10);
  g_assert_cmpuint (proc_by_pid (c, 5)->requests, ==, 4);
  g_assert_cmpuint (proc_by_pid (c, 7)->requests, ==, 1);
  /* only find's bio was not split */
  g_assert_cmpuint (iochart_capture_get_btt_device (c, 0)->q2c.n, ==, 1);
  g_assert_cmpint (iochart_capture_get_btt_device (c, 0)->q2c.sum_ns, ==, 35 - 11);
}

/* The second piece of a split bio merges into the request of the first. */
static void
test_split_then_merge (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  IochartRequest r;

  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 0, 768, "R", 5, "dd", -1);
  ev (b, IOCHART_BLOCK_INSERT, 11, DEV_LOOP, 0, 256, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_BACKMERGE, 12, DEV_LOOP, 256, 256, "R", 5, "dd", -1);
  ev (b, IOCHART_BLOCK_INSERT, 13, DEV_LOOP, 512, 256, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 14, DEV_LOOP, 0, 512, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 15, DEV_LOOP, 512, 256, "R", 5, "dd", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 16, DEV_LOOP, 0, 512, "R", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 17, DEV_LOOP, 512, 256, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  r = req_at (c, 0);
  g_assert_cmpuint (r.bytes, ==, 512 * 512);
  g_assert_cmpuint (r.merges, ==, 1);
  g_assert_cmpint (r.queue_ns, ==, 10);
  g_assert_cmpint (r.complete_ns, ==, 16);
  r = req_at (c, 512);
  g_assert_cmpint (r.queue_ns, ==, 10);
  g_assert_cmpint (r.complete_ns, ==, 17);
}

/* Two bios over the same sectors: the older gives the first piece. */
static void
test_split_fifo (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_QUEUE, 10, DEV_LOOP, 0, 512, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 20, DEV_LOOP, 0, 512, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_ISSUE, 30, DEV_LOOP, 0, 256, "R", 1, "a", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 31, DEV_LOOP, 0, 256, "R", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 32, DEV_LOOP, 0, 256, "R", 2, "b", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 33, DEV_LOOP, 0, 256, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpint (req (c, 0).queue_ns, ==, 10);
  g_assert_cmpint (iochart_capture_get_process (c, req (c, 0).process)->pid, ==, 1);
  g_assert_cmpint (req (c, 1).queue_ns, ==, 20);
  g_assert_cmpint (iochart_capture_get_process (c, req (c, 1).process)->pid, ==, 2);
}

/* btt counts every queued bio, merged ones included, from its own queue event, under its own pid. */
static void
test_btt_per_bio (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  const IochartBttFigures *d, *p;

  ev (b, IOCHART_BLOCK_QUEUE, 100, DEV_LOOP, 1000, 8, "R", 5, "cat", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 110, DEV_LOOP, 1008, 8, "R", 6, "find", -1);
  ev (b, IOCHART_BLOCK_BACKMERGE, 111, DEV_LOOP, 1008, 8, "R", 6, "find", -1);
  ev (b, IOCHART_BLOCK_INSERT, 120, DEV_LOOP, 1000, 16, "R", 5, "cat", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 150, DEV_LOOP, 1000, 16, "R", 5, "cat", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 200, DEV_LOOP, 1000, 16, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  d = iochart_capture_get_btt_device (c, 0);
  g_assert_cmpuint (d->q2c.n, ==, 2);
  g_assert_cmpint (d->q2c.min_ns, ==, 90);
  g_assert_cmpint (d->q2c.max_ns, ==, 100);
  g_assert_cmpint (d->d2c.sum_ns, ==, 100);
  g_assert_cmpuint (iochart_capture_get_n_btt_processes (c), ==, 2);
  p = iochart_capture_get_btt_process (c, 0);   /* by name: cat, find */
  g_assert_cmpstr (p->comm, ==, "cat");
  g_assert_cmpint (p->q2c.sum_ns, ==, 100);
  p = iochart_capture_get_btt_process (c, 1);
  g_assert_cmpstr (p->comm, ==, "find");
  g_assert_cmpint (p->q2c.sum_ns, ==, 90);
}

static void
test_rq_merge (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_INSERT, 10, DEV_VDA, 5000, 16, "W", 7, "kworker/u8:3", BE4);
  ev (b, IOCHART_BLOCK_INSERT, 11, DEV_VDA, 5016, 8, "W", 7, "kworker/u8:3", BE4);
  ev (b, IOCHART_BLOCK_RQ_MERGE, 12, DEV_VDA, 5016, 8, "W", 7, "kworker/u8:3", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 13, DEV_VDA, 5000, 24, "W", 7, "kworker/u8:3", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 14, DEV_VDA, 5000, 24, "W", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 1);
  g_assert_cmpuint (req (c, 0).bytes, ==, 24 * 512);
  g_assert_cmpuint (req (c, 0).merges, ==, 1);
  g_assert_cmpint (req (c, 0).complete_ns, ==, 14);
}

static void
test_flushes (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  /* Flushes issue at sector 0 and complete at all-ones: FIFO per device. */
  ev (b, IOCHART_BLOCK_ISSUE, 10, DEV_LOOP, 0, 0, "FF", 1, "kworker/0:0H", 0);
  ev (b, IOCHART_BLOCK_ISSUE, 11, DEV_VDA, 0, 0, "FF", 1, "kworker/0:0H", 0);
  ev (b, IOCHART_BLOCK_ISSUE, 12, DEV_LOOP, 0, 0, "FF", 1, "kworker/0:0H", 0);
  ev (b, IOCHART_BLOCK_COMPLETE, 20, DEV_VDA, G_MAXUINT64, 0, "FF", 0, NULL, 0);
  ev (b, IOCHART_BLOCK_COMPLETE, 21, DEV_LOOP, G_MAXUINT64, 0, "FF", 0, NULL, 0);
  ev (b, IOCHART_BLOCK_COMPLETE, 22, DEV_LOOP, G_MAXUINT64, 0, "FF", 0, NULL, 0);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 3);
  g_assert_cmpuint (req (c, 0).op, ==, IOCHART_OP_FLUSH);
  g_assert_cmpint (req (c, 0).complete_ns, ==, 21);
  g_assert_cmpint (req (c, 1).complete_ns, ==, 20);
  g_assert_cmpint (req (c, 2).complete_ns, ==, 22);
  g_assert_cmpuint (req (c, 0).klass, ==, IOCHART_CLASS_NONE);
  /* Stacked devices stay apart. */
  g_assert_cmpuint (iochart_capture_get_n_devices (c), ==, 2);
  g_assert_cmpuint (req (c, 0).device, !=, req (c, 1).device);
}

static void
test_unmatched_and_requeue (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_COMPLETE, 5, DEV_LOOP, 77, 8, "R", 0, NULL, BE4);   /* issued before the capture */
  ev (b, IOCHART_BLOCK_ISSUE, 10, DEV_LOOP, 100, 8, "R", 3, "dd", BE4);
  ev (b, IOCHART_BLOCK_REQUEUE, 11, DEV_LOOP, 100, 8, "R", 3, "dd", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 12, DEV_LOOP, 100, 8, "R", 3, "dd", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 13, DEV_LOOP, 100, 8, "R", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 20, DEV_LOOP, 200, 8, "R", 3, "dd", BE4);     /* completes after the capture */
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  g_assert_cmpuint (req (c, 0).issues, ==, 2);
  g_assert_cmpuint (req (c, 0).requeues, ==, 1);
  g_assert_cmpint (req (c, 0).issue_ns, ==, 12);
  g_assert_cmpuint (iochart_capture_get_n_requeues (c), ==, 1);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (c), ==, 1);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_issues (c), ==, 1);
  g_assert_cmpuint (proc_by_pid (c, 3)->requests, ==, 3);
}

/* Seen in real captures: a dispatch the driver refused is issued again with no requeue event, and
 * a write with preflush completes once for its data and once, with no sectors, after the flush. */
static void
test_redispatch_and_flush_sequence (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_INSERT, 10, DEV_VDA, 35218552, 1776, "RA", 8, "rsvg-convert", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 11, DEV_VDA, 35218552, 1776, "RA", 8, "rsvg-convert", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 15, DEV_VDA, 35218552, 1776, "RA", 44, "kworker/1:1H", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 20, DEV_VDA, 35218552, 1776, "RA", 0, NULL, BE4);

  ev (b, IOCHART_BLOCK_INSERT, 30, DEV_LOOP, 3994720, 8, "WSM", 44, "kworker/1:1H", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 31, DEV_LOOP, 3994720, 8, "WSM", 44, "kworker/1:1H", BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 32, DEV_LOOP, 3994720, 8, "WSM", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 33, DEV_LOOP, 0, 0, "FF", 44, "kworker/1:1H", 0);
  ev (b, IOCHART_BLOCK_COMPLETE, 34, DEV_LOOP, G_MAXUINT64, 0, "FF", 0, NULL, 0);
  ev (b, IOCHART_BLOCK_COMPLETE, 35, DEV_LOOP, 3994720, 0, "WSM", 0, NULL, BE4);
  ev (b, IOCHART_BLOCK_COMPLETE, 36, DEV_VDA, 0, 0, "WS", 0, NULL, BE4);    /* an empty preflush */
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 3);
  g_assert_cmpuint (req (c, 0).issues, ==, 2);
  g_assert_cmpint (req (c, 0).issue_ns, ==, 15);
  g_assert_cmpint (req (c, 0).complete_ns, ==, 20);
  g_assert_cmpint (iochart_capture_get_process (c, req (c, 0).process)->pid, ==, 8);
  g_assert_cmpint (req (c, 1).complete_ns, ==, 35);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (c), ==, 0);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_issues (c), ==, 0);
}

/* Older kernels have no ioprio field: classes come from ioprio_set and fork. */
static void
test_class_without_field (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  const IochartProcess *p;

  _iochart_builder_fork (b, 1, 100, 200, "bash");
  _iochart_builder_ioprio_set (b, 2, 200, 1, 0, IDLE7);     /* ionice -c3 sets its own class */
  _iochart_builder_exec (b, 3, 200, "/usr/bin/find");
  _iochart_builder_fork (b, 4, 200, 201, "find");           /* find forks cat */
  _iochart_builder_exec (b, 5, 201, "/usr/bin/cat");
  ev (b, IOCHART_BLOCK_QUEUE, 6, DEV_LOOP, 10, 8, "R", 201, "cat", -1);
  ev (b, IOCHART_BLOCK_ISSUE, 7, DEV_LOOP, 10, 8, "R", 201, "cat", -1);
  ev (b, IOCHART_BLOCK_COMPLETE, 8, DEV_LOOP, 10, 8, "R", 0, NULL, -1);
  ev (b, IOCHART_BLOCK_QUEUE, 9, DEV_LOOP, 90, 8, "R", 300, "dd", -1);      /* nobody told its class */
  ev (b, IOCHART_BLOCK_ISSUE, 10, DEV_LOOP, 90, 8, "R", 300, "dd", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 11, DEV_LOOP, 190, 8, "R", 400, "updatedb", -1);
  ev (b, IOCHART_BLOCK_ISSUE, 12, DEV_LOOP, 190, 8, "R", 400, "updatedb", -1);
  _iochart_builder_exit (b, 13, 201);
  {
    IochartClassRule rule = { (char *) "updatedb", IOCHART_CLASS_IDLE, 7 };
    _iochart_builder_add_rule (b, &rule);
  }
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (req (c, 0).klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (req (c, 0).class_source, ==, IOCHART_CLASS_SOURCE_INHERITED);
  p = proc_by_pid (c, 201);
  g_assert_cmpuint (p->klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (p->level, ==, 7);
  g_assert_cmpuint (p->class_source, ==, IOCHART_CLASS_SOURCE_INHERITED);
  g_assert_cmpint (p->ppid, ==, 200);
  g_assert_cmpint (iochart_capture_get_process (c, p->parent)->pid, ==, 200);
  g_assert_cmpint (p->start_ns, ==, 4);
  g_assert_cmpint (p->exit_ns, ==, 13);
  g_assert_cmpstr (p->comm, ==, "cat");
  {
    guint n;
    const IochartComm *comms = iochart_capture_get_comms (c, p - iochart_capture_get_process (c, 0), &n);

    g_assert_cmpuint (n, ==, 2);   /* find (at fork), then cat (at exec) */
    g_assert_cmpstr (comms[0].comm, ==, "find");
    g_assert_cmpint (comms[0].ns, ==, 4);
    g_assert_cmpstr (comms[1].comm, ==, "cat");
    g_assert_cmpint (comms[1].ns, ==, 5);
  }
  p = proc_by_pid (c, 200);
  g_assert_cmpuint (p->klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (p->class_source, ==, IOCHART_CLASS_SOURCE_IOPRIO_SET);
  g_assert_cmpuint (proc_by_pid (c, 300)->klass, ==, IOCHART_CLASS_UNKNOWN);
  g_assert_cmpuint (proc_by_pid (c, 300)->class_source, ==, IOCHART_CLASS_SOURCE_UNKNOWN);
  g_assert_cmpuint (proc_by_pid (c, 400)->klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (proc_by_pid (c, 400)->class_source, ==, IOCHART_CLASS_SOURCE_RULE);
}

static void
test_process_majority_class (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  const IochartProcess *p;

  ev (b, IOCHART_BLOCK_ISSUE, 1, DEV_LOOP, 0, 8, "R", 9, "x", BE4);
  ev (b, IOCHART_BLOCK_ISSUE, 2, DEV_LOOP, 100, 256, "R", 9, "x", IDLE7);
  ev (b, IOCHART_BLOCK_ISSUE, 3, DEV_LOOP, 900, 8, "R", 9, "x", BE4);
  c = _iochart_builder_finish (b);
  p = proc_by_pid (c, 9);
  g_assert_cmpuint (p->klass, ==, IOCHART_CLASS_IDLE);
  g_assert_cmpuint (p->class_mask, ==, (1u << IOCHART_CLASS_IDLE) | (1u << IOCHART_CLASS_BE));
  g_assert_cmpuint (p->bytes, ==, (8 + 256 + 8) * 512);
  g_assert_cmpuint (p->requests, ==, 3);
}

static void
test_pid_reuse (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  _iochart_builder_fork (b, 1, 1, 500, "a");
  ev (b, IOCHART_BLOCK_ISSUE, 2, DEV_LOOP, 0, 8, "R", 500, "a", BE4);
  _iochart_builder_exit (b, 3, 500);
  _iochart_builder_fork (b, 4, 1, 500, "b");
  ev (b, IOCHART_BLOCK_ISSUE, 5, DEV_LOOP, 8, 8, "R", 500, "b", BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (req (c, 0).process, !=, req (c, 1).process);
  g_assert_cmpstr (iochart_capture_get_process (c, req (c, 1).process)->comm, ==, "b");
}

static void
test_times_far_apart (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  gint64 t0 = G_GINT64_CONSTANT (1700000000) * 1000000000;   /* wall-clock ns */

  ev (b, IOCHART_BLOCK_ISSUE, t0, DEV_LOOP, 0, 8, "R", 1, "a", BE4);
  ev (b, IOCHART_BLOCK_QUEUE, t0 - 5, DEV_LOOP, 64, 8, "R", 1, "a", BE4);    /* before the base */
  ev (b, IOCHART_BLOCK_COMPLETE, t0 + G_GINT64_CONSTANT (3600000000000) * 30, DEV_LOOP, 0, 8, "R", 0, NULL, BE4);
  c = _iochart_builder_finish (b);
  g_assert_cmpint (req (c, 0).issue_ns, ==, t0);
  g_assert_cmpint (req (c, 0).complete_ns, ==, t0 + G_GINT64_CONSTANT (3600000000000) * 30);
  g_assert_cmpint (req (c, 1).queue_ns, ==, t0 - 5);
  g_assert_cmpint (req (c, 1).issue_ns, ==, IOCHART_TIME_UNKNOWN);
  g_assert_cmpuint (iochart_capture_get_request_store_size (c), ==, 2 * 48);
}

static void
test_rwbs (void)
{
  struct { const char *s; IochartOp op; guint8 flags; } cases[] = {
    { "R", IOCHART_OP_READ, 0 },
    { "RA", IOCHART_OP_READ, IOCHART_RQ_READAHEAD },
    { "RM", IOCHART_OP_READ, IOCHART_RQ_META },
    { "WS", IOCHART_OP_WRITE, IOCHART_RQ_SYNC },
    { "FWS", IOCHART_OP_WRITE, IOCHART_RQ_PREFLUSH | IOCHART_RQ_SYNC },
    { "WFS", IOCHART_OP_WRITE, IOCHART_RQ_FUA | IOCHART_RQ_SYNC },
    { "FF", IOCHART_OP_FLUSH, IOCHART_RQ_PREFLUSH },
    { "F", IOCHART_OP_FLUSH, 0 },
    { "FN", IOCHART_OP_FLUSH, IOCHART_RQ_PREFLUSH },   /* blktrace's name for a flush */
    { "D", IOCHART_OP_DISCARD, 0 },
    { "DE", IOCHART_OP_DISCARD, 0 },
    { "N", IOCHART_OP_OTHER, 0 },
    { "", IOCHART_OP_OTHER, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      IochartOp op;
      guint8 flags;
      char back[8];

      iochart_rwbs_parse (cases[i].s, strlen (cases[i].s), &op, &flags);
      g_assert_cmpint (op, ==, cases[i].op);
      g_assert_cmpint (flags, ==, cases[i].flags);
      iochart_rwbs_format (op, flags, back);
      if (*cases[i].s && strcmp (cases[i].s, "DE") != 0 && strcmp (cases[i].s, "FN") != 0)
        g_assert_cmpstr (back, ==, cases[i].s);
    }
}

/* Request i of c was queued and inserted at those times. */
static void
assert_waited (IochartCapture *c, guint i, gint64 queue_ns, gint64 insert_ns)
{
  g_assert_cmpint (req (c, i).queue_ns, ==, queue_ns);
  g_assert_cmpint (req (c, i).insert_ns, ==, insert_ns);
}

/* A merge or insert takes the oldest queued bio of its key, not the one queued last. */
static void
test_oldest_queued_first (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_QUEUE, 1, DEV_LOOP, 92, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 2, DEV_LOOP, 100, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 3, DEV_LOOP, 100, 8, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_BACKMERGE, 4, DEV_LOOP, 100, 8, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 5, DEV_LOOP, 300, 8, "R", 3, "c", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 6, DEV_LOOP, 300, 8, "R", 4, "d", -1);
  ev (b, IOCHART_BLOCK_INSERT, 7, DEV_LOOP, 300, 8, "R", 4, "d", -1);
  ev (b, IOCHART_BLOCK_INSERT, 8, DEV_LOOP, 100, 8, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_INSERT, 9, DEV_LOOP, 92, 16, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_INSERT, 10, DEV_LOOP, 300, 8, "R", 4, "d", -1);
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 4);
  /* the bio queued at 2 joined the request at 92; the one queued at 3 waits on its own */
  g_assert_cmpuint (req (c, 0).bytes, ==, 16 * 512);
  g_assert_cmpuint (req (c, 0).merges, ==, 1);
  assert_waited (c, 0, 1, 9);
  assert_waited (c, 1, 3, 8);
  assert_waited (c, 2, 5, 7);
  assert_waited (c, 3, 6, 10);
}

/* The same sectors on another device are another request, even right after a queue event. */
static void
test_same_sectors_other_device (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_QUEUE, 1, DEV_LOOP, 100, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_INSERT, 2, DEV_VDA, 100, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 3, DEV_VDA, 300, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_BACKMERGE, 4, DEV_LOOP, 300, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_INSERT, 5, DEV_LOOP, 100, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_INSERT, 6, DEV_VDA, 300, 8, "R", 1, "a", -1);
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 3);
  g_assert_cmpuint (iochart_capture_get_device (c, req (c, 0).device)->dev, ==, DEV_LOOP);
  assert_waited (c, 0, 1, 5);
  g_assert_cmpuint (iochart_capture_get_device (c, req (c, 1).device)->dev, ==, DEV_VDA);
  assert_waited (c, 1, IOCHART_TIME_UNKNOWN, 2);
  /* the merge on 7,0 finds no bio of its own queued there: the one on 254,0 stays */
  g_assert_cmpuint (iochart_capture_get_device (c, req (c, 2).device)->dev, ==, DEV_VDA);
  assert_waited (c, 2, 3, 6);
  g_assert_cmpuint (req (c, 2).merges, ==, 0);
}

/* Requests of one key waiting and in flight at once: each event takes the one of its state,
 * first in first out, a requeued one going back to wait. */
static void
test_one_key_in_every_state (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;

  ev (b, IOCHART_BLOCK_QUEUE, 1, DEV_LOOP, 200, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_INSERT, 2, DEV_LOOP, 200, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_ISSUE, 3, DEV_LOOP, 200, 8, "R", 1, "a", -1);
  ev (b, IOCHART_BLOCK_QUEUE, 4, DEV_LOOP, 200, 8, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_INSERT, 5, DEV_LOOP, 200, 8, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_ISSUE, 6, DEV_LOOP, 200, 8, "R", 2, "b", -1);
  ev (b, IOCHART_BLOCK_REQUEUE, 7, DEV_LOOP, 200, 8, "R", 0, NULL, -1);
  ev (b, IOCHART_BLOCK_ISSUE, 8, DEV_LOOP, 200, 8, "R", 0, NULL, -1);
  ev (b, IOCHART_BLOCK_COMPLETE, 9, DEV_LOOP, 200, 8, "R", 0, NULL, -1);
  ev (b, IOCHART_BLOCK_COMPLETE, 10, DEV_LOOP, 200, 8, "R", 0, NULL, -1);
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  g_assert_cmpint (req (c, 0).insert_ns, ==, 2);
  g_assert_cmpint (req (c, 0).issue_ns, ==, 8);
  g_assert_cmpuint (req (c, 0).issues, ==, 2);
  g_assert_cmpuint (req (c, 0).requeues, ==, 1);
  g_assert_cmpint (req (c, 0).complete_ns, ==, 10);
  assert_waited (c, 1, 4, 5);
  g_assert_cmpint (req (c, 1).issue_ns, ==, 6);
  g_assert_cmpuint (req (c, 1).requeues, ==, 0);
  g_assert_cmpint (req (c, 1).complete_ns, ==, 9);
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (c), ==, 0);
}

/* Hundreds of requests waiting at once, in every state, as the tables grow under them. */
static void
test_many_waiting (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  const guint n = 500;

  for (guint i = 0; i < n; i++)
    ev (b, IOCHART_BLOCK_QUEUE, 1 + i, DEV_LOOP, i * 16, 8, "R", 1, "a", -1);
  for (guint i = 0; i < n; i += 2)
    ev (b, IOCHART_BLOCK_INSERT, 1000 + i, DEV_LOOP, i * 16, 8, "R", 1, "a", -1);
  for (guint i = 0; i < n; i += 4)
    ev (b, IOCHART_BLOCK_ISSUE, 2000 + i, DEV_LOOP, i * 16, 8, "R", 1, "a", -1);
  for (guint i = n; i-- > 0;)
    {
      ev (b, IOCHART_BLOCK_ISSUE, 3000 + i, DEV_LOOP, i * 16, 8, "R", 1, "a", -1);
      ev (b, IOCHART_BLOCK_COMPLETE, 4000 + i, DEV_LOOP, i * 16, 8, "R", 0, NULL, -1);
    }
  c = _iochart_builder_finish (b);

  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, n);
  for (guint i = 0; i < n; i++)
    {
      IochartRequest r = req (c, i);

      g_assert_cmpuint (r.sector, ==, i * 16);
      g_assert_cmpint (r.queue_ns, ==, 1 + i);
      g_assert_cmpint (r.insert_ns, ==, i % 2 ? IOCHART_TIME_UNKNOWN : 1000 + i);
      /* those issued twice: dispatched again with no requeue */
      g_assert_cmpint (r.issue_ns, ==, 3000 + i);
      g_assert_cmpuint (r.issues, ==, i % 4 ? 1 : 2);
      g_assert_cmpint (r.complete_ns, ==, 4000 + i);
    }
}

/* Live use: a bio just queued still waits. */
static void
test_live_just_queued (void)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("t");
  g_autoptr(IochartCapture) c = NULL;
  gboolean in_flight = TRUE;

  ev (b, IOCHART_BLOCK_QUEUE, 5, DEV_LOOP, 200, 8, "R", 1, "a", -1);
  g_assert_cmpuint (_iochart_builder_get_end (b), ==, 1);
  g_assert_cmpuint (_iochart_builder_settle (b), ==, 0);
  g_assert_nonnull (_iochart_builder_get_request (b, 0, &in_flight));
  g_assert_false (in_flight);
  /* expired, it is given up: settled, and no later event takes it */
  _iochart_builder_expire (b, 6);
  g_assert_cmpuint (_iochart_builder_settle (b), ==, 1);
  ev (b, IOCHART_BLOCK_INSERT, 7, DEV_LOOP, 200, 8, "R", 1, "a", -1);
  c = _iochart_builder_finish (b);
  g_assert_cmpuint (iochart_capture_get_n_requests (c), ==, 2);
  g_assert_cmpint (req (c, 0).insert_ns, ==, IOCHART_TIME_UNKNOWN);
  assert_waited (c, 1, IOCHART_TIME_UNKNOWN, 7);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/builder/life-and-attribution", test_life_and_attribution);
  g_test_add_func ("/builder/fifo-duplicates", test_fifo_duplicates);
  g_test_add_func ("/builder/bio-merges", test_bio_merges);
  g_test_add_func ("/builder/rq-merge", test_rq_merge);
  g_test_add_func ("/builder/split", test_split);
  g_test_add_func ("/builder/split-pieces-front", test_split_pieces_front);
  g_test_add_func ("/builder/split-pieces-middle", test_split_pieces_middle);
  g_test_add_func ("/builder/split-pieces-at-issue", test_split_pieces_at_issue);
  g_test_add_func ("/builder/split-then-merge", test_split_then_merge);
  g_test_add_func ("/builder/split-fifo", test_split_fifo);
  g_test_add_func ("/builder/btt-per-bio", test_btt_per_bio);
  g_test_add_func ("/builder/flushes", test_flushes);
  g_test_add_func ("/builder/unmatched-and-requeue", test_unmatched_and_requeue);
  g_test_add_func ("/builder/redispatch-and-flush-sequence", test_redispatch_and_flush_sequence);
  g_test_add_func ("/builder/class-without-field", test_class_without_field);
  g_test_add_func ("/builder/process-majority-class", test_process_majority_class);
  g_test_add_func ("/builder/pid-reuse", test_pid_reuse);
  g_test_add_func ("/builder/times-far-apart", test_times_far_apart);
  g_test_add_func ("/builder/oldest-queued-first", test_oldest_queued_first);
  g_test_add_func ("/builder/same-sectors-other-device", test_same_sectors_other_device);
  g_test_add_func ("/builder/one-key-in-every-state", test_one_key_in_every_state);
  g_test_add_func ("/builder/many-waiting", test_many_waiting);
  g_test_add_func ("/builder/live-just-queued", test_live_just_queued);
  g_test_add_func ("/types/rwbs", test_rwbs);
  return g_test_run ();
}
