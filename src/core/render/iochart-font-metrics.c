/* iochart-font-metrics.c: text widths of the pinned DejaVu Sans faces from a table
 *
 * Measuring text with cairo loads cairo, fontconfig, freetype and their 10 libraries and reads
 * the font: for a boot chart's SVG, which draws nothing with cairo, that was half of its page
 * faults and a third of its CPU time. cairo (its toy text API, hinting off) gives a string's
 * advance as the sum of its glyphs' advances, added left to right from 0, each a double fixed by
 * face, size and character: a table of those doubles, measured by cairo itself
 * (tests/render/test-font-metrics.c writes and checks iochart-font-metrics-table.h), gives the
 * same doubles. It holds the faces of Debian 12's fonts-dejavu-core at the sizes charts use and
 * the characters they write; anything else is measured by cairo as before.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "iochart-font-metrics-private.h"
#include "iochart-font-metrics-table.h"

G_STATIC_ASSERT (G_N_ELEMENTS (pinned_faces) == 2);

static gboolean
face_matches (const IochartPinnedFace *face)
{
  struct stat st;
  guint8 b[4];
  gboolean same;
  int fd = open (face->path, O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    return FALSE;
  same = fstat (fd, &st) == 0 && st.st_size == face->size
         && pread (fd, b, 4, face->head_offset + 8) == 4
         && ((guint32) b[0] << 24 | (guint32) b[1] << 16 | (guint32) b[2] << 8 | b[3]) == face->checksum;
  close (fd);
  return same;
}

gboolean
_iochart_font_metrics_files_match (void)
{
  return face_matches (&pinned_faces[0]) && face_matches (&pinned_faces[1]);
}

static int
size_index (double font_size)
{
  for (guint i = 0; i < G_N_ELEMENTS (table_sizes); i++)
    if (table_sizes[i] == font_size)
      return (int) i;
  return -1;
}

static int
char_index (gunichar c)
{
  guint lo = 0, hi = G_N_ELEMENTS (table_chars);

  /* printable ASCII is the table's start */
  if (c >= 0x20 && c < 0x7f)
    return (int) (c - 0x20);
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (table_chars[mid] < c)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < G_N_ELEMENTS (table_chars) && table_chars[lo] == c ? (int) lo : -1;
}

gboolean
_iochart_font_metrics_width (const char *text, double font_size, gboolean bold, double *width)
{
  int s = size_index (font_size);
  const double *advance;
  double x = 0;

  if (s < 0)
    return FALSE;
  advance = table_advance[bold ? 1 : 0][s];
  for (const char *p = text; *p; )
    {
      gunichar c = g_utf8_get_char_validated (p, -1);
      int i;

      if (c >= 0x80000000u || (i = char_index (c)) < 0)
        return FALSE;
      /* cairo adds them in this order, from 0 */
      x += advance[i];
      p = g_utf8_next_char (p);
    }
  *width = x;
  return TRUE;
}

gboolean
_iochart_font_metrics_extents (double font_size, double *ascent, double *descent)
{
  int s = size_index (font_size);

  if (s < 0)
    return FALSE;
  *ascent = table_ascent[s];
  *descent = table_descent[s];
  return TRUE;
}
