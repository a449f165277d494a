/* iochart-bootchart-parse.c: the parsers of each bootchart log
 *
 * Timed logs are blocks of "timestamp line, raw /proc file, blank line". The timestamp is the
 * uptime in centiseconds (both bootchart 0.x and bootchart2 collectors), /proc/PID/stat times are
 * USER_HZ ticks (100 on every Linux architecture that bootchart ran on).
 *
 * A log cut short (no blank line after its last block) loses that block with a warning: a half
 * written proc_ps block would make every process missing from it look dead.
 */
#include <string.h>
#include <stdlib.h>

#include "iochart-bootchart-private.h"
#include "iochart-error.h"

#define NS_PER_CS  G_GINT64_CONSTANT (10000000)
#define NS_PER_TICK NS_PER_CS

typedef struct {
  const char *line;    /* the first data line */
  const char *end;     /* end of the block's data (before the blank line) */
  guint       line_no; /* of the first data line */
  gint64      time_ns;
} TimedBlock;

typedef struct {
  const char *name;
  const char *p;
  const char *end;
  guint       line_no;
} Lines;

static void
lines_init (Lines *l, const char *name, const char *data, gsize len)
{
  l->name = name;
  l->p = data;
  l->end = data + len;
  l->line_no = 0;
}

/* Next line without its newline; *cut is TRUE when the data ended without a newline. */
static gboolean
lines_next (Lines *l, const char **line, gsize *len, gboolean *cut)
{
  if (l->p >= l->end)
    return FALSE;
  const char *nl = memchr (l->p, '\n', l->end - l->p);
  *line = l->p;
  *len = (nl ? nl : l->end) - l->p;
  if (cut)
    *cut = (nl == NULL);
  l->p = nl ? nl + 1 : l->end;
  l->line_no++;
  return TRUE;
}

static gboolean
is_blank (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (s[i]))
      return FALSE;
  return TRUE;
}

static void
skip_spaces (const char **p, const char *end)
{
  while (*p < end && (**p == ' ' || **p == '\t'))
    (*p)++;
}

/* A decimal integer, optionally negative; bounded by end (the data is not NUL-terminated). */
static gboolean
parse_i64 (const char **p, const char *end, gint64 *out)
{
  const char *s = *p;
  gboolean neg = FALSE;
  guint64 v = 0;

  skip_spaces (&s, end);
  if (s < end && (*s == '-' || *s == '+'))
    neg = (*s++ == '-');
  const char *digits = s;
  while (s < end && g_ascii_isdigit (*s))
    {
      guint d = *s++ - '0';
      /* v * 10 + d > G_MAXINT64, tested only near it: most numbers are far below */
      if (G_UNLIKELY (v >= G_MAXINT64 / 10) && (v > G_MAXINT64 / 10 || d > G_MAXINT64 % 10))
        return FALSE;
      v = v * 10 + d;
    }
  if (s == digits)
    return FALSE;
  *out = neg ? -(gint64) v : (gint64) v;
  *p = s;
  return TRUE;
}

static gboolean
parse_u64 (const char **p, const char *end, guint64 *out)
{
  const char *s = *p;
  guint64 v = 0;

  skip_spaces (&s, end);
  const char *digits = s;
  while (s < end && g_ascii_isdigit (*s))
    {
      guint d = *s++ - '0';
      if (G_UNLIKELY (v >= G_MAXUINT64 / 10) && (v > G_MAXUINT64 / 10 || d > G_MAXUINT64 % 10))
        return FALSE;
      v = v * 10 + d;
    }
  if (s == digits)
    return FALSE;
  *out = v;
  *p = s;
  return TRUE;
}

/* parse_i64's test of a number without its value, for fields that are only checked: a third of
 * the time of reading proc_ps.log went to the values of fields it does not use. */
static gboolean
skip_i64 (const char **p, const char *end)
{
  const char *s = *p, *digits;
  gint64 v;

  skip_spaces (&s, end);
  digits = s < end && (*s == '-' || *s == '+') ? s + 1 : s;
  for (s = digits; s < end && g_ascii_isdigit (*s); s++)
    ;
  if (s == digits)
    return FALSE;
  /* as many digits as G_MAXINT64 has: whether it fits is parse_i64's to say */
  if (s - digits >= 19)
    return parse_i64 (p, end, &v);
  *p = s;
  return TRUE;
}

static gboolean
at_line_end (const char *p, const char *end)
{
  skip_spaces (&p, end);
  return p == end || *p == '\r';
}

static char *
excerpt (const char *s, gsize len)
{
  g_autofree char *cut = g_strndup (s, MIN (len, 40));
  return g_strescape (cut, NULL);
}

static gboolean
fail (GError **error, const char *name, guint line_no, const char *what, const char *s, gsize len)
{
  g_autofree char *text = excerpt (s, len);
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
               "'%s': line %u: %s: '%s'", name, line_no, what, text);
  return FALSE;
}

