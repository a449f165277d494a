/* Unit tests of lanes, the chart's display list (golden), its layout rules and the backends. */
#include <cairo.h>
#include <glib/gstdio.h>
#include <math.h>
#include "render-test-util.h"
#include "iochart-blocks.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"
#include "render/iochart-fonts.h"
#include "render/iochart-svg.h"
#include "render/iochart-diff-chart.h"
#include "iochart-format.h"

/* A `find -exec cat` in best-effort, an idle `dd`, a journal thread, and one request on the disk
 * below the loop device. */
static const TestProc story_procs[] = {
  { 1 * MS, 100, 200, "find" },
  { 2 * MS, 100, 300, "dd" },
  { 10 * MS, 200, 201, "cat" },   { 60 * MS, 201, 0, NULL },
  { 100 * MS, 200, 202, "cat" },  { 150 * MS, 202, 0, NULL },
  { 300 * MS, 200, 203, "cat" },  { 380 * MS, 203, 0, NULL },
  { 990 * MS, 200, 0, NULL },
  { 995 * MS, 300, 0, NULL },
};

static const TestRq story_rqs[] = {
  { DEV_LOOP, 100, 8, "RM", 200, "find", IOCHART_CLASS_BE, 5 * MS, 5 * MS, 6 * MS, 8 * MS },
  { DEV_LOOP, 2000, 256, "R", 201, "cat", IOCHART_CLASS_BE, 20 * MS, 20 * MS, 22 * MS, 30 * MS },
  { DEV_LOOP, 4000, 256, "R", 202, "cat", IOCHART_CLASS_BE, 110 * MS, 110 * MS, 130 * MS, 140 * MS },
  { DEV_LOOP, 6000, 256, "R", 203, "cat", IOCHART_CLASS_BE, 310 * MS, 310 * MS, 311 * MS, 330 * MS },
  { DEV_LOOP, 900000, 2048, "R", 300, "dd", IOCHART_CLASS_IDLE, 120 * MS, 120 * MS, 120 * MS, 135 * MS },
  { DEV_LOOP, 902048, 2048, "R", 300, "dd", IOCHART_CLASS_IDLE, 305 * MS, 305 * MS, 305 * MS, 320 * MS },
  { DEV_LOOP, 904096, 2048, "R", 300, "dd", IOCHART_CLASS_IDLE, 600 * MS, 600 * MS, 600 * MS, 700 * MS },
  { DEV_LOOP, 0, 0, "FWS", 50, "jbd2/loop0-8", IOCHART_CLASS_NONE, 500 * MS, -1, 500 * MS, 505 * MS },
  { DEV_LOOP, 300, 8, "WS", 50, "jbd2/loop0-8", IOCHART_CLASS_BE, 700 * MS, 700 * MS, 701 * MS, 720 * MS },
  { DEV_VDA, 5000, 8, "R", 60, "kworker/u8:1", IOCHART_CLASS_BE, 400 * MS, 400 * MS, 401 * MS, 402 * MS },
};

static IochartCapture *
story (void)
{
  return test_capture_full (story_rqs, G_N_ELEMENTS (story_rqs), story_procs, G_N_ELEMENTS (story_procs));
}

static const IochartLane *
lane_named (IochartLanes *lanes, const char *label)
{
  for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
    if (g_strcmp0 (iochart_lanes_get_lane (lanes, i)->label, label) == 0)
      return iochart_lanes_get_lane (lanes, i);
  return NULL;
}

/* blktrace: no fork events, so no parents; a `cat` a file must not get a lane each. */
static void
test_lanes_without_forks (void)
{
  static const TestRq rqs[] = {
    { DEV_LOOP, 100, 8, "R", 401, "cat", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 2 * MS, 3 * MS },
    { DEV_LOOP, 200, 8, "R", 402, "cat", IOCHART_CLASS_BE, 4 * MS, 4 * MS, 5 * MS, 6 * MS },
    { DEV_LOOP, 300, 8, "R", 403, "cat", IOCHART_CLASS_IDLE, 7 * MS, 7 * MS, 8 * MS, 9 * MS },
    { DEV_LOOP, 400, 8, "R", 404, "cat", IOCHART_CLASS_IDLE, 10 * MS, 10 * MS, 11 * MS, 12 * MS },
    { DEV_LOOP, 500, 8, "R", 405, "cat", IOCHART_CLASS_IDLE, 13 * MS, 13 * MS, 14 * MS, 15 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartLanes) lanes = iochart_lanes_new (c, NULL);

  g_assert_cmpint (iochart_lanes_get_group_by (lanes), ==, IOCHART_GROUP_COMM);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 2);
  g_assert_nonnull (lane_named (lanes, "cat × 2"));
  g_assert_cmpint (lane_named (lanes, "cat × 2")->klass, ==, IOCHART_CLASS_BE);
  g_assert_nonnull (lane_named (lanes, "cat × 3"));
  g_assert_cmpint (lane_named (lanes, "cat × 3")->klass, ==, IOCHART_CLASS_IDLE);
}

static void
test_lanes_tree (void)
{
  g_autoptr(IochartCapture) c = story ();
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) lanes = NULL;
  const IochartLane *find, *dd;

  o.device = iochart_capture_find_device (c, DEV_LOOP);
  lanes = iochart_lanes_new (c, &o);
  find = lane_named (lanes, "find[200] + 3 × cat");
  dd = lane_named (lanes, "dd[300]");
  g_assert_nonnull (find);
  g_assert_nonnull (dd);
  g_assert_cmpuint (find->n_processes, ==, 4);
  g_assert_cmpuint (find->n_requests, ==, 4);
  g_assert_cmpint (find->klass, ==, IOCHART_CLASS_BE);
  g_assert_cmpint (dd->klass, ==, IOCHART_CLASS_IDLE);
  /* outstanding: 5-8, 20-30, 110-140, 310-330 ms; life from fork to exit */
  g_assert_cmpint (find->outstanding_ns, ==, 63 * MS);
  g_assert_cmpint (iochart_lane_get_life_ns (find, 0, 2000 * MS), ==, 989 * MS);
  /* ordered by first I/O, flush-only or not */
  g_assert_true (iochart_lanes_get_lane (lanes, 0) == find);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 3);
  g_assert_nonnull (lane_named (lanes, "jbd2/loop0-8[50]"));
}

static void
test_lanes_options (void)
{
  g_autoptr(IochartCapture) c = story ();
  IochartLanesOptions o = IOCHART_LANES_OPTIONS_INIT;
  const gint32 pids[] = { 300 };
  const char *comms[] = { "cat", NULL };
  IochartLanes *lanes;

  o.device = iochart_capture_find_device (c, DEV_LOOP);
  o.top_n = 1;
  lanes = iochart_lanes_new (c, &o);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 2);
  /* dd moved the most bytes; find's tree (4 processes) and jbd2 fold into others */
  g_assert_cmpstr (iochart_lanes_get_lane (lanes, 0)->label, ==, "dd[300]");
  g_assert_true (iochart_lanes_get_lane (lanes, 1)->others);
  g_assert_cmpstr (iochart_lanes_get_lane (lanes, 1)->label, ==, "others: 2 lanes, 5 processes");
  iochart_lanes_free (lanes);

  o.top_n = 0;
  o.group_by = IOCHART_GROUP_COMM;
  lanes = iochart_lanes_new (c, &o);
  g_assert_nonnull (lane_named (lanes, "cat × 3"));
  iochart_lanes_free (lanes);

  o.group_by = IOCHART_GROUP_CLASS;
  lanes = iochart_lanes_new (c, &o);
  g_assert_nonnull (lane_named (lanes, "idle class"));
  g_assert_nonnull (lane_named (lanes, "be class"));
  iochart_lanes_free (lanes);

  o.group_by = IOCHART_GROUP_PARENT;
  lanes = iochart_lanes_new (c, &o);
  g_assert_nonnull (lane_named (lanes, "children of find[200]: 3 × cat"));
  iochart_lanes_free (lanes);

  o.group_by = IOCHART_GROUP_TREE;
  o.pids = pids;
  o.n_pids = 1;
  lanes = iochart_lanes_new (c, &o);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 1);
  g_assert_cmpstr (iochart_lanes_get_lane (lanes, 0)->label, ==, "dd[300]");
  iochart_lanes_free (lanes);

  /* a filter keeps the whole lane of a matching process */
  o.n_pids = 0;
  o.comms = comms;
  lanes = iochart_lanes_new (c, &o);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (lanes), ==, 1);
  g_assert_cmpstr (iochart_lanes_get_lane (lanes, 0)->label, ==, "find[200] + 3 × cat");
  iochart_lanes_free (lanes);
}

static IochartDisplayList *
draw_indexed (IochartCapture *c, guint width, IochartTheme theme, IochartBinIndex *index)
{
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
  g_autoptr(IochartView) view = NULL;

  vo.width = width;
  vo.index = index;
  style.theme = theme;
  view = iochart_view_new (c, &vo);
  return iochart_chart_draw (view, &style);
}

static IochartDisplayList *
draw (IochartCapture *c, guint width, IochartTheme theme)
{
  return draw_indexed (c, width, theme, NULL);
}

static gboolean
has_text (IochartDisplayList *dl, const char *prefix)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && g_str_has_prefix (item->text, prefix))
        return TRUE;
    }
  return FALSE;
}

static void
test_chart_story (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 1000, IOCHART_THEME_LIGHT);
  guint n_tooltips = 0;

  /* the loop device is charted: it is where the processes' own I/O shows */
  g_assert_true (has_text (dl, "device 7,0"));
  /* 10 + 2.5 ms during cat[202]'s wait, 1 + 4.5 ms during cat[203]'s */
  g_assert_true (has_text (dl, "Idle steal on 7,0: 18 ms stolen"));
  g_assert_true (has_text (dl, "Taken by idle: dd[300] 18 ms (100%)"));
  g_assert_true (has_text (dl, "find[200] + 3 × cat"));
  g_assert_true (has_text (dl, "Throughput"));
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->tooltip && item->meta && g_str_has_prefix (item->meta, "episode:"))
        n_tooltips++;
    }
  /* each steal episode is shaded with its own tooltip at this width */
  g_assert_cmpuint (n_tooltips, ==, 2);
}

