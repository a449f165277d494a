/* iochart-display-list.c: the item store, headless text measurement and the golden dump */
#include <cairo.h>
#include <string.h>
#include "iochart-display-list.h"
#include "iochart-format.h"
#include "iochart-fonts-private.h"
#include "iochart-font-metrics-private.h"

struct _IochartDisplayList {
  double   width, height;
  guint32  background;
  GArray  *items;
  gboolean has_axis;
  double   axis_x0, axis_width;
  gint64   axis_from_ns, axis_to_ns;
  double   plot_top;
  /* the text telling the range shown: its item, where the range lies in it, its origin */
  gboolean has_range_text;
  guint    range_item;
  gsize    range_at, range_len;
  gint64   range_origin_ns;
};

static void
clear_item (gpointer data)
{
  IochartDlItem *item = data;

  g_free (item->points);
  g_free (item->text);
  g_free (item->pixels);
  g_free (item->tooltip);
  g_free (item->meta);
}

IochartDisplayList *
iochart_display_list_new (double width, double height)
{
  IochartDisplayList *dl = g_new0 (IochartDisplayList, 1);

  dl->width = width;
  dl->height = height;
  dl->background = 0xffffffff;
  dl->items = g_array_new (FALSE, TRUE, sizeof (IochartDlItem));
  g_array_set_clear_func (dl->items, clear_item);
  return dl;
}

void
iochart_display_list_free (IochartDisplayList *dl)
{
  if (dl == NULL)
    return;
  g_array_unref (dl->items);
  g_free (dl);
}

double iochart_display_list_get_width (IochartDisplayList *dl) { return dl->width; }
double iochart_display_list_get_height (IochartDisplayList *dl) { return dl->height; }
void iochart_display_list_set_height (IochartDisplayList *dl, double height) { dl->height = height; }
guint32 iochart_display_list_get_background (IochartDisplayList *dl) { return dl->background; }
void iochart_display_list_set_background (IochartDisplayList *dl, guint32 rgba) { dl->background = rgba; }
guint iochart_display_list_get_n_items (IochartDisplayList *dl) { return dl->items->len; }

const IochartDlItem *
iochart_display_list_get_item (IochartDisplayList *dl, guint i)
{
  g_return_val_if_fail (i < dl->items->len, NULL);
  return &g_array_index (dl->items, IochartDlItem, i);
}

void
iochart_display_list_append_list (IochartDisplayList *dl, IochartDisplayList *from)
{
  g_array_append_vals (dl->items, from->items->data, from->items->len);
  /* the items now belong to dl: drop them from from without clearing */
  g_array_set_clear_func (from->items, NULL);
  g_array_set_size (from->items, 0);
  g_array_set_clear_func (from->items, clear_item);
}

void
iochart_display_list_translate (IochartDisplayList *dl, double dx, double dy)
{
  for (guint i = 0; i < dl->items->len; i++)
    {
      IochartDlItem *it = &g_array_index (dl->items, IochartDlItem, i);

      it->x += dx, it->y += dy, it->x2 += dx, it->y2 += dy;
      for (guint k = 0; it->points && k < it->n_points; k++)
        it->points[2 * k] += dx, it->points[2 * k + 1] += dy;
    }
}

static IochartDlItem *
append (IochartDisplayList *dl, IochartDlKind kind)
{
  IochartDlItem item = { .kind = kind, .line_width = 1.0 };

  g_array_append_val (dl->items, item);
  return &g_array_index (dl->items, IochartDlItem, dl->items->len - 1);
}

IochartDlItem *
iochart_display_list_rect (IochartDisplayList *dl, double x, double y, double w, double h,
                           guint32 fill, guint32 stroke)
{
  IochartDlItem *item = append (dl, IOCHART_DL_RECT);

  item->x = x;
  item->y = y;
  item->w = w;
  item->h = h;
  item->fill = fill;
  item->stroke = stroke;
  return item;
}

IochartDlItem *
iochart_display_list_line (IochartDisplayList *dl, double x, double y, double x2, double y2,
                           guint32 stroke, double line_width)
{
  IochartDlItem *item = append (dl, IOCHART_DL_LINE);

  item->x = x;
  item->y = y;
  item->x2 = x2;
  item->y2 = y2;
  item->stroke = stroke;
  item->line_width = line_width;
  return item;
}

