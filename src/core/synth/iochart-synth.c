/* iochart-synth.c: the synthetic `find -exec cat` readers (see the header)
 *
 * Each reader is a generator that makes one file's events at a time, in time order; the readers'
 * streams are merged by time (ties to the earlier reader), so a capture of millions of requests
 * costs no memory beyond the capture. The same stream goes either to the builder, as the .dat
 * reader would hand it, or into ring-buffer records through the one .dat writer.
 */
#include <math.h>
#include <string.h>

#include "iochart-synth.h"
#include "iochart-capture-private.h"
#include "iochart-error.h"
#include "readers/iochart-dat-writer.h"

#define MS G_GINT64_CONSTANT (1000000)
/* The clock reads this at the readers' start, as a trace's clock would not read 0. */
#define BASE_NS G_GINT64_CONSTANT (1000000000)

typedef enum { EV_FORK, EV_EXEC, EV_EXIT, EV_QUEUE, EV_INSERT, EV_ISSUE, EV_COMPLETE } Kind;

typedef struct {
  gint64  ts;
  guint64 sector;
  const char *comm;            /* the running task's: the parent's for a fork */
  gint32  pid, ppid;           /* ppid: forks */
  guint32 nr;
  guint8  kind;                /* Kind */
  guint8  meta;                /* a metadata read: rwbs "RM", else "R" */
  guint16 ioprio;
} Event;

/* One file's events at most: a directory read, fork, exec, an inode read, the file read, exit. */
#define BATCH 16

typedef struct {
  const IochartSynthReader *r;
  GRand   *rng;
  guint16  ioprio;
  gint32   find, next_cat;
  guint64  pos, head;          /* next file's sector; the disk head for the alone timing */
  gint64   t;
  guint    i;                  /* next file */
  gboolean done;
  Event    batch[BATCH];
  guint    n, k;               /* events in batch, next to hand out */
} Gen;

static void
put (Gen *g, Event e)
{
  g_assert (g->n < BATCH);
  g->batch[g->n++] = e;
}

/* The slowdisk / 7200 rpm model the simulator's hdd model uses, on a 4 GiB disk. */
static gint64
service_ns (Gen *g, guint64 sector, guint32 nr)
{
  double ms = 0.1 + nr * 512.0 / (120.0 * 1024 * 1024) * 1000;

  if (sector != g->head)
    ms += 1.5 + 7 * sqrt (fabs ((double) sector - (double) g->head) / (8.0 * 1024 * 1024)) + 4.17;
  g->head = sector + nr;
  return (gint64) (ms * 1e6);
}

/* A sync read queued, inserted and issued at t, completed after its alone service. */
static gint64
read_at (Gen *g, gint64 t, gint32 pid, guint64 sector, guint32 nr, gboolean meta)
{
  gint64 done = t + service_ns (g, sector, nr);
  Event e = { .pid = pid, .comm = pid == g->find ? "find" : "cat", .sector = sector, .nr = nr,
              .meta = meta, .ioprio = g->ioprio };

  e.ts = t, e.kind = EV_QUEUE;
  put (g, e);
  e.ts = t + 2000, e.kind = EV_INSERT;
  put (g, e);
  e.ts = t + 4000, e.kind = EV_ISSUE;
  put (g, e);
  e.ts = done, e.kind = EV_COMPLETE, e.pid = 0, e.comm = NULL;   /* in interrupt context */
  put (g, e);
  return done;
}

/* The next file's events, or find's exit after the last. */
static void
gen_file (Gen *g)
{
  const IochartSynthReader *r = g->r;
  guint i = g->i++;
  gint32 cat = g->next_cat++;
  guint32 nr;
  gint64 tc;

  g->n = g->k = 0;
  if (i == r->n_files)
    {
      put (g, (Event) { .ts = g->t + MS, .kind = EV_EXIT, .pid = g->find, .comm = "find" });
      g->done = TRUE;
      return;
    }
  nr = (64 + 4 * g_rand_int_range (g->rng, 0, 17)) * 2;                    /* 64-128 KiB */
  if (i % 40 == 0)   /* find reads the next directory block */
    g->t = read_at (g, g->t, g->find, r->region + i / 40 * 8, 8, TRUE) + 200000;
  g->t += 1200000 + g_rand_int_range (g->rng, 0, 1600000);                 /* find's own work */
  put (g, (Event) { .ts = g->t, .kind = EV_FORK, .pid = cat, .ppid = g->find, .comm = "find" });
  tc = g->t + 2000000 + g_rand_int_range (g->rng, 0, 2000000);             /* exec, open */
  put (g, (Event) { .ts = tc - 100000, .kind = EV_EXEC, .pid = cat, .comm = "cat" });
  if (i % 16 == 0)   /* the inode block of the next 16 files */
    tc = read_at (g, tc, cat, r->region + 2048 + i / 16 * 8, 8, TRUE) + 100000;
  tc = read_at (g, tc, cat, g->pos, nr, FALSE);
  g->pos += nr + 8 * g_rand_int_range (g->rng, 1, 32);
  tc += 800000 + g_rand_int_range (g->rng, 0, 800000);                     /* write, exit */
  put (g, (Event) { .ts = tc, .kind = EV_EXIT, .pid = cat, .comm = "cat" });
  g->t = tc + 400000;                                                      /* wait() returns */
}

