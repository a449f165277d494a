/* Tests of the faces charts use (iochart-fonts.c): our own font configuration measures and draws
 * exactly what cairo's toy faces under the system's configuration did (with Debian's defaults
 * for how glyphs are drawn, whatever the system's rules say), and without the family in its
 * folders the system's is used. */
#include <cairo.h>
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
#include <string.h>
#include "../test-util.h"
#include "render/iochart-cairo.h"
#include "render/iochart-display-list.h"
#include "render/iochart-fonts-private.h"

static const char * const texts[] = {
  "0", "systemd-udevd", "Boot chart: 12.34 s, CPU 87 %", "kworker/u8:2 (1234)", "…", "WMwm iIl1|",
  "disk throughput 123.4 MB/s",
};
static const double sizes[] = { 8, 9, 10, 11, 12.5, 14, 18 };

/* What the charts measured before: cairo's toy face, configured by the system. */
static double
toy_width (const char *text, double size, gboolean bold)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (s);
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_text_extents_t ext;

  cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
  cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
  cairo_set_font_options (cr, options);
  cairo_select_font_face (cr, IOCHART_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                          bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size (cr, size);
  cairo_text_extents (cr, text, &ext);
  cairo_font_options_destroy (options);
  cairo_destroy (cr);
  cairo_surface_destroy (s);
  return ext.x_advance;
}

static void
assert_widths_as_toy (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      for (int bold = 0; bold < 2; bold++)
        {
          double w = iochart_text_width (texts[i], sizes[k], bold);

          g_assert_cmpfloat (w, >, 0);
          /* the same doubles, not near ones: SVG and layout must not move */
          g_assert_cmpfloat (w, ==, toy_width (texts[i], sizes[k], bold));
        }
}

/* The pixels of text items at several sizes, drawn by the charts' own drawing. */
static GBytes *
drawn_text (void)
{
  IochartDisplayList *dl = iochart_display_list_new (420, 40 * G_N_ELEMENTS (sizes));
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 420, 40 * G_N_ELEMENTS (sizes));
  cairo_t *cr = cairo_create (s);
  GBytes *pixels;

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      iochart_display_list_text (dl, 3.5, 40 * k + 15, texts[k % G_N_ELEMENTS (texts)], sizes[k], FALSE,
                                 IOCHART_ANCHOR_START, 0xff202020);
      iochart_display_list_text (dl, 410, 40 * k + 33, texts[(k + 2) % G_N_ELEMENTS (texts)], sizes[k], TRUE,
                                 IOCHART_ANCHOR_END, 0xff3060a0);
    }
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  iochart_cairo_draw (dl, cr);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  pixels = g_bytes_new (cairo_image_surface_get_data (s),
                        (gsize) cairo_image_surface_get_stride (s) * cairo_image_surface_get_height (s));
  cairo_surface_destroy (s);
  iochart_display_list_free (dl);
  return pixels;
}

/* Whether the system's configuration has the family in both weights, as the charts expect. */
static gboolean
system_has_family (void)
{
  gboolean found = TRUE;

  for (int bold = 0; bold < 2; bold++)
    {
      FcPattern *p = FcNameParse ((const FcChar8 *) (bold ? IOCHART_FONT_FAMILY ":bold" : IOCHART_FONT_FAMILY));
      FcResult result;
      FcPattern *m;
      FcChar8 *family = NULL;

      FcConfigSubstitute (NULL, p, FcMatchPattern);
      FcDefaultSubstitute (p);
      m = FcFontMatch (NULL, p, &result);
      found = found && m && FcPatternGetString (m, FC_FAMILY, 0, &family) == FcResultMatch
              && g_ascii_strcasecmp ((const char *) family, IOCHART_FONT_FAMILY) == 0;
      FcPatternDestroy (p);
      if (m)
        FcPatternDestroy (m);
    }
  return found;
}

