/* Tests of the table of the pinned faces' widths (iochart-font-metrics.c): it holds the doubles
 * cairo measures, for single characters and for any string of them, the charts measure from it
 * when the pinned files are installed, and the table in the source is the one these files give.
 * `test-font-metrics --write-table FILE` writes the table (iochart-font-metrics-table.h) from the
 * installed files; a table that differs from the source's is written to the current folder and
 * the test fails. Skipped where Debian's fonts-dejavu-core 2.37 is not installed. */
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <string.h>
#include "render/iochart-display-list.h"
#include "render/iochart-fonts-private.h"
#include "render/iochart-font-metrics-private.h"

static const char * const pinned_paths[2] = {
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
};
/* the sizes charts and reports write text at */
static const double table_sizes[] = { 8, 9, 9.5, 10, 11, 12, 13, 14, 16 };
/* beyond printable ASCII and Latin-1: what the charts' own texts write (·×µ are Latin-1) */
static const gunichar extra_chars[] = {
  0x0394 /* Δ */, 0x2013 /* – */, 0x2014 /* — */, 0x2026 /* … */, 0x2190, 0x2191, 0x2192, 0x2193 /* arrows */,
  0x2212 /* − */, 0x2264 /* ≤ */, 0x2265 /* ≥ */,
};

static cairo_t *
toy_context (double size, gboolean bold)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  cairo_font_options_t *options = cairo_font_options_create ();

  cairo_surface_destroy (s);
  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_set_font_options (cr, options);
  cairo_font_options_destroy (options);
  cairo_select_font_face (cr, IOCHART_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
  return cr;
}

/* What the charts measured before the table: cairo's toy face */
static double
toy_width (const char *text, double size, gboolean bold)
{
  cairo_t *cr = toy_context (size, bold);
  cairo_text_extents_t ext;

  cairo_text_extents (cr, text, &ext);
  cairo_destroy (cr);
  return ext.x_advance;
}

static GArray *
table_chars (void)
{
  GArray *chars = g_array_new (FALSE, FALSE, sizeof (gunichar));

  for (gunichar c = 0x20; c < 0x7f; c++)
    g_array_append_val (chars, c);
  for (gunichar c = 0xa0; c <= 0xff; c++)
    g_array_append_val (chars, c);
  g_array_append_vals (chars, extra_chars, G_N_ELEMENTS (extra_chars));
  return chars;
}

static guint32
be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* The pinned face a file is: its size, and its head table's offset and checksum */
static gboolean
describe_file (const char *path, IochartPinnedFace *face)
{
  g_autofree guint8 *data = NULL;
  gsize len;

  if (!g_file_get_contents (path, (char **) &data, &len, NULL) || len < 12)
    return FALSE;
  for (guint i = 0, n = data[4] << 8 | data[5]; i < n && 12 + 16 * (i + 1) <= len; i++)
    {
      const guint8 *rec = data + 12 + 16 * i;

      if (memcmp (rec, "head", 4) == 0 && be32 (rec + 8) + 12 <= len)
        {
          face->path = path;
          face->size = (gint64) len;
          face->head_offset = be32 (rec + 8);
          face->checksum = be32 (data + face->head_offset + 8);
          return TRUE;
        }
    }
  return FALSE;
}

/* The file fontconfig gives for the family in a weight */
static char *
matched_file (gboolean bold)
{
  FcPattern *p = FcNameParse ((const FcChar8 *) (bold ? IOCHART_FONT_FAMILY ":bold" : IOCHART_FONT_FAMILY));
  FcResult result;
  FcPattern *m;
  FcChar8 *file = NULL;
  char *path = NULL;

  FcConfigSubstitute (NULL, p, FcMatchPattern);
  FcDefaultSubstitute (p);
  m = FcFontMatch (NULL, p, &result);
  if (m && FcPatternGetString (m, FC_FILE, 0, &file) == FcResultMatch)
    path = g_strdup ((const char *) file);
  FcPatternDestroy (p);
  if (m)
    FcPatternDestroy (m);
  return path;
}

