/* test-blktrace-reader.c: the binary blktrace reader on byte arrays written here
 *
 * The first records are spelled out field by field in both byte orders; a helper writes the
 * others, and is checked against the spelled-out ones first.
 */
#include "../test-util.h"
#include <string.h>
#include <glib/gstdio.h>
#include "iochart-loader.h"
#include "readers/iochart-readers-private.h"

/* dev 7,0 = 7 << 20; Q of a 4 KiB sync read at sector 2048 by pid 4242 at 1000 ns, CPU 0. */
static const guint8 q_le[48] = {
  0x07, 0x74, 0x61, 0x65,                         /* magic 0x65617407 (version 7) */
  0x01, 0x00, 0x00, 0x00,                         /* sequence 1 */
  0xe8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* time 1000 ns */
  0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* sector 2048 */
  0x00, 0x10, 0x00, 0x00,                         /* bytes 4096 */
  0x01, 0x00, 0x19, 0x00,                         /* action: Q (1) | (READ|SYNC|QUEUE) << 16 */
  0x92, 0x10, 0x00, 0x00,                         /* pid 4242 */
  0x00, 0x00, 0x70, 0x00,                         /* device 7,0 */
  0x00, 0x00, 0x00, 0x00,                         /* cpu 0 */
  0x00, 0x00,                                     /* error 0 */
  0x00, 0x00,                                     /* pdu_len 0 */
};

static const guint8 q_be[48] = {
  0x65, 0x61, 0x74, 0x07,                         /* magic */
  0x00, 0x00, 0x00, 0x01,                         /* sequence 1 */
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xe8, /* time 1000 ns */
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08, 0x00, /* sector 2048 */
  0x00, 0x00, 0x10, 0x00,                         /* bytes 4096 */
  0x00, 0x19, 0x00, 0x01,                         /* action */
  0x00, 0x00, 0x10, 0x92,                         /* pid 4242 */
  0x00, 0x70, 0x00, 0x00,                         /* device 7,0 */
  0x00, 0x00, 0x00, 0x00,                         /* cpu 0 */
  0x00, 0x00,                                     /* error */
  0x00, 0x00,                                     /* pdu_len */
};

/* PROCESS note: pid 4242 is "dd", at 500 ns. */
static const guint8 process_le[48 + 16] = {
  0x07, 0x74, 0x61, 0x65,                         /* magic */
  0x00, 0x00, 0x00, 0x00,                         /* sequence 0 */
  0xf4, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* time 500 ns */
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* sector 0 */
  0x00, 0x00, 0x00, 0x00,                         /* bytes 0 */
  0x00, 0x00, 0x00, 0x04,                         /* action: PROCESS (0) | NOTIFY << 16 */
  0x92, 0x10, 0x00, 0x00,                         /* pid 4242 */
  0x00, 0x00, 0x70, 0x00,                         /* device 7,0 */
  0x00, 0x00, 0x00, 0x00,                         /* cpu 0 */
  0x00, 0x00,                                     /* error */
  0x10, 0x00,                                     /* pdu_len 16 */
  'd', 'd', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* comm */
};

static const guint8 process_be[48 + 16] = {
  0x65, 0x61, 0x74, 0x07,                         /* magic */
  0x00, 0x00, 0x00, 0x00,                         /* sequence 0 */
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0xf4, /* time 500 ns */
  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* sector 0 */
  0x00, 0x00, 0x00, 0x00,                         /* bytes 0 */
  0x04, 0x00, 0x00, 0x00,                         /* action: PROCESS | NOTIFY << 16 */
  0x00, 0x00, 0x10, 0x92,                         /* pid 4242 */
  0x00, 0x70, 0x00, 0x00,                         /* device 7,0 */
  0x00, 0x00, 0x00, 0x00,                         /* cpu 0 */
  0x00, 0x00,                                     /* error */
  0x00, 0x10,                                     /* pdu_len 16 */
  'd', 'd', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* comm */
};

#define DEV70 (7u << 20)
#define ACT(code, cats) ((guint32) (code) | (guint32) (cats) << 16)
enum { C_READ = 1, C_WRITE = 2, C_SYNC = 8, C_QUEUE = 0x10, C_ISSUE = 0x40, C_COMPLETE = 0x80, C_NOTIFY = 0x400 };

