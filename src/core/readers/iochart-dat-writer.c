/* iochart-dat-writer.c: trace-cmd .dat version 6 (see the header) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <tracefs.h>
#include <glib/gstdio.h>

#include "iochart-dat-writer.h"
#include "iochart-error.h"

#define DAT_MAGIC "\027\010\104tracing"   /* 10 bytes */

enum {
  OPTION_DONE = 0,
  OPTION_CPUSTAT = 2,
  OPTION_TRACECLOCK = 4,
};

typedef struct {
  char      *system;
  GPtrArray *formats;    /* of char* */
} System;

struct _IochartDatWriter {
  guint       n_cpus;
  guint       page_size;
  char       *header_page;
  char       *header_event;
  GPtrArray  *ftrace_formats;   /* of char* */
  GPtrArray  *systems;          /* of System*, in the order added */
  char       *kallsyms;
  char       *printk;
  char       *cmdlines;
  char       *trace_clock;
  GPtrArray  *cpu_stats;        /* of char*, one per CPU, may be empty */
  /* Pages are spooled to unlinked temporary files: a long recording costs disk, not memory. */
  FILE      **cpu_spool;
  guint64    *cpu_len;
  /* add_event: the page being filled per CPU (NULL until its first event) and its last time */
  guint8    **cpu_page;
  gsize      *cpu_used;
  guint64    *cpu_last_ns;
};

static void
system_free (gpointer data)
{
  System *s = data;
  g_free (s->system);
  g_ptr_array_unref (s->formats);
  g_free (s);
}

IochartDatWriter *
iochart_dat_writer_new (guint n_cpus, guint page_size)
{
  IochartDatWriter *self = g_new0 (IochartDatWriter, 1);

  g_return_val_if_fail (n_cpus > 0 && page_size >= 64, NULL);
  self->n_cpus = n_cpus;
  self->page_size = page_size;
  self->ftrace_formats = g_ptr_array_new_with_free_func (g_free);
  self->systems = g_ptr_array_new_with_free_func (system_free);
  self->cpu_stats = g_ptr_array_new_with_free_func (g_free);
  self->cpu_spool = g_new0 (FILE *, n_cpus);
  self->cpu_len = g_new0 (guint64, n_cpus);
  self->cpu_page = g_new0 (guint8 *, n_cpus);
  self->cpu_used = g_new0 (gsize, n_cpus);
  self->cpu_last_ns = g_new0 (guint64, n_cpus);
  return self;
}

void
iochart_dat_writer_free (IochartDatWriter *self)
{
  if (self == NULL)
    return;
  g_free (self->header_page);
  g_free (self->header_event);
  g_ptr_array_unref (self->ftrace_formats);
  g_ptr_array_unref (self->systems);
  g_free (self->kallsyms);
  g_free (self->printk);
  g_free (self->cmdlines);
  g_free (self->trace_clock);
  g_ptr_array_unref (self->cpu_stats);
  for (guint i = 0; i < self->n_cpus; i++)
    {
      if (self->cpu_spool[i] != NULL)
        fclose (self->cpu_spool[i]);
      g_free (self->cpu_page[i]);
    }
  g_free (self->cpu_spool);
  g_free (self->cpu_len);
  g_free (self->cpu_page);
  g_free (self->cpu_used);
  g_free (self->cpu_last_ns);
  g_free (self);
}

static void
replace (char **field, const char *text)
{
  g_free (*field);
  *field = g_strdup (text);
}

void
iochart_dat_writer_set_headers (IochartDatWriter *self, const char *header_page,
                                const char *header_event)
{
  replace (&self->header_page, header_page);
  replace (&self->header_event, header_event);
}

void
iochart_dat_writer_add_format (IochartDatWriter *self, const char *system, const char *format)
{
  System *s = NULL;

  if (strcmp (system, "ftrace") == 0)
    {
      g_ptr_array_add (self->ftrace_formats, g_strdup (format));
      return;
    }
  for (guint i = 0; i < self->systems->len && s == NULL; i++)
    if (strcmp (((System *) self->systems->pdata[i])->system, system) == 0)
      s = self->systems->pdata[i];
  if (s == NULL)
    {
      s = g_new0 (System, 1);
      s->system = g_strdup (system);
      s->formats = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (self->systems, s);
    }
  g_ptr_array_add (s->formats, g_strdup (format));
}