/* Splits a timed log into blocks. A last block without its closing blank line is dropped. */
static gboolean
split_blocks (IochartBootchart *self, const char *name, const char *data, gsize len,
              GArray *blocks, GError **error)
{
  Lines l;
  const char *line;
  gsize n;
  gboolean cut;
  TimedBlock *open = NULL;
  guint skipped_backwards = 0;

  lines_init (&l, name, data, len);
  while (lines_next (&l, &line, &n, &cut))
    {
      if (open == NULL)
        {
          if (is_blank (line, n))
            continue;
          const char *p = line;
          gint64 t;
          if (cut)
            {
              _iochart_bootchart_warn (self, "'%s': line %u: capture cut in a timestamp, "
                                       "last sample dropped", name, l.line_no);
              break;
            }
          if (!parse_i64 (&p, line + n, &t) || !at_line_end (p, line + n) || t < 0
              || t > G_MAXINT64 / NS_PER_CS)
            return fail (error, name, l.line_no, "expected a timestamp", line, n);
          TimedBlock b = { l.p, l.p, l.line_no + 1, t * NS_PER_CS };
          if (blocks->len > 0
              && b.time_ns < g_array_index (blocks, TimedBlock, blocks->len - 1).time_ns)
            {
              /* a collector restarted, or a mangled timestamp: keep time monotonic */
              skipped_backwards++;
              b.time_ns = -1;
            }
          g_array_append_val (blocks, b);
          open = &g_array_index (blocks, TimedBlock, blocks->len - 1);
        }
      else if (is_blank (line, n) && !cut)
        {
          open->end = line;
          if (open->time_ns < 0)
            g_array_set_size (blocks, blocks->len - 1);
          open = NULL;
        }
      else if (cut && !is_blank (line, n))
        break; /* the last block is incomplete: dropped below */
    }

  if (open != NULL)
    {
      _iochart_bootchart_warn (self, "'%s': line %u: last sample incomplete (capture cut), "
                               "dropped", name, open->line_no - 1);
      g_array_set_size (blocks, blocks->len - 1);
    }
  if (skipped_backwards > 0)
    _iochart_bootchart_warn (self, "'%s': %u samples going back in time skipped",
                             name, skipped_backwards);
  return TRUE;
}

/* ---- header ---- */

gboolean
_iochart_bootchart_parse_header (IochartBootchart *self, const char *data, gsize len,
                                 GError **error)
{
  Lines l;
  const char *line;
  gsize n;
  g_autofree char *last = NULL;

  lines_init (&l, "header", data, len);
  while (lines_next (&l, &line, &n, NULL))
    {
      const char *eq = memchr (line, '=', n);
      g_autofree char *value = NULL;

      if (eq != NULL)
        {
          g_free (last);
          last = g_strstrip (g_strndup (line, eq - line));
          value = g_strstrip (g_strndup (eq + 1, line + n - eq - 1));
          g_hash_table_replace (self->header, g_strdup (last), g_steal_pointer (&value));
        }
      else if (last != NULL && !is_blank (line, n))
        {
          /* a continuation line, e.g. the second CPU model line */
          const char *prev = g_hash_table_lookup (self->header, last);
          g_autofree char *more = g_strstrip (g_strndup (line, n));
          g_hash_table_replace (self->header, g_strdup (last),
                                g_strconcat (prev ? prev : "", "\n", more, NULL));
        }
    }
  return TRUE;
}

/* ---- proc_stat.log ---- */

gboolean
_iochart_bootchart_parse_proc_stat (IochartBootchart *self, const char *data, gsize len,
                                    GError **error)
{
  const char *name = "proc_stat.log";
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (TimedBlock));
  guint64 last[7] = { 0 };
  gboolean have_last = FALSE;
  gint64 last_time = 0;

  if (!split_blocks (self, name, data, len, blocks, error))
    return FALSE;

  for (guint i = 0; i < blocks->len; i++)
    {
      TimedBlock *b = &g_array_index (blocks, TimedBlock, i);
      Lines l;
      const char *line;
      gsize n;
      guint64 v[7] = { 0 };
      gboolean have_cpu = FALSE;
      guint cpus = 0, running = 0, blocked = 0;

      lines_init (&l, name, b->line, b->end - b->line);
      l.line_no = b->line_no - 1;
      while (lines_next (&l, &line, &n, NULL))
        {
          const char *p = line, *end = line + n;
          if (n > 4 && memcmp (line, "cpu ", 4) == 0)
            {
              p += 4;
              guint k;
              for (k = 0; k < 7 && parse_u64 (&p, end, &v[k]); k++)
                ;
              if (k < 4)
                return fail (error, name, l.line_no, "bad cpu line", line, n);
              have_cpu = TRUE;
            }
          else if (n > 3 && memcmp (line, "cpu", 3) == 0 && g_ascii_isdigit (line[3]))
            cpus++;
          else if (n > 14 && memcmp (line, "procs_running ", 14) == 0)
            {
              guint64 x;
              p += 14;
              if (parse_u64 (&p, end, &x))
                running = MIN (x, G_MAXUINT);
            }
          else if (n > 14 && memcmp (line, "procs_blocked ", 14) == 0)
            {
              guint64 x;
              p += 14;
              if (parse_u64 (&p, end, &x))
                blocked = MIN (x, G_MAXUINT);
            }
        }
      if (!have_cpu)
        return fail (error, name, b->line_no, "sample without a cpu line", b->line,
                     b->end - b->line);
      if (cpus > self->n_cpus)
        self->n_cpus = cpus;

      if (have_last && b->time_ns > last_time)
        {
          /* unsigned deltas: counters never go back, but a damaged file may say so */
          gint64 user = (gint64) (v[0] + v[1]) - (gint64) (last[0] + last[1]);
          gint64 sys = (gint64) (v[2] + v[5] + v[6]) - (gint64) (last[2] + last[5] + last[6]);
          gint64 idle = (gint64) v[3] - (gint64) last[3];
          gint64 iowait = (gint64) v[4] - (gint64) last[4];
          user = MAX (user, 0); sys = MAX (sys, 0); idle = MAX (idle, 0); iowait = MAX (iowait, 0);
          double sum = MAX (user + sys + idle + iowait, 1);
          IochartBootchartCpuSample s = {
            b->time_ns, user / sum, sys / sum, iowait / sum, running, blocked,
          };
          g_array_append_val (self->cpu_samples, s);
        }
      memcpy (last, v, sizeof last);
      last_time = b->time_ns;
      have_last = TRUE;
    }
  return TRUE;
}

