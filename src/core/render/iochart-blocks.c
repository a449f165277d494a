/* iochart-blocks.c: the pieces the I/O chart and the boot chart are laid out with */
#include <math.h>
#include <string.h>
#include "iochart-blocks.h"
#include "iochart-format.h"

#define MARGIN     IOCHART_BLOCKS_MARGIN
#define FONT       IOCHART_BLOCKS_FONT
#define FONT_SMALL IOCHART_BLOCKS_FONT_SMALL

const IochartClass iochart_blocks_stack_order[IOCHART_N_CLASSES] = {
  IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_NONE, IOCHART_CLASS_UNKNOWN, IOCHART_CLASS_IDLE,
};

guint32
iochart_rgba_with_alpha (guint32 rgba, guint8 alpha)
{
  return (rgba & 0xffffff00u) | alpha;
}

void
iochart_blocks_init (IochartBlocks *b, const IochartBlocksColors *colors, double width, double x0,
                     guint n, gint64 from_ns, gint64 to_ns, gint64 origin_ns)
{
  memset (b, 0, sizeof *b);
  b->colors = colors;
  b->width = width;
  b->x0 = x0;
  b->n = MAX (n, 1);
  b->from_ns = from_ns;
  b->to_ns = MAX (to_ns, from_ns + 1);
  b->origin_ns = origin_ns;
  b->labels = iochart_labels_new ();
  b->under = iochart_display_list_new (width, 1);
  b->dl = iochart_display_list_new (width, 1);
}

void
iochart_blocks_clear (IochartBlocks *b)
{
  g_clear_pointer (&b->labels, iochart_labels_free);
  g_clear_pointer (&b->under, iochart_display_list_free);
  g_clear_pointer (&b->dl, iochart_display_list_free);
}

IochartDisplayList *
iochart_blocks_finish (IochartBlocks *b)
{
  IochartDisplayList *dl = iochart_display_list_new (b->width, ceil (b->y));

  iochart_display_list_set_background (dl, b->colors->bg);
  iochart_display_list_set_time_axis (dl, b->x0, b->n, b->from_ns, b->to_ns);
  iochart_display_list_set_plot_top (dl, b->plot_top);
  iochart_display_list_append_list (dl, b->under);
  iochart_display_list_append_list (dl, b->dl);
  iochart_labels_place (b->labels, dl);
  iochart_blocks_clear (b);
  return dl;
}

void
iochart_blocks_label (IochartBlocks *b, double x, double y, const char *text, double size,
                      gboolean bold, IochartAnchor anchor, guint32 fill, int priority, const char *tooltip)
{
  iochart_labels_add (b->labels, x, y, text, size, bold, anchor, fill, priority, tooltip);
}

double
iochart_blocks_time_x (IochartBlocks *b, gint64 ns)
{
  return b->x0 + ((double) ns - b->from_ns) / (double) (b->to_ns - b->from_ns) * b->n;
}

double
iochart_blocks_ns_per_column (IochartBlocks *b)
{
  return (double) (b->to_ns - b->from_ns) / b->n;
}

double
iochart_blocks_col_center (IochartBlocks *b, guint i)
{
  return i == 0 ? b->x0 : i + 1 == b->n ? b->x0 + b->n : b->x0 + i + 0.5;
}

void
iochart_blocks_simplify (GArray *pts)
{
  guint out = 0, n = pts->len / 2;
  double *p = (double *) pts->data;

  for (guint i = 0; i < n; i++)
    {
      /* level within a millionth of a pixel of the last point kept and of the next: sums that
       * differ in their last bits (a running sum's difference, a walk's) draw the same line */
      if (i > 0 && i + 1 < n && fabs (p[2 * i + 1] - p[2 * (out - 1) + 1]) < 1e-6 &&
          fabs (p[2 * i + 1] - p[2 * (i + 1) + 1]) < 1e-6)
        continue;
      p[2 * out] = p[2 * i];
      p[2 * out + 1] = p[2 * i + 1];
      out++;
    }
  g_array_set_size (pts, out * 2);
}