static void
assert_no_overlap (IochartDisplayList *dl)
{
  guint a, b;

  if (iochart_display_list_find_text_overlap (dl, &a, &b))
    g_error ("labels overlap: \"%s\" and \"%s\"", iochart_display_list_get_item (dl, a)->text,
             iochart_display_list_get_item (dl, b)->text);
}

static void
test_no_overlap (void)
{
  g_autoptr(IochartCapture) c = story ();
  const guint widths[] = { IOCHART_VIEW_MIN_WIDTH, 900, 1600, 4000 };

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      g_autoptr(IochartDisplayList) light = draw (c, widths[i], IOCHART_THEME_LIGHT);
      g_autoptr(IochartDisplayList) dark = draw (c, widths[i], IOCHART_THEME_DARK);

      assert_no_overlap (light);
      assert_no_overlap (dark);
      g_assert_cmpuint (iochart_display_list_get_background (dark), !=,
                        iochart_display_list_get_background (light));
    }
}

/* The whole display list against tests/render/golden/: a missing file is written, and fails. */
static void
test_golden (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 900, IOCHART_THEME_LIGHT);
  g_autofree char *got = iochart_display_list_to_text (dl);
  const char *dir = g_getenv ("IOCHART_RENDER_GOLDEN");
  g_autofree char *path = NULL, *want = NULL;

  if (dir == NULL)
    {
      g_test_skip ("IOCHART_RENDER_GOLDEN not set");
      return;
    }
  path = g_build_filename (dir, "story-900.dl", NULL);
  if (!g_file_get_contents (path, &want, NULL, NULL))
    {
      g_mkdir_with_parents (dir, 0755);
      g_assert_true (g_file_set_contents (path, got, -1, NULL));
      g_error ("'%s' was missing: written, check it and commit it", path);
    }
  if (g_strcmp0 (got, want) != 0)
    {
      g_autofree char *actual = g_strconcat (path, ".actual", NULL);
      g_file_set_contents (actual, got, -1, NULL);
      g_error ("display list differs from '%s' (see '%s')", path, actual);
    }
  /* the app's way, bins from the device's index: the same chart */
  {
    g_autoptr(IochartBinIndex) index = iochart_bin_index_new (c, iochart_steal_pick_device (c), IOCHART_LATENCY_Q2C);
    g_autoptr(IochartDisplayList) dl2 = draw_indexed (c, 900, IOCHART_THEME_LIGHT, index);
    g_autofree char *got2 = iochart_display_list_to_text (dl2);

    if (g_strcmp0 (got2, want) != 0)
      {
        g_autofree char *actual = g_strconcat (path, ".indexed", NULL);
        g_file_set_contents (actual, got2, -1, NULL);
        g_error ("the chart from the bin index differs from '%s' (see '%s')", path, actual);
      }
  }
}

static void
test_text_measure (void)
{
  g_autofree char *cut = iochart_text_ellipsize ("find[27822] + 5,476 × cat and a long tail", 11, TRUE, 100);
  double ascent, descent;

  g_assert_true (g_str_has_suffix (cut, "…"));
  g_assert_cmpfloat (iochart_text_width (cut, 11, TRUE), <=, 100);
  g_assert_cmpfloat (iochart_text_width ("mmmm", 11, FALSE), >, iochart_text_width ("iiii", 11, FALSE));
  iochart_font_extents (11, &ascent, &descent);
  g_assert_cmpfloat (ascent, >, 7);
  g_assert_cmpfloat (descent, >, 1);
}

static void
svg_start (GMarkupParseContext *ctx, const char *name, const char **an, const char **av, gpointer data,
           GError **error)
{
  GHashTable *seen = data;
  g_hash_table_insert (seen, g_strdup (name), GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (seen, name)) + 1));
}

static void
test_svg (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 900, IOCHART_THEME_LIGHT);
  gsize len;
  g_autofree char *svg = iochart_svg_to_string (dl, &len);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GMarkupParser parser = { svg_start };
  g_autoptr(GMarkupParseContext) ctx = g_markup_parse_context_new (&parser, 0, seen, NULL);
  g_autoptr(GError) error = NULL;
  const char *body = strstr (svg, "<svg");

  g_assert_nonnull (body);
  g_assert_true (g_markup_parse_context_parse (ctx, body, -1, &error));
  g_assert_no_error (error);
  g_assert_true (g_markup_parse_context_end_parse (ctx, &error));
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (seen, "text")), >, 20);
  /* lanes and steal episodes carry tooltips */
  g_assert_cmpint (GPOINTER_TO_INT (g_hash_table_lookup (seen, "title")), >=, 5);
  g_assert_nonnull (strstr (svg, "data-meta=\"lane:0\"><title>find[200] + 3 × cat"));
  g_assert_nonnull (strstr (svg, "data-meta=\"episode:0\""));
  g_assert_nonnull (strstr (svg, ">Idle steal on 7,0: 18 ms stolen"));
  g_assert_nonnull (strstr (svg, "font-family=\"DejaVu Sans"));
}

static void
test_svg_escapes (void)
{
  g_autoptr(IochartDisplayList) dl = iochart_display_list_new (100, 50);
  IochartDlItem *item = iochart_display_list_text (dl, 1, 20, "a<b>&\x01\xff", 10, FALSE, IOCHART_ANCHOR_START, 0xff);
  g_autofree char *svg = NULL;

  iochart_dl_item_set_tooltip (item, "\"q\" & \x02");
  svg = iochart_svg_to_string (dl, NULL);
  g_assert_nonnull (strstr (svg, "a&lt;b&gt;&amp;?\xef\xbf\xbd</text>"));
  g_assert_nonnull (strstr (svg, "<title>&quot;q&quot; &amp; ?</title>"));
}

static void
test_png_pdf (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 800, IOCHART_THEME_LIGHT);
  g_autofree char *dir = g_dir_make_tmp ("iochart-render-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "a.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "a.pdf", NULL);
  g_autofree char *bad = g_build_filename (dir, "missing", "a.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  g_autofree char *head = NULL;

  g_assert_true (iochart_cairo_write_png (dl, png, &error));
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (surface), ==, 800);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, (int) iochart_display_list_get_height (dl));
  cairo_surface_destroy (surface);

  g_assert_true (iochart_cairo_write_pdf (dl, pdf, &error));
  g_assert_true (g_file_get_contents (pdf, &head, NULL, NULL));
  g_assert_true (g_str_has_prefix (head, "%PDF-"));

  g_assert_false (iochart_cairo_write_png (dl, bad, &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "cannot write"));

  g_unlink (png);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* ---- issue 9's chart items: each failed before its fix ---- */

static const IochartDlItem *
find_text (IochartDisplayList *dl, const char *needle)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && strstr (item->text, needle))
        return item;
    }
  return NULL;
}

/* A text item holding needle, or a line of a wrapped text whose tooltip (the whole) holds it. */
static const IochartDlItem *
find_text_or_whole (IochartDisplayList *dl, const char *needle)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && (strstr (item->text, needle) || (item->tooltip && strstr (item->tooltip, needle))))
        return item;
    }
  return NULL;
}

/* 1,500 processes, one request each: more lanes than one image can hold. */
static IochartCapture *
many_processes (guint n)
{
  g_autofree TestRq *rqs = g_new0 (TestRq, n);

  for (guint i = 0; i < n; i++)
    rqs[i] = (TestRq) { DEV_LOOP, 100 + 8 * i, 8, "R", 1000 + i, "reader", IOCHART_CLASS_BE,
                        i * MS, i * MS, i * MS + 100, i * MS + 500 };
  return test_capture (rqs, n);
}

static IochartDisplayList *
draw_pid_lanes (IochartCapture *c, guint width)
{
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autoptr(IochartView) view = NULL;

  vo.width = width;
  vo.lanes.group_by = IOCHART_GROUP_PID;
  vo.lanes.top_n = 0;
  view = iochart_view_new (c, &vo);
  g_assert_cmpuint (iochart_view_get_n_lanes_wanted (view), ==, 1500);
  g_assert_cmpuint (iochart_lanes_get_n_lanes (iochart_view_get_lanes (view)), ==, IOCHART_VIEW_MAX_LANES);
  return iochart_chart_draw (view, NULL);
}

static void
test_fold_lanes (void)
{
  g_autoptr(IochartCapture) c = many_processes (1500);
  g_autoptr(IochartDisplayList) dl = draw_pid_lanes (c, 640);
  g_autofree char *dir = g_dir_make_tmp ("iochart-fold-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "fold.png", NULL);
  g_autofree char *pdf = g_build_filename (dir, "fold.pdf", NULL);
  g_autofree char *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize len;
  guint pages = 0;

  g_assert_cmpfloat (iochart_display_list_get_height (dl), <=, 32767);
  g_assert_nonnull (find_text (dl, "folded into"));
  g_assert_true (iochart_cairo_write_png (dl, png, &error));
  g_assert_no_error (error);
  /* a PDF page stops at 200 inches: the rest goes on more pages */
  g_assert_true (iochart_cairo_write_pdf (dl, pdf, &error));
  g_assert_true (g_file_get_contents (pdf, &data, &len, NULL));
  for (const char *p = data; (p = memmem (p, data + len - p, "/Type /Page", 11)); p++)
    pages += p[11] != 's';
  g_assert_cmpuint (pages, >=, 2);
  g_unlink (png);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* Every text's box lies inside the image, left to right. */
static void
assert_texts_inside (IochartDisplayList *dl)
{
  double width = iochart_display_list_get_width (dl);

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      double x, y, w, h;

      if (item->kind != IOCHART_DL_TEXT)
        continue;
      iochart_dl_item_text_box (item, &x, &y, &w, &h);
      if (x < 0 || x + w > width)
        g_error ("'%s' runs off the image: %.1f to %.1f of %.0f", item->text, x, x + w, width);
    }
}

/* At the narrowest width every label, the lanes' heading included, stays inside the image. */
static void
test_narrow_labels_inside (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, IOCHART_VIEW_MIN_WIDTH, IOCHART_THEME_LIGHT);

  assert_texts_inside (dl);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      double x, y, w, h;

      if (item->kind != IOCHART_DL_TEXT)
        continue;
      iochart_dl_item_text_box (item, &x, &y, &w, &h);
      /* header lines wrap rather than lose their end */
      if (y < 120)
        g_assert_null (strstr (item->text, "…"));
    }
  g_assert_nonnull (find_text (dl, "Processes"));
}

