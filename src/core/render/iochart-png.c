/* iochart-png.c: PNG encoding of cairo's image data, compressed on every core
 *
 * A chart is flat colour: after PNG's "up" filter nearly every byte is 0, and zlib's fastest
 * level with run-length matching packs it well. Fed the whole image, though, zlib spent two
 * thirds of its time sliding its 32 KiB window and the hash tables that run-length matching
 * never reads, once every 32 KiB. So the filtered rows are deflated in pieces of whole rows
 * small enough never to slide (PIECE_BYTES), each started afresh (deflateReset) and ended on a
 * byte boundary (Z_SYNC_FLUSH): raw deflate pieces concatenate into one stream, and their
 * adler32s combine (adler32_combine) into the one zlib stream a PNG holds, as pigz does. The
 * adler32s and the chunks' crc32s are libdeflate's, 16 to 32 bytes a step: zlib 1.2.13 takes a
 * byte at a time, and its adler32 was an eighth of a boot chart PNG's instructions. Each
 * core compresses its own band of pieces; where the bands fall does not change a byte.
 * libpng cannot take a stream made this way, so the PNG container itself (signature, IHDR,
 * one IDAT, IEND, each chunk with its crc32) is written here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <libdeflate.h>
#include <zlib.h>
#include "iochart-png.h"
#include "iochart-png-private.h"
#include "iochart-error.h"

#define HUGE_PAGE (2u << 20)

/* zlib slides its window once the position passes window size + (window size - 262) bytes,
 * 65274 for a 32 KiB window: a piece shorter than that never slides. */
#define PIECE_BYTES 65000

/* fewer pieces than this a band: not worth a thread */
#define PIECES_PER_BAND 8

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

typedef guint32 Pixels4 __attribute__ ((vector_size (16)));
typedef guint8 Bytes16 __attribute__ ((vector_size (16)));

static gboolean
all_opaque (const guint8 *data, int stride, int width, int height)
{
  Pixels4 all = { ~0u, ~0u, ~0u, ~0u };
  guint32 tail = ~0u;

  /* an AND of every pixel, four at a time: opaque when every alpha byte stays 0xff */
  for (int y = 0; y < height; y++)
    {
      const guint8 *row = data + (gsize) y * stride;
      int x = 0;

      for (; x + 4 <= width; x += 4)
        {
          Pixels4 p;

          memcpy (&p, row + 4 * x, sizeof p);
          all &= p;
        }
      for (; x < width; x++)
        tail &= ((const guint32 *) row)[x];
    }
  return ((all[0] & all[1] & all[2] & all[3] & tail) >> 24) == 0xff;
}

/* cairo keeps native-endian premultiplied 0xAARRGGBB; PNG wants R, G, B[, A] bytes. */
static void
convert_row (const guint32 *src, guint8 *dst, int width, gboolean alpha)
{
  if (!alpha)
    {
      for (int x = 0; x < width; x++)
        {
          guint32 p = src[x];

          dst[0] = p >> 16, dst[1] = p >> 8, dst[2] = p;
          dst += 3;
        }
      return;
    }
  for (int x = 0; x < width; x++)
    {
      guint32 p = src[x], a = p >> 24;
      guint32 r = (p >> 16) & 0xff, g = (p >> 8) & 0xff, b = p & 0xff;

      if (a == 0)
        r = g = b = 0;
      else if (a < 0xff)
        r = (r * 255 + a / 2) / a, g = (g * 255 + a / 2) / a, b = (b * 255 + a / 2) / a;
      *dst++ = r, *dst++ = g, *dst++ = b, *dst++ = a;
    }
}

/* PNG's "up" filter: each byte less the one above it, 16 at a time */
static void
filter_up (guint8 *out, const guint8 *cur, const guint8 *above, gsize n)
{
  gsize i = 0;

  for (; i + 16 <= n; i += 16)
    {
      Bytes16 a, b;

      memcpy (&a, cur + i, sizeof a);
      memcpy (&b, above + i, sizeof b);
      a -= b;
      memcpy (out + i, &a, sizeof a);
    }
  for (; i < n; i++)
    out[i] = cur[i] - above[i];
}

/* 0xAARRGGBB as the bytes R, G, B, 0 of a little-endian word (big-endian: 0, R, G, B) */
static inline guint32
rgb_bytes (guint32 p)
{
  return GUINT32_TO_BE (p << 8);
}

