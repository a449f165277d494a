/* The live capture with a fake event source (no root): a snapshot taken after N events equals
 * the batch build of the same N events; with a window, memory stays bounded. */

#include <math.h>
#include "live-fake-events.h"
#include "record/iochart-live.h"

/* A workload over `seconds`: readers of each class start, read (bios queued, some merged,
 * inserted, issued by a kworker, completed, a few requeued or lost), get switched in and out,
 * and exit; idle-class requests wait long; flushes; a process that was there before. */
static GArray *
make_events_lives (guint seed, gint64 seconds, guint n_procs, gint32 max_life_ms)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  GArray *evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  gint64 end = seconds * 1000 * MS;
  /* long lives start in the first half, short ones anywhere */
  gint32 start_ms = max_life_ms * MS >= end ? (gint32) (end / MS / 2) : (gint32) (end / MS - max_life_ms);

  for (guint p = 0; p < n_procs; p++)
    {
      gint32 pid = 1000 + p;
      gint64 t = g_rand_int_range (rand, 0, start_ms) * MS + p;
      gint64 stop = MIN (end, t + g_rand_int_range (rand, 100, max_life_ms) * MS);
      guint klass = 1 + p % 3;
      guint64 sector = (guint64) p << 24;
      char name[16];
      Ev e = { .kind = E_FORK, .ts = t, .pid = pid, .other = 1 };

      g_snprintf (name, sizeof name, "reader%u", p);
      if (p == 0)
        {
          /* already running when the recording began: known from its first block event */
          klass = IOCHART_CLASS_BE;
        }
      else
        {
          g_strlcpy (e.comm, "sh", sizeof e.comm);
          add (evs, e);
          e = (Ev) { .kind = E_EXEC, .ts = t + 1, .pid = pid };
          g_snprintf (e.comm, sizeof e.comm, "/usr/bin/%s", name);
          add (evs, e);
          if (p % 4 == 3)
            add (evs, (Ev) { .kind = E_IOPRIO_SET, .ts = t + 2, .pid = pid,
                             .ioprio = IOCHART_IOPRIO_MAKE (IOCHART_CLASS_IDLE, 7) });
        }
      while (t < stop)
        {
          guint32 nr = 8 * g_rand_int_range (rand, 1, 32);
          gint32 ioprio = p % 4 == 3 ? -1 : (gint32) IOCHART_IOPRIO_MAKE (klass, 4);
          gint64 wait = klass == IOCHART_CLASS_IDLE ? g_rand_int_range (rand, 1, 3000) * MS
                                                    : g_rand_int_range (rand, 1, 20) * MS;
          gint64 lat = g_rand_int_range (rand, 100, 8000) * 1000;
          gboolean merge = g_rand_int_range (rand, 0, 5) == 0;
          guint r = g_rand_int_range (rand, 0, 100);

          add (evs, blk (t, IOCHART_BLOCK_QUEUE, sector, nr, IOCHART_OP_READ, pid, name, ioprio));
          if (merge)
            add (evs, blk (t + 10, IOCHART_BLOCK_BACKMERGE, sector + nr, 8, IOCHART_OP_READ, pid, name, ioprio));
          add (evs, (Ev) { .kind = E_SWITCH, .ts = t + 20, .pid = pid, .ioprio = IOCHART_TASK_UNINTERRUPTIBLE,
                           .other = 0 });
          if (r == 0)
            {
              sector += nr + (merge ? 8 : 0);
              t += wait;
              continue;   /* queued, never seen again */
            }
          nr += merge ? 8 : 0;
          add (evs, blk (t + 30, IOCHART_BLOCK_INSERT, sector, nr, IOCHART_OP_READ, pid, name, ioprio));
          add (evs, blk (t + wait, IOCHART_BLOCK_ISSUE, sector, nr, IOCHART_OP_READ, 50, "kworker/0:1", ioprio));
          if (r == 1)
            {
              add (evs, blk (t + wait + 5, IOCHART_BLOCK_REQUEUE, sector, nr, IOCHART_OP_READ, 50, NULL, ioprio));
              add (evs, blk (t + wait + 50, IOCHART_BLOCK_ISSUE, sector, nr, IOCHART_OP_READ, 50, "kworker/0:1", ioprio));
            }
          if (r != 2)   /* else its completion was lost */
            add (evs, blk (t + wait + lat, IOCHART_BLOCK_COMPLETE, sector, nr, IOCHART_OP_READ, 0, NULL, ioprio));
          add (evs, (Ev) { .kind = E_WAKEUP, .ts = t + wait + lat + 1, .pid = pid });
          add (evs, (Ev) { .kind = E_SWITCH, .ts = t + wait + lat + 2, .pid = 0, .other = pid });
          if (r == 3)
            {
              gint64 f = t + wait + lat + 3;
              add (evs, blk (f, IOCHART_BLOCK_ISSUE, 0, 0, IOCHART_OP_FLUSH, pid, name, -1));
              add (evs, blk (f + 1000, IOCHART_BLOCK_COMPLETE, G_MAXUINT64, 0, IOCHART_OP_FLUSH, 0, NULL, -1));
            }
          sector += nr;
          t += wait + lat + g_rand_int_range (rand, 0, 5) * MS;
        }
      if (p > 0)
        add (evs, (Ev) { .kind = E_EXIT, .ts = stop + 10 * MS, .pid = pid });
    }
  g_array_sort (evs, ev_cmp);
  return evs;
}