/* A 700 px chart (the app in a narrow window) gives the plot most of its width: a label column
 * of 170 px, not the 250 of a wide chart (which left the plot 426 px); every label of the column
 * ends before the plot, and the strips' subtitles wrap rather than lose their ends. */
static void
test_narrow_label_column (void)
{
  g_autoptr(IochartCapture) c = story ();
  const guint widths[] = { IOCHART_VIEW_MIN_WIDTH, 700, 900, 1100, 1600, 4000 };
  const guint want[] = { 170, 170, 210, 250, 250, 250 };

  for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
    {
      g_autoptr(IochartDisplayList) dl = draw (c, widths[k], IOCHART_THEME_LIGHT);
      double x0, w;
      gint64 from, to;
      guint cut = 0;

      g_assert_true (iochart_display_list_get_time_axis (dl, &x0, &w, &from, &to));
      g_assert_cmpfloat (x0, ==, want[k]);
      g_assert_cmpfloat (w, ==, widths[k] - want[k] - IOCHART_VIEW_RIGHT_MARGIN);
      for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
        {
          const IochartDlItem *item = iochart_display_list_get_item (dl, i);
          double x, y, tw, th;

          if (item->kind != IOCHART_DL_TEXT || item->x >= x0)
            continue;
          iochart_dl_item_text_box (item, &x, &y, &tw, &th);
          /* the header's and the sections' lines run across the chart, beside no plot */
          for (guint j = 0; x + tw > x0 && j < iochart_display_list_get_n_items (dl); j++)
            {
              const IochartDlItem *r = iochart_display_list_get_item (dl, j);

              /* the steal shading (faint) runs down the whole chart */
              if (r->kind == IOCHART_DL_RECT && (r->stroke != 0 || (r->fill & 0xff) == 0xff) && r->x >= x0 &&
                  r->x < x + tw && r->y < y + th && r->y + r->h > y)
                g_error ("%u px: '%s' runs into the plot: %.1f to %.1f, the plot at %.0f", widths[k], item->text,
                         x, x + tw, x0);
            }
          cut += item->anchor == IOCHART_ANCHOR_START && item->font_size == IOCHART_BLOCKS_FONT_SMALL &&
                 item->tooltip && strstr (item->text, "…") && !strchr (item->tooltip, '\n') &&
                 strstr (item->tooltip, "per second");
        }
      /* "completions per second" wraps onto two lines at 700, its arrows stay with their words */
      g_assert_cmpuint (cut, ==, 0);
      if (widths[k] == 700)
        {
          g_assert_nonnull (find_text (dl, "completions"));
          g_assert_nonnull (find_text (dl, "per second"));
          g_assert_nonnull (find_text (dl, "read\u00a0↑"));
        }
    }
}

/* The pixel at x, y of an ARGB32 surface as RGB. */
static guint32
rgb_at (cairo_surface_t *s, int x, int y)
{
  return *(guint32 *) (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s) + 4 * x) & 0xffffff;
}

/* A chart laid out for one range drawn for a range 5% later (the app's frame while the exact
 * layout of a live update or a pan is made): the plot moves, but the strips' frames and the
 * lanes' stripes stay to its edges (moved with it, the right 5% of every strip had no frame and
 * the stripes stopped short of the edge), and the labels left of the plot stay put. */
static void
test_warped_keeps_frames (void)
{
  g_autoptr(IochartCapture) c = story ();
  gint64 start = iochart_capture_get_start_ns (c), span = 800 * MS, d = 40 * MS;
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
  g_autoptr(IochartView) view = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  cairo_surface_t *exact, *warped;
  const IochartDlItem *frame = NULL, *stripe = NULL;
  double x0, w;
  gint64 from, to;
  guint32 bg;

  vo.width = 1200;
  vo.from_ns = start;
  vo.to_ns = start + span;
  view = iochart_view_new (c, &vo);
  dl = iochart_chart_draw (view, &style);
  g_assert_true (iochart_display_list_get_time_axis (dl, &x0, &w, &from, &to));
  bg = iochart_display_list_get_background (dl) >> 8;
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (!frame && item->kind == IOCHART_DL_RECT && item->stroke != 0 && item->x == x0 && item->w == w)
        frame = item;
      /* a lane's stripe (drawn under the rest) */
      if (!stripe && item->kind == IOCHART_DL_RECT && item->x == 0 && item->w == iochart_display_list_get_width (dl) &&
          item->h == 30)
        stripe = item;
    }
  g_assert_nonnull (frame);
  g_assert_nonnull (stripe);
  exact = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) iochart_display_list_get_width (dl),
                                      (int) iochart_display_list_get_height (dl));
  warped = cairo_image_surface_create (CAIRO_FORMAT_RGB24, (int) iochart_display_list_get_width (dl),
                                       (int) iochart_display_list_get_height (dl));
  {
    cairo_t *cr = cairo_create (exact);
    iochart_cairo_draw (dl, cr);
    cairo_destroy (cr);
    cr = cairo_create (warped);
    iochart_cairo_draw_warped (dl, cr, start + d, start + span + d);
    cairo_destroy (cr);
  }
  cairo_surface_flush (exact);
  cairo_surface_flush (warped);
  /* the frame's right edge and the stripe's last pixel in the plot, as the exact chart has them */
  {
    int edge = (int) floor (x0 + w), y = (int) (frame->y + frame->h / 2);
    int sx = (int) (x0 + w) - 2, sy = (int) (stripe->y + stripe->h / 2);
    guint32 e0 = rgb_at (exact, edge - 1, y) != bg ? rgb_at (exact, edge - 1, y) : rgb_at (exact, edge, y);
    guint32 e1 = rgb_at (warped, edge - 1, y) != bg ? rgb_at (warped, edge - 1, y) : rgb_at (warped, edge, y);

    g_assert_cmphex (e0, !=, bg);
    /* (its antialiased column may blend with what moved next to it) */
    g_assert_cmpint (abs ((int) (e1 & 0xff) - (int) (e0 & 0xff)), <, 16);
    g_assert_cmphex (rgb_at (warped, sx, sy), ==, stripe->fill >> 8);
    /* the strip's title and ticks, left of the plot, are where they were */
    for (int py = (int) frame->y; py < (int) (frame->y + frame->h); py++)
      for (int px = 0; px < (int) x0 - 2; px++)
        g_assert_cmphex (rgb_at (warped, px, py), ==, rgb_at (exact, px, py));
  }
  cairo_surface_destroy (exact);
  cairo_surface_destroy (warped);
}

/* The strips' stacked areas are column-wise, as their bins are: every edge level or vertical, the
 * vertical ones on the boundaries of the plot's pixel columns (a line through the columns'
 * centres sloped from each column to the next, and cost cairo's scan converter 3-6 ms a frame). */
static void
test_areas_column_wise (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 1000, IOCHART_THEME_LIGHT);
  double x0, w;
  gint64 from, to;
  guint n_areas = 0;

  g_assert_true (iochart_display_list_get_time_axis (dl, &x0, &w, &from, &to));
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      gboolean sloped = FALSE;

      if (item->kind != IOCHART_DL_POLYGON || !item->tooltip || !strstr (item->tooltip, " class"))
        continue;
      n_areas++;
      for (guint k = 0; k < item->n_points; k++)
        {
          const double *p = item->points + 2 * k, *q = item->points + 2 * ((k + 1) % item->n_points);

          sloped = sloped || (p[0] != q[0] && p[1] != q[1]);
          g_assert_cmpfloat (p[0] - x0, ==, floor (p[0] - x0));
          g_assert_cmpfloat (p[0], >=, x0);
          g_assert_cmpfloat (p[0], <=, x0 + w);
        }
      g_assert_false (sloped);
    }
  g_assert_cmpuint (n_areas, >=, 3);
}

/* Opaque stacked areas are each drawn from the strip's base up to their class's top, the upper
 * classes first (idle before best-effort): where two classes meet inside a pixel, the lower one's
 * edge covers the upper one rather than two bands each covering their share of it and leaving a
 * light seam of the background between them. */
static void
test_stacked_from_base (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 1000, IOCHART_THEME_LIGHT);
  int idle_at = -1, be_at = -1;
  double base = 0;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      double lowest = -G_MAXDOUBLE;
      guint on_base = 0;

      if (item->kind != IOCHART_DL_POLYGON || (item->fill & 0xff) != 0xff || !item->tooltip ||
          !g_str_has_prefix (item->tooltip, "read throughput, "))
        continue;
      for (guint k = 0; k < item->n_points; k++)
        lowest = MAX (lowest, item->points[2 * k + 1]);
      for (guint k = 0; k < item->n_points; k++)
        on_base += item->points[2 * k + 1] == lowest;
      /* a flat bottom: its two corners and the drops to the base between runs of the class */
      g_assert_cmpuint (on_base, >=, 2);
      g_assert_true (item->points[2 * (item->n_points - 1) + 1] == lowest && item->points[1 + 2 * (item->n_points - 2)] == lowest);
      if (base == 0)
        base = lowest;
      g_assert_cmpfloat (lowest, ==, base);
      if (g_str_has_suffix (item->tooltip, "idle class"))
        idle_at = (int) i;
      if (g_str_has_suffix (item->tooltip, "be class"))
        be_at = (int) i;
    }
  g_assert_cmpint (idle_at, >=, 0);
  g_assert_cmpint (be_at, >, idle_at);
}

/* The largest difference of a channel between two images of one size. */
static int
max_channel_difference (cairo_surface_t *a, cairo_surface_t *b)
{
  int worst = 0, w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);

  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < 4 * w; x++)
      worst = MAX (worst, abs (cairo_image_surface_get_data (a)[y * cairo_image_surface_get_stride (a) + x] -
                              cairo_image_surface_get_data (b)[y * cairo_image_surface_get_stride (b) + x]));
  return worst;
}

