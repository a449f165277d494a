/* iochart-fonts.c: the font faces charts are measured and drawn with
 *
 * cairo's toy font API (cairo_select_font_face) has fontconfig read the system's configuration
 * on first use: about 50 XML files in /etc/fonts/conf.d, and on Debian 12 every file of
 * /usr/share/fontconfig/conf.avail too, for their descriptions. For a boot chart that was a
 * third of the instructions of writing its SVG. A program that asks for it (the CLI) gets faces
 * from a configuration of our own instead: the usual font folders and the system's caches of
 * them, no rules, built once. The face is the font file fontconfig matches for the family, so
 * measured widths and drawn glyphs do not change; what the system's rules would add (hinting
 * style, subpixel order) cairo's own font options already decide for charts (no hinting, grey
 * antialiasing on image surfaces). Without the family in the weight asked for, the faces are
 * cairo's toy faces, configured by the system, as they always were.
 */
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
#include "iochart-fonts-private.h"
#include "iochart-font-metrics-private.h"
#include "iochart-display-list.h"

#ifndef IOCHART_FONTCONFIG_CACHEDIR
#define IOCHART_FONTCONFIG_CACHEDIR "/var/cache/fontconfig"
#endif

/* fontconfig's own default folders (its fonts.conf), with the system's caches of them */
static const char * const usual_folders[] = {
  "/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", NULL,
};

static GMutex lock;
static gboolean own_wanted;
static char **folders;          /* NULL: usual_folders */
static char *cache_folder;      /* with folders */
static cairo_font_face_t *faces[2];
static gboolean own_in_use;
static int pinned_in_use = -1;  /* -1: not looked at yet */

static FcConfig *
own_config (void)
{
  const char * const *dirs = folders ? (const char * const *) folders : usual_folders;
  GString *xml = g_string_new ("<fontconfig>");
  FcConfig *config = FcConfigCreate ();
  gboolean ok;

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *escaped = g_markup_escape_text (dirs[i], -1);
      g_string_append_printf (xml, "<dir>%s</dir>", escaped);
    }
  if (folders == NULL)
    g_string_append (xml, "<dir prefix=\"xdg\">fonts</dir>"
                          "<cachedir>" IOCHART_FONTCONFIG_CACHEDIR "</cachedir>"
                          "<cachedir prefix=\"xdg\">fontconfig</cachedir>");
  else if (cache_folder != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (cache_folder, -1);
      g_string_append_printf (xml, "<cachedir>%s</cachedir>", escaped);
    }
  g_string_append (xml, "</fontconfig>");
  ok = config != NULL && FcConfigParseAndLoadFromMemory (config, (const FcChar8 *) xml->str, FcFalse)
       && FcConfigBuildFonts (config);
  g_string_free (xml, TRUE);
  if (!ok && config != NULL)
    FcConfigDestroy (config), config = NULL;
  return config;
}

/* The face of the font file config matches for the family, as cairo's toy face asks for it;
 * NULL when that is another family, weight or slant (the system's rules may then substitute,
 * or make a bold one up, which ours do not). */
static cairo_font_face_t *
own_face (FcConfig *config, gboolean bold)
{
  FcPattern *pattern = FcPatternCreate (), *match;
  cairo_font_face_t *face = NULL;
  FcChar8 *family, *file;
  FcResult result;
  int weight, slant;

  FcPatternAddString (pattern, FC_FAMILY, (const FcChar8 *) IOCHART_FONT_FAMILY);
  FcPatternAddInteger (pattern, FC_SLANT, FC_SLANT_ROMAN);
  FcPatternAddInteger (pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_MEDIUM);
  FcConfigSubstitute (config, pattern, FcMatchPattern);
  FcDefaultSubstitute (pattern);
  match = FcFontMatch (config, pattern, &result);
  FcPatternDestroy (pattern);
  if (match == NULL)
    return NULL;
  if (FcPatternGetString (match, FC_FAMILY, 0, &family) == FcResultMatch
      && g_ascii_strcasecmp ((const char *) family, IOCHART_FONT_FAMILY) == 0
      && FcPatternGetString (match, FC_FILE, 0, &file) == FcResultMatch
      && FcPatternGetInteger (match, FC_WEIGHT, 0, &weight) == FcResultMatch
      && (weight >= FC_WEIGHT_DEMIBOLD) == bold
      && FcPatternGetInteger (match, FC_SLANT, 0, &slant) == FcResultMatch && slant == FC_SLANT_ROMAN)
    face = cairo_ft_font_face_create_for_pattern (match);
  FcPatternDestroy (match);
  if (face != NULL && cairo_font_face_status (face) != CAIRO_STATUS_SUCCESS)
    g_clear_pointer (&face, cairo_font_face_destroy);
  return face;
}

