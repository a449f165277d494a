/* test-dat-reader.c: the trace-cmd .dat reader on the recorded samples and on made-up headers */
#include <string.h>
#include <glib/gstdio.h>

#include "iochart-loader.h"
#include "iochart-readers-private.h"
#include "analysis/iochart-summary.h"

static char *
sample_path (const char *name)
{
  const char *root = g_getenv ("IOCHART_SOURCE_ROOT");

  return g_build_filename (root ? root : ".", "samples", name, NULL);
}

/* ---- the recorded samples ---- */

typedef struct {
  guint64 requests[IOCHART_N_CLASSES];
  guint64 bytes[IOCHART_N_CLASSES];
  guint64 total_requests;
} Expected;

static void
read_expected (const char *path, Expected *e)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  memset (e, 0, sizeof *e);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char klass[16];
      guint64 n, bytes;
      IochartClass c;

      if (sscanf (lines[i], "class %15s requests %" G_GUINT64_FORMAT " bytes %" G_GUINT64_FORMAT,
                  klass, &n, &bytes) == 3)
        {
          g_assert_true (iochart_class_from_name (klass, &c));
          e->requests[c] = n;
          e->bytes[c] = bytes;
        }
      else if (sscanf (lines[i], "requests %" G_GUINT64_FORMAT, &n) == 1)
        e->total_requests = n;
    }
}

typedef struct {
  guint  calls;
  double first, last;
  gboolean monotonic;
} Progress;

static void
on_progress (double fraction, gpointer user_data)
{
  Progress *p = user_data;

  if (p->calls++ == 0)
    p->first = fraction;
  else if (fraction < p->last)
    p->monotonic = FALSE;
  p->last = fraction;
}

static void
check_sample (const char *name)
{
  g_autofree char *dat = g_strdup_printf ("%s.dat", name);
  g_autofree char *exp = g_strdup_printf ("%s.expected", name);
  g_autofree char *path = sample_path (dat);
  g_autofree char *exp_path = sample_path (exp);
  const char *paths[] = { path, NULL };
  Progress progress = { .monotonic = TRUE };
  IochartLoadOptions options = { .progress = on_progress, .progress_data = &progress };
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  guint64 requests[IOCHART_N_CLASSES] = { 0 }, bytes[IOCHART_N_CLASSES] = { 0 }, issued = 0;
  gboolean dd_rt = FALSE;
  Expected e;

  read_expected (exp_path, &e);
  capture = iochart_load (paths, &options, &error);
  g_assert_no_error (error);
  g_assert_nonnull (capture);

  /* all events sit in a named instance buffer: none of them would be read from the top level */
  g_assert_cmpuint (iochart_capture_get_n_events (capture), >, 1000);
  g_assert_cmpuint (progress.calls, >=, 2);
  g_assert_cmpfloat (progress.first, ==, 0.0);
  g_assert_cmpfloat (progress.last, ==, 1.0);
  g_assert_true (progress.monotonic);

  for (guint i = 0; i < iochart_capture_get_n_requests (capture); i++)
    {
      IochartRequest rq;

      iochart_capture_get_request (capture, i, &rq);
      if (rq.issue_ns == IOCHART_TIME_UNKNOWN)
        continue;
      issued++;
      requests[rq.klass]++;
      bytes[rq.klass] += rq.bytes;
    }
  g_assert_cmpuint (issued, ==, e.total_requests);
  for (guint c = 0; c < IOCHART_N_CLASSES; c++)
    {
      g_assert_cmpuint (requests[c], ==, e.requests[c]);
      g_assert_cmpuint (bytes[c], ==, e.bytes[c]);
    }
  g_assert_cmpuint (requests[IOCHART_CLASS_RT], >, 0);
  g_assert_cmpuint (requests[IOCHART_CLASS_BE], >, 0);
  g_assert_cmpuint (requests[IOCHART_CLASS_IDLE], >, 0);

  /* `ionice -c 1 -n 2 dd ...`: the reader's own requests, told by the ioprio field */
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (capture, i);

      if (g_strcmp0 (p->comm, "dd") == 0 && p->klass == IOCHART_CLASS_RT && p->level == 2 &&
          p->class_source == IOCHART_CLASS_SOURCE_IOPRIO_FIELD && p->requests > 0)
        dd_rt = TRUE;
    }
  g_assert_true (dd_rt);
}

