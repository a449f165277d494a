/* iochart-png.c: PNG encoding of cairo's image data through libpng */
#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <zlib.h>
#include "iochart-png.h"
#include "iochart-error.h"

#define HUGE_PAGE (2u << 20)

cairo_surface_t *
iochart_png_surface_new (int width, int height)
{
  static const cairo_user_data_key_t pixels_key;
  int stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  gsize size = (gsize) MAX (stride, 0) * MAX (height, 0);
  cairo_surface_t *surface;
  void *pixels;

  /* small or odd sizes: cairo's own allocation, and its own errors */
  if (stride <= 0 || height <= 0 || size < HUGE_PAGE || posix_memalign (&pixels, HUGE_PAGE, size) != 0)
    return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  madvise (pixels, size & ~(gsize) (HUGE_PAGE - 1), MADV_HUGEPAGE);
  memset (pixels, 0, size);
  surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, height, stride);
  if (cairo_surface_set_user_data (surface, &pixels_key, pixels, free) != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      free (pixels);
      return cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
    }
  return surface;
}

static gboolean
all_opaque (const guint8 *data, int stride, int width, int height)
{
  for (int y = 0; y < height; y++)
    {
      const guint32 *p = (const guint32 *) (data + (gsize) y * stride);

      for (int x = 0; x < width; x++)
        if (p[x] < 0xff000000u)
          return FALSE;
    }
  return TRUE;
}

/* cairo keeps native-endian premultiplied 0xAARRGGBB; PNG wants R, G, B[, A] bytes. */
static void
convert_row (const guint32 *src, guint8 *dst, int width, gboolean alpha)
{
  for (int x = 0; x < width; x++)
    {
      guint32 p = src[x], a = p >> 24;
      guint32 r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

      if (!alpha)
        {
          *dst++ = r, *dst++ = g, *dst++ = b;
          continue;
        }
      if (a == 0)
        r = g = b = 0;
      else if (a < 0xff)
        r = (r * 255 + a / 2) / a, g = (g * 255 + a / 2) / a, b = (b * 255 + a / 2) / a;
      *dst++ = r, *dst++ = g, *dst++ = b, *dst++ = a;
    }
}

static void
on_png_error (png_structp png, png_const_charp message)
{
  g_strlcpy (png_get_error_ptr (png), message, 256);
  png_longjmp (png, 1);
}

static void
on_png_warning (png_structp png, png_const_charp message)
{
}

static void
write_file (png_structp png, png_bytep data, png_size_t len)
{
  if (fwrite (data, 1, len, png_get_io_ptr (png)) != len)
    png_error (png, g_strerror (errno));
}

static void
write_bytes (png_structp png, png_bytep data, png_size_t len)
{
  g_byte_array_append (png_get_io_ptr (png), data, len);
}

/* Everything that touches libpng's longjmp lives here, with no automatic variable changed
 * after setjmp (C11 7.13.2.1). */
static gboolean
encode (png_rw_ptr write, gpointer io, const guint8 *data, int stride, int width, int height, gboolean alpha,
        guint8 *row, char *message)
{
  png_structp png = png_create_write_struct (PNG_LIBPNG_VER_STRING, message, on_png_error, on_png_warning);
  png_infop info = png ? png_create_info_struct (png) : NULL;

  if (info == NULL)
    {
      g_strlcpy (message, "out of memory", 256);
      png_destroy_write_struct (&png, NULL);
      return FALSE;
    }
  if (setjmp (png_jmpbuf (png)))
    {
      png_destroy_write_struct (&png, &info);
      return FALSE;
    }
  png_set_write_fn (png, io, write, NULL);
  png_set_compression_level (png, 1);
  png_set_compression_strategy (png, Z_RLE);
  png_set_filter (png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
  png_set_IHDR (png, info, width, height, 8, alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
  png_write_info (png, info);
  for (int y = 0; y < height; y++)
    {
      convert_row ((const guint32 *) (data + (gsize) y * stride), row, width, alpha);
      png_write_row (png, row);
    }
  png_write_end (png, info);
  png_destroy_write_struct (&png, &info);
  return TRUE;
}

/* Encodes image through write(io): FALSE with message set when libpng fails. */
static gboolean
encode_surface (cairo_surface_t *image, png_rw_ptr write, gpointer io, char *message)
{
  int width = cairo_image_surface_get_width (image), height = cairo_image_surface_get_height (image);
  int stride = cairo_image_surface_get_stride (image);
  cairo_format_t format = cairo_image_surface_get_format (image);
  const guint8 *data;
  gboolean alpha;
  g_autofree guint8 *row = NULL;

  g_return_val_if_fail (format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, FALSE);
  cairo_surface_flush (image);
  data = cairo_image_surface_get_data (image);
  alpha = format == CAIRO_FORMAT_ARGB32 && !all_opaque (data, stride, width, height);
  row = g_malloc ((gsize) MAX (width, 1) * 4);
  return encode (write, io, data, stride, width, height, alpha, row, message);
}

gboolean
iochart_png_write (cairo_surface_t *image, const char *path, GError **error)
{
  char message[256] = "";
  gboolean ok;
  FILE *f;

  if ((f = fopen (path, "wb")) == NULL)
    {
      int e = errno;

      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (e));
      return FALSE;
    }
  ok = encode_surface (image, write_file, f, message);
  if (fclose (f) != 0 && ok)
    {
      ok = FALSE;
      g_strlcpy (message, g_strerror (errno), sizeof message);
    }
  if (!ok)
    g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, message);
  return ok;
}

GBytes *
iochart_png_encode (cairo_surface_t *image)
{
  GByteArray *out = g_byte_array_new ();
  char message[256] = "";

  if (!encode_surface (image, write_bytes, out, message))
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
}
