/* iochart-sim-compare.h: the figures `iochart simulate` compares, per lane, class and process
 *
 * Lanes are made once on the observed capture; a simulated capture keeps its processes' indices,
 * so the same grouping applies to every run.
 */
#pragma once

#include "iochart-capture.h"
#include "analysis/iochart-lanes.h"

G_BEGIN_DECLS

typedef struct {
  gint64  start_ns;        /* first fork or submission; IOCHART_TIME_UNKNOWN: no I/O */
  gint64  end_ns;          /* last exit or completion */
  guint64 bytes;
  guint   requests;
  guint   flushes;         /* of the requests: the workload leaves these out, so a run has none */
  gint64  q2c_p50_ns, q2c_p99_ns;
  gint64  disk_ns;         /* time with some of its requests outstanding */
} IochartSimFigures;

/* n_lanes figures of capture's requests on device, by the lane each process has in lanes; then
 * per class (IOCHART_N_CLASSES). */
void     iochart_sim_figures_lanes     (IochartCapture    *capture,
                                        guint              device,
                                        IochartLanes      *lanes,
                                        IochartSimFigures *per_lane,
                                        IochartSimFigures *per_class);

/* Per process (n_processes): when it ended (exit, else last completion on device) and bytes. */
void     iochart_sim_figures_processes (IochartCapture    *capture,
                                        guint              device,
                                        gint64            *end_ns,
                                        guint64           *bytes);

/* How a lane's duration (end - start) changed from the observed run to a simulated one: "+12.5%",
 * "not simulated" when all its observed I/O was flushes (the simulator replays no flush),
 * "dropped" when the simulated run issued none of its I/O, "" when it cannot be said. */
char    *iochart_sim_figures_change_text (const IochartSimFigures *obs,
                                          const IochartSimFigures *sim);

/* Whether a lane spent most of its life off the disk: then only its I/O time is simulated. */
gboolean iochart_sim_figures_mostly_off_disk (const IochartSimFigures *f);

G_END_DECLS
