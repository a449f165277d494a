/* fuzz-bootchart.c: every bootchart parser, the tree and the boot chart, through the loader's own path
 *
 * The input is a capture in one piece: members separated by lines "==> NAME <==" (what
 * `head -n -0 FILE...` prints), e.g. "==> proc_ps.log <==\n100\n1 (init) S 0 ...\n\n".
 * Seeds: tests/bootchart/seeds/.
 */
#include <string.h>

#include "bootchart/iochart-bootchart-private.h"
#include "bootchart/iochart-bootchart-chart.h"
#include "../fuzz-analyse.h"

static void
add (IochartBootchart *bc, const char *name, gsize name_len, const guint8 *data, gsize len)
{
  g_autofree char *member = g_strndup (name, name_len);
  g_autoptr(GBytes) bytes = g_bytes_new (data, len);
  g_autoptr(GError) error = NULL;
  _iochart_bootchart_add_member (bc, member, bytes, &error);
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(IochartBootchart) bc = _iochart_bootchart_new ("fuzz");
  g_autoptr(GError) error = NULL;
  const guint8 *end = data + size, *p = data;
  const char *name = "proc_ps.log";
  gsize name_len = strlen (name);

  while (p < end)
    {
      const guint8 *mark = memmem (p, end - p, "==> ", 4);
      const guint8 *close = mark ? memmem (mark + 4, end - mark - 4, " <==\n", 5) : NULL;
      const guint8 *stop = close ? mark : end;
      if (stop > p || close == NULL)
        add (bc, name, name_len, p, stop - p);
      if (close == NULL)
        break;
      name = (const char *) mark + 4;
      name_len = close - mark - 4;
      p = close + 5;
    }
  if (_iochart_bootchart_finish (bc, &error))
    {
      iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_AS_PARSED);
      iochart_bootchart_set_tree_flags (bc, IOCHART_BOOTCHART_TREE_DEFAULT);
      g_autoptr(JsonBuilder) b = json_builder_new ();
      g_autoptr(IochartDisplayList) dl = NULL;
      iochart_bootchart_to_json (bc, b);
      /* and the boot chart, as `iochart --svg` draws it: one input in 16, as fuzz-analyse.h */
      if (size % 16 == 0)
        dl = iochart_bootchart_chart_draw (bc, NULL, NULL, NULL);
      FILE *null = fopen ("/dev/null", "w");
      if (null != NULL)
        {
          iochart_bootchart_print_info (bc, null);
          fclose (null);
        }
    }
  return 0;
}