/* One edge of a column-wise area, from column to column + dir (exclusive) in steps of dir: a
 * level run a column or more wide per value, joined by vertical edges on the pixel columns'
 * boundaries. Values level within a millionth of a pixel of the run's are the run (a running
 * sum's difference, a walk's: the same line). */
static void
area_edge (IochartBlocks *b, GArray *pts, const double *v, double base_y, double scale, int column, int dir)
{
  int end = dir > 0 ? (int) b->n : -1;
  double y = base_y - (v ? v[column] : 0) * scale, x;

  x = b->x0 + column + (dir > 0 ? 0 : 1);
  g_array_append_val (pts, x);
  g_array_append_val (pts, y);
  for (int i = column + dir; i != end; i += dir)
    {
      double yi = base_y - (v ? v[i] : 0) * scale;

      if (fabs (yi - y) < 1e-6)
        continue;
      x = b->x0 + i + (dir > 0 ? 0 : 1);
      g_array_append_val (pts, x);
      g_array_append_val (pts, y);
      g_array_append_val (pts, x);
      g_array_append_val (pts, yi);
      y = yi;
    }
  x = b->x0 + end + (dir > 0 ? 0 : 1);
  g_array_append_val (pts, x);
  g_array_append_val (pts, y);
}

/* Column-wise, as the bins are: each pixel column one value, its edges on the column's
 * boundaries. A line through the columns' centres would draw the same figures with an edge
 * sloping from each column to the next, which cairo's scan converter steps through row by row
 * (3-6 ms a zoomed-in frame); level edges and vertical ones on whole pixels are boxes. */
IochartDlItem *
iochart_blocks_area (IochartBlocks *b, const double *lo, const double *hi, double base_y, double scale,
                     guint32 fill, const char *tooltip)
{
  g_autoptr(GArray) pts = g_array_sized_new (FALSE, FALSE, sizeof (double), 8 * b->n);
  gboolean any = FALSE;
  IochartDlItem *item;
  guint np;

  for (guint i = 0; i < b->n && !any; i++)
    any = hi[i] - (lo ? lo[i] : 0) > 1e-12;
  if (!any)
    return NULL;
  area_edge (b, pts, hi, base_y, scale, 0, 1);
  area_edge (b, pts, lo, base_y, scale, (int) b->n - 1, -1);
  np = pts->len / 2;
  item = iochart_display_list_polygon (b->dl, (double *) g_array_free (g_steal_pointer (&pts), FALSE), np, fill);
  if (tooltip)
    iochart_dl_item_set_tooltip (item, tooltip);
  return item;
}

IochartDlItem *
iochart_blocks_polyline (IochartBlocks *b, const double *v, double base_y, double scale, guint32 stroke,
                         double line_width, const char *tooltip)
{
  g_autoptr(GArray) pts = g_array_sized_new (FALSE, FALSE, sizeof (double), 2 * b->n);
  IochartDlItem *item;
  guint np;

  g_array_set_size (pts, 2 * b->n);
  for (guint i = 0; i < b->n; i++)
    {
      g_array_index (pts, double, 2 * i) = iochart_blocks_col_center (b, i);
      g_array_index (pts, double, 2 * i + 1) = base_y - v[i] * scale;
    }
  iochart_blocks_simplify (pts);
  np = pts->len / 2;
  item = iochart_display_list_polyline (b->dl, (double *) g_array_free (g_steal_pointer (&pts), FALSE),
                                        np, stroke, line_width);
  if (tooltip)
    iochart_dl_item_set_tooltip (item, tooltip);
  return item;
}

/* Tick labels end 5 px left of the plot; strip labels end 8 px before them. */
#define TICK_ROOM 13.0

double
iochart_blocks_label_room (IochartBlocks *b, const char *widest_tick)
{
  return b->x0 - MARGIN - TICK_ROOM - (widest_tick ? iochart_text_width (widest_tick, FONT_SMALL, FALSE) : 0);
}

/* Subtitle rows a strip h high holds: the first under the title, 13 px apart, the last 12 px above
 * the strip's bottom (where its bottom tick is). */
static guint
subtitle_rows (double h)
{
  return h >= 37 ? (guint) ((h - 37) / 13) + 1 : 0;
}

