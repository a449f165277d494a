/* iochart-dat-reader.c: trace-cmd .dat files (versions 6 and 7) through libtracecmd
 *
 * libtracecmd decodes the file, but refuses a damaged one without saying why, so we first walk
 * the file's layout ourselves (header, sections, per-CPU data extents) and name what is wrong
 * and where; zstd-compressed sections and data chunks are inflated (libzstd, about 1 GB/s) and
 * checked the same way. The same walk measures the CPU data, which scales the progress reports.
 *
 * Reading: every buffer (top level and instances) is iterated in one time-ordered pass. Event
 * types and their fields are looked up by name once, into a table indexed by type id, so a
 * record costs one type lookup and a few field reads.
 */
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <trace-cmd/trace-cmd.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <zstd.h>

#include "iochart-readers-private.h"

#define DAT_MAGIC      "\027\010\104tracing"
#define DAT_MAGIC_LEN  10
#define DAT_SECTION_HEADER 16      /* id u16, flags u16, description u32, size u64 */
#define DAT_SECTION_COMPRESSED 1
#define DAT_MAX_OPTION_SECTIONS 4096
#define DAT_MAX_INFLATED (256u << 20)   /* a text section inflated to check it: kallsyms is ~20 MB */
#define DAT_MAX_KEPT (512u << 20)  /* inflated CPU data the direct read keeps in memory, at most */
#define PROGRESS_EVERY 16384       /* records between progress reports */
#define PROGRESS_CPUS  256

/* ---- layout check ---- */

typedef struct {
  const char   *path;
  const guint8 *data;
  guint64       size;
  gboolean      big_endian;      /* decided once from the header */
  guint64       data_bytes;      /* uncompressed CPU data of all buffers */
  guint64       formats;         /* where the event formats start, for messages */
  guint64       lost;            /* overruns and drops the CPU stats options count */
  guint         page_size;       /* v6: the file header's (v7: each buffer option's) */
  const char   *compression;     /* v7: "zstd", "none"... */
  const char   *inflated_what;   /* data is this compressed section's body, inflated: messages say so */
  guint64       inflated_off;    /* and where that section is in the file */
  ZSTD_DCtx    *zstd;            /* for the CPU data's chunks, with their scratch buffer */
  GByteArray   *scratch;
  /* what the direct read (read_direct ()) needs, kept when the caller asks (DatFile.plan != NULL) */
  struct DatPlan *plan;
} DatFile;

/* One CPU's data as the direct read takes it: in the mapped file, or inflated (owned). */
typedef struct {
  guint         cpu;
  const guint8 *data;
  guint64       size;
  GByteArray   *inflated;
} DatCpu;

typedef struct {
  gboolean top;                  /* the top-level buffer, read before the instances as libtracecmd does */
  guint    page_size;
  GArray  *cpus;                 /* DatCpu */
} DatBuffer;

/* Where a v7 file keeps what the direct read needs, and whether it can read it at all. */
typedef struct DatPlan {
  GMappedFile *mapped;
  gboolean     usable;           /* v7, known compression, no option that moves timestamps */
  guint        long_size;
  guint64      header_info;      /* section offsets */
  guint64      event_formats;
  GPtrArray   *buffers;          /* DatBuffer *, in option order */
  guint64      kept;             /* bytes of CPU data inflated and kept */
} DatPlan;

/* v7 option (and section) ids we follow */
enum {
  OPT_DONE = 0,
  OPT_DATE = 1,
  OPT_CPUSTAT = 2,
  OPT_BUFFER = 3,
  OPT_TRACECLOCK = 4,
  OPT_UNAME = 5,
  OPT_HOOK = 6,
  OPT_OFFSET = 7,
  OPT_CPUCOUNT = 8,
  OPT_VERSION = 9,
  OPT_GUEST = 13,
  OPT_STRINGS = 15,
  OPT_HEADER_INFO = 16,
  OPT_FTRACE_EVENTS = 17,
  OPT_EVENT_FORMATS = 18,
  OPT_KALLSYMS = 19,
  OPT_PRINTK = 20,
  OPT_CMDLINES = 21,
  OPT_BUFFER_TEXT = 22,
};

static guint64
rd (const DatFile *f, guint64 off, guint width)
{
  const guint8 *p = f->data + off;
  guint64 v = 0;

  g_assert (off + width <= f->size);
  if (f->big_endian)
    for (guint i = 0; i < width; i++)
      v = v << 8 | p[i];
  else
    for (guint i = width; i-- > 0;)
      v = v << 8 | p[i];
  return v;
}

/* " of the zstd section 'printk formats' at offset 124503 (inflated)" when f is such a section */
static char *
where_inflated (const DatFile *f)
{
  if (f->inflated_what == NULL)
    return g_strdup ("");
  return g_strdup_printf (" of the %s section '%s' at offset %" G_GUINT64_FORMAT " (inflated)", f->compression,
                          f->inflated_what, f->inflated_off);
}

static gboolean
truncated (const DatFile *f, const char *what, guint64 off, GError **error)
{
  g_autofree char *in = where_inflated (f);

  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
               "'%s': truncated: %s at offset %" G_GUINT64_FORMAT "%s %s end %s (%"
               G_GUINT64_FORMAT " bytes)", f->path, what, off, in,
               off < f->size ? "runs past" : "past", f->inflated_what ? "of the section" : "of file", f->size);
  return FALSE;
}

static gboolean G_GNUC_PRINTF (4, 5)
damaged (const DatFile *f, GError **error, guint64 off, const char *format, ...)
{
  g_autofree char *what = NULL, *in = where_inflated (f);
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
               "'%s': damaged: %s at offset %" G_GUINT64_FORMAT "%s", f->path, what, off, in);
  return FALSE;
}

/* Checks that len bytes from off lie inside the file. */
static gboolean
need (const DatFile *f, guint64 off, guint64 len, const char *what, GError **error)
{
  if (off > f->size || len > f->size - off)
    return truncated (f, what, off, error);
  return TRUE;
}

/* A NUL-terminated string at *off, inside [*off, end); moves *off past it. */
static const char *
take_string (const DatFile *f, guint64 *off, guint64 end, const char *what, GError **error)
{
  const guint8 *nul;

  end = MIN (end, f->size);
  if (*off >= end || (nul = memchr (f->data + *off, 0, end - *off)) == NULL)
    {
      truncated (f, what, *off, error);
      return NULL;
    }
  {
    const char *s = (const char *) f->data + *off;

    *off = nul - f->data + 1;
    return s;
  }
}

static const char *
section_name (guint id)
{
  static const char *const names[] = {
    [15] = "strings", [16] = "header info", [17] = "ftrace event formats", [18] = "event formats",
    [19] = "kallsyms", [20] = "printk formats", [21] = "saved command lines",
    [22] = "latency text",
  };

  return id < G_N_ELEMENTS (names) && names[id] != NULL ? names[id] : "unknown";
}

static char *
buffer_label (const char *name)
{
  g_autofree char *escaped = g_strescape (name, NULL);

  return *name ? g_strdup_printf ("buffer '%s'", escaped) : g_strdup ("top-level buffer");
}

/* A CPUSTAT option: "CPU: N" then that CPU's tracefs stats ("overrun: 12"...). */
static void
add_cpu_stats (DatFile *f, guint64 p, guint64 size)
{
  static const char *const keys[] = { "\noverrun: ", "\ncommit overrun: ", "\ndropped events: " };
  g_autofree char *text = g_strndup ((const char *) f->data + p, size);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const char *at = strstr (text, keys[i]);
      if (at != NULL)
        f->lost += g_ascii_strtoull (at + strlen (keys[i]), NULL, 10);
    }
}

/* A v7 section header at off: its id must be id; its body must fit in the file. */
static gboolean
check_section (const DatFile *f, guint64 off, guint id, const char *what, guint16 *flags,
               guint64 *body, guint64 *len, GError **error)
{
  g_autofree char *label = g_strdup_printf ("section '%s'", what);
  guint sid;

  if (!need (f, off, DAT_SECTION_HEADER, label, error))
    return FALSE;
  sid = rd (f, off, 2);
  if (sid != id)
    return damaged (f, error, off, "section '%s' has id %u, not %u", what, sid, id);
  if (flags != NULL)
    *flags = rd (f, off + 2, 2);
  if (len != NULL)
    *len = rd (f, off + 8, 8);
  if (body != NULL)
    *body = off + DAT_SECTION_HEADER;
  return need (f, off + DAT_SECTION_HEADER, rd (f, off + 8, 8), label, error);
}

/* v6 puts its sections one after another, each a size and its bytes. */
static gboolean
skip_sized (const DatFile *f, guint64 *p, guint width, const char *what, GError **error)
{
  if (!need (f, *p, width, what, error))
    return FALSE;
  {
    guint64 size = rd (f, *p, width);

    if (!need (f, *p + width, size, what, error))
      return FALSE;
    *p += width + size;
  }
  return TRUE;
}

static gboolean
expect_tag (const DatFile *f, guint64 p, const char *tag, gsize len, GError **error)
{
  if (!need (f, p, len, tag, error))
    return FALSE;
  if (memcmp (f->data + p, tag, len) != 0)
    return damaged (f, error, p, "expected '%s'", tag);
  return TRUE;
}

/* ---- sections libtraceevent parses without checking ---- */

/* "TAG: DIGITS;" at *p in [*p, end); moves *p past it. */
static gboolean
take_number_field (const char **p, const char *end, const char *tag)
{
  gsize n = strlen (tag);
  const char *q = *p;

  if ((gsize) (end - q) < n || memcmp (q, tag, n) != 0)
    return FALSE;
  q += n;
  if (q >= end || !g_ascii_isdigit (*q))
    return FALSE;
  while (q < end && g_ascii_isdigit (*q))
    q++;
  if (q >= end || *q != ';')
    return FALSE;
  *p = q + 1;
  return TRUE;
}

