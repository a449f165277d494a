/* iochart-record-cmd.c: `iochart record -o OUT.dat [--duration S] [--device MAJ,MIN]... [--no-sched]
 * [-- COMMAND ARGS...]` and `iochart record --bootchart -o OUT [--duration S | --until-idle] [--hz N]`
 *
 * Both record through the core's IochartRecorder (a private tracefs instance, the .dat writer).
 * The first writes the events alone into a .dat, running COMMAND if given and stopping when it
 * exits. The second samples /proc as bootchartd does (stat, diskstats, meminfo, every /proc/PID/stat, command
 * lines) into bootchart logs, and records block and sched events in a private tracefs instance
 * into events.dat (trace-cmd .dat v6), all in the folder OUT, or in the archive OUT when it ends
 * in .tgz. Timestamps: uptime in centiseconds for the logs, the tracefs "mono" clock for the
 * events: the same clock while the machine does not suspend.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <archive.h>
#include <archive_entry.h>
#include <glib/gstdio.h>

#include "iochart-cli-private.h"
#include "record/iochart-recorder.h"
#include "record/iochart-live.h"
#include "record/iochart-live-capture.h"
#include "iochart-format.h"

static volatile sig_atomic_t stop_requested;

static void
on_signal (int sig)
{
  stop_requested = 1;
}

typedef struct {
  GString *stat, *diskstats, *meminfo, *ps, *cmdline;
  GHashTable *seen_cmdline;      /* pids whose command line is logged */
  IochartRecorder *rec;
  guint64 last_busy[2];          /* cpu busy and total ticks, for --until-idle */
  guint64 last_sectors;
  double  busy_share;            /* of the CPU, over the last sample */
  guint64 moved_sectors;         /* by every disk, over the last sample */
} Recorder;

static gint64
uptime_cs (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_BOOTTIME, &ts);
  return ts.tv_sec * 100 + ts.tv_nsec / 10000000;
}

static void
append_file (GString *out, const char *path)
{
  g_autofree char *text = NULL;
  gsize len;
  if (g_file_get_contents (path, &text, &len, NULL))
    g_string_append_len (out, text, len);
}

static void
log_cmdline (Recorder *r, const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/cmdline", pid);
  g_autofree char *exe_path = g_strdup_printf ("/proc/%s/exe", pid);
  g_autofree char *args = NULL;
  g_autofree char *exe = g_file_read_link (exe_path, NULL);
  gsize len = 0;

  if (!g_file_get_contents (path, &args, &len, NULL) || len == 0)
    return;   /* kernel threads: no command line, keep trying is pointless but cheap */
  g_hash_table_add (r->seen_cmdline, g_strdup (pid));
  g_string_append_printf (r->cmdline, "%s\n:%s\n:", pid, exe ? exe : "");
  g_string_append_len (r->cmdline, args, len);
  g_string_append (r->cmdline, "\n\n");
}

static void
sample (Recorder *r)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  gint64 t = uptime_cs ();

  g_string_append_printf (r->stat, "%" G_GINT64_FORMAT "\n", t);
  append_file (r->stat, "/proc/stat");
  g_string_append_c (r->stat, '\n');
  g_string_append_printf (r->diskstats, "%" G_GINT64_FORMAT "\n", t);
  append_file (r->diskstats, "/proc/diskstats");
  g_string_append_c (r->diskstats, '\n');
  g_string_append_printf (r->meminfo, "%" G_GINT64_FORMAT "\n", t);
  append_file (r->meminfo, "/proc/meminfo");
  g_string_append_c (r->meminfo, '\n');

  g_string_append_printf (r->ps, "%" G_GINT64_FORMAT "\n", t);
  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      if (!g_ascii_isdigit (name[0]))
        continue;
      g_autofree char *path = g_strdup_printf ("/proc/%s/stat", name);
      append_file (r->ps, path);
      if (!g_hash_table_contains (r->seen_cmdline, name))
        log_cmdline (r, name);
    }
  g_string_append_c (r->ps, '\n');
}

