/* iochart-whatif-panel.h: the what-if panel: policies, a device model, class changes and drops
 * chosen, the core's simulator run in a GTask worker with progress and Cancel, and the per-lane
 * table of observed against simulated ends (the figures of iochart-sim-compare.h) */
#pragma once

#include <adwaita.h>
#include "iochart-capture.h"

G_BEGIN_DECLS

#define IOCHART_TYPE_WHATIF_PANEL (iochart_whatif_panel_get_type ())
G_DECLARE_FINAL_TYPE (IochartWhatifPanel, iochart_whatif_panel, IOCHART, WHATIF_PANEL, GtkBox)

GtkWidget      *iochart_whatif_panel_new          (void);
/* The observed capture (NULL: nothing to simulate). */
void            iochart_whatif_panel_set_capture  (IochartWhatifPanel *self,
                                                   IochartCapture     *capture);
/* The capture changes in place (a live recording's copy): a run reads a copy of it made when
 * it starts, which later updates leave alone. */
void            iochart_whatif_panel_capture_changed (IochartWhatifPanel *self,
                                                   IochartCapture     *capture);
/* The capture the last runs simulated (for a live one, the copy they read). */
IochartCapture *iochart_whatif_panel_get_observed (IochartWhatifPanel *self);
/* What the controls ask for, as `iochart simulate` takes it: policy specs ("bfq",
 * "idle-gate+cfq"), the device model ("fit"), --set-class and --drop texts. */
GStrv           iochart_whatif_panel_get_policies (IochartWhatifPanel *self);
/* Sets the controls: policies among noop, cfq, bfq, mq-deadline; model "fit", "observed", "hdd"
 * or "ssd"; set_class and drop comma-separated (NULL: empty). */
void            iochart_whatif_panel_set_choices  (IochartWhatifPanel *self,
                                                   const char * const *policies,
                                                   gboolean            idle_gate,
                                                   const char         *model,
                                                   const char         *set_class,
                                                   const char         *drop);
/* Starts the runs in a worker; "finished" when they are done, failed or cancelled. */
void            iochart_whatif_panel_run          (IochartWhatifPanel *self);
void            iochart_whatif_panel_cancel       (IochartWhatifPanel *self);
gboolean        iochart_whatif_panel_is_running   (IochartWhatifPanel *self);
/* For tests of the progress shown: each run of the next ones lasts at least ms (0: as long as it
 * takes). */
void            iochart_whatif_panel_set_min_run_ms (IochartWhatifPanel *self,
                                                     guint               ms);
/* The fraction the progress bar on screen shows while running (runs done of runs asked), else -1. */
double          iochart_whatif_panel_get_progress (IochartWhatifPanel *self);
/* The last runs' result: the simulated captures (not the observed one), in the order asked; the
 * error they ended with, or NULL. */
guint           iochart_whatif_panel_get_n_runs   (IochartWhatifPanel *self);
IochartCapture *iochart_whatif_panel_get_run      (IochartWhatifPanel *self,
                                                   guint               i);
/* The policy as used, every setting spelled out ("bfq:slice_idle=8ms,..."). */
const char     *iochart_whatif_panel_get_run_policy (IochartWhatifPanel *self,
                                                     guint               i);
/* The device model as used ("observed:depth=1"). */
const char     *iochart_whatif_panel_get_model    (IochartWhatifPanel *self);
const GError   *iochart_whatif_panel_get_error    (IochartWhatifPanel *self);
/* The table as shown, one row a lane: label, observed end, then end and change per run. */
GPtrArray      *iochart_whatif_panel_get_rows     (IochartWhatifPanel *self);

G_END_DECLS