/* "\tfield: TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" as the kernel prints the ring buffer page's
 * fields; *name gets NAME. */
static gboolean
header_page_line (const char *p, const char *end, char *name, gsize name_size)
{
  const char *semi, *n;

  if ((gsize) (end - p) < 7 || memcmp (p, "\tfield:", 7) != 0)
    return FALSE;
  p += 7;
  if ((semi = memchr (p, ';', end - p)) == NULL)
    return FALSE;
  for (n = semi; n > p && n[-1] != ' '; n--)
    ;
  if (n == p || n == semi || (gsize) (semi - n) >= name_size)
    return FALSE;
  for (const char *c = n; c < semi; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '[' && *c != ']')
      return FALSE;
  memcpy (name, n, semi - n);
  name[semi - n] = '\0';
  p = semi + 1;
  if (!take_number_field (&p, end, "\toffset:") || !take_number_field (&p, end, "\tsize:"))
    return FALSE;
  if (p < end && !take_number_field (&p, end, "\tsigned:"))
    return FALSE;
  return p == end;
}

/* The header page: libtraceevent's parse of a damaged one leaves libtracecmd to fault later. */
static gboolean
check_header_page (const DatFile *f, guint64 off, guint64 len, GError **error)
{
  const char *p = (const char *) f->data + off, *end = p + len;
  guint found = 0;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      char name[64];

      if (eol == NULL)
        eol = end;
      if (eol > p)
        {
          if (!header_page_line (p, eol, name, sizeof name))
            return damaged (f, error, p - (const char *) f->data, "header page: not a field line");
          found |= (strcmp (name, "timestamp") == 0) | (strcmp (name, "commit") == 0) << 1 |
                   (strcmp (name, "data") == 0) << 2;
        }
      p = eol + 1;
    }
  if (found != 7)
    return damaged (f, error, off, "header page lacks the timestamp, commit or data field");
  return TRUE;
}

/* "header_page\0" SIZE TEXT "header_event\0" SIZE TEXT at *p (v6 in place, v7 in its section). */
static gboolean
check_headers (const DatFile *f, guint64 *p, GError **error)
{
  guint64 size;

  if (!expect_tag (f, *p, "header_page", 12, error) || !need (f, *p + 12, 8, "header page", error))
    return FALSE;
  size = rd (f, *p + 12, 8);
  if (!need (f, *p + 20, size, "header page", error) || !check_header_page (f, *p + 20, size, error))
    return FALSE;
  *p += 20 + size;
  return expect_tag (f, *p, "header_event", 13, error) && skip_sized (f, (*p += 13, p), 8, "header event", error);
}

/* kallsyms, printk formats, saved command lines: a size, then text that libtraceevent takes as a C
 * string: a NUL inside sends it past the buffer. */
static gboolean
check_text (const DatFile *f, guint64 *p, guint width, const char *what, GError **error)
{
  guint64 size;
  const guint8 *nul;

  if (!need (f, *p, width, what, error))
    return FALSE;
  size = rd (f, *p, width);
  if (!need (f, *p + width, size, what, error))
    return FALSE;
  if (size > 1 && (nul = memchr (f->data + *p + width, 0, size - 1)) != NULL)
    return damaged (f, error, nul - f->data, "NUL byte inside the %s", what);
  *p += width + size;
  return TRUE;
}

/* A chunk of compressed CPU data inflates to the size it claims: libtracecmd would drop the
 * whole buffer, every CPU of it, saying only "mmap" on stderr. */
static gboolean
check_chunk (DatFile *f, guint64 p, guint64 csize, guint64 usize, const char *chunk, GError **error)
{
  size_t got;

  if (g_strcmp0 (f->compression, "zstd") != 0)
    return TRUE;   /* another compression libtracecmd refuses itself */
  if (usize > DAT_MAX_INFLATED)
    return damaged (f, error, p + 4, "%s claims %" G_GUINT64_FORMAT " bytes inflated (at most %u)", chunk, usize,
                    DAT_MAX_INFLATED);
  if (f->zstd == NULL)
    {
      f->zstd = ZSTD_createDCtx ();
      f->scratch = g_byte_array_new ();
    }
  g_byte_array_set_size (f->scratch, MAX (f->scratch->len, MAX (usize, 1)));
  got = ZSTD_decompressDCtx (f->zstd, f->scratch->data, usize, f->data + p + 8, csize);
  if (ZSTD_isError (got))
    return damaged (f, error, p + 8, "%s does not inflate (zstd: %s)", chunk, ZSTD_getErrorName (got));
  if (got != usize)
    return damaged (f, error, p + 4, "%s inflates to %zu bytes, not the %" G_GUINT64_FORMAT " it claims", chunk,
                    got, usize);
  return TRUE;
}

/* One CPU's data: raw (page-aligned, as libtracecmd maps it), or (compressed files) a chunk count
 * then (csize, usize, bytes) chunks. */
static gboolean
check_cpu_data (DatFile *f, const char *buffer, guint cpu, guint64 off, guint64 size, guint page_size,
                gboolean chunked, GByteArray *keep, GError **error)
{
  g_autofree char *what = g_strdup_printf ("cpu %u data of %s", cpu, buffer);
  guint64 n, p;

  if (size == 0)
    return TRUE;
  if (!chunked)
    {
      f->data_bytes += size;
      if (page_size != 0 && off % page_size != 0)
        return damaged (f, error, off, "%s is not on a page boundary (pages of %u bytes)", what, page_size);
      return need (f, off, size, what, error);
    }
  if (!need (f, off, 4, what, error))
    return FALSE;
  n = rd (f, off, 4);
  p = off + 4;
  for (guint64 i = 0; i < n; i++)
    {
      g_autofree char *chunk = g_strdup_printf ("chunk %" G_GUINT64_FORMAT " of %s", i, what);
      guint64 csize;

      if (!need (f, p, 8, chunk, error) || !need (f, p + 8, (csize = rd (f, p, 4)), chunk, error) ||
          !check_chunk (f, p, csize, rd (f, p + 4, 4), chunk, error))
        return FALSE;
      if (keep != NULL && f->plan->usable && (f->plan->kept += rd (f, p + 4, 4)) > DAT_MAX_KEPT)
        f->plan->usable = FALSE;   /* libtracecmd inflates a large file's data into a temporary file */
      if (keep != NULL && f->plan->usable)
        g_byte_array_append (keep, f->scratch->data, rd (f, p + 4, 4));
      f->data_bytes += rd (f, p + 4, 4);
      p += 8 + csize;
    }
  return TRUE;
}

static void
dat_buffer_free (gpointer data)
{
  DatBuffer *b = data;

  for (guint i = 0; i < b->cpus->len; i++)
    if (g_array_index (b->cpus, DatCpu, i).inflated != NULL)
      g_byte_array_unref (g_array_index (b->cpus, DatCpu, i).inflated);
  g_array_unref (b->cpus);
  g_free (b);
}

static void
dat_plan_free (DatPlan *plan)
{
  if (plan == NULL)
    return;
  g_clear_pointer (&plan->mapped, g_mapped_file_unref);
  g_clear_pointer (&plan->buffers, g_ptr_array_unref);
  g_free (plan);
}

/* A buffer the direct read will take (NULL when no plan is kept). */
static DatBuffer *
plan_buffer (DatFile *f, gboolean top, guint page_size)
{
  DatBuffer *b;

  if (f->plan == NULL)
    return NULL;
  b = g_new0 (DatBuffer, 1);
  b->top = top;
  b->page_size = page_size;
  b->cpus = g_array_new (FALSE, FALSE, sizeof (DatCpu));
  g_ptr_array_add (f->plan->buffers, b);
  return b;
}

/* BUFFER option: section offset, name, clock, page size, cpu count, (cpu, offset, size)... */
static gboolean
check_buffer_v7 (DatFile *f, guint64 p, guint64 end, GError **error)
{
  g_autofree char *label = NULL;
  const char *name, *clock;
  DatBuffer *buffer;
  guint64 section;
  guint16 flags;
  guint ncpus, page_size;

  if (end - p < 8)
    return damaged (f, error, p, "short buffer option");
  section = rd (f, p, 8);
  p += 8;
  if ((name = take_string (f, &p, end, "buffer option name", error)) == NULL ||
      (clock = take_string (f, &p, end, "buffer option clock", error)) == NULL)
    return FALSE;
  label = buffer_label (name);
  if (end - p < 8)
    return damaged (f, error, p, "short option of %s", label);
  page_size = rd (f, p, 4);
  ncpus = rd (f, p + 4, 4);
  p += 8;
  if ((end - p) / 20 < ncpus)
    return damaged (f, error, p, "%s lists %u cpus in a %" G_GUINT64_FORMAT "-byte option",
                    label, ncpus, end - p);
  if (!check_section (f, section, OPT_BUFFER, label, &flags, NULL, NULL, error))
    return FALSE;
  buffer = plan_buffer (f, *name == '\0', page_size);
  if (f->plan != NULL && page_size != f->page_size)
    f->plan->usable = FALSE;   /* which one libtracecmd's pages take is its business */
  for (guint i = 0; i < ncpus; i++, p += 20)
    {
      DatCpu c = { .cpu = rd (f, p, 4), .data = f->data + rd (f, p + 4, 8), .size = rd (f, p + 12, 8) };
      gboolean chunked = (flags & DAT_SECTION_COMPRESSED) != 0;

      if (buffer != NULL && chunked && g_strcmp0 (f->compression, "zstd") == 0)
        c.inflated = g_byte_array_new ();
      if (!check_cpu_data (f, label, c.cpu, rd (f, p + 4, 8), c.size, page_size, chunked, c.inflated, error))
        {
          if (c.inflated != NULL)
            g_byte_array_unref (c.inflated);
          return FALSE;
        }
      if (c.inflated != NULL)
        {
          c.data = c.inflated->data;
          c.size = c.inflated->len;
        }
      if (buffer != NULL)
        g_array_append_val (buffer->cpus, c);
    }
  return TRUE;
}