static void
print_missing (IochartRecorder *rec)
{
  for (const char * const *m = iochart_recorder_get_missing (rec); *m; m++)
    fprintf (stderr, "iochart: note: this kernel cannot record %s\n", *m);
}

/* Busy CPU share and sectors moved since the last call: the boot is done when both rest. */
static gboolean
is_idle (Recorder *r)
{
  g_autofree char *stat = NULL, *disk = NULL;
  guint64 v[8] = { 0 }, total = 0, sectors = 0;
  gboolean idle;

  if (g_file_get_contents ("/proc/stat", &stat, NULL, NULL))
    sscanf (stat, "cpu %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
            " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
            &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]);
  for (int i = 0; i < 7; i++)
    total += v[i];
  guint64 busy = total - v[3] - v[4];
  if (g_file_get_contents ("/proc/diskstats", &disk, NULL, NULL))
    {
      g_auto(GStrv) lines = g_strsplit (disk, "\n", -1);
      for (char **l = lines; *l; l++)
        {
          char dev[64];
          guint64 rs = 0, ws = 0;
          if (sscanf (*l, "%*u %*u %63s %*u %*u %" G_GUINT64_FORMAT " %*u %*u %*u %" G_GUINT64_FORMAT,
                      dev, &rs, &ws) == 3)
            sectors += rs + ws;
        }
    }
  double share = total > r->last_busy[1]
                 ? (double) (busy - r->last_busy[0]) / (total - r->last_busy[1]) : 1.0;
  idle = r->last_busy[1] != 0 && share < 0.10 && sectors == r->last_sectors;
  r->busy_share = share;
  r->moved_sectors = sectors - r->last_sectors;
  r->last_busy[0] = busy;
  r->last_busy[1] = total;
  r->last_sectors = sectors;
  return idle;
}

/* --until-idle on a busy machine may wait for ever: every 10 s it says what keeps it waiting. */
static void
say_why_waiting (const Recorder *r, gint64 waited_us)
{
  g_autofree char *moved = iochart_format_bytes ((double) r->moved_sectors * 512);
  g_autofree char *cpu = r->busy_share >= 0.10 ? g_strdup_printf ("the CPU is %.0f%% busy", 100 * r->busy_share)
                                               : g_strdup ("the CPU rests");
  g_autofree char *disks = r->moved_sectors > 0 ? g_strdup_printf ("disks moved %s in the last sample", moved)
                                                : g_strdup ("disks rest");

  fprintf (stderr, "iochart: --until-idle: still recording after %" G_GINT64_FORMAT " s: %s, %s "
           "(it stops once the CPU is under 10%% busy and no disk moves for 2 s; Ctrl-C stops now)\n",
           waited_us / G_USEC_PER_SEC, cpu, disks);
}

static char *
make_header (void)
{
  GString *h = g_string_new ("version = iochart " PACKAGE_VERSION "\n");
  struct utsname u;
  g_autofree char *cmdline = NULL, *cpuinfo = NULL;
  g_autofree char *host = g_strdup (g_get_host_name ());
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%c");
  const char *model = "unknown";
  g_autofree char *model_line = NULL;

  g_string_append_printf (h, "title = Boot chart for %s (%s)\n", host, date);
  if (uname (&u) == 0)
    g_string_append_printf (h, "system.uname = %s %s %s %s\n", u.sysname, u.release, u.version,
                            u.machine);
  g_autofree char *pretty = g_get_os_info (G_OS_INFO_KEY_PRETTY_NAME);
  if (pretty != NULL)
    g_string_append_printf (h, "system.release = %s\n", pretty);
  if (g_file_get_contents ("/proc/cpuinfo", &cpuinfo, NULL, NULL))
    {
      const char *m = strstr (cpuinfo, "model name");
      if (m != NULL)
        {
          const char *colon = strchr (m, ':');
          model_line = g_strndup (colon + 2, strcspn (colon + 2, "\n"));
          model = model_line;
        }
    }
  g_string_append_printf (h, "system.cpu = model name : %s (%ld)\n", model,
                          sysconf (_SC_NPROCESSORS_ONLN));
  if (g_file_get_contents ("/proc/cmdline", &cmdline, NULL, NULL))
    g_string_append_printf (h, "system.kernel.options = %s", cmdline);
  return g_string_free (h, FALSE);
}