static void
test_sample_bfq (void)
{
  check_sample ("ionice-bfq");
}

static void
test_sample_mq_deadline (void)
{
  check_sample ("ionice-mq-deadline");
}

/* ---- the direct read against libtracecmd's ---- */

/* A capture's figures, requests and warnings as text, to compare two reads of one file. */
static char *
describe (IochartCapture *capture)
{
  g_autoptr(IochartSummary) summary = iochart_summary_new (capture, -1, 0);
  const char * const *warnings = iochart_capture_get_warnings (capture);
  GString *out = g_string_new (NULL);

  iochart_summary_print (summary, out);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    g_string_append_printf (out, "warning %s\n", warnings[i]);
  g_string_append_printf (out, "events %" G_GUINT64_FORMAT "\n", (guint64) iochart_capture_get_n_events (capture));
  for (guint i = 0; i < iochart_capture_get_n_requests (capture); i++)
    {
      IochartRequest r;

      iochart_capture_get_request (capture, i, &r);
      g_string_append_printf (out, "%" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT
                              " %" G_GUINT64_FORMAT " %u %u %u %u %u %u %u %u %u %u %u %d\n", r.queue_ns, r.insert_ns,
                              r.issue_ns, r.complete_ns, r.sector, r.bytes, r.process, r.device, r.op, r.flags,
                              r.klass, r.level, r.class_source, r.issues, r.requeues, r.merges, r.error);
    }
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (capture, i);

      g_string_append_printf (out, "process %d %s %u %u\n", p->pid, p->comm, p->klass, p->class_source);
    }
  return g_string_free (out, FALSE);
}

static char *
read_described (const char *path, gboolean direct)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;

  g_assert_true (direct ? _iochart_dat_read (b, path, &error) : _iochart_dat_read_libtracecmd (b, path, &error));
  g_assert_no_error (error);
  capture = _iochart_builder_finish (b);
  return describe (capture);
}

/* The direct read (only the wanted event formats, kbuffer over the pages) must hand the builder
 * what libtracecmd's open and iteration hand it: every sample, instance buffer or top level. */
static void
test_direct_equals_libtracecmd (void)
{
  const char *samples[] = { "ionice-bfq.dat", "ionice-mq-deadline.dat", "sim-deadline-idle-vs-normal.dat",
                            "sim-none-alone.dat" };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = sample_path (samples[i]);
      g_autofree char *direct = read_described (path, TRUE);
      g_autofree char *lib = read_described (path, FALSE);

      g_assert_cmpuint (strlen (direct), >, 10000);
      g_assert_cmpstr (direct, ==, lib);
    }
}

/* ---- made-up headers, both byte orders ---- */

typedef struct {
  GByteArray *b;
  gboolean    big;
} Writer;

static void
put (Writer *w, guint64 v, guint width)
{
  for (guint i = 0; i < width; i++)
    {
      guint shift = 8 * (w->big ? width - 1 - i : i);
      guint8 byte = v >> shift;

      g_byte_array_append (w->b, &byte, 1);
    }
}

static void
put_str (Writer *w, const char *s)
{
  g_byte_array_append (w->b, (const guint8 *) s, strlen (s) + 1);
}

/* magic, "7", byte order, long size, page size, compression, first options offset */
static void
put_v7_header (Writer *w, guint64 options)
{
  g_byte_array_append (w->b, (const guint8 *) "\027\010\104tracing", 10);
  put_str (w, "7");
  put (w, w->big, 1);
  put (w, 8, 1);                /* long size */
  put (w, 4096, 4);             /* page size */
  put_str (w, "none");
  put_str (w, "");
  put (w, options, 8);
}

