/* fuzz-blktrace.c: libFuzzer target for the binary blktrace reader
 *
 * The input is split into two CPU files at a point its first byte chooses, so that the merge,
 * the byte-order decision per file and damage in one file while the other is fine all get fuzzed.
 * An input of odd length is read with the merge in a thread of its own, as a large capture is.
 * Seeds: samples/blktrace/ (see tests/blktrace/fuzz-blktrace.seeds).
 */
#include <unistd.h>
#include <glib/gstdio.h>
#include "iochart-capture-private.h"
#include "readers/iochart-readers-private.h"
#include "../fuzz-analyse.h"

static char *dir;

static void
write_part (const char *name, const guint8 *data, gsize len)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_file_set_contents (path, (const char *) data, len, NULL);
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("fuzz");
  g_autoptr(GError) error = NULL;
  g_autofree char *p0 = NULL, *p1 = NULL;
  gsize split;

  if (dir == NULL)
    dir = g_dir_make_tmp ("fuzz-blktrace-XXXXXX", NULL);
  if (size == 0)
    return 0;
  split = size > 1 ? (gsize) data[0] * (size - 1) / 255 : 0;
  write_part ("fz.blktrace.0", data + 1, split);
  write_part ("fz.blktrace.1", data + 1 + split, size - 1 - split);
  _iochart_blktrace_thread_min_bytes = size % 2 ? 0 : G_MAXSIZE;
  /* the unmap thread outlives the input: libFuzzer took what it freed later for a leak of 2 KiB */
  _iochart_blktrace_unmap_in_thread = FALSE;
  p0 = g_build_filename (dir, "fz.blktrace.0", NULL);
  p1 = g_build_filename (dir, "fz.blktrace.1", NULL);
  {
    const char *files[] = { p0, p1, NULL };

    if (_iochart_blktrace_read (b, files, &error))
      fuzz_finish (_iochart_builder_finish (b), size);
  }
  return 0;
}
