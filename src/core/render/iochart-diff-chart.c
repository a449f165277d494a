/* iochart-diff-chart.c: the diff's rows drawn with the chart's blocks */
#include "iochart-diff-chart.h"
#include "iochart-blocks.h"
#include "iochart-format.h"
#include "iochart-view.h"

#define A_COLOR      0x8c8c8cffu   /* grey: before */
#define B_COLOR      0xe69f00ffu   /* orange: after (Okabe-Ito) */
#define CHANGE_COLOR 0xd55e00ffu   /* vermillion */
#define ROW_H        26.0

static char *
side_tip (const char *which, const char *name, const IochartDiffSide *s)
{
  g_autofree char *start = NULL, *end = NULL, *bytes = NULL, *stolen = NULL, *p99 = NULL;

  if (!s->present)
    return g_strdup_printf ("%s: %s: not in this capture", which, name);
  start = s->start_ns != IOCHART_TIME_UNKNOWN ? iochart_format_duration (s->start_ns) : g_strdup ("-");
  end = s->end_ns != IOCHART_TIME_UNKNOWN ? iochart_format_duration (s->end_ns) : g_strdup ("-");
  bytes = iochart_format_bytes (s->bytes);
  stolen = iochart_format_duration (s->stolen_ns);
  p99 = s->q2c_p99_ns != IOCHART_TIME_UNKNOWN ? iochart_format_duration (s->q2c_p99_ns) : g_strdup ("-");
  return g_strdup_printf ("%s: %s%s%s%s\nfirst I/O %s, last completion %s\n%" G_GUINT64_FORMAT " requests, %s, "
                          "queue-to-complete p99 %s, idle steal %s",
                          which, name, s->label ? " (" : "", s->label ? s->label : "", s->label ? ")" : "",
                          start, end, s->requests, bytes, p99, stolen);
}

static void
bar (IochartBlocks *b, const IochartDiffSide *s, double y, double h, guint32 color, const char *tip)
{
  double x0, x1;
  IochartDlItem *it;

  if (!s->present || s->start_ns == IOCHART_TIME_UNKNOWN || s->end_ns == IOCHART_TIME_UNKNOWN)
    return;
  x0 = iochart_blocks_time_x (b, s->start_ns);
  x1 = MAX (iochart_blocks_time_x (b, s->end_ns), x0 + 1);
  it = iochart_display_list_rect (b->dl, x0, y, x1 - x0, h, color, 0);
  iochart_dl_item_set_tooltip (it, tip);
}

/* A moved end: a line from A's time to B's across the row, and a tick at each. */
static void
mark_move (IochartBlocks *b, gint64 ta, gint64 tb, double y, const char *tip)
{
  double xa, xb;
  IochartDlItem *it;

  if (ta == IOCHART_TIME_UNKNOWN || tb == IOCHART_TIME_UNKNOWN)
    return;
  xa = iochart_blocks_time_x (b, ta);
  xb = iochart_blocks_time_x (b, tb);
  it = iochart_display_list_line (b->dl, xa, y + 2, xb, y + ROW_H - 2, CHANGE_COLOR, 2);
  iochart_dl_item_set_tooltip (it, tip);
  iochart_display_list_line (b->dl, xb, y + ROW_H / 2, xb, y + ROW_H - 2, CHANGE_COLOR, 2);
}

/* A row's label, right-aligned at the plot, cut to the label column (a narrow chart's ran off the
 * image's left edge) with the whole as its tooltip. */
static void
row_label (IochartBlocks *b, double y, const char *text, double size, gboolean bold, guint32 color, int priority)
{
  g_autofree char *cut = iochart_text_ellipsize (text, size, bold, b->x0 - 8 - IOCHART_BLOCKS_MARGIN);

  iochart_blocks_label (b, b->x0 - 8, y, cut, size, bold, IOCHART_ANCHOR_END, color, priority,
                        strcmp (cut, text) != 0 ? text : NULL);
}

