/* iochart-blktrace-reader.c: binary blktrace, the per-CPU files of one run merged by time
 *
 * Each NAME.blktrace.CPU file is a sequence of struct blk_io_trace records, each followed by
 * pdu_len bytes. The files are mapped, not read: a record is decoded in place, and the comm that
 * a PROCESS note names is pointed to inside the mapping, so that reading allocates nothing per
 * record. A file whose tail is damaged gives what came before the damage; only when no file
 * gives anything does the read fail.
 *
 * Decoding and merging (checks, byte order, the time merge of the CPU files, the names PROCESS
 * notes give) run in a thread of their own on a large capture, handing batches of records in
 * time order to the builder, which stays on the caller's thread: the two halves of the work
 * overlap on two cores. A block record travels as the very event the builder takes, so that the
 * builder's thread, the slower half, only hands it on. Whatever the merge has to say (damage,
 * progress) travels in the batches, so that the builder hears it in the same order as without
 * the thread.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>
#include "iochart-readers-private.h"
#include "iochart-sched-notes.h"

#define BLK_IO_TRACE_MAGIC   0x65617400u
#define BLK_IO_TRACE_VERSION 7
#define BLK_IO_TRACE2_VERSION 8   /* 64-byte records, 64-bit action: not read yet */

/* Categories, in the high 16 bits of action. */
enum {
  TC_READ = 1 << 0, TC_WRITE = 1 << 1, TC_FLUSH = 1 << 2, TC_SYNC = 1 << 3,
  TC_QUEUE = 1 << 4, TC_REQUEUE = 1 << 5, TC_ISSUE = 1 << 6, TC_COMPLETE = 1 << 7,
  TC_FS = 1 << 8, TC_PC = 1 << 9, TC_NOTIFY = 1 << 10, TC_AHEAD = 1 << 11,
  TC_META = 1 << 12, TC_DISCARD = 1 << 13, TC_DRV_DATA = 1 << 14, TC_FUA = 1 << 15,
};

/* __BLK_TA_CGROUP / __BLK_TN_CGROUP: an 8-byte cgroup id starts the pdu. */
#define TA_CGROUP 0x100u

enum { TN_PROCESS = 0, TN_TIMESTAMP = 1, TN_MESSAGE = 2 };

typedef struct {
  guint32 magic;
  guint32 sequence;
  guint64 time;
  guint64 sector;
  guint32 bytes;
  guint32 action;
  guint32 pid;
  guint32 device;
  guint32 cpu;
  guint16 error;
  guint16 pdu_len;
} BlkIoTrace;

G_STATIC_ASSERT (sizeof (BlkIoTrace) == 48);
G_STATIC_ASSERT (G_STRUCT_OFFSET (BlkIoTrace, time) == 8);
G_STATIC_ASSERT (G_STRUCT_OFFSET (BlkIoTrace, action) == 28);
G_STATIC_ASSERT (G_STRUCT_OFFSET (BlkIoTrace, pdu_len) == 46);

/* blktrace action codes 1..17 (Q M F G S R D C P U UT I X B A, abort, driver data). */
static const IochartBlockAction action_of[18] = {
  IOCHART_BLOCK_OTHER,
  IOCHART_BLOCK_QUEUE, IOCHART_BLOCK_BACKMERGE, IOCHART_BLOCK_FRONTMERGE, IOCHART_BLOCK_GETRQ,
  IOCHART_BLOCK_SLEEPRQ, IOCHART_BLOCK_REQUEUE, IOCHART_BLOCK_ISSUE, IOCHART_BLOCK_COMPLETE,
  IOCHART_BLOCK_PLUG, IOCHART_BLOCK_UNPLUG, IOCHART_BLOCK_UNPLUG, IOCHART_BLOCK_INSERT,
  IOCHART_BLOCK_SPLIT, IOCHART_BLOCK_BOUNCE, IOCHART_BLOCK_REMAP,
  IOCHART_BLOCK_OTHER, IOCHART_BLOCK_OTHER,
};

typedef struct {
  const char   *path;
  GMappedFile  *map;
  const guint8 *data;
  gsize         len;
  gsize         off;          /* of the current record */
  gsize         mapped;       /* bytes from the start whose pages are mapped already */
  gboolean      swap;         /* records are in the other byte order */
  guint32       magic_raw;    /* the magic word as it lies in this file */
  BlkIoTrace    cur;          /* the current record, in host order */
  gboolean      live;         /* cur holds a record */
  guint         index;        /* order among the files, breaks ties */
  guint64       out_of_order;
  guint64       last_time;
  gsize         lost;         /* bytes after the damage that ended the file */
  gsize         lost_at;
} CpuFile;

typedef struct {
  const char *comm;
  guint8      len;
} Comm;

/* The names PROCESS notes gave, as far as the merge has come. A few processes issue most
 * records, in turns: their names are looked up in slots, not hashed. A slot holds what the table
 * says for its pid (NULL: no name), kept so as names come. */
#define COMM_SLOTS 256

typedef struct {
  gint32      pid;
  const Comm *comm;
} CommSlot;

typedef struct {
  GHashTable     *comms;       /* pid -> Comm*, pointing into the mappings */
  GStringChunk   *short_comms; /* names from PROCESS notes shorter than 16 bytes */
  CommSlot        slots[COMM_SLOTS];
} Names;

/* The builder's side. */
typedef struct {
  IochartBuilder *b;
  const CpuFile  *files;
  gboolean        have_wall;
  gint64          wall_offset_ns;
} Reader;

typedef enum { ITEM_BLOCK, ITEM_COMM, ITEM_RECORD, ITEM_SCHED_NOTE, ITEM_DEVICE, ITEM_WARNING } ItemKind;

/* One record as the merge hands it on, in time order: a block record as the event the builder
 * takes, the name a PROCESS note gives, any other note where it lies (the builder's thread
 * decodes it), a scheduler note that tells a class parsed already (the merge's tracker must see
 * the notes in order to judge the next), the name of the device, or a warning the merge gave
 * there. Its kind (and a block's action) is in the batch's tags. */
typedef union {
  IochartBlockEvent block;
  struct {
    gint64      ts_ns;
    const char *comm;
    gint32      pid;
    guint8      len;
  } comm;
  struct {
    const guint8 *rec;
    guint         index;   /* of the file */
  } record;
  struct {
    gint64           ts_ns;
    IochartSchedNote note;
  } note;
  struct {
    char    *text;         /* ITEM_DEVICE: its name; ITEM_WARNING */
    guint32  dev;
  } text;
} Item;

