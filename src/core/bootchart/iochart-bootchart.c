/* iochart-bootchart.c: the bootchart model, loading from a folder or an archive */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "iochart-bootchart-private.h"
#include "iochart-capture-private.h"
#include "iochart-error.h"
#include "analysis/iochart-steal.h"

G_DEFINE_FINAL_TYPE (IochartBootchart, iochart_bootchart, G_TYPE_OBJECT)

/* Larger members are not bootchart logs: refuse rather than exhaust memory. */
#define MAX_MEMBER_SIZE (G_GINT64_CONSTANT (1) << 30)
/* Bootchart logs compress 10-30 times: members may inflate to 100 times the archive (at least
 * 64 MiB, at most MAX_MEMBER_SIZE in all), and a sparse hole is never part of a log. */
#define MAX_RATIO       100
#define MIN_ALLOWED     (G_GUINT64_CONSTANT (64) << 20)
#define MAX_HOLE        (1u << 20)

static const char * const member_kinds[] = {
  "header", "proc_stat.log", "proc_diskstats.log", "proc_ps.log", "taskstats.log",
  "proc_meminfo.log", "cmdline2.log", "paternity.log", "kernel_pacct", "dmesg",
};

static void
initcall_clear (gpointer data)
{
  IochartBootchartInitcall *c = data;
  g_free (c->name);
}

static void
iochart_bootchart_finalize (GObject *object)
{
  IochartBootchart *self = IOCHART_BOOTCHART (object);

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->members, g_hash_table_unref);
  g_clear_pointer (&self->member_paths, g_hash_table_unref);
  g_clear_pointer (&self->header, g_hash_table_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  g_clear_pointer (&self->tree, g_ptr_array_unref);
  g_clear_pointer (&self->tree_nodes, g_ptr_array_unref);
  g_clear_pointer (&self->by_pid, g_hash_table_unref);
  g_clear_pointer (&self->parent_map, g_hash_table_unref);
  g_clear_pointer (&self->pacct_map, g_hash_table_unref);
  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->logger_name, g_free);
  g_clear_pointer (&self->cpu_samples, g_array_unref);
  g_clear_pointer (&self->disks, g_ptr_array_unref);
  g_clear_pointer (&self->mem_samples, g_array_unref);
  g_clear_pointer (&self->initcalls, g_array_unref);

  G_OBJECT_CLASS (iochart_bootchart_parent_class)->finalize (object);
}

static void
iochart_bootchart_class_init (IochartBootchartClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = iochart_bootchart_finalize;
}

static void
disk_free (gpointer data)
{
  IochartBootchartDisk *d = data;
  g_free (d->name);
  g_clear_pointer (&d->samples, g_array_unref);
  g_free (d);
}

static void
iochart_bootchart_init (IochartBootchart *self)
{
  self->members = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) g_bytes_unref);
  self->member_paths = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  self->header = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->processes = g_ptr_array_new_with_free_func ((GDestroyNotify) _iochart_bootchart_process_free);
  self->by_pid = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  self->parent_map = g_hash_table_new (NULL, NULL);
  self->pacct_map = g_hash_table_new (NULL, NULL);
  self->tree = g_ptr_array_new ();
  self->tree_nodes = g_ptr_array_new_with_free_func ((GDestroyNotify) _iochart_bootchart_process_free);
  self->tree_flags = IOCHART_BOOTCHART_TREE_DEFAULT;
  self->cpu_samples = g_array_new (FALSE, FALSE, sizeof (IochartBootchartCpuSample));
  self->disks = g_ptr_array_new_with_free_func (disk_free);
  self->mem_samples = g_array_new (FALSE, FALSE, sizeof (IochartBootchartMemSample));
  self->initcalls = g_array_new (FALSE, FALSE, sizeof (IochartBootchartInitcall));
  g_array_set_clear_func (self->initcalls, initcall_clear);
}

IochartBootchartProcess *
_iochart_bootchart_process_new (gint32 pid, guint n_samples)
{
  IochartBootchartProcess *p = g_new0 (IochartBootchartProcess, 1);
  p->pid = pid;
  p->ppid = -1;
  p->cpu_ns = -1;
  p->blkio_delay_ns = -1;
  p->children = g_ptr_array_new ();
  p->samples = g_array_sized_new (FALSE, FALSE, sizeof (IochartBootchartProcSample), n_samples);
  return p;
}

void
_iochart_bootchart_process_free (IochartBootchartProcess *p)
{
  if (p == NULL)
    return;
  g_free (p->cmd);
  g_free (p->exe);
  g_strfreev (p->args);
  g_clear_pointer (&p->children, g_ptr_array_unref);
  g_clear_pointer (&p->samples, g_array_unref);
  g_free (p);
}