/* Straight strokes of one style, which the cairo backend strokes as one path where no two share a
 * pixel: the same pixels as cairo stroking each alone, in order. Translucent, so that a pixel under
 * two strokes drawn as one path (covered once) would differ from it drawn twice: lines apart and
 * lines a fraction apart, dashed ticks apart and end to end, a wider one between, a slanted one. */
static void
test_cairo_strokes_batched (void)
{
  static const double dash[] = { 4, 3 };
  g_autoptr(IochartDisplayList) dl = iochart_display_list_new (400, 200);
  cairo_surface_t *got = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 200);
  cairo_surface_t *want = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 200);
  cairo_t *cr;

  for (int i = 0; i < 40; i++)
    iochart_display_list_line (dl, 10.3 + i * 7.37 + (i % 5 == 4 ? -6.8 : 0), 5, 10.3 + i * 7.37, 120, 0x20608080,
                               i == 20 ? 1.5 : 1);
  for (int i = 0; i < 4; i++)
    iochart_display_list_line (dl, 320.2 + i * 0.6, 5, 320.2 + i * 0.6, 120, 0x20608080, 1);
  for (int i = 0; i < 30; i++)
    {
      double x = 10.5 + i * (i < 15 ? 12 : 4), p[4] = { x, 150.5 + (i % 3) * 0.25, x + (i < 15 ? 8 : 4), 150.5 + (i % 3) * 0.25 };
      IochartDlItem *item = iochart_display_list_polyline (dl, g_memdup2 (p, sizeof p), 2, 0x00835fa0, 1.5);

      item->dashed = i % 2 == 0;
    }
  iochart_display_list_polyline (dl, g_memdup2 ((double[]) { 20, 180, 300, 170 }, 4 * sizeof (double)), 2, 0x00835fa0, 1.5);
  iochart_display_list_line (dl, 30, 185, 390, 185, 0x00835fa0, 1.5);
  cr = cairo_create (got);
  iochart_cairo_draw (dl, cr);
  cairo_destroy (cr);
  cr = cairo_create (want);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      guint32 c = item->stroke;

      cairo_set_source_rgba (cr, (c >> 24) / 255.0, ((c >> 16) & 0xff) / 255.0, ((c >> 8) & 0xff) / 255.0,
                             (c & 0xff) / 255.0);
      cairo_set_line_width (cr, item->line_width);
      cairo_set_dash (cr, dash, item->dashed ? 2 : 0, 0);
      if (item->kind == IOCHART_DL_LINE)
        {
          cairo_move_to (cr, item->x, item->y);
          cairo_line_to (cr, item->x2, item->y2);
        }
      else
        {
          cairo_move_to (cr, item->points[0], item->points[1]);
          cairo_line_to (cr, item->points[2], item->points[3]);
        }
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
  g_assert_cmpint (max_channel_difference (got, want), ==, 0);
  cairo_surface_destroy (got);
  cairo_surface_destroy (want);
}

/* A chart's image (the app's pixels of it) whose memory is not cleared first under an opaque
 * background: the same pixels as the list drawn on cairo's cleared image, though the memory held
 * other bytes (a block of its size filled and let go just before); under a translucent background
 * (cleared first: blended with what is there) too; at scale 1 and 2. */
static void
test_cairo_draw_image (void)
{
  for (int translucent = 0; translucent < 2; translucent++)
    for (int scale = 1; scale <= 2; scale++)
      {
        g_autoptr(IochartDisplayList) dl = iochart_display_list_new (400, 200);
        int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, 400 * scale);
        cairo_surface_t *want = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400 * scale, 200 * scale);
        cairo_surface_t *got;
        cairo_t *cr;

        iochart_display_list_set_background (dl, translucent ? 0x20406080 : 0xf0f0f0ff);
        iochart_display_list_rect (dl, 30.4, 20, 300, 160, 0xd55e0026, 0);
        iochart_display_list_line (dl, 20.3, 20, 20.3, 180, 0xe4e4e4ff, 1);
        iochart_display_list_text (dl, 150, 110, "9.5 s", 12, FALSE, IOCHART_ANCHOR_START, 0x202020ff);
        cairo_surface_set_device_scale (want, scale, scale);
        cr = cairo_create (want);
        iochart_cairo_draw (dl, cr);
        cairo_destroy (cr);
        g_free (memset (g_malloc ((gsize) stride * 200 * scale), 0xa5, (gsize) stride * 200 * scale));
        got = iochart_cairo_draw_image (dl, 400 * scale, 200 * scale, scale);
        g_assert_nonnull (got);
        g_assert_cmpint (cairo_image_surface_get_width (got), ==, 400 * scale);
        g_assert_cmpint (max_channel_difference (got, want), ==, 0);
        cairo_surface_destroy (got);
        cairo_surface_destroy (want);
      }
}

/* Labels the cairo backend draws on a raster from the glyphs it keeps for a font and text: the
 * pixels of cairo_show_text drawing each, in the first drawing (looked up) and a second one (kept);
 * at positions off the pixel grid, anchored at their end and middle, the same text at two sizes
 * and in bold (a run per font), characters of two and three bytes. */
static void
test_cairo_glyph_runs (void)
{
  static const char * const texts[] = { "reader \u00d7 200", "9.5 s", "100 \u00b5s", "0 s \u2013 10.0 s", "9.5 s" };
  g_autoptr(IochartDisplayList) dl = iochart_display_list_new (400, 200);
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_surface_t *want = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 200);
  cairo_t *cr;

  for (guint i = 0; i < 30; i++)
    iochart_display_list_text (dl, 20 + (i % 3) * 130 + i * 0.37, 15 + i * 6.1, texts[i % G_N_ELEMENTS (texts)],
                               i % 4 == 0 ? 11 : 10, i % 5 == 0, i % 3, 0x202020ff + (i << 8));
  cr = cairo_create (want);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_set_font_options (cr, options);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      double x = item->x - (item->anchor == IOCHART_ANCHOR_MIDDLE ? item->w / 2 : item->anchor == IOCHART_ANCHOR_END ? item->w : 0);

      iochart_fonts_select (cr, item->font_size, item->bold);
      cairo_set_source_rgba (cr, (item->fill >> 24) / 255.0, ((item->fill >> 16) & 0xff) / 255.0,
                             ((item->fill >> 8) & 0xff) / 255.0, 1);
      cairo_move_to (cr, x, item->y);
      cairo_show_text (cr, item->text);
    }
  cairo_destroy (cr);
  cairo_font_options_destroy (options);
  for (int drawing = 0; drawing < 2; drawing++)
    {
      cairo_surface_t *got = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 400, 200);

      cr = cairo_create (got);
      iochart_cairo_draw (dl, cr);
      cairo_destroy (cr);
      g_assert_cmpint (max_channel_difference (got, want), ==, 0);
      cairo_surface_destroy (got);
    }
  cairo_surface_destroy (want);
}

/* A column-wise area the cairo backend draws on a raster through a mask of the boxes' coverage
 * rather than as a path: the same pixels as cairo filling its boxes, within a level of rounding,
 * at scale 1, at a device scale of 2, stretched to columns off the pixel grid (a warped frame),
 * shifted by a fraction, and cut by a clip; translucent over what is under it. */
static void
test_cairo_column_boxes (void)
{
  const int n = 300;
  g_autoptr(IochartDisplayList) dl = iochart_display_list_new (400, 200);
  g_autoptr(GArray) pts = g_array_new (FALSE, FALSE, sizeof (double));
  double col_top[300], col_bottom[300];
  struct { double device_scale, sx, dx; gboolean clip, group; } cases[] = {
    { 1, 1, 0, FALSE, FALSE }, { 2, 1, 0, FALSE, FALSE }, { 1, 1.37, -31.25, FALSE, FALSE },
    { 1, 1, 0.4, FALSE, FALSE }, { 1, 1, 0, TRUE, FALSE }, { 2, 0.83, 3.3, TRUE, FALSE }, { 2, 1, 0, TRUE, TRUE },
  };
  guint32 fills[] = { 0x0072b2ff, 0x009e73a0 };

  /* a jagged top over a jagged bottom, a gap of empty columns, a level run */
  for (int i = 0; i < n; i++)
    {
      col_bottom[i] = 150 - (i * 7 % 13) * 1.37;
      col_top[i] = i >= 100 && i < 120 ? col_bottom[i] : i >= 200 ? 60.25 : col_bottom[i] - 3 - (i * 7919 % 97) * 0.9;
    }
  for (int i = 0; i < n; i++)
    for (int e = 0; e < 2; e++)
      {
        double p[2] = { 50 + i + e, col_top[i] };
        g_array_append_vals (pts, p, 2);
      }
  for (int i = n - 1; i >= 0; i--)
    for (int e = 1; e >= 0; e--)
      {
        double p[2] = { 50 + i + e, col_bottom[i] };
        g_array_append_vals (pts, p, 2);
      }
  for (guint f = 0; f < G_N_ELEMENTS (fills); f++)
    iochart_display_list_polygon (dl, g_memdup2 (pts->data, pts->len * sizeof (double)), pts->len / 2, fills[f]);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      int w = (int) (400 * cases[k].device_scale), h = (int) (200 * cases[k].device_scale);
      cairo_surface_t *got = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      cairo_surface_t *want = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
      cairo_t *cr;

      for (int which = 0; which < 2; which++)
        {
          cairo_surface_set_device_scale (which ? want : got, cases[k].device_scale, cases[k].device_scale);
          cr = cairo_create (which ? want : got);
          if (cases[k].clip)
            {
              cairo_rectangle (cr, 120, 70, 90, 60);
              cairo_clip (cr);
            }
          /* a group the size of the clip: a surface of its own, its origin moved (device offset) */
          if (cases[k].group)
            cairo_push_group (cr);
          cairo_translate (cr, cases[k].dx, 0);
          cairo_scale (cr, cases[k].sx, 1);
          if (which == 0)
            iochart_cairo_draw (dl, cr);
          else
            {
              /* cairo's own: the background, then each fill as one path of its columns' boxes */
              cairo_set_source_rgb (cr, 1, 1, 1);
              cairo_paint (cr);
              for (guint f = 0; f < G_N_ELEMENTS (fills); f++)
                {
                  for (int i = 0; i < n; i++)
                    if (col_bottom[i] > col_top[i])
                      cairo_rectangle (cr, 50 + i, col_top[i], 1, col_bottom[i] - col_top[i]);
                  cairo_set_source_rgba (cr, (fills[f] >> 24) / 255.0, ((fills[f] >> 16) & 0xff) / 255.0,
                                         ((fills[f] >> 8) & 0xff) / 255.0, (fills[f] & 0xff) / 255.0);
                  cairo_fill (cr);
                }
            }
          if (cases[k].group)
            {
              cairo_pop_group_to_source (cr);
              cairo_paint (cr);
            }
          cairo_destroy (cr);
        }
      if (max_channel_difference (got, want) > 2)
        g_error ("case %u: the column boxes differ from cairo's by %d levels", k, max_channel_difference (got, want));
      cairo_surface_destroy (got);
      cairo_surface_destroy (want);
    }
}

