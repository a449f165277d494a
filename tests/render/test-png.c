/* Unit tests of the PNG writer: cairo reads back exactly what it would have read from its own
 * writer, opaque images come out as RGB, and a file that cannot be written is named. */
#include <cairo.h>
#include <malloc.h>
#include <math.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <string.h>
#include "../test-util.h"
#include "iochart-error.h"
#include "render/iochart-png.h"
#include "render/iochart-png-private.h"
#include "render/iochart-cairo.h"
#include "render/iochart-display-list.h"

/* A chart-like image: a white page, flat bars, an antialiased diagonal; with `holes`, a
 * transparent and a half-transparent band. */
static cairo_surface_t *
picture (gboolean holes)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 97, 61);
  cairo_t *cr = cairo_create (s);

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.2, 0.4, 0.8);
  cairo_rectangle (cr, 10, 10, 40, 20);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, 0.9, 0.1, 0.1, 1);
  cairo_move_to (cr, 0, 60);
  cairo_line_to (cr, 96, 3);
  cairo_stroke (cr);
  if (holes)
    {
      cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
      cairo_set_source_rgba (cr, 0, 0, 0, 0);
      cairo_rectangle (cr, 0, 40, 97, 5);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, 0.3, 0.6, 0.1, 0.5);
      cairo_rectangle (cr, 0, 50, 97, 5);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
  return s;
}

static GBytes *
pixels_of (const char *path)
{
  cairo_surface_t *s = cairo_image_surface_create_from_png (path);
  GString *out = g_string_new (NULL);

  g_assert_cmpint (cairo_surface_status (s), ==, CAIRO_STATUS_SUCCESS);
  for (int y = 0; y < cairo_image_surface_get_height (s); y++)
    g_string_append_len (out, (const char *) cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s),
                         cairo_image_surface_get_width (s) * 4);
  cairo_surface_destroy (s);
  return g_string_free_to_bytes (out);
}