void
_iochart_bootchart_warn (IochartBootchart *self, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_ptr_array_add (self->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

IochartBootchart *
_iochart_bootchart_new (const char *path)
{
  IochartBootchart *self = g_object_new (IOCHART_TYPE_BOOTCHART, NULL);
  self->path = g_strdup (path);
  return self;
}

const char *
_iochart_bootchart_member_kind (const char *archive_path)
{
  const char *p = archive_path;

  while (g_str_has_prefix (p, "./") || *p == '/')
    p += (*p == '/') ? 1 : 2;
  const char *slash = strchr (p, '/');
  if (slash != NULL)
    {
      /* one folder at most: "bootchart/proc_ps.log" */
      p = slash + 1;
      if (strchr (p, '/') != NULL)
        return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (member_kinds); i++)
    if (strcmp (p, member_kinds[i]) == 0)
      return member_kinds[i];
  return NULL;
}

gboolean
_iochart_bootchart_add_member (IochartBootchart *self, const char *name, GBytes *data,
                               GError **error)
{
  const char *kind = _iochart_bootchart_member_kind (name);

  if (kind == NULL)
    return TRUE;
  if (g_hash_table_contains (self->members, kind))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                   "'%s': two '%s' in one bootchart capture ('%s' and '%s')", self->path, kind,
                   (const char *) g_hash_table_lookup (self->member_paths, kind), name);
      return FALSE;
    }
  g_hash_table_insert (self->members, (gpointer) kind, g_bytes_ref (data));
  g_hash_table_insert (self->member_paths, (gpointer) kind, g_strdup (name));
  return TRUE;
}

typedef gboolean (*TextParser) (IochartBootchart *, const char *, gsize, GError **);

/* Prefixes a parser's message with the capture's path when the member sits in an archive. */
static gboolean
run_parser (IochartBootchart *self, const char *kind, TextParser parser, GError **error)
{
  GBytes *bytes = g_hash_table_lookup (self->members, kind);
  gsize len;
  const char *data;
  g_autoptr(GError) local = NULL;

  if (bytes == NULL)
    return TRUE;
  data = g_bytes_get_data (bytes, &len);
  if (parser (self, data ? data : "", len, &local))
    return TRUE;
  g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ",
                              self->path ? self->path : "bootchart");
  return FALSE;
}

static IochartBootchartProcess *
find_process (IochartBootchart *self, gint32 pid, gint64 at_ns)
{
  GPtrArray *same = g_hash_table_lookup (self->by_pid, GINT_TO_POINTER (pid));
  IochartBootchartProcess *best = NULL;

  if (same == NULL)
    return NULL;
  /* a reused pid: the latest process with it started before at_ns */
  for (guint i = 0; i < same->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (same, i);
      if (best == NULL || p->start_ns <= at_ns)
        best = p;
    }
  return best;
}

static int compare_processes (gconstpointer a, gconstpointer b);

static gboolean
is_ancestor (IochartBootchartProcess *maybe, IochartBootchartProcess *p)
{
  for (; p != NULL; p = p->parent)
    if (p == maybe)
      return TRUE;
  return FALSE;
}

static gboolean
lookup_parent (GHashTable *map, gint32 pid, gint32 *ppid)
{
  gpointer value;
  if (!g_hash_table_lookup_extended (map, GINT_TO_POINTER (pid), NULL, &value))
    return FALSE;
  *ppid = GPOINTER_TO_INT (value);
  return TRUE;
}

static gboolean
is_known (IochartBootchart *self, gint32 pid)
{
  return g_hash_table_contains (self->by_pid, GINT_TO_POINTER (pid));
}

/* Parents. paternity.log is exact. Otherwise /proc's ppid at first sighting, unless it is init
 * (maybe reparented) or was never sampled: then kernel_pacct's, recorded at exit, and a parent
 * too short-lived to be sampled is skipped for its own parent, as bootchart2 does. */
static gint32
resolve_ppid (IochartBootchart *self, IochartBootchartProcess *p)
{
  gint32 q = p->ppid, r;

  if (lookup_parent (self->parent_map, p->pid, &r))
    q = r;
  else if ((q <= 1 || !is_known (self, q)) && lookup_parent (self->pacct_map, p->pid, &r) && r > 1)
    q = r;
  for (guint guard = 0; guard < 256 && q > 1 && !is_known (self, q); guard++)
    {
      if (!lookup_parent (self->parent_map, q, &r) && !lookup_parent (self->pacct_map, q, &r))
        break;
      q = r;
    }
  return q;
}

static void
resolve_parents (IochartBootchart *self)
{
  for (guint i = 0; i < self->processes->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (self->processes, i);

      p->ppid = resolve_ppid (self, p);
      IochartBootchartProcess *parent = p->ppid > 0 ? find_process (self, p->ppid, p->start_ns) : NULL;
      if (parent != NULL && !is_ancestor (p, parent))
        {
          p->parent = parent;
          g_ptr_array_add (parent->children, p);
        }
    }
}

static gint32
max_pid (IochartBootchartProcess *p)
{
  gint32 m = p->pid;
  for (guint i = 0; i < p->children->len; i++)
    m = MAX (m, max_pid (g_ptr_array_index (p->children, i)));
  return m;
}