/* The warped frame of a chart laid out for one range, drawn for a range 40 ms later while the
 * exact one is made: its header tells the range shown, not the one laid out ("0 s – 800 ms" kept
 * while zooming and panning); the header's range line is the exact chart's, pixel for pixel. */
static void
test_warped_range_text (void)
{
  g_autoptr(IochartCapture) c = story ();
  gint64 start = iochart_capture_get_start_ns (c), d = 40 * MS;
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autoptr(IochartDisplayList) a = NULL, b = NULL;
  g_autofree char *text = NULL;
  const IochartDlItem *want;
  cairo_surface_t *warped, *exact;
  double x, y, w, h;
  guint item;

  vo.width = 1200;
  vo.from_ns = start;
  vo.to_ns = start + 800 * MS;
  {
    g_autoptr(IochartView) view = iochart_view_new (c, &vo);
    a = iochart_chart_draw (view, NULL);
  }
  vo.from_ns += d;
  vo.to_ns += d;
  {
    g_autoptr(IochartView) view = iochart_view_new (c, &vo);
    b = iochart_chart_draw (view, NULL);
  }
  want = find_text (b, "device 7,0");
  g_assert_nonnull (want);
  g_assert_nonnull (strstr (want->text, " · 40 ms – 840 ms of a "));
  text = iochart_display_list_range_text (a, vo.from_ns, vo.to_ns, &item);
  g_assert_cmpstr (text, ==, want->text);
  g_assert_nonnull (strstr (iochart_display_list_get_item (a, item)->text, " · 0 s – 800 ms of a "));
  /* the frame as drawn: that line reads as the exact chart's */
  warped = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, (int) iochart_display_list_get_height (a));
  exact = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1200, (int) iochart_display_list_get_height (b));
  {
    cairo_t *cr = cairo_create (warped);
    iochart_cairo_draw_warped (a, cr, vo.from_ns, vo.to_ns);
    cairo_destroy (cr);
    cr = cairo_create (exact);
    iochart_cairo_draw (b, cr);
    cairo_destroy (cr);
  }
  cairo_surface_flush (warped);
  cairo_surface_flush (exact);
  iochart_dl_item_text_box (want, &x, &y, &w, &h);
  for (int py = (int) floor (y); py < (int) ceil (y + h); py++)
    for (int px = 0; px < 1200; px++)
      if (rgb_at (warped, px, py) != rgb_at (exact, px, py))
        g_error ("the warped header differs at %d,%d: %06x, the exact chart %06x", px, py, rgb_at (warped, px, py),
                 rgb_at (exact, px, py));
  cairo_surface_destroy (warped);
  cairo_surface_destroy (exact);
}

/* A reader completing a request every 10 ms for 1 s, silent for 300 ms, then 1 s more: at 4000 px
 * (0.6 ms a column) each latency line is two pieces, broken at the silence only, not dashes of
 * a few pixels between its completions (about 200 pieces each, hard to see). */
static void
test_latency_line_wide (void)
{
  guint n = 200;
  g_autofree TestRq *rqs = g_new0 (TestRq, n);
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(GHashTable) pieces = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < n; i++)
    {
      gint64 t = (gint64) i * 10 * MS + (i >= n / 2 ? 300 * MS : 0);
      rqs[i] = (TestRq) { DEV_LOOP, 1000 + 8 * i, 8, "R", 10, "reader", IOCHART_CLASS_BE, t, t, t + MS / 10,
                          t + 2 * MS + (i % 7) * MS / 2 };
    }
  c = test_capture (rqs, n);
  {
    g_autoptr(IochartDisplayList) dl = draw (c, 4000, IOCHART_THEME_DARK);

    for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
      {
        const IochartDlItem *item = iochart_display_list_get_item (dl, i);
        if (item->kind == IOCHART_DL_POLYLINE && item->tooltip && strstr (item->tooltip, "latency"))
          g_hash_table_insert (pieces, g_strdup (item->tooltip),
                               GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (pieces, item->tooltip)) + 1));
      }
  }
  g_assert_cmpuint (g_hash_table_size (pieces), >, 0);
  g_hash_table_iter_init (&iter, pieces);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_test_message ("%s: %u pieces", (const char *) key, GPOINTER_TO_UINT (value));
      g_assert_cmpuint (GPOINTER_TO_UINT (value), ==, 2);
    }
}

/* A diff chart at the narrowest width: every row's label and its list of changes stays inside
 * the image (cut, the whole as tooltip); at 700 px "changed: start,end,requests,bytes,…" ran off
 * its left edge. */
static void
test_diff_labels_inside (void)
{
  g_autoptr(IochartCapture) a = story ();
  g_autoptr(IochartCapture) b = NULL;
  g_autofree TestRq *rqs = g_memdup2 (story_rqs, sizeof story_rqs);
  IochartDiffOptions options = IOCHART_DIFF_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartDiff) diff = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  guint cut = 0;

  /* B: every request later, slower and bigger: each row changes in most ways */
  for (guint i = 0; i < G_N_ELEMENTS (story_rqs); i++)
    {
      rqs[i].nr *= 2;
      rqs[i].queue += 5 * MS;
      rqs[i].insert += 5 * MS;
      rqs[i].issue += 8 * MS;
      rqs[i].complete += 50 * MS;
    }
  b = test_capture_full (rqs + 1, G_N_ELEMENTS (story_rqs) - 1, story_procs, G_N_ELEMENTS (story_procs));
  diff = iochart_diff_new (a, -1, b, -1, &options, &error);
  g_assert_no_error (error);
  dl = iochart_diff_chart_draw (diff, "a", "b", IOCHART_VIEW_MIN_WIDTH, IOCHART_THEME_LIGHT);
  assert_texts_inside (dl);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      cut += item->kind == IOCHART_DL_TEXT && g_str_has_prefix (item->text, "changed: ") && item->tooltip != NULL;
    }
  g_assert_cmpuint (cut, >, 0);
}

static void
test_lifeline_explained (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 1600, IOCHART_THEME_LIGHT);

  g_assert_nonnull (find_text (dl, "grey line: its life"));
}

static void
test_dark_shading_veil (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 900, IOCHART_THEME_DARK);
  guint shades = 0;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_RECT && item->meta && g_str_has_prefix (item->meta, "episode:"))
        {
          /* a veil: the strips under it keep their colours */
          g_assert_cmpuint (item->fill & 0xff, <=, 0x20);
          shades++;
        }
    }
  g_assert_cmpuint (shades, >, 0);
}

static void
test_latency_classes_apart (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartDisplayList) dl = draw (c, 900, IOCHART_THEME_LIGHT);
  guint idle = 0;

  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_POLYLINE && item->tooltip && strstr (item->tooltip, "latency"))
        {
          g_assert_cmpint (item->dashed, ==, strstr (item->tooltip, "of idle") != NULL);
          idle += item->dashed;
        }
    }
  g_assert_cmpuint (idle, >, 0);
}

/* WCAG 2's relative luminance of an 0xRRGGBBAA colour (its alpha ignored). */
static double
luminance (guint32 rgba)
{
  double l = 0;
  const double weight[] = { 0.2126, 0.7152, 0.0722 };

  for (guint k = 0; k < 3; k++)
    {
      double v = ((rgba >> (24 - 8 * k)) & 0xff) / 255.0;
      l += weight[k] * (v <= 0.03928 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4));
    }
  return l;
}

static double
contrast (guint32 a, guint32 b)
{
  double la = luminance (a), lb = luminance (b);
  return (MAX (la, lb) + 0.05) / (MIN (la, lb) + 0.05);
}

/* The latency strip's lines of a kind ("median", "p99") in one style, each opaque and 4.5:1 at
 * least against the ground; the least ratio of the non-idle ones ([0]) and of the idle ones ([1]). */
static void
assert_latency_contrast (IochartDisplayList *dl, const char *kind, double least[2])
{
  g_autofree char *prefix = g_strdup_printf ("%s latency of ", kind);
  guint32 bg = iochart_display_list_get_background (dl);

  least[0] = least[1] = INFINITY;
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      double ratio;
      guint idle;

      if (item->kind != IOCHART_DL_POLYLINE || !item->tooltip || !g_str_has_prefix (item->tooltip, prefix))
        continue;
      ratio = contrast (item->stroke, bg);
      g_test_message ("%s: %08x on %08x, %.2f:1", item->tooltip, item->stroke, bg, ratio);
      g_assert_cmphex (item->stroke & 0xff, ==, 0xff);
      g_assert_cmpfloat (ratio, >=, 4.5);
      idle = strstr (item->tooltip, "of idle") != NULL;
      least[idle] = MIN (least[idle], ratio);
    }
  g_assert_cmpfloat (least[0], <, INFINITY);
  g_assert_cmpfloat (least[1], <, INFINITY);
}

/* The latency strip's lines, 4.5:1 at least against the ground in both styles: the medians (at
 * half alpha they were 2.15:1 against white and 1.7:1 against the dark ground) and the bold p99
 * lines (in the class colours, 3.3:1 for be on the dark ground, 3.4:1 for idle on white), each
 * p99 a step further from the ground than its class's median, so that bold and thin differ in
 * more than width. */
