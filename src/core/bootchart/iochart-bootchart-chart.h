/* iochart-bootchart-chart.h: the boot chart, drawn into the same display list as the I/O chart
 *
 * Top to bottom on one time axis (seconds since boot, as the bootchart samples are): a header
 * (title, uname, release, CPU, kernel command line, boot duration), CPU (user+sys) with I/O wait,
 * disk throughput with utilisation, memory when sampled, then one bar per process of the tree
 * (dark: running, orange: waiting for the disk in D state, light: sleeping) with dotted links to
 * the parent. With the block I/O of the same boot, the disk strip is split by priority class,
 * each bar gets a band of its requests by class, and idle-steal episodes are shaded as in the I/O
 * chart. Milestones ("boot done", annotations) are labelled vertical lines.
 *
 * The whole boot is scaled to the width, whatever its length; long boots may also be split into
 * time ranges (pages) for PDF.
 */
#pragma once

#include "iochart-bootchart.h"
#include "iochart-capture.h"
#include "render/iochart-chart.h"
#include "render/iochart-display-list.h"

G_BEGIN_DECLS

/* A labelled vertical line: at a time since boot, or at the first start of a named process. */
typedef struct {
  gint64  time_ns;     /* since boot; IOCHART_TIME_UNKNOWN when process is set */
  char   *process;     /* a command name, or "pid:N"; NULL when time_ns is set */
  char   *label;       /* never NULL: the text given after '=', else the time or process */
} IochartBootchartChartAnnotation;

/* Parses "TIME_OR_PROCESS[=LABEL]": TIME is "12", "12.5s", "800ms", "2m" since boot; anything else
 * names a process (its command name, or "pid:N"). */
gboolean iochart_bootchart_chart_annotation_parse (const char                      *text,
                                                   IochartBootchartChartAnnotation *annotation,
                                                   GError                         **error);
void     iochart_bootchart_chart_annotation_clear (IochartBootchartChartAnnotation *annotation);

/* One annotation a line, "#" comments and blank lines skipped. Appends to annotations (of
 * IochartBootchartChartAnnotation, with a clear func set, see _new_annotations()). Errors name the
 * file and the line. */
GArray  *iochart_bootchart_chart_annotations_new  (void);
gboolean iochart_bootchart_chart_annotations_parse_file (const char *path,
                                                         GArray     *annotations,
                                                         GError    **error);

#define IOCHART_BOOTCHART_DEFAULT_WIDTH          1600
#define IOCHART_BOOTCHART_DEFAULT_DONE_WINDOW_NS (2 * G_GINT64_CONSTANT (1000000000))

typedef struct {
  guint         width;          /* whole image, pixels; 0: IOCHART_BOOTCHART_DEFAULT_WIDTH */
  IochartTheme  theme;
  const char   *title;          /* NULL: the capture's title */
  const IochartBootchartChartAnnotation *annotations;
  guint         n_annotations;
  gint64        done_window_ns; /* "boot done": CPU and disks idle this long; 0: no milestone,
                                 * <0: the default */
  int           tree_flags;     /* IochartBootchartTreeFlags to set on the capture; <0: as it is */
  gint64        from_ns;        /* since boot; IOCHART_TIME_UNKNOWN: the first sample */
  gint64        to_ns;          /* since boot; IOCHART_TIME_UNKNOWN: the last sample */
  gint64        page_ns;        /* PDF page span; 0: automatic (one page up to 3 min, else an
                                 * overview page and one page a minute), <0: one page */
  gint64        steal_gap_ns;   /* <0: the steal analysis' default */
  gboolean      fixed_ruler;    /* a widget keeps iochart_chart_draw_ruler() above: no top axis */
} IochartBootchartChartOptions;

#define IOCHART_BOOTCHART_CHART_OPTIONS_INIT { .width = 0, .theme = IOCHART_THEME_LIGHT, \
  .done_window_ns = -1, .tree_flags = -1, .from_ns = IOCHART_TIME_UNKNOWN, \
  .to_ns = IOCHART_TIME_UNKNOWN, .page_ns = 0, .steal_gap_ns = -1 }

/* Why an annotation at at_ns is not drawn on a chart of [from_ns, to_ns] whose capture spans
 * [start_ns, end_ns] ("annotation 'fsck' at 95 s is past the end of the boot chart, which spans
 * 1.2 s to 42.3 s after boot: not drawn"), or NULL when it is drawn. what names the capture
 * ("the boot chart"), since how its times count (" after boot"). */
char    *iochart_bootchart_chart_annotation_unseen (const char *label,
                                                    gint64      at_ns,
                                                    gint64      from_ns,
                                                    gint64      to_ns,
                                                    gint64      start_ns,
                                                    gint64      end_ns,
                                                    const char *what,
                                                    const char *since);

/* Warns (g_warning, once each) of the user's annotations the chart of options cannot show: a time,
 * or a process's start, before the boot chart's first sample, past its last, or outside
 * --from/--to. A process it does not know is left to _draw(), which fails. */
void     iochart_bootchart_chart_warn_annotations  (IochartBootchart                   *bc,
                                                    const IochartBootchartChartOptions *options);

/* io (nullable) is the block I/O of the same boot: a .dat recorded with the mono clock shares the
 * bootchart's time base; other clocks are aligned by the processes both know, or by the starts
 * (and the header says so). Fails only for an annotation naming no process. */
IochartDisplayList *iochart_bootchart_chart_draw   (IochartBootchart                   *bc,
                                                    IochartCapture                     *io,
                                                    const IochartBootchartChartOptions *options,
                                                    GError                            **error);

/* "Boot done": the first time since boot after which CPU (user+sys+iowait) and every disk stay
 * under 10% busy for window_ns. FALSE when the capture never is. */
gboolean  iochart_bootchart_chart_find_boot_done   (IochartBootchart *bc,
                                                    gint64            window_ns,
                                                    gint64           *done_ns);

/* The time ranges (since boot, pairs of gint64 from,to) of the PDF pages for options->page_ns. */
GArray   *iochart_bootchart_chart_get_pages        (IochartBootchart                   *bc,
                                                    const IochartBootchartChartOptions *options);

/* Writes the outputs whose path is not NULL: SVG and PNG of the whole range (a PNG over cairo's
 * 32767 px limit is scaled down), PDF with one page per range of _get_pages(). */
gboolean  iochart_bootchart_chart_write            (IochartBootchart                   *bc,
                                                    IochartCapture                     *io,
                                                    const IochartBootchartChartOptions *options,
                                                    const char                         *svg_path,
                                                    const char                         *png_path,
                                                    const char                         *pdf_path,
                                                    GError                            **error);

/* The block I/O recorded inside a bundle of `iochart record --bootchart` (its events.dat, in the
 * folder or the archive). NULL without error when there is none. */
IochartCapture *iochart_bootchart_chart_load_bundle_io (const char *bootchart_path,
                                                        GError    **error);

G_END_DECLS
