/* iochart-cairo.c: cairo backend of the display list */
#include <cairo-pdf.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include "iochart-cairo.h"
#include "iochart-output.h"
#include "iochart-error.h"
#include "iochart-png.h"
#include "iochart-fonts.h"

/* the dash pattern of dashed strokes (fill_and_stroke), its period, and the largest coordinate
 * that user space, device space and cairo's 24.8 fixed point all hold exactly */
#define DASH_ON 4.0
#define DASH_OFF 3.0
#define EXACT_LIMIT 1048576.0

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
      static const double dash[] = { DASH_ON, DASH_OFF };

      set_rgba (cr, item->stroke);
      cairo_set_line_width (cr, item->line_width);
      cairo_set_dash (cr, dash, item->dashed ? 2 : 0, 0);
      cairo_stroke (cr);
    }
  cairo_new_path (cr);
}

/* A label's glyphs in a scaled font: their indices and advances, whatever the label's position. */
typedef struct
{
  unsigned long index;
  double dx, dy;
} RunGlyph;

typedef struct
{
  cairo_scaled_font_t *font;    /* a reference: no other font gets its address while kept */
  char *text;
  int n;
  RunGlyph glyphs[];
} GlyphRun;

/* The most runs kept: the labels of a few frames (lanes, ticks, legends) */
#define MAX_GLYPH_RUNS 4096

static GMutex runs_lock;
static GHashTable *runs;        /* GlyphRun -> itself */

static guint
glyph_run_hash (gconstpointer p)
{
  const GlyphRun *run = p;

  return g_str_hash (run->text) ^ g_direct_hash (run->font);
}

static gboolean
glyph_run_equal (gconstpointer a, gconstpointer b)
{
  const GlyphRun *x = a, *y = b;

  return x->font == y->font && strcmp (x->text, y->text) == 0;
}

static void
glyph_run_free (gpointer p)
{
  GlyphRun *run = p;

  cairo_scaled_font_destroy (run->font);
  g_free (run->text);
  g_free (run);
}

/* The run as cairo_scaled_font_text_to_glyphs makes it: each glyph's advance is its metrics'
 * (the extents of the glyph alone at 0), which that function adds up from the text's start.
 * NULL: text that function refuses (cairo_show_text then sets the error). */
static GlyphRun *
glyph_run_new (cairo_scaled_font_t *font, const char *text)
{
  cairo_glyph_t *glyphs = NULL;
  int n = 0;
  GlyphRun *run;

  if (cairo_scaled_font_text_to_glyphs (font, 0, 0, text, -1, &glyphs, &n, NULL, NULL, NULL) != CAIRO_STATUS_SUCCESS)
    return NULL;
  run = g_malloc (sizeof (GlyphRun) + sizeof (RunGlyph) * n);
  run->font = cairo_scaled_font_reference (font);
  run->text = g_strdup (text);
  run->n = n;
  for (int i = 0; i < n; i++)
    {
      cairo_glyph_t alone = { glyphs[i].index, 0, 0 };
      cairo_text_extents_t e;

      cairo_scaled_font_glyph_extents (font, &alone, 1, &e);
      run->glyphs[i] = (RunGlyph) { glyphs[i].index, e.x_advance, e.y_advance };
    }
  cairo_glyph_free (glyphs);
  return run;
}

/* Text at the current point as cairo_show_text draws it on a target without text of its own
 * (a raster): the same glyphs at the same positions, but each label's glyphs looked up once, not
 * in every frame (its characters decoded, each glyph found under the font's lock, and the last
 * one's extents taken for a current point we do not use). FALSE: left to cairo_show_text. */
static gboolean
show_glyph_run (cairo_t *cr, const char *text)
{
  cairo_scaled_font_t *font = cairo_get_scaled_font (cr);
  GlyphRun key = { font, (char *) text, 0 }, *run;
  cairo_glyph_t stack[64], *glyphs;
  double x, y;
  int n;

  if (cairo_surface_has_show_text_glyphs (cairo_get_target (cr)) || cairo_scaled_font_status (font) != CAIRO_STATUS_SUCCESS)
    return FALSE;
  g_mutex_lock (&runs_lock);
  if (runs == NULL)
    runs = g_hash_table_new_full (glyph_run_hash, glyph_run_equal, glyph_run_free, NULL);
  run = g_hash_table_lookup (runs, &key);
  if (run == NULL)
    {
      if (g_hash_table_size (runs) >= MAX_GLYPH_RUNS)
        g_hash_table_remove_all (runs);
      run = glyph_run_new (font, text);
      if (run == NULL)
        {
          g_mutex_unlock (&runs_lock);
          return FALSE;
        }
      g_hash_table_add (runs, run);
    }
  /* copied under the lock: another thread may drop every run once it is let go */
  n = run->n;
  glyphs = n <= (int) G_N_ELEMENTS (stack) ? stack : g_new (cairo_glyph_t, n);
  /* from the current point as cairo keeps it (on its 1/256 pixel grid), as cairo_show_text */
  cairo_get_current_point (cr, &x, &y);
  for (int i = 0; i < n; i++)
    {
      glyphs[i] = (cairo_glyph_t) { run->glyphs[i].index, x, y };
      x += run->glyphs[i].dx;
      y += run->glyphs[i].dy;
    }
  g_mutex_unlock (&runs_lock);
  cairo_show_glyphs (cr, glyphs, n);
  if (glyphs != stack)
    g_free (glyphs);
  return TRUE;
}