static void
row (IochartBlocks *b, IochartDiff *diff, guint i)
{
  const IochartDiffRow *r = iochart_diff_get_row (diff, i);
  double y = b->y;
  g_autofree char *tip_a = side_tip ("A", r->name, &r->a), *tip_b = side_tip ("B", r->name, &r->b);
  g_autofree char *what = iochart_diff_changes_text (r->changes);
  g_autofree char *label = g_strdup_printf ("%s %s", iochart_diff_row_kind (diff, i), r->name);
  g_autofree char *meta = g_strdup_printf ("diff-row:%u", i);
  IochartDlItem *g;

  g = iochart_display_list_begin_group (b->dl, NULL, meta);
  (void) g;
  if (r->changes)
    {
      g_autofree char *tip = g_strdup_printf ("%s changed: %s", r->name, what);
      IochartDlItem *it = iochart_display_list_rect (b->under, 0, y, b->width, ROW_H,
                                                     iochart_rgba_with_alpha (CHANGE_COLOR, 0x1c), 0);
      iochart_dl_item_set_tooltip (it, tip);
    }
  row_label (b, y + ROW_H / 2 - 1, label, IOCHART_BLOCKS_FONT_SMALL, r->changes != 0, b->colors->fg, 1);
  if (r->changes)
    {
      g_autofree char *text = g_strdup_printf ("changed: %s", what);
      row_label (b, y + ROW_H - 3, text, 8.5, FALSE, CHANGE_COLOR, 2);
    }
  bar (b, &r->a, y + 3, ROW_H / 2 - 4, A_COLOR, tip_a);
  bar (b, &r->b, y + ROW_H / 2 + 1, ROW_H / 2 - 4, B_COLOR, tip_b);
  if (r->changes & IOCHART_DIFF_START)
    mark_move (b, r->a.start_ns, r->b.start_ns, y, tip_b);
  if (r->changes & IOCHART_DIFF_END)
    mark_move (b, r->a.end_ns, r->b.end_ns, y, tip_b);
  iochart_display_list_end_group (b->dl);
  iochart_display_list_line (b->under, b->x0, y + ROW_H, b->width - IOCHART_VIEW_RIGHT_MARGIN, y + ROW_H,
                             b->colors->grid, 1);
  b->y += ROW_H;
}

IochartDisplayList *
iochart_diff_chart_draw (IochartDiff *diff, const char *name_a, const char *name_b, guint width, IochartTheme theme)
{
  IochartBlocks b;
  gint64 from, to;
  double axis_top;
  g_autofree char *title = g_strdup_printf ("A: %s   B: %s", name_a, name_b);
  g_autofree char *shift = iochart_format_duration (iochart_diff_get_shift_ns (diff));
  g_autofree char *sub = g_strdup_printf ("%u of %u rows changed. On the captures' own clocks B's alignment point is %s%s after A's.",
                                          iochart_diff_get_n_changed (diff), iochart_diff_get_n_rows (diff),
                                          iochart_diff_get_shift_ns (diff) > 0 ? "+" : "", shift);
  const IochartLegendItem legend[] = {
    { "A: first I/O to last completion", A_COLOR, NULL },
    { "B: the same", B_COLOR, NULL },
    { "changed (the line joins A's time to B's)", CHANGE_COLOR, NULL },
  };

  width = MAX (width, IOCHART_VIEW_MIN_WIDTH);
  iochart_diff_get_span (diff, &from, &to);
  iochart_blocks_init (&b, iochart_chart_colors (theme), width, iochart_view_label_width (width),
                       width - iochart_view_label_width (width) - IOCHART_VIEW_RIGHT_MARGIN, from, to, 0);
  b.y = IOCHART_BLOCKS_MARGIN;
  iochart_blocks_header_line (&b, title, 14, TRUE, b.colors->fg, NULL);
  iochart_blocks_header_line (&b, sub, IOCHART_BLOCKS_FONT, FALSE, b.colors->dim, NULL);
  b.y += 8;
  iochart_blocks_legend (&b, legend, G_N_ELEMENTS (legend), 0);
  b.y += 10;
  axis_top = b.y + 10;
  b.y += 16;
  b.plot_top = b.y;
  for (guint i = 0; i < iochart_diff_get_n_rows (diff); i++)
    {
      const IochartDiffRow *r = iochart_diff_get_row (diff, i);

      /* classes nobody used in either capture say nothing */
      if (r->a.requests == 0 && r->b.requests == 0 && r->changes == 0)
        continue;
      row (&b, diff, i);
    }
  b.plot_bottom = b.y;
  iochart_blocks_time_axis (&b, axis_top, FALSE);
  iochart_blocks_time_axis (&b, b.y + 14, TRUE);
  b.y += 24;
  return iochart_blocks_finish (&b);
}