static void
make_faces (void)
{
  FcConfig *config = own_wanted ? own_config () : NULL;

  if (config != NULL)
    {
      faces[0] = own_face (config, FALSE);
      faces[1] = own_face (config, TRUE);
      /* the faces hold their patterns (and files), not the configuration */
      FcConfigDestroy (config);
    }
  own_in_use = faces[0] != NULL && faces[1] != NULL;
  if (!own_in_use)
    for (int bold = 0; bold < 2; bold++)
      {
        g_clear_pointer (&faces[bold], cairo_font_face_destroy);
        faces[bold] = cairo_toy_font_face_create (IOCHART_FONT_FAMILY, CAIRO_FONT_SLANT_NORMAL,
                                                  bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      }
}

void
iochart_fonts_select (cairo_t *cr, double font_size, gboolean bold)
{
  cairo_font_face_t *face;

  g_mutex_lock (&lock);
  if (faces[0] == NULL)
    make_faces ();
  face = faces[bold ? 1 : 0];
  g_mutex_unlock (&lock);
  cairo_set_font_face (cr, face);
  cairo_set_font_size (cr, font_size);
}

void
iochart_fonts_use_own_config (void)
{
  g_mutex_lock (&lock);
  own_wanted = TRUE;
  g_atomic_int_set (&pinned_in_use, -1);
  g_mutex_unlock (&lock);
}

/* an unreadable folder is one fontconfig finds nothing in either */
static gboolean
folder_empty (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  gboolean empty;

  if (dir == NULL)
    return TRUE;
  empty = g_dir_read_name (dir) == NULL;
  g_dir_close (dir);
  return empty;
}

/* Our configuration's folders other than /usr/share/fonts (usual_folders and the xdg one) must
 * hold no font: another DejaVu Sans there, of a later version, could be the one fontconfig picks.
 * Under /usr/share/fonts the family is the package's. */
static gboolean
pinned_files_picked (void)
{
  g_autofree char *dot_fonts = NULL, *xdg_fonts = NULL;

  if (!own_wanted || folders != NULL || !folder_empty ("/usr/local/share/fonts"))
    return FALSE;
  dot_fonts = g_build_filename (g_get_home_dir (), ".fonts", NULL);
  xdg_fonts = g_build_filename (g_get_user_data_dir (), "fonts", NULL);
  return folder_empty (dot_fonts) && folder_empty (xdg_fonts) && _iochart_font_metrics_files_match ();
}

gboolean
_iochart_fonts_pinned_in_use (void)
{
  int pinned = g_atomic_int_get (&pinned_in_use);

  if (pinned < 0)
    {
      g_mutex_lock (&lock);
      pinned = pinned_files_picked ();
      g_atomic_int_set (&pinned_in_use, pinned);
      g_mutex_unlock (&lock);
    }
  return pinned;
}

void
_iochart_fonts_reset (gboolean own, const char * const *dirs, const char *cache_dir)
{
  g_mutex_lock (&lock);
  own_wanted = own;
  g_strfreev (folders);
  folders = g_strdupv ((char **) dirs);
  g_free (cache_folder);
  cache_folder = g_strdup (cache_dir);
  for (int bold = 0; bold < 2; bold++)
    g_clear_pointer (&faces[bold], cairo_font_face_destroy);
  g_atomic_int_set (&pinned_in_use, -1);
  g_mutex_unlock (&lock);
}

gboolean
_iochart_fonts_own_in_use (void)
{
  gboolean own;

  g_mutex_lock (&lock);
  if (faces[0] == NULL)
    make_faces ();
  own = own_in_use;
  g_mutex_unlock (&lock);
  return own;
}