/* The bytes of a section libtraceevent parses without checking, from body. */
static gboolean
check_section_body (const DatFile *f, guint64 body, guint id, GError **error)
{
  switch (id)
    {
    case OPT_HEADER_INFO: return check_headers (f, &body, error);
    case OPT_KALLSYMS: return check_text (f, &body, 4, "kallsyms", error);
    case OPT_PRINTK: return check_text (f, &body, 4, "printk formats", error);
    case OPT_CMDLINES: return check_text (f, &body, 8, "saved command lines", error);
    default: return TRUE;
    }
}

/* A compressed section's body is one block: compressed size u32, inflated size u32, then the
 * bytes (tracecmd_uncompress_block). Inflates it into *out, a view of *buf, as libtracecmd will
 * (zstd, trace-cmd's only compression here), so that its bytes are checked as a plain section's. */
static gboolean
inflate_section (const DatFile *f, guint64 off, guint64 body, guint64 len, guint id, DatFile *out,
                 guint8 **buf, GError **error)
{
  guint64 csize, usize;
  size_t got;

  if (len < 8)
    return damaged (f, error, off, "compressed section '%s' of %" G_GUINT64_FORMAT " bytes", section_name (id), len);
  csize = rd (f, body, 4);
  usize = rd (f, body + 4, 4);
  if (csize > len - 8)
    return damaged (f, error, body, "compressed section '%s': %" G_GUINT64_FORMAT " compressed bytes in a %"
                    G_GUINT64_FORMAT "-byte section", section_name (id), csize, len);
  if (usize > DAT_MAX_INFLATED)
    return damaged (f, error, body + 4, "compressed section '%s' claims %" G_GUINT64_FORMAT " bytes inflated "
                    "(at most %u)", section_name (id), usize, DAT_MAX_INFLATED);
  *buf = g_malloc (MAX (usize, 1));
  got = ZSTD_decompress (*buf, usize, f->data + body + 8, csize);
  if (ZSTD_isError (got))
    return damaged (f, error, body + 8, "section '%s' does not inflate (zstd: %s)", section_name (id),
                    ZSTD_getErrorName (got));
  if (got != usize)
    return damaged (f, error, body + 4, "section '%s' inflates to %zu bytes, not the %" G_GUINT64_FORMAT
                    " it claims", section_name (id), got, usize);
  *out = *f;
  out->data = *buf;
  out->size = usize;
  out->inflated_what = section_name (id);
  out->inflated_off = off;
  return TRUE;
}

/* A section libtraceevent parses: its bytes too, inflated first when they are compressed. */
static gboolean
check_section_v7 (const DatFile *f, guint64 off, guint id, GError **error)
{
  g_autofree guint8 *buf = NULL;
  DatFile inflated;
  guint16 flags;
  guint64 body, len;

  if (!check_section (f, off, id, section_name (id), &flags, &body, &len, error))
    return FALSE;
  if (!(flags & DAT_SECTION_COMPRESSED))
    return check_section_body (f, body, id, error);
  /* event formats are not checked plain either; another compression libtracecmd refuses itself */
  if (id == OPT_FTRACE_EVENTS || id == OPT_EVENT_FORMATS || g_strcmp0 (f->compression, "zstd") != 0)
    return TRUE;
  return inflate_section (f, off, body, len, id, &inflated, &buf, error) &&
         check_section_body (&inflated, 0, id, error);
}

/* trace-cmd writes the last section (strings) right after the last options section. */
static gboolean
check_tail_v7 (const DatFile *f, guint64 end, GError **error)
{
  guint id;

  if (end >= f->size)
    return TRUE;
  if (!need (f, end, DAT_SECTION_HEADER, "section after the last options", error))
    return FALSE;
  id = rd (f, end, 2);
  return check_section (f, end, id, section_name (id), NULL, NULL, NULL, error);
}

/* Where libtracecmd's walk goes on after a strings section whose body begins at body: after the
 * compressed block it inflates, or after the bytes it reads (rsize, an int to it: a negative one
 * fails its realloc and reads nothing). */
static guint64
after_strings (const DatFile *f, guint16 flags, guint64 body, guint64 size)
{
  guint64 rsize = (guint32) size;

  if (f->size - body < 8 && (flags & DAT_SECTION_COMPRESSED))
    return f->size;
  if ((flags & DAT_SECTION_COMPRESSED) && g_strcmp0 (f->compression, "none") != 0)
    return body + 8 + rd (f, body, 4);
  if (flags & DAT_SECTION_COMPRESSED)
    rsize = rd (f, body + 4, 4);
  return body + (rsize <= G_MAXINT32 ? rsize : 0);
}

/* libtracecmd's open looks for the strings sections by walking every section header from the end
 * of the file header on, moving by each size as a signed seek, until a read fails
 * (read_metadata_strings). A size with its top bit set seeks back, and the walk may then go round
 * for ever: such a size is damage, wherever it is. */
static gboolean
check_section_walk_v7 (const DatFile *f, guint64 p, GError **error)
{
  while (p <= f->size && f->size - p >= DAT_SECTION_HEADER)
    {
      guint id = rd (f, p, 2);
      guint64 size = rd (f, p + 8, 8), body = p + DAT_SECTION_HEADER;

      if (id == OPT_STRINGS)
        p = after_strings (f, rd (f, p + 2, 2), body, size);
      else if (size > G_MAXINT64)
        return damaged (f, error, p + 8, "section %u has a size of %" G_GUINT64_FORMAT " bytes, which "
                        "points back into the file", id, size);
      else if (size > f->size - body)
        break;
      else
        p = body + size;
    }
  return TRUE;
}

/* libtracecmd's handle_options () takes some options' bytes as a C string without looking for
 * its end (strdup, strtoll, the hook parser, a latency buffer's name and clock), writes a newline
 * over a CPU stats option's last byte (before the buffer when it has none) and reads a CPU
 * count's four bytes whatever the size: such an option is damage. Its bytes are [p, p + size). */
static gboolean
check_option (const DatFile *f, guint id, guint64 p, guint64 size, GError **error)
{
  gboolean text = id == OPT_DATE || id == OPT_UNAME || id == OPT_HOOK || id == OPT_OFFSET ||
                  id == OPT_VERSION || id == OPT_GUEST;

  if (text && memchr (f->data + p, 0, size) == NULL)
    return damaged (f, error, p, "option %u: its text has no end within its %" G_GUINT64_FORMAT " bytes", id, size);
  if ((id == OPT_CPUSTAT && size == 0) || (id == OPT_CPUCOUNT && size < 4) || (id == OPT_BUFFER_TEXT && size < 8))
    return damaged (f, error, p, "option %u of %" G_GUINT64_FORMAT " bytes", id, size);
  if (id == OPT_BUFFER_TEXT)
    {
      /* after the section's offset, the buffer's name and clock */
      guint64 q = p + 8;

      return take_string (f, &q, p + size, "buffer option name", error) != NULL &&
             take_string (f, &q, p + size, "buffer option clock", error) != NULL;
    }
  return TRUE;
}

/* What the direct read takes from an option: where the header page and the event formats are;
 * an option that moves timestamps (date, offset, time shift, guest, tsc2nsec) or a latency buffer
 * leaves the file to libtracecmd. */
static void
plan_option (DatPlan *plan, const DatFile *f, guint id, guint64 p, guint64 size)
{
  enum { OPT_TIME_SHIFT = 12, OPT_TSC2NSEC = 14 };

  if (id == OPT_HEADER_INFO && size >= 8)
    plan->header_info = rd (f, p, 8);
  if (id == OPT_EVENT_FORMATS && size >= 8)
    plan->event_formats = rd (f, p, 8);
  if (id == OPT_DATE || id == OPT_OFFSET || id == OPT_TIME_SHIFT || id == OPT_GUEST || id == OPT_TSC2NSEC ||
      id == OPT_BUFFER_TEXT)
    plan->usable = FALSE;
}

