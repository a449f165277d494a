/* iochart-report-build.h: what `iochart report` says about a capture, from the analyses' figures
 *
 * Summary and verdict, the I/O chart (and the boot chart when there is one) with annotations, the
 * idle-steal episodes with zoomed charts of the worst three, the latency breakdown, the top lanes,
 * what-if replays under other policies (the simulator's), the annotations, and
 * what it takes to reproduce the report: the command line, the version and capture checksums.
 */
#pragma once

#include "iochart-capture.h"
#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-chart.h"
#include "iochart-report.h"

G_BEGIN_DECLS

typedef struct {
  const char                            *title;          /* NULL: the first capture's name */
  const char * const                    *paths;          /* the captures given, for checksums */
  const char                            *command_line;
  int                                    device;         /* index in io, -1: the steal analysis' pick */
  const IochartBootchartChartAnnotation *annotations;    /* times since the capture's start (the boot for a
                                                          * boot chart), or process names */
  guint                                  n_annotations;
  guint                                  width;          /* charts, pixels; 0: 1600 */
  const char * const                    *simulate;       /* what-if policies (simulator specs), or NULL */
} IochartReportOptions;

/* io and bootchart may each be NULL, not both. Fails when an annotation names no process of
 * either capture. */
IochartReport *iochart_report_build (IochartCapture             *io,
                                     IochartBootchart           *bootchart,
                                     const IochartReportOptions *options,
                                     GError                    **error);

/* "sha256 of the file", or of each file of a folder, as "SUM  PATH" lines. */
char          *iochart_report_checksums (const char * const *paths,
                                         GError            **error);

G_END_DECLS