typedef struct {
  const char *name;
  const char *data;
  gsize len;
} Member;

static gboolean
write_bundle (const char *out, const Member *members, guint n, const char *dat_path,
              GError **error)
{
  if (!g_str_has_suffix (out, ".tgz") && !g_str_has_suffix (out, ".tar.gz"))
    {
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *path = g_build_filename (out, members[i].name, NULL);
          g_autoptr(GError) local = NULL;
          if (!g_file_set_contents (path, members[i].data, members[i].len, &local))
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", path, local->message);
              return FALSE;
            }
        }
      return TRUE;
    }

  struct archive *a = archive_write_new ();
  g_autofree char *dat = NULL;
  gsize dat_len = 0;
  archive_write_add_filter_gzip (a);
  archive_write_set_format_pax_restricted (a);
  if (archive_write_open_filename (a, out) != ARCHIVE_OK)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", out, archive_error_string (a));
      archive_write_free (a);
      return FALSE;
    }
  for (guint i = 0; i <= n; i++)
    {
      const char *name = i < n ? members[i].name : "events.dat";
      const char *data = i < n ? members[i].data : NULL;
      gsize len = i < n ? members[i].len : 0;
      if (i == n && (dat_path == NULL || !g_file_get_contents (dat_path, &dat, &dat_len, NULL)))
        break;
      if (i == n)
        data = dat, len = dat_len;
      struct archive_entry *e = archive_entry_new ();
      archive_entry_set_pathname (e, name);
      archive_entry_set_size (e, len);
      archive_entry_set_filetype (e, AE_IFREG);
      archive_entry_set_perm (e, 0644);
      archive_entry_set_mtime (e, time (NULL), 0);
      archive_write_header (a, e);
      archive_write_data (a, data, len);
      archive_entry_free (e);
    }
  archive_write_close (a);
  archive_write_free (a);
  return TRUE;
}

typedef struct {
  gboolean bootchart, until_idle, no_events, no_sched, live;
  char    *out;
  char    *keep;
  gint64   keep_ns;
  double   duration;
  int      hz;
  char   **devices;
  char   **class_rules;
  char   **command;
} RecordOptions;

static void
catch_stop_signals (void)
{
  struct sigaction sa = { .sa_handler = on_signal };

  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);
}