/* SysV rc starts daemons through runuser/start-stop-daemon, which double-fork: the daemons
 * show ppid 1. Without exact parentage, give rc the ppid-1 processes started while its own
 * children were (bootchart does the same). */
static void
adopt_rc_daemons (IochartBootchart *self)
{
  IochartBootchartProcess *rc = NULL;
  gint32 rc_end = -1;

  for (guint i = 0; i < self->processes->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (self->processes, i);
      if (p->ppid == 1 && strcmp (p->cmd, "rc") == 0 && p->children->len > 0)
        {
          rc = p;
          rc_end = max_pid (p);
        }
    }
  if (rc == NULL)
    return;
  for (guint i = 0; i < self->processes->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (self->processes, i);
      if (p->pid <= rc->pid || p->pid >= rc_end || p->ppid != 1 || is_ancestor (p, rc))
        continue;
      if (p->parent != NULL)
        g_ptr_array_remove (p->parent->children, p);
      p->parent = rc;
      p->ppid = rc->pid;
      g_ptr_array_add (rc->children, p);
    }
  g_ptr_array_sort (rc->children, compare_processes);
}

static int
compare_processes (gconstpointer a, gconstpointer b)
{
  const IochartBootchartProcess *p = *(IochartBootchartProcess * const *) a;
  const IochartBootchartProcess *q = *(IochartBootchartProcess * const *) b;
  if (p->pid != q->pid)
    return p->pid < q->pid ? -1 : 1;
  return (p->start_ns > q->start_ns) - (p->start_ns < q->start_ns);
}

static guint
cpus_from_header (IochartBootchart *self)
{
  const char *cpu = g_hash_table_lookup (self->header, "system.cpu");
  const char *open = cpu ? strrchr (cpu, '(') : NULL;
  g_autofree char *digits = open ? g_strndup (open + 1, strcspn (open + 1, ")")) : NULL;
  guint64 n;

  if (digits && g_ascii_string_to_unsigned (digits, 10, 1, 4096, &n, NULL))
    return n;
  return 0;
}

gboolean
_iochart_bootchart_finish (IochartBootchart *self, GError **error)
{
  static const struct { const char *kind; TextParser parser; } text_parsers[] = {
    { "header", _iochart_bootchart_parse_header },
    { "proc_stat.log", _iochart_bootchart_parse_proc_stat },
    { "proc_diskstats.log", _iochart_bootchart_parse_diskstats },
    { "proc_meminfo.log", _iochart_bootchart_parse_meminfo },
    { "proc_ps.log", _iochart_bootchart_parse_proc_ps },
    { "taskstats.log", _iochart_bootchart_parse_taskstats },   /* after proc_ps.log */
    { "cmdline2.log", _iochart_bootchart_parse_cmdline2 },
    { "paternity.log", _iochart_bootchart_parse_paternity },   /* before kernel_pacct */
    { "dmesg", _iochart_bootchart_parse_dmesg },
  };

  if (!g_hash_table_contains (self->members, "proc_ps.log")
      && !g_hash_table_contains (self->members, "taskstats.log"))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY,
                   "'%s': no proc_ps.log or taskstats.log: not a bootchart capture", self->path);
      return FALSE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (text_parsers); i++)
    if (!run_parser (self, text_parsers[i].kind, text_parsers[i].parser, error))
      return FALSE;
  GBytes *pacct = g_hash_table_lookup (self->members, "kernel_pacct");
  if (pacct != NULL)
    {
      gsize len;
      const guint8 *data = g_bytes_get_data (pacct, &len);
      g_autoptr(GError) local = NULL;
      if (!_iochart_bootchart_parse_pacct (self, data, len, &local))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", self->path);
          return FALSE;
        }
    }

  if (self->processes->len == 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_EMPTY,
                   "'%s': no process sample could be read", self->path);
      return FALSE;
    }

  self->period_ns = self->n_samples > 1
                    ? (self->end_ns - self->start_ns) / (self->n_samples - 1) : 0;
  /* The parsers left the last sighting in duration_ns: the lifetime observed. The process
   * ended before the next sample; drawing may add that uncertainty, the model does not guess. */
  for (guint i = 0; i < self->processes->len; i++)
    {
      IochartBootchartProcess *p = g_ptr_array_index (self->processes, i);
      p->duration_ns = MAX (p->duration_ns - p->start_ns, 0);
    }

  if (self->n_cpus == 0)
    self->n_cpus = cpus_from_header (self);
  if (self->n_cpus == 0)
    self->n_cpus = 1;

  g_ptr_array_sort (self->processes, compare_processes);
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, self->by_pid);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_ptr_array_sort (value, compare_processes);
  resolve_parents (self);
  /* kernel_pacct cannot help there: it records daemons' parents after they were orphaned */
  if (g_hash_table_size (self->parent_map) == 0)
    adopt_rc_daemons (self);

  _iochart_bootchart_build_tree (self);
  /* the raw logs are not needed any more */
  g_hash_table_remove_all (self->members);
  return TRUE;
}