static void
test_latency_contrast (void)
{
  g_autoptr(IochartCapture) c = story ();
  const IochartTheme themes[] = { IOCHART_THEME_LIGHT, IOCHART_THEME_DARK };

  for (guint t = 0; t < G_N_ELEMENTS (themes); t++)
    {
      g_autoptr(IochartDisplayList) dl = draw (c, 900, themes[t]);
      double p99[2], median[2];

      assert_latency_contrast (dl, "p99", p99);
      assert_latency_contrast (dl, "median", median);
      for (guint k = 0; k < 2; k++)
        g_assert_cmpfloat (p99[k], >=, median[k] + 0.5);
    }
}

/* Each strip's subtitles, their lines joined with spaces, in the story. */
static const struct {
  const char *title, *subtitles;
} story_strips[] = {
  { "Throughput", "read\u00a0↑  write\u00a0↓" },
  { "IOPS", "completions per second" },
  { "In flight", "requests on the device" },
  { "Latency", "Q2C: queue to completion p99 bold, median thin non-idle solid, idle dashed" },
  { "Idle steal", "stolen share; grey: fg waiting" },
  { "Sector map", "offset on the device" },
};

/* The subtitle lines of the strip titled by the dl's item t (those after it at the margin), joined
 * with spaces; each lies inside the strip's label box, left of its ticks, and none is cut (a
 * wrapped one has the whole subtitle as tooltip, a cut one ends in "…" too). */
static char *
strip_subtitles_inside (IochartDisplayList *dl, guint t, double top, double h, double x0)
{
  GString *joined = g_string_new (NULL);

  for (guint i = t + 1; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      double x, y, w, hh;

      if (item->kind != IOCHART_DL_TEXT || item->bold || item->x != IOCHART_BLOCKS_MARGIN
          || item->anchor != IOCHART_ANCHOR_START)
        break;
      iochart_dl_item_text_box (item, &x, &y, &w, &hh);
      g_test_message ("  '%s' at %.1f,%.1f to %.1f,%.1f (box %.0f,%.0f to %.0f,%.0f)", item->text, x, y, x + w, y + hh,
                      0.0, top, x0 - 5, top + h);
      if (x < 0 || x + w > x0 - 5 || y < top || y + hh > top + h)
        g_error ("'%s' leaves its strip's label box", item->text);
      g_assert_null (strstr (item->text, "…"));
      g_string_append_printf (joined, "%s%s", joined->len ? " " : "", item->text);
    }
  return g_string_free (joined, FALSE);
}

/* The strip titled title shows all of its subtitles (their lines joined with spaces), inside its
 * label box. */
static void
assert_strip_subtitles (IochartDisplayList *dl, const char *title, const char *subtitles)
{
  double x0, w;
  gint64 from, to;
  guint found = 0;

  g_assert_true (iochart_display_list_get_time_axis (dl, &x0, &w, &from, &to));
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *frame = iochart_display_list_get_item (dl, i);

      /* a strip's frame; its title, in the text layer, 11 px under its top */
      if (frame->kind != IOCHART_DL_RECT || frame->stroke == 0 || frame->x != x0 || frame->w != w)
        continue;
      for (guint t = 0; t < iochart_display_list_get_n_items (dl); t++)
        {
          const IochartDlItem *item = iochart_display_list_get_item (dl, t);
          g_autofree char *joined = NULL;

          if (item->kind != IOCHART_DL_TEXT || !item->bold || item->x != IOCHART_BLOCKS_MARGIN
              || item->y != frame->y + 11 || strcmp (item->text, title) != 0)
            continue;
          g_test_message ("%.0f px, %s:", iochart_display_list_get_width (dl), title);
          joined = strip_subtitles_inside (dl, t, frame->y, frame->h, x0);
          g_assert_cmpstr (joined, ==, subtitles);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 1);
}

/* At 700 px the latency strip lost its third subtitle line (cut, "non-idle solid, idle dashed"
 * but a tooltip): from the narrowest chart to a wide one every strip's subtitles all show, inside
 * its label box; a zoomed sector map's three too. */
static void
test_strip_subtitles_fit (void)
{
  g_autoptr(IochartCapture) c = story ();
  g_autoptr(IochartCapture) zoomed = NULL;
  const guint widths[] = { IOCHART_VIEW_MIN_WIDTH, 700, 900, 1600, 2500 };
  guint n = 2000;
  g_autofree TestRq *rqs = g_new0 (TestRq, n);

  /* test_sector_map_outlier's: one stray request far up the device */
  for (guint i = 0; i < n; i++)
    rqs[i] = (TestRq) { DEV_LOOP, 1000000 + 50 * i, 8, "R", 10, "reader", IOCHART_CLASS_BE,
                        i * MS, i * MS, i * MS + 100, i * MS + 500 };
  rqs[n / 2].sector = 8000000000u;
  zoomed = test_capture (rqs, n);
  for (guint k = 0; k < G_N_ELEMENTS (widths); k++)
    {
      g_autoptr(IochartDisplayList) dl = draw (c, widths[k], IOCHART_THEME_LIGHT);
      g_autoptr(IochartDisplayList) zdl = draw (zoomed, widths[k], IOCHART_THEME_DARK);

      for (guint s = 0; s < G_N_ELEMENTS (story_strips); s++)
        assert_strip_subtitles (dl, story_strips[s].title, story_strips[s].subtitles);
      assert_strip_subtitles (zdl, "Sector map", "offset on the device zoomed to 98% of requests, the rest at its edges");
    }
}

/* I/O in a narrow band far into a big device: the map shows the band, and says so; its ticks
 * tell its edges apart (they read "1.9 TiB" both). */
static void
test_sector_map_zoom (void)
{
  static const TestRq rqs[] = {
    { DEV_LOOP, 4000000000u, 8, "R", 10, "a", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 2 * MS, 3 * MS },
    { DEV_LOOP, 4000100000u, 8, "R", 10, "a", IOCHART_CLASS_BE, 5 * MS, 5 * MS, 6 * MS, 7 * MS },
    { DEV_LOOP, 4000200000u, 8, "R", 11, "b", IOCHART_CLASS_IDLE, 8 * MS, 8 * MS, 9 * MS, 10 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  g_autoptr(IochartDisplayList) dl = draw (c, 900, IOCHART_THEME_LIGHT);
  const IochartDlItem *title = find_text (dl, "Sector map"), *bottom = NULL, *top = NULL;

  g_assert_nonnull (title);
  g_assert_nonnull (find_text_or_whole (dl, "zoomed to the offsets used"));
  /* the bottom tick of the map: right-aligned at the plot's left, the lowest in the strip */
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      /* (the top tick sits a little above the title's baseline) */
      if (item->kind == IOCHART_DL_TEXT && item->anchor == IOCHART_ANCHOR_END && item->y > title->y - 4 &&
          item->y < title->y + IOCHART_VIEW_SECTOR_ROWS + 10)
        {
          top = top ? top : item;
          bottom = item;
        }
    }
  g_assert_nonnull (bottom);
  g_assert_true (top != bottom);
  /* sectors 4,000,000,000 to 4,000,200,008 */
  g_assert_cmpstr (bottom->text, ==, "1.8626 TiB");
  g_assert_cmpstr (top->text, ==, "1.8627 TiB");
}

/* One stray request far up the device must not squash the band every other request used. */
static void
test_sector_map_outlier (void)
{
  guint n = 2000;
  g_autofree TestRq *rqs = g_new0 (TestRq, n);
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  const IochartDlItem *title;

  for (guint i = 0; i < n; i++)
    rqs[i] = (TestRq) { DEV_LOOP, 1000000 + 50 * i, 8, "R", 10, "reader", IOCHART_CLASS_BE,
                        i * MS, i * MS, i * MS + 100, i * MS + 500 };
  rqs[n / 2].sector = 8000000000u;
  c = test_capture (rqs, n);
  dl = draw (c, 900, IOCHART_THEME_LIGHT);
  title = find_text (dl, "Sector map");
  g_assert_nonnull (title);
  g_assert_nonnull (find_text_or_whole (dl, "zoomed to 98% of requests,"));
  /* the top tick reads the band's top (about 537 MiB), not the stray request's 3.7 TiB */
  g_assert_null (find_text (dl, "TiB"));
}

/* The sector map's image: its pixels that are not empty, and how many of those are opaque. */
static guint
sector_pixels (IochartDisplayList *dl, guint *opaque)
{
  guint n = 0;

  *opaque = 0;
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind != IOCHART_DL_IMAGE || item->height_px != IOCHART_VIEW_SECTOR_ROWS)
        continue;
      for (int y = 0; y < item->height_px; y++)
        for (int x = 0; x < item->width_px; x++)
          {
            guint32 px = *(const guint32 *) (item->pixels + (gsize) y * item->stride + (gsize) x * 4);
            n += px != 0;
            *opaque += (px >> 24) == 0xff;
          }
      return n;
    }
  g_assert_not_reached ();
}

/* A small capture's few requests were lone faint pixels in the sector map (the ftrace sample's
 * 78): fewer filled cells than columns are drawn as 3x3 marks at full strength; a map of more
 * keeps a pixel a cell, its strength by count. */
static void
test_sector_map_sparse (void)
{
  guint n = 1200;
  g_autofree TestRq *rqs = g_new0 (TestRq, n);
  g_autoptr(IochartCapture) few = NULL, many = NULL;
  g_autoptr(IochartDisplayList) dl_few = NULL, dl_many = NULL;
  guint opaque, drawn;

  /* apart in time and sector: every request a cell of its own, none next to another */
  for (guint i = 0; i < n; i++)
    rqs[i] = (TestRq) { DEV_LOOP, 1000 + 40000 * (i % 7), 8, "R", 10, "reader",
                        i % 2 ? IOCHART_CLASS_IDLE : IOCHART_CLASS_BE,
                        i * 10 * MS, i * 10 * MS, i * 10 * MS + 100, i * 10 * MS + 500 };
  few = test_capture (rqs, 40);
  dl_few = draw (few, 900, IOCHART_THEME_LIGHT);
  /* 9 pixels a request, less those of marks cut by the map's edges (the lowest and highest sectors,
   * the first and last columns) */
  drawn = sector_pixels (dl_few, &opaque);
  g_assert_cmpuint (drawn, >=, 40 * 9 - 40);
  g_assert_cmpuint (opaque, ==, drawn);
  /* the same spread over 1200 requests at 900 px: as many cells as columns and more */
  many = test_capture (rqs, n);
  dl_many = draw (many, 900, IOCHART_THEME_LIGHT);
  g_assert_cmpuint (sector_pixels (dl_many, &opaque), <=, n);
  g_assert_cmpuint (opaque, ==, 0);
}