static void
put (GByteArray *out, gboolean be, guint32 seq, guint64 time, guint64 sector, guint32 bytes,
     guint32 action, guint32 pid, guint32 cpu, const void *pdu, guint16 pdu_len)
{
  guint8 rec[48];
  guint32 u32;
  guint64 u64;
  guint16 u16;

#define PUT32(off, v) (u32 = be ? GUINT32_TO_BE (v) : GUINT32_TO_LE (v), memcpy (rec + (off), &u32, 4))
#define PUT64(off, v) (u64 = be ? GUINT64_TO_BE (v) : GUINT64_TO_LE (v), memcpy (rec + (off), &u64, 8))
#define PUT16(off, v) (u16 = be ? GUINT16_TO_BE (v) : GUINT16_TO_LE (v), memcpy (rec + (off), &u16, 2))
  PUT32 (0, 0x65617407u);
  PUT32 (4, seq);
  PUT64 (8, time);
  PUT64 (16, sector);
  PUT32 (24, bytes);
  PUT32 (28, action);
  PUT32 (32, pid);
  PUT32 (36, DEV70);
  PUT32 (40, cpu);
  PUT16 (44, 0);
  PUT16 (46, pdu_len);
  g_byte_array_append (out, rec, 48);
  if (pdu_len)
    g_byte_array_append (out, pdu, pdu_len);
}

static void
put_rq (GByteArray *out, gboolean be, guint64 time, guint code, guint cat, guint64 sector, guint32 bytes,
        guint32 pid, guint32 cpu)
{
  put (out, be, 0, time, sector, bytes, ACT (code, C_READ | C_SYNC | cat), pid, cpu, NULL, 0);
}

/* A message note with a cgroup id before the text, as BFQ's notes come, and n_nuls NULs after
 * it (the kernel pads its notes). */
static void
put_padded_message (GByteArray *out, gboolean be, guint64 time, guint32 pid, const char *text, guint n_nuls)
{
  g_autoptr(GByteArray) pdu = g_byte_array_new ();
  guint64 cgid = 1;
  static const guint8 nuls[16];

  g_assert_cmpuint (n_nuls, <=, sizeof nuls);
  g_byte_array_append (pdu, (guint8 *) &cgid, 8);
  g_byte_array_append (pdu, (const guint8 *) text, strlen (text));
  g_byte_array_append (pdu, nuls, n_nuls);
  put (out, be, 0, time, 0, 0, ACT (2 | 0x100, C_NOTIFY), pid, 0, pdu->data, pdu->len);
}

static void
put_message (GByteArray *out, gboolean be, guint64 time, guint32 pid, const char *text)
{
  put_padded_message (out, be, time, pid, text, 0);
}

static char *
write_file (const char *dir, const char *name, const GByteArray *data)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, (const char *) data->data, data->len, NULL));
  return path;
}

static IochartCapture *
load (const char *path, GError **error)
{
  const char *paths[] = { path, NULL };

  return iochart_load (paths, NULL, error);
}

/* path read with the CPU files' merge in a thread of its own (threaded) or taking turns */
static IochartCapture *
load_merged (const char *path, gboolean threaded, GError **error)
{
  gsize saved = _iochart_blktrace_thread_min_bytes;
  IochartCapture *cap;

  _iochart_blktrace_thread_min_bytes = threaded ? 0 : G_MAXSIZE;
  cap = load (path, error);
  _iochart_blktrace_thread_min_bytes = saved;
  return cap;
}

/* data as loop0's only CPU file, read by load_merged () */
static IochartCapture *
load_loop0 (const GByteArray *data, gboolean threaded, GError **error)
{
  g_autofree char *dir = test_make_dir ();
  g_autofree char *path = write_file (dir, "loop0.blktrace.0", data);
  IochartCapture *cap = load_merged (path, threaded, error);

  test_remove_dir (dir);
  return cap;
}

static gboolean
has_warning (IochartCapture *cap, const char *part1, const char *part2)
{
  const char * const *w = iochart_capture_get_warnings (cap);

  for (; w && *w; w++)
    if (strstr (*w, part1) && (part2 == NULL || strstr (*w, part2)))
      return TRUE;
  return FALSE;
}