static void
draw_text (cairo_t *cr, const IochartDlItem *item)
{
  double x = item->x;

  iochart_fonts_select (cr, item->font_size, item->bold);
  if (item->anchor == IOCHART_ANCHOR_MIDDLE)
    x -= item->w / 2;
  else if (item->anchor == IOCHART_ANCHOR_END)
    x -= item->w;
  set_rgba (cr, item->fill);
  cairo_move_to (cr, x, item->y);
  if (!show_glyph_run (cr, item->text))
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

static gboolean
on_fixed_grid (double v)
{
  return fabs (v) < EXACT_LIMIT && v * 256 == floor (v * 256);
}

/* A dashed vertical line cut to the part of it in the clip, give or take whole dash periods.
 * cairo steps through every dash of a line however little of it is in the clip, and a PNG is
 * drawn in strips of 78 rows: the boot chart's process tree lines, up to 1,500 px long, were
 * dashed again in each strip they cross (7% of a boot chart PNG's instructions). Only whole
 * periods are cut, from its start and from past its end, so that the dashes left start where
 * they did; and only where every sum of the dashing is exact (no scaling, integer translation,
 * ends on cairo's 1/256 pixel grid), so that they fall on the very same fixed-point positions
 * and the pixels in the clip are the same to the byte. Otherwise the line is left whole. */
static void
dashed_line_span (cairo_t *cr, const IochartDlItem *item, double *y, double *y2)
{
  const double period = DASH_ON + DASH_OFF, margin = item->line_width + period;
  double cx0, cy0, cx1, cy1, dir, from, to;
  cairo_matrix_t m;
  gint64 skip, keep;

  *y = item->y, *y2 = item->y2;
  if (!item->dashed || item->x != item->x2 || !on_fixed_grid (item->y) || !on_fixed_grid (item->y2))
    return;
  cairo_get_matrix (cr, &m);
  if (m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || m.y0 != floor (m.y0) || fabs (m.y0) >= EXACT_LIMIT)
    return;
  cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
  dir = item->y2 >= item->y ? 1 : -1;
  /* distances along the line from its start to where the clip begins and ends */
  from = dir > 0 ? cy0 - margin - item->y : item->y - (cy1 + margin);
  to = dir > 0 ? cy1 + margin - item->y : item->y - (cy0 - margin);
  skip = from > 0 ? (gint64) floor (from / period) : 0;
  keep = to > 0 ? (gint64) ceil (to / period) : 0;
  if (fabs (item->y2 - item->y) > keep * period)
    *y2 = item->y + dir * keep * period;
  if (skip > 0 && skip * period < fabs (*y2 - item->y))
    *y = item->y + dir * skip * period;
}

/* The most columns and mask pixels a polygon is drawn as boxes with (bigger ones as a path). */
#define MAX_BOX_COLUMNS 65536
#define MAX_MASK_PIXELS (16 << 20)
#define MIN_BOX_POINTS 16

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The x of a polygon's points, ascending. An area's run right along its top and back along its
 * bottom: the two runs merged, without a sort (a sort was a fifth of drawing an area). */
static double *
sorted_xs (const IochartDlItem *item)
{
  const double *p = item->points;
  guint n = item->n_points, turn = 0, i, j, out = 0;
  double *xs = g_new (double, n);

  while (turn + 1 < n && p[2 * (turn + 1)] >= p[2 * turn])
    turn++;
  for (j = turn + 1; j + 1 < n && p[2 * (j + 1)] <= p[2 * j]; j++)
    ;
  if (j + 1 < n)
    {
      for (guint k = 0; k < n; k++)
        xs[k] = p[2 * k];
      qsort (xs, n, sizeof (double), cmp_double);
      return xs;
    }
  /* 0..turn ascending, n - 1 down to turn + 1 ascending */
  for (i = 0, j = n; i <= turn || j > turn + 1;)
    xs[out++] = j <= turn + 1 || (i <= turn && p[2 * i] <= p[2 * (j - 1)]) ? p[2 * i++] : p[2 * --j];
  return xs;
}

/* A polygon whose edges are all level or vertical (a column-wise area: the bins' strips) is a
 * box per column between the x of its vertical edges. *xs receives those x, ascending (*n + 1),
 * *y the top and bottom of each column (NAN: outside). FALSE when the polygon is not such, or
 * crosses a column more than twice. */
static gboolean
column_boxes (const IochartDlItem *item, guint *n, double **xs, double **y)
{
  const double *p = item->points;
  g_autofree guint8 *crossings = NULL;
  guint m = 0, at = 0;

  if (item->n_points < 4 || item->n_points > 2 * MAX_BOX_COLUMNS)
    return FALSE;
  for (guint k = 0; k < item->n_points; k++)
    {
      const double *q = item->points + 2 * ((k + 1) % item->n_points);

      if ((p[2 * k] != q[0] && p[2 * k + 1] != q[1]) || !isfinite (p[2 * k]) || !isfinite (p[2 * k + 1]))
        return FALSE;
    }
  *xs = sorted_xs (item);
  for (guint k = 0; k < item->n_points; k++)
    if (m == 0 || (*xs)[k] != (*xs)[m - 1])
      (*xs)[m++] = (*xs)[k];
  *n = m - 1;
  *y = g_new (double, 2 * MAX (*n, 1));
  crossings = g_new0 (guint8, MAX (*n, 1));
  for (guint k = 0; k < item->n_points; k++)
    {
      const double *q = item->points + 2 * ((k + 1) % item->n_points);
      double lo = MIN (p[2 * k], q[0]), hi = MAX (p[2 * k], q[0]);

      /* the edges run along the columns: the next one starts where the last ended */
      while ((*xs)[at] < lo)
        at++;
      while ((*xs)[at] > lo)
        at--;
      for (guint c = at; c < *n && (*xs)[c] < hi; c++)
        {
          if (crossings[c] == 2)
            {
              g_clear_pointer (xs, g_free);
              g_clear_pointer (y, g_free);
              return FALSE;
            }
          (*y)[2 * c + crossings[c]++] = p[2 * k + 1];
        }
    }
  for (guint c = 0; c < *n; c++)
    if (crossings[c] != 2)
      (*y)[2 * c] = (*y)[2 * c + 1] = NAN;
  return TRUE;
}

/* How user space maps to the pixels of the target (its device scale and offset too, which
 * cairo_user_to_device leaves out) when that is a scale and a shift of each axis (no rotation, no
 * mirroring) onto a raster: pixel = a * u + o. FALSE for a vector target (PDF). */
static gboolean
raster_axes (cairo_t *cr, double *ax, double *ox, double *ay, double *oy)
{
  cairo_surface_t *target = cairo_get_group_target (cr);
  cairo_surface_type_t type = cairo_surface_get_type (target);
  double sx, sy, dx, dy;
  cairo_matrix_t m;

  cairo_get_matrix (cr, &m);
  if ((type != CAIRO_SURFACE_TYPE_IMAGE && type != CAIRO_SURFACE_TYPE_RECORDING) || m.xy != 0 || m.yx != 0)
    return FALSE;
  *ox = *oy = 0;
  *ax = *ay = 1;
  cairo_user_to_device (cr, ox, oy);
  cairo_user_to_device_distance (cr, ax, ay);
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &dx, &dy);
  *ax *= sx, *ay *= sy;
  *ox = *ox * sx + dx, *oy = *oy * sy + dy;
  return *ax > 0 && *ay > 0;
}

