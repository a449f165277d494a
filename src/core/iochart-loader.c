/* iochart-loader.c: format detection from content, decompression, and dispatch to readers */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <string.h>
#include <archive.h>
#include <archive_entry.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include "iochart-loader.h"
#include "iochart-side-capture.h"
#include "iochart-capture-private.h"
#include "readers/iochart-readers-private.h"
#include "bootchart/iochart-bootchart.h"

#define SNIFF_BYTES 8192

static const char * const format_names[] = {
  "unknown", "trace-cmd .dat", "ftrace text", "blk tracer text", "blkparse text", "blktrace",
  "bootchart",
};

const char *
iochart_format_name (IochartFormat format)
{
  return format < G_N_ELEMENTS (format_names) ? format_names[format] : "unknown";
}

/* ---- reading a file whole, decompressing it when it is gzip, xz or zstd ---- */

typedef struct {
  GMappedFile *mapped;
  GByteArray  *inflated;
  IochartText  text;
  char        *damage;      /* what a cut or damaged compressed file lost, for a warning */
} TextFile;

/* Text inflates at most this many times its compressed size (trace text compresses 10-25 times),
 * and never past MAX_INFLATED: more is a bomb, or a capture to decompress first. */
#define MAX_RATIO     100
#define MIN_ALLOWED   (G_GUINT64_CONSTANT (64) << 20)
#define MAX_INFLATED  (G_GUINT64_CONSTANT (3) << 30)
#define SNIFF_TEXT    (64 * 1024)

static void
text_file_clear (TextFile *tf)
{
  g_clear_pointer (&tf->mapped, g_mapped_file_unref);
  g_clear_pointer (&tf->inflated, g_byte_array_unref);
  g_clear_pointer (&tf->damage, g_free);
}

static gboolean
is_compressed (const guint8 *h, gsize n)
{
  return (n >= 2 && h[0] == 0x1f && h[1] == 0x8b) ||
         (n >= 6 && memcmp (h, "\xfd" "7zXZ\0", 6) == 0) ||
         (n >= 4 && memcmp (h, "\x28\xb5\x2f\xfd", 4) == 0);
}

static guint64
inflate_limit (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0 || st.st_size <= 0)
    return MIN_ALLOWED;
  return CLAMP ((guint64) st.st_size * MAX_RATIO, MIN_ALLOWED, MAX_INFLATED);
}

static gboolean
too_big (const char *path, guint64 limit, GError **error)
{
  g_autofree char *size = g_format_size_full (limit, G_FORMAT_SIZE_IEC_UNITS);

  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
               "'%s': inflates past %s (%u times its compressed size, or 3 GiB): not text iochart "
               "reads whole; if it is a capture, decompress it first", path, size, MAX_RATIO);
  return FALSE;
}

/* A gzip file up to its damage: libarchive drops the last block it was filling when its input
 * ends early, GIO's zlib converter gives every byte that came out. */
static void
inflate_gzip_prefix (const char *path, guint64 limit, GByteArray *buf)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr(GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) in = NULL;
  guint8 chunk[65536];
  gssize n;

  if (raw == NULL)
    return;
  in = g_converter_input_stream_new (raw, G_CONVERTER (z));
  g_byte_array_set_size (buf, 0);
  while (buf->len < limit && (n = g_input_stream_read (in, chunk, sizeof chunk, NULL, NULL)) > 0)
    g_byte_array_append (buf, chunk, MIN ((guint64) n, limit - buf->len));
}

/* Inflates path into *out, all of it, or its first `want` bytes when want > 0 (sniffing). A
 * damaged or cut file gives what came before the damage, and *damage says so. */
static gboolean
inflate_file (const char *path, gsize want, GByteArray **out, char **damage, GError **error)
{
  struct archive *a = archive_read_new ();
  struct archive_entry *entry;
  g_autoptr(GByteArray) buf = g_byte_array_new ();
  guint64 limit = inflate_limit (path);
  gboolean ok = FALSE;
  la_ssize_t n = 0;
  guint8 chunk[65536];

  archive_read_support_filter_all (a);
  archive_read_support_format_raw (a);
  /* a file cut inside its first block fails here already */
  if (archive_read_open_filename (a, path, 1 << 16) != ARCHIVE_OK ||
      archive_read_next_header (a, &entry) != ARCHIVE_OK)
    n = -1;
  else
    while ((want == 0 || buf->len < want) && (n = archive_read_data (a, chunk, sizeof chunk)) > 0)
      {
        if (buf->len + (guint64) n > limit)
          {
            ok = too_big (path, limit, error);
            goto out;
          }
        g_byte_array_append (buf, chunk, n);
      }
  if (n < 0)
    {
      guint before = buf->len;

      inflate_gzip_prefix (path, want ? want : limit, buf);
      if (buf->len < before)
        g_byte_array_set_size (buf, before);   /* not gzip: what libarchive gave */
      if (buf->len == 0)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                       "'%s': cut or damaged compressed data, nothing readable before the damage", path);
          goto out;
        }
      /* Keep what came out before the damage: a cut text capture still loads. */
      if (damage != NULL)
        *damage = g_strdup_printf ("'%s': compressed data cut or damaged after %u bytes of text: "
                                   "the rest is lost", path, buf->len);
    }
  ok = TRUE;
  *out = g_steal_pointer (&buf);