void
iochart_dat_writer_set_kallsyms (IochartDatWriter *self, const char *text)
{
  replace (&self->kallsyms, text);
}

void
iochart_dat_writer_set_printk (IochartDatWriter *self, const char *text)
{
  replace (&self->printk, text);
}

void
iochart_dat_writer_set_cmdlines (IochartDatWriter *self, const char *text)
{
  replace (&self->cmdlines, text);
}

void
iochart_dat_writer_set_trace_clock (IochartDatWriter *self, const char *text)
{
  replace (&self->trace_clock, text);
}

void
iochart_dat_writer_set_cpu_stats (IochartDatWriter *self, guint cpu, const char *text)
{
  g_return_if_fail (cpu < self->n_cpus);
  while (self->cpu_stats->len <= cpu)
    g_ptr_array_add (self->cpu_stats, NULL);
  replace ((char **) &self->cpu_stats->pdata[cpu], text);
}

guint64
iochart_dat_writer_get_data_size (IochartDatWriter *self)
{
  guint64 total = 0;

  for (guint i = 0; i < self->n_cpus; i++)
    total += self->cpu_len[i];
  return total;
}

gboolean
iochart_dat_writer_add_pages (IochartDatWriter *self, guint cpu, const guint8 *pages, gsize len,
                              GError **error)
{
  if (cpu >= self->n_cpus || len % self->page_size != 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "dat writer: %" G_GSIZE_FORMAT " bytes for cpu %u are not whole pages of "
                   "%u bytes of one of %u cpus", len, cpu, self->page_size, self->n_cpus);
      return FALSE;
    }
  if (self->cpu_spool[cpu] == NULL)
    self->cpu_spool[cpu] = tmpfile ();
  if (self->cpu_spool[cpu] == NULL || fwrite (pages, 1, len, self->cpu_spool[cpu]) != len)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO,
                   "dat writer: cannot keep cpu %u's pages in a temporary file: %s", cpu,
                   g_strerror (errno));
      return FALSE;
    }
  self->cpu_len[cpu] += len;
  return TRUE;
}

/* ---- events made by a program: ring-buffer pages as the kernel fills them ---- */

/* The page header: u64 timestamp, u64 commit (bytes of data), then the data. */
#define PAGE_HEADER 16
/* Event header: type_len (5 bits) | time_delta (27 bits) << 5; type_len 1..28 is the record's
 * length in 4-byte words, 30 a time extend (the delta's high bits in the next word). */
#define TYPE_LEN_MAX_DATA 28
#define TYPE_TIME_EXTEND 30
#define TIME_DELTA_BITS 27