static void
test_own_as_system (void)
{
  g_autoptr(GBytes) toy = NULL, own = NULL;

  if (!system_has_family ())
    {
      g_test_skip ("no " IOCHART_FONT_FAMILY " installed");
      return;
    }
  _iochart_fonts_reset (FALSE, NULL, NULL);
  g_assert_false (_iochart_fonts_own_in_use ());
  toy = drawn_text ();

  _iochart_fonts_reset (TRUE, NULL, NULL);
  g_assert_true (_iochart_fonts_own_in_use ());
  assert_widths_as_toy ();
  own = drawn_text ();
  g_assert_true (g_bytes_equal (toy, own));
}

static void
test_fallback (void)
{
  g_autofree char *empty = test_make_dir (), *cache = test_make_dir ();
  const char *folders[] = { empty, NULL };

  /* a configuration whose folders lack the family: the system's faces, the same widths */
  _iochart_fonts_reset (TRUE, folders, cache);
  g_assert_false (_iochart_fonts_own_in_use ());
  assert_widths_as_toy ();
  _iochart_fonts_reset (FALSE, NULL, NULL);
  test_remove_dir (empty);
  test_remove_dir (cache);
}

/* Widths are kept once measured (a chart measures its labels every frame): asked again, after
 * other sizes and weights, after the faces were made anew and after more texts than the store
 * keeps, they are still cairo's of that face, size and weight. */
static void
test_width_cache (void)
{
  _iochart_fonts_reset (FALSE, NULL, NULL);
  for (int round = 0; round < 2; round++)
    assert_widths_as_toy ();
  _iochart_fonts_reset (FALSE, NULL, NULL);
  assert_widths_as_toy ();
  for (guint i = 0; i < 9000; i++)
    {
      g_autofree char *text = g_strdup_printf ("label %u", i);

      g_assert_cmpfloat (iochart_text_width (text, 10, i % 2), ==, toy_width (text, 10, i % 2));
    }
  assert_widths_as_toy ();
}

/* The system's configuration (or FONTCONFIG_FILE's) with, last, what Debian's defaults leave
 * the glyphs' drawing with: grey antialiasing, no subpixel order, no autohinter, no made-up
 * bold. A system whose rules turn on subpixel rendering or hinting then draws toy faces as
 * Debian's do, so the comparison with our own configuration (which has no rules) holds there
 * too; the charts' own cairo options already turn hinting off. Set before fontconfig starts. */
static char *
use_explicit_config (void)
{
  const char *system = g_getenv ("FONTCONFIG_FILE");
  g_autofree char *dir = test_make_dir (), *escaped = NULL, *xml = NULL;
  char *path = g_build_filename (dir, "fonts.conf", NULL);

  escaped = g_markup_escape_text (system && *system ? system : "/etc/fonts/fonts.conf", -1);
  xml = g_strdup_printf ("<?xml version=\"1.0\"?>\n<!DOCTYPE fontconfig SYSTEM \"urn:fontconfig:fonts.dtd\">\n"
                         "<fontconfig>\n  <include ignore_missing=\"yes\">%s</include>\n"
                         "  <match target=\"font\">\n"
                         "    <edit name=\"antialias\" mode=\"assign\"><bool>true</bool></edit>\n"
                         "    <edit name=\"rgba\" mode=\"assign\"><const>unknown</const></edit>\n"
                         "    <edit name=\"autohint\" mode=\"assign\"><bool>false</bool></edit>\n"
                         "    <edit name=\"embolden\" mode=\"assign\"><bool>false</bool></edit>\n"
                         "  </match>\n</fontconfig>\n", escaped);
  g_assert_true (g_file_set_contents (path, xml, -1, NULL));
  g_setenv ("FONTCONFIG_FILE", path, TRUE);
  return path;
}

int
main (int argc, char **argv)
{
  g_autofree char *config = use_explicit_config ();
  g_autofree char *config_dir = g_path_get_dirname (config);
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/fonts/own-config-as-system", test_own_as_system);
  g_test_add_func ("/fonts/fallback-without-family", test_fallback);
  g_test_add_func ("/fonts/width-cache", test_width_cache);
  status = g_test_run ();
  test_remove_dir (config_dir);
  return status;
}