static void
test_helper_matches_arrays (void)
{
  for (int be = 0; be < 2; be++)
    {
      g_autoptr(GByteArray) a = g_byte_array_new ();

      put (a, be, 0, 500, 0, 0, ACT (0, C_NOTIFY), 4242, 0, "dd\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
      put (a, be, 1, 1000, 2048, 4096, ACT (1, C_READ | C_SYNC | C_QUEUE), 4242, 0, NULL, 0);
      g_assert_cmpmem (a->data, 64, be ? process_be : process_le, 64);
      g_assert_cmpmem (a->data + 64, 48, be ? q_be : q_le, 48);
      g_assert_true (_iochart_blktrace_sniff (be ? q_be : q_le, 48));
    }
  g_assert_false (_iochart_blktrace_sniff ((const guint8 *) "# tracer: blk\n", 14));
}

/* PROCESS, Q, I, D, C and a cgroup-tagged note, in one byte order: one request, named. */
static void
check_life (gboolean be)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autofree char *path = NULL;
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  const IochartProcess *proc;
  IochartRequest rq;

  g_byte_array_append (data, be ? process_be : process_le, 64);
  g_byte_array_append (data, be ? q_be : q_le, 48);
  {
    /* TIMESTAMP note: the wall clock (u32 seconds, u32 ns) at this record's time */
    guint32 wall[2] = { be ? GUINT32_TO_BE (1700000000u) : GUINT32_TO_LE (1700000000u),
                        be ? GUINT32_TO_BE (5u) : GUINT32_TO_LE (5u) };
    put (data, be, 0, 1050, 0, 0, ACT (1, C_NOTIFY), 4242, 0, wall, sizeof wall);
  }
  put_message (data, be, 1100, 4242, "bfq4242S add_request 1");
  put_rq (data, be, 1200, 12, 0x100, 2048, 4096, 4242, 0);     /* I */
  put_rq (data, be, 1300, 7, C_ISSUE, 2048, 4096, 4242, 0);    /* D */
  put_rq (data, be, 9300, 8, C_COMPLETE, 2048, 4096, 0, 0);    /* C, run by the idle task */
  path = write_file (dir, "loop0.blktrace.0", data);
  cap = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 1);
  g_assert_cmpuint (iochart_capture_get_n_events (cap), ==, 7);
  /* the capture starts at 1000 ns, 50 ns before the wall clock read 1700000000.000000005 */
  g_assert_cmpint (iochart_capture_get_wall_start_ns (cap), ==,
                   G_GINT64_CONSTANT (1700000000000000005) - 50);
  iochart_capture_get_request (cap, 0, &rq);
  g_assert_cmpint (rq.queue_ns, ==, 1000);
  g_assert_cmpint (rq.insert_ns, ==, 1200);
  g_assert_cmpint (rq.issue_ns, ==, 1300);
  g_assert_cmpint (rq.complete_ns, ==, 9300);
  g_assert_cmpuint (rq.sector, ==, 2048);
  g_assert_cmpuint (rq.bytes, ==, 4096);
  g_assert_cmpuint (rq.op, ==, IOCHART_OP_READ);
  g_assert_true (rq.flags & IOCHART_RQ_SYNC);
  g_assert_cmpstr (iochart_capture_get_device (cap, rq.device)->name, ==, "loop0");
  g_assert_cmpuint (iochart_capture_get_device (cap, rq.device)->dev, ==, DEV70);
  proc = iochart_capture_get_process (cap, rq.process);
  g_assert_cmpint (proc->pid, ==, 4242);
  g_assert_cmpstr (proc->comm, ==, "dd");
  test_remove_dir (dir);
}

/* A TIMESTAMP note on a record whose time is 2^63 (a corrupt file): the wall offset wraps
 * instead of overflowing, which UBSan builds (meson test halts on it) once caught by fuzzing. */
static void
test_wall_clock_wraps (void)
{
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  guint32 wall[2] = { GUINT32_TO_LE (0xffffffffu), GUINT32_TO_LE (999999999u) };

  g_byte_array_append (data, process_le, 64);
  g_byte_array_append (data, q_le, 48);
  put (data, FALSE, 0, (guint64) G_MAXINT64 + 1, 0, 0, ACT (1, C_NOTIFY), 4242, 0, wall, sizeof wall);
  cap = load_loop0 (data, FALSE, &error);
  /* loaded or refused, never undefined: the one request before the bad note is what counts */
  if (cap != NULL)
    {
      g_assert_cmpuint (iochart_capture_get_n_requests (cap), <=, 1);
      (void) iochart_capture_get_wall_start_ns (cap);
    }
  else
    g_assert_nonnull (error);
}

static void
test_life_le (void)
{
  check_life (FALSE);
}

static void
test_life_be (void)
{
  check_life (TRUE);
}

/* Q and C on CPU 0, I and D on CPU 1: the merge puts them back in time order. */
static void
test_merge_cpus (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(GByteArray) c1 = g_byte_array_new ();
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *p0 = NULL, *p1 = NULL;
  IochartRequest rq;

  for (guint i = 0; i < 100; i++)
    {
      guint64 t = 10000 * i;

      put_rq (c0, FALSE, t + 10, 1, C_QUEUE, 8 * i, 4096, 77, 0);
      put_rq (c1, FALSE, t + 20, 12, 0x100, 8 * i, 4096, 77, 1);
      put_rq (c1, FALSE, t + 30, 7, C_ISSUE, 8 * i, 4096, 77, 1);
      put_rq (c0, FALSE, t + 40, 8, C_COMPLETE, 8 * i, 4096, 0, 0);
    }
  p0 = write_file (dir, "sdb.blktrace.0", c0);
  p1 = write_file (dir, "sdb.blktrace.1", c1);
  cap = load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 100);
  for (guint i = 0; i < 100; i++)
    {
      iochart_capture_get_request (cap, i, &rq);
      g_assert_cmpint (rq.complete_ns - rq.queue_ns, ==, 30);
      g_assert_cmpint (rq.issue_ns - rq.insert_ns, ==, 10);
    }
  g_assert_cmpuint (iochart_capture_get_n_unmatched_completions (cap), ==, 0);
  test_remove_dir (dir);
}