/* ---- proc_diskstats.log ---- */

static gboolean
all_digits (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

static gboolean
letters_only (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (*s < 'a' || *s > 'z')
      return FALSE;
  return TRUE;
}

/* g_str_has_prefix, which GLib 2.74 does not inline: five calls a line were a tenth of reading
 * proc_diskstats.log */
static inline gboolean
starts (const char *s, const char *prefix)
{
  return strncmp (s, prefix, strlen (prefix)) == 0;
}

gboolean
_iochart_bootchart_is_whole_disk (const char *name)
{
  if (starts (name, "xvd"))
    return letters_only (name + 3);
  if ((name[0] == 's' || name[0] == 'h' || name[0] == 'v') && name[1] == 'd')
    return letters_only (name + 2);
  if (starts (name, "nvme"))
    {
      /* nvme0n1, not nvme0n1p1 */
      const char *n = strchr (name + 4, 'n');
      g_autofree char *ctrl = n ? g_strndup (name + 4, n - name - 4) : NULL;
      return n && all_digits (ctrl) && all_digits (n + 1);
    }
  if (starts (name, "mmcblk"))
    return all_digits (name + 6);
  if (starts (name, "dm-"))
    return all_digits (name + 3);
  if (starts (name, "md"))
    return all_digits (name + 2);
  if (starts (name, "loop"))
    return all_digits (name + 4);
  return FALSE;
}

typedef struct {
  IochartBootchartDisk *disk;
  guint64 rsect, wsect, ticks;
  gint64  time_ns;
  gboolean seen;
} DiskTrack;

static void
disk_free (gpointer data)
{
  IochartBootchartDisk *d = data;
  if (d == NULL)
    return;
  g_free (d->name);
  g_clear_pointer (&d->samples, g_array_unref);
  g_free (d);
}

gboolean
_iochart_bootchart_parse_diskstats (IochartBootchart *self, const char *data, gsize len,
                                    GError **error)
{
  const char *name = "proc_diskstats.log";
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (TimedBlock));
  g_autoptr(GHashTable) tracks = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(GPtrArray) disks = g_ptr_array_new_with_free_func (disk_free);

  if (!split_blocks (self, name, data, len, blocks, error))
    return FALSE;

  for (guint i = 0; i < blocks->len; i++)
    {
      TimedBlock *b = &g_array_index (blocks, TimedBlock, i);
      Lines l;
      const char *line;
      gsize n;

      lines_init (&l, name, b->line, b->end - b->line);
      l.line_no = b->line_no - 1;
      while (lines_next (&l, &line, &n, NULL))
        {
          const char *p = line, *end = line + n;
          guint64 major, minor, f[11];
          guint k;

          if (!parse_u64 (&p, end, &major) || !parse_u64 (&p, end, &minor))
            return fail (error, name, l.line_no, "expected a diskstats line", line, n);
          skip_spaces (&p, end);
          const char *dev = p;
          while (p < end && *p != ' ' && *p != '\t')
            p++;
          /* most lines are partitions, ram disks and idle loops: told apart before a copy on
           * the heap or a number is read (they were most of the time) */
          char short_name[64];
          g_autofree char *long_name = NULL;
          const char *devname = short_name;
          if ((gsize) (p - dev) < sizeof short_name)
            memcpy (short_name, dev, p - dev), short_name[p - dev] = '\0';
          else
            devname = long_name = g_strndup (dev, p - dev);
          if (!_iochart_bootchart_is_whole_disk (devname))
            continue;
          for (k = 0; k < 11 && parse_u64 (&p, end, &f[k]); k++)
            ;
          /* old kernels print 4 fields for partitions: not whole disks anyway */
          if (k < 11)
            continue;

          DiskTrack *t = g_hash_table_lookup (tracks, devname);
          if (t == NULL)
            {
              t = g_new0 (DiskTrack, 1);
              t->disk = g_new0 (IochartBootchartDisk, 1);
              t->disk->name = g_strdup (devname);
              t->disk->major = major;
              t->disk->minor = minor;
              t->disk->samples = g_array_new (FALSE, FALSE, sizeof (IochartBootchartDiskSample));
              g_ptr_array_add (disks, t->disk);
              g_hash_table_insert (tracks, t->disk->name, t);
            }
          else if (t->seen && b->time_ns > t->time_ns)
            {
              double secs = (b->time_ns - t->time_ns) / 1e9;
              guint64 dr = f[2] >= t->rsect ? f[2] - t->rsect : 0;
              guint64 dw = f[6] >= t->wsect ? f[6] - t->wsect : 0;
              guint64 dt = f[9] >= t->ticks ? f[9] - t->ticks : 0;
              IochartBootchartDiskSample s = {
                b->time_ns, dr * 512.0 / secs, dw * 512.0 / secs,
                CLAMP (dt / 1e3 / secs, 0.0, 1.0),
              };
              g_array_append_val (t->disk->samples, s);
              t->disk->read_bytes += dr * 512;
              t->disk->written_bytes += dw * 512;
            }
          t->rsect = f[2];
          t->wsect = f[6];
          t->ticks = f[9];
          t->time_ns = b->time_ns;
          t->seen = TRUE;
        }
    }

  /* ram disks are not listed; idle loop devices are noise: keep disks that did something */
  for (guint i = 0; i < disks->len; i++)
    {
      IochartBootchartDisk *d = g_ptr_array_index (disks, i);
      gboolean busy = d->read_bytes > 0 || d->written_bytes > 0;
      for (guint j = 0; !busy && j < d->samples->len; j++)
        busy = g_array_index (d->samples, IochartBootchartDiskSample, j).util > 0;
      if (busy)
        g_ptr_array_add (self->disks, g_steal_pointer (&disks->pdata[i]));
    }
  return TRUE;
}