static gboolean
check_options_v7 (DatFile *f, guint64 off, GError **error)
{
  guint64 last_end = 0;

  for (guint hops = 0; off != 0; hops++)
    {
      guint64 p, end, next = 0;
      guint16 flags;

      if (hops == DAT_MAX_OPTION_SECTIONS)
        return damaged (f, error, off, "options sections form a loop");
      if (!check_section (f, off, OPT_DONE, "options", &flags, &p, &end, error))
        return FALSE;
      /* trace-cmd writes options plain: bytes that say otherwise would reach libtracecmd unchecked */
      if (flags & DAT_SECTION_COMPRESSED)
        return damaged (f, error, off + 2, "options section marked compressed (trace-cmd writes them plain)");
      end += p;
      last_end = MAX (last_end, end);
      while (p < end)
        {
          guint id;
          guint64 size;

          if (end - p < 6)
            return damaged (f, error, p, "option header cut by the end of its section");
          id = rd (f, p, 2);
          size = rd (f, p + 2, 4);
          p += 6;
          if (size > end - p)
            return damaged (f, error, p - 6, "option %u of %" G_GUINT64_FORMAT " bytes overruns its "
                            "section", id, size);
          if ((id == OPT_DONE || (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES)) && size < 8)
            return damaged (f, error, p - 6, "option %u of %" G_GUINT64_FORMAT " bytes", id, size);
          if (id == OPT_DONE)
            {
              next = rd (f, p, 8);
              break;
            }
          if (!check_option (f, id, p, size, error))
            return FALSE;
          if (id == OPT_BUFFER && !check_buffer_v7 (f, p, p + size, error))
            return FALSE;
          if (f->plan != NULL)
            plan_option (f->plan, f, id, p, size);
          if (id == OPT_CPUSTAT)
            add_cpu_stats (f, p, size);
          if (id == OPT_EVENT_FORMATS)
            f->formats = rd (f, p, 8);
          if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && !check_section_v7 (f, rd (f, p, 8), id, error))
            return FALSE;
          if (id == OPT_BUFFER_TEXT && size >= 8 &&
              !check_section (f, rd (f, p, 8), id, section_name (id), NULL, NULL, NULL, error))
            return FALSE;
          p += size;
        }
      off = next;
    }
  return check_tail_v7 (f, last_end, error);
}

/* "flyrecord\0" then (offset, size) per cpu */
static gboolean
check_flyrecord_v6 (DatFile *f, guint64 p, guint ncpus, const char *name, GError **error)
{
  g_autofree char *label = buffer_label (name);

  if (!expect_tag (f, p, "flyrecord", 10, error))
    return FALSE;
  p += 10;
  if (!need (f, p, (guint64) ncpus * 16, "cpu table", error))
    return FALSE;
  for (guint i = 0; i < ncpus; i++, p += 16)
    if (!check_cpu_data (f, label, i, rd (f, p, 8), rd (f, p + 8, 8), f->page_size, FALSE, NULL, error))
      return FALSE;
  return TRUE;
}

/* libtracecmd takes the clock from the first word (split at spaces) that starts with '[', inside
 * the brackets: a word of brackets alone gives sscanf () a NULL string. */
static gboolean
check_clock_name (const DatFile *f, guint64 off, guint64 size, GError **error)
{
  const char *w = (const char *) f->data + off, *nul = memchr (w, 0, size), *end = nul ? nul : w + size;

  for (const char *e; w < end; w = e + 1)
    {
      e = memchr (w, ' ', end - w);
      if (e == NULL)
        e = end;
      if (e == w || *w != '[')
        continue;
      for (const char *c = w; c < e; c++)
        if (*c != '[' && *c != ']')
          return TRUE;
      return damaged (f, error, w - (const char *) f->data, "trace clock '%.*s' names no clock", (int) (e - w), w);
    }
  return TRUE;
}

/* A v6 file with the TRACECLOCK option keeps the clock after the top-level CPU table ("flyrecord\0"
 * at p): a size, then "[mono]". libtracecmd mallocs that size + 1 unchecked, so it must end
 * before the CPU data and the end of file. (iochart record wrote no clock there until December
 * 2026: when its table ended less than 8 bytes before a page boundary, the size was the first
 * page's timestamp.) */
static gboolean
check_clock_v6 (const DatFile *f, guint64 p, guint ncpus, GError **error)
{
  guint64 at = p + 10 + (guint64) ncpus * 16, limit = f->size, size;
  guint first = ncpus;

  for (guint i = 0; i < ncpus; i++)
    {
      guint64 off = rd (f, p + 10 + (guint64) i * 16, 8);

      if (rd (f, p + 18 + (guint64) i * 16, 8) != 0 && off >= at && off < limit)
        {
          limit = off;
          first = i;
        }
    }
  if (!need (f, at, 8, "trace clock", error))
    return FALSE;
  size = rd (f, at, 8);
  if (at + 8 <= limit && size <= limit - at - 8)
    return check_clock_name (f, at + 8, size, error);
  if (first == ncpus)
    return damaged (f, error, at, "trace clock of %" G_GUINT64_FORMAT " bytes (the file ends %" G_GUINT64_FORMAT
                    " bytes on)", size, limit - at);
  return damaged (f, error, at, "trace clock of %" G_GUINT64_FORMAT " bytes (the cpu %u data starts %"
                  G_GUINT64_FORMAT " bytes on)", size, first, limit - at);
}

static gboolean
check_v6 (DatFile *f, guint64 p, GError **error)
{
  guint64 n;
  guint ncpus;
  gboolean clock = FALSE;

  if (!check_headers (f, &p, error) || !need (f, p, 4, "ftrace event formats", error))
    return FALSE;
  n = rd (f, p, 4);
  p += 4;
  for (guint64 i = 0; i < n; i++)
    if (!skip_sized (f, &p, 8, "ftrace event formats", error))
      return FALSE;
  if (!need (f, p, 4, "event formats", error))
    return FALSE;
  f->formats = p;
  n = rd (f, p, 4);
  p += 4;
  for (guint64 i = 0; i < n; i++)
    {
      guint64 m;

      if (take_string (f, &p, f->size, "event formats", error) == NULL || !need (f, p, 4, "event formats", error))
        return FALSE;
      m = rd (f, p, 4);
      p += 4;
      for (guint64 j = 0; j < m; j++)
        if (!skip_sized (f, &p, 8, "event formats", error))
          return FALSE;
    }
  if (!check_text (f, &p, 4, "kallsyms", error) || !check_text (f, &p, 4, "printk formats", error) ||
      !check_text (f, &p, 8, "saved command lines", error) || !need (f, p, 4 + 10, "cpu count", error))
    return FALSE;
  ncpus = rd (f, p, 4);
  p += 4;
  if (memcmp (f->data + p, "options  ", 10) == 0)
    for (p += 10;;)
      {
        guint id;
        guint64 size;

        if (!need (f, p, 2, "options", error))
          return FALSE;
        if ((id = rd (f, p, 2)) == OPT_DONE)
          {
            p += 2;
            break;
          }
        if (!need (f, p + 2, 4, "options", error) || !need (f, p + 6, (size = rd (f, p + 2, 4)), "options", error) ||
            !check_option (f, id, p + 6, size, error))
          return FALSE;
        if (id == OPT_CPUSTAT)
          add_cpu_stats (f, p + 6, size);
        clock |= id == OPT_TRACECLOCK;
        if (id == OPT_BUFFER)
          {
            guint64 q = p + 6 + 8;
            const char *name;

            if (size < 9 || (name = take_string (f, &q, p + 6 + size, "buffer option", error)) == NULL)
              return size < 9 ? damaged (f, error, p, "short buffer option") : FALSE;
            if (!check_flyrecord_v6 (f, rd (f, p + 6, 8), ncpus, name, error))
              return FALSE;
          }
        p += 6 + size;
      }
  if (!need (f, p, 10, "flyrecord", error))
    return FALSE;
  /* A latency trace is plain text: nothing of ours in it, libtracecmd will say so. */
  if (memcmp (f->data + p, "latency  ", 10) == 0)
    return TRUE;
  return check_flyrecord_v6 (f, p, ncpus, "", error) && (!clock || check_clock_v6 (f, p, ncpus, error));
}

static gboolean
check_layout (DatFile *f, GError **error)
{
  const char *version, *name;
  guint64 p = DAT_MAGIC_LEN;

  if (f->size == 0)
    return g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY, "'%s': empty file", f->path), FALSE;
  if (f->size < DAT_MAGIC_LEN || memcmp (f->data, DAT_MAGIC, DAT_MAGIC_LEN) != 0)
    return f->size < DAT_MAGIC_LEN ? truncated (f, "magic", 0, error)
                                   : damaged (f, error, 0, "bad trace-cmd magic");
  if ((version = take_string (f, &p, DAT_MAGIC_LEN + 16, "version", error)) == NULL)
    return FALSE;
  if (strcmp (version, "6") != 0 && strcmp (version, "7") != 0)
    {
      g_autofree char *v = g_strescape (version, NULL);

      return damaged (f, error, DAT_MAGIC_LEN, "unsupported trace-cmd file version '%s' (iochart "
                      "reads 6 and 7)", v);
    }
  if (!need (f, p, 6, "file header", error))
    return FALSE;
  if (f->data[p] > 1)
    return damaged (f, error, p, "bad byte order flag %u", f->data[p]);
  f->big_endian = f->data[p] == 1;
  if (f->data[p + 1] != 4 && f->data[p + 1] != 8)
    return damaged (f, error, p + 1, "bad long size %u", f->data[p + 1]);
  f->page_size = rd (f, p + 2, 4);
  p += 6;
  if (f->plan != NULL)
    f->plan->long_size = f->data[p - 5];
  if (version[0] == '6')
    {
      if (f->plan != NULL)
        f->plan->usable = FALSE;
      return check_v6 (f, p, error);
    }
  if ((f->compression = name = take_string (f, &p, f->size, "compression name", error)) == NULL ||
      take_string (f, &p, f->size, "compression version", error) == NULL ||
      !need (f, p, 8, "first options offset", error))
    return FALSE;
  if (f->plan != NULL && strcmp (name, "zstd") != 0 && strcmp (name, "none") != 0)
    f->plan->usable = FALSE;
  return check_section_walk_v7 (f, p + 8, error) && check_options_v7 (f, rd (f, p, 8), error);
}

/* Fills *out (its data pointer is not valid after return unless plan is given: then *plan holds
 * the mapping and what the direct read needs). */