/* The legend lists the classes that issued something: a capture of best-effort readers only has
 * no "idle: 0 B in 0 requests" nor an idle steal swatch; a range with nothing says so. */
static void
test_legend_classes (void)
{
  guint n = 20;
  g_autofree TestRq *rqs = g_new0 (TestRq, n);
  g_autoptr(IochartCapture) c = NULL;
  g_autoptr(IochartDisplayList) dl = NULL, empty = NULL;
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  IochartView *view;

  for (guint i = 0; i < n; i++)
    rqs[i] = (TestRq) { DEV_LOOP, 1000 + 8 * i, 8, "R", 10, "reader", IOCHART_CLASS_BE,
                        i * MS, i * MS, i * MS + 100, i * MS + 500 };
  c = test_capture (rqs, n);
  dl = draw (c, 900, IOCHART_THEME_LIGHT);
  g_assert_nonnull (find_text (dl, "be: 80 KiB in 20 requests"));
  g_assert_null (find_text (dl, "idle: "));
  g_assert_null (find_text (dl, "rt: "));
  g_assert_null (find_text (dl, "idle steal (shaded)"));
  /* a range between two requests' issues: none issued in it */
  vo.width = 900;
  vo.from_ns = iochart_capture_get_start_ns (c) + 5 * MS + 200;
  vo.to_ns = iochart_capture_get_start_ns (c) + 5 * MS + 300;
  view = iochart_view_new (c, &vo);
  empty = iochart_chart_draw (view, NULL);
  iochart_view_free (view);
  g_assert_nonnull (find_text (empty, "no request issued in this range"));
  g_assert_null (find_text (empty, "be: "));

  /* the dark palette shows queued requests dim and busy ones bright: the words say so */
  g_assert_nonnull (find_text (dl, "light: queued, dark: on the device"));
  g_assert_nonnull (find_text (dl, "(darker: busier)"));
  {
    g_autoptr(IochartDisplayList) dark = draw (c, 900, IOCHART_THEME_DARK);

    g_assert_nonnull (find_text (dark, "dim: queued, bright: on the device"));
    g_assert_nonnull (find_text (dark, "(brighter: busier)"));
    g_assert_null (find_text (dark, "darker"));
  }
}

static double
hue_of (guint32 rgba)
{
  double r = (rgba >> 24) / 255.0, g = ((rgba >> 16) & 0xff) / 255.0, b = ((rgba >> 8) & 0xff) / 255.0;
  double max = MAX (r, MAX (g, b)), min = MIN (r, MIN (g, b)), h;

  g_assert_cmpfloat (max - min, >, 0.1);
  h = max == r ? fmod ((g - b) / (max - min), 6) : max == g ? (b - r) / (max - min) + 2 : (r - g) / (max - min) + 4;
  return fmod (h * 60 + 360, 360);
}

/* The figures of the pixel column under a strip's tooltip: one 64 KiB be read on the device from
 * 10 ms to 20 ms, at 15 ms its rate (64 KiB / 10 ms), one request in flight, its completion in
 * the column of 20 ms; nothing at 50 ms; outside the view, no column. */
static void
test_describe_column (void)
{
  static const TestRq rqs[] = {
    { DEV_LOOP, 1000, 128, "R", 10, "a", IOCHART_CLASS_BE, 9 * MS, 9 * MS, 10 * MS, 20 * MS },
    { DEV_LOOP, 9000, 8, "R", 10, "a", IOCHART_CLASS_BE, 99 * MS, 99 * MS, 99 * MS, 100 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  g_autoptr(IochartView) view = NULL;
  gint64 origin = 0;   /* the requests' times are the capture's clock */
  g_autofree char *rate = iochart_format_bytes (65536 / 0.010);
  g_autofree char *mid = NULL, *done = NULL, *idle = NULL, *before = NULL;

  vo.width = 1100;
  vo.from_ns = origin;
  vo.to_ns = origin + 100 * MS;
  view = iochart_view_new (c, &vo);
  mid = iochart_view_describe_column (view, origin + 15 * MS, origin);
  g_test_message ("at 15 ms:\n%s", mid);
  g_assert_nonnull (mid);
  /* the column's start to its 0.1 ms, its width */
  g_assert_true (g_regex_match_simple ("^at 1[45]\\.[0-9] ms, over 1[0-9][0-9] µs\n", mid, 0, 0));
  g_assert_nonnull (strstr (mid, rate));
  g_assert_nonnull (strstr (mid, "/s): be "));
  g_assert_nonnull (strstr (mid, "\n1.0 in flight on average"));
  g_assert_null (strstr (mid, "completed"));
  g_assert_null (strstr (mid, "written"));
  done = iochart_view_describe_column (view, origin + 20 * MS - 1, origin);
  g_test_message ("at 20 ms:\n%s", done);
  g_assert_nonnull (strstr (done, "\n1 request completed ("));
  g_assert_nonnull (strstr (done, "non-idle latency p50 "));
  idle = iochart_view_describe_column (view, origin + 50 * MS, origin);
  g_assert_nonnull (strstr (idle, "no I/O on the device"));
  before = iochart_view_describe_column (view, origin - MS, origin);
  g_assert_null (before);
}

/* The name drawn for the lane whose tooltip (its facts) starts with head, or NULL. */
static const char *
lane_name_text (IochartDisplayList *dl, const char *head)
{
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind == IOCHART_DL_TEXT && item->tooltip && g_str_has_prefix (item->tooltip, head) &&
          strstr (item->tooltip, "\nclass ") && g_str_has_prefix (item->text, head))
        return item->text;
    }
  return NULL;
}

/* A lane's name too long for a narrow chart drops what its descendants ran before it is cut:
 * "find[20000] + 3" at 640 px (was "find[20000] + 3 × s…"), the whole name at 1600 px; a
 * process's own name is cut before its pid and count ("make-text-s…[12501]", was "make-text-sampl[1…";
 * the sample's "make-te…[12394] + 1" at 690 px). */