static void
gen_init (Gen *g, const IochartSynthReader *r, gint32 find)
{
  memset (g, 0, sizeof *g);
  g->r = r;
  g->rng = g_rand_new_with_seed (r->seed);
  g->ioprio = IOCHART_IOPRIO_MAKE (r->klass, r->klass == IOCHART_CLASS_IDLE ? 7 : 4);
  g->find = find;
  g->next_cat = find + 1;
  g->pos = r->region + 4096;
  g->head = r->region;
  put (g, (Event) { .ts = 0, .kind = EV_FORK, .pid = find, .ppid = 1, .comm = "sh" });
  g->t = MS;
}

static const Event *
gen_peek (Gen *g)
{
  if (g->k == g->n && !g->done)
    gen_file (g);
  return g->k < g->n ? &g->batch[g->k] : NULL;
}

typedef void (*Sink) (const Event *e, gpointer data);

/* Every reader's events, merged in time order (ties to the earlier reader). */
static void
synth_run (const IochartSynthReader *readers, guint n_readers, Sink sink, gpointer data)
{
  Gen gens[IOCHART_SYNTH_MAX_READERS];

  g_return_if_fail (n_readers <= IOCHART_SYNTH_MAX_READERS);
  for (guint k = 0; k < n_readers; k++)
    gen_init (&gens[k], &readers[k], iochart_synth_reader_pid (readers, k));
  for (;;)
    {
      Gen *best = NULL;
      const Event *e = NULL;

      for (guint k = 0; k < n_readers; k++)
        {
          const Event *x = gen_peek (&gens[k]);
          if (x != NULL && (e == NULL || x->ts < e->ts))
            e = x, best = &gens[k];
        }
      if (e == NULL)
        break;
      sink (e, data);
      best->k++;
    }
  for (guint k = 0; k < n_readers; k++)
    g_rand_free (gens[k].rng);
}

gint32
iochart_synth_reader_pid (const IochartSynthReader *readers, guint k)
{
  gint32 pid = IOCHART_SYNTH_FIRST_PID;

  for (guint j = 0; j < k; j++)
    pid += (gint32) readers[j].n_files + 1;
  return pid;
}

/* ---- to the builder, as the .dat reader hands it the same records ---- */

static void
to_builder (const Event *e, gpointer data)
{
  static const IochartBlockAction actions[] = {
    [EV_QUEUE] = IOCHART_BLOCK_QUEUE, [EV_INSERT] = IOCHART_BLOCK_INSERT,
    [EV_ISSUE] = IOCHART_BLOCK_ISSUE, [EV_COMPLETE] = IOCHART_BLOCK_COMPLETE,
  };
  IochartBuilder *b = data;
  IochartBlockEvent be = IOCHART_BLOCK_EVENT_INIT;
  gint64 ts = BASE_NS + e->ts;
  IochartOp op;

  switch (e->kind)
    {
    case EV_FORK:
      _iochart_builder_fork (b, ts, e->ppid, e->pid, "find");
      return;
    case EV_EXEC:
      _iochart_builder_exec (b, ts, e->pid, "/usr/bin/cat");
      return;
    case EV_EXIT:
      _iochart_builder_exit (b, ts, e->pid);
      return;
    default:
      break;
    }
  iochart_rwbs_parse (e->meta ? "RM" : "R", e->meta ? 2 : 1, &op, &be.flags);
  be.op = op;
  be.ts_ns = ts;
  be.dev = IOCHART_SYNTH_DEV;
  be.sector = e->sector;
  be.nr_sector = e->nr;
  be.pid = e->pid;
  if (e->kind == EV_INSERT || e->kind == EV_ISSUE)
    be.bytes = e->nr * 512;
  if (e->kind != EV_QUEUE)   /* block_bio_queue has no ioprio field */
    be.ioprio = e->ioprio;
  if (e->kind == EV_COMPLETE)
    be.error = 0;
  else   /* block_rq_complete has no comm field */
    be.comm = e->comm, be.comm_len = strlen (e->comm);
  _iochart_builder_block (b, actions[e->kind], &be);
}

