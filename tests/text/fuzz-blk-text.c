/* libFuzzer target: _iochart_blk_text_read() on any bytes must neither crash nor leak. */
#include "readers/iochart-readers-private.h"
#include "../fuzz-analyse.h"

int
LLVMFuzzerTestOneInput (const guint8 *data, gsize size)
{
  IochartBuilder *b = _iochart_builder_new ("fuzz");
  IochartText text = { "fuzz", (const char *) data, size };
  GError *error = NULL;

  (void) _iochart_blk_text_sniff (&text);
  if (_iochart_blk_text_read (b, &text, &error))
    fuzz_finish (_iochart_builder_finish (b), size);
  g_clear_error (&error);
  _iochart_builder_free (b);
  return 0;
}
