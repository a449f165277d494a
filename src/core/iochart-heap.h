/* iochart-heap.h: the malloc settings of the command line and the desktop app */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Call first in main(), before any thread starts. A page fault costs 10-25 us on the virtual
 * machines CI runs on, more than the work of a small chart: the heap grows in large steps on huge
 * pages, and buffers and threads stay on it rather than on fresh mappings faulted a page at a
 * time (the app's load worker builds a capture's indexes in a thread: an arena of its own would
 * fault every page of them). FALSE when malloc is not glibc's (a sanitizer's), which leaves
 * everything as it was. */
gboolean iochart_heap_init (void);
/* Gives the heap's free pages back to the system, those between live blocks too. malloc gives
 * back only the heap's free top, and one small block still live above a freed capture keeps all
 * of it: the app calls this after a tab's capture is gone (a tab of 1M requests closed: 292 MiB
 * resident without it, 116 with it, 110 before the tab opened). */
void     iochart_heap_trim (void);
/* iochart_heap_trim() on the main context delay_ms from now, from any thread: a capture's last
 * reference may go in a worker, and its finalizer frees the requests after the weak refs are told.
 * A call while a trim is pending joins it (FALSE); TRUE when this call scheduled one. */
gboolean iochart_heap_trim_later (guint delay_ms);

G_END_DECLS