static gboolean
inspect (const char *path, DatFile *out, DatPlan **plan, GError **error)
{
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GError) local = NULL;
  DatFile f = { .path = path };
  gboolean ok;

  mapped = g_mapped_file_new (path, FALSE, &local);
  if (mapped == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, local->message);
      return FALSE;
    }
  f.data = (const guint8 *) g_mapped_file_get_contents (mapped);
  f.size = g_mapped_file_get_length (mapped);
  if (plan != NULL)
    {
      f.plan = g_new0 (DatPlan, 1);
      f.plan->usable = TRUE;
      f.plan->buffers = g_ptr_array_new_with_free_func (dat_buffer_free);
      f.plan->mapped = g_mapped_file_ref (mapped);
    }
  ok = check_layout (&f, error);
  g_clear_pointer (&f.zstd, ZSTD_freeDCtx);
  g_clear_pointer (&f.scratch, g_byte_array_unref);
  if (ok && out != NULL)
    *out = f;
  if (ok && plan != NULL && !f.plan->usable)
    g_ptr_array_set_size (f.plan->buffers, 0);   /* what it kept is not needed */
  if (ok && plan != NULL)
    *plan = f.plan;
  else
    dat_plan_free (f.plan);
  if (out != NULL)
    out->plan = NULL;
  return ok;
}

gboolean
_iochart_dat_sniff (const guint8 *head, gsize len)
{
  return len >= DAT_MAGIC_LEN && memcmp (head, DAT_MAGIC, DAT_MAGIC_LEN) == 0;
}

gboolean
_iochart_dat_check (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  return inspect (path, NULL, NULL, error);
}

/* ---- the guard around libtracecmd ---- */

/* libtracecmd and libtraceevent 1.7 dereference NULL on some damaged files that our layout check
 * cannot see (a flipped byte inside a zstd-compressed section still decompresses: trace-cmd
 * writes no checksums), and libtraceevent's format parser divides by a damaged format's zero.
 * Every library call on the file runs under this guard: a fault in this thread while it is set
 * ends the call, not the process. Our own code (the record callback) runs unguarded, so that a
 * fault of ours still reaches the sanitizers and the fuzzers. */
static __thread sigjmp_buf *lib_fault;
static const int lib_signals[] = { SIGSEGV, SIGBUS, SIGFPE };
static struct sigaction saved[G_N_ELEMENTS (lib_signals)];

static void
restore_handlers (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (lib_signals); i++)
    sigaction (lib_signals[i], &saved[i], NULL);
}

static void
on_lib_fault (int sig)
{
  if (lib_fault != NULL)
    siglongjmp (*lib_fault, sig);
  /* not the library's: the fault repeats under the handler that was there before */
  restore_handlers ();
}

typedef void (*LibCall) (gpointer data);

/* Runs call (data) under the guard; returns the signal that ended it, or 0. */
static int
guarded (LibCall call, gpointer data)
{
  struct sigaction sa = { .sa_handler = on_lib_fault };
  sigjmp_buf jmp;
  volatile int fault;

  sigemptyset (&sa.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (lib_signals); i++)
    sigaction (lib_signals[i], &sa, &saved[i]);
  if ((fault = sigsetjmp (jmp, 1)) == 0)
    {
      lib_fault = &jmp;
      call (data);
    }
  lib_fault = NULL;
  restore_handlers ();
  return fault;
}

typedef struct {
  const char            *path;
  struct tracecmd_input *top;
  GPtrArray             *handles;   /* top, then every instance buffer that opens */
  GPtrArray             *lost;      /* names of instance buffers that do not (owned) */
} Opened;

static void
open_call (gpointer data)
{
  Opened *o = data;
  int n;

  /* their messages go to stderr: ours name the file and the offset instead */
  tep_set_loglevel (TEP_LOG_NONE);
  tracecmd_set_loglevel (TEP_LOG_NONE);
  o->top = tracecmd_open (o->path, TRACECMD_FL_LOAD_NO_PLUGINS);
  if (o->top == NULL)
    return;
  g_ptr_array_add (o->handles, o->top);
  n = tracecmd_buffer_instances (o->top);
  for (int i = 0; i < n; i++)
    {
      struct tracecmd_input *h = tracecmd_buffer_instance_handle (o->top, i);

      if (h != NULL)
        g_ptr_array_add (o->handles, h);
      else
        g_ptr_array_add (o->lost, g_strdup (tracecmd_buffer_instance_name (o->top, i)));
    }
}

static void
close_call (gpointer data)
{
  Opened *o = data;

  for (guint i = o->handles->len; i-- > 1;)
    tracecmd_close (o->handles->pdata[i]);
  tracecmd_close (o->top);
}

/* ---- reading ---- */

typedef enum {
  KIND_OTHER,
  KIND_BLOCK,
  KIND_FORK,
  KIND_EXEC,
  KIND_EXIT,
  KIND_IOPRIO_SET,
  KIND_SPLIT,
  KIND_SWITCH,
  KIND_WAKEUP,
} Kind;

/* Field slots per kind; a NULL field is absent in this capture. */
enum { B_DEV, B_SECTOR, B_NR_SECTOR, B_RWBS, B_BYTES, B_IOPRIO, B_COMM, B_ERROR, N_SLOTS };
enum { F_PARENT_PID, F_CHILD_PID, F_CHILD_COMM };
enum { E_PID, E_FILENAME };
enum { X_PID };
enum { S_WHICH, S_WHO, S_IOPRIO };
enum { SP_DEV, SP_SECTOR, SP_NEW_SECTOR, SP_RWBS, SP_COMM };
enum { W_PREV_PID, W_PREV_STATE, W_NEXT_PID };
enum { K_PID };

typedef struct {
  const char        *system;
  const char        *name;
  Kind               kind;
  IochartBlockAction action;
  guint              n_required;  /* the first n fields must exist */
  const char        *fields[N_SLOTS];
} Wanted;

static const Wanted wanted[] = {
#define BLOCK_FIELDS 4, { "dev", "sector", "nr_sector", "rwbs", "bytes", "ioprio", "comm", "error" }
  { "block", "block_bio_queue",      KIND_BLOCK, IOCHART_BLOCK_QUEUE,      BLOCK_FIELDS },
  { "block", "block_bio_backmerge",  KIND_BLOCK, IOCHART_BLOCK_BACKMERGE,  BLOCK_FIELDS },
  { "block", "block_bio_frontmerge", KIND_BLOCK, IOCHART_BLOCK_FRONTMERGE, BLOCK_FIELDS },
  { "block", "block_rq_merge",       KIND_BLOCK, IOCHART_BLOCK_RQ_MERGE,   BLOCK_FIELDS },
  { "block", "block_rq_insert",      KIND_BLOCK, IOCHART_BLOCK_INSERT,     BLOCK_FIELDS },
  { "block", "block_rq_issue",       KIND_BLOCK, IOCHART_BLOCK_ISSUE,      BLOCK_FIELDS },
  { "block", "block_rq_requeue",     KIND_BLOCK, IOCHART_BLOCK_REQUEUE,    BLOCK_FIELDS },
  { "block", "block_rq_complete",    KIND_BLOCK, IOCHART_BLOCK_COMPLETE,   BLOCK_FIELDS },
#undef BLOCK_FIELDS
  { "block", "block_split", KIND_SPLIT, IOCHART_BLOCK_SPLIT, 4, { "dev", "sector", "new_sector", "rwbs", "comm" } },
  { "sched", "sched_process_fork", KIND_FORK, 0, 2, { "parent_pid", "child_pid", "child_comm" } },
  { "sched", "sched_process_exec", KIND_EXEC, 0, 2, { "pid", "filename" } },
  { "sched", "sched_process_exit", KIND_EXIT, 0, 1, { "pid" } },
  { "sched", "sched_switch", KIND_SWITCH, 0, 3, { "prev_pid", "prev_state", "next_pid" } },
  { "sched", "sched_wakeup", KIND_WAKEUP, 0, 1, { "pid" } },
  { "sched", "sched_wakeup_new", KIND_WAKEUP, 0, 1, { "pid" } },
  { "syscalls", "sys_enter_ioprio_set", KIND_IOPRIO_SET, 0, 3, { "which", "who", "ioprio" } },
};

typedef struct {
  const Wanted            *w;
  guint                    min_size;   /* a shorter record is damaged */
  struct tep_format_field *f[N_SLOTS];
} EventDesc;

/* One per libtraceevent handle (instances normally share their parent's). */
typedef struct {
  struct tep_handle *tep;
  EventDesc         *descs;      /* G_N_ELEMENTS (wanted) */
  EventDesc        **by_id;      /* type id -> desc, NULL for events we only count */
  guint              n_ids;
} EventTable;

typedef struct Stream Stream;
static guint64 streams_done (const Stream *s, guint n);

typedef struct {
  IochartBuilder         *b;
  const char             *path;
  GPtrArray              *tables;    /* EventTable* */
  struct tracecmd_input  *last_handle;
  EventTable             *last_table;
  guint64                 n_other;
  guint64                 n_damaged;
  guint64                 n_missed;
  guint64                 n_records;
  /* progress: per (handle, cpu) the first and latest record offsets in the uncompressed data */
  struct tracecmd_input **handles;
  guint                   n_handles;
  guint64               (*offsets)[PROGRESS_CPUS][2];
  guint64                 data_bytes;
  guint64                 last_offset;  /* of the last record read, for messages */
  Stream                 *streams;      /* the direct read's (progress from their positions) */
  guint                   n_streams;
  guint                   page_size;    /* the file's, which libtracecmd's pages have */
} ReadState;

static void
event_table_free (gpointer data)
{
  EventTable *t = data;

  g_free (t->descs);
  g_free (t->by_id);
  g_free (t);
}