static void
check_same_as_cairo (gboolean holes, guint8 want_color_type)
{
  g_autofree char *dir = test_make_dir ();
  g_autofree char *ours = g_build_filename (dir, "ours.png", NULL);
  g_autofree char *theirs = g_build_filename (dir, "cairo.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) a = NULL, b = NULL;
  g_autofree char *data = NULL;
  cairo_surface_t *s = picture (holes);
  gsize len;

  g_assert_true (iochart_png_write (s, ours, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cairo_surface_write_to_png (s, theirs), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (s);
  a = pixels_of (ours);
  b = pixels_of (theirs);
  g_assert_true (g_bytes_equal (a, b));
  /* IHDR's colour type: 2 RGB, 6 RGBA */
  g_assert_true (g_file_get_contents (ours, &data, &len, NULL));
  g_assert_cmpuint (len, >, 26);
  g_assert_cmpuint ((guint8) data[25], ==, want_color_type);
  test_remove_dir (dir);
}

static void
test_opaque (void)
{
  check_same_as_cairo (FALSE, 2);
}

static void
test_alpha (void)
{
  check_same_as_cairo (TRUE, 6);
}

/* A chart-sized surface starts blank and draws as cairo's own does. */
static void
test_big_surface (void)
{
  cairo_surface_t *ours = iochart_png_surface_new (1600, 1800), *theirs = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 1800);
  cairo_surface_t *both[] = { ours, theirs };
  gsize size = (gsize) cairo_image_surface_get_stride (ours) * 1800;
  const guint8 *p = cairo_image_surface_get_data (ours);

  g_assert_cmpint (cairo_surface_status (ours), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_format (ours), ==, CAIRO_FORMAT_ARGB32);
  for (gsize i = 0; i < size; i++)
    g_assert_cmpuint (p[i], ==, 0);
  for (guint i = 0; i < 2; i++)
    {
      cairo_t *cr = cairo_create (both[i]);

      cairo_set_source_rgb (cr, 0.2, 0.5, 0.9);
      cairo_arc (cr, 800, 900, 700, 0, 6);
      cairo_fill (cr);
      cairo_destroy (cr);
      cairo_surface_flush (both[i]);
    }
  g_assert_cmpmem (cairo_image_surface_get_data (ours), size, cairo_image_surface_get_data (theirs), size);
  cairo_surface_destroy (ours);
  cairo_surface_destroy (theirs);
  /* small ones are cairo's own */
  ours = iochart_png_surface_new (10, 10);
  g_assert_cmpint (cairo_surface_status (ours), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (ours);
}

/* A chart-sized image, opaque or with a translucent band: many pieces on several threads read
 * back as the pixels drawn, and the file is the same bytes on one thread as on eight, and from
 * the pixels without their surface (an SVG's image). */
static void
check_big (gboolean holes, guint8 want_color_type)
{
  cairo_surface_t *s = iochart_png_surface_new (1601, 1203), *back;
  cairo_t *cr = cairo_create (s);
  g_autoptr(GBytes) one = NULL, many = NULL, raw = NULL;
  g_autofree char *dir = test_make_dir ();
  g_autofree char *path = g_build_filename (dir, "big.png", NULL);
  const guint8 *data;
  gsize len;

  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  for (int i = 0; i < 60; i++)
    {
      cairo_set_source_rgb (cr, (i % 7) / 7.0, (i % 5) / 5.0, (i % 3) / 3.0);
      cairo_rectangle (cr, i * 26.3, i * 19.7, 300.5, 45.2);
      cairo_fill (cr);
      cairo_move_to (cr, 0, i * 20);
      cairo_line_to (cr, 1600, 1200 - i * 17);
      cairo_stroke (cr);
    }
  if (holes)
    {
      cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
      cairo_set_source_rgba (cr, 0.3, 0.6, 0.1, 0.5);
      cairo_rectangle (cr, 0, 700, 1601, 300);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
  one = _iochart_png_encode_with (s, 1);
  many = _iochart_png_encode_with (s, 8);
  g_assert_nonnull (one);
  g_assert_true (g_bytes_equal (one, many));
  raw = iochart_png_encode_argb32 (cairo_image_surface_get_data (s), 1601, 1203, cairo_image_surface_get_stride (s));
  g_assert_true (g_bytes_equal (raw, many));
  data = g_bytes_get_data (many, &len);
  g_assert_cmpuint ((guint8) data[25], ==, want_color_type);
  g_assert_true (g_file_set_contents (path, (const char *) data, len, NULL));
  back = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (back), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_flush (s);
  for (int y = 0; y < 1203; y++)
    g_assert_cmpmem (cairo_image_surface_get_data (s) + y * cairo_image_surface_get_stride (s), 1601 * 4,
                     cairo_image_surface_get_data (back) + y * cairo_image_surface_get_stride (back), 1601 * 4);
  cairo_surface_destroy (back);
  cairo_surface_destroy (s);
  test_remove_dir (dir);
}

static void
test_big_opaque (void)
{
  check_big (FALSE, 2);
}

static void
test_big_alpha (void)
{
  check_big (TRUE, 6);
}

/* Something of every kind a chart draws, across many strips: filled and stroked shapes at
 * fractional positions, dashed lines, a long polygon, text. */
static void
draw_scene (cairo_t *cr, gpointer data)
{
  double scale = *(const double *) data;

  cairo_scale (cr, scale, scale);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  for (int i = 0; i < 80; i++)
    {
      static const double dash[] = { 4.0, 3.0 };

      cairo_set_source_rgba (cr, (i % 7) / 7.0, (i % 5) / 5.0, (i % 3) / 3.0, i % 2 ? 1 : 0.6);
      cairo_rectangle (cr, i * 19.3, i * 13.7 + 0.4, 250.5, 23.2);
      cairo_fill (cr);
      cairo_set_dash (cr, dash, i % 3 == 0 ? 2 : 0, 0);
      cairo_move_to (cr, 0, i * 14.1);
      cairo_line_to (cr, 1200, 1100 - i * 13.3);
      cairo_stroke (cr);
      cairo_select_font_face (cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                              i % 2 ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      cairo_set_font_size (cr, 9 + i % 5);
      cairo_move_to (cr, 30 + i * 7.1, i * 13.7 + 6.5);
      cairo_show_text (cr, "kworker/u8:2 (+3) 12.5 MiB/s");
    }
  cairo_set_dash (cr, NULL, 0, 0);
  cairo_move_to (cr, 0, 1100);
  for (int x = 0; x < 1200; x += 3)
    cairo_line_to (cr, x, 600 + 400 * ((x * 7919) % 101) / 101.0);
  cairo_line_to (cr, 1200, 1100);
  cairo_close_path (cr);
  cairo_set_source_rgba (cr, 0.2, 0.2, 0.2, 0.8);
  cairo_fill (cr);
}

/* Drawn a strip at a time on threads: the same file as drawn whole and written on one thread,
 * at scale 1 and at a scale that puts strip edges at fractional user positions. */
static void
check_drawn (double scale)
{
  int w = (int) (1203 * scale), h = (int) (1111 * scale);
  cairo_surface_t *whole = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (whole);
  g_autoptr(GBytes) want = NULL, one = NULL, many = NULL;

  draw_scene (cr, &scale);
  cairo_destroy (cr);
  want = _iochart_png_encode_with (whole, 1);
  one = _iochart_png_encode_drawn_with (w, h, draw_scene, &scale, 1);
  many = _iochart_png_encode_drawn_with (w, h, draw_scene, &scale, 4);
  g_assert_nonnull (want);
  g_assert_true (g_bytes_equal (one, want));
  g_assert_true (g_bytes_equal (many, want));
  cairo_surface_destroy (whole);
}

static void
test_drawn (void)
{
  check_drawn (1.0);
  check_drawn (0.73);
}

/* A drawing that is not opaque everywhere comes out as RGBA, as drawn whole. */
static void
draw_holes (cairo_t *cr, gpointer data)
{
  cairo_set_source_rgb (cr, 0.9, 0.9, 0.8);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_rgba (cr, 0.3, 0.6, 0.1, 0.5);
  cairo_rectangle (cr, 0, 900, 800, 40);
  cairo_fill (cr);
}

static void
test_drawn_alpha (void)
{
  cairo_surface_t *whole = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 1000);
  cairo_t *cr = cairo_create (whole);
  g_autoptr(GBytes) want = NULL, got = NULL;

  draw_holes (cr, NULL);
  cairo_destroy (cr);
  want = _iochart_png_encode_with (whole, 1);
  got = _iochart_png_encode_drawn_with (800, 1000, draw_holes, NULL, 4);
  g_assert_true (g_bytes_equal (got, want));
  g_assert_cmpuint (((const guint8 *) g_bytes_get_data (got, NULL))[25], ==, 6);
  cairo_surface_destroy (whole);
}

/* One pixel that is not opaque, wherever it falls, makes the file RGBA: the strip's opacity is
 * seen while its rows are filtered (the image's first row, a row's last pixels past the last
 * whole vector, a strip's first and last rows), not in a pass of its own. */
static const int hole_at[][2] = { { 0, 0 }, { 802, 0 }, { 801, 17 }, { 400, 500 }, { 802, 999 } };

static void
draw_one_hole (cairo_t *cr, gpointer data)
{
  const int *at = data;

  cairo_set_source_rgb (cr, 0.9, 0.9, 0.8);
  cairo_paint (cr);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_rgba (cr, 0.3, 0.6, 0.1, 0.5);
  cairo_rectangle (cr, at[0], at[1], 1, 1);
  cairo_fill (cr);
}

static void
test_drawn_alpha_anywhere (void)
{
  /* 803 pixels: three past the last group of four */
  for (guint i = 0; i < G_N_ELEMENTS (hole_at); i++)
    {
      cairo_surface_t *whole = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 803, 1000);
      cairo_t *cr = cairo_create (whole);
      g_autoptr(GBytes) want = NULL, got = NULL, one = NULL;

      draw_one_hole (cr, (gpointer) hole_at[i]);
      cairo_destroy (cr);
      want = _iochart_png_encode_with (whole, 1);
      got = _iochart_png_encode_drawn_with (803, 1000, draw_one_hole, (gpointer) hole_at[i], 4);
      one = _iochart_png_encode_drawn_with (803, 1000, draw_one_hole, (gpointer) hole_at[i], 1);
      g_assert_cmpuint (((const guint8 *) g_bytes_get_data (want, NULL))[25], ==, 6);
      g_assert_true (g_bytes_equal (got, want));
      g_assert_true (g_bytes_equal (one, want));
      cairo_surface_destroy (whole);
    }
}

/* Dashed vertical lines, long and short, drawn down and up, on cairo's 1/256 pixel grid and off
 * it: drawn in strips, where each is cut to its strip give or take whole dash periods
 * (iochart-cairo.c), the same file as drawn whole; at scale 1, where the cut is made, and at
 * another, where it is not. */
static void
check_dashed (double scale)
{
  g_autoptr(IochartDisplayList) dl = iochart_display_list_new (400, 1500);
  int w = (int) floor (400 * scale), h = (int) floor (1500 * scale);
  cairo_surface_t *whole = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cairo_t *cr = cairo_create (whole);
  g_autoptr(GBytes) want = NULL;
  g_autofree char *path = NULL, *got = NULL;
  gsize len;
  int fd;

  for (int i = 0; i < 60; i++)
    {
      static const double frac[] = { 0, 0.5, 0.25, 0.1, 1 / 256.0, 0.3 };
      double x = 5 + i * 6.5 + (i % 3) * 0.3;
      double y = (i * 37) % 300 + frac[i % G_N_ELEMENTS (frac)];
      double y2 = 1500 - (i * 53) % 400 - frac[(i + 2) % G_N_ELEMENTS (frac)];
      IochartDlItem *item = iochart_display_list_line (dl, x, i % 2 ? y : y2, x, i % 2 ? y2 : y,
                                                       0x404040ff, i % 7 == 0 ? 1.5 : 1);

      item->dashed = TRUE;
    }
  cairo_scale (cr, scale, scale);
  iochart_cairo_draw (dl, cr);
  cairo_destroy (cr);
  want = _iochart_png_encode_with (whole, 1);
  fd = g_file_open_tmp ("iochart-dashed-XXXXXX.png", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (iochart_cairo_png_file (dl, scale, path, NULL));
  g_assert_true (g_file_get_contents (path, &got, &len, NULL));
  g_assert_cmpmem (got, len, g_bytes_get_data (want, NULL), g_bytes_get_size (want));
  g_unlink (path);
  cairo_surface_destroy (whole);
}

static void
test_drawn_dashed (void)
{
  check_dashed (1.0);
  check_dashed (0.87);
}

/* Opaque rows filtered with SSSE3's shuffle where the machine has it: the same file as the generic
 * loop's, at every width's remainder (the last pixels of a row are the generic loop's), with
 * random colours in every byte. */
static void
test_filter_simd (void)
{
  static const int widths[] = { 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 31, 33, 1600, 1603 };
  GRand *rand = g_rand_new_with_seed (14);

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++)
    {
      int w = widths[i], h = 37;
      cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
      guint8 *data = cairo_image_surface_get_data (s);
      int stride = cairo_image_surface_get_stride (s);
      g_autoptr(GBytes) fast = NULL, generic = NULL;

      cairo_surface_flush (s);
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          ((guint32 *) (data + y * stride))[x] = 0xff000000u | (g_rand_int (rand) & 0xffffff);
      cairo_surface_mark_dirty (s);
      fast = _iochart_png_encode_with (s, 1);
      _iochart_png_use_generic_filter (TRUE);
      generic = _iochart_png_encode_with (s, 1);
      _iochart_png_use_generic_filter (FALSE);
      g_assert_true (g_bytes_equal (fast, generic));
      cairo_surface_destroy (s);
    }
  g_rand_free (rand);
}

/* A boot chart's size drawn in 24 strips: the compressed strips take the heap they hold, not a
 * deflate worst case (65 KB) each; reserved in each strip's array, that was 128 KB a strip, spread
 * over the command line's huge pages (iochart-heap.c). In a subprocess with the command line's
 * malloc settings (one arena, no mappings, no trimming), so that the heap only grows. */
static void
draw_chart_like (cairo_t *cr, gpointer data)
{
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  for (int i = 0; i < 120; i++)
    {
      cairo_set_source_rgb (cr, (i % 7) / 7.0, (i % 5) / 5.0, (i % 3) / 3.0);
      cairo_rectangle (cr, 150 + (i * 37) % 900, i * 15, 200 + (i * 53) % 400, 9);
      cairo_fill (cr);
    }
}

static void
test_drawn_heap (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr(GBytes) png = NULL;
      gsize before;

      /* glibc's mallopt returns 1; a sanitizer's does not and its heap is its own */
      if (mallopt (M_MMAP_THRESHOLD, 32 << 20) != 1)
        return;
      mallopt (M_ARENA_MAX, 1);
      mallopt (M_TRIM_THRESHOLD, 1 << 30);
      before = mallinfo2 ().arena;
      png = _iochart_png_encode_drawn_with (1600, 1819, draw_chart_like, NULL, 2);
      g_assert_nonnull (png);
      /* two strip surfaces (1 MB), two zlib states and buffers (0.7 MB), the file; was 5 MB */
      g_assert_cmpuint (mallinfo2 ().arena - before, <, 3 << 20);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
test_unwritable (void)
{
  g_autoptr(GError) error = NULL;
  cairo_surface_t *s = picture (FALSE);

  g_assert_false (iochart_png_write (s, "/nonexistent-dir/x.png", &error));
  g_assert_error (error, IOCHART_ERROR, IOCHART_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "'/nonexistent-dir/x.png': cannot write"));
  cairo_surface_destroy (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/png/opaque-as-rgb", test_opaque);
  g_test_add_func ("/png/alpha-unpremultiplied", test_alpha);
  g_test_add_func ("/png/unwritable", test_unwritable);
  g_test_add_func ("/png/big-opaque-on-threads", test_big_opaque);
  g_test_add_func ("/png/big-alpha-on-threads", test_big_alpha);
  g_test_add_func ("/png/drawn-in-strips", test_drawn);
  g_test_add_func ("/png/drawn-in-strips-alpha", test_drawn_alpha);
  g_test_add_func ("/png/drawn-in-strips-alpha-anywhere", test_drawn_alpha_anywhere);
  g_test_add_func ("/png/drawn-in-strips-dashed", test_drawn_dashed);
  g_test_add_func ("/png/filter-simd", test_filter_simd);
  g_test_add_func ("/png/drawn-heap", test_drawn_heap);
  g_test_add_func ("/png/big-surface", test_big_surface);
  return g_test_run ();
}