/* ---- loading ---- */

/* A member that is a symlink may point inside the capture folder, never out of it (a capture
 * from elsewhere must not read, or quote, /etc/passwd). */
static gboolean
inside_folder (const char *folder_real, const char *file)
{
  g_autofree char *real = NULL;

  if (!g_file_test (file, G_FILE_TEST_IS_SYMLINK))
    return TRUE;
  real = realpath (file, NULL);
  return real != NULL && folder_real != NULL && g_str_has_prefix (real, folder_real) &&
         real[strlen (folder_real)] == G_DIR_SEPARATOR;
}

static gboolean
load_folder (IochartBootchart *self, const char *path, GError **error)
{
  g_autofree char *folder_real = realpath (path, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (member_kinds); i++)
    {
      g_autofree char *file = g_build_filename (path, member_kinds[i], NULL);
      g_autoptr(GMappedFile) map = NULL;
      g_autoptr(GError) local = NULL;

      if (!g_file_test (file, G_FILE_TEST_IS_REGULAR))
        continue;
      if (!inside_folder (folder_real, file))
        {
          _iochart_bootchart_warn (self, "'%s': a symlink out of the capture folder: not read", file);
          continue;
        }
      /* mapped, not read: read() into fresh memory faults on every page it fills, and on this
       * kind of machine a fault costs more than parsing the page; the mapping is made whole at
       * once (xrmx-examples-1: `--svg` 1,308 -> 961 faults) */
      if ((map = g_mapped_file_new (file, FALSE, &local)) == NULL)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", file, local->message);
          return FALSE;
        }
      if (g_mapped_file_get_length (map) > 0)
        _iochart_map_for_reading (g_mapped_file_get_contents (map), g_mapped_file_get_length (map));
      g_autoptr(GBytes) bytes = g_mapped_file_get_bytes (map);
      if (!_iochart_bootchart_add_member (self, member_kinds[i], bytes, error))
        return FALSE;
    }
  return TRUE;
}

static guint64
inflate_limit (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0 || st.st_size <= 0)
    return MIN_ALLOWED;
  return CLAMP ((guint64) st.st_size * MAX_RATIO, MIN_ALLOWED, (guint64) MAX_MEMBER_SIZE);
}

/* NULL with *why set when the file is not an archive libarchive reads. */
static struct archive *
open_archive (const char *path, char **why)
{
  struct archive *a = archive_read_new ();
  archive_read_support_filter_all (a);
  archive_read_support_format_tar (a);
  archive_read_support_format_gnutar (a);
  if (archive_read_open_filename (a, path, 64 * 1024) != ARCHIVE_OK)
    {
      if (why != NULL)
        *why = g_strdup (archive_error_string (a) ? archive_error_string (a) : "unknown error");
      archive_read_free (a);
      return NULL;
    }
  return a;
}

static gboolean
load_archive (IochartBootchart *self, const char *path, GError **error)
{
  g_autofree char *why = NULL;
  struct archive *a = open_archive (path, &why);
  struct archive_entry *entry;
  guint n_entries = 0;
  int r;
  gboolean ok = FALSE;
  guint64 total = 0, limit = inflate_limit (path);

  if (a == NULL)
    {
      int code = g_access (path, R_OK) == 0 ? IOCHART_ERROR_BAD_CAPTURE : IOCHART_ERROR_IO;
      g_set_error (error, IOCHART_ERROR, code, "'%s': not a bootchart folder or archive: %s",
                   path, why);
      return FALSE;
    }
  while ((r = archive_read_next_header (a, &entry)) == ARCHIVE_OK || r == ARCHIVE_WARN)
    {
      const char *name = archive_entry_pathname (entry);
      gint64 size = archive_entry_size (entry);
      n_entries++;
      if (name == NULL || archive_entry_filetype (entry) != AE_IFREG
          || _iochart_bootchart_member_kind (name) == NULL)
        continue;
      if (size > (gint64) limit)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                       "'%s': member '%s' is too large (%" G_GINT64_FORMAT " bytes)", path, name,
                       size);
          goto out;
        }
      /* what the header claims is not allocated ahead: a 262-byte archive may claim 1 GiB */
      g_autoptr(GByteArray) buf = g_byte_array_sized_new (size > 0 ? MIN (size, 1 << 20) : 4096);
      const void *block;
      size_t block_len;
      la_int64_t offset;
      int got;
      /* blocks, not archive_read_data(): a cut member still gives what the archive holds */
      while ((got = archive_read_data_block (a, &block, &block_len, &offset)) == ARCHIVE_OK)
        {
          if (offset < 0 || offset + block_len > MAX_MEMBER_SIZE)
            break;
          guint had = buf->len;
          if ((guint64) offset > had + MAX_HOLE)
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                           "'%s': member '%s' is sparse (a hole after %u bytes): not a bootchart log",
                           path, name, had);
              goto out;
            }
          if (total + offset + block_len > limit)
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                           "'%s': members inflate past %" G_GUINT64_FORMAT " MiB at '%s' (100 times the "
                           "archive's size, at most 1 GiB): not a bootchart capture", path, limit >> 20, name);
              goto out;
            }
          if ((guint64) offset > had)
            {
              g_byte_array_set_size (buf, offset);   /* a sparse hole reads as zeros */
              memset (buf->data + had, 0, offset - had);
            }
          buf->len = offset;
          g_byte_array_append (buf, block, block_len);
        }
      got = got == ARCHIVE_EOF ? 0 : -1;
      if (got < 0)
        /* a cut archive: the member's text parser drops its incomplete tail */
        _iochart_bootchart_warn (self, "'%s': '%s' cut after %u bytes: its last record is dropped", path, name,
                                 buf->len);
      total += buf->len;
      g_autoptr(GBytes) bytes = g_byte_array_free_to_bytes (g_steal_pointer (&buf));
      if (!_iochart_bootchart_add_member (self, name, bytes, error))
        goto out;
      if (got < 0)
        break;
    }
  if (r == ARCHIVE_FATAL)
    {
      if (n_entries == 0)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                       "'%s': not a readable archive: %s", path, archive_error_string (a));
          goto out;
        }
      /* libarchive's own words ("Truncated input file (needed 626688 bytes...") say no more */
      _iochart_bootchart_warn (self, "'%s': archive cut or damaged after %u members: the rest is lost", path,
                               n_entries);
    }
  ok = TRUE;