static EventTable *
event_table_new (ReadState *st, struct tep_handle *tep)
{
  EventTable *t = g_new0 (EventTable, 1);
  struct tep_event *events[G_N_ELEMENTS (wanted)] = { NULL };

  t->tep = tep;
  t->descs = g_new0 (EventDesc, G_N_ELEMENTS (wanted));
  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    {
      const Wanted *w = &wanted[i];
      EventDesc *d = &t->descs[i];
      struct tep_event *ev = tep ? tep_find_event_by_name (tep, w->system, w->name) : NULL;

      if (ev == NULL)
        continue;
      d->w = w;
      for (guint j = 0; j < N_SLOTS && w->fields[j] != NULL; j++)
        {
          d->f[j] = tep_find_field (ev, w->fields[j]);
          if (d->f[j] == NULL && j < w->n_required)
            {
              _iochart_builder_warn (st->b, "'%s': event '%s' has no field '%s': its records are "
                                     "counted, not read", st->path, w->name, w->fields[j]);
              d->w = NULL;
              break;
            }
          if (d->f[j] != NULL)
            d->min_size = MAX (d->min_size, (guint) (d->f[j]->offset + d->f[j]->size));
        }
      if (d->w != NULL)
        {
          events[i] = ev;
          t->n_ids = MAX (t->n_ids, (guint) ev->id + 1);
        }
    }
  t->by_id = g_new0 (EventDesc *, MAX (t->n_ids, 1));
  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    if (events[i] != NULL)
      t->by_id[events[i]->id] = &t->descs[i];
  return t;
}

static EventTable *
table_for (ReadState *st, struct tracecmd_input *handle)
{
  struct tep_handle *tep;
  EventTable *t;

  if (handle == st->last_handle)
    return st->last_table;
  tep = tracecmd_get_tep (handle);
  t = NULL;
  for (guint i = 0; i < st->tables->len && t == NULL; i++)
    if (((EventTable *) st->tables->pdata[i])->tep == tep)
      t = st->tables->pdata[i];
  if (t == NULL)
    g_ptr_array_add (st->tables, (t = event_table_new (st, tep)));
  st->last_handle = handle;
  st->last_table = t;
  return t;
}

/* Whether the handle num() saw last has the other byte order: asked once per handle, not per
 * field read (reset by each read, as a handle's address may come again). */
static __thread struct tep_handle *num_tep;
static __thread gboolean num_swap;

/* tep_read_number_field(), inline: it is called several times a record. dispatch() has checked
 * the record holds every field. */
static guint64
num (const struct tep_format_field *field, const struct tep_record *rec, guint64 fallback)
{
  const guint8 *p;
  guint16 v16;
  guint32 v32;
  guint64 v64;

  if (field == NULL)
    return fallback;
  if (G_UNLIKELY (field->event->tep != num_tep))
    {
      num_tep = field->event->tep;
      num_swap = tep_is_file_bigendian (num_tep) != tep_is_local_bigendian (num_tep);
    }
  p = (const guint8 *) rec->data + field->offset;
  switch (field->size)
    {
    case 1:
      return *p;
    case 2:
      memcpy (&v16, p, 2);
      return num_swap ? GUINT16_SWAP_LE_BE (v16) : v16;
    case 4:
      memcpy (&v32, p, 4);
      return num_swap ? GUINT32_SWAP_LE_BE (v32) : v32;
    case 8:
      memcpy (&v64, p, 8);
      return num_swap ? GUINT64_SWAP_LE_BE (v64) : v64;
    default:
      return fallback;
    }
}

/* A char array or a __data_loc string, bounded by the record; NULL when it points outside. */
static const char *
str (const struct tep_format_field *field, const struct tep_record *rec, gsize *len)
{
  const char *base = rec->data;
  guint64 off = field->offset, size = field->size;

  if (field->flags & TEP_FIELD_IS_DYNAMIC)
    {
      guint64 loc = num (field, rec, 0);

      off = loc & 0xffff;
      size = loc >> 16 & 0xffff;
      if (field->flags & TEP_FIELD_IS_RELATIVE)
        off += field->offset + field->size;
      if (off > (guint64) rec->size || size > rec->size - off)
        return NULL;
    }
  *len = strnlen (base + off, size);
  return base + off;
}

static const char *
str_copy (const struct tep_format_field *field, const struct tep_record *rec, char *buf, gsize bufsize)
{
  gsize len;
  const char *s = field != NULL ? str (field, rec, &len) : NULL;

  if (s == NULL)
    return NULL;
  len = MIN (len, bufsize - 1);
  memcpy (buf, s, len);
  buf[len] = '\0';
  return buf;
}

static void
on_block (ReadState *st, const EventDesc *d, struct tep_handle *tep, struct tep_record *rec)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  IochartOp op;
  const char *rwbs;
  gsize len;

  ev.ts_ns = (gint64) rec->ts;
  ev.dev = num (d->f[B_DEV], rec, 0);
  ev.sector = num (d->f[B_SECTOR], rec, 0);
  ev.nr_sector = num (d->f[B_NR_SECTOR], rec, 0);
  ev.bytes = num (d->f[B_BYTES], rec, 0);
  ev.pid = tep_data_pid (tep, rec);
  if (d->f[B_IOPRIO] != NULL)
    ev.ioprio = (gint32) num (d->f[B_IOPRIO], rec, 0);
  if (d->f[B_ERROR] != NULL)
    ev.error = (gint32) num (d->f[B_ERROR], rec, 0);
  if (d->f[B_COMM] != NULL)
    ev.comm = str (d->f[B_COMM], rec, &ev.comm_len);
  if ((rwbs = str (d->f[B_RWBS], rec, &len)) == NULL)
    {
      st->n_damaged++;
      return;
    }
  iochart_rwbs_parse (rwbs, len, &op, &ev.flags);
  ev.op = op;
  _iochart_builder_block (st->b, d->w->action, &ev);
}

/* The front piece ends at new_sector; the builder gives the rest a request of its own. */
static void
on_split (ReadState *st, const EventDesc *d, struct tep_handle *tep, struct tep_record *rec)
{
  IochartBlockEvent ev = IOCHART_BLOCK_EVENT_INIT;
  guint64 new_sector = num (d->f[SP_NEW_SECTOR], rec, 0);
  const char *rwbs;
  IochartOp op;
  gsize len;

  ev.ts_ns = (gint64) rec->ts;
  ev.dev = num (d->f[SP_DEV], rec, 0);
  ev.sector = num (d->f[SP_SECTOR], rec, 0);
  ev.pid = tep_data_pid (tep, rec);
  if ((rwbs = str (d->f[SP_RWBS], rec, &len)) == NULL || new_sector <= ev.sector
      || new_sector - ev.sector > G_MAXUINT32)
    {
      st->n_damaged += rwbs == NULL;
      return;
    }
  ev.nr_sector = new_sector - ev.sector;
  if (d->f[SP_COMM] != NULL)
    ev.comm = str (d->f[SP_COMM], rec, &ev.comm_len);
  iochart_rwbs_parse (rwbs, len, &op, &ev.flags);
  ev.op = op;
  _iochart_builder_block (st->b, IOCHART_BLOCK_SPLIT, &ev);
}

static void
dispatch (ReadState *st, const EventDesc *d, struct tep_handle *tep, struct tep_record *rec)
{
  gint64 ts_ns = (gint64) rec->ts;
  char buf[4096 + 1];

  switch (d->w->kind)
    {
    case KIND_BLOCK:
      on_block (st, d, tep, rec);
      break;
    case KIND_FORK:
      _iochart_builder_fork (st->b, ts_ns, num (d->f[F_PARENT_PID], rec, -1), num (d->f[F_CHILD_PID], rec, -1),
                             str_copy (d->f[F_CHILD_COMM], rec, buf, sizeof buf));
      break;
    case KIND_EXEC:
      {
        gint32 pid = d->f[E_PID] != NULL ? (gint32) num (d->f[E_PID], rec, -1) : tep_data_pid (tep, rec);
        const char *filename = str_copy (d->f[E_FILENAME], rec, buf, sizeof buf);

        if (filename != NULL)
          _iochart_builder_exec (st->b, ts_ns, pid, filename);
        else
          st->n_damaged++;
      }
      break;
    case KIND_EXIT:
      _iochart_builder_exit (st->b, ts_ns, num (d->f[X_PID], rec, -1));
      break;
    case KIND_IOPRIO_SET:
      _iochart_builder_ioprio_set (st->b, ts_ns, tep_data_pid (tep, rec), num (d->f[S_WHICH], rec, 0),
                                   num (d->f[S_WHO], rec, 0), num (d->f[S_IOPRIO], rec, 0));
      break;
    case KIND_SPLIT:
      on_split (st, d, tep, rec);
      break;
    case KIND_SWITCH:
      _iochart_builder_sched_switch (st->b, ts_ns, num (d->f[W_PREV_PID], rec, 0),
                                     _iochart_task_state_from_kernel (num (d->f[W_PREV_STATE], rec, 1)),
                                     num (d->f[W_NEXT_PID], rec, 0));
      break;
    case KIND_WAKEUP:
      _iochart_builder_sched_wakeup (st->b, ts_ns, num (d->f[K_PID], rec, 0));
      break;
    case KIND_OTHER:
      st->n_other++;
      break;
    }
}

static void
report_progress (ReadState *st)
{
  guint64 done = 0;

  if (st->data_bytes == 0)
    return;
  if (st->streams != NULL)
    done = streams_done (st->streams, st->n_streams);
  for (guint h = 0; h < st->n_handles; h++)
    for (guint c = 0; c < PROGRESS_CPUS; c++)
      done += st->offsets[h][c][1] - st->offsets[h][c][0];
  _iochart_builder_progress (st->b, (double) done / st->data_bytes);
}