/* An opaque row as RGB bytes with the "up" filter: as filter is bytewise and the conversion
 * only moves bytes, the pixels' bytewise difference (four pixels a vector) converts directly.
 * The AND of the row's pixels goes into *all: the pixels are read here anyway, and a separate
 * pass over a drawn strip to see that it is opaque was 4% of a boot chart PNG's CPU time. */
static void
filter_up_opaque_generic (guint8 *out, const guint8 *row, const guint8 *above, int width, guint32 *all)
{
  Pixels4 acc = { ~0u, ~0u, ~0u, ~0u };
  guint32 tail = ~0u;
  int x = 0;

  for (; x + 4 <= width; x += 4, out += 12)
    {
      Bytes16 a, b;
      Pixels4 d;

      memcpy (&a, row + 4 * x, sizeof a);
      memcpy (&b, above + 4 * x, sizeof b);
      acc &= (Pixels4) a;
      d = (Pixels4) (a - b);
#if G_BYTE_ORDER == G_LITTLE_ENDIAN
      {
        /* built in registers: words stored apart and read back as one stall the store buffer */
        guint64 w01 = rgb_bytes (d[0]) | (guint64) rgb_bytes (d[1]) << 24 | (guint64) rgb_bytes (d[2]) << 48;
        guint32 w2 = rgb_bytes (d[2]) >> 16 | rgb_bytes (d[3]) << 8;

        memcpy (out, &w01, sizeof w01);
        memcpy (out + 8, &w2, sizeof w2);
      }
#else
      for (int k = 0; k < 4; k++)
        out[3 * k] = d[k] >> 16, out[3 * k + 1] = d[k] >> 8, out[3 * k + 2] = d[k];
#endif
    }
  for (; x < width; x++, out += 3)
    {
      guint32 p = ((const guint32 *) row)[x], q = ((const guint32 *) above)[x];

      tail &= p;
      out[0] = (p >> 16) - (q >> 16), out[1] = (p >> 8) - (q >> 8), out[2] = p - q;
    }
  *all &= acc[0] & acc[1] & acc[2] & acc[3] & tail;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* The same with SSSE3's byte shuffle, which packs four pixels' R, G, B bytes in one instruction:
 * the generic loop built each group's 12 bytes with shifts and was a sixth of a boot chart PNG's
 * instructions. Each group stores 16 bytes, the last 4 written over by the next group; the
 * last pixels of a row, where that would pass the row's end, are the generic loop's. */
__attribute__ ((target ("ssse3"))) static void
filter_up_opaque_ssse3 (guint8 *out, const guint8 *row, const guint8 *above, int width, guint32 *all)
{
  /* cairo's pixel 0xAARRGGBB in little-endian bytes: B, G, R, A */
  const __m128i rgb = _mm_setr_epi8 (2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
  __m128i acc = _mm_set1_epi32 (-1);
  guint32 lanes[4];
  int x = 0;

  for (; x + 8 <= width; x += 4, out += 12)
    {
      __m128i a = _mm_loadu_si128 ((const __m128i *) (row + 4 * x));
      __m128i b = _mm_loadu_si128 ((const __m128i *) (above + 4 * x));

      acc = _mm_and_si128 (acc, a);
      _mm_storeu_si128 ((__m128i *) out, _mm_shuffle_epi8 (_mm_sub_epi8 (a, b), rgb));
    }
  _mm_storeu_si128 ((__m128i *) lanes, acc);
  *all &= lanes[0] & lanes[1] & lanes[2] & lanes[3];
  filter_up_opaque_generic (out, row + 4 * x, above + 4 * x, width - x, all);
}
#endif

static gint use_generic;   /* tests: 1 forces the generic loop */

void
_iochart_png_use_generic_filter (gboolean generic)
{
  g_atomic_int_set (&use_generic, generic);
}

static void
filter_up_opaque (guint8 *out, const guint8 *row, const guint8 *above, int width, guint32 *all)
{
#if defined(__x86_64__) && defined(__GNUC__)
  static gint ssse3 = -1;
  gint has = g_atomic_int_get (&ssse3);

  if (G_UNLIKELY (has < 0))
    {
      has = __builtin_cpu_supports ("ssse3") ? 1 : 0;
      g_atomic_int_set (&ssse3, has);
    }
  if (has && !g_atomic_int_get (&use_generic))
    {
      filter_up_opaque_ssse3 (out, row, above, width, all);
      return;
    }
#endif
  filter_up_opaque_generic (out, row, above, width, all);
}

/* The AND of a row's pixels (the first row of an image, which has no row above to filter by) */
static guint32
row_and (const guint8 *row, int width)
{
  guint32 all = ~0u;

  for (int x = 0; x < width; x++)
    all &= ((const guint32 *) row)[x];
  return all;
}

typedef struct
{
  const guint8 *rows;          /* image row first_row; rows first_row..y1 - 1 are there */
  int first_row;
  int stride, width;
  gboolean alpha;
  int y0, y1;                  /* this band's rows */
  int rows_per_piece;
  gboolean last;               /* the band that ends the stream */
  GByteArray *out;             /* its raw deflate pieces */
  guint32 adler;               /* of its filtered rows */
  gsize n_in;                  /* filtered bytes */
  guint32 opaque_and;          /* without alpha: the AND of its pixels, 0xff.. while opaque */
  gboolean ok;
} Band;

/* RGBA bands are not tested: always TRUE */
static inline gboolean
band_opaque (const Band *band)
{
  return band->alpha || band->opaque_and >> 24 == 0xff;
}

static inline const guint8 *
band_row (const Band *band, int y)
{
  return band->rows + (gssize) (y - band->first_row) * band->stride;
}

/* Appends all of z's input, deflated with flush, to out, through scratch (room bytes): a
 * piece's room for its worst case (deflateBound, 65 KB) kept in each band's own array made them
 * 128 KB each for the 11 KB they hold, spread over megabytes of huge pages (iochart-heap.c) that
 * the kernel zeroed when they were first touched. */
static gboolean
deflate_into (z_stream *z, GByteArray *out, guint8 *scratch, gsize room, int flush)
{
  for (;;)
    {
      int ret;

      z->next_out = scratch;
      z->avail_out = room;
      ret = deflate (z, flush);
      if (ret == Z_STREAM_ERROR)
        return FALSE;
      g_byte_array_append (out, scratch, room - z->avail_out);
      if (z->avail_out != 0 && z->avail_in == 0)
        return flush != Z_FINISH || ret == Z_STREAM_END;
    }
}

/* Row y filtered into out (its filter type byte first); cur and above: scratch rows. */
static void
filter_row (Band *band, int y, guint8 *out, guint8 **cur, guint8 **above)
{
  const guint8 *row = band_row (band, y);
  gsize row_bytes = (gsize) band->width * (band->alpha ? 4 : 3);
  guint8 *swap;

  out[0] = 2;   /* filter type "up" */
  /* above the first row: zeros */
  if (!band->alpha && y == 0)
    {
      convert_row ((const guint32 *) row, out + 1, band->width, FALSE);
      band->opaque_and &= row_and (row, band->width);
    }
  else if (!band->alpha)
    filter_up_opaque (out + 1, row, band_row (band, y - 1), band->width, &band->opaque_and);
  if (!band->alpha)
    return;
  convert_row ((const guint32 *) row, *cur, band->width, TRUE);
  filter_up (out + 1, *cur, *above, row_bytes);
  swap = *above, *above = *cur, *cur = swap;
}

/* zlib's state and a piece's filtered rows, kept across bands by a thread: allocated afresh for
 * each, their pages were faulted in again each time. */
typedef struct
{
  z_stream z;
  guint8 *piece;
  guint8 *out;                 /* a piece deflated, before it is appended to its band's */
  gsize out_bytes;
  gboolean ready;
} Deflater;

static void
deflater_init (Deflater *d, gsize piece_bytes)
{
  memset (d, 0, sizeof *d);
  d->ready = deflateInit2 (&d->z, 1, Z_DEFLATED, -15, 8, Z_RLE) == Z_OK;
  d->piece = g_malloc (piece_bytes);
  d->out_bytes = (d->ready ? deflateBound (&d->z, piece_bytes) : piece_bytes) + 64;
  d->out = g_malloc (d->out_bytes);
}

static void
deflater_clear (Deflater *d)
{
  if (d->ready)
    deflateEnd (&d->z);
  g_free (d->piece);
  g_free (d->out);
}

static void
compress_band_with (Band *band, Deflater *d)
{
  gsize row_bytes = (gsize) band->width * (band->alpha ? 4 : 3), line = row_bytes + 1;
  g_autofree guint8 *rows = band->alpha ? g_malloc0 (2 * row_bytes) : NULL;
  guint8 *above = rows, *cur = rows + row_bytes;

  band->adler = adler32 (0, NULL, 0);
  band->out = g_byte_array_new ();
  band->opaque_and = ~0u;
  band->ok = d->ready;
  /* the row above the band: zeros above the image */
  if (band->alpha && band->y0 > 0)
    convert_row ((const guint32 *) band_row (band, band->y0 - 1), above, band->width, TRUE);
  /* a strip that turns out translucent is drawn again whole: the rest of it is not worth
   * compressing */
  for (int y = band->y0; y < band->y1 && band->ok && band_opaque (band);)
    {
      int n = MIN (band->rows_per_piece, band->y1 - y);

      for (int i = 0; i < n; i++, y++)
        filter_row (band, y, d->piece + i * line, &cur, &above);
      band->adler = libdeflate_adler32 (band->adler, d->piece, n * line);
      band->n_in += n * line;
      deflateReset (&d->z);
      d->z.next_in = d->piece;
      d->z.avail_in = n * line;
      band->ok = deflate_into (&d->z, band->out, d->out, d->out_bytes,
                               y == band->y1 && band->last ? Z_FINISH : Z_SYNC_FLUSH);
    }
}

static gsize
piece_bytes (const Band *band)
{
  return (1 + (gsize) band->width * (band->alpha ? 4 : 3)) * band->rows_per_piece;
}

static gpointer
compress_band (gpointer user_data)
{
  Band *band = user_data;
  Deflater d;

  deflater_init (&d, piece_bytes (band));
  compress_band_with (band, &d);
  deflater_clear (&d);
  return NULL;
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  guint8 b[4] = { v >> 24, v >> 16, v >> 8, v };

  g_byte_array_append (out, b, 4);
}

/* Closes the chunk whose length field sits at start: its length and CRC. */
static void
end_chunk (GByteArray *out, guint start)
{
  guint32 len = out->len - start - 8;
  guint8 *p = out->data + start;

  p[0] = len >> 24, p[1] = len >> 16, p[2] = len >> 8, p[3] = len;
  put_u32 (out, libdeflate_crc32 (0, out->data + start + 4, len + 4));
}

static guint
begin_chunk (GByteArray *out, const char *type)
{
  guint start = out->len;

  put_u32 (out, 0);
  g_byte_array_append (out, (const guint8 *) type, 4);
  return start;
}

/* The PNG file of the compressed bands, in order; frees their output. NULL when one failed. */
static GBytes *
assemble (int width, int height, gboolean alpha, Band *bands, int n_bands)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  gsize size = 64;
  gboolean ok = TRUE;
  GByteArray *out;
  guint32 adler;
  guint start;

  for (int i = 0; i < n_bands; i++)
    size += bands[i].out ? bands[i].out->len : 0;
  out = g_byte_array_sized_new (size);
  g_byte_array_append (out, signature, sizeof signature);
  start = begin_chunk (out, "IHDR");
  put_u32 (out, width);
  put_u32 (out, height);
  /* 8 bits a sample, RGB (2) or RGBA (6), deflate, adaptive filtering, not interlaced */
  g_byte_array_append (out, (const guint8[]) { 8, alpha ? 6 : 2, 0, 0, 0 }, 5);
  end_chunk (out, start);
  start = begin_chunk (out, "IDAT");
  /* zlib header: deflate with a 32 KiB window, the fastest level; 0x7801 is a multiple of 31 */
  g_byte_array_append (out, (const guint8[]) { 0x78, 0x01 }, 2);
  adler = adler32 (0, NULL, 0);
  for (int i = 0; i < n_bands; i++)
    {
      ok = ok && bands[i].ok;
      adler = adler32_combine (adler, bands[i].adler, bands[i].n_in);
      if (bands[i].out)
        g_byte_array_append (out, bands[i].out->data, bands[i].out->len);
      g_clear_pointer (&bands[i].out, g_byte_array_unref);
    }
  put_u32 (out, adler);
  end_chunk (out, start);
  end_chunk (out, begin_chunk (out, "IEND"));
  if (!ok)
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
}

static int
rows_per_piece (int width, gboolean alpha)
{
  return MAX (1, PIECE_BYTES / (1 + width * (alpha ? 4 : 3)));
}

/* The PNG of the pixels, their rows compressed by up to max_bands threads; NULL when zlib
 * fails. maybe_alpha: ARGB32 (RGBA unless every pixel is opaque), else RGB24. */
static GBytes *
encode_pixels (const guint8 *data, int width, int height, int stride, gboolean maybe_alpha, guint max_bands)
{
  gboolean alpha = maybe_alpha && !all_opaque (data, stride, width, height);
  int piece_rows, n_pieces, n_bands;

  g_return_val_if_fail (width > 0 && height > 0, NULL);
  piece_rows = rows_per_piece (width, alpha);
  n_pieces = (height + piece_rows - 1) / piece_rows;
  n_bands = CLAMP (n_pieces / PIECES_PER_BAND, 1, (int) MAX (max_bands, 1));

  Band bands[n_bands];
  GThread *threads[n_bands];

  for (int i = 0; i < n_bands; i++)
    {
      /* whole pieces a band, so that pieces fall on the same rows however many bands */
      int first = (int) ((gint64) n_pieces * i / n_bands), end = (int) ((gint64) n_pieces * (i + 1) / n_bands);

      bands[i] = (Band) { .rows = data, .first_row = 0, .stride = stride, .width = width, .alpha = alpha,
                          .y0 = first * piece_rows, .y1 = MIN (height, end * piece_rows),
                          .rows_per_piece = piece_rows, .last = i == n_bands - 1 };
      threads[i] = i == 0 ? NULL : g_thread_try_new ("iochart-png", compress_band, &bands[i], NULL);
      if (i > 0 && threads[i] == NULL)
        compress_band (&bands[i]);
    }
  compress_band (&bands[0]);
  for (int i = 1; i < n_bands; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
  return assemble (width, height, alpha, bands, n_bands);
}

GBytes *
_iochart_png_encode_with (cairo_surface_t *image, guint max_bands)
{
  cairo_format_t format = cairo_image_surface_get_format (image);

  g_return_val_if_fail (format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, NULL);
  cairo_surface_flush (image);
  return encode_pixels (cairo_image_surface_get_data (image), cairo_image_surface_get_width (image),
                        cairo_image_surface_get_height (image), cairo_image_surface_get_stride (image),
                        format == CAIRO_FORMAT_ARGB32, max_bands);
}

GBytes *
iochart_png_encode (cairo_surface_t *image)
{
  return _iochart_png_encode_with (image, g_get_num_processors ());
}

GBytes *
iochart_png_encode_argb32 (const guint8 *pixels, int width, int height, int stride)
{
  return encode_pixels (pixels, width, height, stride, TRUE, g_get_num_processors ());
}

/* ---- drawn strip by strip ---- */

/* a strip's pixels: a few hundred KiB, in a core's cache while it is compressed */
#define STRIP_BYTES (512 * 1024)

typedef struct
{
  int width, height, strip_rows, n_strips, piece_rows;
  IochartPngDrawFunc draw;
  gpointer data;
  Band *strips;
  gint next;                   /* the next strip to draw */
  gint translucent;            /* a strip had a pixel that is not opaque */
} Strips;

/* Draws and compresses strips until none is left. Each strip's surface holds the row above
 * the strip too, which its "up" filter reads. */
static gpointer
strips_worker (gpointer user_data)
{
  Strips *job = user_data;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, job->width, job->strip_rows + 1);
  int stride = cairo_image_surface_get_stride (surface);
  Deflater d;
  gint s;

  deflater_init (&d, (1 + (gsize) job->width * 3) * job->piece_rows);

  while ((s = g_atomic_int_add (&job->next, 1)) < job->n_strips && !g_atomic_int_get (&job->translucent))
    {
      Band *band = &job->strips[s];
      int y0 = s * job->strip_rows, y1 = MIN (job->height, y0 + job->strip_rows);
      cairo_t *cr = cairo_create (surface);
      guint8 *data;

      cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
      cairo_paint (cr);
      cairo_set_operator (cr, CAIRO_OPERATOR_OVER);
      /* surface row 0 is image row y0 - 1; an integer shift draws the same pixels */
      cairo_translate (cr, 0, -(y0 - 1));
      job->draw (cr, job->data);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      data = cairo_image_surface_get_data (surface);
      *band = (Band) { .rows = data, .first_row = y0 - 1, .stride = stride, .width = job->width,
                       .y0 = y0, .y1 = y1, .rows_per_piece = job->piece_rows, .last = s == job->n_strips - 1 };
      /* compressed as RGB while its rows are seen to be opaque (the filter reads every pixel) */
      compress_band_with (band, &d);
      if (!band_opaque (band))
        {
          g_atomic_int_set (&job->translucent, 1);
          break;
        }
    }
  deflater_clear (&d);
  cairo_surface_destroy (surface);
  return NULL;
}

/* The PNG drawn strip by strip, on up to max_threads threads; NULL when it is not opaque. */
static GBytes *
encode_drawn_strips (int width, int height, IochartPngDrawFunc draw, gpointer data, guint max_threads)
{
  Strips job = { .width = width, .height = height, .draw = draw, .data = data };
  int n_threads;
  GBytes *png = NULL;

  job.piece_rows = rows_per_piece (width, FALSE);
  job.strip_rows = MAX (1, STRIP_BYTES / (4 * width) / job.piece_rows) * job.piece_rows;
  job.n_strips = (height + job.strip_rows - 1) / job.strip_rows;
  job.strips = g_new0 (Band, job.n_strips);
  n_threads = CLAMP (job.n_strips / 2, 1, (int) MAX (max_threads, 1));

  GThread *threads[n_threads];

  for (int i = 1; i < n_threads; i++)
    threads[i] = g_thread_try_new ("iochart-png", strips_worker, &job, NULL);
  strips_worker (&job);
  for (int i = 1; i < n_threads; i++)
    if (threads[i] != NULL)
      g_thread_join (threads[i]);
  if (!job.translucent)
    png = assemble (width, height, FALSE, job.strips, job.n_strips);
  for (int i = 0; i < job.n_strips; i++)
    g_clear_pointer (&job.strips[i].out, g_byte_array_unref);
  g_free (job.strips);
  return png;
}

/* An image that is not opaque: drawn whole, as it always was. */
static GBytes *
encode_drawn_whole (int width, int height, IochartPngDrawFunc draw, gpointer data, guint max_threads)
{
  cairo_surface_t *surface = iochart_png_surface_new (width, height);
  cairo_t *cr = cairo_create (surface);
  GBytes *png;

  draw (cr, data);
  cairo_destroy (cr);
  png = _iochart_png_encode_with (surface, max_threads);
  cairo_surface_destroy (surface);
  return png;
}

GBytes *
_iochart_png_encode_drawn_with (int width, int height, IochartPngDrawFunc draw, gpointer data, guint max_threads)
{
  GBytes *png;

  g_return_val_if_fail (width > 0 && height > 0, NULL);
  png = encode_drawn_strips (width, height, draw, data, max_threads);
  return png ? png : encode_drawn_whole (width, height, draw, data, max_threads);
}

static gboolean
write_bytes (const char *path, GBytes *(*encode) (gpointer), gpointer data, GError **error)
{
  g_autoptr(GBytes) png = NULL;
  const void *bytes;
  gsize len;
  int e = 0;
  FILE *f;

  if ((f = fopen (path, "wb")) == NULL)
    e = errno;
  else if ((png = encode (data)) == NULL)
    e = ENOMEM, fclose (f);
  else if (bytes = g_bytes_get_data (png, &len), fwrite (bytes, 1, len, f) != len)
    e = errno ? errno : EIO, fclose (f);
  else if (fclose (f) != 0)
    e = errno;
  if (e != 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': cannot write: %s", path, g_strerror (e));
      return FALSE;
    }
  return TRUE;
}

static GBytes *
encode_image (gpointer image)
{
  return iochart_png_encode (image);
}

gboolean
iochart_png_write (cairo_surface_t *image, const char *path, GError **error)
{
  return write_bytes (path, encode_image, image, error);
}

typedef struct
{
  int width, height;
  IochartPngDrawFunc draw;
  gpointer data;
} Drawn;

static GBytes *
encode_drawn (gpointer user_data)
{
  Drawn *d = user_data;

  return _iochart_png_encode_drawn_with (d->width, d->height, d->draw, d->data, g_get_num_processors ());
}

gboolean
iochart_png_write_drawn (int width, int height, IochartPngDrawFunc draw, gpointer data, const char *path,
                         GError **error)
{
  return write_bytes (path, encode_drawn, &(Drawn) { width, height, draw, data }, error);
}
