/* sim-synth.h: a synthetic capture shaped like the classic report, for tests and the bench
 *
 * Each reader is `ionice -c CLASS find DIR -type f -exec cat {} \;`: a `find` that reads a
 * directory block every 40 files and forks one `cat` per file; each `cat` execs, reads an inode
 * block every 16 files, reads its 64-128 KiB file in one request and exits; `find` forks the next
 * one when it has exited. Files lie one after another with small gaps, each reader's tree in its
 * own region of the disk. The CPU gaps (about 6.5 ms a file: fork, exec, exit) are those of the
 * report's 2011 machine: 242 s for 1.9 GB is about 13 ms a file. Every reader is timed as if alone on an HDD (the closed-loop replay only
 * keeps each process's own gaps), all starting together.
 */
#pragma once

#include <math.h>
#include <string.h>
#include "iochart-capture-private.h"

#define SYNTH_DEV IOCHART_DEV_MAKE (8, 0)
#define SYNTH_MS G_GINT64_CONSTANT (1000000)

typedef struct {
  IochartClass klass;
  guint        n_files;
  guint64      region;        /* first sector of its tree */
  guint32      seed;
} SynthReader;

typedef enum { S_FORK, S_EXEC, S_EXIT, S_Q, S_I, S_D, S_C } SynthKind;

typedef struct {
  gint64    ts;
  guint64   seq;
  SynthKind kind;
  gint32    pid, ppid;
  guint64   sector;
  guint32   nr;
  const char *rwbs;
  const char *comm;
  gint32    ioprio;
} SynthEvent;

typedef struct {
  GArray  *events;
  guint64  seq;
  gint32   next_pid;
  guint64  head;              /* this reader's disk head, for its alone timing */
} Synth;

static inline void
synth_put (Synth *s, SynthEvent e)
{
  e.seq = s->seq++;
  g_array_append_val (s->events, e);
}

/* The slowdisk / 7200 rpm model the simulator's hdd model uses, on a 4 GiB disk. */
static inline gint64
synth_service_ns (Synth *s, guint64 sector, guint32 nr)
{
  double ms = 0.1 + nr * 512.0 / (120.0 * 1024 * 1024) * 1000;

  if (sector != s->head)
    ms += 1.5 + 7 * sqrt (fabs ((double) sector - (double) s->head) / (8.0 * 1024 * 1024)) + 4.17;
  s->head = sector + nr;
  return (gint64) (ms * 1e6);
}

/* A sync read Q/I/D at t, completed after its alone service; returns the completion. */
static inline gint64
synth_read (Synth *s, gint64 t, gint32 pid, const char *comm, guint64 sector, guint32 nr,
            const char *rwbs, gint32 ioprio)
{
  gint64 done = t + synth_service_ns (s, sector, nr);

  synth_put (s, (SynthEvent) { .ts = t, .kind = S_Q, .pid = pid, .sector = sector, .nr = nr, .rwbs = rwbs, .comm = comm, .ioprio = ioprio });
  synth_put (s, (SynthEvent) { .ts = t + 2000, .kind = S_I, .pid = pid, .sector = sector, .nr = nr, .rwbs = rwbs, .comm = comm, .ioprio = ioprio });
  synth_put (s, (SynthEvent) { .ts = t + 4000, .kind = S_D, .pid = pid, .sector = sector, .nr = nr, .rwbs = rwbs, .comm = comm, .ioprio = ioprio });
  synth_put (s, (SynthEvent) { .ts = done, .kind = S_C, .pid = -1, .sector = sector, .nr = nr, .rwbs = rwbs, .ioprio = ioprio });
  return done;
}

