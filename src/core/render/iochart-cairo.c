/* iochart-cairo.c: cairo backend of the display list */
#include <cairo-pdf.h>
#include <errno.h>
#include <math.h>
#include "iochart-cairo.h"
#include "iochart-output.h"
#include "iochart-error.h"
#include "iochart-png.h"

static void
set_rgba (cairo_t *cr, guint32 c)
{
  cairo_set_source_rgba (cr, ((c >> 24) & 0xff) / 255.0, ((c >> 16) & 0xff) / 255.0,
                         ((c >> 8) & 0xff) / 255.0, (c & 0xff) / 255.0);
}

static void
fill_and_stroke (cairo_t *cr, const IochartDlItem *item)
{
  if (item->fill)
    {
      set_rgba (cr, item->fill);
      if (item->stroke)
        cairo_fill_preserve (cr);
      else
        cairo_fill (cr);
    }
  if (item->stroke)
    {
      static const double dash[] = { 4.0, 3.0 };

      set_rgba (cr, item->stroke);
      cairo_set_line_width (cr, item->line_width);
      cairo_set_dash (cr, dash, item->dashed ? 2 : 0, 0);
      cairo_stroke (cr);
    }
  cairo_new_path (cr);
}

static void
draw_text (cairo_t *cr, const IochartDlItem *item)
{
  double x = item->x;

  cairo_select_font_face (cr, IOCHART_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                          item->bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, item->font_size);
  if (item->anchor == IOCHART_ANCHOR_MIDDLE)
    x -= item->w / 2;
  else if (item->anchor == IOCHART_ANCHOR_END)
    x -= item->w;
  set_rgba (cr, item->fill);
  cairo_move_to (cr, x, item->y);
  cairo_show_text (cr, item->text);
  cairo_new_path (cr);
}

static void
draw_image (cairo_t *cr, const IochartDlItem *item)
{
  cairo_surface_t *surface;

  surface = cairo_image_surface_create_for_data (item->pixels, CAIRO_FORMAT_ARGB32, item->width_px,
                                                 item->height_px, item->stride);
  cairo_save (cr);
  cairo_rectangle (cr, item->x, item->y, item->w, item->h);
  cairo_clip (cr);
  cairo_translate (cr, item->x, item->y);
  cairo_scale (cr, item->w / item->width_px, item->h / item->height_px);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_paint (cr);
  cairo_restore (cr);
  cairo_surface_destroy (surface);
}

void
iochart_cairo_draw (IochartDisplayList *dl, cairo_t *cr)
{
  cairo_font_options_t *options = cairo_font_options_create ();
  guint n = iochart_display_list_get_n_items (dl);

  /* the same metrics as the layout measured with */
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_save (cr);
  cairo_set_font_options (cr, options);
  cairo_font_options_destroy (options);

  set_rgba (cr, iochart_display_list_get_background (dl));
  cairo_paint (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < n; i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);

      switch (item->kind)
        {
        case IOCHART_DL_RECT:
          cairo_rectangle (cr, item->x, item->y, item->w, item->h);
          fill_and_stroke (cr, item);
          break;
        case IOCHART_DL_LINE:
          cairo_move_to (cr, item->x, item->y);
          cairo_line_to (cr, item->x2, item->y2);
          fill_and_stroke (cr, item);
          break;
        case IOCHART_DL_POLYGON:
        case IOCHART_DL_POLYLINE:
          for (guint k = 0; k < item->n_points; k++)
            cairo_line_to (cr, item->points[2 * k], item->points[2 * k + 1]);
          if (item->kind == IOCHART_DL_POLYGON)
            cairo_close_path (cr);
          fill_and_stroke (cr, item);
          break;
        case IOCHART_DL_TEXT:
          draw_text (cr, item);
          break;
        case IOCHART_DL_IMAGE:
          draw_image (cr, item);
          break;
        case IOCHART_DL_GROUP_BEGIN:
        case IOCHART_DL_GROUP_END:
          break;
        }
    }
  cairo_restore (cr);
}

static gboolean
check_status (cairo_status_t status, const char *path, GError **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path,
               status == CAIRO_STATUS_WRITE_ERROR ? g_strerror (errno) : cairo_status_to_string (status));
  return FALSE;
}

static gboolean
write_png (const char *path, gpointer dl, GError **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  gboolean ok;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                        (int) iochart_display_list_get_width (dl),
                                        (int) iochart_display_list_get_height (dl));
  cr = cairo_create (surface);
  iochart_cairo_draw (dl, cr);
  cairo_destroy (cr);
  ok = iochart_png_write (surface, path, error);
  cairo_surface_destroy (surface);
  return ok;
}

/* Where a page may end at or above limit: a y that cuts no text. */
static double
page_cut (IochartDisplayList *dl, double top, double limit)
{
  double y = limit;

  for (gboolean moved = TRUE; moved && y > top + 1;)
    {
      moved = FALSE;
      for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
        {
          const IochartDlItem *item = iochart_display_list_get_item (dl, i);
          double x, ty, w, h;

          if (item->kind != IOCHART_DL_TEXT)
            continue;
          iochart_dl_item_text_box (item, &x, &ty, &w, &h);
          if (ty < y && ty + h > y)
            {
              y = floor (ty);
              moved = TRUE;
            }
        }
    }
  return y > top + 1 ? y : limit;
}

/* A chart taller than a PDF page may be (200 inches) goes on as many pages as it needs. */
static void
draw_pages (IochartDisplayList *dl, cairo_surface_t *surface)
{
  double height = iochart_display_list_get_height (dl);
  cairo_t *cr = cairo_create (surface);

  for (double top = 0; top < height;)
    {
      double bottom = top + IOCHART_PDF_MAX_PAGE_HEIGHT >= height ? height
                      : page_cut (dl, top, top + IOCHART_PDF_MAX_PAGE_HEIGHT);

      cairo_pdf_surface_set_size (surface, iochart_display_list_get_width (dl), bottom - top);
      cairo_save (cr);
      cairo_translate (cr, 0, -top);
      iochart_cairo_draw (dl, cr);
      cairo_restore (cr);
      cairo_show_page (cr);
      top = bottom;
    }
  cairo_destroy (cr);
}

static gboolean
write_pdf (const char *path, gpointer dl, GError **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;

  errno = 0;
  surface = cairo_pdf_surface_create (path, iochart_display_list_get_width (dl),
                                      MIN (iochart_display_list_get_height (dl), IOCHART_PDF_MAX_PAGE_HEIGHT));
  draw_pages (dl, surface);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return check_status (status, path, error);
}

gboolean
iochart_cairo_write_png (IochartDisplayList *dl, const char *path, GError **error)
{
  return iochart_output_replace (path, write_png, dl, error);
}

gboolean
iochart_cairo_write_pdf (IochartDisplayList *dl, const char *path, GError **error)
{
  return iochart_output_replace (path, write_pdf, dl, error);
}