static char *
check_bytes (GByteArray *b)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  int fd = g_file_open_tmp ("iochart-dat-XXXXXX.dat", &path, NULL);

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
  close (fd);
  g_assert_true (_iochart_dat_sniff (b->data, b->len));
  g_assert_false (_iochart_dat_check (path, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE);
  g_assert_nonnull (strstr (error->message, path));
  g_unlink (path);
  return g_strdup (strstr (error->message, "': ") + 3);
}

static void
test_options_past_end (void)
{
  for (int big = 0; big <= 1; big++)
    {
      Writer w = { g_byte_array_new (), big };
      g_autofree char *message = NULL;

      put_v7_header (&w, 4096);
      g_assert_cmpuint (w.b->len, ==, 32);
      message = check_bytes (w.b);
      g_assert_cmpstr (message, ==, "truncated: section 'options' at offset 4096 past end of file (32 bytes)");
      g_byte_array_unref (w.b);
    }
}

static void
test_cpu_data_past_end (void)
{
  for (int big = 0; big <= 1; big++)
    {
      Writer w = { g_byte_array_new (), big };
      g_autofree char *message = NULL;
      guint64 options = 32, buffer_section;

      put_v7_header (&w, options);
      /* options section: BUFFER (8 + "x" + "local" + 4 + 4 + 20 = 44 bytes) and DONE (8) */
      put (&w, 0, 2);                   /* section id: options */
      put (&w, 0, 2);                   /* flags */
      put (&w, 0, 4);                   /* description string id */
      put (&w, 6 + 44 + 6 + 8, 8);      /* size */
      buffer_section = options + 16 + 6 + 44 + 6 + 8;
      put (&w, 3, 2);                   /* option BUFFER */
      put (&w, 44, 4);
      put (&w, buffer_section, 8);
      put_str (&w, "x");
      put_str (&w, "local");
      put (&w, 4096, 4);                /* page size */
      put (&w, 1, 4);                   /* cpus */
      put (&w, 0, 4);                   /* cpu 0 ... */
      put (&w, 1 << 20, 8);             /* ... at 1 MiB ... */
      put (&w, 100, 8);                 /* ... 100 bytes */
      put (&w, 0, 2);                   /* option DONE */
      put (&w, 8, 4);
      put (&w, 0, 8);                   /* no next options section */
      g_assert_cmpuint (w.b->len, ==, buffer_section);
      put (&w, 3, 2);                   /* the buffer's section: id, flags, string, size 0 */
      put (&w, 0, 2);
      put (&w, 0, 4);
      put (&w, 0, 8);
      message = check_bytes (w.b);
      g_assert_cmpstr (message, ==, "truncated: cpu 0 data of buffer 'x' at offset 1048576 past end of "
                       "file (128 bytes)");
      g_byte_array_unref (w.b);
    }
}

static void
test_bad_section_id (void)
{
  Writer w = { g_byte_array_new (), FALSE };
  g_autofree char *message = NULL;

  put_v7_header (&w, 32);
  put (&w, 18, 2);                      /* not an options section */
  put (&w, 0, 2);
  put (&w, 0, 4);
  put (&w, 0, 8);
  message = check_bytes (w.b);
  g_assert_cmpstr (message, ==, "damaged: section 'options' has id 18, not 0 at offset 32");
  g_byte_array_unref (w.b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dat/sample/bfq", test_sample_bfq);
  g_test_add_func ("/dat/sample/mq-deadline", test_sample_mq_deadline);
  g_test_add_func ("/dat/sample/direct-equals-libtracecmd", test_direct_equals_libtracecmd);
  g_test_add_func ("/dat/check/options-past-end", test_options_past_end);
  g_test_add_func ("/dat/check/cpu-data-past-end", test_cpu_data_past_end);
  g_test_add_func ("/dat/check/bad-section-id", test_bad_section_id);
  return g_test_run ();
}