G_STATIC_ASSERT (sizeof (Item) == sizeof (IochartBlockEvent));

typedef struct {
  guint8 kind;      /* ItemKind */
  guint8 action;    /* ITEM_BLOCK: an IochartBlockAction */
} ItemTag;

#define BATCH_ITEMS 2048
/* room for a record, the device's name before it and the warning its successor may bring */
#define BATCH_ROOM 3

typedef struct {
  ItemTag  tags[BATCH_ITEMS];
  Item     items[BATCH_ITEMS];
  guint    n;
  guint64  quiet;           /* notes dropped by the merge, at times quiet_min_ns..quiet_max_ns */
  gint64   quiet_min_ns, quiet_max_ns;
  double   progress;        /* < 0: none to report after this batch */
  gboolean last;
} Batch;

/* The pids whose records of the actions that only name a process (_iochart_block_action_names_only)
 * need not be handed on: the builder has named the process with the name the pid has now. */
#define NAMED_SLOTS 256

/* The merge's own state: only the merging thread touches it while the read runs. */
typedef struct {
  IochartBuilder *b;
  CpuFile       **heap;
  guint           n;
  gsize           total_bytes;
  gsize           done_bytes;     /* of the files the merge is done with */
  gsize           reported_bytes; /* what the last progress report said */
  Batch          *sink;     /* warnings go here while a batch fills, else straight to b */
  IochartSchedNoteTracker notes;  /* fed the notes handed on, as the builder's own is */
  gboolean        dev_named;      /* the device of the first block record has its name */
  gint32          named[NAMED_SLOTS]; /* a pid (by pid % NAMED_SLOTS) the builder named as now */
  guint8          rwbs[1 << 10][2]; /* op, flags by category bits; op 0xff: not yet worked out */
  Names           names;
} Merger;

/* ---- one CPU file ---- */

/* A note's payload: past the cgroup id that starts it when the action says one does. */
static inline const guint8 *
note_payload (const BlkIoTrace *t, const guint8 *pdu, gsize *len)
{
  *len = t->pdu_len;
  if ((t->action & TA_CGROUP) && *len >= 8)
    {
      *len -= 8;
      return pdu + 8;
    }
  return pdu;
}

/* The length of a note's text of len bytes without the NULs that pad it. */
static inline gsize
unpadded (const char *text, gsize len)
{
  while (len > 0 && text[len - 1] == '\0')
    len--;
  return len;
}

/* A MESSAGE note's text, without the NULs that pad it. */
static inline const char *
message_text (const BlkIoTrace *t, const guint8 *pdu, gsize *len)
{
  const char *text = (const char *) note_payload (t, pdu, len);

  *len = unpadded (text, *len);
  return text;
}

static inline guint32
fix32 (const CpuFile *f, guint32 v)
{
  return f->swap ? GUINT32_SWAP_LE_BE (v) : v;
}

static inline guint64
fix64 (const CpuFile *f, guint64 v)
{
  return f->swap ? GUINT64_SWAP_LE_BE (v) : v;
}

static inline guint16
fix16 (const CpuFile *f, guint16 v)
{
  return f->swap ? GUINT16_SWAP_LE_BE (v) : v;
}

/* Decides the byte order and checks the version from the first record. */
static gboolean
cpu_file_check_head (CpuFile *f, GError **error)
{
  guint32 raw, magic;

  if (f->len < 4)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': cut mid-record at offset 0 (%" G_GSIZE_FORMAT " bytes)", f->path, f->len);
      return FALSE;
    }
  memcpy (&raw, f->data, 4);
  if ((raw & 0xffffff00u) == BLK_IO_TRACE_MAGIC)
    f->swap = FALSE;
  else if ((GUINT32_SWAP_LE_BE (raw) & 0xffffff00u) == BLK_IO_TRACE_MAGIC)
    f->swap = TRUE;
  else
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': bad magic at offset 0 (not a blktrace file)", f->path);
      return FALSE;
    }
  magic = fix32 (f, raw);
  if ((magic & 0xff) == BLK_IO_TRACE2_VERSION)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': blktrace version 8 records (64-bit actions) are not supported yet; "
                   "record with a version 7 blktrace", f->path);
      return FALSE;
    }
  if ((magic & 0xff) != BLK_IO_TRACE_VERSION)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': unsupported blktrace version %u at offset 0 (7 is supported)",
                   f->path, magic & 0xff);
      return FALSE;
    }
  f->magic_raw = raw;
  return TRUE;
}

/* The next item of the batch, of that kind. */
static inline Item *
batch_put (Batch *batch, ItemKind kind, IochartBlockAction action)
{
  batch->tags[batch->n] = (ItemTag) { kind, action };
  return &batch->items[batch->n++];
}

static void G_GNUC_PRINTF (2, 3)
merger_warn (Merger *m, const char *format, ...)
{
  va_list args;
  char *text;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  if (m->sink != NULL)
    batch_put (m->sink, ITEM_WARNING, 0)->text.text = text;
  else
    {
      _iochart_builder_warn (m->b, "%s", text);
      g_free (text);
    }
}

/* The record at p in host order. */
static inline void
record_decode (const CpuFile *f, const guint8 *p, BlkIoTrace *t)
{
  memcpy (t, p, sizeof *t);
  if (f->swap)
    {
      t->sequence = fix32 (f, t->sequence);
      t->time = fix64 (f, t->time);
      t->sector = fix64 (f, t->sector);
      t->bytes = fix32 (f, t->bytes);
      t->action = fix32 (f, t->action);
      t->pid = fix32 (f, t->pid);
      t->device = fix32 (f, t->device);
      t->cpu = fix32 (f, t->cpu);
      t->error = fix16 (f, t->error);
      t->pdu_len = fix16 (f, t->pdu_len);
    }
}