static GArray *
make_events (guint seed, gint64 seconds, guint n_procs)
{
  return make_events_lives (seed, seconds, n_procs, (gint32) (seconds * 1000));
}

static void
assert_same_btt (const IochartBttFigures *a, const IochartBttFigures *b)
{
  g_assert_cmpuint (a->index, ==, b->index);
  g_assert_cmpstr (a->comm, ==, b->comm);
  g_assert_cmpmem (&a->q2c, sizeof a->q2c, &b->q2c, sizeof b->q2c);
  g_assert_cmpmem (&a->d2c, sizeof a->d2c, &b->d2c, sizeof b->d2c);
}

static void
assert_same (IochartCapture *live, IochartCapture *ref)
{
  g_assert_cmpint (iochart_capture_get_start_ns (live), ==, iochart_capture_get_start_ns (ref));
  g_assert_cmpint (iochart_capture_get_end_ns (live), ==, iochart_capture_get_end_ns (ref));
  g_assert_cmpuint (iochart_capture_get_n_events (live), ==, iochart_capture_get_n_events (ref));
  g_assert_cmpuint (iochart_capture_get_n_unmatched_issues (live), ==, iochart_capture_get_n_unmatched_issues (ref));
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (live), ==,
                    iochart_capture_get_n_unmatched_completions (ref));
  g_assert_cmpuint (iochart_capture_get_n_requeues (live), ==, iochart_capture_get_n_requeues (ref));
  g_assert_cmpuint (iochart_capture_get_n_devices (live), ==, iochart_capture_get_n_devices (ref));
  g_assert_cmpuint (iochart_capture_has_task_states (live), ==, iochart_capture_has_task_states (ref));

  /* btt's figures, as `info --btt` prints them */
  g_assert_cmpuint (iochart_capture_get_n_btt_devices (live), ==, iochart_capture_get_n_btt_devices (ref));
  for (guint i = 0; i < iochart_capture_get_n_btt_devices (ref); i++)
    assert_same_btt (iochart_capture_get_btt_device (live, i), iochart_capture_get_btt_device (ref, i));
  g_assert_cmpuint (iochart_capture_get_n_btt_processes (live), ==, iochart_capture_get_n_btt_processes (ref));
  for (guint i = 0; i < iochart_capture_get_n_btt_processes (ref); i++)
    assert_same_btt (iochart_capture_get_btt_process (live, i), iochart_capture_get_btt_process (ref, i));

  g_assert_cmpuint (iochart_capture_get_n_requests (live), ==, iochart_capture_get_n_requests (ref));
  for (guint i = 0; i < iochart_capture_get_n_requests (ref); i++)
    {
      IochartRequest a, b;

      memset (&a, 0, sizeof a);
      memset (&b, 0, sizeof b);
      iochart_capture_get_request (live, i, &a);
      iochart_capture_get_request (ref, i, &b);
      g_assert_cmpmem (&a, sizeof a, &b, sizeof b);
    }

  g_assert_cmpuint (iochart_capture_get_n_processes (live), ==, iochart_capture_get_n_processes (ref));
  for (guint i = 0; i < iochart_capture_get_n_processes (ref); i++)
    {
      const IochartProcess *a = iochart_capture_get_process (live, i), *b = iochart_capture_get_process (ref, i);
      const IochartComm *ca, *cb;
      guint na, nb;

      g_assert_cmpint (a->pid, ==, b->pid);
      g_assert_cmpint (a->ppid, ==, b->ppid);
      g_assert_cmpuint (a->parent, ==, b->parent);
      g_assert_cmpint (a->start_ns, ==, b->start_ns);
      g_assert_cmpint (a->exit_ns, ==, b->exit_ns);
      g_assert_cmpstr (a->comm, ==, b->comm);
      g_assert_cmpuint (a->requests, ==, b->requests);
      g_assert_cmpuint (a->bytes, ==, b->bytes);
      g_assert_cmpuint (a->klass, ==, b->klass);
      g_assert_cmpuint (a->level, ==, b->level);
      g_assert_cmpuint (a->class_source, ==, b->class_source);
      g_assert_cmpuint (a->class_mask, ==, b->class_mask);
      ca = iochart_capture_get_comms (live, i, &na);
      cb = iochart_capture_get_comms (ref, i, &nb);
      g_assert_cmpuint (na, ==, nb);
      for (guint j = 0; j < na; j++)
        {
          g_assert_cmpint (ca[j].ns, ==, cb[j].ns);
          g_assert_cmpstr (ca[j].comm, ==, cb[j].comm);
        }
      g_assert_cmpuint (iochart_capture_get_n_task_changes (live, i), ==, iochart_capture_get_n_task_changes (ref, i));
      for (guint j = 0; j < iochart_capture_get_n_task_changes (ref, i); j++)
        {
          gint64 ta, tb;
          IochartTaskState sa, sb;

          iochart_capture_get_task_change (live, i, j, &ta, &sa);
          iochart_capture_get_task_change (ref, i, j, &tb, &sb);
          g_assert_cmpint (ta, ==, tb);
          g_assert_cmpuint (sa, ==, sb);
        }
    }
}