static IochartDlItem *
poly (IochartDisplayList *dl, IochartDlKind kind, double *points, guint n_points)
{
  IochartDlItem *item = append (dl, kind);

  item->points = points;
  item->n_points = n_points;
  return item;
}

IochartDlItem *
iochart_display_list_polygon (IochartDisplayList *dl, double *points, guint n_points, guint32 fill)
{
  IochartDlItem *item = poly (dl, IOCHART_DL_POLYGON, points, n_points);

  item->fill = fill;
  return item;
}

IochartDlItem *
iochart_display_list_polyline (IochartDisplayList *dl, double *points, guint n_points,
                               guint32 stroke, double line_width)
{
  IochartDlItem *item = poly (dl, IOCHART_DL_POLYLINE, points, n_points);

  item->stroke = stroke;
  item->line_width = line_width;
  return item;
}

IochartDlItem *
iochart_display_list_text (IochartDisplayList *dl, double x, double y, const char *text,
                           double font_size, gboolean bold, IochartAnchor anchor, guint32 fill)
{
  IochartDlItem *item = append (dl, IOCHART_DL_TEXT);
  double ascent, descent;

  iochart_font_extents (font_size, &ascent, &descent);
  item->x = x;
  item->y = y;
  item->text = g_strdup (text);
  item->font_size = font_size;
  item->bold = bold;
  item->anchor = anchor;
  item->fill = fill;
  item->w = iochart_text_width (text, font_size, bold);
  item->h = ascent + descent;
  return item;
}

IochartDlItem *
iochart_display_list_image (IochartDisplayList *dl, double x, double y, double w, double h,
                            guint8 *pixels, int width_px, int height_px, int stride)
{
  IochartDlItem *item = append (dl, IOCHART_DL_IMAGE);

  item->x = x;
  item->y = y;
  item->w = w;
  item->h = h;
  item->pixels = pixels;
  item->width_px = width_px;
  item->height_px = height_px;
  item->stride = stride;
  return item;
}

IochartDlItem *
iochart_display_list_begin_group (IochartDisplayList *dl, const char *tooltip, const char *meta)
{
  IochartDlItem *item = append (dl, IOCHART_DL_GROUP_BEGIN);

  item->tooltip = g_strdup (tooltip);
  item->meta = g_strdup (meta);
  return item;
}

void
iochart_display_list_end_group (IochartDisplayList *dl)
{
  append (dl, IOCHART_DL_GROUP_END);
}

void
iochart_dl_item_set_tooltip (IochartDlItem *item, const char *tooltip)
{
  g_free (item->tooltip);
  item->tooltip = g_strdup (tooltip);
}

void
iochart_dl_item_set_meta (IochartDlItem *item, const char *meta)
{
  g_free (item->meta);
  item->meta = g_strdup (meta);
}

void
iochart_dl_item_text_box (const IochartDlItem *item, double *x, double *y, double *w, double *h)
{
  double ascent, descent;

  iochart_font_extents (item->font_size, &ascent, &descent);
  *w = item->w;
  *h = ascent + descent;
  *x = item->x - (item->anchor == IOCHART_ANCHOR_MIDDLE ? item->w / 2
                  : item->anchor == IOCHART_ANCHOR_END ? item->w : 0);
  *y = item->y - ascent;
}

/* One measuring context for the process: cairo contexts are not thread-safe, hence the lock.
 * Hinting is off so that measured advances do not depend on the output device. */
static GMutex measure_lock;

static cairo_t *
measure_context (void)
{
  static cairo_t *cr;

  if (cr == NULL)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
      cairo_font_options_t *options = cairo_font_options_create ();

      cr = cairo_create (surface);
      cairo_surface_destroy (surface);
      cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
      cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
      cairo_set_font_options (cr, options);
      cairo_font_options_destroy (options);
    }
  return cr;
}

/* A width measured, with a reference to its face (so that no other face takes its address
 * while the key names it). */
typedef struct {
  double             width;
  cairo_font_face_t *face;
} KnownWidth;

static void
known_width_free (gpointer p)
{
  KnownWidth *k = p;

  cairo_font_face_destroy (k->face);
  g_free (k);
}

/* Widths by face, size, weight and text: a chart measures the same labels every frame, and
 * cairo's layout of one cost more than a frame's sector map. */
static GHashTable *known_widths;