/* ---- proc_ps.log ---- */

typedef struct {
  IochartBootchartProcess *proc;
  gint64 starttime_ns;
  gint64 utime, stime;
  gint64 last_seen_ns;
  guint  active_samples;
  guint  n_lines;       /* the samples it will have */
} PsTrack;

static IochartBootchartProcess *
add_process (IochartBootchart *self, gint32 pid, gint32 ppid, const char *comm, gsize comm_len,
             guint n_samples)
{
  IochartBootchartProcess *proc = _iochart_bootchart_process_new (pid, n_samples);
  GPtrArray *same;

  proc->ppid = ppid;
  proc->cmd = g_utf8_make_valid (comm, comm_len);   /* bytes from /proc: JSON needs UTF-8 */
  g_ptr_array_add (self->processes, proc);
  same = g_hash_table_lookup (self->by_pid, GINT_TO_POINTER (pid));
  if (same == NULL)
    {
      same = g_ptr_array_new ();
      g_hash_table_insert (self->by_pid, GINT_TO_POINTER (pid), same);
    }
  g_ptr_array_add (same, proc);
  return proc;
}

static void
set_cmd (IochartBootchartProcess *proc, const char *comm, gsize len)
{
  if (strlen (proc->cmd) == len && memcmp (proc->cmd, comm, len) == 0)
    return;
  g_free (proc->cmd);
  proc->cmd = g_utf8_make_valid (comm, len);
}

static void
ps_track_finish (PsTrack *t)
{
  IochartBootchartProcess *proc = t->proc;
  /* bootchart's rule: more than two samples with CPU use or disk sleep */
  proc->active = t->active_samples > 2;
  /* duration_ns holds the last sighting until _finish knows the sample period */
  proc->duration_ns = t->last_seen_ns;
}

/* One line of proc_ps.log, read: the numbers of /proc/PID/stat that are used. */
typedef struct {
  const char *comm;
  guint       comm_len;
  guint       block;
  gint32      pid;
  char        state;
  gint64      ppid, utime, stime, starttime;
  PsTrack    *track;      /* the process it is a sample of */
} PsLine;

/* The lines of blocks b0..b1 - 1, read: a part of the log, on a thread of its own when it is
 * big. Reading the numbers was three quarters of the time; the processes are made from them in
 * the log's order afterwards. */
typedef struct {
  GArray     *blocks;
  guint       b0, b1;
  GArray     *lines;
  GError     *error;
} PsPart;

static gpointer
ps_read_part (gpointer data)
{
  const char *name = "proc_ps.log";
  PsPart *part = data;

  /* sized once from the part's bytes: a /proc/PID/stat line is longer than 128 bytes, and
   * realloc steps were a tenth of reading the log */
  if (part->b1 > part->b0)
    {
      const TimedBlock *first = &g_array_index (part->blocks, TimedBlock, part->b0);
      const TimedBlock *last = &g_array_index (part->blocks, TimedBlock, part->b1 - 1);

      part->lines = g_array_sized_new (FALSE, FALSE, sizeof (PsLine), (last->end - first->line) / 128 + 16);
    }
  else
    part->lines = g_array_new (FALSE, FALSE, sizeof (PsLine));
  for (guint i = part->b0; i < part->b1; i++)
    {
      TimedBlock *b = &g_array_index (part->blocks, TimedBlock, i);
      Lines l;
      const char *line;
      gsize n;

      lines_init (&l, name, b->line, b->end - b->line);
      l.line_no = b->line_no - 1;
      while (lines_next (&l, &line, &n, NULL))
        {
          const char *end = line + n, *p = line;
          gint64 pid, f[23];
          guint k;

          if (is_blank (line, n))
            continue;
          /* comm may hold spaces and parentheses: it ends at the last ')' */
          const char *open = memchr (line, '(', n);
          const char *close = open ? memrchr (open, ')', end - open) : NULL;
          if (!parse_i64 (&p, end, &pid) || open == NULL || close == NULL || pid < 0
              || pid > G_MAXINT32)
            return fail (&part->error, name, l.line_no, "expected a /proc/PID/stat line", line, n), NULL;
          p = close + 1;
          skip_spaces (&p, end);
          if (p >= end)
            return fail (&part->error, name, l.line_no, "no state after the command", line, n), NULL;
          char state = *p++;
          /* ppid, utime, stime and starttime are read; the fields between only checked */
          for (k = 4; k <= 22; k++)
            if (k == 4 || k == 14 || k == 15 || k == 22 ? !parse_i64 (&p, end, &f[k]) : !skip_i64 (&p, end))
              break;
          if (k <= 22)
            return fail (&part->error, name, l.line_no, "too few fields in a /proc/PID/stat line",
                         line, n), NULL;
          PsLine r = { open + 1, close - open - 1, i, pid, state, f[4], f[14], f[15], f[22], NULL };
          g_array_append_val (part->lines, r);
        }
    }
  return NULL;
}