static void
test_expand (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) one = g_byte_array_new ();
  const char *names[] = { "sda.blktrace.10", "sda.blktrace.2", "sda.blktrace.0", "sdb.blktrace.0", "notes.txt" };
  g_autofree char *base = g_build_filename (dir, "sda", NULL);
  g_autofree char *cpu2 = g_build_filename (dir, "sda.blktrace.2", NULL);
  g_autofree char *txt = g_build_filename (dir, "notes.txt", NULL);
  g_auto(GStrv) by_dir = NULL, by_file = NULL, by_base = NULL, by_other = NULL;

  put_rq (one, FALSE, 1, 1, C_QUEUE, 0, 512, 1, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (write_file (dir, names[i], one));
  by_dir = _iochart_blktrace_expand (dir);
  by_file = _iochart_blktrace_expand (cpu2);
  by_base = _iochart_blktrace_expand (base);
  by_other = _iochart_blktrace_expand (txt);
  g_assert_cmpuint (g_strv_length (by_dir), ==, 4);
  g_assert_cmpuint (g_strv_length (by_file), ==, 3);
  g_assert_cmpuint (g_strv_length (by_base), ==, 3);
  g_assert_null (by_other);
  /* By CPU number, not by name: 2 before 10. */
  g_assert_true (g_str_has_suffix (by_file[0], "sda.blktrace.0"));
  g_assert_true (g_str_has_suffix (by_file[1], "sda.blktrace.2"));
  g_assert_true (g_str_has_suffix (by_file[2], "sda.blktrace.10"));
  g_assert_true (g_str_has_suffix (by_dir[3], "sdb.blktrace.0"));
  test_remove_dir (dir);
}

/* Damage in one CPU file: warned with file and offset; the other file still loads. */
static void
check_damage (const char *what, void (*damage) (GByteArray *), const char *expect_file, const char *expect)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(GByteArray) c1 = g_byte_array_new ();
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;

  g_test_message ("damage: %s", what);
  for (guint i = 0; i < 10; i++)
    {
      put_rq (c0, FALSE, 100 * i + 1, 1, C_QUEUE, 8 * i, 4096, 5, 0);
      put_rq (c0, FALSE, 100 * i + 2, 7, C_ISSUE, 8 * i, 4096, 5, 0);
      put_rq (c1, FALSE, 100 * i + 3, 8, C_COMPLETE, 8 * i, 4096, 0, 1);
    }
  damage (c1);
  g_free (write_file (dir, "vdb.blktrace.0", c0));
  g_free (write_file (dir, "vdb.blktrace.1", c1));
  cap = load (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 10);
  if (!has_warning (cap, expect_file, expect))
    {
      const char * const *w = iochart_capture_get_warnings (cap);
      for (; w && *w; w++)
        g_printerr ("warning: %s\n", *w);
      g_error ("no warning with '%s' and '%s'", expect_file, expect);
    }
  test_remove_dir (dir);
}

/* The merge in a thread of its own gives the very capture the merge taking turns gives: every
 * request, process name, note and warning, in the same order, across many batches. */
