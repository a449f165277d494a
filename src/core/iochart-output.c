/* iochart-output.c: output files written whole or not at all */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include "iochart-output.h"
#include "iochart-error.h"

/* The file a path names, through any chain of symlinks (the path itself when it is none). */
static char *
resolve (const char *path)
{
  g_autofree char *p = g_strdup (path);

  for (guint hops = 0; hops < 40 && g_file_test (p, G_FILE_TEST_IS_SYMLINK); hops++)
    {
      g_autofree char *target = g_file_read_link (p, NULL);
      g_autofree char *dir = NULL;

      if (target == NULL)
        break;
      dir = g_path_get_dirname (p);
      g_free (p);
      p = g_path_is_absolute (target) ? g_steal_pointer (&target) : g_build_filename (dir, target, NULL);
    }
  return g_steal_pointer (&p);
}

static mode_t
new_file_mode (void)
{
  mode_t mask = umask (0);

  umask (mask);
  return 0666 & ~mask;
}

/* An error about the temporary file, said of path. */
static void
rename_in_error (GError *error, const char *tmp, const char *path)
{
  g_auto(GStrv) parts = NULL;

  if (error == NULL || strstr (error->message, tmp) == NULL)
    return;
  parts = g_strsplit (error->message, tmp, -1);
  g_free (error->message);
  error->message = g_strjoinv (path, parts);
}

/* A device or a pipe (/dev/stdout, >(gzip >x.gz)) is written in place, as `>` would: a
 * temporary file renamed over it would replace the device node itself. */
static gboolean
is_special (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 && !S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode);
}

gboolean
iochart_output_replace (const char *path, IochartOutputFunc write, gpointer data, GError **error)
{
  g_autofree char *target = resolve (path);
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *tmp = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  GStatBuf st;
  gboolean existed = g_stat (target, &st) == 0;
  GError *local = NULL;
  int fd, saved;

  if (is_special (path))
    return write (path, data, error);
  if ((fd = g_mkstemp_full (tmp, O_RDWR | O_CLOEXEC, 0600)) < 0)
    {
      saved = errno;
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (saved));
      return FALSE;
    }
  if (fchmod (fd, existed ? st.st_mode & 07777 : new_file_mode ()) != 0 || close (fd) != 0)
    {
      saved = errno;
      g_unlink (tmp);
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (saved));
      return FALSE;
    }
  if (!write (tmp, data, &local))
    {
      g_unlink (tmp);
      rename_in_error (local, tmp, path);
      g_propagate_error (error, local);
      return FALSE;
    }
  if (g_rename (tmp, target) != 0)
    {
      saved = errno;
      g_unlink (tmp);
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  const void *bytes;
  gsize       len;
} Bytes;

static gboolean
write_bytes (const char *path, gpointer data, GError **error)
{
  Bytes *b = data;
  FILE *f = g_fopen (path, "wb");
  gboolean ok;
  int saved = 0;

  if (f == NULL)
    ok = FALSE, saved = errno;
  else
    {
      /* No fsync before the rename, deliberately: a chart or a report is made again from its
       * capture, so it is not worth waiting for the disk: the fsync took 0.6-1.8 ms (strace -T,
       * ext4 on this VM) of a boot chart SVG's 10-20 ms. The rename still keeps it
       * atomic for readers: they see the old file or the new one whole, never a part. What a
       * crash of the machine within seconds may leave is an empty or older file, which the
       * next run replaces. */
      ok = fwrite (b->bytes, 1, b->len, f) == b->len && fflush (f) == 0;
      saved = errno;
      ok = (fclose (f) == 0) && ok;
      if (!ok && saved == 0)
        saved = errno;
    }
  if (!ok)
    g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path,
                 g_strerror (saved ? saved : EIO));
  return ok;
}

gboolean
iochart_output_replace_bytes (const char *path, const void *bytes, gsize len, GError **error)
{
  Bytes b = { bytes, len };

  return iochart_output_replace (path, write_bytes, &b, error);
}

gboolean
iochart_output_check (const char *path, const char * const *inputs, GError **error)
{
  g_autofree char *target = resolve (path);
  g_autofree char *dir = g_path_get_dirname (target);
  GStatBuf out, in;

  if (is_special (path))
    {
      if (g_access (path, W_OK) != 0)
        {
          int saved = errno;

          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (saved));
          return FALSE;
        }
      return TRUE;
    }
  if (g_stat (target, &out) == 0)
    {
      if (S_ISDIR (out.st_mode))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': cannot write: a folder", path);
          return FALSE;
        }
      for (guint i = 0; inputs != NULL && inputs[i] != NULL; i++)
        if (g_stat (inputs[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
          {
            g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                         "'%s': refusing to write over the capture '%s'", path, inputs[i]);
            return FALSE;
          }
    }
  if (g_access (dir, W_OK | X_OK) != 0)
    {
      int saved = errno;

      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path,
                   saved == ENOENT ? "no such folder" : g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}