/* A subtitle's lines in room: one if it fits; else its clauses (up to each ", " or "; ") each on
 * lines of its own, "p99 bold," over "median thin" rather than "p99 bold, median" over "thin". */
static GPtrArray *
subtitle_lines (const char *subtitle, double room)
{
  GPtrArray *lines;
  const char *clause = subtitle, *end;

  if (iochart_text_width (subtitle, FONT_SMALL, FALSE) <= room)
    return iochart_text_wrap (subtitle, FONT_SMALL, FALSE, room);
  lines = g_ptr_array_new_with_free_func (g_free);
  do
    {
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) wrapped = NULL;
      const char *comma = strstr (clause, ", "), *semicolon = strstr (clause, "; ");

      end = comma && (!semicolon || comma < semicolon) ? comma : semicolon;
      text = end ? g_strndup (clause, end + 1 - clause) : g_strdup (clause);
      wrapped = iochart_text_wrap (text, FONT_SMALL, FALSE, room);
      for (guint j = 0; j < wrapped->len; j++)
        g_ptr_array_add (lines, g_strdup (wrapped->pdata[j]));
      clause = end ? end + 2 : NULL;
    }
  while (clause);
  return lines;
}

double
iochart_blocks_subtitles_height (const char *const *subtitles, double room)
{
  guint rows = 0;

  for (guint i = 0; subtitles && subtitles[i]; i++)
    {
      g_autoptr(GPtrArray) lines = subtitle_lines (subtitles[i], room);
      rows += lines->len;
    }
  return rows ? 37 + 13.0 * (rows - 1) : 0;
}

/* Subtitles between the top and bottom ticks, each on its lines in room; should they need more rows
 * than the strip has (a strip that did not ask iochart_blocks_subtitles_height), the last row
 * takes the rest of its subtitle, cut, with the whole as its tooltip, and the subtitles after it
 * are left out. */
static void
strip_subtitles (IochartBlocks *b, double top, double h, double room, const char *const *subtitles)
{
  guint rows = subtitle_rows (h), row = 0;

  for (guint i = 0; subtitles && subtitles[i] && row < rows; i++)
    {
      g_autoptr(GPtrArray) lines = subtitle_lines (subtitles[i], room);
      guint n = lines->len;

      g_ptr_array_add (lines, NULL);   /* for g_strjoinv */
      for (guint j = 0; j < n && row < rows; j++, row++)
        {
          const char *line = lines->pdata[j];
          g_autofree char *rest = NULL;

          if (row + 1 == rows && j + 1 < n)
            {
              /* the rest of this subtitle, cut: there is more */
              g_autofree char *more = g_strjoinv (" ", (char **) lines->pdata + j);
              rest = iochart_text_ellipsize (more, FONT_SMALL, FALSE, room);
              line = rest;
            }
          iochart_blocks_label (b, MARGIN, top + 25 + 13 * row, line, FONT_SMALL, FALSE, IOCHART_ANCHOR_START,
                                b->colors->dim, 1, strcmp (line, subtitles[i]) != 0 ? subtitles[i] : NULL);
        }
    }
}

void
iochart_blocks_strip_frame (IochartBlocks *b, double top, double h, double room, const char *title,
                            const char *const *subtitles, const char *top_tick, const char *mid_tick,
                            const char *bottom_tick)
{
  /* the title shares its row with the top tick, the subtitles theirs with none but the middle one */
  double title_room = top_tick ? MIN (room, iochart_blocks_label_room (b, top_tick)) : room;
  double sub_room = mid_tick ? MIN (room, iochart_blocks_label_room (b, mid_tick)) : room;
  g_autofree char *t = iochart_text_ellipsize (title, FONT, TRUE, title_room);

  iochart_display_list_rect (b->dl, b->x0, top, b->n, h, 0, b->colors->frame);
  iochart_blocks_label (b, MARGIN, top + 11, t, FONT, TRUE, IOCHART_ANCHOR_START, b->colors->fg, 1,
                        strcmp (t, title) != 0 ? title : NULL);
  strip_subtitles (b, top, h, sub_room, subtitles);
  if (top_tick)
    iochart_blocks_label (b, b->x0 - 5, top + 9, top_tick, FONT_SMALL, FALSE, IOCHART_ANCHOR_END,
                          b->colors->dim, 4, NULL);
  if (mid_tick)
    iochart_blocks_label (b, b->x0 - 5, top + h / 2 + 4, mid_tick, FONT_SMALL, FALSE, IOCHART_ANCHOR_END,
                          b->colors->dim, 4, NULL);
  if (bottom_tick)
    iochart_blocks_label (b, b->x0 - 5, top + h, bottom_tick, FONT_SMALL, FALSE, IOCHART_ANCHOR_END,
                          b->colors->dim, 4, NULL);
}

