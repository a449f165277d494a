/* iochart-report.c: the report's blocks, written as HTML or laid out into PDF pages */
#include <string.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include "iochart-report.h"
#include "iochart-error.h"
#include "render/iochart-svg.h"
#include "render/iochart-cairo.h"
#include "render/iochart-blocks.h"

struct _IochartReport {
  char      *title;
  GPtrArray *blocks;   /* IochartReportBlock * */
};

static void
block_free (gpointer data)
{
  IochartReportBlock *b = data;

  g_free (b->id);
  g_free (b->text);
  g_clear_pointer (&b->columns, g_ptr_array_unref);
  g_clear_pointer (&b->rows, g_ptr_array_unref);
  g_clear_pointer (&b->chart, iochart_display_list_free);
  g_free (b);
}

IochartReport *
iochart_report_new (const char *title)
{
  IochartReport *r = g_new0 (IochartReport, 1);

  r->title = g_strdup (title);
  r->blocks = g_ptr_array_new_with_free_func (block_free);
  return r;
}

void
iochart_report_free (IochartReport *r)
{
  if (r == NULL)
    return;
  g_free (r->title);
  g_ptr_array_unref (r->blocks);
  g_free (r);
}

const char *
iochart_report_get_title (IochartReport *r)
{
  return r->title;
}

guint
iochart_report_get_n_blocks (IochartReport *r)
{
  return r->blocks->len;
}

const IochartReportBlock *
iochart_report_get_block (IochartReport *r, guint i)
{
  g_return_val_if_fail (i < r->blocks->len, NULL);
  return g_ptr_array_index (r->blocks, i);
}

static IochartReportBlock *
add (IochartReport *r, IochartReportKind kind, const char *text)
{
  IochartReportBlock *b = g_new0 (IochartReportBlock, 1);

  b->kind = kind;
  b->text = g_strdup (text);
  g_ptr_array_add (r->blocks, b);
  return b;
}

void
iochart_report_heading (IochartReport *r, int level, const char *id, const char *text)
{
  IochartReportBlock *b = add (r, IOCHART_REPORT_HEADING, text);

  b->level = CLAMP (level, 1, 3);
  b->id = g_strdup (id);
}

void
iochart_report_text (IochartReport *r, const char *text)
{
  add (r, IOCHART_REPORT_TEXT, text);
}

void
iochart_report_verdict (IochartReport *r, const char *text)
{
  add (r, IOCHART_REPORT_VERDICT, text);
}

void
iochart_report_code (IochartReport *r, const char *text)
{
  add (r, IOCHART_REPORT_CODE, text);
}

void
iochart_report_table (IochartReport *r, const char * const *columns)
{
  IochartReportBlock *b = add (r, IOCHART_REPORT_TABLE, NULL);

  b->columns = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; columns[i]; i++)
    g_ptr_array_add (b->columns, g_strdup (columns[i]));
  b->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

void
iochart_report_table_row (IochartReport *r, const char * const *cells)
{
  IochartReportBlock *b = r->blocks->len ? g_ptr_array_index (r->blocks, r->blocks->len - 1) : NULL;
  char **row;

  g_return_if_fail (b != NULL && b->kind == IOCHART_REPORT_TABLE);
  row = g_new0 (char *, b->columns->len + 1);
  for (guint i = 0; i < b->columns->len; i++)
    row[i] = g_strdup (cells[i] ? cells[i] : "");
  g_ptr_array_add (b->rows, row);
}

void
iochart_report_chart (IochartReport *r, IochartDisplayList *chart, const char *caption)
{
  add (r, IOCHART_REPORT_CHART, caption)->chart = chart;
}

/* ---- HTML ---- */

static const char css[] =
  "body{font-family:'DejaVu Sans',sans-serif;margin:2em auto;max-width:1600px;padding:0 1em;color:#202020}"
  "h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #ccc;margin-top:2em}h3{font-size:1.1em}"
  "nav ul{columns:3;list-style:none;padding:0}"
  "p.verdict{font-size:1.15em;font-weight:bold;border-left:4px solid #d55e00;padding-left:.6em}"
  "table{border-collapse:collapse;margin:.5em 0;font-size:.9em}"
  "th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}"
  "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}"
  "figure{margin:1em 0}figure svg{max-width:100%;height:auto;border:1px solid #ddd}"
  "figcaption{color:#555;font-size:.9em}pre{background:#f6f6f6;padding:.6em;overflow-x:auto;white-space:pre-wrap}";