static void
test_threaded_merge (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(GByteArray) c1 = g_byte_array_new ();
  g_autoptr(IochartCapture) one = NULL, two = NULL;
  g_autoptr(GError) error = NULL;
  const char * const *w1, * const *w2;
  char comm[16] = "worker";

  for (guint i = 0; i < 20000; i++)
    {
      guint64 t = 1000 * (guint64) i;
      guint32 pid = 100 + i % 50;

      if (i < 50)
        put (c0, FALSE, 0, t, 0, 0, ACT (0, C_NOTIFY), pid, 0, comm, sizeof comm);
      put_rq (c0, FALSE, t + 10, 1, C_QUEUE, 8 * (guint64) i, 4096, pid, 0);
      if (i % 7 == 0)
        put_message (c0, FALSE, t + 11, pid, "bfq0A new_ioprio 7 new_weight 10");
      put_rq (c1, FALSE, t + 20, 7, C_ISSUE, 8 * (guint64) i, 4096, pid, 1);
      put_rq (c1, FALSE, t + 30, 8, C_COMPLETE, 8 * (guint64) i, 4096, 0, 1);
    }
  /* a record out of time order halfway, and a cut tail */
  memset (c1->data + (c1->len / 96) * 48 + 8, 0, 8);
  g_byte_array_set_size (c1, c1->len - 20);
  g_free (write_file (dir, "vdc.blktrace.0", c0));
  g_free (write_file (dir, "vdc.blktrace.1", c1));

  one = load_merged (dir, TRUE, &error);
  g_assert_no_error (error);
  two = load_merged (dir, FALSE, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (iochart_capture_get_n_requests (one), >, 19000);
  g_assert_cmpuint (iochart_capture_get_n_requests (one), ==, iochart_capture_get_n_requests (two));
  g_assert_cmpuint (iochart_capture_get_n_events (one), ==, iochart_capture_get_n_events (two));
  for (guint i = 0; i < iochart_capture_get_n_requests (one); i++)
    {
      IochartRequest a, b;

      iochart_capture_get_request (one, i, &a);
      iochart_capture_get_request (two, i, &b);
      g_assert_cmpint (a.queue_ns, ==, b.queue_ns);
      g_assert_cmpint (a.issue_ns, ==, b.issue_ns);
      g_assert_cmpint (a.complete_ns, ==, b.complete_ns);
      g_assert_cmpuint (a.sector, ==, b.sector);
      g_assert_cmpuint (a.process, ==, b.process);
      g_assert_cmpuint (a.klass, ==, b.klass);
      g_assert_cmpuint (a.class_source, ==, b.class_source);
    }
  w1 = iochart_capture_get_warnings (one);
  w2 = iochart_capture_get_warnings (two);
  g_assert_nonnull (w1);
  g_assert_cmpuint (g_strv_length ((char **) w1), >=, 2);
  g_assert_cmpstrv (w1, w2);
  g_assert_true (has_warning (one, "vdc.blktrace.1", "out of time order"));
  g_assert_true (has_warning (one, "vdc.blktrace.1", "cut mid-record"));
  test_remove_dir (dir);
}

/* The notes tests' end: dev's two CPU files written, read with the merge in a thread of its own
 * and taking turns, each time 10 events from start_ns to end_ns and one request, best-effort
 * as a scheduler note tells, at level (or any level when -1). */
static void
check_one_noted_request (const char *dir, const char *dev, GByteArray *c0, GByteArray *c1, gint64 start_ns,
                         gint64 end_ns, int level)
{
  g_autofree char *f0 = g_strdup_printf ("%s.blktrace.0", dev), *f1 = g_strdup_printf ("%s.blktrace.1", dev);

  g_free (write_file (dir, f0, c0));
  g_free (write_file (dir, f1, c1));
  for (int threaded = 0; threaded < 2; threaded++)
    {
      g_autoptr(IochartCapture) cap = NULL;
      g_autoptr(GError) error = NULL;
      IochartRequest rq;

      cap = load_merged (dir, threaded, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (iochart_capture_get_n_events (cap), ==, 10);
      g_assert_cmpint (iochart_capture_get_start_ns (cap), ==, start_ns);
      g_assert_cmpint (iochart_capture_get_end_ns (cap), ==, end_ns);
      g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 1);
      iochart_capture_get_request (cap, 0, &rq);
      g_assert_cmpuint (rq.klass, ==, IOCHART_CLASS_BE);
      if (level >= 0)
        g_assert_cmpuint (rq.level, ==, level);
      g_assert_cmpuint (rq.class_source, ==, IOCHART_CLASS_SOURCE_SCHEDULER_NOTE);
    }
}

/* Notes that tell nothing are dropped by the merge but still counted and in the capture's span
 * (here they are its first and last records, and one file's notes run out of time order);
 * the note that tells a class, and the next note of the same task on another CPU that names
 * its queue, still reach the builder, threaded or not. */
static void
test_quiet_notes (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(GByteArray) c1 = g_byte_array_new ();

  put_message (c0, FALSE, 500, 4242, "bfq4242S dispatch");
  put_rq (c0, FALSE, 1000, 1, C_QUEUE, 2048, 4096, 4242, 0);
  put_message (c0, FALSE, 1100, 4242, "bfq0A new_ioprio 3 new_weight 40");
  put_message (c1, FALSE, 1150, 4242, "bfq4242S allocated");
  put_message (c1, FALSE, 1180, 4242, "bfq4242S add_request 1");
  put_message (c1, FALSE, 1170, 4242, "bfq4242S get_request");
  put_rq (c1, FALSE, 1200, 12, 0x100, 2048, 4096, 4242, 1);
  put_rq (c1, FALSE, 1300, 7, C_ISSUE, 2048, 4096, 4242, 1);
  put_rq (c0, FALSE, 9300, 8, C_COMPLETE, 2048, 4096, 0, 0);
  put_message (c0, FALSE, 9900, 0, "bfq schedule dispatch");
  check_one_noted_request (dir, "vde", c0, c1, 500, 9900, -1);
  test_remove_dir (dir);
}

/* The merge skips a CPU file's notes that tell nothing without handing them on, but only while
 * they come before the other file's next record: at equal times the file listed first goes
 * first, and here that decides the class. CPU 0's level note at 100 ns must come between CPU 1's
 * notes at 100 ns and before the note that names its queue ("allocated", padded with NULs as
 * the kernel's notes are); skipped past it, the level would name no queue. */
static void
test_quiet_notes_at_ties (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(GByteArray) c1 = g_byte_array_new ();

  put_message (c0, FALSE, 10, 1, "bfq1S dispatch");
  put_message (c0, FALSE, 100, 4242, "bfq0A new_ioprio 3 new_weight 50");
  put_rq (c0, FALSE, 400, 8, C_COMPLETE, 2048, 4096, 0, 0);
  put_message (c1, FALSE, 50, 4242, "bfq4242S dispatch");
  put_padded_message (c1, FALSE, 60, 9, "bfq9S add_request 1", 3);
  put_message (c1, FALSE, 100, 9, "bfq9S add_request 1");
  put_padded_message (c1, FALSE, 100, 4242, "bfq4242S allocated", 6);
  put_rq (c1, FALSE, 200, 1, C_QUEUE, 2048, 4096, 4242, 1);
  put_rq (c1, FALSE, 220, 12, 0x100, 2048, 4096, 4242, 1);
  put_rq (c1, FALSE, 230, 7, C_ISSUE, 2048, 4096, 4242, 1);
  check_one_noted_request (dir, "vdf", c0, c1, 10, 400, 3);
  test_remove_dir (dir);
}

/* A level note and the note naming its queue in the middle of one CPU file's run, between the
 * request's own records: the merge parses them without leaving the run, and the request still
 * takes the class they tell. */
static void
test_class_notes_mid_run (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(GByteArray) c1 = g_byte_array_new ();

  put_message (c0, FALSE, 100, 4242, "bfq4242S dispatch");
  put_rq (c0, FALSE, 200, 1, C_QUEUE, 2048, 4096, 4242, 0);
  put_message (c0, FALSE, 300, 4242, "bfq0A new_ioprio 3 new_weight 50");
  put_padded_message (c0, FALSE, 310, 4242, "bfq4242S allocated", 5);
  put_message (c0, FALSE, 320, 4242, "bfq4242S add_request 1");
  put_rq (c0, FALSE, 400, 12, 0x100, 2048, 4096, 4242, 0);
  put_rq (c0, FALSE, 500, 7, C_ISSUE, 2048, 4096, 4242, 0);
  put_rq (c0, FALSE, 600, 8, C_COMPLETE, 2048, 4096, 0, 0);
  put_message (c1, FALSE, 50, 1, "bfq1S dispatch");
  put_message (c1, FALSE, 900, 0, "bfq schedule dispatch");
  check_one_noted_request (dir, "vdh", c0, c1, 50, 900, 3);
  test_remove_dir (dir);
}

static void cut_mid_record (GByteArray *a) { g_byte_array_set_size (a, 5 * 48 + 20); }
static void bad_magic (GByteArray *a) { a->data[3 * 48] ^= 0xff; }
static void pdu_past_end (GByteArray *a) { a->data[9 * 48 + 46] = 0x40; }
static void out_of_order (GByteArray *a) { a->data[4 * 48 + 8] = 0; a->data[4 * 48 + 9] = 0; }
static void bad_version (GByteArray *a) { a->data[0] = 0x08; }
static void garbage (GByteArray *a) { memset (a->data, 'x', a->len); }

static void
test_damage (void)
{
  check_damage ("cut", cut_mid_record, "vdb.blktrace.1", "cut mid-record at offset 240 (20 bytes lost)");
  check_damage ("magic", bad_magic, "vdb.blktrace.1", "bad magic at offset 144");
  check_damage ("pdu_len", pdu_past_end, "vdb.blktrace.1", "pdu_len 64 past the end at offset 432");
  check_damage ("order", out_of_order, "vdb.blktrace.1", "out of time order at offset 192");
  check_damage ("version 8", bad_version, "vdb.blktrace.1", "version 8");
  check_damage ("garbage", garbage, "vdb.blktrace.1", "bad magic at offset 0");
}

static void
test_missing_cpu (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) c0 = g_byte_array_new ();
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;

  put_rq (c0, FALSE, 1, 1, C_QUEUE, 0, 4096, 5, 0);
  put_rq (c0, FALSE, 2, 7, C_ISSUE, 0, 4096, 5, 0);
  g_free (write_file (dir, "vdc.blktrace.0", c0));
  g_free (write_file (dir, "vdc.blktrace.2", c0));
  cap = load (dir, &error);
  g_assert_no_error (error);
  g_assert_true (has_warning (cap, "vdc.blktrace.1", "missing"));
  test_remove_dir (dir);
}