out:
  archive_read_free (a);
  return ok;
}

static gboolean
read_head (const char *path, guint8 *head, gsize *len, GError **error)
{
  FILE *f = g_fopen (path, "rb");

  if (f == NULL)
    {
      int saved = errno;
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, g_strerror (saved));
      return FALSE;
    }
  *len = fread (head, 1, SNIFF_BYTES, f);
  fclose (f);
  return TRUE;
}

static gboolean
text_file_open (TextFile *tf, const char *path, gsize want, GError **error)
{
  guint8 head[SNIFF_BYTES];
  gsize n = 0;

  if (!read_head (path, head, &n, error))
    return FALSE;
  tf->text.path = path;
  if (is_compressed (head, n))
    {
      if (!inflate_file (path, want, &tf->inflated, &tf->damage, error))
        return FALSE;
      tf->text.data = (const char *) tf->inflated->data;
      tf->text.len = tf->inflated->len;
      return TRUE;
    }
  tf->mapped = g_mapped_file_new (path, FALSE, error);
  if (tf->mapped == NULL)
    return FALSE;
  tf->text.data = g_mapped_file_get_contents (tf->mapped);
  tf->text.len = g_mapped_file_get_length (tf->mapped);
  if (tf->text.len > 0)
    _iochart_map_for_reading (tf->text.data, tf->text.len);
  if (tf->text.data == NULL)
    tf->text.data = "";
  return TRUE;
}

/* ---- detection ---- */

static IochartFormat
detect_text (const IochartText *text)
{
  if (_iochart_blk_text_sniff (text))
    return IOCHART_FORMAT_BLK_TEXT;
  if (_iochart_blkparse_text_sniff (text))
    return IOCHART_FORMAT_BLKPARSE_TEXT;
  if (_iochart_ftrace_text_sniff (text))
    return IOCHART_FORMAT_FTRACE_TEXT;
  return IOCHART_FORMAT_UNKNOWN;
}

static gboolean
looks_binary (const guint8 *h, gsize n)
{
  for (gsize i = 0; i < n; i++)
    if (h[i] == 0)
      return TRUE;
  return FALSE;
}

IochartFormat
iochart_detect_format (const char *path, GError **error)
{
  guint8 head[SNIFF_BYTES];
  gsize n = 0;
  g_auto(GStrv) cpu_files = NULL;
  IochartFormat format = IOCHART_FORMAT_UNKNOWN;

  if (iochart_bootchart_sniff_path (path))
    return IOCHART_FORMAT_BOOTCHART;
  if ((cpu_files = _iochart_blktrace_expand (path)) != NULL)
    return IOCHART_FORMAT_BLKTRACE;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_UNKNOWN_FORMAT,
                   "'%s': folder holds neither blktrace files nor a bootchart capture", path);
      return IOCHART_FORMAT_UNKNOWN;
    }
  if (!read_head (path, head, &n, error))
    return IOCHART_FORMAT_UNKNOWN;
  if (n == 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': empty file", path);
      return IOCHART_FORMAT_UNKNOWN;
    }
  if (_iochart_dat_sniff (head, n))
    return IOCHART_FORMAT_DAT;
  if (_iochart_blktrace_sniff (head, n))
    return IOCHART_FORMAT_BLKTRACE;
  if (is_compressed (head, n) || !looks_binary (head, n))
    {
      TextFile tf = { 0 };

      if (text_file_open (&tf, path, SNIFF_TEXT, error))
        {
          IochartText sniff = tf.text;

          sniff.len = MIN (sniff.len, SNIFF_TEXT);
          format = detect_text (&sniff);
        }
      text_file_clear (&tf);
      if (format != IOCHART_FORMAT_UNKNOWN || (error && *error))
        return format;
    }
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_UNKNOWN_FORMAT,
               "'%s': not a capture iochart knows (trace-cmd .dat, ftrace text, blktrace, blkparse "
               "text, blk tracer text, bootchart)", path);
  return IOCHART_FORMAT_UNKNOWN;
}

/* ---- loading ---- */

static gboolean
read_text (IochartBuilder *b, const char *path, IochartFormat format, GError **error)
{
  TextFile tf = { 0 };
  gboolean ok = FALSE;

  if (!text_file_open (&tf, path, 0, error))
    return FALSE;
  if (tf.damage != NULL)
    _iochart_builder_warn (b, "%s", tf.damage);
  switch (format)
    {
    case IOCHART_FORMAT_FTRACE_TEXT: ok = _iochart_ftrace_text_read (b, &tf.text, error); break;
    case IOCHART_FORMAT_BLK_TEXT: ok = _iochart_blk_text_read (b, &tf.text, error); break;
    case IOCHART_FORMAT_BLKPARSE_TEXT: ok = _iochart_blkparse_text_read (b, &tf.text, error); break;
    default: g_assert_not_reached ();
    }
  text_file_clear (&tf);
  return ok;
}