IochartCapture *
iochart_synth_capture (const IochartSynthReader *readers, guint n_readers)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("synth");

  synth_run (readers, n_readers, to_builder, b);
  return _iochart_builder_finish (b);
}

/* ---- to a .dat: ring-buffer records through the one .dat writer ---- */

/* The formats of a Linux 6.18 kernel (events/SYSTEM/EVENT/format), so that trace-cmd and every
 * reader of the file read the records below as they read a recording. */
/* The header of every event */
#define COMMON_FIELDS \
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n" \
  "\n"

static const char fmt_block_bio_queue[] =
  "name: block_bio_queue\n"
  "ID: 2097\n"
  "format:\n"
  COMMON_FIELDS
  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
  "\tfield:char rwbs[10];\toffset:28;\tsize:10;\tsigned:0;\n"
  "\tfield:char comm[16];\toffset:38;\tsize:16;\tsigned:0;\n"
  "\n"
  "print fmt: \"%d,%d %s %llu + %u [%s]\", ((unsigned int) ((REC->dev) >> 20)), "
    "((unsigned int) ((REC->dev) & ((1U << 20) - 1))), REC->rwbs, "
    "(unsigned long long)REC->sector, REC->nr_sector, REC->comm\n"
  ;
/* block_rq_insert and block_rq_issue share their fields */
#define RQ_FORMAT_FIELDS \
  COMMON_FIELDS \
  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n" \
  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n" \
  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n" \
  "\tfield:unsigned int bytes;\toffset:28;\tsize:4;\tsigned:0;\n" \
  "\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n" \
  "\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n" \
  "\tfield:char comm[16];\toffset:44;\tsize:16;\tsigned:0;\n" \
  "\tfield:__data_loc char[] cmd;\toffset:60;\tsize:4;\tsigned:0;\n" \
  "\n" \
  "print fmt: \"%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]\", " \
    "((unsigned int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), " \
    "REC->rwbs, REC->bytes, __get_str(cmd), (unsigned long long)REC->sector, REC->nr_sector, " \
    "__print_symbolic((((REC->ioprio) >> 13) & (8 - 1)), { IOPRIO_CLASS_NONE, \"none\" }, " \
    "{ IOPRIO_CLASS_RT, \"rt\" }, { IOPRIO_CLASS_BE, \"be\" }, { IOPRIO_CLASS_IDLE, " \
    "\"idle\" }, { IOPRIO_CLASS_INVALID, \"invalid\"}), " \
    "(((REC->ioprio) >> 3) & ((1 << 10) - 1)), ((REC->ioprio) & ((1 << 3) - 1)), REC->comm\n"
static const char fmt_block_rq_insert[] =
  "name: block_rq_insert\n"
  "ID: 2105\n"
  "format:\n"
  RQ_FORMAT_FIELDS;
static const char fmt_block_rq_issue[] =
  "name: block_rq_issue\n"
  "ID: 2104\n"
  "format:\n"
  RQ_FORMAT_FIELDS;
static const char fmt_block_rq_complete[] =
  "name: block_rq_complete\n"
  "ID: 2107\n"
  "format:\n"
  COMMON_FIELDS
  "\tfield:dev_t dev;\toffset:8;\tsize:4;\tsigned:0;\n"
  "\tfield:sector_t sector;\toffset:16;\tsize:8;\tsigned:0;\n"
  "\tfield:unsigned int nr_sector;\toffset:24;\tsize:4;\tsigned:0;\n"
  "\tfield:int error;\toffset:28;\tsize:4;\tsigned:1;\n"
  "\tfield:unsigned short ioprio;\toffset:32;\tsize:2;\tsigned:0;\n"
  "\tfield:char rwbs[10];\toffset:34;\tsize:10;\tsigned:0;\n"
  "\tfield:__data_loc char[] cmd;\toffset:44;\tsize:4;\tsigned:0;\n"
  "\n"
  "print fmt: \"%d,%d %s (%s) %llu + %u %s,%u,%u [%d]\", "
    "((unsigned int) ((REC->dev) >> 20)), ((unsigned int) ((REC->dev) & ((1U << 20) - 1))), "
    "REC->rwbs, __get_str(cmd), (unsigned long long)REC->sector, REC->nr_sector, "
    "__print_symbolic((((REC->ioprio) >> 13) & (8 - 1)), { IOPRIO_CLASS_NONE, \"none\" }, "
    "{ IOPRIO_CLASS_RT, \"rt\" }, { IOPRIO_CLASS_BE, \"be\" }, { IOPRIO_CLASS_IDLE, "
    "\"idle\" }, { IOPRIO_CLASS_INVALID, \"invalid\"}), "
    "(((REC->ioprio) >> 3) & ((1 << 10) - 1)), ((REC->ioprio) & ((1 << 3) - 1)), REC->error\n"
  ;
