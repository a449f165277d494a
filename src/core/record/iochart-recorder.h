/* iochart-recorder.h: record block, process and scheduler events in a private tracefs instance
 *
 * The recorder creates its own instance (iochart-record-PID), enables the events there, moves
 * the ring buffers' pages into the .dat writer while tracing runs, and removes the instance on
 * stop or free, so the top-level buffer and other instances are never touched. Instances left by
 * a recorder that was killed are removed by the next one.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IochartRecorder IochartRecorder;

typedef struct {
  gboolean        sched;          /* sched_switch and sched_wakeup too */
  gboolean        block_only;     /* only what a boot chart needs: block, fork/exec/exit */
  const guint32  *devices;        /* only these devices (MAJ << 20 | MIN); NULL: all */
  guint           n_devices;
  guint           buffer_kb;      /* per CPU; 0: 16384 */
} IochartRecorderOptions;

typedef struct {
  guint64 bytes;                  /* ring-buffer bytes in the file so far */
  guint64 entries;                /* events the kernel holds or has handed over */
  guint64 lost;                   /* events the kernel dropped (overrun, dropped, commit overrun) */
  guint64 lost_per_cpu[64];       /* the first 64 CPUs */
  guint   n_cpus;
} IochartRecorderStats;

/* Page sink: each full ring-buffer page as it is read, for live views (may be NULL). */
typedef void (*IochartRecorderPageFunc) (guint         cpu,
                                         const guint8 *page,
                                         gsize         len,
                                         gpointer      user_data);

/* Checks root and tracefs (mounting it when it is not), creates the instance and enables the
 * events (tracing is still off). Events this kernel lacks are left out: see get_missing. */
IochartRecorder    *iochart_recorder_new          (const IochartRecorderOptions *options,
                                                   GError                      **error);
void                iochart_recorder_free         (IochartRecorder *self);

/* What this kernel cannot record, one line each ("block_split", "the ioprio field of block
 * requests (Linux 6.11 and later)"). */
const char * const *iochart_recorder_get_missing  (IochartRecorder *self);
guint               iochart_recorder_get_n_cpus   (IochartRecorder *self);
guint               iochart_recorder_get_page_size (IochartRecorder *self);
/* The tracefs events directory of the instance's kernel, for decoding pages live. */
const char         *iochart_recorder_get_tracing_dir (IochartRecorder *self);

void                iochart_recorder_set_page_func (IochartRecorder        *self,
                                                   IochartRecorderPageFunc func,
                                                   gpointer                user_data);

void                iochart_recorder_start        (IochartRecorder *self);
/* Moves the full pages read so far to the file; call at least every 100 ms or so. */
gboolean            iochart_recorder_drain        (IochartRecorder *self,
                                                   GError         **error);
void                iochart_recorder_get_stats    (IochartRecorder      *self,
                                                   IochartRecorderStats *stats);
/* Stops tracing, takes the last partial pages and the CPU stats, removes the instance. */
gboolean            iochart_recorder_stop         (IochartRecorder *self,
                                                   GError         **error);
/* Writes the .dat (after stop), to a temporary name then renamed. */
gboolean            iochart_recorder_write        (IochartRecorder *self,
                                                   const char      *path,
                                                   GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartRecorder, iochart_recorder_free)

G_END_DECLS
