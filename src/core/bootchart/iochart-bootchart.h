/* iochart-bootchart.h: a bootchart capture (bootchart 0.x / bootchart2 logs) as one model
 *
 * A capture is a folder or a tar archive (.tgz) holding `header`, `proc_stat.log`,
 * `proc_diskstats.log`, `proc_ps.log` and optionally `taskstats.log`, `proc_meminfo.log`,
 * `cmdline2.log`, `paternity.log`, `kernel_pacct` and `dmesg`, at the root or under one folder.
 *
 * Times are nanoseconds since boot (the collectors sample uptime). The process tree is rebuilt
 * from the parsed processes whenever the tree flags change, so pruning is switchable.
 */
#pragma once

#include <stdio.h>
#include <glib-object.h>
#include <json-glib/json-glib.h>
#include "iochart-capture.h"

G_BEGIN_DECLS

#define IOCHART_TYPE_BOOTCHART (iochart_bootchart_get_type ())
G_DECLARE_FINAL_TYPE (IochartBootchart, iochart_bootchart, IOCHART, BOOTCHART, GObject)

/* How the process tree is simplified, as the bootchart renderers do (all on by default). */
typedef enum {
  IOCHART_BOOTCHART_TREE_AS_PARSED      = 0,
  IOCHART_BOOTCHART_TREE_MERGE_LOGGER   = 1 << 0, /* fold the collector's helpers into it */
  IOCHART_BOOTCHART_TREE_PRUNE_IDLE     = 1 << 1, /* drop idle background leaves */
  IOCHART_BOOTCHART_TREE_PRUNE_SHORT    = 1 << 2, /* drop processes living < ~2 samples */
  IOCHART_BOOTCHART_TREE_MERGE_EXPLODERS = 1 << 3, /* fold the subtree of known spawners */
  IOCHART_BOOTCHART_TREE_MERGE_SIBLINGS = 1 << 4, /* adjacent siblings with one name */
  IOCHART_BOOTCHART_TREE_MERGE_RUNS     = 1 << 5, /* a single child named like its parent */
  IOCHART_BOOTCHART_TREE_DEFAULT        = 0x3f,
} IochartBootchartTreeFlags;

typedef struct {
  gint64 time_ns;
  float  user;       /* CPU used since the previous sample, in CPUs (1.0 = one CPU busy) */
  float  sys;
  char   state;      /* R S D Z T... as /proc/PID/stat says; taskstats-only: R, D or S */
} IochartBootchartProcSample;

typedef struct _IochartBootchartProcess IochartBootchartProcess;
struct _IochartBootchartProcess {
  gint32 pid;
  gint32 ppid;                    /* as resolved: paternity/pacct first, else /proc ppid */
  char  *cmd;                     /* last comm seen (a name changes on exec) */
  char  *exe;                     /* from cmdline2.log, or NULL */
  char **args;                    /* from cmdline2.log, or NULL */
  gint64 start_ns;                /* min (starttime, first sample seeing it) */
  gint64 duration_ns;             /* to the last sample seeing it (gone by the next one) */
  gint64 cpu_ns;                  /* taskstats run time, -1 when unknown */
  gint64 blkio_delay_ns;          /* taskstats block I/O delay, -1 when unknown */
  guint  n_seen;                  /* samples listing this process */
  guint  n_merged;                /* other processes folded into this tree node */
  gboolean active;                /* used CPU or sat in D in more than two samples */
  IochartBootchartProcess *parent;
  GPtrArray *children;            /* of IochartBootchartProcess, by pid */
  GArray    *samples;             /* of IochartBootchartProcSample, by time */
};

typedef struct {
  gint64 time_ns;
  float  user;       /* shares of all CPU time in the interval, 0..1 */
  float  sys;
  float  iowait;
  guint  procs_running;
  guint  procs_blocked;
} IochartBootchartCpuSample;

typedef struct {
  gint64 time_ns;
  double read_bytes_per_s;
  double write_bytes_per_s;
  float  util;       /* io_ticks share of the interval, 0..1 */
} IochartBootchartDiskSample;

typedef struct {
  char  *name;       /* sda, nvme0n1, dm-0... */
  guint  major;
  guint  minor;
  guint64 read_bytes;     /* over the capture */
  guint64 written_bytes;
  GArray *samples;   /* of IochartBootchartDiskSample */
} IochartBootchartDisk;