out:
  archive_read_free (a);
  return ok;
}

gboolean
iochart_bootchart_sniff_path (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      const char *marks[] = { "header", "proc_ps.log", "taskstats.log" };
      for (guint i = 0; i < G_N_ELEMENTS (marks); i++)
        {
          g_autofree char *file = g_build_filename (path, marks[i], NULL);
          if (g_file_test (file, G_FILE_TEST_IS_REGULAR))
            return TRUE;
        }
      return FALSE;
    }

  /* a pipe read here would be empty for the reader after us */
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return FALSE;
  struct archive *a = open_archive (path, NULL);
  struct archive_entry *entry;
  gboolean found = FALSE;
  if (a == NULL)
    return FALSE;
  /* the logs come first in every collector's tarball; a few entries are enough */
  for (guint i = 0; i < 32 && !found && archive_read_next_header (a, &entry) == ARCHIVE_OK; i++)
    {
      const char *name = archive_entry_pathname (entry);
      found = name != NULL && _iochart_bootchart_member_kind (name) != NULL;
    }
  archive_read_free (a);
  return found;
}

IochartBootchart *
iochart_bootchart_load (const char *path, GError **error)
{
  g_autoptr(IochartBootchart) self = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': no such file or folder", path);
      return NULL;
    }
  self = _iochart_bootchart_new (path);
  if (g_file_test (path, G_FILE_TEST_IS_DIR) ? !load_folder (self, path, error)
                                              : !load_archive (self, path, error))
    return NULL;
  if (!_iochart_bootchart_finish (self, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* ---- accessors ---- */

const char *
iochart_bootchart_get_path (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->path;
}

GHashTable *
iochart_bootchart_get_header (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->header;
}

const char *
iochart_bootchart_get_header_value (IochartBootchart *self, const char *key)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return g_hash_table_lookup (self->header, key);
}

guint
iochart_bootchart_get_n_cpus (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), 1);
  return self->n_cpus;
}

gint64
iochart_bootchart_get_start_ns (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), 0);
  return self->start_ns;
}

gint64
iochart_bootchart_get_end_ns (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), 0);
  return self->end_ns;
}

gint64
iochart_bootchart_get_sample_period_ns (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), 0);
  return self->period_ns;
}

guint
iochart_bootchart_get_n_samples (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), 0);
  return self->n_samples;
}

GPtrArray *
iochart_bootchart_get_warnings (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->warnings;
}

GPtrArray *
iochart_bootchart_get_processes (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->processes;
}

GPtrArray *
iochart_bootchart_get_tree (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->tree;
}

IochartBootchartTreeFlags
iochart_bootchart_get_tree_flags (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), 0);
  return self->tree_flags;
}

void
iochart_bootchart_set_tree_flags (IochartBootchart *self, IochartBootchartTreeFlags flags)
{
  g_return_if_fail (IOCHART_IS_BOOTCHART (self));
  self->tree_flags = flags & IOCHART_BOOTCHART_TREE_DEFAULT;
  _iochart_bootchart_build_tree (self);
}

void
iochart_bootchart_set_logger_name (IochartBootchart *self, const char *name)
{
  g_return_if_fail (IOCHART_IS_BOOTCHART (self));
  g_free (self->logger_name);
  self->logger_name = g_strdup (name);
  _iochart_bootchart_build_tree (self);
}

GArray *
iochart_bootchart_get_cpu_samples (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->cpu_samples;
}

