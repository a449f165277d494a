/* iochart-loader.h: open any capture, whatever its format, as one IochartCapture */
#pragma once

#include "iochart-capture.h"
#include "iochart-error.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_FORMAT_UNKNOWN,
  IOCHART_FORMAT_DAT,            /* trace-cmd .dat */
  IOCHART_FORMAT_FTRACE_TEXT,    /* the tracefs `trace` file, or `trace-cmd report` output */
  IOCHART_FORMAT_BLK_TEXT,       /* ftrace `blk` tracer text */
  IOCHART_FORMAT_BLKPARSE_TEXT,  /* blkparse default output */
  IOCHART_FORMAT_BLKTRACE,       /* binary per-CPU blktrace files */
  IOCHART_FORMAT_BOOTCHART,      /* bootchart folder or tgz */
} IochartFormat;

const char *iochart_format_name (IochartFormat format);

typedef void (*IochartLoadProgress) (double fraction, gpointer user_data);



typedef struct {
  const IochartClassRule *rules;
  guint                   n_rules;
  IochartLoadProgress     progress;
  gpointer                progress_data;
} IochartLoadOptions;

/* Detects the format of one path from its content, not its name. */
IochartFormat   iochart_detect_format    (const char          *path,
                                          GError             **error);

/* Loads one or more paths as one capture: blktrace CPU files of one device, or a capture
 * together with side captures of the same run. */
IochartCapture *iochart_load             (const char * const  *paths,
                                          const IochartLoadOptions *options,
                                          GError             **error);

G_END_DECLS