/* ---- the time axis ---- */

char *
iochart_blocks_format_tick (double rel_ns, double step, double last_ns)
{
  const char *unit = "s";
  double div = 1e9;
  int decimals;

  /* the unit of the axis' far end, the decimals the step's: 4.8 s, not 4800 ms; 299.5 ms, not
   * 299500 µs (a 5 ms view 300 ms into the capture) */
  if (last_ns >= 1e9)
    ;
  else if (last_ns < 1e3)
    unit = "ns", div = 1;
  else if (last_ns < 1e6)
    unit = "µs", div = 1e3;
  else
    unit = "ms", div = 1e6;
  decimals = MAX (0, (int) -floor (log10 (step / div) + 1e-9));
  return g_strdup_printf ("%.*f %s", decimals, rel_ns / div, unit);
}

static double
time_step (IochartBlocks *b)
{
  double span = b->to_ns - b->from_ns;
  /* the widest label of this span decides the spacing */
  g_autofree char *widest = iochart_format_duration (b->to_ns - b->origin_ns);
  double w = iochart_text_width (widest, FONT_SMALL, FALSE) + 24;
  double step = iochart_nice_ceil (span / MAX (b->n / w, 1));

  while (step / span * b->n < w)
    step = iochart_nice_ceil (step * 1.01);
  return step;
}

void
iochart_blocks_time_axis (IochartBlocks *b, double y_labels, gboolean grid)
{
  double step = time_step (b);
  double first = ceil ((b->from_ns - b->origin_ns) / step) * step;

  for (double rel = first; rel + b->origin_ns <= b->to_ns; rel += step)
    {
      double x = iochart_blocks_time_x (b, (gint64) (rel + b->origin_ns));
      g_autofree char *text = iochart_blocks_format_tick (rel, step, b->to_ns - b->origin_ns);

      if (grid)
        iochart_display_list_line (b->under, x, b->plot_top, x, b->plot_bottom, b->colors->grid, 1);
      iochart_blocks_label (b, x, y_labels, text, FONT_SMALL, FALSE, IOCHART_ANCHOR_MIDDLE, b->colors->dim, 3,
                            NULL);
    }
}

/* ---- header, sections, legend ---- */

GPtrArray *
iochart_text_wrap (const char *text, double size, gboolean bold, double width)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) words = NULL;
  GString *line;

  /* what fits whole is one line: each longer line measured a word at a time was most of the
   * time of a boot chart's header (advances are not negative: no prefix is wider) */
  if (iochart_text_width (text, size, bold) <= width)
    {
      g_ptr_array_add (lines, g_strdup (text));
      return lines;
    }
  words = g_strsplit (text, " ", -1);
  line = g_string_new (NULL);
  for (guint i = 0; words[i]; i++)
    {
      gsize before = line->len;

      g_string_append_printf (line, "%s%s", before ? " " : "", words[i]);
      if (before > 0 && iochart_text_width (line->str, size, bold) > width)
        {
          g_string_truncate (line, before);
          g_ptr_array_add (lines, g_strdup (line->str));
          g_string_assign (line, words[i]);
        }
    }
  g_ptr_array_add (lines, g_string_free (line, FALSE));
  /* a word wider than the whole line is cut */
  for (guint i = 0; i < lines->len; i++)
    if (iochart_text_width (lines->pdata[i], size, bold) > width)
      {
        char *cut = iochart_text_ellipsize (lines->pdata[i], size, bold, width);
        g_free (lines->pdata[i]);
        lines->pdata[i] = cut;
      }
  return lines;
}