/* Loads the record at f->off into f->cur. Damage ends the file with a warning. */
static void
cpu_file_load (Merger *m, CpuFile *f)
{
  const guint8 *p;
  BlkIoTrace *t = &f->cur;
  gsize left = f->len - f->off;

  f->live = FALSE;
  if (left == 0)
    return;   /* before any pointer arithmetic: an empty file's mapping is NULL */
  p = f->data + f->off;
  /* the hardware's prefetch stops at each page's end: ask for the next pages' records early */
  if (left > 4096)
    __builtin_prefetch (p + 4096);
  if (left < sizeof (BlkIoTrace))
    {
      merger_warn (m, "'%s': cut mid-record at offset %" G_GSIZE_FORMAT " (%" G_GSIZE_FORMAT " bytes lost)",
                   f->path, f->off, left);
      f->lost = left;
      f->lost_at = f->off;
      return;
    }
  record_decode (f, p, t);
  if (t->magic != f->magic_raw)   /* as it lies in the file: record_decode leaves it */
    {
      merger_warn (m, "'%s': bad magic at offset %" G_GSIZE_FORMAT " (the last %" G_GSIZE_FORMAT " bytes are lost)",
                   f->path, f->off, left);
      f->lost = left;
      f->lost_at = f->off;
      return;
    }
  if (t->pdu_len > left - sizeof *t)
    {
      merger_warn (m, "'%s': pdu_len %u past the end at offset %" G_GSIZE_FORMAT
                   " (the last %" G_GSIZE_FORMAT " bytes are lost)", f->path, t->pdu_len, f->off, left);
      f->lost = left;
      f->lost_at = f->off;
      return;
    }
  if (t->time < f->last_time && f->out_of_order++ == 0)
    merger_warn (m, "'%s': records out of time order at offset %" G_GSIZE_FORMAT, f->path, f->off);
  f->last_time = t->time;
  f->live = TRUE;
}

/* How far ahead of the merge a file's pages are mapped (a multiple of the page size). All of a
 * large capture at once would hold the builder back until its last page is mapped (1.5 ms for
 * 170 MB); a chunk at a time, the merge maps while the builder works, and still takes no fault. */
#define MAP_AHEAD (8u << 20)

/* Maps the next chunk of f once the merge is within half a chunk of the mapped end. */
static void
cpu_file_map_ahead (CpuFile *f)
{
  gsize upto;

  if (f->mapped >= f->len || f->off + MAP_AHEAD / 2 < f->mapped)
    return;
  upto = MIN (f->len, f->mapped + MAP_AHEAD);
  _iochart_map_for_reading (f->data + f->mapped, upto - f->mapped);
  f->mapped = upto;
}

static gboolean
cpu_file_open (CpuFile *f, const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;

  f->path = path;
  f->map = g_mapped_file_new (path, FALSE, &local);
  if (f->map == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, local->message);
      return FALSE;
    }
  f->data = (const guint8 *) g_mapped_file_get_contents (f->map);
  f->len = g_mapped_file_get_length (f->map);
  if (f->len == 0)
    return TRUE;    /* a CPU that saw no I/O */
  cpu_file_map_ahead (f);
  return cpu_file_check_head (f, error);
}

/* ---- records ---- */

static guint
rwbs_index (guint32 cat, guint32 bytes)
{
  /* The category bits that RWBS shows, packed into 9 bits as two shifts allow (AHEAD, META and
   * DISCARD land on bits 4-6, FUA on 8), and whether data moved. */
  G_STATIC_ASSERT (TC_AHEAD >> 7 == 1 << 4 && TC_META >> 7 == 1 << 5 && TC_DISCARD >> 7 == 1 << 6 &&
                   TC_FUA >> 7 == 1 << 8);
  return ((cat & (TC_READ | TC_WRITE | TC_FLUSH | TC_SYNC)) |
          ((cat >> 7) & ((TC_AHEAD | TC_META | TC_DISCARD | TC_FUA) >> 7))) << 1 | (bytes != 0);
}

/* The RWBS string blkparse prints for a record: the other blktrace readers parse that same
 * string, so every form of a blktrace capture gives the same op and flags. */
static void
rwbs_work_out (guint32 cat, guint32 bytes, guint8 *out)
{
  char rwbs[8];
  guint n = 0;
  IochartOp op;
  guint8 flags;

  if (cat & TC_FLUSH)
    rwbs[n++] = 'F';
  if (cat & TC_DISCARD)
    rwbs[n++] = 'D';
  else if (cat & TC_WRITE)
    rwbs[n++] = 'W';
  else if (bytes != 0)
    rwbs[n++] = 'R';
  else
    rwbs[n++] = 'N';
  if (cat & TC_FUA)
    rwbs[n++] = 'F';
  if (cat & TC_AHEAD)
    rwbs[n++] = 'A';
  if (cat & TC_SYNC)
    rwbs[n++] = 'S';
  if (cat & TC_META)
    rwbs[n++] = 'M';
  iochart_rwbs_parse (rwbs, n, &op, &flags);
  out[0] = op;
  out[1] = flags;
}

/* The op and flags of a record of categories cat moving bytes, from a table filled as it goes. */
static inline const guint8 *
rwbs_of (guint8 (*table)[2], guint32 cat, guint32 bytes)
{
  guint8 *rw = table[rwbs_index (cat, bytes)];

  if (G_UNLIKELY (rw[0] == 0xff))
    rwbs_work_out (cat, bytes, rw);
  return rw;
}

static inline const Comm *
comm_of (Names *names, gint32 pid)
{
  CommSlot *s = &names->slots[(guint32) pid % COMM_SLOTS];

  if (G_UNLIKELY (s->pid != pid))
    *s = (CommSlot) { pid, g_hash_table_lookup (names->comms, GINT_TO_POINTER (pid)) };
  return s->comm;
}

/* A PROCESS note of pid at time_ns, its payload at pdu: the pid's name from here on, for the
 * records that follow and the builder. */
static void
put_comm (Names *names, Item *it, guint64 time_ns, guint32 action, guint32 pid, const guint8 *pdu,
          guint16 pdu_len)
{
  const BlkIoTrace t = { .action = action, .pdu_len = pdu_len };
  gsize len;
  const char *name = (const char *) note_payload (&t, pdu, &len);
  CommSlot *s = &names->slots[pid % COMM_SLOTS];
  /* a task names itself again and again: its slot, holding what the table says, spares the
   * hash lookup */
  Comm *c = s->pid == (gint32) pid && s->comm != NULL ? (Comm *) s->comm
                                                      : g_hash_table_lookup (names->comms, GINT_TO_POINTER (pid));

  len = strnlen (name, MIN (len, 16));
  if (c == NULL)
    {
      c = g_new0 (Comm, 1);
      g_hash_table_insert (names->comms, GINT_TO_POINTER (pid), c);
    }
  /* a task names itself again and again: the same name is not stored again */
  if (c->comm == NULL || c->len != len || memcmp (c->comm, name, len) != 0)
    {
      c->comm = len == 16 ? name : g_string_chunk_insert_len (names->short_comms, name, len);
      c->len = len;
    }
  *s = (CommSlot) { (gint32) pid, c };
  it->comm.ts_ns = (gint64) time_ns;
  it->comm.pid = (gint32) pid;
  it->comm.comm = c->comm;
  it->comm.len = c->len;
}