static gboolean
pinned_installed (void)
{
  for (int bold = 0; bold < 2; bold++)
    {
      g_autofree char *file = matched_file (bold);

      if (g_strcmp0 (file, pinned_paths[bold]) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The table's source text, measured by cairo from the installed files */
static char *
make_table (void)
{
  g_autoptr(GArray) chars = table_chars ();
  GString *out = g_string_new ("/* iochart-font-metrics-table.h: the widths of the pinned faces (iochart-font-metrics.c),\n"
                               " * written by tests/render/test-font-metrics --write-table: do not edit */\n\n");

  g_string_append (out, "static const IochartPinnedFace pinned_faces[] = {\n");
  for (int bold = 0; bold < 2; bold++)
    {
      IochartPinnedFace face = { 0 };

      g_assert_true (describe_file (pinned_paths[bold], &face));
      g_string_append_printf (out, "  { \"%s\", %" G_GINT64_FORMAT ", 0x%x, 0x%08x },\n",
                              face.path, face.size, face.head_offset, face.checksum);
    }
  g_string_append (out, "};\n\n/* sorted; printable ASCII first, where char_index() looks without searching */\n"
                        "static const gunichar table_chars[] = {");
  for (guint i = 0; i < chars->len; i++)
    g_string_append_printf (out, "%s0x%04x,", i % 10 ? " " : "\n  ", g_array_index (chars, gunichar, i));
  g_string_append (out, "\n};\n\nstatic const double table_sizes[] = {");
  for (guint k = 0; k < G_N_ELEMENTS (table_sizes); k++)
    g_string_append_printf (out, " %g,", table_sizes[k]);
  g_string_append (out, " };\n\n/* cairo_font_extents() of the regular face, by size */\n");
  for (int which = 0; which < 2; which++)
    {
      g_string_append_printf (out, "static const double table_%s[] = {", which ? "descent" : "ascent");
      for (guint k = 0; k < G_N_ELEMENTS (table_sizes); k++)
        {
          cairo_t *cr = toy_context (table_sizes[k], FALSE);
          cairo_font_extents_t ext;

          cairo_font_extents (cr, &ext);
          cairo_destroy (cr);
          g_string_append_printf (out, "%s%a,", k % 4 ? " " : "\n  ", which ? ext.descent : ext.ascent);
        }
      g_string_append (out, "\n};\n");
    }
  g_string_append_printf (out, "\n/* x_advance of each character: [bold][size][character] */\n"
                               "static const double table_advance[2][%u][%u] = {\n",
                          (guint) G_N_ELEMENTS (table_sizes), chars->len);
  for (int bold = 0; bold < 2; bold++)
    {
      g_string_append (out, "  {\n");
      for (guint k = 0; k < G_N_ELEMENTS (table_sizes); k++)
        {
          g_string_append_printf (out, "    { /* %s %g */", bold ? "bold" : "regular", table_sizes[k]);
          for (guint i = 0; i < chars->len; i++)
            {
              char utf8[8] = { 0 };

              g_unichar_to_utf8 (g_array_index (chars, gunichar, i), utf8);
              g_string_append_printf (out, "%s%a,", i % 6 ? " " : "\n      ",
                                      toy_width (utf8, table_sizes[k], bold));
            }
          g_string_append (out, "\n    },\n");
        }
      g_string_append (out, "  },\n");
    }
  g_string_append (out, "};\n");
  return g_string_free (out, FALSE);
}

static void
test_table_is_the_source (void)
{
  g_autofree char *made = NULL, *source = NULL, *path = NULL;

  if (!pinned_installed ())
    {
      g_test_skip ("the pinned DejaVu Sans files are not what fontconfig finds");
      return;
    }
  made = make_table ();
  g_assert_nonnull (g_getenv ("IOCHART_SOURCE_ROOT"));
  path = g_build_filename (g_getenv ("IOCHART_SOURCE_ROOT"), "src/core/render/iochart-font-metrics-table.h", NULL);
  g_assert_true (g_file_get_contents (path, &source, NULL, NULL));
  if (strcmp (made, source) != 0)
    {
      g_assert_true (g_file_set_contents ("iochart-font-metrics-table.h", made, -1, NULL));
      g_test_message ("the table differs from the installed files': new one in ./iochart-font-metrics-table.h");
      g_test_fail ();
    }
  g_assert_true (_iochart_font_metrics_files_match ());
}

/* a string of n characters of the table, some outside it when others is set */
static char *
random_text (GRand *rand, GArray *chars, guint n)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_unichar (s, g_array_index (chars, gunichar, g_rand_int_range (rand, 0, chars->len)));
  return g_string_free (s, FALSE);
}

static void
test_widths_as_cairo (void)
{
  g_autoptr(GArray) chars = table_chars ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (14);

  if (!pinned_installed ())
    {
      g_test_skip ("the pinned DejaVu Sans files are not what fontconfig finds");
      return;
    }
  _iochart_fonts_reset (TRUE, NULL, NULL);
  g_assert_true (_iochart_fonts_pinned_in_use ());
  for (guint k = 0; k < G_N_ELEMENTS (table_sizes); k++)
    for (int bold = 0; bold < 2; bold++)
      {
        double ascent, descent, w;
        cairo_t *cr = toy_context (table_sizes[k], FALSE);
        cairo_font_extents_t ext;

        cairo_font_extents (cr, &ext);
        cairo_destroy (cr);
        g_assert_true (_iochart_font_metrics_extents (table_sizes[k], &ascent, &descent));
        g_assert_cmpfloat (ascent, ==, ext.ascent);
        g_assert_cmpfloat (descent, ==, ext.descent);
        g_assert_true (_iochart_font_metrics_width ("", table_sizes[k], bold, &w));
        g_assert_cmpfloat (w, ==, toy_width ("", table_sizes[k], bold));
        /* sums in cairo's order: the same doubles, not near ones */
        for (guint i = 0; i < 400; i++)
          {
            g_autofree char *text = random_text (rand, chars, g_rand_int_range (rand, 1, 60));

            g_assert_true (_iochart_font_metrics_width (text, table_sizes[k], bold, &w));
            g_assert_cmpfloat (w, ==, toy_width (text, table_sizes[k], bold));
            g_assert_cmpfloat (iochart_text_width (text, table_sizes[k], bold), ==, w);
          }
      }
  _iochart_fonts_reset (FALSE, NULL, NULL);
}

static void
test_outside_the_table (void)
{
  double w, a, d;

  /* other sizes, characters, and bytes that are not UTF-8: cairo measures them */
  g_assert_false (_iochart_font_metrics_width ("abc", 10.25, FALSE, &w));
  g_assert_false (_iochart_font_metrics_extents (10.25, &a, &d));
  g_assert_false (_iochart_font_metrics_width ("ab\u4e2d", 10, FALSE, &w));
  g_assert_false (_iochart_font_metrics_width ("ab\tc", 10, FALSE, &w));
  g_assert_false (_iochart_font_metrics_width ("ab\xff", 10, FALSE, &w));
  /* the tests' own folders, and the system's configuration, are not the pinned files */
  _iochart_fonts_reset (FALSE, NULL, NULL);
  g_assert_false (_iochart_fonts_pinned_in_use ());
}

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--write-table") == 0)
    {
      g_autofree char *made = make_table ();

      return g_file_set_contents (argv[2], made, -1, NULL) ? 0 : 1;
    }
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/font-metrics/table-is-the-source", test_table_is_the_source);
  g_test_add_func ("/font-metrics/widths-as-cairo", test_widths_as_cairo);
  g_test_add_func ("/font-metrics/outside-the-table", test_outside_the_table);
  return g_test_run ();
}