GPtrArray *
iochart_bootchart_get_disks (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->disks;
}

IochartBootchartDisk *
iochart_bootchart_get_main_disk (IochartBootchart *self)
{
  IochartBootchartDisk *best = NULL;

  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  for (guint i = 0; i < self->disks->len; i++)
    {
      IochartBootchartDisk *d = g_ptr_array_index (self->disks, i);
      if (best == NULL || d->read_bytes + d->written_bytes > best->read_bytes + best->written_bytes)
        best = d;
    }
  return best;
}

int
iochart_bootchart_io_device (IochartBootchart *self, IochartCapture *io)
{
  IochartBootchartDisk *disk;
  int d = -1;

  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), -1);
  g_return_val_if_fail (io != NULL, -1);
  disk = iochart_bootchart_get_main_disk (self);
  if (disk)
    d = iochart_capture_find_device (io, IOCHART_DEV_MAKE (disk->major, disk->minor));
  return d >= 0 ? d : iochart_steal_pick_device (io);
}

GArray *
iochart_bootchart_get_mem_samples (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->mem_samples;
}

GArray *
iochart_bootchart_get_initcalls (IochartBootchart *self)
{
  g_return_val_if_fail (IOCHART_IS_BOOTCHART (self), NULL);
  return self->initcalls;
}

/* ---- info and JSON ---- */

static guint
count_nodes (GPtrArray *list)
{
  guint n = list->len;
  for (guint i = 0; i < list->len; i++)
    n += count_nodes (((IochartBootchartProcess *) g_ptr_array_index (list, i))->children);
  return n;
}

static void
print_header_line (IochartBootchart *self, FILE *out, const char *label, const char *key)
{
  const char *value = g_hash_table_lookup (self->header, key);
  g_autofree char *one_line = NULL;

  if (value == NULL || *value == '\0')
    return;
  one_line = g_strdup (value);
  g_strdelimit (one_line, "\n\t", ' ');
  fprintf (out, "  %-15s %s\n", label, one_line);
}

void
iochart_bootchart_print_info (IochartBootchart *self, FILE *out)
{
  g_return_if_fail (IOCHART_IS_BOOTCHART (self));
  g_return_if_fail (out != NULL);

  fprintf (out, "%s: bootchart capture\n", self->path);
  print_header_line (self, out, "title:", "title");
  print_header_line (self, out, "collector:", "version");
  print_header_line (self, out, "uname:", "system.uname");
  print_header_line (self, out, "release:", "system.release");
  print_header_line (self, out, "cpu:", "system.cpu");
  print_header_line (self, out, "kernel options:", "system.kernel.options");
  fprintf (out, "  %-15s %u\n", "cpus:", self->n_cpus);
  fprintf (out, "  %-15s %u, from %.2f s to %.2f s after boot, every %.3f s\n", "samples:",
           self->n_samples, self->start_ns / 1e9, self->end_ns / 1e9, self->period_ns / 1e9);
  fprintf (out, "  %-15s %u read, %u in the tree shown\n", "processes:",
           self->processes->len, count_nodes (self->tree));
  for (guint i = 0; i < self->disks->len; i++)
    {
      IochartBootchartDisk *d = g_ptr_array_index (self->disks, i);
      g_autofree char *r = g_format_size (d->read_bytes);
      g_autofree char *w = g_format_size (d->written_bytes);
      fprintf (out, "  %-15s %s (%u:%u): %s read, %s written\n", i == 0 ? "disks:" : "",
               d->name, d->major, d->minor, r, w);
    }
  if (self->mem_samples->len > 0)
    fprintf (out, "  %-15s %u samples\n", "memory:", self->mem_samples->len);
  if (self->initcalls->len > 0)
    fprintf (out, "  %-15s %u\n", "initcalls:", self->initcalls->len);
  if (g_hash_table_size (self->parent_map) + g_hash_table_size (self->pacct_map) > 0)
    fprintf (out, "  %-15s %u links from paternity.log, %u from kernel_pacct\n", "parents:",
             g_hash_table_size (self->parent_map), g_hash_table_size (self->pacct_map));
  for (guint i = 0; i < self->warnings->len; i++)
    fprintf (out, "  warning: %s\n", (const char *) g_ptr_array_index (self->warnings, i));
}