/* Figures align right: a cell that starts with a digit, a sign or a dash alone. */
static gboolean
numeric (const char *cell)
{
  return (g_ascii_isdigit (cell[0]) || ((cell[0] == '+' || cell[0] == '-') && g_ascii_isdigit (cell[1]))) &&
         strchr (cell, '[') == NULL;
}

static void
html_table (GString *out, const IochartReportBlock *b)
{
  g_string_append (out, "<table>\n<thead><tr>");
  for (guint c = 0; c < b->columns->len; c++)
    {
      g_autofree char *h = g_markup_escape_text (g_ptr_array_index (b->columns, c), -1);
      g_string_append_printf (out, "<th>%s</th>", h);
    }
  g_string_append (out, "</tr></thead>\n<tbody>\n");
  for (guint i = 0; i < b->rows->len; i++)
    {
      char **row = g_ptr_array_index (b->rows, i);

      g_string_append (out, "<tr>");
      for (guint c = 0; row[c]; c++)
        {
          g_autofree char *cell = g_markup_escape_text (row[c], -1);
          g_string_append_printf (out, numeric (row[c]) ? "<td class=\"n\">%s</td>" : "<td>%s</td>", cell);
        }
      g_string_append (out, "</tr>\n");
    }
  g_string_append (out, "</tbody>\n</table>\n");
}

static void
html_chart (GString *out, const IochartReportBlock *b)
{
  g_autofree char *svg = iochart_svg_to_string (b->chart, NULL);
  const char *start = strstr (svg, "<svg");
  g_autofree char *caption = g_markup_escape_text (b->text ? b->text : "", -1);

  /* inline: the XML prolog has no place inside HTML */
  g_string_append_printf (out, "<figure>\n%s<figcaption>%s</figcaption>\n</figure>\n", start ? start : svg, caption);
}

char *
iochart_report_to_html (IochartReport *r)
{
  GString *out = g_string_new ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
  g_autofree char *title = g_markup_escape_text (r->title, -1);

  g_string_append_printf (out, "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n<h1 id=\"top\">%s</h1>\n",
                          title, css, title);
  g_string_append (out, "<nav>\n<ul>\n");
  for (guint i = 0; i < r->blocks->len; i++)
    {
      const IochartReportBlock *b = g_ptr_array_index (r->blocks, i);
      g_autofree char *text = NULL;

      if (b->kind != IOCHART_REPORT_HEADING || b->level != 2 || b->id == NULL)
        continue;
      text = g_markup_escape_text (b->text, -1);
      g_string_append_printf (out, "<li><a href=\"#%s\">%s</a></li>\n", b->id, text);
    }
  g_string_append (out, "</ul>\n</nav>\n");
  for (guint i = 0; i < r->blocks->len; i++)
    {
      const IochartReportBlock *b = g_ptr_array_index (r->blocks, i);
      g_autofree char *text = b->text ? g_markup_escape_text (b->text, -1) : NULL;

      switch (b->kind)
        {
        case IOCHART_REPORT_HEADING:
          if (b->id)
            g_string_append_printf (out, "<h%d id=\"%s\">%s</h%d>\n", b->level, b->id, text, b->level);
          else
            g_string_append_printf (out, "<h%d>%s</h%d>\n", b->level, text, b->level);
          break;
        case IOCHART_REPORT_TEXT:
          g_string_append_printf (out, "<p>%s</p>\n", text);
          break;
        case IOCHART_REPORT_VERDICT:
          g_string_append_printf (out, "<p class=\"verdict\">%s</p>\n", text);
          break;
        case IOCHART_REPORT_CODE:
          g_string_append_printf (out, "<pre>%s</pre>\n", text);
          break;
        case IOCHART_REPORT_TABLE:
          html_table (out, b);
          break;
        case IOCHART_REPORT_CHART:
          html_chart (out, b);
          break;
        }
    }
  g_string_append (out, "</body>\n</html>\n");
  return g_string_free (out, FALSE);
}

gboolean
iochart_report_write_html (IochartReport *r, const char *path, GError **error)
{
  g_autofree char *html = iochart_report_to_html (r);
  g_autoptr(GError) local = NULL;

  if (!g_file_set_contents (path, html, -1, &local))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, local->message);
      return FALSE;
    }
  return TRUE;
}

/* ---- PDF: blocks laid out into pages of display lists ---- */