static const char fmt_sched_process_fork[] =
  "name: sched_process_fork\n"
  "ID: 366\n"
  "format:\n"
  COMMON_FIELDS
  "\tfield:__data_loc char[] parent_comm;\toffset:8;\tsize:4;\tsigned:0;\n"
  "\tfield:pid_t parent_pid;\toffset:12;\tsize:4;\tsigned:1;\n"
  "\tfield:__data_loc char[] child_comm;\toffset:16;\tsize:4;\tsigned:0;\n"
  "\tfield:pid_t child_pid;\toffset:20;\tsize:4;\tsigned:1;\n"
  "\n"
  "print fmt: \"comm=%s pid=%d child_comm=%s child_pid=%d\", __get_str(parent_comm), "
    "REC->parent_pid, __get_str(child_comm), REC->child_pid\n"
  ;
static const char fmt_sched_process_exec[] =
  "name: sched_process_exec\n"
  "ID: 365\n"
  "format:\n"
  COMMON_FIELDS
  "\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
  "\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
  "\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n"
  "\n"
  "print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid\n"
  ;
static const char fmt_sched_process_exit[] =
  "name: sched_process_exit\n"
  "ID: 369\n"
  "format:\n"
  COMMON_FIELDS
  "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
  "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
  "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
  "\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n"
  "\n"
  "print fmt: \"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio, "
    "REC->group_dead ? \"true\" : \"false\"\n"
  ;


/* The event IDs of the formats above. */
enum {
  ID_BIO_QUEUE = 2097, ID_RQ_INSERT = 2105, ID_RQ_ISSUE = 2104, ID_RQ_COMPLETE = 2107,
  ID_FORK = 366, ID_EXEC = 365, ID_EXIT = 369,
};

/* One record being laid out: fixed fields at their offsets, __data_loc strings after them. */
typedef struct {
  guint8 b[112];
  gsize  len;
} Rec;

static void
rec_init (Rec *r, guint16 id, gint32 pid, gsize fixed)
{
  memset (r, 0, sizeof *r);
  memcpy (r->b, &id, 2);
  memcpy (r->b + 4, &pid, 4);
  r->len = fixed;
}

static void
rec_put (Rec *r, gsize off, const void *v, gsize n)
{
  memcpy (r->b + off, v, n);
}

static void
rec_u32 (Rec *r, gsize off, guint32 v)
{
  rec_put (r, off, &v, 4);
}

/* A char[n] field: the text, NUL-padded. */
static void
rec_chars (Rec *r, gsize off, const char *text, gsize n)
{
  strncpy ((char *) r->b + off, text, n - 1);
}

/* A __data_loc string: offset | length << 16, the text (with its NUL) at the record's end. */
static void
rec_loc (Rec *r, gsize off, const char *text)
{
  gsize n = strlen (text) + 1;

  g_assert (r->len + n <= sizeof r->b);
  rec_u32 (r, off, (guint32) r->len | (guint32) n << 16);
  memcpy (r->b + r->len, text, n);
  r->len += n;
}

