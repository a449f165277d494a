/* iochart-chart.c: the layout of the headless chart */
#include <math.h>
#include <string.h>
#include "iochart-chart.h"

/* Okabe-Ito: tells apart under every common colour-vision deficiency. */
static const guint32 class_colors[IOCHART_N_CLASSES] = {
  [IOCHART_CLASS_NONE]    = 0x999999ff,
  [IOCHART_CLASS_RT]      = 0xcc79a7ff,   /* reddish purple */
  [IOCHART_CLASS_BE]      = 0x0072b2ff,   /* blue */
  [IOCHART_CLASS_IDLE]    = 0x009e73ff,   /* bluish green */
  [IOCHART_CLASS_UNKNOWN] = 0x56b4e9ff,   /* sky blue */
};
/* stacking order, bottom up: idle on top of the foreground it competes with */
static const IochartClass stack_order[] = {
  IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_NONE, IOCHART_CLASS_UNKNOWN, IOCHART_CLASS_IDLE,
};

#define STEAL_COLOR 0xd55e00ff    /* vermillion */

typedef struct {
  guint32 bg, fg, dim, grid, frame, stripe, life, steal_shade;
} Palette;

static const Palette light = {
  .bg = 0xffffffff, .fg = 0x202020ff, .dim = 0x606060ff, .grid = 0xe4e4e4ff, .frame = 0xb0b0b0ff,
  .stripe = 0xf5f5f5ff, .life = 0xc8c8c8ff, .steal_shade = 0xd55e0026,
};
static const Palette dark = {
  .bg = 0x1c1c20ff, .fg = 0xe6e6e6ff, .dim = 0xa0a0a0ff, .grid = 0x34343aff, .frame = 0x5a5a60ff,
  .stripe = 0x24242aff, .life = 0x55555cff, .steal_shade = 0xd55e0040,
};

#define MARGIN        12.0
#define FONT          11.0
#define FONT_SMALL    10.0
#define LINE          16.0
#define LANE_HEIGHT   30.0

typedef struct {
  double        x, y;
  char         *text;
  double        size;
  gboolean      bold;
  IochartAnchor anchor;
  guint32       fill;
  char         *tooltip;
  int           priority;   /* lower wins when two would overlap */
  guint         order;
} Label;

typedef struct {
  IochartView              *view;
  IochartCapture           *capture;
  IochartBins              *bins;
  IochartSteal             *steal;
  const IochartStealDevice *sdev;
  IochartLanes             *lanes;
  const Palette            *pal;
  IochartDisplayList       *under;     /* grid and shading, drawn first */
  IochartDisplayList       *dl;
  GArray                   *labels;    /* Label, drawn last */
  double                    width;
  double                    x0;        /* left of the plot area */
  guint                     n;         /* columns = plot width */
  double                    y;         /* layout cursor */
  double                    plot_top, plot_bottom;
  gint64                    origin_ns; /* time labels count from the capture's start */
} Chart;

gboolean
iochart_theme_from_name (const char *name, IochartTheme *theme)
{
  if (g_strcmp0 (name, "light") == 0)
    *theme = IOCHART_THEME_LIGHT;
  else if (g_strcmp0 (name, "dark") == 0)
    *theme = IOCHART_THEME_DARK;
  else
    return FALSE;
  return TRUE;
}

guint32
iochart_class_color (IochartClass klass)
{
  return class_colors[MIN (klass, IOCHART_N_CLASSES - 1)];
}

static guint32
with_alpha (guint32 rgba, guint8 alpha)
{
  return (rgba & 0xffffff00u) | alpha;
}

/* ---- units ---- */