/* Fed in uneven chunks, snapshots taken between them: each equals the batch build of the
 * events so far. */
static void
test_snapshot_equals_batch (void)
{
  g_autoptr(GArray) evs = make_events (7, 20, 12);
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  guint fed = 0, checks = 0;

  _iochart_live_capture_set_expire_ns (live, 0);
  g_assert_cmpuint (evs->len, >, 5000);
  while (fed < evs->len)
    {
      guint n = MIN (evs->len - fed, (guint) g_rand_int_range (rand, 1, evs->len / 20));
      IochartCapture *snap;
      g_autoptr(IochartCapture) ref = NULL;

      feed (live, evs, fed, n);
      fed += n;
      snap = iochart_live_capture_update (live);
      ref = batch (evs, fed);
      assert_same (snap, ref);
      /* the other copy, brought up to date from further back, is the same; and a third
       * update with nothing new changes nothing */
      g_assert_true (iochart_live_capture_peek_next (live) != snap);
      assert_same (iochart_live_capture_update (live), ref);
      g_assert_true (iochart_live_capture_update (live) == snap);
      assert_same (snap, ref);
      checks++;
    }
  g_assert_cmpuint (checks, >=, 10);
  /* what the workload holds, so that the comparison compares something */
  {
    g_autoptr(IochartCapture) ref = batch (evs, evs->len);
    guint classes = 0;

    g_assert_cmpuint (iochart_capture_get_n_requests (ref), >, 1000);
    g_assert_cmpuint (iochart_capture_get_n_unmatched_issues (ref), >, 0);
    g_assert_cmpuint (iochart_capture_get_n_requeues (ref), >, 0);
    for (guint i = 0; i < iochart_capture_get_n_processes (ref); i++)
      classes |= iochart_capture_get_process (ref, i)->class_mask;
    g_assert_cmpuint (classes & (1 << IOCHART_CLASS_IDLE | 1 << IOCHART_CLASS_BE | 1 << IOCHART_CLASS_RT), ==,
                      1 << IOCHART_CLASS_IDLE | 1 << IOCHART_CLASS_BE | 1 << IOCHART_CLASS_RT);
  }
}