/* A log this big is read in two parts at once (fuzzed inputs are small: both ways fuzzed) */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define PS_PARALLEL_BYTES 512
#else
#define PS_PARALLEL_BYTES (256 * 1024)
#endif

gboolean
_iochart_bootchart_parse_proc_ps (IochartBootchart *self, const char *data, gsize len,
                                  GError **error)
{
  const char *name = "proc_ps.log";
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (TimedBlock));
  g_autoptr(GHashTable) by_pid = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) tracks = g_ptr_array_new_with_free_func (g_free);
  PsPart parts[2] = { { 0 }, { 0 } };
  GThread *thread = NULL;
  guint mid;

  if (!split_blocks (self, name, data, len, blocks, error))
    return FALSE;

  /* the first block that starts past the middle of the data */
  for (mid = 0; len >= PS_PARALLEL_BYTES && mid < blocks->len; mid++)
    if (g_array_index (blocks, TimedBlock, mid).line >= data + len / 2)
      break;
  if (len < PS_PARALLEL_BYTES)
    mid = blocks->len;
  parts[0] = (PsPart) { blocks, 0, mid, NULL, NULL };
  parts[1] = (PsPart) { blocks, mid, blocks->len, NULL, NULL };
  if (mid < blocks->len)
    thread = g_thread_try_new ("iochart-proc-ps", ps_read_part, &parts[1], NULL);
  ps_read_part (&parts[0]);
  if (thread != NULL)
    g_thread_join (thread);
  else
    ps_read_part (&parts[1]);
  /* the first error in the log's order */
  for (int i = 0; i < 2; i++)
    if (parts[i].error != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&parts[i].error));
        g_clear_error (&parts[1].error);
        g_array_unref (parts[0].lines);
        g_array_unref (parts[1].lines);
        return FALSE;
      }

  /* which process each line is a sample of, and how many samples each process has, so that
   * its samples are allocated once */
  for (int i = 0; i < 2; i++)
    for (guint j = 0; j < parts[i].lines->len; j++)
      {
        PsLine *r = &g_array_index (parts[i].lines, PsLine, j);
        gint64 starttime_ns = r->starttime >= 0 && r->starttime < G_MAXINT64 / NS_PER_TICK
                              ? r->starttime * NS_PER_TICK : 0;
        PsTrack *t = g_hash_table_lookup (by_pid, GINT_TO_POINTER (r->pid));

        /* a pid seen with another start time was reused by a new process */
        if (t == NULL || t->starttime_ns != starttime_ns)
          {
            t = g_new0 (PsTrack, 1);
            t->starttime_ns = starttime_ns;
            g_ptr_array_add (tracks, t);
            g_hash_table_insert (by_pid, GINT_TO_POINTER (r->pid), t);
          }
        t->n_lines++;
        r->track = t;
      }

  for (int i = 0; i < 2; i++)
    for (guint j = 0; j < parts[i].lines->len; j++)
      {
        const PsLine *r = &g_array_index (parts[i].lines, PsLine, j);
        const TimedBlock *b = &g_array_index (blocks, TimedBlock, r->block);
        /* ticks elapsed since the previous sample, to turn CPU ticks into CPUs */
        gint64 last_time = r->block > 0 ? g_array_index (blocks, TimedBlock, r->block - 1).time_ns : -1;
        double interval = last_time >= 0 && b->time_ns > last_time
                          ? (double) (b->time_ns - last_time) / NS_PER_TICK : 0;
        PsTrack *t = r->track;
        gboolean fresh = (t->proc == NULL);

        if (fresh)
          {
            t->proc = add_process (self, r->pid, CLAMP (r->ppid, -1, G_MAXINT32), r->comm, r->comm_len,
                                   t->n_lines);
            t->proc->start_ns = MIN (t->starttime_ns, b->time_ns);
          }
        else
          set_cmd (t->proc, r->comm, r->comm_len);

        IochartBootchartProcSample s = { b->time_ns, 0, 0, r->state };
        if (interval > 0)
          {
            /* a process born since the previous sample used all its ticks in it */
            gint64 du = fresh ? r->utime : r->utime - t->utime;
            gint64 ds = fresh ? r->stime : r->stime - t->stime;
            s.user = CLAMP (du / interval, 0.0, 4096.0);
            s.sys = CLAMP (ds / interval, 0.0, 4096.0);
          }
        g_array_append_val (t->proc->samples, s);
        if (s.user + s.sys > 0 || r->state == 'D')
          t->active_samples++;
        t->proc->n_seen++;
        t->utime = r->utime;
        t->stime = r->stime;
        t->last_seen_ns = b->time_ns;
      }
  g_array_unref (parts[0].lines);
  g_array_unref (parts[1].lines);

  for (guint i = 0; i < tracks->len; i++)
    ps_track_finish (g_ptr_array_index (tracks, i));

  if (blocks->len > 0)
    {
      self->start_ns = g_array_index (blocks, TimedBlock, 0).time_ns;
      self->end_ns = g_array_index (blocks, TimedBlock, blocks->len - 1).time_ns;
      self->n_samples = blocks->len;
    }
  return TRUE;
}

/* ---- taskstats.log: pid ppid comm cpu_run_real_total blkio_delay_total swapin_delay_total ---- */

typedef struct {
  IochartBootchartProcess *proc;
  gint64 cpu_ns, blkio_ns, swap_ns;
  gint64 last_seen_ns;
  guint  active_samples;
} TsTrack;