static char *
fmt_bytes (double bytes)
{
  static const char * const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  guint u = 0;

  while (bytes >= 1024 && u + 1 < G_N_ELEMENTS (units))
    {
      bytes /= 1024;
      u++;
    }
  if (u == 0)
    return g_strdup_printf ("%.0f B", bytes);
  return g_strdup_printf (bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

static char *
fmt_dur (double ns)
{
  double a = fabs (ns);

  if (a == 0)
    return g_strdup ("0 s");
  if (a < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (a < 1e6)
    return g_strdup_printf (a < 1e4 ? "%.1f µs" : "%.0f µs", ns / 1e3);
  if (a < 1e9)
    return g_strdup_printf (a < 1e7 ? "%.1f ms" : "%.0f ms", ns / 1e6);
  return g_strdup_printf (a < 1e11 ? "%.1f s" : "%.0f s", ns / 1e9);
}

static char *
fmt_count (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

static char *
fmt_dev (IochartCapture *capture, int device)
{
  const IochartDevice *d = iochart_capture_get_device (capture, device);

  if (d->name)
    return g_strdup_printf ("%u,%u (%s)", IOCHART_DEV_MAJOR (d->dev), IOCHART_DEV_MINOR (d->dev), d->name);
  return g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (d->dev), IOCHART_DEV_MINOR (d->dev));
}

static char *
fmt_process (IochartCapture *capture, guint32 p)
{
  const IochartProcess *proc;

  if (p == IOCHART_NO_PROCESS || p >= iochart_capture_get_n_processes (capture))
    return g_strdup ("unknown process");
  proc = iochart_capture_get_process (capture, p);
  return g_strdup_printf ("%s[%d]", proc->comm ? proc->comm : "?", proc->pid);
}

/* The smallest 1, 2 or 5 × 10^k at least v. */
static double
nice_ceil (double v)
{
  double e, f;

  if (v <= 0)
    return 1;
  e = pow (10, floor (log10 (v)));
  f = v / e;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

/* ---- labels: collected, then placed so that no two ever overlap ---- */

static void
label_full (Chart *c, double x, double y, const char *text, double size, gboolean bold,
            IochartAnchor anchor, guint32 fill, int priority, const char *tooltip)
{
  Label l = { x, y, g_strdup (text), size, bold, anchor, fill, g_strdup (tooltip), priority,
              c->labels->len };
  g_array_append_val (c->labels, l);
}

static void
label (Chart *c, double x, double y, const char *text, double size, IochartAnchor anchor,
       guint32 fill, int priority)
{
  label_full (c, x, y, text, size, FALSE, anchor, fill, priority, NULL);
}

static int
label_priority_cmp (gconstpointer a, gconstpointer b)
{
  const Label *x = *(const Label * const *) a, *y = *(const Label * const *) b;

  if (x->priority != y->priority)
    return x->priority - y->priority;
  return x->order < y->order ? -1 : x->order > y->order;
}

static void
place_labels (Chart *c)
{
  g_autoptr(GPtrArray) by_priority = g_ptr_array_new ();
  g_autoptr(GArray) kept = g_array_new (FALSE, FALSE, sizeof (double) * 4);
  g_autofree gboolean *keep = g_new0 (gboolean, c->labels->len);
  g_autoptr(IochartDisplayList) scratch = iochart_display_list_new (1, 1);

  for (guint i = 0; i < c->labels->len; i++)
    g_ptr_array_add (by_priority, &g_array_index (c->labels, Label, i));
  g_ptr_array_sort (by_priority, label_priority_cmp);
  for (guint i = 0; i < by_priority->len; i++)
    {
      Label *l = g_ptr_array_index (by_priority, i);
      IochartDlItem *probe = iochart_display_list_text (scratch, l->x, l->y, l->text, l->size,
                                                        l->bold, l->anchor, l->fill);
      double box[4];
      gboolean clash = FALSE;

      iochart_dl_item_text_box (probe, &box[0], &box[1], &box[2], &box[3]);
      for (guint k = 0; k < kept->len && !clash; k++)
        {
          const double *o = (const double *) (kept->data + k * sizeof box);
          clash = box[0] < o[0] + o[2] && o[0] < box[0] + box[2] &&
                  box[1] < o[1] + o[3] && o[1] < box[1] + box[3];
        }
      if (clash)
        {
          g_debug ("label \"%s\" dropped: it would overlap another", l->text);
          continue;
        }
      g_array_append_vals (kept, box, 1);
      keep[l->order] = TRUE;
    }
  for (guint i = 0; i < c->labels->len; i++)
    {
      Label *l = &g_array_index (c->labels, Label, i);

      if (keep[i])
        {
          IochartDlItem *item = iochart_display_list_text (c->dl, l->x, l->y, l->text, l->size,
                                                           l->bold, l->anchor, l->fill);
          if (l->tooltip)
            iochart_dl_item_set_tooltip (item, l->tooltip);
        }
      g_free (l->text);
      g_free (l->tooltip);
    }
  g_array_set_size (c->labels, 0);
}

/* ---- geometry helpers ---- */

static double
col_x (Chart *c, double col)
{
  return c->x0 + col;
}

static double
time_x (Chart *c, gint64 ns)
{
  double from = iochart_view_get_from_ns (c->view), to = iochart_view_get_to_ns (c->view);
  return c->x0 + ((double) ns - from) / (to - from) * c->n;
}

/* Drops the middle of runs of points at one height: flat stretches cost two points. */
static void
simplify (GArray *pts)
{
  guint out = 0;
  double *p = (double *) pts->data;
  guint n = pts->len / 2;

  for (guint i = 0; i < n; i++)
    {
      if (i > 0 && i + 1 < n && p[2 * i + 1] == p[2 * (i - 1) + 1] && p[2 * i + 1] == p[2 * (i + 1) + 1])
        continue;
      p[2 * out] = p[2 * i];
      p[2 * out + 1] = p[2 * i + 1];
      out++;
    }
  g_array_set_size (pts, out * 2);
}

/* Stacked areas from base_y; scale is pixels per unit, negative to grow upwards. */
static void
stacked (Chart *c, double *const series[IOCHART_N_CLASSES], double base_y, double scale,
         guint8 alpha, const char *what)
{
  g_autofree double *cum = g_new0 (double, c->n);

  for (guint s = 0; s < G_N_ELEMENTS (stack_order); s++)
    {
      IochartClass k = stack_order[s];
      const double *v = series[k];
      g_autoptr(GArray) top = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) bottom = g_array_new (FALSE, FALSE, sizeof (double));
      gboolean any = FALSE;
      IochartDlItem *item;
      g_autofree char *tip = NULL;

      if (v == NULL)
        continue;
      for (guint i = 0; i < c->n && !any; i++)
        any = v[i] > 0;
      if (!any)
        continue;
      for (guint i = 0; i < c->n; i++)
        {
          double x = i == 0 ? col_x (c, 0) : i + 1 == c->n ? col_x (c, c->n) : col_x (c, i + 0.5);
          double pt[2] = { x, base_y + (cum[i] + v[i]) * scale };
          g_array_append_vals (top, pt, 2);
        }
      for (guint i = c->n; i-- > 0;)
        {
          double x = i == 0 ? col_x (c, 0) : i + 1 == c->n ? col_x (c, c->n) : col_x (c, i + 0.5);
          double pt[2] = { x, base_y + cum[i] * scale };
          g_array_append_vals (bottom, pt, 2);
          cum[i] += v[i];
        }
      simplify (top);
      simplify (bottom);
      g_array_append_vals (top, bottom->data, bottom->len);
      {
        guint np = top->len / 2;
        item = iochart_display_list_polygon (c->dl, (double *) g_array_free (g_steal_pointer (&top), FALSE),
                                             np, with_alpha (class_colors[k], alpha));
      }
      tip = g_strdup_printf ("%s, %s class", what, iochart_class_name (k));
      iochart_dl_item_set_tooltip (item, tip);
    }
}