void
iochart_dat_writer_set_standard_headers (IochartDatWriter *self)
{
  g_autofree char *page = g_strdup_printf (
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:%d;\tsize:%u;\tsigned:0;\n", PAGE_HEADER, self->page_size - PAGE_HEADER);

  iochart_dat_writer_set_headers (self, page,
    "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n");
}

static gboolean
flush_page (IochartDatWriter *self, guint cpu, GError **error)
{
  guint8 *page = self->cpu_page[cpu];
  guint64 commit = self->cpu_used[cpu] - PAGE_HEADER;

  if (page == NULL || commit == 0)
    return TRUE;
  memcpy (page + 8, &commit, 8);
  memset (page + self->cpu_used[cpu], 0, self->page_size - self->cpu_used[cpu]);
  self->cpu_used[cpu] = 0;
  return iochart_dat_writer_add_pages (self, cpu, page, self->page_size, error);
}

static void
put_word (guint8 *at, guint32 v)
{
  memcpy (at, &v, 4);
}

gboolean
iochart_dat_writer_add_event (IochartDatWriter *self, guint cpu, guint64 ts_ns, const void *record,
                              gsize len, GError **error)
{
  gsize words = (len + 3) / 4, need;
  guint64 delta;
  guint8 *at;

  if (cpu >= self->n_cpus || len == 0 || words > TYPE_LEN_MAX_DATA
      || (self->cpu_page[cpu] != NULL && ts_ns < self->cpu_last_ns[cpu]))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "dat writer: an event of %" G_GSIZE_FORMAT " bytes at %" G_GUINT64_FORMAT
                   " ns on cpu %u: out of time order, of cpus or of 1-112 bytes", len, ts_ns, cpu);
      return FALSE;
    }
  if (self->cpu_page[cpu] == NULL)
    self->cpu_page[cpu] = g_malloc0 (self->page_size);
  delta = self->cpu_used[cpu] == 0 ? 0 : ts_ns - self->cpu_last_ns[cpu];
  need = 4 + words * 4 + (delta >> TIME_DELTA_BITS ? 8 : 0);
  if (self->cpu_used[cpu] + need > self->page_size && !flush_page (self, cpu, error))
    return FALSE;
  if (self->cpu_used[cpu] == 0)   /* a new page starts at its first event's time */
    {
      memcpy (self->cpu_page[cpu], &ts_ns, 8);
      self->cpu_used[cpu] = PAGE_HEADER;
      delta = 0;
    }
  at = self->cpu_page[cpu] + self->cpu_used[cpu];
  if (delta >> TIME_DELTA_BITS)
    {
      put_word (at, TYPE_TIME_EXTEND | (guint32) (delta & ((1u << TIME_DELTA_BITS) - 1)) << 5);
      put_word (at + 4, (guint32) (delta >> TIME_DELTA_BITS));
      at += 8;
      delta = 0;
    }
  put_word (at, (guint32) words | (guint32) delta << 5);
  memset (at + 4, 0, words * 4);
  memcpy (at + 4, record, len);
  self->cpu_used[cpu] = at + 4 + words * 4 - self->cpu_page[cpu];
  self->cpu_last_ns[cpu] = ts_ns;
  return TRUE;
}

/* ---- serialisation: host byte order, fixed widths ---- */

static void
put_u16 (GByteArray *out, guint16 v)
{
  g_byte_array_append (out, (const guint8 *) &v, 2);
}

static void
put_u32 (GByteArray *out, guint32 v)
{
  g_byte_array_append (out, (const guint8 *) &v, 4);
}

static void
put_u64 (GByteArray *out, guint64 v)
{
  g_byte_array_append (out, (const guint8 *) &v, 8);
}

static void
put_str0 (GByteArray *out, const char *s)
{
  g_byte_array_append (out, (const guint8 *) s, strlen (s) + 1);
}

/* size (4 or 8 bytes) then the text without its NUL */
static void
put_sized (GByteArray *out, const char *text, guint width)
{
  gsize len = text ? strlen (text) : 0;
  if (width == 4)
    put_u32 (out, len);
  else
    put_u64 (out, len);
  g_byte_array_append (out, (const guint8 *) (text ? text : ""), len);
}

static gboolean
write_failed (const char *path, GError **error)
{
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, g_strerror (errno));
  return FALSE;
}

/* "[mono]" from the tracefs trace_clock text "local global [mono] boot" (or a bare "mono"); NULL
 * for a text that names no clock (libtracecmd would give sscanf () a NULL string for "[]") */
static char *
clock_record (const char *text)
{
  const char *open = strchr (text, '['), *close = open ? strchr (open, ']') : NULL;
  g_autofree char *name = open && close ? g_strndup (open + 1, close - open - 1)
                                        : g_strndup (text, strcspn (text, " \n"));

  return *name && strpbrk (name, "[] \n") == NULL ? g_strdup_printf ("[%s]", name) : NULL;
}

