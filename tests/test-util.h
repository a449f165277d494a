/* test-util.h: scratch folders for tests that write captures of their own */
#pragma once

#include <glib.h>
#include <glib/gstdio.h>

static inline G_GNUC_UNUSED char *
test_make_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("iochart-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static inline G_GNUC_UNUSED void
test_put (const char *dir, const char *name, const char *data, gssize len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, data, len, &error);
  g_assert_no_error (error);
}

/* Removes the files of a scratch folder, then the folder. */
static inline G_GNUC_UNUSED void
test_remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_remove (path);
    }
  g_rmdir (dir);
}