/* memset, without a call for the run of a byte or two that most columns are */
static inline void
memset_small (guint8 *out, guint8 v, int n)
{
  if (n > 16)
    memset (out, v, n);
  else
    for (int i = 0; i < n; i++)
      out[i] = v;
}

/* Into the mask (w x h bytes from pixel x_lo, y_lo, rows stride apart): each pixel as much as
 * its share inside the column boxes, their pixels at a * u + o. Boxes on whole pixel columns (a
 * chart drawn as laid out) a box at a time; others (a warped frame's) summed a row at a time. */
static void
column_cover (guint n, const double *xs, const double *y, const double a[2], const double o[2], int x_lo,
              int y_lo, int w, int h, guint8 *data, int stride)
{
  /* each box's pixels: left and right (x_lo is 0), top and bottom (y_lo is 0) */
  g_autofree float *box = g_new (float, 4 * (gsize) n);
  g_autofree float *row = NULL;
  guint first = 0;
  gboolean whole = TRUE;

  for (guint c = 0; c < n; c++)
    {
      float *b = box + 4 * c;

      b[0] = (float) (a[0] * xs[c] + o[0] - x_lo);
      b[1] = (float) (a[0] * xs[c + 1] + o[0] - x_lo);
      b[2] = isnan (y[2 * c]) ? 0 : (float) (a[1] * MIN (y[2 * c], y[2 * c + 1]) + o[1] - y_lo);
      b[3] = isnan (y[2 * c]) ? 0 : (float) (a[1] * MAX (y[2 * c], y[2 * c + 1]) + o[1] - y_lo);
      b[0] = CLAMP (b[0], 0, w), b[1] = CLAMP (b[1], 0, w);
      b[2] = CLAMP (b[2], 0, h), b[3] = CLAMP (b[3], 0, h);
      whole = whole && b[0] == floorf (b[0]) && b[1] == floorf (b[1]);
      if (b[1] <= 0)
        first = c + 1;
    }
  /* each pixel in one box: a box's share of its top and bottom rows, the rows between whole, in
   * runs of bytes (the mask was 0) */
  for (guint c = first; whole && c < n && box[4 * c] < w; c++)
    {
      const float *b = box + 4 * c;
      int x = (int) b[0], run = (int) b[1] - x, r0 = (int) b[2], r1 = (int) ceilf (b[3]) - 1;

      if (b[3] <= b[2])
        continue;
      if (r0 == r1)
        {
          memset_small (data + (gsize) r0 * stride + x, (guint8) ((b[3] - b[2]) * 255 + 0.5f), run);
          continue;
        }
      memset_small (data + (gsize) r0 * stride + x, (guint8) ((r0 + 1 - b[2]) * 255 + 0.5f), run);
      if (run == 1)   /* most columns: a byte a row, without memset_small's loop per byte */
        for (guint8 *out = data + (gsize) (r0 + 1) * stride + x, *end = data + (gsize) r1 * stride; out < end;
             out += stride)
          *out = 0xff;
      else
        for (int py = r0 + 1; py < r1; py++)
          memset_small (data + (gsize) py * stride + x, 0xff, run);
      memset_small (data + (gsize) r1 * stride + x, (guint8) ((b[3] - r1) * 255 + 0.5f), run);
    }
  if (!whole)
    row = g_new (float, w);
  for (int py = 0; py < h && !whole; py++)
    {
      guint8 *out = data + (gsize) py * stride;

      memset (row, 0, sizeof (float) * w);
      for (guint c = first; c < n && box[4 * c] < w; c++)
        {
          const float *b = box + 4 * c;
          float share = MIN (b[3], py + 1) - MAX (b[2], py);

          if (share <= 0)
            continue;
          for (int px = (int) b[0]; px < b[1]; px++)
            row[px] += share * (MIN (b[1], px + 1) - MAX (b[0], px));
        }
      for (int px = 0; px < w; px++)
        out[px] = (guint8) (MIN (row[px], 1.0f) * 255 + 0.5f);
    }
}