#define PAGE_W   842.0   /* A4 landscape, points */
#define PAGE_H   595.0
#define MARGIN   36.0
#define TEXT_W   (PAGE_W - 2 * MARGIN)
#define BODY     9.5
#define LINE     13.0
#define INK      0x202020ffu
#define DIM      0x606060ffu
#define RULE     0xc8c8c8ffu
#define ACCENT   0xd55e00ffu

typedef struct {
  cairo_surface_t    *surface;
  cairo_t            *cr;
  IochartDisplayList *page;    /* the text page being filled, or NULL */
  double              y;
  guint               n_pages;
  const char         *heading; /* a heading that goes on the next chart's page */
} Pdf;

static void
pdf_flush (Pdf *p)
{
  if (p->page == NULL)
    return;
  cairo_pdf_surface_set_size (p->surface, PAGE_W, PAGE_H);
  iochart_cairo_draw (p->page, p->cr);
  cairo_show_page (p->cr);
  p->n_pages++;
  g_clear_pointer (&p->page, iochart_display_list_free);
}

/* Room for h more points on the current text page, starting a new one when needed. */
static void
pdf_room (Pdf *p, double h)
{
  if (p->page != NULL && p->y + h <= PAGE_H - MARGIN)
    return;
  pdf_flush (p);
  p->page = iochart_display_list_new (PAGE_W, PAGE_H);
  iochart_display_list_set_background (p->page, 0xffffffffu);
  p->y = MARGIN;
}

static void
pdf_lines (Pdf *p, const char *text, double size, gboolean bold, guint32 color, double indent)
{
  g_auto(GStrv) paras = g_strsplit (text, "\n", -1);

  for (guint i = 0; paras[i]; i++)
    {
      g_autoptr(GPtrArray) lines = iochart_text_wrap (paras[i], size, bold, TEXT_W - indent);

      for (guint l = 0; l < MAX (lines->len, 1u); l++)
        {
          pdf_room (p, size * 1.4);
          p->y += size * 1.4;
          if (l < lines->len)
            iochart_display_list_text (p->page, MARGIN + indent, p->y - size * 0.3, g_ptr_array_index (lines, l),
                                       size, bold, IOCHART_ANCHOR_START, color);
        }
    }
}

/* Column widths: what the widest cell needs, shrunk in proportion when the page is narrower. */
static double *
column_widths (const IochartReportBlock *b)
{
  guint n = b->columns->len;
  double *w = g_new0 (double, n), total = 0;

  for (guint c = 0; c < n; c++)
    w[c] = iochart_text_width (g_ptr_array_index (b->columns, c), BODY, TRUE) + 10;
  for (guint i = 0; i < b->rows->len; i++)
    for (guint c = 0; c < n; c++)
      w[c] = MAX (w[c], iochart_text_width (((char **) g_ptr_array_index (b->rows, i))[c], BODY, FALSE) + 10);
  for (guint c = 0; c < n; c++)
    total += w[c];
  if (total > TEXT_W)
    for (guint c = 0; c < n; c++)
      w[c] *= TEXT_W / total;
  return w;
}

static void
pdf_row (Pdf *p, char **cells, guint n, const double *w, gboolean bold)
{
  double x = MARGIN;

  pdf_room (p, LINE);
  if (bold)
    iochart_display_list_rect (p->page, MARGIN, p->y, TEXT_W, LINE, 0xf0f0f0ffu, 0);
  for (guint c = 0; c < n; c++)
    {
      g_autofree char *cell = iochart_text_ellipsize (cells[c], BODY, bold, w[c] - 8);
      gboolean right = !bold && numeric (cells[c]);

      iochart_display_list_text (p->page, right ? x + w[c] - 4 : x + 4, p->y + LINE - 3.5, cell, BODY, bold,
                                 right ? IOCHART_ANCHOR_END : IOCHART_ANCHOR_START, INK);
      x += w[c];
    }
  p->y += LINE;
  iochart_display_list_line (p->page, MARGIN, p->y, MARGIN + TEXT_W, p->y, RULE, 0.5);
}

static void
pdf_table (Pdf *p, const IochartReportBlock *b)
{
  g_autofree double *w = column_widths (b);
  guint n = b->columns->len;

  pdf_room (p, 3 * LINE);
  pdf_row (p, (char **) b->columns->pdata, n, w, TRUE);
  for (guint i = 0; i < b->rows->len; i++)
    {
      /* a table going on to the next page repeats its header there */
      if (p->y + LINE > PAGE_H - MARGIN)
        {
          pdf_room (p, 2 * LINE);
          pdf_row (p, (char **) b->columns->pdata, n, w, TRUE);
        }
      pdf_row (p, g_ptr_array_index (b->rows, i), n, w, FALSE);
    }
  p->y += 8;
}

