/* iochart-lazy.c: shared libraries loaded on first use (iochart-lazy-private.h) */
#include <dlfcn.h>
#include "iochart-lazy-private.h"

static gpointer
open_library (gpointer user_data)
{
  IochartLazyLib *lib = user_data;
  void *handle = dlopen (lib->soname, RTLD_NOW | RTLD_LOCAL);

  if (handle == NULL)
    g_error ("cannot load %s: %s", lib->soname, dlerror ());
  if (lib->with != NULL)
    g_once (&lib->with->once, open_library, lib->with);
  return handle;
}

gpointer
_iochart_lazy_lookup (IochartLazyLib *lib, const char *name)
{
  void *handle = g_once (&lib->once, open_library, lib);
  void *fn = dlsym (handle, name);

  if (fn == NULL)
    g_error ("%s: no %s: %s", lib->soname, name, dlerror ());
  return fn;
}