/* Nothing readable: an error naming the file and offset, no capture. */
static void
test_nothing_readable (void)
{
  g_autofree char *dir = test_make_dir ();
  g_autoptr(GByteArray) bad = g_byte_array_new ();
  g_autoptr(IochartCapture) cap = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  put_rq (bad, FALSE, 1, 1, C_QUEUE, 0, 4096, 5, 0);
  bad->data[1] = 0;   /* 0x65610007: not our magic */
  path = write_file (dir, "vdd.blktrace.0", bad);
  cap = load (path, &error);
  g_assert_null (cap);
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_nonnull (strstr (error->message, "vdd.blktrace.0': bad magic at offset 0"));
  g_clear_error (&error);

  /* Only a header's worth cut short. */
  g_byte_array_set_size (bad, 30);
  bad->data[1] = 0x74;
  g_free (write_file (dir, "vdd.blktrace.0", bad));
  cap = load (path, &error);
  g_assert_null (cap);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "vdd.blktrace.0"));
  test_remove_dir (dir);
}

/* The process of a pid, or NULL. */
static const IochartProcess *
process_of_pid (IochartCapture *cap, gint32 pid, guint *index)
{
  for (guint i = 0; i < iochart_capture_get_n_processes (cap); i++)
    if (iochart_capture_get_process (cap, i)->pid == pid)
      {
        *index = i;
        return iochart_capture_get_process (cap, i);
      }
  return NULL;
}