/* Column boxes drawn through an A8 mask of the target's pixels under them in the clip, each pixel
 * as much as its share inside the boxes. As a path, cairo would tessellate many boxes against
 * each other first, inserting each into a sorted list: quadratic in the columns (2-5 ms a jagged
 * area); as a polygon its scan converter steps through every sub-row of every edge (0.5-2 ms).
 * FALSE: not on a raster, or too big a mask. */
static gboolean
mask_columns (cairo_t *cr, guint n, const double *xs, const double *y)
{
  double a[2], o[2], cx0, cy0, cx1, cy1, top = G_MAXDOUBLE, bottom = -G_MAXDOUBLE, sx, sy, dx, dy, mx, my;
  int x_lo, x_hi, y_lo, y_hi, w, h, stride;
  cairo_surface_t *mask;
  guint8 *data;

  if (!raster_axes (cr, &a[0], &o[0], &a[1], &o[1]))
    return FALSE;
  for (guint c = 0; c < n; c++)
    if (!isnan (y[2 * c]))
      {
        top = MIN (top, MIN (y[2 * c], y[2 * c + 1]));
        bottom = MAX (bottom, MAX (y[2 * c], y[2 * c + 1]));
      }
  cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
  x_lo = (int) floor (a[0] * MAX (xs[0], cx0) + o[0]);
  x_hi = (int) ceil (a[0] * MIN (xs[n], cx1) + o[0]);
  y_lo = (int) floor (a[1] * MAX (top, cy0) + o[1]);
  y_hi = (int) ceil (a[1] * MIN (bottom, cy1) + o[1]);
  if (top >= bottom || x_hi <= x_lo || y_hi <= y_lo)
    return TRUE;
  w = x_hi - x_lo, h = y_hi - y_lo;
  if ((gint64) w * h > MAX_MASK_PIXELS)
    return FALSE;
  mask = cairo_image_surface_create (CAIRO_FORMAT_A8, w, h);
  data = cairo_image_surface_get_data (mask);
  stride = cairo_image_surface_get_stride (mask);
  cairo_surface_flush (mask);
  column_cover (n, xs, y, a, o, x_lo, y_lo, w, h, data, stride);
  cairo_surface_mark_dirty (mask);
  /* a mask pixel a target pixel: the mask in the target's scale, at its pixel x_lo, y_lo (with
   * the identity matrix, user space is the target's pixels less its device scale and offset) */
  cairo_surface_get_device_scale (cairo_get_group_target (cr), &sx, &sy);
  cairo_surface_get_device_offset (cairo_get_group_target (cr), &dx, &dy);
  cairo_surface_set_device_scale (mask, sx, sy);
  cairo_save (cr);
  cairo_identity_matrix (cr);
  mx = (x_lo - dx) / sx, my = (y_lo - dy) / sy;
  cairo_mask_surface (cr, mask, mx, my);
  cairo_restore (cr);
  cairo_surface_destroy (mask);
  return TRUE;
}

