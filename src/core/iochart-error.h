/* iochart-error.h: the error domain of every reader and the loader */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define IOCHART_ERROR (iochart_error_quark ())

typedef enum {
  IOCHART_ERROR_BAD_CAPTURE,     /* the file is damaged or not what it claims */
  IOCHART_ERROR_UNKNOWN_FORMAT,  /* no reader knows this file */
  IOCHART_ERROR_EMPTY,           /* nothing could be read */
  IOCHART_ERROR_IO,              /* missing file, permission... */
  IOCHART_ERROR_USAGE,           /* bad options */
} IochartError;

GQuark iochart_error_quark (void);

G_END_DECLS