gboolean
_iochart_bootchart_parse_taskstats (IochartBootchart *self, const char *data, gsize len,
                                    GError **error)
{
  const char *name = "taskstats.log";
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (TimedBlock));
  g_autoptr(GHashTable) tracks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  /* with proc_ps.log, taskstats only adds totals to its processes */
  gboolean build = self->processes->len == 0;
  gint64 last_time = -1;

  if (!split_blocks (self, name, data, len, blocks, error))
    return FALSE;

  for (guint i = 0; i < blocks->len; i++)
    {
      TimedBlock *b = &g_array_index (blocks, TimedBlock, i);
      Lines l;
      const char *line;
      gsize n;
      double interval = last_time >= 0 && b->time_ns > last_time
                        ? (double) (b->time_ns - last_time) : 0;

      lines_init (&l, name, b->line, b->end - b->line);
      l.line_no = b->line_no - 1;
      while (lines_next (&l, &line, &n, NULL))
        {
          const char *p = line, *end = line + n;
          gint64 pid, ppid, tail[3];

          if (is_blank (line, n))
            continue;
          if (!parse_i64 (&p, end, &pid) || !parse_i64 (&p, end, &ppid)
              || pid < 0 || pid > G_MAXINT32)
            return fail (error, name, l.line_no, "expected a taskstats line", line, n);
          /* the three totals end the line; the comm (maybe with spaces) is between */
          const char *q = end;
          for (int k = 2; k >= 0; k--)
            {
              while (q > p && (q[-1] == ' ' || q[-1] == '\r'))
                q--;
              const char *e = q;
              while (q > p && g_ascii_isdigit (q[-1]))
                q--;
              const char *s = q;
              if (s == e || !parse_i64 (&s, e, &tail[k]))
                return fail (error, name, l.line_no, "expected three totals at the end",
                             line, n);
            }
          skip_spaces (&p, q);
          const char *comm = p, *comm_end = q;
          while (comm_end > comm && comm_end[-1] == ' ')
            comm_end--;
          if (comm < comm_end && *comm == '(' && comm_end[-1] == ')')
            comm++, comm_end--;

          if (!build)
            {
              GPtrArray *same = g_hash_table_lookup (self->by_pid, GINT_TO_POINTER ((gint32) pid));
              if (same != NULL)
                {
                  IochartBootchartProcess *proc = g_ptr_array_index (same, same->len - 1);
                  proc->cpu_ns = tail[0];
                  proc->blkio_delay_ns = tail[1];
                }
              continue;
            }

          TsTrack *t = g_hash_table_lookup (tracks, GINT_TO_POINTER ((gint32) pid));
          gboolean fresh = t == NULL;
          if (fresh)
            {
              t = g_new0 (TsTrack, 1);
              t->proc = add_process (self, pid, CLAMP (ppid, -1, G_MAXINT32), comm,
                                     MAX (comm_end - comm, 0), 0);
              t->proc->start_ns = b->time_ns;
              g_hash_table_insert (tracks, GINT_TO_POINTER ((gint32) pid), t);
            }
          else
            set_cmd (t->proc, comm, MAX (comm_end - comm, 0));

          gint64 dcpu = tail[0] - t->cpu_ns, dblk = tail[1] - t->blkio_ns;
          gint64 dswap = tail[2] - t->swap_ns;
          IochartBootchartProcSample s = {
            b->time_ns, interval > 0 ? CLAMP (dcpu / interval, 0.0, 4096.0) : 0, 0,
            dcpu > 0 ? 'R' : dblk + dswap > 0 ? 'D' : 'S',
          };
          g_array_append_val (t->proc->samples, s);
          if (s.state != 'S')
            t->active_samples++;
          t->proc->n_seen++;
          t->proc->cpu_ns = tail[0];
          t->proc->blkio_delay_ns = tail[1];
          t->cpu_ns = tail[0];
          t->blkio_ns = tail[1];
          t->swap_ns = tail[2];
          t->last_seen_ns = b->time_ns;
        }
      last_time = b->time_ns;
    }

  if (build)
    {
      GHashTableIter it;
      gpointer value;
      g_hash_table_iter_init (&it, tracks);
      while (g_hash_table_iter_next (&it, NULL, &value))
        {
          TsTrack *t = value;
          t->proc->active = t->active_samples > 2;
          t->proc->duration_ns = t->last_seen_ns;
        }
      self->taskstats_only = TRUE;
      if (blocks->len > 0)
        {
          self->start_ns = g_array_index (blocks, TimedBlock, 0).time_ns;
          self->end_ns = g_array_index (blocks, TimedBlock, blocks->len - 1).time_ns;
          self->n_samples = blocks->len;
        }
    }
  return TRUE;
}

/* ---- proc_meminfo.log ---- */

