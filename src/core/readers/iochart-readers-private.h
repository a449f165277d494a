/* iochart-readers-private.h: one entry point per format, called by the loader
 *
 * Every reader feeds an IochartBuilder in time order and fails the same way: an IOCHART_ERROR
 * whose message names the file and the offset or line, lowercase, the subject quoted:
 *   "'x.blktrace.1': bad magic at offset 4096"
 * A text or blktrace capture with damaged parts loads what it can, warns through
 * _iochart_builder_warn() (how many lines were skipped, what was lost) and fails only when
 * nothing at all could be read (IOCHART_ERROR_EMPTY).
 */
#pragma once

#include "../iochart-capture-private.h"

G_BEGIN_DECLS

/* Text captures arrive whole in memory, already decompressed by the loader. */
typedef struct {
  const char *path;          /* for messages */
  const char *data;
  gsize       len;
} IochartText;

/* trace-cmd .dat, all buffers (top level and instances) merged in time order. */
gboolean _iochart_dat_sniff         (const guint8 *head, gsize len);
gboolean _iochart_dat_check         (const char *path, GError **error);
gboolean _iochart_dat_read          (IochartBuilder *b, const char *path, GError **error);
/* The same through libtracecmd's open and iteration, as files the direct read leaves are read:
 * tests compare the two. */
gboolean _iochart_dat_read_libtracecmd (IochartBuilder *b, const char *path, GError **error);
/* The same decoding for records of the running kernel (live recording), fed in time order;
 * flush adds the records it did not read to the builder's event count. */
struct tep_handle;
struct tep_record;
typedef struct _IochartDatDecoder IochartDatDecoder;
IochartDatDecoder *_iochart_dat_decoder_new    (IochartBuilder *b, const char *name, struct tep_handle *tep);
void     _iochart_dat_decoder_record (IochartDatDecoder *self, struct tep_record *rec);
void     _iochart_dat_decoder_flush  (IochartDatDecoder *self);
guint64  _iochart_dat_decoder_get_damaged (IochartDatDecoder *self);
void     _iochart_dat_decoder_free   (IochartDatDecoder *self);

/* The tracefs `trace` file and `trace-cmd report` text, block/sched/syscall events. */
gboolean _iochart_ftrace_text_sniff (const IochartText *text);
gboolean _iochart_ftrace_text_read  (IochartBuilder *b, const IochartText *text, GError **error);

/* The ftrace `blk` tracer text. */
gboolean _iochart_blk_text_sniff    (const IochartText *text);
gboolean _iochart_blk_text_read     (IochartBuilder *b, const IochartText *text, GError **error);

/* blkparse default output. */
gboolean _iochart_blkparse_text_sniff (const IochartText *text);
gboolean _iochart_blkparse_text_read  (IochartBuilder *b, const IochartText *text, GError **error);

/* Binary blktrace: the per-CPU files of one device, merged by time. */
gboolean _iochart_blktrace_sniff    (const guint8 *head, gsize len);
gboolean _iochart_blktrace_read     (IochartBuilder *b, const char * const *cpu_files, GError **error);
/* From this many bytes of CPU files on, decoding and merging run in a thread of their own
 * (tests lower it to see both ways give the same capture). */
extern gsize _iochart_blktrace_thread_min_bytes;
/* FALSE: the files are unmapped before the read returns, never by a thread of their own (the
 * fuzzer counts what a detached thread frees after an input as that input's leak). */
extern gboolean _iochart_blktrace_unmap_in_thread;

G_END_DECLS

G_BEGIN_DECLS

/* The CPU files that belong with a blktrace path: one NAME.blktrace.N file (its siblings are
 * found), a folder holding them, or the NAME basename itself. NULL when path is none of these. */
GStrv    _iochart_blktrace_expand   (const char *path);

G_END_DECLS
