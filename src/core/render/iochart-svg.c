/* iochart-svg.c: SVG writer of the display list */
#include <math.h>
#include <string.h>
#include "iochart-svg.h"
#include "iochart-png.h"
#include "iochart-output.h"
#include "iochart-error.h"

/* g_string_append_len() for the writer's short pieces, in place while there is room: glib 2.74
 * makes each append a call into g_string_insert_len(), 90 instructions for a number's few
 * bytes, and a chart has tens of thousands of them. */
static inline void
put (GString *out, const char *s, gsize n)
{
  if (G_LIKELY (out->len + n < out->allocated_len))
    {
      memcpy (out->str + out->len, s, n);
      out->len += n;
      out->str[out->len] = '\0';
    }
  else
    g_string_append_len (out, s, n);
}

static inline void
put_str (GString *out, const char *s)
{
  put (out, s, strlen (s));
}

/* a string literal, its length known at compile time */
#define PUT(out, literal) put (out, "" literal, sizeof (literal) - 1)

/* Shortest fixed form: 12, 12.5 (one decimal is far below a pixel). */
static void
num (GString *out, double v)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  gsize len;
  double t = v * 10.0, f = t - floor (t);

  /* Most numbers are far from a tie at the first decimal: round in integers, as printf would
   * (a chart has tens of thousands of them, and printf's exact decimal conversion is most
   * of the SVG writer's time). Near a tie, t's own rounding could differ from printf's exact
   * one: printf decides. */
  if (fabs (t) < 1e15 && fabs (f - 0.5) > 1e-6)
    {
      gint64 q = (gint64) floor (t + 0.5);
      char *p = buf + sizeof buf;

      if (q % 10 != 0)
        {
          *--p = (char) ('0' + ABS (q % 10));
          *--p = '.';
        }
      for (guint64 i = ABS (q / 10); p == buf + sizeof buf || i != 0 || p[0] == '.'; i /= 10)
        *--p = (char) ('0' + i % 10);
      if (q < 0)
        *--p = '-';
      put (out, p, buf + sizeof buf - p);
      return;
    }
  g_ascii_formatd (buf, sizeof buf, "%.1f", v);
  len = strlen (buf);
  if (len >= 2 && buf[len - 2] == '.' && buf[len - 1] == '0')
    buf[len - 2] = '\0';
  if (strcmp (buf, "-0") == 0)
    strcpy (buf, "0");
  put_str (out, buf);
}

static void
attr_num (GString *out, const char *name, double v)
{
  g_string_append_c (out, ' ');
  put_str (out, name);
  PUT (out, "=\"");
  num (out, v);
  g_string_append_c (out, '"');
}

/* "%.3g" of an alpha byte, as printf writes it, kept: printf was a third of the writer. */
static const char *
opacity_text (guint8 a)
{
  static __thread char text[256][12];

  if (text[a][0] == '\0')
    g_snprintf (text[a], sizeof text[a], "%.3g", a / 255.0);
  return text[a];
}

static void
paint (GString *out, const char *what, guint32 c)
{
  static const char hex[] = "0123456789abcdef";
  char rgb[8] = "#";

  g_string_append_c (out, ' ');
  put_str (out, what);
  if (c == 0)
    {
      PUT (out, "=\"none\"");
      return;
    }
  for (guint i = 0; i < 6; i++)
    rgb[1 + i] = hex[(c >> (28 - 4 * i)) & 15];
  PUT (out, "=\"");
  put (out, rgb, 7);
  g_string_append_c (out, '"');
  if ((c & 0xff) != 0xff)
    {
      g_string_append_c (out, ' ');
      put_str (out, what);
      PUT (out, "-opacity=\"");
      put_str (out, opacity_text (c & 0xff));
      g_string_append_c (out, '"');
    }
}

static void
stroke_attrs (GString *out, const IochartDlItem *item)
{
  if (item->stroke == 0)
    return;
  paint (out, "stroke", item->stroke);
  if (item->line_width != 1.0)
    attr_num (out, "stroke-width", item->line_width);
  if (item->dashed)
    PUT (out, " stroke-dasharray=\"4 3\"");
}

/* XML 1.0 allows no control characters but tab and newline, even escaped; comms can hold any
 * byte, so they become U+FFFD, as invalid UTF-8 does. */
static void
escaped (GString *out, const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);
  g_autofree char *esc = NULL;

  for (char *p = valid; *p; p++)
    if ((guchar) *p < 0x20 && *p != '\n' && *p != '\t')
      *p = '?';
  esc = g_markup_escape_text (valid, -1);
  put_str (out, esc);
}

