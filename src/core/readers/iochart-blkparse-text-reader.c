/* PLACEHOLDER until this reader lands: replaced by its owner. */
#include "iochart-readers-private.h"
gboolean _iochart_blkparse_text_sniff (const IochartText *text) { return FALSE; }
gboolean _iochart_blkparse_text_read (IochartBuilder *b, const IochartText *text, GError **error)
{ g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_UNKNOWN_FORMAT, "'%s': reader not built yet", text->path); return FALSE; }
