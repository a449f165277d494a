/* iochart-output.h: output files written whole or not at all */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes a file at the path it is given (a temporary one). */
typedef gboolean (*IochartOutputFunc) (const char *path, gpointer data, GError **error);

/* Writes path through a temporary file beside it, renamed over it once complete: a full disk
 * leaves the old file whole, and a reader sees the old file or the new one, never a part. Not
 * synced to disk first (a chart is made again from its capture): a crash of the machine right
 * after may leave an empty or older file. A symlinked path replaces its target; an existing file keeps its
 * mode. A device or a pipe (/dev/stdout) is written in place. Errors name path, not the
 * temporary file. */
gboolean iochart_output_replace       (const char         *path,
                                       IochartOutputFunc   write,
                                       gpointer            data,
                                       GError            **error);
gboolean iochart_output_replace_bytes (const char         *path,
                                       const void         *bytes,
                                       gsize               len,
                                       GError            **error);

/* Before any work: path can be written (its folder exists and is writable, it is not a folder)
 * and it is none of the inputs (compared as files, through symlinks). */
gboolean iochart_output_check         (const char         *path,
                                       const char * const *inputs,
                                       GError            **error);

G_END_DECLS