static void
track_offset (ReadState *st, struct tracecmd_input *handle, const struct tep_record *rec)
{
  for (guint h = 0; h < st->n_handles; h++)
    if (st->handles[h] == handle)
      {
        guint64 *o;

        if (rec->cpu < 0 || rec->cpu >= PROGRESS_CPUS)
          return;
        o = st->offsets[h][rec->cpu];
        if (o[0] == 0)
          o[0] = rec->offset;
        o[1] = MAX (o[1], rec->offset);
        return;
      }
}

/* The description of a record's event; NULL (counted) for one we do not read or a damaged one. */
static const EventDesc *
desc_for (ReadState *st, const EventTable *t, const struct tep_record *rec)
{
  int type = tep_data_type (t->tep, (struct tep_record *) rec);
  const EventDesc *d;

  if (type < 0 || (guint) type >= t->n_ids || (d = t->by_id[type]) == NULL)
    {
      st->n_other++;
      return NULL;
    }
  if (G_UNLIKELY ((guint) rec->size < d->min_size))
    {
      st->n_damaged++;
      return NULL;
    }
  return d;
}

/* A record, from either read: counted, then handed to dispatch () if we read its event. */
static void
take_record (ReadState *st, const EventTable *t, struct tep_record *rec)
{
  const EventDesc *d;

  st->last_offset = rec->offset;
  if (G_UNLIKELY (rec->missed_events != 0))
    st->n_missed += rec->missed_events > 0 ? (guint64) rec->missed_events : 1;
  if (G_UNLIKELY (++st->n_records % PROGRESS_EVERY == 0))
    report_progress (st);
  if ((d = desc_for (st, t, rec)) == NULL)
    return;
  {
    /* our code: unguarded (see guarded ()) */
    sigjmp_buf *guard = lib_fault;

    lib_fault = NULL;
    dispatch (st, d, t->tep, rec);
    lib_fault = guard;
  }
}

/* Whether a record libtracecmd hands on lies in its page: a damaged length field makes it run
 * past the page's buffer, where its fields would be read. Its header is 4 bytes, or 8 with a
 * length field (the event's whole size less its data's, when that is not 4). */
static gboolean
in_page (const struct tep_record *rec, guint page_size)
{
  guint64 hdr = (gint64) rec->record_size - rec->size == 4 ? 4 : 8, room;

  if (rec->size < 0 || page_size == 0)
    return rec->size >= 0;
  room = page_size - rec->offset % page_size;
  return room >= hdr && (guint64) rec->size <= room - hdr;
}

static int
on_record (struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *data)
{
  ReadState *st = data;

  if (st->data_bytes != 0)
    track_offset (st, handle, rec);
  /* counted damaged, as the direct read does with such a record */
  if (G_UNLIKELY (!in_page (rec, st->page_size)))
    {
      st->last_offset = rec->offset;
      st->n_damaged++;
      return 0;
    }
  take_record (st, table_for (st, handle), rec);
  return 0;
}

static void
iterate_call (gpointer data)
{
  ReadState *st = data;

  tracecmd_iterate_events_multi (st->handles, st->n_handles, on_record, st);
}

/* ---- reading without libtracecmd's open ---- */

/* libtracecmd's open parses every event format the kernel has (about 1,500), kallsyms and the
 * printk formats: three quarters of its work, none of it needed here. A v7 file whose layout the
 * check has walked is read directly instead: the ring buffer's header page and only the wanted
 * event formats go into a libtraceevent handle, and each CPU's pages (mapped, or inflated by the
 * check) through kbuffer, merged by time in libtracecmd's own order (the top-level buffer, then the
 * instances, each CPU in turn; the earliest record, the first stream on a tie), so that the builder
 * sees the same records in the same order. */

struct Stream {
  const guint8      *data;
  guint64            size;
  guint64            pos;       /* of the loaded page */
  guint64            base;      /* where the stream starts in the offsets records carry */
  guint              page_size;
  guint              cpu;
  struct kbuffer    *kbuf;
  const guint8      *page;      /* the loaded page */
  void              *rec;       /* the next record's data; NULL: the stream has ended */
  unsigned long long ts;
  guint8            *pad;       /* a short last page, copied whole-page */
};

typedef enum { DIRECT_NOT, DIRECT_DONE, DIRECT_FAILED } DirectResult;

static guint64
streams_done (const Stream *s, guint n)
{
  guint64 done = 0;

  for (guint i = 0; i < n; i++)
    done += s[i].rec != NULL ? s[i].pos : s[i].size;
  return done;
}

/* Loads the page at s->pos; FALSE for one libtracecmd refuses (its data larger than a page). */
static gboolean
stream_load (Stream *s)
{
  const guint8 *page = s->data + s->pos;

  if (s->size - s->pos < s->page_size)
    {
      if (s->pad == NULL)
        s->pad = g_malloc0 (s->page_size);
      memcpy (s->pad, page, s->size - s->pos);
      page = s->pad;
    }
  kbuffer_load_subbuffer (s->kbuf, (void *) page);
  s->page = page;
  return kbuffer_subbuffer_size (s->kbuf) <= (int) s->page_size;
}

/* Makes s->rec the stream's next record (tracecmd_peek_data ()): NULL after the last page, or at a
 * page libtracecmd would refuse, where it ends the CPU too. */
static void
stream_peek (Stream *s)
{
  while ((s->rec = kbuffer_read_event (s->kbuf, &s->ts)) == NULL)
    {
      if (s->size - s->pos <= s->page_size)
        return;
      s->pos += s->page_size;
      if (!stream_load (s))
        return;
    }
}

typedef struct {
  ReadState         *st;
  const DatFile     *f;
  DatPlan           *plan;
  struct tep_handle *tep;
  Stream            *streams;
  guint              n;
} Direct;

/* A section's body, inflated when it is compressed, as a view *out (the check has passed it). */
static gboolean
section_view (const DatFile *f, guint64 off, guint id, DatFile *out, guint8 **buf)
{
  guint16 flags;
  guint64 body, len;

  *buf = NULL;
  if (!check_section (f, off, id, section_name (id), &flags, &body, &len, NULL))
    return FALSE;
  if (flags & DAT_SECTION_COMPRESSED)
    {
      if (!inflate_section (f, off, body, len, id, out, buf, NULL))
        return FALSE;
      out->inflated_what = NULL;
      return TRUE;
    }
  *out = *f;
  out->data = f->data + body;
  out->size = len;
  return TRUE;
}

static gboolean
wanted_event (const char *system, const char *name, gsize len)
{
  for (guint i = 0; i < G_N_ELEMENTS (wanted); i++)
    if (strlen (wanted[i].name) == len && memcmp (wanted[i].name, name, len) == 0 &&
        strcmp (wanted[i].system, system) == 0)
      return TRUE;
  return FALSE;
}

/* The event formats section: systems (name, count, formats of a size each); only the wanted ones
 * are parsed. */
static gboolean
parse_formats (const DatFile *v, struct tep_handle *tep)
{
  guint64 p = 0, nsys;

  if (!need (v, p, 4, "event formats", NULL))
    return FALSE;
  nsys = rd (v, p, 4);
  p += 4;
  for (guint64 i = 0; i < nsys; i++)
    {
      const char *system = take_string (v, &p, v->size, "event formats", NULL);
      guint64 n;

      if (system == NULL || !need (v, p, 4, "event formats", NULL))
        return FALSE;
      n = rd (v, p, 4);
      p += 4;
      for (guint64 j = 0; j < n; j++)
        {
          const char *text, *eol;
          guint64 size;

          if (!need (v, p, 8, "event formats", NULL) || !need (v, p + 8, (size = rd (v, p, 8)), "event formats", NULL))
            return FALSE;
          text = (const char *) v->data + p + 8;
          p += 8 + size;
          if (size < 6 || memcmp (text, "name: ", 6) != 0 || (eol = memchr (text, '\n', size)) == NULL)
            continue;
          if (wanted_event (system, text + 6, eol - text - 6))
            tep_parse_event (tep, text, size, system);
        }
    }
  return TRUE;
}

/* The libtraceevent handle: header page and the wanted formats (under the guard: libtraceevent
 * parses them unchecked). */