/* iochart_capture_copy of a live copy: the same capture (task states, btt figures, names), and
 * still the same after the updates that rewrite the copy it was taken from. */
static void
test_copy_stays (void)
{
  g_autoptr(GArray) evs = make_events (5, 20, 10);
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  g_autoptr(IochartCapture) ref = NULL, copy = NULL;
  IochartCapture *snap;
  guint half = evs->len / 2;

  feed (live, evs, 0, half);
  snap = iochart_live_capture_update (live);
  copy = iochart_capture_copy (snap);
  ref = batch (evs, half);
  assert_same (copy, ref);
  /* two updates: the second fills snap again, with the rest */
  feed (live, evs, half, evs->len - half);
  iochart_live_capture_update (live);
  g_assert_true (iochart_live_capture_update (live) == snap);
  g_assert_cmpuint (iochart_capture_get_n_requests (snap), >, iochart_capture_get_n_requests (ref));
  assert_same (copy, ref);
}

/* The builder keeps only what may still change: after each update it holds the newest few
 * requests, not the whole capture. */
static void
test_builder_forgets (void)
{
  g_autoptr(GArray) evs = make_events (11, 30, 6);
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  guint max_held = 0, total = 0;

  /* requests queued and never issued, and completions lost, stop holding the rest back */
  _iochart_live_capture_set_expire_ns (live, 5000 * MS);
  for (guint fed = 0; fed < evs->len;)
    {
      guint n = MIN (evs->len - fed, 200u);
      IochartBuilder *b;

      feed (live, evs, fed, n);
      fed += n;
      total = iochart_capture_get_n_requests (iochart_live_capture_update (live));
      b = _iochart_live_capture_lock (live);
      max_held = MAX (max_held, _iochart_builder_get_end (b) - _iochart_builder_get_base (b));
      _iochart_live_capture_unlock (live);
    }
  g_test_message ("%u requests, the builder held at most %u", total, max_held);
  g_assert_cmpuint (total, >, 2000);
  g_assert_cmpuint (max_held * 4, <, total);
}

/* A window: requests older than keep (plus the quarter that leaves in one batch) are gone,
 * and the store stops growing. */
static void
test_window (void)
{
  g_autoptr(GArray) evs = make_events (5, 120, 8);
  gint64 keep = 10 * 1000 * MS;
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", keep);
  guint max_requests = 0, max_tasks = 0;
  g_autoptr(IochartCapture) ref = batch (evs, evs->len);

  _iochart_live_capture_set_expire_ns (live, 5000 * MS);
  for (guint fed = 0; fed < evs->len;)
    {
      guint n = MIN (evs->len - fed, 500u);
      IochartCapture *c;
      guint tasks = 0, old = 0;

      feed (live, evs, fed, n);
      fed += n;
      c = iochart_live_capture_update (live);
      for (guint i = 0; i < iochart_capture_get_n_processes (c); i++)
        tasks += iochart_capture_get_n_task_changes (c, i);
      max_requests = MAX (max_requests, iochart_capture_get_n_requests (c));
      /* older than the window: the batch that has not left yet, and the few that sit behind a
       * newer one that waited long (they leave in creation order) */
      for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
        {
          IochartRequest r;

          iochart_capture_get_request (c, i, &r);
          old += MAX (r.complete_ns, r.issue_ns) < iochart_capture_get_end_ns (c) - keep;
        }
      g_assert_cmpuint (old, <=, MAX (1024, iochart_capture_get_n_requests (c) / 2));
      max_tasks = MAX (max_tasks, tasks);
      g_assert_cmpint (iochart_capture_get_end_ns (c) - iochart_capture_get_start_ns (c), <=, keep);
    }
  g_test_message ("window of 10 s: at most %u requests and %u task states of %u and %u",
                  max_requests, max_tasks, iochart_capture_get_n_requests (ref), ref->tasks->len);
  /* 120 s of I/O, 10 s kept (and up to a quarter more before a batch leaves) */
  g_assert_cmpuint (max_requests * 2, <, iochart_capture_get_n_requests (ref));
  g_assert_cmpuint (max_tasks * 2, <, ref->tasks->len);
}

