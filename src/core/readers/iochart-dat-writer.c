/* iochart-dat-writer.c: trace-cmd .dat version 6 (see the header) */
#include <string.h>
#include <tracefs.h>

#include "iochart-dat-writer.h"
#include "iochart-error.h"

#define DAT_MAGIC "\027\010\104tracing"   /* 10 bytes */

enum {
  OPTION_DONE = 0,
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
  GByteArray **cpu_data;
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
  self->cpu_data = g_new0 (GByteArray *, n_cpus);
  for (guint i = 0; i < n_cpus; i++)
    self->cpu_data[i] = g_byte_array_new ();
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
  for (guint i = 0; i < self->n_cpus; i++)
    g_byte_array_unref (self->cpu_data[i]);
  g_free (self->cpu_data);
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
  g_byte_array_append (self->cpu_data[cpu], pages, len);
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

gboolean
iochart_dat_writer_write (IochartDatWriter *self, const char *path, GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  g_autoptr(GError) local = NULL;
  guint8 endian = G_BYTE_ORDER == G_BIG_ENDIAN;

  if (self->header_page == NULL || self->header_event == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': dat writer: no header_page/header_event", path);
      return FALSE;
    }

  g_byte_array_append (out, (const guint8 *) DAT_MAGIC, 10);
  put_str0 (out, "6");
  g_byte_array_append (out, &endian, 1);
  guint8 long_size = sizeof (long);
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
  if (self->trace_clock != NULL)
    {
      put_u16 (out, OPTION_TRACECLOCK);
      put_u32 (out, strlen (self->trace_clock) + 1);
      put_str0 (out, self->trace_clock);
    }
  put_u16 (out, OPTION_DONE);

  g_byte_array_append (out, (const guint8 *) "flyrecord", 10);
  /* each CPU's pages start on a page boundary after the table */
  guint64 offset = out->len + self->n_cpus * 16;
  for (guint i = 0; i < self->n_cpus; i++)
    {
      offset = (offset + self->page_size - 1) / self->page_size * self->page_size;
      put_u64 (out, offset);
      put_u64 (out, self->cpu_data[i]->len);
      offset += self->cpu_data[i]->len;
    }
  for (guint i = 0; i < self->n_cpus; i++)
    {
      gsize aligned = (out->len + self->page_size - 1) / self->page_size * self->page_size;
      gsize pad = aligned - out->len;
      g_byte_array_set_size (out, aligned);
      memset (out->data + aligned - pad, 0, pad);
      g_byte_array_append (out, self->cpu_data[i]->data, self->cpu_data[i]->len);
    }

  if (!g_file_set_contents (path, (const char *) out->data, out->len, &local))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, local->message);
      return FALSE;
    }
  return TRUE;
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
add_system (IochartDatWriter *self, const char *tracing, const char *system, GError **error)
{
  g_autofree char *dir = g_build_filename (tracing, "events", system, NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return TRUE;   /* no such system on this kernel */
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);   /* deterministic files */
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *rel = g_build_filename ("events", system, names->pdata[i], "format", NULL);
      g_autofree char *file = g_build_filename (tracing, rel, NULL);
      if (!g_file_test (file, G_FILE_TEST_EXISTS))
        continue;
      g_autofree char *format = read_tracefs (tracing, rel, error);
      if (format == NULL)
        return FALSE;
      iochart_dat_writer_add_format (self, system, format);
    }
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