/* Everything before the CPU data, with the CPU table as if the data followed at its offsets. */
static void
put_head (IochartDatWriter *self, GByteArray *out)
{
  guint8 endian = G_BYTE_ORDER == G_BIG_ENDIAN;
  guint8 long_size = sizeof (long);
  g_autofree char *clock = self->trace_clock != NULL ? clock_record (self->trace_clock) : NULL;

  g_byte_array_append (out, (const guint8 *) DAT_MAGIC, 10);
  put_str0 (out, "6");
  g_byte_array_append (out, &endian, 1);
  g_byte_array_append (out, &long_size, 1);
  put_u32 (out, self->page_size);

  put_str0 (out, "header_page");
  put_sized (out, self->header_page, 8);
  put_str0 (out, "header_event");
  put_sized (out, self->header_event, 8);

  put_u32 (out, self->ftrace_formats->len);
  for (guint i = 0; i < self->ftrace_formats->len; i++)
    put_sized (out, self->ftrace_formats->pdata[i], 8);

  put_u32 (out, self->systems->len);
  for (guint i = 0; i < self->systems->len; i++)
    {
      System *s = self->systems->pdata[i];
      put_str0 (out, s->system);
      put_u32 (out, s->formats->len);
      for (guint j = 0; j < s->formats->len; j++)
        put_sized (out, s->formats->pdata[j], 8);
    }

  put_sized (out, self->kallsyms, 4);
  put_sized (out, self->printk, 4);
  put_sized (out, self->cmdlines, 8);
  put_u32 (out, self->n_cpus);

  g_byte_array_append (out, (const guint8 *) "options  ", 10);
  if (clock != NULL)
    {
      put_u16 (out, OPTION_TRACECLOCK);
      put_u32 (out, strlen (self->trace_clock) + 1);
      put_str0 (out, self->trace_clock);
    }
  /* as trace-cmd does: one option per CPU, "CPU: N" then that CPU's tracefs stats file */
  for (guint i = 0; i < self->cpu_stats->len; i++)
    if (self->cpu_stats->pdata[i] != NULL)
      {
        g_autofree char *text = g_strdup_printf ("CPU: %u\n%s", i, (char *) self->cpu_stats->pdata[i]);
        put_u16 (out, OPTION_CPUSTAT);
        put_u32 (out, strlen (text) + 1);
        put_str0 (out, text);
      }
  put_u16 (out, OPTION_DONE);

  g_byte_array_append (out, (const guint8 *) "flyrecord", 10);
  /* each CPU's pages start on a page boundary after the table and the clock record */
  guint64 offset = out->len + self->n_cpus * 16 + (clock != NULL ? 8 + strlen (clock) : 0);
  for (guint i = 0; i < self->n_cpus; i++)
    {
      offset = (offset + self->page_size - 1) / self->page_size * self->page_size;
      put_u64 (out, offset);
      put_u64 (out, self->cpu_len[i]);
      offset += self->cpu_len[i];
    }
  /* The TRACECLOCK option tells libtracecmd that a v6 file holds the clock here, as trace-cmd's
   * save_clock () writes it: without it, libtracecmd took the padding, or the first page's
   * timestamp when the table ended less than 8 bytes before a page boundary, as its size. */
  if (clock != NULL)
    {
      put_u64 (out, strlen (clock));
      g_byte_array_append (out, (const guint8 *) clock, strlen (clock));
    }
}

static gboolean
copy_spool (FILE *spool, guint64 len, FILE *out)
{
  char buf[65536];

  if (len == 0)
    return TRUE;
  if (fflush (spool) != 0 || fseeko (spool, 0, SEEK_SET) != 0)
    return FALSE;
  while (len > 0)
    {
      size_t n = fread (buf, 1, MIN (len, sizeof buf), spool);
      if (n == 0 || fwrite (buf, 1, n, out) != n)
        return FALSE;
      len -= n;
    }
  return fseeko (spool, 0, SEEK_END) == 0;
}