/* A chart gets a page of its own, as wide as a text page and as tall as the chart needs. */
static void
pdf_chart (Pdf *p, const IochartReportBlock *b)
{
  double cw = iochart_display_list_get_width (b->chart), ch = iochart_display_list_get_height (b->chart);
  g_autoptr(GPtrArray) lines = iochart_text_wrap (b->text ? b->text : "", BODY, FALSE, TEXT_W);
  double head_h = p->heading ? 2 * LINE : 0;
  double scale = MIN (1.0, TEXT_W / cw), caption_h = head_h + (lines->len + 1) * LINE;
  double h = MIN (ch * scale + caption_h + 2 * MARGIN, 14400);
  g_autoptr(IochartDisplayList) caption = iochart_display_list_new (PAGE_W, h);

  if (ch * scale + caption_h + 2 * MARGIN > h)
    scale = (h - caption_h - 2 * MARGIN) / ch;
  pdf_flush (p);
  cairo_pdf_surface_set_size (p->surface, PAGE_W, h);
  iochart_display_list_set_background (caption, 0xffffffffu);
  if (p->heading)
    iochart_display_list_text (caption, MARGIN, MARGIN + 14, p->heading, 14, TRUE, IOCHART_ANCHOR_START, INK);
  p->heading = NULL;
  for (guint l = 0; l < lines->len; l++)
    iochart_display_list_text (caption, MARGIN, MARGIN + head_h + BODY + l * LINE, g_ptr_array_index (lines, l), BODY,
                               FALSE, IOCHART_ANCHOR_START, DIM);
  /* the chart paints its background over the page: the caption goes on top */
  cairo_save (p->cr);
  cairo_translate (p->cr, MARGIN, MARGIN + caption_h);
  cairo_scale (p->cr, scale, scale);
  iochart_cairo_draw (b->chart, p->cr);
  cairo_restore (p->cr);
  iochart_display_list_set_background (caption, 0);
  iochart_cairo_draw (caption, p->cr);
  cairo_show_page (p->cr);
  p->n_pages++;
}

gboolean
iochart_report_write_pdf (IochartReport *r, const char *path, GError **error)
{
  Pdf p = { 0 };
  cairo_status_t status;

  p.surface = cairo_pdf_surface_create (path, PAGE_W, PAGE_H);
  p.cr = cairo_create (p.surface);
  cairo_pdf_surface_set_metadata (p.surface, CAIRO_PDF_METADATA_TITLE, r->title);
  cairo_pdf_surface_set_metadata (p.surface, CAIRO_PDF_METADATA_CREATOR, "iochart " PACKAGE_VERSION);
  pdf_lines (&p, r->title, 18, TRUE, INK, 0);
  p.y += 6;
  for (guint i = 0; i < r->blocks->len; i++)
    {
      const IochartReportBlock *b = g_ptr_array_index (r->blocks, i);

      switch (b->kind)
        {
        case IOCHART_REPORT_HEADING:
          /* a heading over a chart goes on the chart's own page */
          if (i + 1 < r->blocks->len &&
              ((IochartReportBlock *) g_ptr_array_index (r->blocks, i + 1))->kind == IOCHART_REPORT_CHART)
            {
              p.heading = b->text;
              break;
            }
          pdf_room (&p, 4 * LINE);   /* no heading alone at a page's foot */
          p.y += b->level == 2 ? 10 : 4;
          pdf_lines (&p, b->text, b->level == 2 ? 14 : 11.5, TRUE, INK, 0);
          p.y += 3;
          break;
        case IOCHART_REPORT_TEXT:
          pdf_lines (&p, b->text, BODY, FALSE, INK, 0);
          p.y += 4;
          break;
        case IOCHART_REPORT_VERDICT:
          pdf_lines (&p, b->text, 12, TRUE, ACCENT, 0);
          p.y += 6;
          break;
        case IOCHART_REPORT_CODE:
          pdf_lines (&p, b->text, BODY - 1, FALSE, DIM, 8);
          p.y += 4;
          break;
        case IOCHART_REPORT_TABLE:
          pdf_table (&p, b);
          break;
        case IOCHART_REPORT_CHART:
          pdf_chart (&p, b);
          break;
        }
    }
  pdf_flush (&p);
  cairo_destroy (p.cr);
  cairo_surface_finish (p.surface);
  status = cairo_surface_status (p.surface);
  cairo_surface_destroy (p.surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
