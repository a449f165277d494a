/* iochart-diff.h: what changed between two captures of the same workload (two boots, two runs)
 *
 * Both captures are put on one time scale by an alignment point, their lanes are matched by name
 * (the lane's process name and class, numbered in order of first I/O when several share it, never
 * by pid, which differs from run to run), and per lane, per class and for the device the figures
 * are set side by side: first I/O, last completion, requests, bytes, latency (the summary's), stolen
 * time.
 */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-capture.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_ALIGN_START,         /* each capture's first event */
  IOCHART_ALIGN_CLOCK,         /* no alignment: the captures' own clocks */
  IOCHART_ALIGN_FIRST_IO,      /* the first request queued */
  IOCHART_ALIGN_FIRST_IDLE_IO, /* the first idle-class request queued */
  IOCHART_ALIGN_PROCESS,       /* the first sight of a process of a name: fork, else its first I/O */
} IochartAlign;

/* "start", "clock", "first-io", "first-idle-io"; anything else names a process. */
void iochart_align_parse (const char *text, IochartAlign *align, const char **process);

typedef struct {
  IochartAlign align;
  const char  *process;     /* IOCHART_ALIGN_PROCESS: its name */
  gint64       tolerance_ns; /* times closer than this are the same */
} IochartDiffOptions;

#define IOCHART_DIFF_OPTIONS_INIT { .align = IOCHART_ALIGN_START, .process = NULL, .tolerance_ns = 0 }

/* One side's figures; times relative to its alignment point, IOCHART_TIME_UNKNOWN when absent. */
typedef struct {
  gboolean present;
  gint64   start_ns;     /* first request queued (or inserted, or issued) */
  gint64   end_ns;       /* last completion */
  guint64  requests;     /* issued, as info counts them */
  guint64  bytes;
  gint64   stolen_ns;    /* lanes: idle steal its processes took; classes: the idle class's; device: all */
  gint64   q2c_p50_ns;   /* queue-to-complete latency, from the summary; IOCHART_TIME_UNKNOWN: none */
  gint64   q2c_p99_ns;
  char    *label;        /* the lane's label in this capture (with pids), or NULL */
} IochartDiffSide;

typedef enum {
  IOCHART_DIFF_SAME_STATE  = 0,
  IOCHART_DIFF_START       = 1 << 0,
  IOCHART_DIFF_END         = 1 << 1,
  IOCHART_DIFF_REQUESTS    = 1 << 2,
  IOCHART_DIFF_BYTES       = 1 << 3,
  IOCHART_DIFF_STOLEN      = 1 << 4,
  IOCHART_DIFF_PRESENCE    = 1 << 5,   /* only in one capture */
  IOCHART_DIFF_LATENCY     = 1 << 6,   /* q2c p50 or p99 */
} IochartDiffChange;

typedef struct {
  char            *name;     /* lane "find (idle)", "find (idle) #2"; class "idle"; device "7,0" */
  IochartDiffSide  a, b;
  guint            changes;  /* IochartDiffChange */
} IochartDiffRow;

typedef struct _IochartDiff IochartDiff;

/* device_a/device_b: device indices, -1: the one the steal analysis picks in each. */
IochartDiff          *iochart_diff_new           (IochartCapture           *a,
                                                  int                       device_a,
                                                  IochartCapture           *b,
                                                  int                       device_b,
                                                  const IochartDiffOptions *options,
                                                  GError                  **error);
void                  iochart_diff_free          (IochartDiff *diff);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartDiff, iochart_diff_free)

/* The device row, then class rows, then lane rows (A's order, then lanes only in B). */
guint                 iochart_diff_get_n_rows    (IochartDiff *diff);
const IochartDiffRow *iochart_diff_get_row       (IochartDiff *diff, guint i);
/* Which kind a row is: "device", "class" or "lane". */
const char           *iochart_diff_row_kind      (IochartDiff *diff, guint i);
/* B's alignment point minus A's, on the captures' own clocks. */
gint64                iochart_diff_get_shift_ns  (IochartDiff *diff);
/* The aligned span covering both captures: from the earlier start to the later end. */
void                  iochart_diff_get_span      (IochartDiff *diff, gint64 *from_ns, gint64 *to_ns);
guint                 iochart_diff_get_n_changed (IochartDiff *diff);

/* Plain text, one row a line, changed rows marked; and {align, shift_ns, rows: [...]} JSON. */
void                  iochart_diff_print         (IochartDiff *diff, GString *out);
void                  iochart_diff_to_json       (IochartDiff *diff, JsonBuilder *builder);

/* "+2.5 s"; the change's flag names "start,end". */
char                 *iochart_diff_changes_text  (guint changes);

G_END_DECLS
