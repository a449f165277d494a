/* fuzz-dat.c: libFuzzer target for the trace-cmd .dat reader (our layout check, then the direct
 * read of a v7 file's pages through kbuffer, or libtracecmd for the rest)
 *
 * libtracecmd reads a path, so each input goes into a memfd opened by its /proc/self/fd path.
 * Seeds: tests/dat/fuzz-corpus/dat/, small v6 files cut by make-fuzz-seeds.py. Allocations that
 * libtracecmd leaves after a fault it was stopped in are not ours: suppressed as in lsan.supp
 * (fuzz-analyse.h).
 */
#include <sys/mman.h>
#include <unistd.h>
#include "iochart-capture-private.h"
#include "readers/iochart-readers-private.h"
#include "../fuzz-analyse.h"

static int fd = -1;
static char path[64];

/* libtracecmd allocates whatever size a damaged file names and handles a failed allocation; a
 * release build's malloc fails such a size without taking memory, so the fuzzer's must too
 * (instead of stopping on it as a finding of ours). */
const char *__asan_default_options (void);

const char *
__asan_default_options (void)
{
  return "allocator_may_return_null=1";
}

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(IochartBuilder) b = _iochart_builder_new ("fuzz");
  g_autoptr(GError) error = NULL;
  const guint8 *p = data;
  size_t left = size;

  if (fd < 0)
    {
      fd = memfd_create ("fuzz.dat", 0);
      g_assert (fd >= 0);
      g_snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
    }
  g_assert (ftruncate (fd, 0) == 0 && lseek (fd, 0, SEEK_SET) == 0);
  while (left > 0)
    {
      ssize_t n = write (fd, p, left);

      g_assert (n > 0);
      p += n;
      left -= n;
    }
  if (!_iochart_dat_sniff (data, size))
    return 0;
  if (_iochart_dat_check (path, &error) && _iochart_dat_read (b, path, &error))
    fuzz_finish (_iochart_builder_finish (b), size);
  return 0;
}