/* What an item stands for, for tools that read the SVG. */
static void
meta_attr (GString *out, const IochartDlItem *item)
{
  if (item->meta == NULL)
    return;
  PUT (out, " data-meta=\"");
  escaped (out, item->meta);
  g_string_append_c (out, '"');
}

/* A tooltip: browsers show an element's <title> child on hover. */
static void
title_child (GString *out, const IochartDlItem *item)
{
  if (item->tooltip == NULL)
    return;
  PUT (out, "<title>");
  escaped (out, item->tooltip);
  PUT (out, "</title>");
}

/* Closes an element, with its <title> child when it has a tooltip. */
static void
close_element (GString *out, const char *name, const IochartDlItem *item)
{
  meta_attr (out, item);
  if (item->tooltip == NULL)
    {
      PUT (out, "/>\n");
      return;
    }
  g_string_append_c (out, '>');
  title_child (out, item);
  PUT (out, "</");
  put_str (out, name);
  PUT (out, ">\n");
}

static void
image (GString *out, const IochartDlItem *item)
{
  g_autoptr(GBytes) png = NULL;
  g_autofree char *b64 = NULL;

  png = iochart_png_encode_argb32 (item->pixels, item->width_px, item->height_px, item->stride);
  if (png != NULL)
    b64 = g_base64_encode (g_bytes_get_data (png, NULL), g_bytes_get_size (png));
  PUT (out, "<image");
  attr_num (out, "x", item->x);
  attr_num (out, "y", item->y);
  attr_num (out, "width", item->w);
  attr_num (out, "height", item->h);
  PUT (out, " preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,");
  put_str (out, b64 != NULL ? b64 : "");
  g_string_append_c (out, '"');
  close_element (out, "image", item);
}

static void
points (GString *out, const IochartDlItem *item)
{
  PUT (out, " points=\"");
  for (guint k = 0; k < item->n_points; k++)
    {
      if (k)
        g_string_append_c (out, ' ');
      num (out, item->points[2 * k]);
      g_string_append_c (out, ',');
      num (out, item->points[2 * k + 1]);
    }
  g_string_append_c (out, '"');
}

static void
item_svg (GString *out, const IochartDlItem *item)
{
  static const char * const anchors[] = { NULL, "middle", "end" };

  switch (item->kind)
    {
    case IOCHART_DL_RECT:
      PUT (out, "<rect");
      attr_num (out, "x", item->x);
      attr_num (out, "y", item->y);
      attr_num (out, "width", item->w);
      attr_num (out, "height", item->h);
      paint (out, "fill", item->fill);
      stroke_attrs (out, item);
      close_element (out, "rect", item);
      break;
    case IOCHART_DL_LINE:
      PUT (out, "<line");
      attr_num (out, "x1", item->x);
      attr_num (out, "y1", item->y);
      attr_num (out, "x2", item->x2);
      attr_num (out, "y2", item->y2);
      stroke_attrs (out, item);
      close_element (out, "line", item);
      break;
    case IOCHART_DL_POLYGON:
    case IOCHART_DL_POLYLINE:
      {
        const char *name = item->kind == IOCHART_DL_POLYGON ? "polygon" : "polyline";
        PUT (out, "<");
        put_str (out, name);
        points (out, item);
        paint (out, "fill", item->fill);
        stroke_attrs (out, item);
        if (item->kind == IOCHART_DL_POLYLINE)
          PUT (out, " stroke-linejoin=\"round\"");
        close_element (out, name, item);
      }
      break;
    case IOCHART_DL_TEXT:
      PUT (out, "<text");
      attr_num (out, "x", item->x);
      attr_num (out, "y", item->y);
      attr_num (out, "font-size", item->font_size);
      if (item->bold)
        PUT (out, " font-weight=\"bold\"");
      if (anchors[item->anchor])
        {
          PUT (out, " text-anchor=\"");
          put_str (out, anchors[item->anchor]);
          PUT (out, "\"");
        }
      paint (out, "fill", item->fill);
      meta_attr (out, item);
      g_string_append_c (out, '>');
      title_child (out, item);
      escaped (out, item->text);
      PUT (out, "</text>\n");
      break;
    case IOCHART_DL_IMAGE:
      image (out, item);
      break;
    case IOCHART_DL_GROUP_BEGIN:
      PUT (out, "<g");
      meta_attr (out, item);
      g_string_append_c (out, '>');
      title_child (out, item);
      g_string_append_c (out, '\n');
      break;
    case IOCHART_DL_GROUP_END:
      PUT (out, "</g>\n");
      break;
    }
}