static void
put_process (GByteArray *out, guint64 time, guint32 pid, const char *comm)
{
  char pdu[16] = { 0 };

  memcpy (pdu, comm, MIN (strlen (comm), sizeof pdu));
  put (out, FALSE, 0, time, 0, 0, ACT (0, C_NOTIFY), pid, 0, pdu, sizeof pdu);
}

/* The reader keeps the names of a few pids at hand, by pid modulo 256: pids that share a place
 * (5 and 261), a pid equal to its place with no name (7), a name given twice and a rename must
 * all give the names the notes say, in both the plain and the threaded merge. */
static void
test_comm_slots (void)
{
  for (int threaded = 0; threaded < 2; threaded++)
    {
      g_autoptr(GByteArray) data = g_byte_array_new ();
      g_autoptr(IochartCapture) cap = NULL;
      g_autoptr(GError) error = NULL;
      const IochartProcess *p5, *p261, *p7, *p9001;
      const IochartComm *comms;
      guint i5 = 0, i261 = 0, i7 = 0, i9001 = 0, n;

      put_process (data, 100, 5, "alpha");
      put_rq (data, FALSE, 200, 1, C_QUEUE, 1000, 4096, 5, 0);
      put_process (data, 300, 261, "beta");
      put_rq (data, FALSE, 400, 1, C_QUEUE, 2000, 4096, 261, 0);
      put_rq (data, FALSE, 500, 1, C_QUEUE, 3000, 4096, 5, 0);
      put_rq (data, FALSE, 550, 1, C_QUEUE, 4000, 4096, 7, 0);
      put_process (data, 600, 5, "alpha");
      put_process (data, 650, 5, "a-sixteen-bytes!");
      put_rq (data, FALSE, 700, 1, C_QUEUE, 5000, 4096, 5, 0);
      put_rq (data, FALSE, 800, 1, C_QUEUE, 6000, 4096, 261, 0);
      put_rq (data, FALSE, 900, 1, C_QUEUE, 7000, 4096, 9001, 0);
      cap = load_loop0 (data, threaded, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 7);
      p5 = process_of_pid (cap, 5, &i5);
      p261 = process_of_pid (cap, 261, &i261);
      p7 = process_of_pid (cap, 7, &i7);
      p9001 = process_of_pid (cap, 9001, &i9001);
      g_assert_nonnull (p5);
      g_assert_nonnull (p261);
      g_assert_nonnull (p7);
      g_assert_nonnull (p9001);
      g_assert_cmpstr (p5->comm, ==, "a-sixteen-bytes!");
      comms = iochart_capture_get_comms (cap, i5, &n);
      g_assert_cmpuint (n, ==, 2);
      g_assert_cmpstr (comms[0].comm, ==, "alpha");
      g_assert_cmpint (comms[0].ns, ==, 100);
      g_assert_cmpstr (comms[1].comm, ==, "a-sixteen-bytes!");
      g_assert_cmpint (comms[1].ns, ==, 650);
      g_assert_cmpstr (p261->comm, ==, "beta");
      /* no note named 7 or 9001: the same (unknown) name for both */
      g_assert_cmpstr (p7->comm, ==, p9001->comm);
      iochart_capture_get_comms (cap, i7, &n);
      g_assert_cmpuint (n, ==, 0);
    }
}

/* The merge counts, and does not hand on, a G, P or U record of a pid whose process the builder
 * has named with the pid's present name already (the builder would only name it again): such
 * records, the capture's last among them, still count as events and end its span, and the
 * processes keep the names the notes gave them when they gave them (a pid no note names has
 * no process), threaded or not. */