static inline IochartBlockAction
block_action (guint32 action)
{
  guint32 code = action & 0xff;

  return code < G_N_ELEMENTS (action_of) ? action_of[code] : IOCHART_BLOCK_OTHER;
}

/* A block record as the event the builder takes, with the name its pid has now (op and flags
 * from rwbs, the table of the merge). */
static inline void
put_block (guint8 (*rwbs)[2], Names *names, IochartBlockEvent *ev, guint64 time, guint32 action,
           guint64 sector, guint32 bytes, guint32 pid, guint32 dev, guint16 error)
{
  const guint8 *rw = rwbs_of (rwbs, action >> 16, bytes);
  const Comm *comm = comm_of (names, (gint32) pid);

  *ev = (IochartBlockEvent) { .ts_ns = (gint64) time, .dev = dev, .sector = sector, .nr_sector = bytes >> 9,
                              .bytes = bytes, .op = rw[0], .flags = rw[1], .pid = (gint32) pid,
                              .comm = comm != NULL ? comm->comm : NULL, .comm_len = comm != NULL ? comm->len : 0,
                              .ioprio = -1, .error = (gint16) error };
}

/* The files are named after the device they traced: the name, or NULL. */
static char *
device_name_of (const CpuFile *f)
{
  g_autofree char *base = g_path_get_basename (f->path);
  char *dot = strstr (base, ".blktrace.");

  if (dot == NULL || dot == base)
    return NULL;
  *dot = '\0';
  return g_steal_pointer (&base);
}

/* A note other than PROCESS. */
static void
on_note (Reader *r, const CpuFile *f, const BlkIoTrace *t, const guint8 *record_pdu)
{
  gsize len;
  const guint8 *pdu = note_payload (t, record_pdu, &len);
  const char *text;

  switch (t->action & 0xff)
    {
    case TN_TIMESTAMP:
      if (len >= 8 && !r->have_wall)
        {
          guint32 w[2];

          /* The wall clock at this record's time: kept as the offset from the trace clock. */
          memcpy (w, pdu, sizeof w);
          /* Unsigned: a corrupt record's time must wrap, not overflow. */
          r->wall_offset_ns = (gint64) ((guint64) fix32 (f, w[0]) * G_GUINT64_CONSTANT (1000000000) +
                                        fix32 (f, w[1]) - t->time);
          r->have_wall = TRUE;
        }
      _iochart_builder_add_events (r->b, 1);
      break;
    case TN_MESSAGE:
      text = message_text (t, record_pdu, &len);
      _iochart_builder_message (r->b, t->time, t->device, t->pid, text, len);
      break;
    default:
      _iochart_builder_add_events (r->b, 1);
      break;
    }
}

/* A note the merge handed on where it lies (neither a PROCESS note nor one the merge parsed),
 * decoded in the builder's thread. */
static void
take_record (Reader *r, const CpuFile *f, const guint8 *rec)
{
  BlkIoTrace t;

  record_decode (f, rec, &t);
  g_assert ((t.action & (TC_NOTIFY << 16)) && (t.action & 0xff) != TN_PROCESS);
  on_note (r, f, &t, rec + sizeof t);
}

/* ---- the merge ---- */

static inline gboolean
before (const CpuFile *a, const CpuFile *b)
{
  return a->cur.time < b->cur.time || (a->cur.time == b->cur.time && a->index < b->index);
}