/* A window over a long run of many short-lived processes: those whose requests all left it are
 * dropped (from the builder and both copies), so processes stay bounded; every request still
 * names its own process (renumbered), and btt's figures per name still cover the whole run. */
static void
test_window_drops_processes (void)
{
  g_autoptr(GArray) evs = make_events_lives (17, 120, 1500, 400);
  gint64 keep = 5000 * MS;
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", keep);
  g_autoptr(IochartCapture) ref = batch (evs, evs->len);
  guint max_snap = 0, max_builder = 0, checked = 0;
  IochartCapture *c = NULL;

  _iochart_live_capture_set_expire_ns (live, 3000 * MS);
  for (guint fed = 0; fed < evs->len;)
    {
      guint n = MIN (evs->len - fed, 2000u);
      IochartBuilder *b;

      feed (live, evs, fed, n);
      fed += n;
      c = iochart_live_capture_update (live);
      max_snap = MAX (max_snap, iochart_capture_get_n_processes (c));
      b = _iochart_live_capture_lock (live);
      max_builder = MAX (max_builder, _iochart_builder_peek (b)->processes->len);
      _iochart_live_capture_unlock (live);
      /* the readers' sectors say whose they are */
      for (guint i = 0; i < iochart_capture_get_n_requests (c); i++)
        {
          IochartRequest r;

          iochart_capture_get_request (c, i, &r);
          if (r.op == IOCHART_OP_FLUSH)
            continue;
          g_assert_cmpuint (r.process, <, iochart_capture_get_n_processes (c));
          g_assert_cmpint (iochart_capture_get_process (c, r.process)->pid, ==, 1000 + (gint32) (r.sector >> 24));
          checked++;
        }
      for (guint i = 0; i < iochart_capture_get_n_processes (c); i++)
        for (guint j = 0; j < iochart_capture_get_n_task_changes (c, i); j++)
          {
            gint64 t;
            IochartTaskState st;

            iochart_capture_get_task_change (c, i, j, &t, &st);
            g_assert_cmpint (t, <=, iochart_capture_get_end_ns (c));
          }
    }
  g_test_message ("window of 5 s over 120 s of %u processes: at most %u in a snapshot, %u in the builder; %u "
                  "requests checked against their process", iochart_capture_get_n_processes (ref), max_snap,
                  max_builder, checked);
  g_assert_cmpuint (iochart_capture_get_n_processes (ref), >, 1500);
  g_assert_cmpuint (max_snap * 3, <, iochart_capture_get_n_processes (ref));
  g_assert_cmpuint (max_builder * 3, <, iochart_capture_get_n_processes (ref));
  g_assert_cmpuint (checked, >, 10000);
  /* btt's figures are the whole run's, as the file's are */
  g_assert_cmpuint (iochart_capture_get_n_btt_processes (c), ==, iochart_capture_get_n_btt_processes (ref));
  for (guint i = 0; i < iochart_capture_get_n_btt_processes (ref); i++)
    assert_same_btt (iochart_capture_get_btt_process (c, i), iochart_capture_get_btt_process (ref, i));
  for (guint i = 0; i < iochart_capture_get_n_btt_devices (ref); i++)
    assert_same_btt (iochart_capture_get_btt_device (c, i), iochart_capture_get_btt_device (ref, i));
}