static void
test_names_only_records (void)
{
  for (int threaded = 0; threaded < 2; threaded++)
    {
      g_autoptr(GByteArray) data = g_byte_array_new ();
      g_autoptr(IochartCapture) cap = NULL;
      g_autoptr(GError) error = NULL;
      const IochartProcess *p5, *p7;
      const IochartComm *comms;
      guint i5 = 0, i7 = 0, i9 = 0, n;

      put_process (data, 100, 5, "alpha");
      put_rq (data, FALSE, 200, 1, C_QUEUE, 1000, 4096, 5, 0);
      put_rq (data, FALSE, 300, 4, 0, 1000, 4096, 5, 0);    /* G */
      put_rq (data, FALSE, 310, 4, 0, 1000, 4096, 5, 0);
      put_rq (data, FALSE, 320, 9, 0, 0, 0, 7, 0);          /* P of a pid with no name yet */
      put_rq (data, FALSE, 330, 10, 0, 0, 0, 7, 0);         /* U */
      put_process (data, 400, 7, "gamma");
      put_rq (data, FALSE, 410, 10, 0, 0, 0, 7, 0);
      put_rq (data, FALSE, 420, 10, 0, 0, 0, 7, 0);
      put_process (data, 500, 5, "beta");
      put_rq (data, FALSE, 510, 4, 0, 2000, 4096, 5, 0);
      put_rq (data, FALSE, 520, 9, 0, 0, 0, 9, 0);
      put_rq (data, FALSE, 530, 4, 0, 3000, 4096, 5, 0);
      put_rq (data, FALSE, 540, 9, 0, 0, 0, 9, 0);
      cap = load_loop0 (data, threaded, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (iochart_capture_get_n_events (cap), ==, 14);
      /* a PROCESS note is counted, not timed */
      g_assert_cmpint (iochart_capture_get_start_ns (cap), ==, 200);
      g_assert_cmpint (iochart_capture_get_end_ns (cap), ==, 540);
      g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 1);
      p5 = process_of_pid (cap, 5, &i5);
      p7 = process_of_pid (cap, 7, &i7);
      g_assert_nonnull (p5);
      g_assert_nonnull (p7);
      g_assert_null (process_of_pid (cap, 9, &i9));
      comms = iochart_capture_get_comms (cap, i5, &n);
      g_assert_cmpuint (n, ==, 2);
      g_assert_cmpstr (comms[0].comm, ==, "alpha");
      g_assert_cmpstr (comms[1].comm, ==, "beta");
      g_assert_cmpint (comms[1].ns, ==, 500);
      comms = iochart_capture_get_comms (cap, i7, &n);
      g_assert_cmpuint (n, ==, 1);
      g_assert_cmpstr (comms[0].comm, ==, "gamma");
      g_assert_cmpint (comms[0].ns, ==, 400);
    }
}

/* A completion with an error takes the reader's other road (the merge hands it on whole); the
 * request keeps the error, in both byte orders, threaded or not. */
static void
test_completion_error (void)
{
  for (int be = 0; be < 2; be++)
    for (int threaded = 0; threaded < 2; threaded++)
      {
        g_autoptr(GByteArray) data = g_byte_array_new ();
        g_autoptr(IochartCapture) cap = NULL;
        g_autoptr(GError) error = NULL;
        guint16 eio = be ? GUINT16_TO_BE ((guint16) -5) : GUINT16_TO_LE ((guint16) -5);
        IochartRequest rq;

        put_rq (data, be, 1000, 1, C_QUEUE, 2048, 4096, 4242, 0);
        put_rq (data, be, 1300, 7, C_ISSUE, 2048, 4096, 4242, 0);
        put_rq (data, be, 9300, 8, C_COMPLETE, 2048, 4096, 0, 0);
        memcpy (data->data + data->len - 48 + 44, &eio, 2);
        put_rq (data, be, 9400, 1, C_QUEUE, 4096, 4096, 4242, 0);
        cap = load_loop0 (data, threaded, &error);
        g_assert_no_error (error);
        g_assert_cmpuint (iochart_capture_get_n_requests (cap), ==, 2);
        iochart_capture_get_request (cap, 0, &rq);
        g_assert_cmpint (rq.complete_ns, ==, 9300);
        g_assert_cmpint (rq.error, ==, -5);
        g_assert_cmpstr (iochart_capture_get_device (cap, rq.device)->name, ==, "loop0");
        iochart_capture_get_request (cap, 1, &rq);
        g_assert_cmpint (rq.error, ==, 0);
      }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/blktrace/helper-matches-arrays", test_helper_matches_arrays);
  g_test_add_func ("/blktrace/life-le", test_life_le);
  g_test_add_func ("/blktrace/life-be", test_life_be);
  g_test_add_func ("/blktrace/wall-clock-wraps", test_wall_clock_wraps);
  g_test_add_func ("/blktrace/merge-cpus", test_merge_cpus);
  g_test_add_func ("/blktrace/expand", test_expand);
  g_test_add_func ("/blktrace/damage", test_damage);
  g_test_add_func ("/blktrace/threaded-merge", test_threaded_merge);
  g_test_add_func ("/blktrace/quiet-notes", test_quiet_notes);
  g_test_add_func ("/blktrace/quiet-notes-at-ties", test_quiet_notes_at_ties);
  g_test_add_func ("/blktrace/class-notes-mid-run", test_class_notes_mid_run);
  g_test_add_func ("/blktrace/missing-cpu", test_missing_cpu);
  g_test_add_func ("/blktrace/comm-slots", test_comm_slots);
  g_test_add_func ("/blktrace/completion-error", test_completion_error);
  g_test_add_func ("/blktrace/names-only-records", test_names_only_records);
  g_test_add_func ("/blktrace/nothing-readable", test_nothing_readable);
  return g_test_run ();
}