static void
heap_sift_down (CpuFile **heap, guint n, guint i)
{
  for (;;)
    {
      guint l = 2 * i + 1, m = i;

      if (l < n && before (heap[l], heap[m]))
        m = l;
      if (l + 1 < n && before (heap[l + 1], heap[m]))
        m = l + 1;
      if (m == i)
        return;
      CpuFile *tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
}

/* A PROCESS note for pid is on its way: the builder's name for it may change. */
static inline void
forget_name (Merger *m, guint32 pid)
{
  gint32 *slot = &m->named[pid % NAMED_SLOTS];

  if (*slot == (gint32) pid)
    *slot = (gint32) (pid + 1);   /* a pid of another slot: none */
}

/* Whether a record that only names pid's process can be counted and not handed on (the builder
 * named it with its present name already); if not, the one handed on will have, from here on. */
static inline gboolean
named_already (Merger *m, guint32 pid)
{
  gint32 *slot = &m->named[pid % NAMED_SLOTS];

  if (*slot == (gint32) pid)
    return TRUE;
  *slot = (gint32) pid;
  return FALSE;
}

/* Whether a message note that may tell a class (its text without padding) tells one about a
 * process, into note. The merge's tracker is fed the very notes the builder's own would be fed,
 * in the same order, so its choices are the ones the builder would make; a note about no process
 * (BFQ's "bfq0A new_ioprio"), once tracked, is only counted by the builder. */
static inline gboolean
note_tells (Merger *m, guint32 dev, guint32 pid, const char *text, gsize len, IochartSchedNote *note)
{
  return iochart_sched_note_track (&m->notes, dev, (gint32) pid, text, len, note) &&
         _iochart_sched_note_is_about_process (note);
}

typedef enum { NOTE_NONE, NOTE_QUIET, NOTE_PARSED } NoteVerdict;

/* What becomes of f's current record if it is a scheduler note. Most of a BFQ capture's records
 * are notes that can tell nothing (NOTE_QUIET): they are counted and timed in the batch, never
 * handed on. The few that may tell a class are parsed here (NOTE_PARSED, into note) so that the
 * builder only applies them; those that tell none about a process are quiet too. NOTE_NONE: not
 * a message note, or a time the builder drops (it counts those). */
static inline NoteVerdict
judge_note (Merger *m, const CpuFile *f, Batch *batch, IochartSchedNote *note)
{
  const BlkIoTrace *t = &f->cur;
  const char *text;
  gsize len;

  if (!(t->action & (TC_NOTIFY << 16)) || (t->action & 0xff) != TN_MESSAGE || t->time >= IOCHART_TIME_MAX_NS)
    return NOTE_NONE;
  text = message_text (t, f->data + f->off + sizeof *t, &len);
  if (iochart_sched_note_may_tell_class (&m->notes, t->device, t->pid, text, len) &&
      note_tells (m, t->device, t->pid, text, len, note))
    return NOTE_PARSED;
  batch->quiet++;
  /* not simply first and last: a file's records may be out of time order */
  batch->quiet_min_ns = MIN (batch->quiet_min_ns, (gint64) t->time);
  batch->quiet_max_ns = MAX (batch->quiet_max_ns, (gint64) t->time);
  return NOTE_QUIET;
}

/* Puts f's current record into the batch as the builder will take it, unless it is dropped. */
static inline void
hand_on (Merger *m, const CpuFile *f, Batch *batch)
{
  const BlkIoTrace *t = &f->cur;
  const guint8 *pdu = f->data + f->off + sizeof *t;
  IochartSchedNote note;
  Item *it;

  switch (judge_note (m, f, batch, &note))
    {
    case NOTE_QUIET:
      return;
    case NOTE_PARSED:
      it = batch_put (batch, ITEM_SCHED_NOTE, 0);
      it->note.ts_ns = f->cur.time;
      it->note.note = note;
      return;
    case NOTE_NONE:
      break;
    }
  if (!(t->action & (TC_NOTIFY << 16)))
    {
      if (G_UNLIKELY (!m->dev_named))
        {
          char *name = device_name_of (f);

          if (name != NULL)
            {
              it = batch_put (batch, ITEM_DEVICE, 0);
              it->text.text = name;
              it->text.dev = t->device;
            }
          m->dev_named = TRUE;
        }
      it = batch_put (batch, ITEM_BLOCK, block_action (t->action));
      put_block (m->rwbs, &m->names, &it->block, t->time, t->action, t->sector, t->bytes, t->pid, t->device,
                 t->error);
    }
  else if ((t->action & 0xff) == TN_PROCESS)
    {
      forget_name (m, t->pid);
      put_comm (&m->names, batch_put (batch, ITEM_COMM, 0), t->time, t->action, t->pid, pdu, t->pdu_len);
    }
  else
    {
      it = batch_put (batch, ITEM_RECORD, 0);
      it->record.rec = f->data + f->off;
      it->record.index = f->index;
    }
}

/* The file whose record comes next after the heap's top: NULL when the top is alone. */
static inline const CpuFile *
runner_up (const Merger *m)
{
  if (m->n < 2)
    return NULL;
  if (m->n == 2 || before (m->heap[1], m->heap[2]))
    return m->heap[1];
  return m->heap[2];
}

/* Whether a record at time_ns of f comes before the rival's record at rival_ns; tie: f's goes
 * first at equal times (as before() has it). */
static inline gboolean
ahead_of_rival (guint64 time_ns, guint64 rival_ns, gboolean tie)
{
  return time_ns < rival_ns || (time_ns == rival_ns && tie);
}

/* How far from its file's end a record has room for its header and the largest pdu, and the
 * page the prefetch below asks for lies inside the mapping: no length checks before it. */
#define ROOMY_TAIL (sizeof (BlkIoTrace) + G_MAXUINT16 + 1)

/* Moves past f's current record to the next one that needs more than a glance, into f->cur.
 * A sound record in the host's byte order, in time order, is the common case and is read here
 * in place, while it still belongs to this run (ahead of the rival's record at rival_ns, room
 * in the batch): a block record is handed on decoded, a note other than a message where it
 * lies, a message note that can tell no class (most records of a BFQ capture) is only counted
 * into the batch and one that may is parsed, as judge_note() would have them. f->cur is not even
 * filled for those. Anything else
 * goes through cpu_file_load() and hand_on(): leaving the loop early is never wrong, only
 * slower, so the loop tests no more than it must. */
static inline void
cpu_file_advance (CpuFile *f, Merger *m, Batch *batch, guint64 rival_ns, gboolean tie)
{
  const guint32 note_mask = (TC_NOTIFY << 16) | 0xff, message = (TC_NOTIFY << 16) | TN_MESSAGE;
  const guint8 *p = f->data + f->off + sizeof (BlkIoTrace) + f->cur.pdu_len;
  const guint8 *end = f->data + f->len;
  const guint8 *roomy_end = f->len > ROOMY_TAIL ? end - ROOMY_TAIL : f->data;
  const guint32 magic_raw = f->magic_raw, index = f->index;
  /* ahead_of_rival() as one comparison: a record at time_ns is, when time_ns <= ahead_upto_ns
   * (none is when it would be ahead of nothing); a note judge_note() would look at must also
   * come before IOCHART_TIME_MAX_NS */
  const guint64 ahead_upto_ns = rival_ns - !tie;
  const guint64 quiet_upto_ns = MIN (ahead_upto_ns, (guint64) IOCHART_TIME_MAX_NS - 1);
  /* what stays put while the loop runs, kept out of memory the item stores might alias */
  const gboolean run = !f->swap && (tie || rival_ns > 0);
  guint8 (*rwbs)[2] = m->rwbs;
  Names *names = &m->names;
  ItemTag *tags = batch->tags;
  Item *items = batch->items;
  guint n = batch->n;
  guint64 last_ns = f->last_time, skipped = 0, first_skipped_ns = G_MAXUINT64, last_skipped_ns = 0;
  gboolean sound = FALSE;

  while (G_LIKELY (run && n + BATCH_ROOM <= BATCH_ITEMS))
    {
      guint64 time;
      guint32 magic, action, dev, pid;
      guint16 pdu_len;
      const char *text;
      gsize len;

      if (G_LIKELY (p < roomy_end))
        /* the hardware's prefetch stops at each page's end: ask for the next pages' records early */
        __builtin_prefetch (p + 4096);
      else
        {
          if ((gsize) (end - p) < sizeof (BlkIoTrace))
            break;
          memcpy (&pdu_len, p + G_STRUCT_OFFSET (BlkIoTrace, pdu_len), 2);
          if (pdu_len > (gsize) (end - p) - sizeof (BlkIoTrace))
            break;
        }
      memcpy (&magic, p, 4);
      memcpy (&time, p + G_STRUCT_OFFSET (BlkIoTrace, time), 8);
      if (G_UNLIKELY (magic != magic_raw || time < last_ns))
        break;
      last_ns = time;
      sound = TRUE;
      memcpy (&pdu_len, p + G_STRUCT_OFFSET (BlkIoTrace, pdu_len), 2);
      memcpy (&action, p + G_STRUCT_OFFSET (BlkIoTrace, action), 4);
      memcpy (&dev, p + G_STRUCT_OFFSET (BlkIoTrace, device), 4);
      memcpy (&pid, p + G_STRUCT_OFFSET (BlkIoTrace, pid), 4);
      if ((action & note_mask) != message)
        {
          if (time > ahead_upto_ns)
            break;
          if (!(action & (TC_NOTIFY << 16)))
            {
              IochartBlockAction block = block_action (action);
              guint64 sector;
              guint32 bytes;
              guint16 error;

              if (G_UNLIKELY (!m->dev_named))
                break;
              /* the builder only names the process of most G, P and U records, with the name
               * it named it with at the pid's last one: counted like a quiet note (a time the
               * builder keeps) */
              if (_iochart_block_action_names_only (block) && time <= quiet_upto_ns && named_already (m, pid))
                goto quiet;
              memcpy (&sector, p + G_STRUCT_OFFSET (BlkIoTrace, sector), 8);
              memcpy (&bytes, p + G_STRUCT_OFFSET (BlkIoTrace, bytes), 4);
              memcpy (&error, p + G_STRUCT_OFFSET (BlkIoTrace, error), 2);
              tags[n] = (ItemTag) { ITEM_BLOCK, block };
              put_block (rwbs, names, &items[n++].block, time, action, sector, bytes, pid, dev, error);
            }
          else if ((action & 0xff) == TN_PROCESS)
            {
              forget_name (m, pid);
              tags[n] = (ItemTag) { ITEM_COMM, 0 };
              put_comm (names, &items[n++], time, action, pid, p + sizeof (BlkIoTrace), pdu_len);
            }
          else
            {
              tags[n] = (ItemTag) { ITEM_RECORD, 0 };
              items[n].record.rec = p;
              items[n++].record.index = index;
            }
          p += sizeof (BlkIoTrace) + pdu_len;
          sound = FALSE;
          continue;
        }
      /* a note the builder would see (a time it keeps) and this run takes */
      if (time > quiet_upto_ns)
        break;
      text = (const char *) p + sizeof (BlkIoTrace);
      len = pdu_len;
      if ((action & TA_CGROUP) && len >= 8)
        {
          text += 8;
          len -= 8;
        }
      /* the padding NULs left on: the test gives the same answer with them */
      if (G_UNLIKELY (iochart_sched_note_may_tell_class (&m->notes, dev, pid, text, len)))
        {
          IochartSchedNote note;

          /* parsed here, as judge_note() would, and the run goes on */
          if (!note_tells (m, dev, pid, text, unpadded (text, len), &note))
            goto quiet;
          tags[n] = (ItemTag) { ITEM_SCHED_NOTE, 0 };
          items[n].note.ts_ns = (gint64) time;
          items[n++].note.note = note;
          p += sizeof (BlkIoTrace) + pdu_len;
          sound = FALSE;
          continue;
        }
    quiet:
      /* this loop's times never go down: the first is the least, the last the most */
      if (G_UNLIKELY (skipped++ == 0))
        first_skipped_ns = time;
      last_skipped_ns = time;
      p += sizeof (BlkIoTrace) + pdu_len;
      sound = FALSE;
    }
  batch->n = n;
  f->off = p - f->data;
  f->last_time = last_ns;
  if (skipped > 0)
    {
      batch->quiet += skipped;
      batch->quiet_min_ns = MIN (batch->quiet_min_ns, (gint64) first_skipped_ns);
      batch->quiet_max_ns = MAX (batch->quiet_max_ns, (gint64) last_skipped_ns);
    }
  if (sound)
    memcpy (&f->cur, p, sizeof f->cur);
  else
    cpu_file_load (m, f);
}

/* Takes f's records into the batch while they come before rival's (a CPU's records come in
 * runs): the heap is set right once a run, not once a record. */
static void
take_run (Merger *m, CpuFile *f, const CpuFile *rival, Batch *batch)
{
  const guint64 rival_ns = rival != NULL ? rival->cur.time : G_MAXUINT64;
  const gboolean tie = rival == NULL || f->index < rival->index;

  do
    {
      hand_on (m, f, batch);
      cpu_file_advance (f, m, batch, rival_ns, tie);
    }
  while (f->live && batch->n + BATCH_ROOM <= BATCH_ITEMS && ahead_of_rival (f->cur.time, rival_ns, tie));
}

/* A batch tells the builder how far the merge has come, each 1/256 of the capture's bytes. */
static void
report_progress (Merger *m, Batch *batch)
{
  gsize done_bytes = 0;

  for (guint i = 0; i < m->n; i++)
    done_bytes += m->heap[i]->off;
  done_bytes += m->done_bytes;
  if (done_bytes < m->reported_bytes + m->total_bytes / 256)
    return;
  m->reported_bytes = done_bytes;
  batch->progress = (double) done_bytes / MAX (m->total_bytes, 1);
}

/* Fills a batch with the next records in time order; FALSE when every file is done. */
static gboolean
merge_batch (Merger *m, Batch *batch)
{
  batch->n = 0;
  batch->quiet = 0;
  batch->quiet_min_ns = G_MAXINT64;
  batch->quiet_max_ns = G_MININT64;
  batch->progress = -1;
  m->sink = batch;
  /* a batch takes well under half a chunk of any file */
  for (guint i = 0; i < m->n; i++)
    cpu_file_map_ahead (m->heap[i]);
  while (m->n > 0 && batch->n + BATCH_ROOM <= BATCH_ITEMS)
    {
      CpuFile *f = m->heap[0];

      take_run (m, f, runner_up (m), batch);
      if (!f->live)
        {
          m->done_bytes += f->len;
          m->heap[0] = m->heap[--m->n];
        }
      heap_sift_down (m->heap, m->n, 0);
    }
  m->sink = NULL;
  report_progress (m, batch);
  batch->last = m->n == 0;
  return !batch->last;
}

/* Hands a batch to the builder; the number of records in it. */
static guint64
build_batch (Reader *r, Batch *batch)
{
  guint64 records = 0;

  for (guint i = 0; i < batch->n; i++)
    {
      Item *it = &batch->items[i];

      switch ((ItemKind) batch->tags[i].kind)
        {
        case ITEM_BLOCK:
          _iochart_builder_block (r->b, batch->tags[i].action, &it->block);
          records++;
          break;
        case ITEM_COMM:
          _iochart_builder_comm (r->b, it->comm.ts_ns, it->comm.pid, it->comm.comm, it->comm.len);
          _iochart_builder_add_events (r->b, 1);
          records++;
          break;
        case ITEM_RECORD:
          take_record (r, &r->files[it->record.index], it->record.rec);
          records++;
          break;
        case ITEM_SCHED_NOTE:
          _iochart_builder_sched_note (r->b, it->note.ts_ns, &it->note.note);
          records++;
          break;
        case ITEM_DEVICE:
          _iochart_builder_device_name (r->b, it->text.dev, it->text.text);
          g_free (it->text.text);
          break;
        case ITEM_WARNING:
          _iochart_builder_warn (r->b, "%s", it->text.text);
          g_free (it->text.text);
          break;
        }
    }
  _iochart_builder_quiet_events (r->b, batch->quiet, batch->quiet_min_ns, batch->quiet_max_ns);
  records += batch->quiet;
  if (batch->progress >= 0)
    _iochart_builder_progress (r->b, batch->progress);
  return records;
}

/* Batches go round between the merging thread and the builder: "free" holds empty ones. */
#define N_BATCHES 4

typedef struct {
  Merger      *m;
  GAsyncQueue *full, *free;
} Pipe;

static gpointer
merge_thread (gpointer data)
{
  Pipe *p = data;

  for (;;)
    {
      Batch *batch = g_async_queue_pop (p->free);
      gboolean more = merge_batch (p->m, batch);

      g_async_queue_push (p->full, batch);
      if (!more)
        return NULL;
    }
}

/* About five records a request (Q, G, I, D, C) and a few notes: room enough that the store never
 * moves while it grows. */
static void
reserve_requests (Reader *r, const Merger *m)
{
  _iochart_builder_reserve (r->b, m->total_bytes / (sizeof (BlkIoTrace) * 6));
}

/* A capture this big pays for a thread: below it, merging and building take turns. */
gsize _iochart_blktrace_thread_min_bytes = 4u << 20;

static guint64
merge (Reader *r, Merger *m)
{
  g_autofree Batch *batches = g_new (Batch, N_BATCHES);
  guint64 records = 0;
  Pipe p = { m, NULL, NULL };
  GThread *thread;

  for (guint i = m->n; i-- > 0;)
    heap_sift_down (m->heap, m->n, i);
  if (m->total_bytes < _iochart_blktrace_thread_min_bytes || g_get_num_processors () < 2)
    {
      gboolean more;

      reserve_requests (r, m);
      do
        {
          more = merge_batch (m, &batches[0]);
          records += build_batch (r, &batches[0]);
        }
      while (more);
      return records;
    }
  p.full = g_async_queue_new ();
  p.free = g_async_queue_new ();
  for (guint i = 0; i < N_BATCHES; i++)
    g_async_queue_push (p.free, &batches[i]);
  thread = g_thread_new ("iochart-blktrace-merge", merge_thread, &p);
  /* the reserve's first touch clears fresh (huge) pages: while the merge fills the first batches */
  reserve_requests (r, m);
  for (;;)
    {
      Batch *batch = g_async_queue_pop (p.full);
      gboolean last = batch->last;

      records += build_batch (r, batch);
      if (last)
        break;
      g_async_queue_push (p.free, batch);
    }
  g_thread_join (thread);
  g_async_queue_unref (p.full);
  g_async_queue_unref (p.free);
  return records;
}

/* The CPU number of a NAME.blktrace.N path, or -1. */
static gint64
cpu_number (const char *path)
{
  const char *dot = g_strrstr (path, ".blktrace.");
  guint64 n;

  if (dot == NULL || !g_ascii_string_to_unsigned (dot + 10, 10, 0, G_MAXINT32, &n, NULL))
    return -1;
  return n;
}

/* blkparse stops at the first missing CPU number; we name the missing ones and go on. */
static void
warn_missing_cpus (IochartBuilder *b, const char * const *cpu_files)
{
  gint64 expect = 0;

  for (guint i = 0; cpu_files[i] != NULL; i++)
    {
      gint64 n = cpu_number (cpu_files[i]);

      if (n < 0)
        continue;
      if (n > expect)
        {
          g_autofree char *prefix = g_strndup (cpu_files[i], g_strrstr (cpu_files[i], ".blktrace.") - cpu_files[i]);

          for (gint64 m = expect; m < n && m < expect + 64; m++)
            _iochart_builder_warn (b, "'%s.blktrace.%" G_GINT64_FORMAT "': missing: that CPU's records are lost",
                                   prefix, m);
        }
      expect = n + 1;
    }
}

static void
comm_free (gpointer p)
{
  g_free (p);
}

static gpointer
unmap_thread (gpointer data)
{
  g_ptr_array_unref (data);
  return NULL;
}

gboolean _iochart_blktrace_unmap_in_thread = TRUE;

/* Unmapping a large capture's pages costs as much as mapping them (4 ms for 170 MB), and nothing
 * reads them once the builder is done: a thread of its own unmaps them while the caller goes on
 * to finish the model and analyse it. Below eight times the size that pays for the merge's thread
 * (32 MiB) a thread would cost more than the unmapping. maps holds the files' GMappedFile
 * references. */
static void
release_maps (GPtrArray *maps, gsize total_bytes)
{
  GThread *thread;

  if (!_iochart_blktrace_unmap_in_thread || total_bytes / 8 < _iochart_blktrace_thread_min_bytes ||
      g_get_num_processors () < 2 ||
      (thread = g_thread_try_new ("iochart-unmap", unmap_thread, maps, NULL)) == NULL)
    {
      g_ptr_array_unref (maps);
      return;
    }
  g_thread_unref (thread);
}

gboolean
_iochart_blktrace_read (IochartBuilder *b, const char * const *cpu_files, GError **error)
{
  guint n_files = g_strv_length ((char **) cpu_files);
  g_autofree CpuFile *files = g_new0 (CpuFile, n_files);
  g_autofree CpuFile **heap = g_new (CpuFile *, n_files);
  g_autoptr(GError) first_error = NULL;
  Reader *r = g_new0 (Reader, 1);
  Merger m = { .b = b, .heap = heap };
  GPtrArray *maps;
  gsize lost = 0;
  guint worst = 0;
  guint64 records = 0;
  gboolean ok = TRUE;

  r->b = b;
  r->files = files;
  /* no slot's pid may match before the table has a word on it: the first record of a pid that
   * is its slot's index would find a NULL name, which is what the empty table says too */
  for (guint i = 0; i < COMM_SLOTS; i++)
    m.names.slots[i] = (CommSlot) { (gint32) i, NULL };
  m.names.comms = g_hash_table_new_full (NULL, NULL, NULL, comm_free);
  m.names.short_comms = g_string_chunk_new (1024);
  memset (m.rwbs, 0xff, sizeof m.rwbs);
  for (guint i = 0; i < NAMED_SLOTS; i++)
    m.named[i] = (gint32) i + 1;   /* a pid of another slot: none named yet */
  warn_missing_cpus (b, cpu_files);
  for (guint i = 0; i < n_files; i++)
    {
      g_autoptr(GError) local = NULL;
      CpuFile *f = &files[i];

      f->index = i;
      if (!cpu_file_open (f, cpu_files[i], &local))
        {
          /* One damaged CPU file does not stop the others. */
          _iochart_builder_warn (b, "%s: that CPU's records are lost", local->message);
          if (first_error == NULL)
            first_error = g_steal_pointer (&local);
          continue;
        }
      m.total_bytes += f->len;
      cpu_file_load (&m, f);
      if (f->live)
        heap[m.n++] = f;
    }
  records = merge (r, &m);
  for (guint i = 0; i < n_files; i++)
    {
      lost += files[i].lost;
      if (files[i].lost > files[worst].lost)
        worst = i;
    }
  /* A cut capture loses its last record; one whose damage starts near its head is not a capture. */
  if (records > 0 && lost > m.total_bytes / 2)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': damaged: no blktrace record at offset %" G_GSIZE_FORMAT " and after; %"
                   G_GSIZE_FORMAT " of the capture's %" G_GSIZE_FORMAT " bytes are not blktrace records",
                   files[worst].path, files[worst].lost_at, lost, m.total_bytes);
      ok = FALSE;
    }
  else if (records == 0)
    {
      if (first_error != NULL)
        g_propagate_error (error, g_steal_pointer (&first_error));
      else
        g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': no blktrace records%s",
                     cpu_files[0], n_files > 1 ? " in any CPU file" : "");
      ok = FALSE;
    }
  if (r->have_wall)
    _iochart_builder_wall_clock (r->b, r->wall_offset_ns);
  maps = g_ptr_array_new_full (n_files, (GDestroyNotify) g_mapped_file_unref);
  for (guint i = 0; i < n_files; i++)
    {
      if (files[i].out_of_order > 1)
        _iochart_builder_warn (b, "'%s': %" G_GUINT64_FORMAT " records out of time order",
                               files[i].path, files[i].out_of_order);
      if (files[i].map != NULL)
        g_ptr_array_add (maps, g_steal_pointer (&files[i].map));
    }
  release_maps (maps, m.total_bytes);
  g_hash_table_unref (m.names.comms);
  g_string_chunk_free (m.names.short_comms);
  g_free (r);
  return ok;
}