/* A polygon's path; a column-wise one filled on a raster straight away as its column boxes
 * (TRUE: drawn). */
static gboolean
polygon_path (cairo_t *cr, const IochartDlItem *item)
{
  g_autofree double *xs = NULL;
  g_autofree double *y = NULL;
  guint n;

  /* a few boxes cairo fills as fast itself (a rect: 40 us as boxes, 100 us through a mask) */
  if (item->kind == IOCHART_DL_POLYGON && item->fill && !item->stroke && item->n_points > MIN_BOX_POINTS &&
      column_boxes (item, &n, &xs, &y))
    {
      set_rgba (cr, item->fill);
      if (mask_columns (cr, n, xs, y))
        return TRUE;
    }
  for (guint k = 0; k < item->n_points; k++)
    cairo_line_to (cr, item->points[2 * k], item->points[2 * k + 1]);
  if (item->kind == IOCHART_DL_POLYGON)
    cairo_close_path (cr);
  return FALSE;
}

static void
draw_item (cairo_t *cr, const IochartDlItem *item)
{
  double y, y2;

  switch (item->kind)
    {
    case IOCHART_DL_RECT:
      cairo_rectangle (cr, item->x, item->y, item->w, item->h);
      fill_and_stroke (cr, item);
      break;
    case IOCHART_DL_LINE:
      dashed_line_span (cr, item, &y, &y2);
      cairo_move_to (cr, item->x, y);
      cairo_line_to (cr, item->x2, y2);
      fill_and_stroke (cr, item);
      break;
    case IOCHART_DL_POLYGON:
    case IOCHART_DL_POLYLINE:
      if (!polygon_path (cr, item))
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

/* Horizontal and vertical extent of an item, to skip what falls outside the clip. */
static void
item_extent (const IochartDlItem *item, double *x_lo, double *x_hi, double *y_lo, double *y_hi)
{
  switch (item->kind)
    {
    case IOCHART_DL_LINE:
      *x_lo = MIN (item->x, item->x2) - item->line_width;
      *x_hi = MAX (item->x, item->x2) + item->line_width;
      *y_lo = MIN (item->y, item->y2) - item->line_width;
      *y_hi = MAX (item->y, item->y2) + item->line_width;
      return;
    case IOCHART_DL_POLYGON:
    case IOCHART_DL_POLYLINE:
      *x_lo = *y_lo = G_MAXDOUBLE;
      *x_hi = *y_hi = -G_MAXDOUBLE;
      for (guint k = 0; k < item->n_points; k++)
        {
          *x_lo = MIN (*x_lo, item->points[2 * k]);
          *x_hi = MAX (*x_hi, item->points[2 * k]);
          *y_lo = MIN (*y_lo, item->points[2 * k + 1]);
          *y_hi = MAX (*y_hi, item->points[2 * k + 1]);
        }
      *x_lo -= item->line_width;
      *x_hi += item->line_width;
      *y_lo -= item->line_width;
      *y_hi += item->line_width;
      return;
    case IOCHART_DL_TEXT:
      iochart_dl_item_text_box (item, x_lo, y_lo, x_hi, y_hi);
      *x_hi += *x_lo;
      *y_hi += *y_lo;
      return;
    default:
      *x_lo = item->x - item->line_width;
      *x_hi = item->x + item->w + item->line_width;
      *y_lo = item->y - item->line_width;
      *y_hi = item->y + item->h + item->line_width;
      return;
    }
}

/* Consecutive strokes of one style whose pixels no two share, as one path stroked once. cairo sets
 * up a stroke, its scan converter and its spans for each (2-3 us a latency tick, 200 of them in a
 * zoomed frame; 16 us a grid line): where no pixel is under two of them, each pixel is covered and
 * blended as when they are drawn one by one. Only level or vertical segments (all their edges
 * vertical: the converter's rows give the same coverage however it steps them), on a raster. */
#define BATCH_MAX 64

typedef struct
{
  cairo_t *cr;
  gboolean raster;
  double a[2], o[2];
  const IochartDlItem *style;   /* the first item of the batch; NULL: none */
  int n;
  int box[BATCH_MAX][4];        /* each item's target pixels: x0, y0, x1, y1 (ends excluded) */
} StrokeBatch;

static void
stroke_batch_init (StrokeBatch *b, cairo_t *cr)
{
  b->cr = cr;
  b->raster = raster_axes (cr, &b->a[0], &b->o[0], &b->a[1], &b->o[1]);
  b->style = NULL;
  b->n = 0;
}

static void
stroke_batch_flush (StrokeBatch *b)
{
  if (b->style == NULL)
    return;
  fill_and_stroke (b->cr, b->style);
  b->style = NULL;
  b->n = 0;
}

static gboolean
straight_stroke (const IochartDlItem *item)
{
  const double *p = item->points;

  if (item->fill || !item->stroke)
    return FALSE;
  if (item->kind == IOCHART_DL_LINE)
    return item->x == item->x2 || item->y == item->y2;
  return item->kind == IOCHART_DL_POLYLINE && item->n_points == 2 && (p[0] == p[2] || p[1] == p[3]);
}

/* TRUE: item's path is added to the batch (stroked at the next flush) */
static gboolean
stroke_batch_add (StrokeBatch *b, const IochartDlItem *item)
{
  double x_lo, x_hi, y_lo, y_hi, y, y2;
  int *box;

  if (!b->raster || !straight_stroke (item))
    return FALSE;
  if (b->style != NULL && (b->n == BATCH_MAX || item->stroke != b->style->stroke ||
                           item->line_width != b->style->line_width || item->dashed != b->style->dashed))
    stroke_batch_flush (b);
  item_extent (item, &x_lo, &x_hi, &y_lo, &y_hi);
  box = b->box[b->n];
  box[0] = (int) floor (b->a[0] * x_lo + b->o[0]) - 1;
  box[1] = (int) floor (b->a[1] * y_lo + b->o[1]) - 1;
  box[2] = (int) ceil (b->a[0] * x_hi + b->o[0]) + 1;
  box[3] = (int) ceil (b->a[1] * y_hi + b->o[1]) + 1;
  for (int i = 0; i < b->n; i++)
    if (box[0] < b->box[i][2] && b->box[i][0] < box[2] && box[1] < b->box[i][3] && b->box[i][1] < box[3])
      {
        stroke_batch_flush (b);
        memcpy (b->box[0], box, sizeof (b->box[0]));
        break;
      }
  if (b->style == NULL)
    b->style = item;
  b->n++;
  if (item->kind == IOCHART_DL_LINE)
    {
      dashed_line_span (b->cr, item, &y, &y2);
      cairo_move_to (b->cr, item->x, y);
      cairo_line_to (b->cr, item->x2, y2);
    }
  else
    {
      cairo_move_to (b->cr, item->points[0], item->points[1]);
      cairo_line_to (b->cr, item->points[2], item->points[3]);
    }
  return TRUE;
}

/* Font options and the background, as every drawing starts. */
static void
begin (IochartDisplayList *dl, cairo_t *cr)
{
  cairo_font_options_t *options = cairo_font_options_create ();

  /* the same metrics as the layout measured with */
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_save (cr);
  cairo_set_font_options (cr, options);
  cairo_font_options_destroy (options);
  set_rgba (cr, iochart_display_list_get_background (dl));
  cairo_paint (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
}

void
iochart_cairo_draw (IochartDisplayList *dl, cairo_t *cr)
{
  guint n = iochart_display_list_get_n_items (dl);
  double cx0, cy0, cx1, cy1, x_lo, x_hi, y_lo, y_hi;
  StrokeBatch batch;

  begin (dl, cr);
  stroke_batch_init (&batch, cr);
  /* a widget draws the part of a tall chart in view: the rest costs nothing */
  cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
  for (guint i = 0; i < n; i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);

      item_extent (item, &x_lo, &x_hi, &y_lo, &y_hi);
      if (y_hi < cy0 || y_lo > cy1 || x_hi < cx0 || x_lo > cx1)
        continue;
      if (stroke_batch_add (&batch, item))
        continue;
      stroke_batch_flush (&batch);
      draw_item (cr, item);
    }
  stroke_batch_flush (&batch);
  cairo_restore (cr);
}

/* Memory for an image's pixels, left as it was: an opaque background covers every pixel (cairo's
 * own is cleared first, 4 MB written twice for a 1400x773 chart); NULL: cairo's own */
static guint8 *
uncleared_pixels (IochartDisplayList *dl, int stride, int height)
{
  if ((iochart_display_list_get_background (dl) & 0xff) != 0xff || stride <= 0 || height <= 0)
    return NULL;
  return g_try_malloc ((gsize) stride * height);
}

cairo_surface_t *
iochart_cairo_draw_image (IochartDisplayList *dl, int width, int height, int scale)
{
  static const cairo_user_data_key_t pixels_key;
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  guint8 *pixels = uncleared_pixels (dl, stride, height);
  cairo_surface_t *image;
  cairo_t *cr;

  if (pixels == NULL)
    image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  else
    {
      image = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
      if (cairo_surface_set_user_data (image, &pixels_key, pixels, g_free) != CAIRO_STATUS_SUCCESS)
        {
          cairo_surface_destroy (image);
          g_free (pixels);
          image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
        }
    }
  cairo_surface_set_device_scale (image, scale, scale);
  cr = cairo_create (image);
  iochart_cairo_draw (dl, cr);
  cairo_destroy (cr);
  cairo_surface_flush (image);
  if (cairo_surface_status (image) != CAIRO_STATUS_SUCCESS)
    g_clear_pointer (&image, cairo_surface_destroy);
  return image;
}

/* A rect or line across the whole plot is the chart's frame, not a time's mark: a strip's frame, a
 * lane's stripe, a grid line of values. Moved with the plot it would leave the plot's edge bare. */
static gboolean
spans_plot (const IochartDlItem *item, double x0, double w)
{
  double x_lo, x_hi, y_lo, y_hi;

  if (item->kind != IOCHART_DL_RECT && item->kind != IOCHART_DL_LINE)
    return FALSE;
  item_extent (item, &x_lo, &x_hi, &y_lo, &y_hi);
  return x_lo <= x0 + 0.5 && x_hi >= x0 + w - 0.5;
}

void
iochart_cairo_draw_spanning (IochartDisplayList *dl, cairo_t *cr)
{
  double x0, w;
  gint64 from, to;

  if (!iochart_display_list_get_time_axis (dl, &x0, &w, &from, &to))
    return;
  cairo_save (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);

      if (spans_plot (item, x0, w))
        draw_item (cr, item);
    }
  cairo_restore (cr);
}

void
iochart_cairo_draw_range_text (IochartDisplayList *dl, cairo_t *cr, gint64 from_ns, gint64 to_ns)
{
  guint i;
  g_autofree char *text = iochart_display_list_range_text (dl, from_ns, to_ns, &i);
  const IochartDlItem *item;
  IochartDlItem header;
  guint32 bg = iochart_display_list_get_background (dl);
  double x, y, w, h;

  if (text == NULL)
    return;
  item = iochart_display_list_get_item (dl, i);
  header = *item;
  header.text = text;
  header.w = iochart_text_width (text, item->font_size, item->bold);
  cairo_save (cr);
  /* the old text's box and the new one's, a pixel more for antialiasing */
  cairo_set_source_rgba (cr, (bg >> 24) / 255.0, ((bg >> 16) & 0xff) / 255.0, ((bg >> 8) & 0xff) / 255.0,
                         (bg & 0xff) / 255.0);
  iochart_dl_item_text_box (item, &x, &y, &w, &h);
  cairo_rectangle (cr, x - 1, y - 1, w + 2, h + 2);
  iochart_dl_item_text_box (&header, &x, &y, &w, &h);
  cairo_rectangle (cr, x - 1, y - 1, w + 2, h + 2);
  cairo_fill (cr);
  draw_item (cr, &header);
  cairo_restore (cr);
}

void
iochart_cairo_draw_warped (IochartDisplayList *dl, cairo_t *cr, gint64 from_ns, gint64 to_ns)
{
  guint n = iochart_display_list_get_n_items (dl);
  double x0, w, scale, shift, cx0, cy0, cx1, cy1, x_lo, x_hi, y_lo, y_hi, header_bottom;
  gint64 dl_from, dl_to;
  g_autofree char *range_text = NULL;
  guint range_item = 0;

  if (!iochart_display_list_get_time_axis (dl, &x0, &w, &dl_from, &dl_to) || to_ns <= from_ns ||
      (dl_from == from_ns && dl_to == to_ns))
    {
      iochart_cairo_draw (dl, cr);
      return;
    }
  scale = (double) (dl_to - dl_from) / (double) (to_ns - from_ns);
  shift = (double) (dl_from - from_ns) / (double) (to_ns - from_ns) * w;
  /* the header stays, but for its range, which reads the range shown; the time axis' labels
   * just above the plot move with it */
  header_bottom = iochart_display_list_get_plot_top (dl) - 24;
  range_text = iochart_display_list_range_text (dl, from_ns, to_ns, &range_item);
  begin (dl, cr);
  cairo_clip_extents (cr, &cx0, &cy0, &cx1, &cy1);
  for (guint i = 0; i < n; i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);

      item_extent (item, &x_lo, &x_hi, &y_lo, &y_hi);
      if (y_hi < cy0 || y_lo > cy1)
        continue;
      if (y_hi < header_bottom)
        {
          IochartDlItem header = *item;

          if (range_text && i == range_item)
            header.text = range_text;
          draw_item (cr, &header);
          continue;
        }
      if (item->kind == IOCHART_DL_TEXT)
        {
          /* text keeps its shape: labels that start left of the plot stay, those in it move */
          IochartDlItem moved = *item;

          if (item->x >= x0)
            {
              moved.x = x0 + shift + (item->x - x0) * scale;
              if (moved.x < x0 || moved.x > x0 + w)
                continue;
            }
          draw_item (cr, &moved);
          continue;
        }
      if (spans_plot (item, x0, w))
        {
          draw_item (cr, item);
          continue;
        }
      /* the part left of the plot as it is */
      if (x_lo < x0)
        {
          cairo_save (cr);
          cairo_rectangle (cr, cx0, cy0, x0 - cx0, cy1 - cy0);
          cairo_clip (cr);
          draw_item (cr, item);
          cairo_restore (cr);
        }
      /* the plot stretched so that its times fall where the new range puts them; coordinates
       * move, line widths stay */
      if (x_hi > x0 && x0 + shift + (x_hi - x0) * scale >= x0 && x0 + shift + (x_lo - x0) * scale <= x0 + w)
        {
          IochartDlItem moved = *item;
          g_autofree double *points = NULL;

          cairo_save (cr);
          cairo_rectangle (cr, x0, cy0, w, cy1 - cy0);
          cairo_clip (cr);
          if (item->kind == IOCHART_DL_IMAGE)
            {
              cairo_translate (cr, x0 + shift, 0);
              cairo_scale (cr, scale, 1);
              cairo_translate (cr, -x0, 0);
            }
          else
            {
              moved.x = x0 + shift + (item->x - x0) * scale;
              moved.x2 = x0 + shift + (item->x2 - x0) * scale;
              moved.w = item->w * scale;
              if (item->n_points > 0)
                {
                  points = g_memdup2 (item->points, sizeof (double) * 2 * item->n_points);
                  for (guint k = 0; k < item->n_points; k++)
                    points[2 * k] = x0 + shift + (points[2 * k] - x0) * scale;
                  moved.points = points;
                }
            }
          draw_item (cr, &moved);
          cairo_restore (cr);
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

typedef struct
{
  IochartDisplayList *dl;
  double scale;
} Scaled;

static void
draw_scaled (cairo_t *cr, gpointer data)
{
  Scaled *s = data;

  cairo_scale (cr, s->scale, s->scale);
  iochart_cairo_draw (s->dl, cr);
}

gboolean
iochart_cairo_png_file (IochartDisplayList *dl, double scale, const char *path, GError **error)
{
  int w = MAX ((int) floor (iochart_display_list_get_width (dl) * scale), 1);
  int h = MAX ((int) floor (iochart_display_list_get_height (dl) * scale), 1);

  return iochart_png_write_drawn (w, h, draw_scaled, &(Scaled) { dl, scale }, path, error);
}

static gboolean
write_png (const char *path, gpointer dl, GError **error)
{
  return iochart_cairo_png_file (dl, 1.0, path, error);
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