/* Written to PATH.XXXXXX beside it, then renamed: a reader never sees half a file. */
gboolean
iochart_dat_writer_write (IochartDatWriter *self, const char *path, GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autofree char *tmp = g_strconcat (path, ".XXXXXX", NULL);
  static const guint8 zeros[65536];
  FILE *f;
  int fd;

  for (guint i = 0; i < self->n_cpus; i++)
    if (!flush_page (self, i, error))
      return FALSE;
  if (self->header_page == NULL || self->header_event == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': dat writer: no header_page/header_event", path);
      return FALSE;
    }
  put_head (self, out);
  if ((fd = g_mkstemp_full (tmp, O_WRONLY, 0644)) < 0)
    return write_failed (path, error);
  f = fdopen (fd, "w");
  gboolean ok = f != NULL && fwrite (out->data, 1, out->len, f) == out->len;
  guint64 pos = out->len;
  for (guint i = 0; ok && i < self->n_cpus; i++)
    {
      guint64 pad = (self->page_size - pos % self->page_size) % self->page_size;
      ok = fwrite (zeros, 1, pad, f) == pad
           && copy_spool (self->cpu_spool[i], self->cpu_len[i], f);
      pos += pad + self->cpu_len[i];
    }
  ok = ok && fflush (f) == 0 && fsync (fd) == 0;
  int saved = errno;
  if (f != NULL ? fclose (f) != 0 : close (fd) != 0)
    ok = FALSE;
  if (ok && g_rename (tmp, path) == 0)
    return TRUE;
  errno = ok ? errno : saved;
  write_failed (path, error);
  g_unlink (tmp);
  return FALSE;
}

/* ---- from tracefs ---- */

static char *
read_tracefs (const char *dir, const char *relative, GError **error)
{
  g_autofree char *path = g_build_filename (dir, relative, NULL);
  g_autoptr(GError) local = NULL;
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, &local))
    g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, local->message);
  return text;
}

static gboolean
add_event (IochartDatWriter *self, const char *tracing, const char *system, const char *event,
           GError **error)
{
  g_autofree char *rel = g_build_filename ("events", system, event, "format", NULL);
  g_autofree char *file = g_build_filename (tracing, rel, NULL);
  g_autofree char *format = NULL;

  if (!g_file_test (file, G_FILE_TEST_EXISTS))
    return TRUE;   /* no such event on this kernel */
  if ((format = read_tracefs (tracing, rel, error)) == NULL)
    return FALSE;
  iochart_dat_writer_add_format (self, system, format);
  return TRUE;
}

/* "system" adds every event of the system, "system/event" that one event. */
static gboolean
add_system (IochartDatWriter *self, const char *tracing, const char *entry, GError **error)
{
  g_auto(GStrv) parts = g_strsplit (entry, "/", 2);
  g_autofree char *dir = g_build_filename (tracing, "events", parts[0], NULL);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (parts[1] != NULL)
    return add_event (self, tracing, parts[0], parts[1], error);
  if ((d = g_dir_open (dir, 0, NULL)) == NULL)
    return TRUE;   /* no such system on this kernel */
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);   /* deterministic files */
  for (guint i = 0; i < names->len; i++)
    if (!add_event (self, tracing, parts[0], names->pdata[i], error))
      return FALSE;
  return TRUE;
}

gboolean
iochart_dat_writer_add_tracefs_metadata (IochartDatWriter *self, const char * const *systems,
                                         gboolean with_kallsyms, GError **error)
{
  const char *tracing = tracefs_tracing_dir ();
  g_autofree char *page = NULL, *event = NULL, *printk = NULL, *cmdlines = NULL;

  if (tracing == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "tracefs is not mounted");
      return FALSE;
    }
  if ((page = read_tracefs (tracing, "events/header_page", error)) == NULL
      || (event = read_tracefs (tracing, "events/header_event", error)) == NULL)
    return FALSE;
  iochart_dat_writer_set_headers (self, page, event);
  if (!add_system (self, tracing, "ftrace", error))
    return FALSE;
  for (guint i = 0; systems && systems[i]; i++)
    if (!add_system (self, tracing, systems[i], error))
      return FALSE;
  if ((printk = read_tracefs (tracing, "printk_formats", NULL)) != NULL)
    iochart_dat_writer_set_printk (self, printk);
  if ((cmdlines = read_tracefs (tracing, "saved_cmdlines", NULL)) != NULL)
    iochart_dat_writer_set_cmdlines (self, cmdlines);
  if (with_kallsyms)
    {
      g_autofree char *kallsyms = NULL;
      if (g_file_get_contents ("/proc/kallsyms", &kallsyms, NULL, NULL))
        iochart_dat_writer_set_kallsyms (self, kallsyms);
    }
  return TRUE;
}