/* Lines of text from the cursor down, wrapped to the chart's width. */
static void
wrapped (IochartBlocks *b, const char *text, double size, gboolean bold, guint32 color, double pitch,
         double first_baseline, const char *tip)
{
  g_autoptr(GPtrArray) lines = iochart_text_wrap (text, size, bold, b->width - 2 * MARGIN);

  for (guint i = 0; i < lines->len; i++)
    {
      iochart_blocks_label (b, MARGIN, b->y + first_baseline, lines->pdata[i], size, bold,
                            IOCHART_ANCHOR_START, color, 0, lines->len > 1 ? text : tip);
      if (i + 1 < lines->len)
        b->y += pitch;
    }
}

void
iochart_blocks_header_line (IochartBlocks *b, const char *text, double size, gboolean bold, guint32 color,
                            const char *tip)
{
  /* the header is the chart's message: wrapped, never cut */
  b->y += size + 6;
  wrapped (b, text, size, bold, color, size + 6, 0, tip);
}

void
iochart_blocks_section_title (IochartBlocks *b, const char *title, const char *subtitle)
{
  b->y += FONT + 6;
  wrapped (b, title, FONT, TRUE, b->colors->fg, FONT + 6, 0, NULL);
  if (subtitle)
    {
      b->y += FONT_SMALL + 5;
      wrapped (b, subtitle, FONT_SMALL, FALSE, b->colors->dim, FONT_SMALL + 5, 0, NULL);
    }
  b->y += 7;
}

void
iochart_blocks_legend (IochartBlocks *b, const IochartLegendItem *items, guint n_items, guint32 swatch_frame)
{
  double x = MARGIN;

  b->y += FONT + 8;
  for (guint i = 0; i < n_items; i++)
    {
      double w = iochart_text_width (items[i].text, FONT, FALSE) + (items[i].color ? 14 : 0);

      if (x > MARGIN && x + w > b->width - MARGIN)
        {
          b->y += FONT + 6;
          x = MARGIN;
        }
      if (items[i].color)
        {
          iochart_display_list_rect (b->dl, x, b->y - 9, 10, 10, items[i].color, swatch_frame);
          x += 14;
        }
      iochart_blocks_label (b, x, b->y, items[i].text, FONT, FALSE, IOCHART_ANCHOR_START, b->colors->fg, 0,
                            items[i].tooltip);
      x += iochart_text_width (items[i].text, FONT, FALSE) + 18;
    }
}

/* ---- shading ---- */

void
iochart_blocks_shade_runs (IochartBlocks *b, const double *columns, double min_width,
                           IochartBlocksRunTip tip, gpointer user_data)
{
  for (guint i = 0; i < b->n;)
    {
      g_autofree char *tooltip = NULL, *meta = NULL;
      IochartDlItem *item;
      guint j;

      if (columns[i] <= 0)
        {
          i++;
          continue;
        }
      /* runs bridge one-column gaps: a pixel without it inside a run is noise */
      for (j = i + 1; j < b->n && (columns[j] > 0 || (j + 1 < b->n && columns[j + 1] > 0)); j++)
        ;
      if (tip)
        tip (b, i, j, &tooltip, &meta, user_data);
      item = iochart_display_list_rect (b->under, b->x0 + i, b->plot_top, MAX (j - i, min_width),
                                        b->plot_bottom - b->plot_top, b->colors->steal_shade, 0);
      if (tooltip)
        iochart_dl_item_set_tooltip (item, tooltip);
      if (meta)
        iochart_dl_item_set_meta (item, meta);
      i = j;
    }
}

/* ---- marks ---- */