/* ---- detection and finding the CPU files ---- */

gboolean
_iochart_blktrace_sniff (const guint8 *head, gsize len)
{
  guint32 raw;

  if (len < 4)
    return FALSE;
  memcpy (&raw, head, 4);
  return (raw & 0xffffff00u) == BLK_IO_TRACE_MAGIC ||
         (GUINT32_SWAP_LE_BE (raw) & 0xffffff00u) == BLK_IO_TRACE_MAGIC;
}

typedef struct {
  char   *path;
  gint64  cpu;
} CpuPath;

static int
cpu_path_cmp (gconstpointer a, gconstpointer b)
{
  const CpuPath *x = a, *y = b;
  int c = strcmp (x->path, y->path);
  gsize lx = strlen (x->path) - strlen (g_strrstr (x->path, ".blktrace."));
  gsize ly = strlen (y->path) - strlen (g_strrstr (y->path, ".blktrace."));

  /* By device name, then by CPU number as a number (2 before 10). */
  if (lx != ly || strncmp (x->path, y->path, lx) != 0)
    return c;
  return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The files in dir named PREFIX.blktrace.N (any prefix when prefix is NULL), sorted. */
static GStrv
list_cpu_files (const char *dir, const char *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (CpuPath));
  GStrv out;
  const char *name;

  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      const char *dot = g_strrstr (name, ".blktrace.");
      CpuPath cp;

      if (dot == NULL || dot == name || (cp.cpu = cpu_number (name)) < 0)
        continue;
      if (prefix != NULL && (strlen (prefix) != (gsize) (dot - name) || strncmp (name, prefix, dot - name) != 0))
        continue;
      cp.path = g_build_filename (dir, name, NULL);
      if (!g_file_test (cp.path, G_FILE_TEST_IS_REGULAR))
        {
          g_free (cp.path);
          continue;
        }
      g_array_append_val (found, cp);
    }
  if (found->len == 0)
    return NULL;
  g_array_sort (found, cpu_path_cmp);
  out = g_new0 (char *, found->len + 1);
  for (guint i = 0; i < found->len; i++)
    out[i] = g_array_index (found, CpuPath, i).path;
  return out;
}

GStrv
_iochart_blktrace_expand (const char *path)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  const char *dot;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return list_cpu_files (path, NULL);
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  dot = g_strrstr (base, ".blktrace.");
  if (dot != NULL && dot != base && cpu_number (base) >= 0)
    {
      /* One CPU file: its siblings are the files of the same device. */
      base[dot - base] = '\0';
      return list_cpu_files (dir, base);
    }
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return list_cpu_files (dir, base);    /* the DEV basename blkparse -i takes */
  return NULL;
}