static int
record_bootchart (RecordOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dat_path = NULL, *tmp_dir = NULL, *header = NULL;
  Recorder r = { 0 };
  int rc = IOCHART_EXIT_OK;
  double duration = o->duration;
  const char *out = o->out;

  if (duration == 0 && !o->until_idle)
    duration = 60;

  gboolean archive = g_str_has_suffix (out, ".tgz") || g_str_has_suffix (out, ".tar.gz");
  if (!archive && g_mkdir_with_parents (out, 0755) != 0)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_IO, "'%s': %s", out, g_strerror (errno));
      return iochart_cli_report_error (error);
    }
  if (archive && (tmp_dir = g_dir_make_tmp ("iochart-record-XXXXXX", &error)) == NULL)
    return iochart_cli_report_error (error);
  dat_path = g_build_filename (archive ? tmp_dir : out, "events.dat", NULL);

  r.stat = g_string_new (NULL);
  r.diskstats = g_string_new (NULL);
  r.meminfo = g_string_new (NULL);
  r.ps = g_string_new (NULL);
  r.cmdline = g_string_new (NULL);
  r.seen_cmdline = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if (!o->no_events)
    {
      IochartRecorderOptions ro = { .block_only = TRUE, .buffer_kb = 8192 };
      if ((r.rec = iochart_recorder_new (&ro, &error)) == NULL)
        {
          rc = iochart_cli_report_error (error);
          goto out;
        }
      print_missing (r.rec);
      iochart_recorder_start (r.rec);
    }

  catch_stop_signals ();
  gint64 start = g_get_monotonic_time (), idle_since = 0, last_said;
  gint64 step = G_USEC_PER_SEC / o->hz;
  last_said = start;
  for (gint64 next = start; !stop_requested; next += step)
    {
      sample (&r);
      if (r.rec != NULL && !iochart_recorder_drain (r.rec, &error))
        break;
      gint64 now = g_get_monotonic_time ();
      if (duration > 0 && now - start >= duration * G_USEC_PER_SEC)
        break;
      if (o->until_idle)
        {
          if (!is_idle (&r))
            {
              idle_since = 0;
              if (now - last_said >= 10 * G_USEC_PER_SEC)
                {
                  say_why_waiting (&r, now - start);
                  last_said = now;
                }
            }
          else if (idle_since == 0)
            idle_since = now;
          else if (now - idle_since >= 2 * G_USEC_PER_SEC && now - start >= G_USEC_PER_SEC)
            break;
        }
      if (next + step > now)
        g_usleep (next + step - now);
      else
        next = now;
    }
  if (r.rec != NULL && !iochart_recorder_stop (r.rec, error ? NULL : &error))
    {
      rc = iochart_cli_report_error (error);
      goto out;
    }

  header = make_header ();
  Member members[] = {
    { "header", header, strlen (header) },
    { "proc_stat.log", r.stat->str, r.stat->len },
    { "proc_diskstats.log", r.diskstats->str, r.diskstats->len },
    { "proc_meminfo.log", r.meminfo->str, r.meminfo->len },
    { "proc_ps.log", r.ps->str, r.ps->len },
    { "cmdline2.log", r.cmdline->str, r.cmdline->len },
  };
  if (r.rec != NULL && !iochart_recorder_write (r.rec, dat_path, &error))
    rc = iochart_cli_report_error (error);
  else if (!write_bundle (out, members, G_N_ELEMENTS (members), r.rec ? dat_path : NULL, &error))
    rc = iochart_cli_report_error (error);
  else
    fprintf (stderr, "iochart: wrote '%s'\n", out);

out:
  if (tmp_dir != NULL)
    {
      g_remove (dat_path);
      g_rmdir (tmp_dir);
    }
  g_clear_pointer (&r.rec, iochart_recorder_free);
  g_string_free (r.stat, TRUE);
  g_string_free (r.diskstats, TRUE);
  g_string_free (r.meminfo, TRUE);
  g_string_free (r.ps, TRUE);
  g_string_free (r.cmdline, TRUE);
  g_hash_table_unref (r.seen_cmdline);
  return rc;
}

/* ---- events into a .dat ---- */

static char *
format_mb (guint64 bytes)
{
  return g_strdup_printf ("%.1f MB", bytes / 1e6);
}

/* A line a second on a terminal: how much is in the file and what the kernel lost. */
static void
show_progress (IochartRecorder *rec, gint64 start_us, gboolean tty)
{
  IochartRecorderStats st;
  g_autofree char *mb = NULL;

  if (!tty)
    return;
  iochart_recorder_get_stats (rec, &st);
  mb = format_mb (st.bytes);
  fprintf (stderr, "\r\033[Kiochart: recording %.0f s, %s, lost %" G_GUINT64_FORMAT " events",
           (g_get_monotonic_time () - start_us) / 1e6, mb, st.lost);
}

