/* iochart-types.h: enums and small value types shared by every tier */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every time in iochart is int64 nanoseconds on the capture's own clock. */
#define IOCHART_TIME_UNKNOWN G_MININT64
/* Times a capture may hold: [0, 2^62) ns, 146 years, any clock a trace uses; the builder drops
 * an event outside it (a damaged record), so that differences and sums of times never overflow. */
#define IOCHART_TIME_MAX_NS  (G_GINT64_CONSTANT (1) << 62)
#define IOCHART_NO_PROCESS   G_MAXUINT32

#define IOCHART_DEV_MAJOR(d) ((guint32) (d) >> 20)
#define IOCHART_DEV_MINOR(d) ((guint32) (d) & 0xfffff)
#define IOCHART_DEV_MAKE(ma, mi) ((((guint32) (ma)) << 20) | ((guint32) (mi) & 0xfffff))

/* Kernel ioprio encoding: class << 13 | hint << 3 | level. */
#define IOCHART_IOPRIO_CLASS(v) (((guint32) (v) >> 13) & 7)
#define IOCHART_IOPRIO_LEVEL(v) ((guint32) (v) & 7)
#define IOCHART_IOPRIO_MAKE(c, l) ((((guint32) (c)) << 13) | ((guint32) (l) & 7))

typedef enum {
  IOCHART_OP_READ,
  IOCHART_OP_WRITE,
  IOCHART_OP_DISCARD,
  IOCHART_OP_FLUSH,
  IOCHART_OP_OTHER,
  IOCHART_N_OPS
} IochartOp;

typedef enum {
  IOCHART_RQ_SYNC      = 1 << 0,
  IOCHART_RQ_META      = 1 << 1,
  IOCHART_RQ_READAHEAD = 1 << 2,
  IOCHART_RQ_FUA       = 1 << 3,
  IOCHART_RQ_PREFLUSH  = 1 << 4,
} IochartRqFlags;

/* Numbered as the kernel's IOPRIO_CLASS_* so that a field value maps directly. */
typedef enum {
  IOCHART_CLASS_NONE    = 0,
  IOCHART_CLASS_RT      = 1,
  IOCHART_CLASS_BE      = 2,
  IOCHART_CLASS_IDLE    = 3,
  IOCHART_CLASS_UNKNOWN = 4,
  IOCHART_N_CLASSES
} IochartClass;

typedef enum {
  IOCHART_CLASS_SOURCE_UNKNOWN,
  IOCHART_CLASS_SOURCE_IOPRIO_FIELD,
  IOCHART_CLASS_SOURCE_IOPRIO_SET,
  IOCHART_CLASS_SOURCE_INHERITED,
  IOCHART_CLASS_SOURCE_RULE,
  IOCHART_CLASS_SOURCE_SCHEDULER_NOTE,
  IOCHART_CLASS_SOURCE_SIDE_CAPTURE,
  IOCHART_N_CLASS_SOURCES
} IochartClassSource;

const char *iochart_op_name           (IochartOp          op);
const char *iochart_class_name        (IochartClass       klass);
const char *iochart_class_source_name (IochartClassSource source);
gboolean    iochart_class_from_name   (const char        *name,
                                       IochartClass      *klass);

/* Parses an RWBS string ("FWS", "RA", "N") into op and IochartRqFlags. */
void        iochart_rwbs_parse        (const char        *rwbs,
                                       gsize              len,
                                       IochartOp         *op,
                                       guint8            *flags);
/* Writes the RWBS string of op/flags into buf (at least 8 bytes). */
void        iochart_rwbs_format       (IochartOp          op,
                                       guint8             flags,
                                       char              *buf);

/* A user rule: --class COMM_OR_PID=CLASS[:LEVEL], for requests whose class no capture tells. */
typedef struct {
  char        *match;        /* a comm, or a pid in decimal */
  IochartClass klass;
  guint8       level;
} IochartClassRule;

/* Parses "COMM_OR_PID=idle|be|rt|none[:LEVEL]". */
gboolean        iochart_class_rule_parse (const char          *text,
                                          IochartClassRule    *rule,
                                          GError             **error);
void            iochart_class_rule_clear (IochartClassRule    *rule);

G_END_DECLS
