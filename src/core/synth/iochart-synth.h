/* iochart-synth.h: a synthetic workload shaped like the classic report, as a capture or a .dat
 *
 * Each reader is `ionice -c CLASS find DIR -type f -exec cat {} \;`: a `find` that reads a
 * directory block every 40 files and forks one `cat` per file; each `cat` execs, reads an inode
 * block every 16 files, reads its 64-128 KiB file in one request and exits; `find` forks the next
 * one when it has exited. Every reader is timed as if alone on a 7200 rpm disk (the closed-loop
 * replay keeps only each process's own gaps), all starting together: the simulator's validation
 * input (tests, bench, `iochart synth`).
 */
#pragma once

#include <glib.h>
#include "iochart-capture.h"

G_BEGIN_DECLS

#define IOCHART_SYNTH_DEV        IOCHART_DEV_MAKE (8, 0)
/* The first reader's `find`; its cats follow, then the next reader's find. */
#define IOCHART_SYNTH_FIRST_PID  1000

typedef struct {
  IochartClass klass;          /* level 4, 7 for idle */
  guint        n_files;
  guint64      region;         /* first sector of its tree */
  guint32      seed;
} IochartSynthReader;

typedef enum {
  IOCHART_SYNTH_ALONE,         /* one best-effort reader */
  IOCHART_SYNTH_IDLE,          /* and an idle-class reader with twice the files */
  IOCHART_SYNTH_NORMAL,        /* and a best-effort reader with twice the files */
} IochartSynthScenario;

#define IOCHART_SYNTH_MAX_READERS 2

gboolean        iochart_synth_scenario_parse   (const char           *name,
                                                IochartSynthScenario *out,
                                                GError              **error);
/* The readers of a scenario whose normal reader reads n_files files; returns how many. The
 * normal reader is the same in every scenario: alone, it is the baseline of the others. */
guint           iochart_synth_scenario_readers (IochartSynthScenario  scenario,
                                                guint                 n_files,
                                                IochartSynthReader    out[IOCHART_SYNTH_MAX_READERS]);
/* The pid of reader k's `find`. */
gint32          iochart_synth_reader_pid       (const IochartSynthReader *readers,
                                                guint                 k);

/* The capture the .dat of the same readers reads as, built without the file. */
IochartCapture *iochart_synth_capture          (const IochartSynthReader *readers,
                                                guint                 n_readers);
/* A trace-cmd .dat (v6, one CPU) of block_bio_queue, block_rq_insert/issue/complete (with the
 * ioprio field) and sched_process_fork/exec/exit, as a Linux 6.18 private instance records them. */
gboolean        iochart_synth_write_dat        (const IochartSynthReader *readers,
                                                guint                 n_readers,
                                                const char           *path,
                                                GError              **error);

G_END_DECLS