static gboolean
spawn_command (char **command, GPid *pid, GError **error)
{
  g_autoptr(GError) local = NULL;

  if (g_spawn_async (NULL, command, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN,
                     NULL, NULL, pid, &local))
    return TRUE;
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': %s", command[0], local->message);
  return FALSE;
}

/* "12.0 s · rt 0 B/s (0/s) · be 12 MiB/s (1,234/s) · … · lost 0" */
static void
show_live (const IochartLiveStatus *st, gint64 start_us)
{
  g_autofree char *line = iochart_live_status_format (st);

  fprintf (stderr, "iochart: %5.1f s · %s\n", (g_get_monotonic_time () - start_us) / 1e6, line);
}

/* Whether to stop: COMMAND exited (its wait status in *status), the duration passed or a signal
 * asked to. */
static gboolean
should_stop (const RecordOptions *o, GPid child, gint64 start_us, int *status)
{
  if (stop_requested)
    return TRUE;
  if (child > 0 && waitpid (child, status, WNOHANG) == child)
    return TRUE;
  return o->duration > 0 && g_get_monotonic_time () - start_us >= o->duration * G_USEC_PER_SEC;
}

static void
end_command (GPid child, int *status)
{
  if (child > 0 && *status == -1)
    {
      /* stopped before the command ended: it got the terminal's SIGINT too, or ends now */
      kill (child, SIGTERM);
      waitpid (child, status, 0);
    }
}

/* Polls until should_stop. Returns the command's wait status, or -1 without one. */
static int
record_loop (IochartRecorder *rec, const RecordOptions *o, GPid child, GError **error)
{
  gint64 start = g_get_monotonic_time (), last_shown = start;
  gboolean tty = isatty (STDERR_FILENO);
  int status = -1;

  while (!should_stop (o, child, start, &status))
    {
      if (!iochart_recorder_drain (rec, error))
        break;
      if (g_get_monotonic_time () - last_shown >= G_USEC_PER_SEC)
        {
          show_progress (rec, start, tty);
          last_shown = g_get_monotonic_time ();
        }
      g_usleep (50000);
    }
  if (tty)
    fprintf (stderr, "\r\033[K");
  end_command (child, &status);
  return status;
}

/* --live: the live capture's worker drains the recorder; once a second a status line from a
 * snapshot. */
static int
live_loop (IochartLiveCapture *live, const RecordOptions *o, GPid child)
{
  gint64 start = g_get_monotonic_time (), last_shown = start;
  IochartLiveStatus st = { 0 }, prev = { 0 };
  int status = -1;

  while (!should_stop (o, child, start, &status))
    {
      g_usleep (50000);
      if (g_get_monotonic_time () - last_shown < G_USEC_PER_SEC)
        continue;
      iochart_live_status_compute (iochart_live_capture_update (live), &prev, &st);
      show_live (&st, start);
      prev = st;
      last_shown = g_get_monotonic_time ();
    }
  end_command (child, &status);
  return status;
}

static void
report_written (IochartRecorder *rec, const char *out, int status)
{
  IochartRecorderStats st;
  g_autofree char *mb = NULL;

  iochart_recorder_get_stats (rec, &st);
  mb = format_mb (st.bytes);
  fprintf (stderr, "iochart: wrote '%s' (%s of events)\n", out, mb);
  if (st.lost > 0)
    {
      fprintf (stderr, "iochart: warning: the kernel lost %" G_GUINT64_FORMAT " events (ring buffer "
               "full):", st.lost);
      for (guint cpu = 0; cpu < MIN (st.n_cpus, G_N_ELEMENTS (st.lost_per_cpu)); cpu++)
        if (st.lost_per_cpu[cpu] > 0)
          fprintf (stderr, " cpu%u %" G_GUINT64_FORMAT, cpu, st.lost_per_cpu[cpu]);
      fprintf (stderr, "\n");
    }
  if (status != -1 && WIFEXITED (status) && WEXITSTATUS (status) != 0)
    fprintf (stderr, "iochart: the command exited with %d\n", WEXITSTATUS (status));
  else if (status != -1 && WIFSIGNALED (status))
    fprintf (stderr, "iochart: the command was killed by signal %d\n", WTERMSIG (status));
}

