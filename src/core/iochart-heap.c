/* iochart-heap.c: the malloc settings of the command line and the app (why: iochart-heap.h) */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "iochart-heap.h"

#define HEAP_STEP      ((size_t) 64 << 20)   /* holds a boot chart's or a 150k-record capture's work */
#define MMAP_THRESHOLD ((size_t) 32 << 20)   /* larger buffers are rare, long-lived and worth a mapping */
#define HUGE_PAGE      ((uintptr_t) 2 << 20)
#define CHUNK_HEADER   16                    /* glibc's: a chunk starts 16 bytes before its memory */

/* the heap below its first huge page, kept out of use (address space only, never touched);
 * volatile: the compiler must not drop an allocation nobody reads */
static void *volatile below_first_huge_page;

gboolean
iochart_heap_init (void)
{
  /* glibc's mallopt returns 1; a sanitizer's interceptor returns 0 or -1 */
  if (mallopt (M_MMAP_THRESHOLD, (int) MMAP_THRESHOLD) != 1)
    return FALSE;
  /* each thread's own arena is a 64 MiB mapping of its own, faulted a page at a time again */
  mallopt (M_ARENA_MAX, 1);
  mallopt (M_TOP_PAD, (int) HEAP_STEP);
  /* giving the step back at every large free would fault it in again at the next */
  mallopt (M_TRIM_THRESHOLD, (int) (2 * HEAP_STEP));

  /* The heap's free top runs from TOP to the break. A block from TOP to the first huge page past
   * the break grows the heap by the step now, as address space, and puts the heap's next memory
   * on that page. Nothing from there on is touched before it is marked: a 2 MiB range with one
   * page touched stays in small pages for good. */
  uintptr_t brk_end = (uintptr_t) sbrk (0);
  uintptr_t top = brk_end - mallinfo2 ().keepcost;
  uintptr_t from = (brk_end + HUGE_PAGE) & ~(HUGE_PAGE - 1);
  below_first_huge_page = malloc (from - CHUNK_HEADER - top - sizeof (size_t));
  if (below_first_huge_page == NULL)
    return FALSE;
  uintptr_t to = (uintptr_t) sbrk (0) & ~(HUGE_PAGE - 1);
  /* without transparent huge pages the large steps alone still help */
  if (to > from)
    madvise ((void *) from, to - from, MADV_HUGEPAGE);
  return TRUE;
}

void
iochart_heap_trim (void)
{
  malloc_trim (0);
}

static gint trim_pending;

static gboolean
trim_now (gpointer data)
{
  g_atomic_int_set (&trim_pending, 0);
  iochart_heap_trim ();
  return G_SOURCE_REMOVE;
}

gboolean
iochart_heap_trim_later (guint delay_ms)
{
  if (!g_atomic_int_compare_and_exchange (&trim_pending, 0, 1))
    return FALSE;
  g_timeout_add (delay_ms, trim_now, NULL);
  return TRUE;
}