static double
cairo_width (const char *text, double font_size, gboolean bold)
{
  cairo_text_extents_t ext;
  cairo_font_face_t *face;
  KnownWidth *known;
  char *key;
  cairo_t *cr;

  g_mutex_lock (&measure_lock);
  cr = measure_context ();
  iochart_fonts_select (cr, font_size, bold);
  face = cairo_get_font_face (cr);
  key = g_strdup_printf ("%p %a %d %s", (void *) face, font_size, bold != FALSE, text);
  if (known_widths == NULL)
    known_widths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, known_width_free);
  known = g_hash_table_lookup (known_widths, key);
  if (known)
    {
      double width = known->width;

      g_mutex_unlock (&measure_lock);
      g_free (key);
      return width;
    }
  cairo_text_extents (cr, text, &ext);
  /* bounded: the time axis's labels change as it pans */
  if (g_hash_table_size (known_widths) >= 8192)
    g_hash_table_remove_all (known_widths);
  known = g_new (KnownWidth, 1);
  known->width = ext.x_advance;
  known->face = cairo_font_face_reference (face);
  g_hash_table_insert (known_widths, key, known);
  g_mutex_unlock (&measure_lock);
  return ext.x_advance;
}

double
iochart_text_width (const char *text, double font_size, gboolean bold)
{
  double width;

  if (_iochart_fonts_pinned_in_use () && _iochart_font_metrics_width (text, font_size, bold, &width))
    return width;
  return cairo_width (text, font_size, bold);
}

void
iochart_font_extents (double font_size, double *ascent, double *descent)
{
  /* a chart uses a few sizes, and asks once a text item each time it is drawn */
  static struct { double size, ascent, descent; } known[8];
  static guint n_known;
  cairo_font_extents_t ext;
  cairo_t *cr;
  guint i;

  if (_iochart_fonts_pinned_in_use () && _iochart_font_metrics_extents (font_size, ascent, descent))
    return;
  g_mutex_lock (&measure_lock);
  for (i = 0; i < n_known && known[i].size != font_size; i++)
    ;
  if (i == n_known)
    {
      cr = measure_context ();
      iochart_fonts_select (cr, font_size, FALSE);
      cairo_font_extents (cr, &ext);
      i = n_known < G_N_ELEMENTS (known) ? n_known++ : 0;
      known[i].size = font_size, known[i].ascent = ext.ascent, known[i].descent = ext.descent;
    }
  *ascent = known[i].ascent;
  *descent = known[i].descent;
  g_mutex_unlock (&measure_lock);
}

static gpointer
prepare (gpointer unused)
{
  /* cairo loaded and the faces made, for drawing when the table measures */
  cairo_width ("0", 10, FALSE);
  return NULL;
}

void
iochart_text_prepare (gboolean cairo_drawing)
{
  static gsize once;

  /* the table measures: only drawing needs cairo */
  if (!cairo_drawing && _iochart_fonts_pinned_in_use ())
    return;
  if (g_once_init_enter (&once))
    {
      GThread *thread = g_thread_try_new ("iochart-fonts", prepare, NULL, NULL);

      if (thread != NULL)
        g_thread_unref (thread);
      g_once_init_leave (&once, 1);
    }
}

char *
iochart_text_ellipsize (const char *text, double font_size, gboolean bold, double max_width)
{
  glong n = g_utf8_strlen (text, -1), lo = 0, hi = n;

  if (iochart_text_width (text, font_size, bold) <= max_width)
    return g_strdup (text);
  /* the longest prefix that fits with the ellipsis */
  while (lo < hi)
    {
      glong mid = (lo + hi + 1) / 2;
      g_autofree char *prefix = g_utf8_substring (text, 0, mid);
      g_autofree char *candidate = g_strconcat (prefix, "…", NULL);

      if (iochart_text_width (candidate, font_size, bold) <= max_width)
        lo = mid;
      else
        hi = mid - 1;
    }
  {
    g_autofree char *prefix = g_utf8_substring (text, 0, lo);
    g_strchomp (prefix);
    return g_strconcat (prefix, "…", NULL);
  }
}