typedef struct {
  gint64  time_ns;
  guint64 total_kb;
  guint64 free_kb;
  guint64 buffers_kb;
  guint64 cached_kb;
  guint64 swap_total_kb;
  guint64 swap_free_kb;
} IochartBootchartMemSample;

typedef struct {
  char  *name;       /* the initcall, "foo_init" */
  gint32 pid;
  gint64 start_ns;   /* printk time of `calling` */
  gint64 duration_ns;
  int    ret;
} IochartBootchartInitcall;

/* Cheap: a folder with `header` or `proc_ps.log`, or a tar archive listing one of them. */
gboolean          iochart_bootchart_sniff_path     (const char       *path);

/* Reads a folder or an archive. Truncated logs load their valid part with a warning. */
IochartBootchart *iochart_bootchart_load           (const char       *path,
                                                    GError          **error);

const char       *iochart_bootchart_get_path       (IochartBootchart *self);
/* The `header` file as key -> value; e.g. "title", "system.uname", "system.kernel.options". */
GHashTable       *iochart_bootchart_get_header     (IochartBootchart *self);
const char       *iochart_bootchart_get_header_value (IochartBootchart *self,
                                                    const char       *key);
guint             iochart_bootchart_get_n_cpus     (IochartBootchart *self);
gint64            iochart_bootchart_get_start_ns   (IochartBootchart *self);
gint64            iochart_bootchart_get_end_ns     (IochartBootchart *self);
gint64            iochart_bootchart_get_sample_period_ns (IochartBootchart *self);
guint             iochart_bootchart_get_n_samples  (IochartBootchart *self);
/* Messages about what a damaged capture lost; never NULL. */
GPtrArray        *iochart_bootchart_get_warnings   (IochartBootchart *self);

/* Every process read, by pid (and by start for a reused pid), links as parsed. */
GPtrArray        *iochart_bootchart_get_processes  (IochartBootchart *self);
/* The roots of the tree built with the current flags. */
GPtrArray        *iochart_bootchart_get_tree       (IochartBootchart *self);
IochartBootchartTreeFlags iochart_bootchart_get_tree_flags (IochartBootchart *self);
void              iochart_bootchart_set_tree_flags (IochartBootchart *self,
                                                    IochartBootchartTreeFlags flags);
/* The process whose name the logger has ("bootchartd" by default), for MERGE_LOGGER. */
void              iochart_bootchart_set_logger_name (IochartBootchart *self,
                                                    const char       *name);

GArray           *iochart_bootchart_get_cpu_samples (IochartBootchart *self);
GPtrArray        *iochart_bootchart_get_disks      (IochartBootchart *self);
/* The disk bootchart saw the most of (bytes read and written): the one the chart's disk strip
 * and its block I/O are about. NULL without disks. */
IochartBootchartDisk *iochart_bootchart_get_main_disk (IochartBootchart *self);
GArray           *iochart_bootchart_get_mem_samples (IochartBootchart *self);
GArray           *iochart_bootchart_get_initcalls  (IochartBootchart *self);

/* Where io (the block I/O of the same boot) sits on the samples' clock: bootchart time = capture
 * time + *offset_ns. A .dat recorded with clock mono shares the samples' uptime; otherwise the
 * processes both saw start give the offset, else the two starts are matched (a guess). Returns
 * how the clocks were matched, for a chart's header. */
char             *iochart_bootchart_align_io       (IochartBootchart *self,
                                                    IochartCapture   *io,
                                                    gint64           *offset_ns);

/* Gives the processes of capture (the block I/O of the same boot) the task states the samples
 * show, when it has no scheduler events of its own: for the time split. */
/* The device of io the chart draws and the panel counts the idle steal of: the main disk's when
 * io has it, else the one the steal analysis picks; -1 when io has no device. */
int               iochart_bootchart_io_device      (IochartBootchart *self,
                                                    IochartCapture   *io);
void              iochart_bootchart_lend_task_states (IochartBootchart *self,
                                                    IochartCapture   *capture);
/* For `iochart info`: a few lines of summary. */
void              iochart_bootchart_print_info     (IochartBootchart *self,
                                                    FILE             *out);
/* Adds the members of one JSON object (header, samples, the current tree) to builder. */
void              iochart_bootchart_to_json        (IochartBootchart *self,
                                                    JsonBuilder      *builder);

G_END_DECLS