/* About what writing an item costs, in units of about 100 instructions (a number with its share
 * of the markup around it is one or two, a pixel of an image 0.58): the items are split between
 * two threads by it. */
static guint64
item_weight (const IochartDlItem *item)
{
  switch (item->kind)
    {
    case IOCHART_DL_POLYGON:
    case IOCHART_DL_POLYLINE:
      return 4 + 2 * (guint64) item->n_points;
    case IOCHART_DL_IMAGE:
      return 8 + (guint64) item->width_px * item->height_px * 58 / 100;
    case IOCHART_DL_GROUP_BEGIN:
    case IOCHART_DL_GROUP_END:
      return 1;
    default:
      return 12;
    }
}

typedef struct {
  IochartDisplayList *dl;
  guint               from, to;
  GString            *out;
} Part;

static gpointer
write_part (gpointer data)
{
  Part *part = data;

  for (guint i = part->from; i < part->to; i++)
    item_svg (part->out, iochart_display_list_get_item (part->dl, i));
  return NULL;
}

/* The run of items [*a, *b) that weighs nearest half of all (one image can be half of a chart):
 * a thread writes it while the caller writes the items before and after it. */
static void
middle_half (const guint64 *prefix, guint n, guint *a, guint *b)
{
  guint64 half = prefix[n] / 2, best = G_MAXUINT64;

  for (guint i = 0, j = 0; i < n; i++)
    {
      j = MAX (j, i + 1);
      while (j < n && prefix[j] - prefix[i] < half)
        j++;
      for (guint k = MAX (j - 1, i + 1); k <= j; k++)
        {
          guint64 w = prefix[k] - prefix[i], off = w > half ? w - half : half - w;

          if (off < best)
            {
              best = off;
              *a = i;
              *b = k;
            }
        }
    }
}

/* Below this much work (about 2 ms) a second thread costs more than it saves. */
#define SVG_THREAD_MIN_WEIGHT 10000

char *
iochart_svg_to_string (IochartDisplayList *dl, gsize *len)
{
  GString *out = g_string_sized_new (65536);
  double w = iochart_display_list_get_width (dl), h = iochart_display_list_get_height (dl);
  guint n = iochart_display_list_get_n_items (dl);
  g_autofree guint64 *prefix = g_new (guint64, n + 1);
  Part head = { dl, 0, n, out }, middle = { dl, n, n, NULL }, tail = { dl, n, n, NULL };
  GThread *thread = NULL;

  prefix[0] = 0;
  for (guint i = 0; i < n; i++)
    prefix[i + 1] = prefix[i] + item_weight (iochart_display_list_get_item (dl, i));
  if (prefix[n] >= SVG_THREAD_MIN_WEIGHT && g_get_num_processors () > 1)
    {
      middle_half (prefix, n, &middle.from, &middle.to);
      head.to = middle.from;
      tail.from = middle.to;
      middle.out = g_string_sized_new (65536);
      tail.out = g_string_sized_new (65536);
      thread = g_thread_new ("iochart-svg", write_part, &middle);
    }
  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
  attr_num (out, "width", w);
  attr_num (out, "height", h);
  PUT (out, " viewBox=\"0 0 ");
  num (out, w);
  g_string_append_c (out, ' ');
  num (out, h);
  PUT (out, "\" font-family=\"" IOCHART_FONT_FAMILY ", sans-serif\">\n");
  PUT (out, "<rect width=\"100%\" height=\"100%\"");
  paint (out, "fill", iochart_display_list_get_background (dl));
  PUT (out, "/>\n");
  write_part (&head);
  if (thread)
    {
      write_part (&tail);
      g_thread_join (thread);
      g_string_append_len (out, middle.out->str, middle.out->len);
      g_string_append_len (out, tail.out->str, tail.out->len);
      g_string_free (middle.out, TRUE);
      g_string_free (tail.out, TRUE);
    }
  PUT (out, "</svg>\n");
  if (len)
    *len = out->len;
  return g_string_free (out, FALSE);
}

gboolean
iochart_svg_write (IochartDisplayList *dl, const char *path, GError **error)
{
  gsize len;
  g_autofree char *svg = iochart_svg_to_string (dl, &len);

  return iochart_output_replace_bytes (path, svg, len, error);
}