gboolean
iochart_display_list_find_text_overlap (IochartDisplayList *dl, guint *a, guint *b)
{
  for (guint i = 0; i < dl->items->len; i++)
    {
      const IochartDlItem *p = &g_array_index (dl->items, IochartDlItem, i);
      double px, py, pw, ph;

      if (p->kind != IOCHART_DL_TEXT || !p->text[0])
        continue;
      iochart_dl_item_text_box (p, &px, &py, &pw, &ph);
      for (guint j = i + 1; j < dl->items->len; j++)
        {
          const IochartDlItem *q = &g_array_index (dl->items, IochartDlItem, j);
          double qx, qy, qw, qh;

          if (q->kind != IOCHART_DL_TEXT || !q->text[0])
            continue;
          iochart_dl_item_text_box (q, &qx, &qy, &qw, &qh);
          if (px < qx + qw && qx < px + pw && py < qy + qh && qy < py + ph)
            {
              if (a)
                *a = i;
              if (b)
                *b = j;
              return TRUE;
            }
        }
    }
  return FALSE;
}

static const char * const kind_names[] = {
  "rect", "line", "polygon", "polyline", "text", "image", "group", "end",
};

static void
append_extras (GString *out, const IochartDlItem *item)
{
  if (item->tooltip)
    {
      g_autofree char *escaped = g_strescape (item->tooltip, "");
      g_string_append_printf (out, " tooltip=\"%s\"", escaped);
    }
  if (item->meta)
    g_string_append_printf (out, " meta=%s", item->meta);
  g_string_append_c (out, '\n');
}

char *
iochart_display_list_to_text (IochartDisplayList *dl)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "size %.1f %.1f bg %08x\n", dl->width, dl->height, dl->background);
  for (guint i = 0; i < dl->items->len; i++)
    {
      const IochartDlItem *item = &g_array_index (dl->items, IochartDlItem, i);

      g_string_append (out, kind_names[item->kind]);
      switch (item->kind)
        {
        case IOCHART_DL_RECT:
          g_string_append_printf (out, " %.1f %.1f %.1f %.1f fill=%08x stroke=%08x",
                                  item->x, item->y, item->w, item->h, item->fill, item->stroke);
          break;
        case IOCHART_DL_IMAGE:
          {
            g_autofree char *sum = g_compute_checksum_for_data (G_CHECKSUM_SHA1, item->pixels,
                                                                (gsize) item->stride * item->height_px);
            g_string_append_printf (out, " %.1f %.1f %.1f %.1f %dx%d sha1=%s", item->x, item->y,
                                    item->w, item->h, item->width_px, item->height_px, sum);
          }
          break;
        case IOCHART_DL_LINE:
          g_string_append_printf (out, " %.1f %.1f %.1f %.1f stroke=%08x w=%.1f%s",
                                  item->x, item->y, item->x2, item->y2, item->stroke,
                                  item->line_width, item->dashed ? " dashed" : "");
          break;
        case IOCHART_DL_POLYGON:
        case IOCHART_DL_POLYLINE:
          g_string_append_printf (out, " n=%u fill=%08x stroke=%08x%s", item->n_points,
                                  item->fill, item->stroke, item->dashed ? " dashed" : "");
          for (guint k = 0; k < item->n_points; k++)
            g_string_append_printf (out, " %.1f,%.1f", item->points[2 * k], item->points[2 * k + 1]);
          break;
        case IOCHART_DL_TEXT:
          {
            g_autofree char *escaped = g_strescape (item->text, "");
            g_string_append_printf (out, " %.1f %.1f size=%.1f%s anchor=%d fill=%08x w=%.1f \"%s\"",
                                    item->x, item->y, item->font_size, item->bold ? " bold" : "",
                                    item->anchor, item->fill, item->w, escaped);
          }
          break;
        case IOCHART_DL_GROUP_BEGIN:
        case IOCHART_DL_GROUP_END:
          break;
        }
      append_extras (out, item);
    }
  return g_string_free (out, FALSE);
}

/* ---- the time axis and hit testing, for widgets ---- */

void
iochart_display_list_set_time_axis (IochartDisplayList *dl, double x0, double width, gint64 from_ns,
                                    gint64 to_ns)
{
  dl->has_axis = TRUE;
  dl->axis_x0 = x0;
  dl->axis_width = width;
  dl->axis_from_ns = from_ns;
  dl->axis_to_ns = to_ns;
}

/* "0 s – 1.8 s": a range's ends as a chart's header tells them. */
static char *
range_ends (gint64 from_ns, gint64 to_ns, gint64 origin_ns)
{
  g_autofree char *a = iochart_format_duration (from_ns - origin_ns);
  g_autofree char *b = iochart_format_duration (to_ns - origin_ns);

  return g_strdup_printf ("%s – %s", a, b);
}