static int
record_events (RecordOptions *o)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartRecorder) rec = NULL;
  g_autoptr(IochartLiveCapture) live = NULL;
  g_autoptr(GArray) devs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) rules = iochart_cli_parse_class_rules (o->class_rules, &error);
  IochartRecorderOptions ro = { .sched = !o->no_sched };
  GPid child = 0;
  int status;

  if (rules == NULL)
    return iochart_cli_report_error (error);
  for (char **d = o->devices; d && *d; d++)
    {
      guint32 dev;
      if (!iochart_cli_parse_dev (*d, &dev, &error))
        return iochart_cli_report_error (error);
      g_array_append_val (devs, dev);
    }
  ro.devices = (const guint32 *) devs->data;
  ro.n_devices = devs->len;
  /* before the instance exists, so that a signal never leaves it behind */
  catch_stop_signals ();
  if ((rec = iochart_recorder_new (&ro, &error)) == NULL)
    return iochart_cli_report_error (error);
  print_missing (rec);
  if (o->live)
    {
      live = iochart_live_capture_new (o->out, o->keep_ns);
      for (guint i = 0; i < rules->len; i++)
        iochart_live_capture_add_rule (live, &g_array_index (rules, IochartClassRule, i));
      if (!iochart_live_capture_use_kernel_formats (live, &error))
        return iochart_cli_report_error (error);
      iochart_live_capture_start (live, rec, 50);
    }
  else
    iochart_recorder_start (rec);
  if (o->command != NULL && !spawn_command (o->command, &child, &error))
    return iochart_cli_report_error (error);   /* the instance goes with rec */
  if (live != NULL)
    {
      status = live_loop (live, o, child);
      iochart_live_capture_stop (live, &error);   /* stops the recorder too */
    }
  else
    {
      status = record_loop (rec, o, child, &error);
      if (error == NULL)
        iochart_recorder_stop (rec, &error);
    }
  if (error != NULL || !iochart_recorder_write (rec, o->out, &error))
    return iochart_cli_report_error (error);
  if (live != NULL)
    {
      IochartCapture *c = iochart_live_capture_update (live);
      IochartCounts counts;
      g_autoptr(GString) classes = g_string_new (NULL);

      /* the issued requests by class, as `info` counts them (with the same --class rules) */
      iochart_counts_compute (c, -1, IOCHART_TIME_UNKNOWN, IOCHART_TIME_UNKNOWN, &counts);
      for (guint k = 0; k < IOCHART_N_CLASSES; k++)
        g_string_append_printf (classes, "%s%s %" G_GUINT64_FORMAT, k ? ", " : "", iochart_class_name (k),
                                counts.by_class[k].requests);
      fprintf (stderr, "iochart: built live %" G_GUINT64_FORMAT " events into %u requests of %u processes "
               "(issued by class: %s; %" G_GUINT64_FORMAT " processes left the window); the live model holds %"
               G_GSIZE_FORMAT " KiB\n",
               iochart_capture_get_n_events (c), iochart_capture_get_n_requests (c),
               iochart_capture_get_n_processes (c), classes->str, iochart_live_capture_get_n_dropped_processes (live),
               iochart_live_capture_get_memory (live) / 1024);
    }
  report_written (rec, o->out, status);
  return IOCHART_EXIT_OK;
}