static void
direct_tep_call (gpointer data)
{
  Direct *d = data;
  const DatFile *f = d->f;
  g_autofree guint8 *hbuf = NULL, *fbuf = NULL;
  DatFile hv, fv;

  if (d->plan->header_info == 0 || d->plan->event_formats == 0 ||
      !section_view (f, d->plan->header_info, OPT_HEADER_INFO, &hv, &hbuf) ||
      !section_view (f, d->plan->event_formats, OPT_EVENT_FORMATS, &fv, &fbuf) ||
      !need (&hv, 12, 8, "header page", NULL) || !need (&hv, 20, rd (&hv, 12, 8), "header page", NULL))
    return;
  d->tep = tep_alloc ();
  tep_set_file_bigendian (d->tep, f->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_local_bigendian (d->tep, G_BYTE_ORDER == G_BIG_ENDIAN ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
  tep_set_long_size (d->tep, d->plan->long_size);
  tep_set_page_size (d->tep, f->page_size);
  if (tep_parse_header_page (d->tep, (char *) hv.data + 20, rd (&hv, 12, 8), d->plan->long_size) != 0 ||
      tep_get_header_timestamp_size (d->tep) != 8 || !parse_formats (&fv, d->tep))
    g_clear_pointer (&d->tep, tep_free);
}

/* One stream per CPU with data, in libtracecmd's order; FALSE when a first page is one it
 * refuses (it would drop the buffer: the libtracecmd read says so). */
static gboolean
direct_streams (Direct *d)
{
  GPtrArray *order = g_ptr_array_new ();
  GArray *streams = g_array_new (FALSE, TRUE, sizeof (Stream));
  int lsize = tep_get_header_page_size (d->tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
  guint64 base = 0;
  gboolean ok = TRUE;

  for (guint i = 0; i < d->plan->buffers->len; i++)
    if (((DatBuffer *) d->plan->buffers->pdata[i])->top)
      g_ptr_array_add (order, d->plan->buffers->pdata[i]);
  for (guint i = 0; i < d->plan->buffers->len; i++)
    if (!((DatBuffer *) d->plan->buffers->pdata[i])->top)
      g_ptr_array_add (order, d->plan->buffers->pdata[i]);
  for (guint i = 0; i < order->len && ok; i++)
    {
      DatBuffer *b = order->pdata[i];

      for (guint c = 0; c < b->cpus->len && ok; c++)
        {
          const DatCpu *cpu = &g_array_index (b->cpus, DatCpu, c);
          Stream s = { .data = cpu->data, .size = cpu->size, .base = base, .page_size = b->page_size,
                       .cpu = cpu->cpu };

          if (cpu->size == 0)
            continue;
          base += cpu->size;
          s.kbuf = kbuffer_alloc (lsize, d->f->big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
          if (tep_is_old_format (d->tep))
            kbuffer_set_old_format (s.kbuf);
          g_array_append_val (streams, s);
          ok = b->page_size != 0 && stream_load (&g_array_index (streams, Stream, streams->len - 1));
        }
    }
  g_ptr_array_unref (order);
  d->n = streams->len;
  d->streams = (Stream *) g_array_free (streams, FALSE);
  return ok;
}

static void
direct_free_streams (Direct *d)
{
  for (guint i = 0; i < d->n; i++)
    {
      kbuffer_free (d->streams[i].kbuf);
      g_free (d->streams[i].pad);
    }
  g_clear_pointer (&d->streams, g_free);
}

/* The time merge (tracecmd_iterate_events_multi ()), under the guard like libtracecmd's. */
static void
direct_iterate_call (gpointer data)
{
  Direct *d = data;
  ReadState *st = d->st;
  const EventTable *t = NULL;

  for (guint i = 0; i < d->n; i++)
    stream_peek (&d->streams[i]);
  for (;;)
    {
      Stream *best = NULL;
      struct tep_record rec;

      for (guint i = 0; i < d->n; i++)
        if (d->streams[i].rec != NULL && (best == NULL || d->streams[i].ts < best->ts))
          best = &d->streams[i];
      if (best == NULL)
        break;
      if (G_UNLIKELY (t == NULL))
        g_ptr_array_add (st->tables, (gpointer) (t = event_table_new (st, d->tep)));
      rec = (struct tep_record) { .ts = best->ts, .data = best->rec, .size = kbuffer_event_size (best->kbuf),
                                  .cpu = best->cpu, .missed_events = kbuffer_missed_events (best->kbuf),
                                  .offset = best->base + best->pos + kbuffer_curr_offset (best->kbuf) };
      /* a length field pointing past its page: libtracecmd would hand it on, we count it damaged */
      if (G_UNLIKELY (rec.size < 0 || (const guint8 *) rec.data + rec.size > best->page + best->page_size))
        {
          st->last_offset = rec.offset;
          st->n_damaged++;
        }
      else
        take_record (st, t, &rec);
      kbuffer_next_event (best->kbuf, NULL);
      stream_peek (best);
    }
}

static DirectResult
read_direct (ReadState *st, const DatFile *f, DatPlan *plan, GError **error)
{
  Direct d = { .st = st, .f = f, .plan = plan };
  DirectResult r = DIRECT_DONE;
  int fault;

  if (guarded (direct_tep_call, &d) != 0 || d.tep == NULL)
    return DIRECT_NOT;   /* after a fault the half-built handle is left, as libtracecmd's would be */
  if (!direct_streams (&d))
    r = DIRECT_NOT;
  else
    {
      st->streams = d.streams;
      st->n_streams = d.n;
      _iochart_builder_progress (st->b, 0.0);
      fault = guarded (direct_iterate_call, &d);
      _iochart_builder_progress (st->b, 1.0);
      st->streams = NULL;
      if (fault != 0)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                       "'%s': damaged: reading fails on its CPU data after the record at offset %"
                       G_GUINT64_FORMAT " (of the uncompressed data)", f->path, st->last_offset);
          r = DIRECT_FAILED;
        }
    }
  direct_free_streams (&d);
  tep_free (d.tep);
  return r;
}

/* libtracecmd's open and iteration: the files the direct read leaves (v6, other compressions,
 * options that move timestamps, a first page it would refuse). */
static gboolean
read_libtracecmd (ReadState *st, const char *path, const DatFile *f, GError **error)
{
  g_autoptr(GPtrArray) handles = g_ptr_array_new ();
  g_autoptr(GPtrArray) lost = g_ptr_array_new_with_free_func (g_free);
  Opened o = { path, NULL, handles, lost };
  IochartBuilder *b = st->b;
  int fault;

  if ((fault = guarded (open_call, &o)) != 0 || o.top == NULL)
    {
      /* after a fault the half-built handles cannot be freed safely: they are left */
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE, fault != 0
                   ? "'%s': damaged: libtracecmd fails on its headers or event formats (offset %" G_GUINT64_FORMAT
                     " and after)"
                   : "'%s': damaged: libtracecmd cannot read its headers or event formats (offset %"
                     G_GUINT64_FORMAT " and after)", path, f->formats != 0 ? f->formats : (guint64) DAT_MAGIC_LEN);
      return FALSE;
    }
  for (guint i = 0; i < lost->len; i++)
    _iochart_builder_warn (b, "'%s': buffer '%s' could not be read: its events are missing", path,
                           (const char *) lost->pdata[i]);
  st->handles = (struct tracecmd_input **) handles->pdata;
  st->n_handles = handles->len;
  st->offsets = g_malloc0 (sizeof *st->offsets * handles->len);
  _iochart_builder_progress (b, 0.0);
  fault = guarded (iterate_call, st);
  _iochart_builder_progress (b, 1.0);
  g_clear_pointer (&st->offsets, g_free);
  if (fault != 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': damaged: libtracecmd fails on its CPU data after the record at offset %"
                   G_GUINT64_FORMAT, path, st->last_offset);
      return FALSE;
    }
  guarded (close_call, &o);
  return TRUE;
}

static gboolean
dat_read (IochartBuilder *b, const char *path, gboolean direct, GError **error)
{
  ReadState st = { .b = b, .path = path };
  DatPlan *plan = NULL;
  DatFile f;
  gboolean ok;

  g_return_val_if_fail (b != NULL && path != NULL, FALSE);
  num_tep = NULL;
  if (!inspect (path, &f, &plan, error))
    return FALSE;
  st.data_bytes = f.data_bytes;
  st.page_size = f.page_size;
  st.tables = g_ptr_array_new_with_free_func (event_table_free);
  switch (direct && plan->usable ? read_direct (&st, &f, plan, error) : DIRECT_NOT)
    {
    case DIRECT_DONE: ok = TRUE; break;
    case DIRECT_FAILED: ok = FALSE; break;
    default: ok = read_libtracecmd (&st, path, &f, error); break;
    }
  g_ptr_array_unref (st.tables);
  dat_plan_free (plan);
  if (!ok)
    return FALSE;

  _iochart_builder_add_events (b, st.n_other);
  if (st.n_damaged > 0)
    _iochart_builder_warn (b, "'%s': %" G_GUINT64_FORMAT " damaged records skipped", path, st.n_damaged);
  _iochart_builder_lost_events (b, MAX (st.n_missed, f.lost));
  if (MAX (st.n_missed, f.lost) > 0)
    _iochart_builder_warn (b, "'%s': the ring buffer lost about %" G_GUINT64_FORMAT " events while "
                           "recording: some requests may be unmatched", path, MAX (st.n_missed, f.lost));
  return TRUE;
}

gboolean
_iochart_dat_read (IochartBuilder *b, const char *path, GError **error)
{
  return dat_read (b, path, TRUE, error);
}

gboolean
_iochart_dat_read_libtracecmd (IochartBuilder *b, const char *path, GError **error)
{
  return dat_read (b, path, FALSE, error);
}

/* ---- records of the running kernel, one at a time (live recording) ---- */

struct _IochartDatDecoder {
  ReadState   st;
  EventTable *table;
};

IochartDatDecoder *
_iochart_dat_decoder_new (IochartBuilder *b, const char *name, struct tep_handle *tep)
{
  IochartDatDecoder *self = g_new0 (IochartDatDecoder, 1);

  self->st.b = b;
  self->st.path = name;
  self->table = event_table_new (&self->st, tep);
  return self;
}

void
_iochart_dat_decoder_record (IochartDatDecoder *self, struct tep_record *rec)
{
  const EventDesc *d = desc_for (&self->st, self->table, rec);

  if (d != NULL)
    dispatch (&self->st, d, self->table->tep, rec);
}

void
_iochart_dat_decoder_flush (IochartDatDecoder *self)
{
  _iochart_builder_add_events (self->st.b, self->st.n_other);
  self->st.n_other = 0;
}

guint64
_iochart_dat_decoder_get_damaged (IochartDatDecoder *self)
{
  return self->st.n_damaged;
}

void
_iochart_dat_decoder_free (IochartDatDecoder *self)
{
  if (self == NULL)
    return;
  event_table_free (self->table);
  g_free (self);
}
