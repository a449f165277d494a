/* iochart-lazy-private.h: shared libraries loaded on first use
 *
 * A library that only some runs need is not linked: resolving its symbols, and those of all it
 * pulls in, was most of every run's start-up. The code is compiled against its headers, and one
 * file per library (iochart-archive.c: libarchive; iochart-lazy-cairo.c: cairo) defines each of
 * its functions the program calls, with the same name and prototype, forwarding to the real one,
 * which is looked up the first time any of them is called. A function the program starts calling
 * gets its line in that file's list (the link fails until it has one).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IochartLazyLib IochartLazyLib;

struct _IochartLazyLib
{
  const char *soname;
  GOnce once;
  IochartLazyLib *with;   /* loaded in the same call, before this one returns; or NULL */
};

#define IOCHART_LAZY_LIB_INIT(soname) { (soname), G_ONCE_INIT, NULL }
/* lib, and with it a library the same work needs next (cairo's drawing, then libdeflate's
 * checksums of the PNG): both are loaded on the thread that first asks for lib, which is the
 * side thread that loads cairo while the capture is read, not the thread that waits for them */
#define IOCHART_LAZY_LIB_INIT_WITH(soname, with) { (soname), G_ONCE_INIT, (with) }

/* name's address in lib, lib loaded on the first call; a missing library or function is a
 * missing runtime dependency, not bad input: g_error. */
gpointer _iochart_lazy_lookup (IochartLazyLib *lib,
                               const char     *name);

/* ret name params: forwards args to lib's own name. */
#define IOCHART_LAZY_FORWARD(lib, ret, name, params, args)                \
  ret name params                                                        \
  {                                                                      \
    static __typeof__ (name) *fn;                                        \
    __typeof__ (name) *f = g_atomic_pointer_get (&fn);                   \
                                                                         \
    if (G_UNLIKELY (f == NULL))                                          \
      {                                                                  \
        f = (__typeof__ (name) *) _iochart_lazy_lookup (&(lib), #name);  \
        g_atomic_pointer_set (&fn, f);                                   \
      }                                                                  \
    return f args;                                                       \
  }

G_END_DECLS