/* Says which value is wrong and why, then how the command goes. */
static gboolean
check_options (const RecordOptions *o, char **rest, GError **error)
{
  const char *why = NULL;
  g_autofree char *value = NULL;

  if (o->out == NULL)
    why = "-o OUT is needed: where to write";
  else if (o->duration < 0)
    why = value = g_strdup_printf ("'%g': bad --duration: give seconds, 0 or more", o->duration);
  else if (o->hz < 1 || o->hz > 1000)
    why = value = g_strdup_printf ("'%d': bad --hz: give 1 to 1000 samples a second", o->hz);
  else if (o->keep_ns < G_GINT64_CONSTANT (1000000000))
    why = value = g_strdup_printf ("'%s': bad --keep: give 1 s or more", o->keep);
  else if (o->bootchart && o->duration > 0 && o->until_idle)
    why = "--duration and --until-idle: give one, not both";
  else if (o->bootchart && (rest || o->devices || o->no_sched))
    why = rest ? "--bootchart runs no COMMAND" : o->devices ? "--bootchart records every device: no --device"
                                                          : "--bootchart takes no --no-sched";
  else if (o->bootchart && (o->live || o->keep))
    why = o->live ? "--live is for event recording, not --bootchart" : "--keep goes with --live, not --bootchart";
  else if (o->class_rules && !o->live)
    why = "--class goes with --live (a file's readers take it: info --class …)";
  else if (!o->bootchart && (o->until_idle || o->no_events))
    why = o->until_idle ? "--until-idle goes with --bootchart" : "--no-events goes with --bootchart";
  if (why == NULL)
    return TRUE;
  g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
               "%s\nusage: iochart record -o OUT.dat [--duration S] [--device MAJ,MIN]... [--no-sched] "
               "[--live [--keep TIME] [--class RULE]...] [-- COMMAND ARGS...]\n"
               "       iochart record --bootchart -o OUT [--duration S | --until-idle] [--hz N]", why);
  return FALSE;
}

int
iochart_record_command (int argc, char **argv)
{
  RecordOptions o = { .hz = 10 };
  char **rest = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.out, "The .dat to write (with --bootchart: a folder or .tgz)", "OUT" },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &o.duration, "Stop after S seconds (--bootchart: default 60)", "S" },
    { "device", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.devices, "Only block events of this device (repeatable)", "MAJ,MIN" },
    { "no-sched", 0, 0, G_OPTION_ARG_NONE, &o.no_sched, "Without sched_switch and sched_wakeup", NULL },
    { "live", 0, 0, G_OPTION_ARG_NONE, &o.live, "A status line a second: rate per class, idle steal, top idle lane, lost events", NULL },
    { "keep", 0, 0, G_OPTION_ARG_STRING, &o.keep, "--live: the window the live model keeps and its figures cover (default 10m)", "TIME" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o.class_rules,
      "--live: class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { "bootchart", 0, 0, G_OPTION_ARG_NONE, &o.bootchart, "Record a boot chart (/proc samples and block events)", NULL },
    { "until-idle", 0, 0, G_OPTION_ARG_NONE, &o.until_idle, "--bootchart: stop once CPU and disks rest for 2 s", NULL },
    { "hz", 0, 0, G_OPTION_ARG_INT, &o.hz, "--bootchart: samples per second (default 10)", "N" },
    { "no-events", 0, 0, G_OPTION_ARG_NONE, &o.no_events, "--bootchart: no block/sched events", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, "[-- COMMAND ARGS...]" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  int rc;

  g_option_context_set_summary (context,
    "Record block I/O, processes and scheduling into a trace-cmd .dat, while COMMAND runs, for\n"
    "S seconds or until Ctrl-C; or, with --bootchart, a boot (or any period) as a bootchart bundle.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error)
      || !iochart_cli_parse_duration (o.keep ? o.keep : "10m", "--keep", &o.keep_ns, &error))
    rc = iochart_cli_report_error (error);
  else if (!check_options (&o, rest, &error))
    rc = iochart_cli_report_error (error);
  else
    {
      o.command = rest;
      rc = o.bootchart ? record_bootchart (&o) : record_events (&o);
    }
  g_free (o.out);
  g_free (o.keep);
  g_strfreev (o.devices);
  g_strfreev (o.class_rules);
  g_strfreev (rest);
  return rc;
}