static inline void
synth_reader (Synth *s, const SynthReader *r)
{
  GRand *rng = g_rand_new_with_seed (r->seed);
  gint32 ioprio = IOCHART_IOPRIO_MAKE (r->klass, r->klass == IOCHART_CLASS_IDLE ? 7 : 4);
  gint32 find = s->next_pid++;
  guint64 pos = r->region + 4096;
  gint64 t = 0;

  s->head = r->region;
  synth_put (s, (SynthEvent) { .ts = t, .kind = S_FORK, .pid = find, .ppid = 1, .comm = "find" });
  t += SYNTH_MS;
  for (guint i = 0; i < r->n_files; i++)
    {
      gint32 cat = s->next_pid++;
      guint32 nr = (64 + 4 * g_rand_int_range (rng, 0, 17)) * 2;     /* 64-128 KiB */
      gint64 tc;

      if (i % 40 == 0)   /* find reads the next directory block */
        t = synth_read (s, t, find, "find", r->region + i / 40 * 8, 8, "RM", ioprio) + 200000;
      t += 1200000 + g_rand_int_range (rng, 0, 1600000);               /* find's own work, fork */
      synth_put (s, (SynthEvent) { .ts = t, .kind = S_FORK, .pid = cat, .ppid = find, .comm = "find" });
      tc = t + 2000000 + g_rand_int_range (rng, 0, 2000000);           /* exec, open */
      synth_put (s, (SynthEvent) { .ts = tc - 100000, .kind = S_EXEC, .pid = cat, .comm = "cat" });
      if (i % 16 == 0)   /* the inode block of the next 16 files */
        tc = synth_read (s, tc, cat, "cat", r->region + 2048 + i / 16 * 8, 8, "RM", ioprio) + 100000;
      tc = synth_read (s, tc, cat, "cat", pos, nr, "R", ioprio);
      pos += nr + 8 * g_rand_int_range (rng, 1, 32);
      tc += 800000 + g_rand_int_range (rng, 0, 800000);                /* write to the pipe, exit */
      synth_put (s, (SynthEvent) { .ts = tc, .kind = S_EXIT, .pid = cat });
      t = tc + 400000;                                                 /* find's wait() returns */
    }
  synth_put (s, (SynthEvent) { .ts = t + SYNTH_MS, .kind = S_EXIT, .pid = find });
  g_rand_free (rng);
}

static inline int
synth_event_cmp (gconstpointer a, gconstpointer b)
{
  const SynthEvent *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline void
synth_feed (IochartBuilder *b, const SynthEvent *e)
{
  static const IochartBlockAction actions[] = { [S_Q] = IOCHART_BLOCK_QUEUE, [S_I] = IOCHART_BLOCK_INSERT,
                                                [S_D] = IOCHART_BLOCK_ISSUE, [S_C] = IOCHART_BLOCK_COMPLETE };
  IochartBlockEvent be = IOCHART_BLOCK_EVENT_INIT;
  IochartOp op;
  guint8 flags;

  switch (e->kind)
    {
    case S_FORK:
      _iochart_builder_fork (b, e->ts, e->ppid, e->pid, e->comm);
      return;
    case S_EXEC:
      _iochart_builder_exec (b, e->ts, e->pid, "/usr/bin/cat");
      _iochart_builder_comm (b, e->ts, e->pid, e->comm, strlen (e->comm));
      return;
    case S_EXIT:
      _iochart_builder_exit (b, e->ts, e->pid);
      return;
    default:
      break;
    }
  iochart_rwbs_parse (e->rwbs, strlen (e->rwbs), &op, &flags);
  be.ts_ns = e->ts;
  be.dev = SYNTH_DEV;
  be.sector = e->sector;
  be.nr_sector = e->nr;
  be.op = op;
  be.flags = flags;
  be.pid = e->pid;
  be.comm = e->comm;
  be.comm_len = e->comm ? strlen (e->comm) : 0;
  be.ioprio = e->ioprio;
  _iochart_builder_block (b, actions[e->kind], &be);
}

/* The capture of the readers, run together (each timed as if alone). */
static inline IochartCapture *
synth_capture (const SynthReader *readers, guint n_readers)
{
  Synth s = { .events = g_array_new (FALSE, FALSE, sizeof (SynthEvent)), .next_pid = 1000 };
  IochartBuilder *b = _iochart_builder_new ("synth");
  IochartCapture *c;

  for (guint i = 0; i < n_readers; i++)
    synth_reader (&s, &readers[i]);
  g_array_sort (s.events, synth_event_cmp);
  for (guint i = 0; i < s.events->len; i++)
    synth_feed (b, &g_array_index (s.events, SynthEvent, i));
  c = _iochart_builder_finish (b);
  _iochart_builder_free (b);
  g_array_unref (s.events);
  return c;
}