static void
test_lane_name_cut (void)
{
  static const TestProc procs[] = {
    { 1 * MS, 100, 20000, "find" },
    { 10 * MS, 20000, 20001, "something-long" }, { 13 * MS, 20001, 0, NULL },
    { 20 * MS, 20000, 20002, "something-long" }, { 23 * MS, 20002, 0, NULL },
    { 30 * MS, 20000, 20003, "something-long" }, { 33 * MS, 20003, 0, NULL },
    { 900 * MS, 20000, 0, NULL },
  };
  static const TestRq rqs[] = {
    { DEV_LOOP, 100, 8, "R", 20000, "find", IOCHART_CLASS_BE, 5 * MS, 5 * MS, 6 * MS, 7 * MS },
    { DEV_LOOP, 1000, 8, "R", 20001, "something-long", IOCHART_CLASS_BE, 10 * MS, 10 * MS, 11 * MS, 12 * MS },
    { DEV_LOOP, 2000, 8, "R", 20002, "something-long", IOCHART_CLASS_BE, 20 * MS, 20 * MS, 21 * MS, 22 * MS },
    { DEV_LOOP, 3000, 8, "R", 20003, "something-long", IOCHART_CLASS_BE, 30 * MS, 30 * MS, 31 * MS, 32 * MS },
    { DEV_LOOP, 5000, 8, "R", 12501, "make-text-sampl", IOCHART_CLASS_BE, 40 * MS, 40 * MS, 41 * MS, 42 * MS },
    /* flushes only: folded into "others" */
    { DEV_LOOP, 0, 0, "FWS", 30001, "kworker/a", IOCHART_CLASS_NONE, 50 * MS, -1, 50 * MS, 51 * MS },
    { DEV_LOOP, 0, 0, "FWS", 30002, "kworker/b", IOCHART_CLASS_NONE, 60 * MS, -1, 60 * MS, 61 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture_full (rqs, G_N_ELEMENTS (rqs), procs, G_N_ELEMENTS (procs));
  g_autoptr(IochartDisplayList) narrow = draw (c, IOCHART_VIEW_MIN_WIDTH, IOCHART_THEME_LIGHT);
  g_autoptr(IochartDisplayList) wide = draw (c, 1600, IOCHART_THEME_LIGHT);

  g_assert_cmpstr (lane_name_text (wide, "find[20000]"), ==, "find[20000] + 3 × something-long");
  g_assert_cmpstr (lane_name_text (narrow, "find[20000]"), ==, "find[20000] + 3");
  /* a process's own name cut before its pid, which tells it apart */
  g_assert_cmpstr (lane_name_text (wide, "make-text-sampl[12501]"), ==, "make-text-sampl[12501]");
  g_assert_true (g_str_has_suffix (lane_name_text (narrow, "make-text"), "…[12501]"));
  /* the folded lanes' count without their processes' */
  g_assert_cmpstr (lane_name_text (wide, "others"), ==, "others: 2 lanes, 2 processes");
  g_assert_cmpstr (lane_name_text (narrow, "others"), ==, "others: 2 lanes");
}

/* Time ticks read in the unit of the axis' far end, with the decimals the step needs: a 5 ms view
 * 300 ms into a capture read "299500 µs", "300000 µs" (the step's unit). */
static void
test_tick_units (void)
{
  static const struct { double rel, step, last; const char *want; } ticks[] = {
    { 299500000, 500000, 302000000, "299.5 ms" },
    { 299510000, 10000, 300000000, "299.51 ms" },
    { 300000000, 100000000, 900000000, "300 ms" },
    { 4800000000.0, 100000000, 5000000000.0, "4.8 s" },
    { 1200000000, 1000000, 1300000000, "1.200 s" },
    { 12000, 2000, 50000, "12 µs" },
    { 500, 100, 900, "500 ns" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
    {
      g_autofree char *got = iochart_blocks_format_tick (ticks[i].rel, ticks[i].step, ticks[i].last);
      g_assert_cmpstr (got, ==, ticks[i].want);
    }
}

/* A lane's subline (its class, bytes and share of I/O) shows whole from the narrowest chart up:
 * at 640-700 px the full "be · 388 KiB · I/O 63 ms of 989 ms (6%)" was cut to "be · 388 KiB ·
 * I/O 63 ms…", at 900 px to "… 63 ms of 989…"; the longest of shorter forms that fits is drawn
 * instead ("be · 388 KiB · I/O 6%"), the tooltip keeping every figure. */
static void
test_lane_sublines (void)
{
  g_autoptr(IochartCapture) c = story ();
  const guint widths[] = { IOCHART_VIEW_MIN_WIDTH, 700, 900, 1600 };
  guint full = 0;

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr(IochartDisplayList) dl = draw (c, widths[w], IOCHART_THEME_LIGHT);
      guint n = 0;

      for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
        {
          const IochartDlItem *item = iochart_display_list_get_item (dl, i);

          /* the lane's second line: its tooltip is the lane's facts */
          if (item->kind != IOCHART_DL_TEXT || !item->tooltip || !strstr (item->tooltip, "\nclass ") ||
              strchr (item->text, '[') || strstr (item->text, " · ") == NULL)
            continue;
          g_test_message ("%u px: %s", widths[w], item->text);
          g_assert_false (g_str_has_suffix (item->text, "…"));
          /* the share of I/O stays even at the narrowest */
          g_assert_nonnull (strstr (item->text, "%"));
          full += strstr (item->text, " of ") != NULL;
          n++;
        }
      g_assert_cmpuint (n, >=, 3);
    }
  /* wide enough, the whole line */
  g_assert_cmpuint (full, >, 0);
}

/* In both styles every class colour stands 3:1 at least against the ground (WCAG's for graphics:
 * light unknown's sky blue was 2.3:1 on white, none's grey 2.8:1), and every coloured class (all
 * but none's grey) has a hue of its own, 30 degrees from the others' at least: lightness hardly
 * tells two blues apart (light unknown's sky blue had be's hue, 202 degrees; on the dark ground
 * it read as be). A chart of a capture with unknown requests draws them in it. */
static void
test_classes_apart (void)
{
  static const IochartClass coloured[] = { IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_IDLE,
                                           IOCHART_CLASS_UNKNOWN };
  static const TestRq rqs[] = {
    { DEV_LOOP, 100, 8, "R", 10, "a", IOCHART_CLASS_BE, 1 * MS, 1 * MS, 2 * MS, 3 * MS },
    { DEV_LOOP, 200, 8, "R", 11, "b", IOCHART_CLASS_UNKNOWN, 5 * MS, 5 * MS, 6 * MS, 7 * MS },
  };
  g_autoptr(IochartCapture) c = test_capture (rqs, G_N_ELEMENTS (rqs));

  for (IochartTheme theme = IOCHART_THEME_LIGHT; theme <= IOCHART_THEME_DARK; theme++)
    {
      g_autoptr(IochartDisplayList) dl = draw (c, 900, theme);
      guint32 unknown = iochart_class_color (theme, IOCHART_CLASS_UNKNOWN);
      guint32 bg = iochart_display_list_get_background (dl);
      guint drawn = 0;

      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        {
          g_test_message ("%s %s: %08x, %.2f:1", theme == IOCHART_THEME_DARK ? "dark" : "light",
                          iochart_class_name (k), iochart_class_color (theme, k),
                          contrast (iochart_class_color (theme, k), bg));
          g_assert_cmpfloat (contrast (iochart_class_color (theme, k), bg), >=, 3.0);
        }
      for (guint i = 0; i < G_N_ELEMENTS (coloured); i++)
        for (guint j = i + 1; j < G_N_ELEMENTS (coloured); j++)
          {
            double d = fabs (hue_of (iochart_class_color (theme, coloured[i])) -
                             hue_of (iochart_class_color (theme, coloured[j])));
            g_assert_cmpfloat (MIN (d, 360 - d), >=, 30);
          }
      for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
        {
          const IochartDlItem *item = iochart_display_list_get_item (dl, i);
          drawn += item->kind == IOCHART_DL_RECT && item->fill == unknown;
        }
      g_assert_cmpuint (drawn, >, 0);
    }
}

/* Where the throughput strip's read/write baseline ("0") sits, as a share of the way from its top
 * tick to its bottom tick: the read side's part of the strip. */
static double
throughput_read_share (IochartDisplayList *dl)
{
  const IochartDlItem *title = find_text (dl, "Throughput"), *next = find_text (dl, "IOPS");
  double top = -1, bottom = -1, zero = -1;

  g_assert_nonnull (title);
  g_assert_nonnull (next);
  for (guint i = 0; i < iochart_display_list_get_n_items (dl); i++)
    {
      const IochartDlItem *item = iochart_display_list_get_item (dl, i);
      if (item->kind != IOCHART_DL_TEXT || item->y < title->y - 20 || item->y > next->y - 5)
        continue;
      if (g_str_has_suffix (item->text, "/s"))
        {
          if (top < 0)
            top = item->y;
          else
            bottom = item->y;
        }
      else if (g_str_equal (item->text, "0"))
        zero = item->y;
    }
  g_assert_cmpfloat (top, >=, 0);
  g_assert_cmpfloat (bottom, >, top);
  g_assert_cmpfloat (zero, >, top);
  return (zero - top) / (bottom - top);
}

/* 200 reads of 64 KiB and one 1 MiB sync write on the device for 50 us: at 2500 px the write's
 * column is its own 1 MiB in a 70 us column (the reads' columns about 64 KiB each), so sizing the
 * sides by their peaks gave that one write three quarters of the strip. The sides take room by
 * the bytes they moved, the same at any width. */
static void
test_throughput_sides (void)
{
  guint n = 201;
  g_autofree TestRq *rqs = g_new0 (TestRq, n);
  g_autoptr(IochartCapture) c = NULL;
  double share[2];
  const guint widths[] = { 700, 2500 };

  for (guint i = 0; i + 1 < n; i++)
    rqs[i] = (TestRq) { DEV_LOOP, 1000 + 128 * i, 128, "R", 10, "reader", IOCHART_CLASS_BE,
                        i * MS, i * MS, i * MS + 100, i * MS + 500000 };
  rqs[n - 1] = (TestRq) { DEV_LOOP, 900000, 2048, "WS", 11, "sync", IOCHART_CLASS_BE,
                          150 * MS + 600000, 150 * MS + 600000, 150 * MS + 600100, 150 * MS + 650100 };
  c = test_capture (rqs, n);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr(IochartDisplayList) dl = draw (c, widths[w], IOCHART_THEME_LIGHT);
      share[w] = throughput_read_share (dl);
      /* 12.5 MiB read against 1 MiB written: the reads get the most room */
      g_assert_cmpfloat (share[w], >, 0.7);
    }
  g_assert_cmpfloat (fabs (share[0] - share[1]), <, 0.02);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lanes/tree", test_lanes_tree);
  g_test_add_func ("/lanes/without-forks", test_lanes_without_forks);
  g_test_add_func ("/lanes/options", test_lanes_options);
  g_test_add_func ("/chart/story", test_chart_story);
  g_test_add_func ("/chart/no-overlap", test_no_overlap);
  g_test_add_func ("/chart/golden", test_golden);
  g_test_add_func ("/chart/narrow-label-column", test_narrow_label_column);
  g_test_add_func ("/chart/warped-keeps-frames", test_warped_keeps_frames);
  g_test_add_func ("/chart/warped-range-text", test_warped_range_text);
  g_test_add_func ("/chart/areas-column-wise", test_areas_column_wise);
  g_test_add_func ("/chart/stacked-from-base", test_stacked_from_base);
  g_test_add_func ("/render/cairo-column-boxes", test_cairo_column_boxes);
  g_test_add_func ("/render/cairo-strokes-batched", test_cairo_strokes_batched);
  g_test_add_func ("/render/cairo-glyph-runs", test_cairo_glyph_runs);
  g_test_add_func ("/render/cairo-draw-image", test_cairo_draw_image);
  g_test_add_func ("/chart/latency-line-wide", test_latency_line_wide);
  g_test_add_func ("/chart/diff-labels-inside", test_diff_labels_inside);
  g_test_add_func ("/chart/throughput-sides", test_throughput_sides);
  g_test_add_func ("/render/text-measure", test_text_measure);
  g_test_add_func ("/render/svg", test_svg);
  g_test_add_func ("/render/svg-escapes", test_svg_escapes);
  g_test_add_func ("/render/png-pdf", test_png_pdf);
  g_test_add_func ("/chart/fold-lanes", test_fold_lanes);
  g_test_add_func ("/chart/narrow-labels-inside", test_narrow_labels_inside);
  g_test_add_func ("/chart/lifeline-explained", test_lifeline_explained);
  g_test_add_func ("/chart/dark-shading-veil", test_dark_shading_veil);
  g_test_add_func ("/chart/latency-classes-apart", test_latency_classes_apart);
  g_test_add_func ("/chart/latency-contrast", test_latency_contrast);
  g_test_add_func ("/chart/strip-subtitles-fit", test_strip_subtitles_fit);
  g_test_add_func ("/chart/classes-apart", test_classes_apart);
  g_test_add_func ("/chart/lane-sublines", test_lane_sublines);
  g_test_add_func ("/chart/tick-units", test_tick_units);
  g_test_add_func ("/chart/lane-name-cut", test_lane_name_cut);
  g_test_add_func ("/chart/describe-column", test_describe_column);
  g_test_add_func ("/chart/sector-map-zoom", test_sector_map_zoom);
  g_test_add_func ("/chart/sector-map-outlier", test_sector_map_outlier);
  g_test_add_func ("/chart/sector-map-sparse", test_sector_map_sparse);
  g_test_add_func ("/chart/legend-classes", test_legend_classes);
  return g_test_run ();
}