static gboolean
read_one (IochartBuilder *b, const char *path, IochartFormat format, GError **error)
{
  g_auto(GStrv) cpu_files = NULL;

  switch (format)
    {
    case IOCHART_FORMAT_DAT:
      return _iochart_dat_read (b, path, error);   /* it checks the layout first itself */
    case IOCHART_FORMAT_BLKTRACE:
      cpu_files = _iochart_blktrace_expand (path);
      if (cpu_files == NULL)
        cpu_files = g_strdupv ((char *[]) { (char *) path, NULL });
      return _iochart_blktrace_read (b, (const char * const *) cpu_files, error);
    case IOCHART_FORMAT_BOOTCHART:
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_UNKNOWN_FORMAT,
                   "'%s': a bootchart capture holds no block requests; give a trace of the same "
                   "boot with it", path);
      return FALSE;
    default:
      return read_text (b, path, format, error);
    }
}

/* "-" and pipes (`<(...)`): the readers map or re-open their file, so a stream is first copied
 * into a temporary file; messages still name what the user gave. */
static gboolean
is_stream (const char *path)
{
  GStatBuf st;

  return strcmp (path, "-") == 0 || (g_stat (path, &st) == 0 && (S_ISFIFO (st.st_mode) || S_ISSOCK (st.st_mode) ||
                                                                 S_ISCHR (st.st_mode)));
}

static char *
spool (const char *path, GError **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *tmp = NULL;
  int in = strcmp (path, "-") == 0 ? STDIN_FILENO : g_open (path, O_RDONLY, 0);
  int out = g_file_open_tmp ("iochart-stream-XXXXXX", &tmp, &local);
  gboolean ok = in >= 0 && out >= 0;
  char buf[65536];
  gssize n = 0;
  int saved = in < 0 ? errno : 0;

  while (ok && (n = read (in, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      ok = n > 0 && write (out, buf, n) == n;
      saved = ok ? 0 : errno;
    }
  if (in > STDIN_FILENO)
    close (in);
  if (out >= 0)
    close (out);
  if (!ok)
    {
      if (tmp != NULL)
        g_unlink (tmp);
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot read: %s", path,
                   local != NULL ? local->message : g_strerror (saved ? saved : EIO));
      return NULL;
    }
  return g_steal_pointer (&tmp);
}

static void
rename_in (char **text, const char *from, const char *to)
{
  g_auto(GStrv) parts = NULL;

  if (*text == NULL || strstr (*text, from) == NULL)
    return;
  parts = g_strsplit (*text, from, -1);
  g_free (*text);
  *text = g_strjoinv (to, parts);
}

static IochartCapture *load_file (const char *path, const char *name, const IochartLoadOptions *options,
                                  GError **error);

static IochartCapture *
load_one (const char *path, const IochartLoadOptions *options, GError **error)
{
  g_autofree char *tmp = NULL;
  const char *name = strcmp (path, "-") == 0 ? "stdin" : path;
  IochartCapture *c;
  GError *local = NULL;

  if (!is_stream (path))
    return load_file (path, path, options, error);
  if ((tmp = spool (path, error)) == NULL)
    return NULL;
  c = load_file (tmp, name, options, &local);
  g_unlink (tmp);
  if (local != NULL)
    {
      rename_in (&local->message, tmp, name);
      g_propagate_error (error, local);
    }
  for (guint i = 0; c != NULL && i < c->warnings->len; i++)
    rename_in ((char **) &c->warnings->pdata[i], tmp, name);
  return c;
}

static IochartCapture *
load_file (const char *path, const char *name, const IochartLoadOptions *options, GError **error)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new (name);
  IochartFormat format = iochart_detect_format (path, error);

  if (format == IOCHART_FORMAT_UNKNOWN)
    return NULL;
  if (format == IOCHART_FORMAT_BOOTCHART && strcmp (path, name) != 0)
    {
      /* spooled from a pipe: the bootchart reader wants the bundle itself */
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': a bootchart capture is read from its file or folder, not from a pipe", name);
      return NULL;
    }
  if (options != NULL)
    {
      _iochart_builder_set_progress (b, options->progress, options->progress_data);
      for (guint i = 0; i < options->n_rules; i++)
        _iochart_builder_add_rule (b, &options->rules[i]);
    }
  if (!read_one (b, path, format, error))
    return NULL;
  return _iochart_builder_finish (b);
}

IochartCapture *
iochart_load (const char * const *paths, const IochartLoadOptions *options, GError **error)
{
  g_autoptr(IochartCapture) primary = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  primary = load_one (paths[0], options, error);
  if (primary == NULL)
    return NULL;
  /* Further captures describe the same run: they lend what the first one lacks. */
  for (guint i = 1; paths[i] != NULL; i++)
    {
      g_autoptr(IochartCapture) side = load_one (paths[i], options, error);

      if (side == NULL)
        return NULL;
      iochart_side_capture_apply (primary, side);
    }
  _iochart_capture_warn_ambiguous (primary);
  return g_steal_pointer (&primary);
}