gboolean
_iochart_bootchart_parse_meminfo (IochartBootchart *self, const char *data, gsize len,
                                  GError **error)
{
  const char *name = "proc_meminfo.log";
  g_autoptr(GArray) blocks = g_array_new (FALSE, FALSE, sizeof (TimedBlock));
  static const struct { const char *key; gsize offset; } keys[] = {
    { "MemTotal", G_STRUCT_OFFSET (IochartBootchartMemSample, total_kb) },
    { "MemFree", G_STRUCT_OFFSET (IochartBootchartMemSample, free_kb) },
    { "Buffers", G_STRUCT_OFFSET (IochartBootchartMemSample, buffers_kb) },
    { "Cached", G_STRUCT_OFFSET (IochartBootchartMemSample, cached_kb) },
    { "SwapTotal", G_STRUCT_OFFSET (IochartBootchartMemSample, swap_total_kb) },
    { "SwapFree", G_STRUCT_OFFSET (IochartBootchartMemSample, swap_free_kb) },
  };

  if (!split_blocks (self, name, data, len, blocks, error))
    return FALSE;

  for (guint i = 0; i < blocks->len; i++)
    {
      TimedBlock *b = &g_array_index (blocks, TimedBlock, i);
      IochartBootchartMemSample s = { .time_ns = b->time_ns };
      Lines l;
      const char *line;
      gsize n;

      lines_init (&l, name, b->line, b->end - b->line);
      l.line_no = b->line_no - 1;
      while (lines_next (&l, &line, &n, NULL))
        {
          const char *colon = memchr (line, ':', n);
          if (colon == NULL)
            {
              if (is_blank (line, n))
                continue;
              return fail (error, name, l.line_no, "expected 'Key: value kB'", line, n);
            }
          for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
            if ((gsize) (colon - line) == strlen (keys[k].key)
                && memcmp (line, keys[k].key, colon - line) == 0)
              {
                const char *p = colon + 1;
                guint64 v;
                if (!parse_u64 (&p, line + n, &v))
                  return fail (error, name, l.line_no, "expected a number", line, n);
                G_STRUCT_MEMBER (guint64, &s, keys[k].offset) = v;
              }
        }
      g_array_append_val (self->mem_samples, s);
    }
  return TRUE;
}

/* ---- cmdline2.log: "pid\n:exe\n:arg0\0arg1\0...\n", records separated by blank lines ---- */

gboolean
_iochart_bootchart_parse_cmdline2 (IochartBootchart *self, const char *data, gsize len,
                                   GError **error)
{
  const char *name = "cmdline2.log";
  Lines l;
  const char *line;
  gsize n;
  gboolean cut;

  lines_init (&l, name, data, len);
  while (lines_next (&l, &line, &n, &cut))
    {
      const char *p = line;
      gint64 pid;
      const char *exe = NULL, *args = NULL;
      gsize exe_len = 0, args_len = 0;
      guint pid_line = l.line_no;

      if (is_blank (line, n))
        continue;
      if (!parse_i64 (&p, line + n, &pid) || !at_line_end (p, line + n))
        return fail (error, name, l.line_no, "expected a pid", line, n);
      while (lines_next (&l, &line, &n, &cut) && !is_blank (line, n))
        {
          if (n == 0 || line[0] != ':')
            return fail (error, name, l.line_no, "expected ':' first", line, n);
          if (exe == NULL)
            exe = line + 1, exe_len = n - 1;
          else if (args == NULL)
            args = line + 1, args_len = n - 1;
        }
      if (cut)
        {
          _iochart_bootchart_warn (self, "'%s': line %u: capture cut, last command line "
                                   "dropped", name, pid_line);
          break;
        }
      GPtrArray *same = g_hash_table_lookup (self->by_pid, GINT_TO_POINTER ((gint32) pid));
      if (same == NULL || exe == NULL || pid > G_MAXINT32)
        continue;
      IochartBootchartProcess *proc = g_ptr_array_index (same, same->len - 1);
      g_free (proc->exe);
      proc->exe = g_utf8_make_valid (exe, exe_len);
      g_strfreev (proc->args);
      GPtrArray *argv = g_ptr_array_new ();
      /* a record without an args line has none: no arithmetic on its NULL */
      for (const char *a = args, *e = args ? args + args_len : NULL; a != NULL && a < e;)
        {
          const char *z = memchr (a, '\0', e - a);
          g_ptr_array_add (argv, g_utf8_make_valid (a, (z ? z : e) - a));
          a = z ? z + 1 : e;
        }
      g_ptr_array_add (argv, NULL);
      proc->args = (char **) g_ptr_array_free (argv, FALSE);
    }
  return TRUE;
}

/* ---- paternity.log: "child parent" per line ---- */

gboolean
_iochart_bootchart_parse_paternity (IochartBootchart *self, const char *data, gsize len,
                                    GError **error)
{
  const char *name = "paternity.log";
  Lines l;
  const char *line;
  gsize n;
  gboolean cut;

  lines_init (&l, name, data, len);
  while (lines_next (&l, &line, &n, &cut))
    {
      const char *p = line;
      gint64 child, parent;

      if (is_blank (line, n))
        continue;
      if (!parse_i64 (&p, line + n, &child) || !parse_i64 (&p, line + n, &parent)
          || !at_line_end (p, line + n) || child <= 0 || child > G_MAXINT32 || parent < 0
          || parent > G_MAXINT32)
        {
          if (cut)
            {
              _iochart_bootchart_warn (self, "'%s': line %u: capture cut, last line dropped",
                                       name, l.line_no);
              break;
            }
          return fail (error, name, l.line_no, "expected 'child parent'", line, n);
        }
      g_hash_table_insert (self->parent_map, GINT_TO_POINTER ((gint32) child),
                           GINT_TO_POINTER ((gint32) parent));
    }
  return TRUE;
}

/* ---- kernel_pacct: BSD process accounting, struct acct_v3 ---- */

typedef struct {
  guint8  flag;
  guint8  version;      /* 3, | 0x80 when written big-endian */
  guint16 tty;
  guint32 exitcode;
  guint32 uid;
  guint32 gid;
  guint32 pid;
  guint32 ppid;
  guint32 btime;        /* seconds since the epoch */
  guint32 etime;        /* float, elapsed ticks */
  guint16 utime, stime, mem, io, rw, minflt, majflt, swaps;  /* comp_t */
  char    comm[16];
} AcctV3;
G_STATIC_ASSERT (sizeof (AcctV3) == 64);
G_STATIC_ASSERT (G_STRUCT_OFFSET (AcctV3, pid) == 16);
G_STATIC_ASSERT (G_STRUCT_OFFSET (AcctV3, ppid) == 20);
G_STATIC_ASSERT (G_STRUCT_OFFSET (AcctV3, comm) == 48);