/* --class rules: processes whose events give no class take a rule's (by name and by pid), in
 * every snapshot as in the batch build with the same rules. */
static void
test_rules (void)
{
  g_autoptr(GArray) evs = make_events (13, 20, 8);
  IochartClassRule rules[] = { { "reader1", IOCHART_CLASS_IDLE, 7 }, { "1002", IOCHART_CLASS_RT, 2 },
                               { "reader5", IOCHART_CLASS_BE, 1 } };
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  guint ruled = 0;

  _iochart_live_capture_set_expire_ns (live, 0);
  /* readers 1, 2 and 5 give no class in their events: only the rules tell */
  for (guint i = 0; i < evs->len; i++)
    {
      Ev *e = &g_array_index (evs, Ev, i);
      guint64 owner = e->sector >> 24;

      if (e->kind == E_BLOCK && e->op != IOCHART_OP_FLUSH && (owner == 1 || owner == 2 || owner == 5))
        e->ioprio = -1;
    }
  for (guint i = 0; i < G_N_ELEMENTS (rules); i++)
    iochart_live_capture_add_rule (live, &rules[i]);
  for (guint fed = 0; fed < evs->len;)
    {
      guint n = MIN (evs->len - fed, evs->len / 7 + 1);
      g_autoptr(IochartCapture) ref = NULL;

      feed (live, evs, fed, n);
      fed += n;
      ref = batch_with_rules (evs, fed, rules, G_N_ELEMENTS (rules));
      assert_same (iochart_live_capture_update (live), ref);
      assert_same (iochart_live_capture_update (live), ref);
    }
  {
    IochartCapture *c = iochart_live_capture_update (live);

    for (guint i = 0; i < iochart_capture_get_n_processes (c); i++)
      {
        const IochartProcess *p = iochart_capture_get_process (c, i);

        if (p->pid == 1001 || p->pid == 1002 || p->pid == 1005)
          {
            g_assert_cmpuint (p->class_source, ==, IOCHART_CLASS_SOURCE_RULE);
            g_assert_cmpuint (p->klass, ==, p->pid == 1001 ? IOCHART_CLASS_IDLE
                                            : p->pid == 1002 ? IOCHART_CLASS_RT : IOCHART_CLASS_BE);
            ruled++;
          }
      }
  }
  g_assert_cmpuint (ruled, ==, 3);
}

/* The live status's rates: readers of each class (and one that never set a class: "none") at
 * known rates over 3 s; the last second's bytes and requests by class are what they issued in
 * it, by count; a class that issued nothing is left out of the line. */
