/* iochart-report.h: a report one can hand on, as one self-contained HTML file or a PDF
 *
 * A report is a flat list of blocks (headings with anchors, paragraphs, tables, charts as
 * display lists, preformatted lines) built once from the analyses' figures; the HTML writer puts
 * the charts inline as SVG (no external resource), the PDF writer lays text and tables out into
 * display lists of A4 landscape pages and gives each chart a page of its own, all drawn by the
 * cairo backend.
 */
#pragma once

#include <glib.h>
#include "render/iochart-display-list.h"

G_BEGIN_DECLS

typedef enum {
  IOCHART_REPORT_HEADING,   /* level 1 or 2, with an anchor id */
  IOCHART_REPORT_TEXT,      /* a paragraph */
  IOCHART_REPORT_VERDICT,   /* the one sentence that sums the capture up */
  IOCHART_REPORT_TABLE,
  IOCHART_REPORT_CHART,     /* a display list with a caption */
  IOCHART_REPORT_CODE,      /* lines kept as they are: command lines, checksums */
} IochartReportKind;

typedef struct {
  IochartReportKind   kind;
  int                 level;
  char               *id;
  char               *text;
  GPtrArray          *columns;   /* tables: char * */
  GPtrArray          *rows;      /* tables: GStrv, as many cells as columns */
  IochartDisplayList *chart;
} IochartReportBlock;

typedef struct _IochartReport IochartReport;

IochartReport *iochart_report_new          (const char *title);
void           iochart_report_free         (IochartReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartReport, iochart_report_free)

const char    *iochart_report_get_title    (IochartReport *report);
guint          iochart_report_get_n_blocks (IochartReport *report);
const IochartReportBlock *iochart_report_get_block (IochartReport *report, guint i);

void           iochart_report_heading      (IochartReport *report, int level, const char *id, const char *text);
void           iochart_report_text         (IochartReport *report, const char *text);
void           iochart_report_verdict      (IochartReport *report, const char *text);
/* columns: NULL-terminated; rows are added with _table_row. */
void           iochart_report_table        (IochartReport *report, const char * const *columns);
void           iochart_report_table_row    (IochartReport *report, const char * const *cells);
/* Takes chart. */
void           iochart_report_chart        (IochartReport *report, IochartDisplayList *chart, const char *caption);
void           iochart_report_code         (IochartReport *report, const char *text);

/* One HTML document: inline CSS, a table of contents linking every heading, charts as inline SVG. */
char          *iochart_report_to_html      (IochartReport *report);
gboolean       iochart_report_write_html   (IochartReport *report, const char *path, GError **error);
/* A4 landscape text pages, one page per chart (as tall as the chart needs). */
gboolean       iochart_report_write_pdf    (IochartReport *report, const char *path, GError **error);

G_END_DECLS
