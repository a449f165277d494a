/* iochart-bootchart-range.h: a boot chart's figures inside a time range
 *
 * What the side panel of the app and `iochart info --from --to` on a bootchart capture show for a
 * selected range (times since boot, as the chart's axis): per process its CPU time, its time in D
 * state (what bootchart calls I/O wait) and where its time went (running, waiting for a CPU, in D
 * state, asleep, by the same reading of the samples the chart's time split bars use); per disk the
 * bytes read and written, the throughput and the utilisation; the CPUs' user, system and I/O wait
 * shares. A sample covers the interval since the one before it, so a range cutting an interval
 * takes the overlapping share of it.
 */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-bootchart.h"
#include "analysis/iochart-time-split.h"
#include "analysis/iochart-steal.h"

G_BEGIN_DECLS

typedef struct {
  const IochartBootchartProcess *process;
  gint64           cpu_ns;       /* user + system CPU time */
  gint64           d_state_ns;   /* sampled in D (uninterruptible: mostly waiting for the disk) */
  IochartTimeSplit split;        /* running, runnable, other_d (= d_state_ns), sleep */
} IochartBootchartRangeProcess;

typedef struct {
  const IochartBootchartDisk *disk;
  guint64 read_bytes;
  guint64 written_bytes;
  double  read_bytes_per_s;      /* over the range */
  double  write_bytes_per_s;
  double  util;                  /* busy share of the range, 0..1 */
} IochartBootchartRangeDisk;

typedef struct {
  gint64  from_ns;               /* since boot, clipped to the samples */
  gint64  to_ns;
  double  cpu_user;              /* shares of all CPUs' time, 0..1 */
  double  cpu_sys;
  double  cpu_iowait;
  GArray *processes;             /* IochartBootchartRangeProcess that ran or waited in the range
                                  * (CPU, runnable or D), most CPU first */
  guint   n_asleep;              /* processes alive but asleep all the range */
  GArray *disks;                 /* IochartBootchartRangeDisk, as the capture lists its disks */
} IochartBootchartRange;

/* from_ns/to_ns since boot; IOCHART_TIME_UNKNOWN: the first/last sample. NULL when the range
 * holds no sample interval (from_ns >= to_ns after clipping). */
IochartBootchartRange *iochart_bootchart_range_new   (IochartBootchart      *bc,
                                                      gint64                 from_ns,
                                                      gint64                 to_ns);
void                   iochart_bootchart_range_free  (IochartBootchartRange *range);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartBootchartRange, iochart_bootchart_range_free)

/* The idle steal of io (the block I/O of the same boot; bootchart time = io time + offset_ns, as
 * iochart_bootchart_align_io gives it) in [from_ns, to_ns] since boot, on the device the chart
 * draws (iochart_bootchart_io_device): the figure the chart's header gives for its whole range,
 * for a selected range. NULL when io has no device. */
IochartSteal          *iochart_bootchart_range_steal (IochartBootchart      *bc,
                                                      IochartCapture        *io,
                                                      gint64                 offset_ns,
                                                      gint64                 from_ns,
                                                      gint64                 to_ns);
/* A disk's line: "vda: 16 MiB read (26 MiB/s), 0 B written (0 B/s), 17.4% busy", as `info`
 * prints it, or with translated in the app's language (the iochart gettext domain). */
char                  *iochart_bootchart_range_disk_text (const IochartBootchartRangeDisk *disk,
                                                          gboolean                         translated);
/* The lines `iochart info --from --to` prints: the range, CPU, disks, then the top processes by
 * CPU time (all when top is 0). */
void                   iochart_bootchart_range_print (const IochartBootchartRange *range,
                                                      guint                        top,
                                                      GString                     *out);
/* {"from_ns", "to_ns", "cpu": {...}, "disks": [...], "processes": [...]} as one object. */
void                   iochart_bootchart_range_to_json (const IochartBootchartRange *range,
                                                        guint                        top,
                                                        JsonBuilder                 *builder);

G_END_DECLS
