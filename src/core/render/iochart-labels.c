/* iochart-labels.c: overlap-free label placement shared by the I/O chart and the boot chart */
#include "iochart-labels.h"

typedef struct {
  double        x, y;
  char         *text;
  double        size;
  gboolean      bold;
  IochartAnchor anchor;
  guint32       fill;
  char         *tooltip;
  int           priority;
  guint         order;
  gboolean      dropped;
  double        box[4];   /* x, y, w, h */
} Label;

struct _IochartLabels {
  GArray *labels;         /* Label */
};

static void
label_clear (gpointer data)
{
  Label *l = data;

  g_free (l->text);
  g_free (l->tooltip);
}

IochartLabels *
iochart_labels_new (void)
{
  IochartLabels *self = g_new0 (IochartLabels, 1);

  self->labels = g_array_new (FALSE, FALSE, sizeof (Label));
  g_array_set_clear_func (self->labels, label_clear);
  return self;
}

void
iochart_labels_free (IochartLabels *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->labels);
  g_free (self);
}

void
iochart_labels_add (IochartLabels *self, double x, double y, const char *text, double font_size,
                    gboolean bold, IochartAnchor anchor, guint32 fill, int priority, const char *tooltip)
{
  Label l = { x, y, g_strdup (text), font_size, bold, anchor, fill, g_strdup (tooltip), priority,
              self->labels->len, FALSE, { 0 } };
  double ascent, descent, w = iochart_text_width (text, font_size, bold);

  /* the same box iochart_dl_item_text_box() gives the drawn item */
  iochart_font_extents (font_size, &ascent, &descent);
  l.box[0] = x - (anchor == IOCHART_ANCHOR_MIDDLE ? w / 2 : anchor == IOCHART_ANCHOR_END ? w : 0);
  l.box[1] = y - ascent;
  l.box[2] = w;
  l.box[3] = ascent + descent;
  g_array_append_val (self->labels, l);
}

static int
priority_cmp (gconstpointer a, gconstpointer b)
{
  const Label *x = *(const Label * const *) a, *y = *(const Label * const *) b;

  if (x->priority != y->priority)
    return x->priority < y->priority ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static gboolean
boxes_meet (const double *a, const double *b)
{
  return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/* Index of the first kept label whose top could reach down to box: kept is sorted by top, and
 * no label is taller than tallest. */
static guint
first_near (GPtrArray *kept, const double *box, double tallest)
{
  guint lo = 0, hi = kept->len;

  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (((Label *) kept->pdata[mid])->box[1] < box[1] - tallest)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
clashes (GPtrArray *kept, const Label *l, guint from)
{
  for (guint k = from; k < kept->len; k++)
    {
      const double *o = ((Label *) kept->pdata[k])->box;

      if (o[1] > l->box[1] + l->box[3])
        return FALSE;
      if (boxes_meet (l->box, o))
        return TRUE;
    }
  return FALSE;
}

static void
insert_by_top (GPtrArray *kept, Label *l, guint from)
{
  guint at = from;

  while (at < kept->len && ((Label *) kept->pdata[at])->box[1] <= l->box[1])
    at++;
  g_ptr_array_insert (kept, at, l);
}

guint
iochart_labels_place (IochartLabels *self, IochartDisplayList *dl)
{
  g_autoptr(GPtrArray) order = g_ptr_array_sized_new (self->labels->len);
  g_autoptr(GPtrArray) kept = g_ptr_array_sized_new (self->labels->len);
  double tallest = 0;
  guint dropped = 0;

  for (guint i = 0; i < self->labels->len; i++)
    {
      Label *l = &g_array_index (self->labels, Label, i);

      tallest = MAX (tallest, l->box[3]);
      g_ptr_array_add (order, l);
    }
  g_ptr_array_sort (order, priority_cmp);
  /* the most important first; each checked only against kept labels near its height */
  for (guint i = 0; i < order->len; i++)
    {
      Label *l = order->pdata[i];
      guint from = first_near (kept, l->box, tallest);

      if (clashes (kept, l, from))
        {
          g_debug ("label \"%s\" left out: it would overlap another", l->text);
          l->dropped = TRUE;
          dropped++;
          continue;
        }
      insert_by_top (kept, l, from);
    }
  for (guint i = 0; i < self->labels->len; i++)
    {
      const Label *l = &g_array_index (self->labels, Label, i);
      IochartDlItem *item;

      if (l->dropped)
        continue;
      item = iochart_display_list_text (dl, l->x, l->y, l->text, l->size, l->bold, l->anchor, l->fill);
      if (l->tooltip)
        iochart_dl_item_set_tooltip (item, l->tooltip);
    }
  g_array_set_size (self->labels, 0);
  return dropped;
}