double
iochart_blocks_marks_band (IochartBlocks *b, const IochartBlocksMark *marks, guint n_marks, double top,
                           guint32 color, guint32 strong_color)
{
  g_autoptr(GArray) row_end = g_array_new (FALSE, FALSE, sizeof (double));
  double line_h = FONT_SMALL + 5;

  for (guint i = 0; i < n_marks; i++)
    {
      const IochartBlocksMark *m = &marks[i];
      double x, w, left;
      guint r;
      g_autofree char *text = NULL;
      IochartDlItem *tick;

      if (m->ns < b->from_ns || m->ns > b->to_ns)
        continue;
      x = iochart_blocks_time_x (b, m->ns);
      text = iochart_text_ellipsize (m->label, FONT_SMALL, m->strong, 300);
      w = iochart_text_width (text, FONT_SMALL, m->strong);
      /* labels start at their line, or end at it near the right edge */
      left = x + w + 3 > b->width - IOCHART_BLOCKS_MARGIN ? x - w - 3 : x + 3;
      for (r = 0; r < row_end->len; r++)
        if (g_array_index (row_end, double, r) + 6 <= left)
          break;
      if (r == row_end->len)
        {
          double none = -1e9;
          g_array_append_val (row_end, none);
        }
      g_array_index (row_end, double, r) = left + w;
      iochart_blocks_label (b, left, top + (r + 1) * line_h - 4, text, FONT_SMALL, m->strong, IOCHART_ANCHOR_START,
                            m->strong ? strong_color : color, 0, m->tooltip);
      /* a tick from the label down to the plot, where the line takes over */
      tick = iochart_display_list_line (b->dl, x, top + r * line_h + 1, x, top + row_end->len * line_h + 18,
                                        m->strong ? strong_color : color, m->strong ? 1.5 : 1);
      tick->dashed = !m->strong;
      iochart_dl_item_set_tooltip (tick, m->tooltip);
    }
  return row_end->len * line_h;
}

void
iochart_blocks_mark_lines (IochartBlocks *b, const IochartBlocksMark *marks, guint n_marks, guint32 color,
                           guint32 strong_color)
{
  for (guint i = 0; i < n_marks; i++)
    {
      const IochartBlocksMark *m = &marks[i];
      IochartDlItem *line;
      double x;

      if (m->ns < b->from_ns || m->ns > b->to_ns)
        continue;
      x = iochart_blocks_time_x (b, m->ns);
      line = iochart_display_list_line (b->dl, x, b->plot_top, x, b->plot_bottom,
                                        m->strong ? strong_color : color, m->strong ? 1.5 : 1);
      line->dashed = !m->strong;
    }
}

/* ---- where the time went ---- */

static const guint32 split_colors[IOCHART_N_SPLITS] = {
  0x555555ff, 0xe69f00ff, 0x8b4513ff, 0xc8a878ff, 0xd8d8d8ff,
};
/* on a dark background running stands out light and sleep fades dark, as the help says */
static const guint32 split_colors_dark[IOCHART_N_SPLITS] = {
  0xd0d0d0ff, 0xe69f00ff, 0xb5651dff, 0xc8a878ff, 0x505050ff,
};

static gboolean
dark_background (const IochartBlocks *b)
{
  guint32 bg = b->colors ? b->colors->bg : 0xffffffff;

  return ((bg >> 24) & 0xff) + ((bg >> 16) & 0xff) + ((bg >> 8) & 0xff) < 3 * 0x80;
}

static char *
split_text (const IochartTimeSplit *s)
{
  GString *t = g_string_new (NULL);

  for (guint k = 0; k < IOCHART_N_SPLITS; k++)
    g_string_append_printf (t, "%s%.0f%% %s", k ? " · " : "", 100.0 * s->ns[k] / MAX (s->life_ns, 1),
                            iochart_split_kind_label (k));
  return g_string_free (t, FALSE);
}

void
iochart_blocks_time_split_bar (IochartBlocks *b, double x, double y, double w, const IochartTimeSplit *s,
                               const char *whose)
{
  g_autofree char *text = NULL, *tip = NULL;

  if (s->life_ns <= 0)
    return;
  text = split_text (s);
  tip = g_strdup_printf ("where %s time went: %s", whose, text);
  iochart_display_list_begin_group (b->dl, tip, "time-split");
  for (guint k = 0; k < IOCHART_N_SPLITS; k++)
    {
      double dw = w * s->ns[k] / s->life_ns;
      if (dw > 0.05)
        iochart_display_list_rect (b->dl, x, y, dw, 2, (dark_background (b) ? split_colors_dark : split_colors)[k], 0);
      x += dw;
    }
  iochart_display_list_end_group (b->dl);
}