gboolean
iochart_display_list_set_range_text (IochartDisplayList *dl, gint64 from_ns, gint64 to_ns, gint64 origin_ns)
{
  g_autofree char *range = range_ends (from_ns, to_ns, origin_ns);

  dl->has_range_text = FALSE;
  for (guint i = 0; i < dl->items->len; i++)
    {
      const IochartDlItem *item = &g_array_index (dl->items, IochartDlItem, i);
      const char *at = item->kind == IOCHART_DL_TEXT ? strstr (item->text, range) : NULL;

      if (at == NULL)
        continue;
      dl->has_range_text = TRUE;
      dl->range_item = i;
      dl->range_at = at - item->text;
      dl->range_len = strlen (range);
      dl->range_origin_ns = origin_ns;
      return TRUE;
    }
  return FALSE;
}

char *
iochart_display_list_range_text (IochartDisplayList *dl, gint64 from_ns, gint64 to_ns, guint *item)
{
  const IochartDlItem *it;
  g_autofree char *range = NULL;

  if (!dl->has_range_text || dl->range_item >= dl->items->len)
    return NULL;
  it = &g_array_index (dl->items, IochartDlItem, dl->range_item);
  if (it->kind != IOCHART_DL_TEXT || strlen (it->text) < dl->range_at + dl->range_len)
    return NULL;
  range = range_ends (from_ns, to_ns, dl->range_origin_ns);
  *item = dl->range_item;
  return g_strdup_printf ("%.*s%s%s", (int) dl->range_at, it->text, range, it->text + dl->range_at + dl->range_len);
}

void
iochart_display_list_set_plot_top (IochartDisplayList *dl, double y)
{
  dl->plot_top = y;
}

double
iochart_display_list_get_plot_top (IochartDisplayList *dl)
{
  return dl->plot_top;
}

gboolean
iochart_display_list_get_time_axis (IochartDisplayList *dl, double *x0, double *width, gint64 *from_ns,
                                    gint64 *to_ns)
{
  if (!dl->has_axis)
    return FALSE;
  *x0 = dl->axis_x0;
  *width = dl->axis_width;
  *from_ns = dl->axis_from_ns;
  *to_ns = dl->axis_to_ns;
  return TRUE;
}

static gboolean
item_contains (cairo_t *cr, const IochartDlItem *item, double x, double y)
{
  double bx, by, bw, bh;

  switch (item->kind)
    {
    case IOCHART_DL_RECT:
    case IOCHART_DL_IMAGE:
      return x >= item->x && x < item->x + MAX (item->w, 1) && y >= item->y && y < item->y + MAX (item->h, 1);
    case IOCHART_DL_TEXT:
      iochart_dl_item_text_box (item, &bx, &by, &bw, &bh);
      return x >= bx && x < bx + bw && y >= by && y < by + bh;
    case IOCHART_DL_LINE:
    case IOCHART_DL_POLYGON:
    case IOCHART_DL_POLYLINE:
      cairo_new_path (cr);
      if (item->kind == IOCHART_DL_LINE)
        {
          cairo_move_to (cr, item->x, item->y);
          cairo_line_to (cr, item->x2, item->y2);
        }
      else
        for (guint k = 0; k < item->n_points; k++)
          cairo_line_to (cr, item->points[2 * k], item->points[2 * k + 1]);
      if (item->kind == IOCHART_DL_POLYGON)
        {
          cairo_close_path (cr);
          return cairo_in_fill (cr, x, y);
        }
      /* a line is hard to hit: a few pixels either side count */
      cairo_set_line_width (cr, MAX (item->line_width, 1) + 6);
      return cairo_in_stroke (cr, x, y);
    default:
      return FALSE;
    }
}

const IochartDlItem *
iochart_display_list_hit (IochartDisplayList *dl, double x, double y)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();
  const IochartDlItem *hit = NULL;

  for (guint i = 0; i < dl->items->len; i++)
    {
      const IochartDlItem *item = &g_array_index (dl->items, IochartDlItem, i);
      const IochartDlItem *group = groups->len ? groups->pdata[groups->len - 1] : NULL;

      if (item->kind == IOCHART_DL_GROUP_BEGIN)
        g_ptr_array_add (groups, (gpointer) item);
      else if (item->kind == IOCHART_DL_GROUP_END)
        {
          if (groups->len)
            g_ptr_array_set_size (groups, groups->len - 1);
        }
      else if ((item->tooltip || item->meta || group) && item_contains (cr, item, x, y))
        hit = item->tooltip || item->meta || !group ? item : group;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return hit;
}
