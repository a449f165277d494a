/* iochart-bootchart-private.h: the parsers behind IochartBootchart, for the loader and fuzzers
 *
 * Loading is: _iochart_bootchart_new(), one _iochart_bootchart_add_member() per file of the
 * capture (any order), then _iochart_bootchart_finish(), which parses in dependency order and
 * builds the tree. Errors name the member and the line or offset.
 */
#pragma once

#include "iochart-bootchart.h"

G_BEGIN_DECLS

struct _IochartBootchart {
  GObject     parent_instance;

  char       *path;
  GHashTable *members;        /* kind ("proc_ps.log") -> GBytes */
  GHashTable *member_paths;   /* kind -> path inside the capture, for messages */
  GHashTable *header;         /* key -> value */
  GPtrArray  *warnings;       /* of char* */

  guint       n_cpus;
  gint64      start_ns;
  gint64      end_ns;
  gint64      period_ns;
  guint       n_samples;

  GPtrArray  *processes;      /* owned, by (pid, start) */
  GHashTable *by_pid;         /* pid -> GPtrArray of processes (a pid may be reused) */
  GHashTable *parent_map;     /* pid -> ppid from paternity.log: exact, at fork */
  GHashTable *pacct_map;      /* pid -> ppid from kernel_pacct: at exit (orphans show 1) */
  gboolean    taskstats_only; /* processes came from taskstats.log */

  IochartBootchartTreeFlags tree_flags;
  char       *logger_name;    /* NULL: the usual collector names */
  GPtrArray  *tree;           /* roots, not owned */
  GPtrArray  *tree_nodes;     /* owned nodes of the built tree */

  GArray     *cpu_samples;
  GPtrArray  *disks;
  GArray     *mem_samples;
  GArray     *initcalls;
};

IochartBootchart *_iochart_bootchart_new        (const char       *path);

/* Keeps data (a member named like `proc_ps.log`, path inside the capture for messages);
 * members of no interest are ignored. Returns FALSE for a duplicate member. */
gboolean          _iochart_bootchart_add_member (IochartBootchart *self,
                                                 const char       *name,
                                                 GBytes           *data,
                                                 GError          **error);

gboolean          _iochart_bootchart_finish     (IochartBootchart *self,
                                                 GError          **error);

/* A member name as the parsers know it ("proc_ps.log"), or NULL when the path is not one
 * (deeper than one folder, or an unknown file). */
const char       *_iochart_bootchart_member_kind (const char      *archive_path);

/* Parsers of one log each; self gets the result. Exposed for tests and fuzzers. */
gboolean _iochart_bootchart_parse_header      (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_proc_stat   (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_diskstats   (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_proc_ps     (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_taskstats   (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_meminfo     (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_cmdline2    (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_paternity   (IochartBootchart *self, const char *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_pacct       (IochartBootchart *self, const guint8 *data, gsize len, GError **error);
gboolean _iochart_bootchart_parse_dmesg       (IochartBootchart *self, const char *data, gsize len, GError **error);

/* Builds self->tree from self->processes with self->tree_flags. */
void     _iochart_bootchart_build_tree (IochartBootchart *self);

/* n_samples: room for that many samples (0: unknown) */
IochartBootchartProcess *_iochart_bootchart_process_new  (gint32 pid, guint n_samples);
void                     _iochart_bootchart_process_free (IochartBootchartProcess *process);

void     _iochart_bootchart_warn (IochartBootchart *self, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* The whole disks bootchart shows: sd*, hd*, vd*, xvd*, nvme*n*, mmcblk*, dm-*, md*, loop*. */
gboolean _iochart_bootchart_is_whole_disk (const char *name);

/* A process's samples read as the states it was in, in time order: in the interval before a sample
 * (from its start for the first), R spends the CPU time the sample counts running and the rest
 * runnable; D, S and Z hold the whole interval; from its last sample to end_ns it is gone
 * (IOCHART_TASK_DEAD). The time split of the chart and of a range both read it so. */
typedef void (*IochartBootchartStateFunc) (gint64 start_ns, gint64 end_ns, IochartTaskState state, gpointer data);
void     _iochart_bootchart_process_states (const IochartBootchartProcess *process,
                                            gint64                         end_ns,
                                            IochartBootchartStateFunc      func,
                                            gpointer                       data);

G_END_DECLS