/* Per the formats above; block events in their own lines as each format lays them. */
static void
encode (const Event *e, Rec *r)
{
  static const guint16 block_ids[] = {
    [EV_QUEUE] = ID_BIO_QUEUE, [EV_INSERT] = ID_RQ_INSERT, [EV_ISSUE] = ID_RQ_ISSUE,
    [EV_COMPLETE] = ID_RQ_COMPLETE,
  };
  const char *rwbs = e->meta ? "RM" : "R";
  guint32 dev = IOCHART_SYNTH_DEV, bytes = e->nr * 512, prio = 120, zero = 0;
  guint8 group_dead = 1;

  switch (e->kind)
    {
    case EV_FORK:
      rec_init (r, ID_FORK, e->ppid, 24);
      rec_loc (r, 8, e->comm);
      rec_u32 (r, 12, e->ppid);
      rec_loc (r, 16, "find");
      rec_u32 (r, 20, e->pid);
      return;
    case EV_EXEC:
      rec_init (r, ID_EXEC, e->pid, 20);
      rec_loc (r, 8, "/usr/bin/cat");
      rec_u32 (r, 12, e->pid);
      rec_u32 (r, 16, e->pid);
      return;
    case EV_EXIT:
      rec_init (r, ID_EXIT, e->pid, 33);
      rec_chars (r, 8, e->comm, 16);
      rec_u32 (r, 24, e->pid);
      rec_u32 (r, 28, prio);
      rec_put (r, 32, &group_dead, 1);
      return;
    default:
      break;
    }
  rec_init (r, block_ids[e->kind], e->pid, e->kind == EV_QUEUE ? 54 : e->kind == EV_COMPLETE ? 48 : 64);
  rec_u32 (r, 8, dev);
  rec_put (r, 16, &e->sector, 8);
  rec_u32 (r, 24, e->nr);
  switch (e->kind)
    {
    case EV_QUEUE:
      rec_chars (r, 28, rwbs, 10);
      rec_chars (r, 38, e->comm, 16);
      break;
    case EV_COMPLETE:
      rec_u32 (r, 28, zero);   /* error */
      rec_put (r, 32, &e->ioprio, 2);
      rec_chars (r, 34, rwbs, 10);
      rec_loc (r, 44, "");
      break;
    default:
      rec_u32 (r, 28, bytes);
      rec_put (r, 32, &e->ioprio, 2);
      rec_chars (r, 34, rwbs, 10);
      rec_chars (r, 44, e->comm, 16);
      rec_loc (r, 60, "");
      break;
    }
}

typedef struct {
  IochartDatWriter *w;
  GString          *cmdlines;
  GError           *error;
} DatSink;

static void
to_dat (const Event *e, gpointer data)
{
  DatSink *d = data;
  Rec r;

  if (d->error != NULL)
    return;
  if (e->kind == EV_FORK)   /* the child's name as the task ends up: saved_cmdlines */
    g_string_append_printf (d->cmdlines, "%d %s\n", e->pid, e->ppid == 1 ? "find" : "cat");
  encode (e, &r);
  iochart_dat_writer_add_event (d->w, 0, (guint64) (BASE_NS + e->ts), r.b, r.len, &d->error);
}

gboolean
iochart_synth_write_dat (const IochartSynthReader *readers, guint n_readers, const char *path,
                         GError **error)
{
  static const char *formats[][2] = {
    { "block", fmt_block_bio_queue }, { "block", fmt_block_rq_insert }, { "block", fmt_block_rq_issue },
    { "block", fmt_block_rq_complete }, { "sched", fmt_sched_process_fork },
    { "sched", fmt_sched_process_exec }, { "sched", fmt_sched_process_exit },
  };
  g_autoptr(IochartDatWriter) w = iochart_dat_writer_new (1, 4096);
  g_autoptr(GString) cmdlines = g_string_new (NULL);
  DatSink d = { w, cmdlines, NULL };

  iochart_dat_writer_set_standard_headers (w);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    iochart_dat_writer_add_format (w, formats[i][0], formats[i][1]);
  iochart_dat_writer_set_trace_clock (w, "[local] global counter uptime perf mono mono_raw boot\n");
  g_string_append (cmdlines, "1 sh\n");
  synth_run (readers, n_readers, to_dat, &d);
  if (d.error != NULL)
    {
      g_propagate_prefixed_error (error, d.error, "'%s': ", path);
      return FALSE;
    }
  iochart_dat_writer_set_cmdlines (w, cmdlines->str);
  return iochart_dat_writer_write (w, path, error);
}

gboolean
iochart_synth_scenario_parse (const char *name, IochartSynthScenario *out, GError **error)
{
  static const char *names[] = { [IOCHART_SYNTH_ALONE] = "alone", [IOCHART_SYNTH_IDLE] = "idle",
                                 [IOCHART_SYNTH_NORMAL] = "normal" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (name, names[i]) == 0)
      {
        *out = i;
        return TRUE;
      }
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
               "'%s': not a scenario (alone, idle or normal)", name);
  return FALSE;
}

guint
iochart_synth_scenario_readers (IochartSynthScenario scenario, guint n_files,
                                IochartSynthReader out[IOCHART_SYNTH_MAX_READERS])
{
  /* the competitor reads twice the files, in the other half of a 4 GiB disk, so that it
   * competes for the normal reader's whole run */
  out[0] = (IochartSynthReader) { IOCHART_CLASS_BE, n_files, 0, 1 };
  if (scenario == IOCHART_SYNTH_ALONE)
    return 1;
  out[1] = (IochartSynthReader) { scenario == IOCHART_SYNTH_IDLE ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE,
                                  n_files * 2, 4 * 1024 * 1024, 2 };
  return 2;
}