#define ACCT_BYTEORDER 0x80

gboolean
_iochart_bootchart_parse_pacct (IochartBootchart *self, const guint8 *data, gsize len,
                                GError **error)
{
  const char *name = "kernel_pacct";
  gsize n = len / sizeof (AcctV3);
  gboolean big = FALSE;

  if (len % sizeof (AcctV3) != 0)
    _iochart_bootchart_warn (self, "'%s': %" G_GSIZE_FORMAT " bytes at offset %" G_GSIZE_FORMAT
                             " are not a whole record (capture cut), ignored",
                             name, len % sizeof (AcctV3), n * sizeof (AcctV3));
  for (gsize i = 0; i < n; i++)
    {
      AcctV3 r;
      memcpy (&r, data + i * sizeof r, sizeof r);
      if ((r.version & ~ACCT_BYTEORDER) != 3)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_BAD_CAPTURE,
                       "'%s': not an acct v3 record at offset %" G_GSIZE_FORMAT
                       " (version byte %u)", name, i * sizeof r, r.version);
          return FALSE;
        }
      /* the byte order is the writer's: decided by the first record */
      if (i == 0)
        big = (r.version & ACCT_BYTEORDER) != 0;
      guint32 pid = big ? GUINT32_FROM_BE (r.pid) : GUINT32_FROM_LE (r.pid);
      guint32 ppid = big ? GUINT32_FROM_BE (r.ppid) : GUINT32_FROM_LE (r.ppid);
      if (pid == 0 || pid > G_MAXINT32 || ppid > G_MAXINT32)
        continue;
      g_hash_table_insert (self->pacct_map, GINT_TO_POINTER ((gint32) pid),
                           GINT_TO_POINTER ((gint32) ppid));
    }
  return TRUE;
}

/* ---- dmesg with initcall_debug: "[ 0.123] calling  foo+0x0/0x10 @ 1",
 *      "[ 0.124] initcall foo+0x0/0x10 returned 0 after 12 usecs" ---- */

static gboolean
printk_time (const char **p, const char *end, gint64 *ns)
{
  const char *s = *p;
  gint64 sec, frac = 0;
  int digits = 0;

  while (s < end && *s != '[')
    s++;
  if (s >= end)
    return FALSE;
  s++;
  if (!parse_i64 (&s, end, &sec) || s >= end || *s != '.')
    return FALSE;
  s++;
  while (s < end && g_ascii_isdigit (*s) && digits < 9)
    frac = frac * 10 + (*s++ - '0'), digits++;
  while (s < end && g_ascii_isdigit (*s))
    s++;
  if (s >= end || *s != ']' || sec < 0 || sec > G_MAXINT64 / G_GINT64_CONSTANT (1000000000) - 1)
    return FALSE;
  for (; digits < 9; digits++)
    frac *= 10;
  *ns = sec * G_GINT64_CONSTANT (1000000000) + frac;
  *p = s + 1;
  return TRUE;
}

static char *
initcall_name (const char *s, const char *end)
{
  const char *e = s;
  while (e < end && *e != ' ' && *e != '+')
    e++;
  return g_strndup (s, e - s);
}

gboolean
_iochart_bootchart_parse_dmesg (IochartBootchart *self, const char *data, gsize len,
                                GError **error)
{
  Lines l;
  const char *line;
  gsize n;
  g_autoptr(GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  lines_init (&l, "dmesg", data, len);
  while (lines_next (&l, &line, &n, NULL))
    {
      const char *p = line, *end = line + n, *hit;
      gint64 t;

      if (!printk_time (&p, end, &t))
        continue;
      skip_spaces (&p, end);
      if ((hit = g_strstr_len (p, end - p, "calling ")) == p)
        {
          const char *s = p + 8;
          skip_spaces (&s, end);
          IochartBootchartInitcall c = { initcall_name (s, end), 0, t, 0, 0 };
          const char *at = g_strstr_len (s, end - s, " @ ");
          gint64 pid;
          if (at && (at += 3, parse_i64 (&at, end, &pid)) && pid >= 0 && pid <= G_MAXINT32)
            c.pid = pid;
          g_array_append_val (self->initcalls, c);
          g_hash_table_replace (open, g_strdup (c.name), GUINT_TO_POINTER (self->initcalls->len));
        }
      else if ((hit = g_strstr_len (p, end - p, "initcall ")) == p)
        {
          const char *s = p + 9;
          g_autofree char *fn = initcall_name (s, end);
          guint idx = GPOINTER_TO_UINT (g_hash_table_lookup (open, fn));
          const char *ret = g_strstr_len (s, end - s, " returned ");
          const char *after = g_strstr_len (s, end - s, " after ");
          gint64 rv = 0, us = 0;
          if (idx == 0 || ret == NULL || after == NULL)
            continue;
          ret += 10;
          after += 7;
          parse_i64 (&ret, end, &rv);
          if (!parse_i64 (&after, end, &us) || us < 0 || us > G_MAXINT64 / 1000)
            continue;
          IochartBootchartInitcall *c = &g_array_index (self->initcalls,
                                                        IochartBootchartInitcall, idx - 1);
          c->duration_ns = us * 1000;
          c->ret = CLAMP (rv, G_MININT, G_MAXINT);
          g_hash_table_remove (open, fn);
        }
    }
  return TRUE;
}