static void
process_to_json (IochartBootchartProcess *p, JsonBuilder *b)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "pid");
  json_builder_add_int_value (b, p->pid);
  json_builder_set_member_name (b, "ppid");
  json_builder_add_int_value (b, p->ppid);
  json_builder_set_member_name (b, "cmd");
  json_builder_add_string_value (b, p->cmd);
  if (p->exe != NULL)
    {
      json_builder_set_member_name (b, "exe");
      json_builder_add_string_value (b, p->exe);
    }
  if (p->args != NULL)
    {
      json_builder_set_member_name (b, "args");
      json_builder_begin_array (b);
      for (char **a = p->args; *a; a++)
        json_builder_add_string_value (b, *a);
      json_builder_end_array (b);
    }
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, p->start_ns);
  json_builder_set_member_name (b, "duration_ns");
  json_builder_add_int_value (b, p->duration_ns);
  json_builder_set_member_name (b, "active");
  json_builder_add_boolean_value (b, p->active);
  if (p->n_merged > 0)
    {
      json_builder_set_member_name (b, "merged");
      json_builder_add_int_value (b, p->n_merged);
    }
  double cpu_s = 0;
  for (guint i = 1; i < p->samples->len; i++)
    {
      IochartBootchartProcSample *s = &g_array_index (p->samples, IochartBootchartProcSample, i);
      IochartBootchartProcSample *prev = s - 1;
      cpu_s += (s->user + s->sys) * (s->time_ns - prev->time_ns) / 1e9;
    }
  json_builder_set_member_name (b, "cpu_s");
  json_builder_add_double_value (b, cpu_s);
  if (p->blkio_delay_ns >= 0)
    {
      json_builder_set_member_name (b, "blkio_delay_ns");
      json_builder_add_int_value (b, p->blkio_delay_ns);
    }
  if (p->children->len > 0)
    {
      json_builder_set_member_name (b, "children");
      json_builder_begin_array (b);
      for (guint i = 0; i < p->children->len; i++)
        process_to_json (g_ptr_array_index (p->children, i), b);
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

void
iochart_bootchart_to_json (IochartBootchart *self, JsonBuilder *b)
{
  g_autoptr(GList) keys = NULL;

  g_return_if_fail (IOCHART_IS_BOOTCHART (self));
  g_return_if_fail (JSON_IS_BUILDER (b));

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, "bootchart");
  json_builder_set_member_name (b, "path");
  json_builder_add_string_value (b, self->path);

  json_builder_set_member_name (b, "header");
  json_builder_begin_object (b);
  keys = g_list_sort (g_hash_table_get_keys (self->header), (GCompareFunc) strcmp);
  for (GList *k = keys; k; k = k->next)
    {
      json_builder_set_member_name (b, k->data);
      json_builder_add_string_value (b, g_hash_table_lookup (self->header, k->data));
    }
  json_builder_end_object (b);

  json_builder_set_member_name (b, "n_cpus");
  json_builder_add_int_value (b, self->n_cpus);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, self->start_ns);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, self->end_ns);
  json_builder_set_member_name (b, "sample_period_ns");
  json_builder_add_int_value (b, self->period_ns);
  json_builder_set_member_name (b, "n_samples");
  json_builder_add_int_value (b, self->n_samples);
  json_builder_set_member_name (b, "n_processes");
  json_builder_add_int_value (b, self->processes->len);

  /* [time_ns, user, sys, iowait] per sample */
  json_builder_set_member_name (b, "cpu");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->cpu_samples->len; i++)
    {
      IochartBootchartCpuSample *s = &g_array_index (self->cpu_samples, IochartBootchartCpuSample, i);
      json_builder_begin_array (b);
      json_builder_add_int_value (b, s->time_ns);
      json_builder_add_double_value (b, s->user);
      json_builder_add_double_value (b, s->sys);
      json_builder_add_double_value (b, s->iowait);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);

  /* per disk: [time_ns, read B/s, write B/s, util] per sample */
  json_builder_set_member_name (b, "disks");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->disks->len; i++)
    {
      IochartBootchartDisk *d = g_ptr_array_index (self->disks, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, d->name);
      json_builder_set_member_name (b, "read_bytes");
      json_builder_add_int_value (b, d->read_bytes);
      json_builder_set_member_name (b, "written_bytes");
      json_builder_add_int_value (b, d->written_bytes);
      json_builder_set_member_name (b, "samples");
      json_builder_begin_array (b);
      for (guint j = 0; j < d->samples->len; j++)
        {
          IochartBootchartDiskSample *s = &g_array_index (d->samples, IochartBootchartDiskSample, j);
          json_builder_begin_array (b);
          json_builder_add_int_value (b, s->time_ns);
          json_builder_add_double_value (b, s->read_bytes_per_s);
          json_builder_add_double_value (b, s->write_bytes_per_s);
          json_builder_add_double_value (b, s->util);
          json_builder_end_array (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  if (self->initcalls->len > 0)
    {
      json_builder_set_member_name (b, "initcalls");
      json_builder_begin_array (b);
      for (guint i = 0; i < self->initcalls->len; i++)
        {
          IochartBootchartInitcall *c = &g_array_index (self->initcalls, IochartBootchartInitcall, i);
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, c->name);
          json_builder_set_member_name (b, "start_ns");
          json_builder_add_int_value (b, c->start_ns);
          json_builder_set_member_name (b, "duration_ns");
          json_builder_add_int_value (b, c->duration_ns);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
    }

  json_builder_set_member_name (b, "tree");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->tree->len; i++)
    process_to_json (g_ptr_array_index (self->tree, i), b);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; i < self->warnings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (self->warnings, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* ---- the block I/O of the same boot ---- */

static int
offset_cmp (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static gint64
median (GArray *v)
{
  g_array_sort (v, offset_cmp);
  return g_array_index (v, gint64, v->len / 2);
}

/* A .dat recorded with clock mono shares the samples' uptime; otherwise the processes both saw
 * start give the offset, else the two starts are matched (a guess, which the header says). */
char *
iochart_bootchart_align_io (IochartBootchart *self, IochartCapture *io, gint64 *offset_ns)
{
  gint64 cs = iochart_capture_get_start_ns (io), ce = iochart_capture_get_end_ns (io);
  gint64 bs = self->start_ns, be = self->end_ns;
  gint64 slack = 10 * G_GINT64_CONSTANT (1000000000);
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gint64));

  if (cs < be + slack && ce > bs - slack)
    {
      *offset_ns = 0;
      return g_strdup ("same clock as the samples");
    }
  for (guint i = 0; i < iochart_capture_get_n_processes (io); i++)
    {
      const IochartProcess *p = iochart_capture_get_process (io, i);
      GPtrArray *same = g_hash_table_lookup (self->by_pid, GINT_TO_POINTER (p->pid));

      if (p->start_ns == IOCHART_TIME_UNKNOWN || same == NULL || p->comm == NULL)
        continue;
      for (guint k = 0; k < same->len; k++)
        {
          IochartBootchartProcess *b = g_ptr_array_index (same, k);
          if (strncmp (b->cmd, p->comm, 15) == 0)
            {
              gint64 off = b->start_ns - p->start_ns;
              g_array_append_val (offsets, off);
              break;
            }
        }
    }
  if (offsets->len >= 2)
    {
      *offset_ns = median (offsets);
      return g_strdup_printf ("clocks differ: aligned by %u processes' starts", offsets->len);
    }
  *offset_ns = bs - cs;
  return g_strdup ("clocks differ and no process is in both: starts aligned (a guess)");
}


/* ---- task states for the time split ---- */

void
_iochart_bootchart_process_states (const IochartBootchartProcess *p, gint64 end_ns,
                                   IochartBootchartStateFunc func, gpointer data)
{
  gint64 prev = p->start_ns;

  for (guint i = 0; i < p->samples->len; i++)
    {
      const IochartBootchartProcSample *s = &g_array_index (p->samples, IochartBootchartProcSample, i);
      gint64 dt = s->time_ns - prev;

      if (dt <= 0)
        continue;
      if (s->state == 'R')
        {
          gint64 run = (gint64) (CLAMP (s->user + s->sys, 0.0f, 1.0f) * dt);
          func (prev, prev + run, IOCHART_TASK_RUNNING, data);
          if (run < dt)
            func (prev + run, s->time_ns, IOCHART_TASK_RUNNABLE, data);
        }
      else
        func (prev, s->time_ns, s->state == 'D' ? IOCHART_TASK_UNINTERRUPTIBLE
                                : s->state == 'Z' || s->state == 'X' ? IOCHART_TASK_DEAD : IOCHART_TASK_SLEEPING,
              data);
      prev = s->time_ns;
    }
  if (p->samples->len > 0 && prev < end_ns)
    func (prev, end_ns, IOCHART_TASK_DEAD, data);   /* gone by the next sample */
}

typedef struct {
  IochartCapture *capture;
  guint32         process;
  GArray         *out;
} Lend;

static void
lend_state (gint64 start_ns, gint64 end_ns, IochartTaskState state, gpointer data)
{
  Lend *l = data;
  IochartTaskRec rec = { .process = l->process, .state = state };

  if (end_ns <= start_ns)
    return;
  _iochart_t48_set (l->capture, rec.t, start_ns);
  g_array_append_val (l->out, rec);
}

void
iochart_bootchart_lend_task_states (IochartBootchart *self, IochartCapture *capture)
{
  g_autoptr(GHashTable) by_pid = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) recs = g_array_new (FALSE, FALSE, sizeof (IochartTaskRec));

  g_return_if_fail (IOCHART_IS_BOOTCHART (self) && IOCHART_IS_CAPTURE (capture));
  if (iochart_capture_has_task_states (capture))
    return;
  for (guint i = 0; i < iochart_capture_get_n_processes (capture); i++)
    g_hash_table_insert (by_pid, GINT_TO_POINTER (iochart_capture_get_process (capture, i)->pid),
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < self->processes->len; i++)
    {
      const IochartBootchartProcess *p = g_ptr_array_index (self->processes, i);
      gpointer v = g_hash_table_lookup (by_pid, GINT_TO_POINTER (p->pid));
      Lend l = { capture, GPOINTER_TO_UINT (v) - 1, recs };

      if (v != NULL && p->samples != NULL)
        _iochart_bootchart_process_states (p, self->end_ns, lend_state, &l);
    }
  if (recs->len > 0)
    _iochart_capture_add_task_states (capture, (const IochartTaskRec *) recs->data, recs->len);
}