static void
test_status_rates (void)
{
  static const struct { IochartClass klass; gint64 step; guint32 nr; } readers[] = {
    { IOCHART_CLASS_RT, 2 * MS, 8 }, { IOCHART_CLASS_BE, 1 * MS, 16 }, { IOCHART_CLASS_NONE, 4 * MS, 32 },
    { IOCHART_CLASS_IDLE, 5 * MS, 64 },
  };
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  IochartLiveStatus st;
  IochartCapture *c;
  g_autofree char *line = NULL;
  gint64 end = 3000 * MS;

  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      gint32 pid = 100 + r;
      gint32 ioprio = readers[r].klass == IOCHART_CLASS_NONE ? 0 : (gint32) IOCHART_IOPRIO_MAKE (readers[r].klass, 4);
      guint64 sector = (guint64) (r + 1) << 24;

      for (gint64 t = r * 1000 + readers[r].step; t <= end; t += readers[r].step, sector += readers[r].nr)
        {
          add (evs, blk (t, IOCHART_BLOCK_QUEUE, sector, readers[r].nr, IOCHART_OP_READ, pid, "reader", ioprio));
          add (evs, blk (t + 10, IOCHART_BLOCK_ISSUE, sector, readers[r].nr, IOCHART_OP_READ, pid, "reader", ioprio));
          add (evs, blk (t + 200, IOCHART_BLOCK_COMPLETE, sector, readers[r].nr, IOCHART_OP_READ, 0, NULL, ioprio));
        }
    }
  g_array_sort (evs, ev_cmp);
  feed (live, evs, 0, evs->len);
  c = iochart_live_capture_update (live);
  iochart_live_status_compute (c, NULL, &st);
  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      /* issued in the second before the newest event (a completion 200 ns after the last issue) */
      double want = (double) (1000 * MS / readers[r].step);

      g_assert_cmpfloat (fabs (st.requests_per_s[readers[r].klass] - want), <=, 1);
      g_assert_cmpfloat (fabs (st.bytes_per_s[readers[r].klass] - want * readers[r].nr * 512), <=, readers[r].nr * 512);
    }
  g_assert_cmpfloat (st.requests_per_s[IOCHART_CLASS_UNKNOWN], ==, 0);
  line = iochart_live_status_format (&st);
  g_test_message ("%s", line);
  g_assert_true (g_str_has_prefix (line, "rt 2.0 MiB/s (500/s) · be 7.8 MiB/s (1,000/s) · none 3.9 MiB/s (250/s) · "
                                         "idle 6.2 MiB/s (200/s) · "));
  g_assert_null (strstr (line, "unknown"));
}

/* The status's events a second, a status a second of trace time as the CLI and the app take
 * them: a reader's three events a request every 2 ms in the second second (1,500 events/s), every
 * 1 ms in the third and fourth (3,000/s), then nothing: the statuses after the source went quiet
 * (the recording stopped) keep the last second's rate, as the class rates do, where the app's
 * last status said "0 events/s"; the first status, with nothing before it, has none. */
static void
test_status_events_rate (void)
{
  static const double want[] = { 0, 0, 1500, 3000, 3000, 3000, 3000 };
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  IochartLiveStatus st = { 0 }, prev = { 0 };
  guint fed = 0;
  guint64 sector = 1 << 20;

  for (gint64 t = 1000, step = 2 * MS; t < 4000 * MS; t += step, sector += 8)
    {
      step = t < 2000 * MS ? 2 * MS : 1 * MS;
      add (evs, blk (t, IOCHART_BLOCK_QUEUE, sector, 8, IOCHART_OP_READ, 100, "reader", 0));
      add (evs, blk (t + 10, IOCHART_BLOCK_ISSUE, sector, 8, IOCHART_OP_READ, 100, "reader", 0));
      add (evs, blk (t + 200, IOCHART_BLOCK_COMPLETE, sector, 8, IOCHART_OP_READ, 0, NULL, 0));
    }
  g_array_sort (evs, ev_cmp);
  for (guint second = 1; second <= 6; second++)
    {
      guint from = fed;

      while (fed < evs->len && g_array_index (evs, Ev, fed).ts <= (gint64) second * 1000 * MS)
        fed++;
      feed (live, evs, from, fed - from);
      iochart_live_status_compute (iochart_live_capture_update (live), &prev, &st);
      g_test_message ("status %u: %.0f events/s", second, st.events_per_s);
      g_assert_cmpfloat (fabs (st.events_per_s - want[second]), <=, want[second] * 0.01);
      prev = st;
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live-capture/snapshot-equals-batch", test_snapshot_equals_batch);
  g_test_add_func ("/live-capture/builder-forgets", test_builder_forgets);
  g_test_add_func ("/live-capture/copy-stays", test_copy_stays);
  g_test_add_func ("/live-capture/window", test_window);
  g_test_add_func ("/live-capture/rules", test_rules);
  g_test_add_func ("/live-capture/window-drops-processes", test_window_drops_processes);
  g_test_add_func ("/live-capture/status-rates", test_status_rates);
  g_test_add_func ("/live-capture/status-events-rate", test_status_events_rate);
  return g_test_run ();
}
