/* The app's live view under a display (Xvfb, GSK_RENDERER=cairo), recording a private loop
 * device while an idle-class and a best-effort reader run (test-live.sh sets them up and checks
 * the saved file): lanes appear with the right classes, the view scrolls with time while it
 * follows, stays put while paused (recording goes on) and follows again on resume; the command's
 * end stops the recording and the file is written. Screenshots of each state.
 *
 * Environment: LIVE_COMMAND (a shell script), LIVE_DEVICE (MAJ,MIN), LIVE_OUT (the .dat),
 * LIVE_PIDS (a folder where the script writes idle.pid and be.pid, and where a file "stop" ends
 * it), IOCHART_APP_SHOTS. */
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <json-glib/json-glib.h>
#include "app-test-util.h"
#include "analysis/iochart-lanes.h"

/* CPU seconds of this thread (the UI thread: the test runs the main loop). */
static double
thread_cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The 1-minute load average is below the number of CPUs: a rate can be asked for. */
static gboolean
machine_quiet (double *load)
{
  double l[1];

  if (getloadavg (l, 1) != 1)
    return FALSE;
  *load = l[0];
  return l[0] < g_get_num_processors ();
}

/* CPU seconds this process used, all its threads. */
static double
cpu_s (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static gint32
read_pid (const char *name)
{
  g_autofree char *path = g_build_filename (g_getenv ("LIVE_PIDS"), name, NULL);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return -1;
  return atoi (text);
}

/* The class of the lane holding the reader pid (a shell looping over dd) or its children in the
 * chart on screen, or -1. */
static int
lane_class (IochartTimelineView *tl, gint32 pid)
{
  IochartView *view = iochart_timeline_view_get_view (tl);
  IochartLanes *lanes = view ? iochart_view_get_lanes (view) : NULL;
  IochartCapture *c = lanes ? iochart_lanes_get_capture (lanes) : NULL;

  for (guint i = 0; c && i < iochart_capture_get_n_processes (c); i++)
    if (iochart_capture_get_process (c, i)->pid == pid || iochart_capture_get_process (c, i)->ppid == pid)
      {
        int lane = iochart_lanes_lane_of_process (lanes, i);
        if (lane >= 0)
          return iochart_lanes_get_lane (lanes, lane)->klass;
      }
  return -1;
}

/* The figures the page shows after the recording stopped: btt's, as `info --btt --json` writes
 * them, into LIVE_BTT for test-live.sh to compare with the saved file's. */
static void
write_btt (IochartLivePage *page)
{
  IochartCapturePage *cp = iochart_live_page_get_capture_page (page);
  const IochartSummary *summary;
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  iochart_capture_page_update_figures (cp);
  summary = iochart_range_panel_get_summary (iochart_capture_page_get_panel (cp));
  g_assert_nonnull (summary);
  g_assert_cmpuint (summary->btt_devices->len, >, 0);
  json_builder_begin_object (b);
  iochart_summary_btt_to_json (summary, b);
  /* the status line's last second: its window since the capture's start, its rates by class */
  {
    const IochartLiveStatus *st = iochart_live_page_get_status (page);
    IochartView *view = iochart_timeline_view_get_view (iochart_capture_page_get_timeline (cp));
    gint64 start = iochart_capture_get_start_ns (iochart_view_get_capture (view));

    json_builder_set_member_name (b, "status");
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "to_ns");
    json_builder_add_int_value (b, st->end_ns - start);
    for (guint k = 0; k < IOCHART_N_CLASSES; k++)
      {
        json_builder_set_member_name (b, iochart_class_name (k));
        json_builder_begin_object (b);
        json_builder_set_member_name (b, "requests");
        json_builder_add_int_value (b, (gint64) st->requests_per_s[k]);
        json_builder_set_member_name (b, "bytes");
        json_builder_add_int_value (b, (gint64) st->bytes_per_s[k]);
        json_builder_end_object (b);
      }
    json_builder_end_object (b);
  }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_assert_true (g_file_set_contents (g_getenv ("LIVE_BTT"), text, -1, NULL));
}

static void
test_live (void)
{
  const char *command[] = { "sh", g_getenv ("LIVE_COMMAND"), NULL };
  guint32 dev;
  /* a --class rule rides along (its effect on classes is checked by the record test) */
  const char *rules[] = { "sync=idle", NULL };
  IochartLivePageOptions o = { .out = g_getenv ("LIVE_OUT"), .command = command, .devices = &dev, .n_devices = 1,
                               .class_rules = rules };
  IochartLivePage *page;
  IochartTimelineView *tl;
  gint64 from0 = 0, to0 = 0, from, to, t0, paused_from, paused_to;
  guint updates0, updates1, classes_seen = 0;
  double rate, cpu0, ui0, load = 0;
  gint64 in_updates0, frames0, wall0;
  guint waits0;
  GdkFrameClock *clock;
  gint32 idle_pid = -1, be_pid = -1;

  dev = IOCHART_DEV_MAKE (atoi (g_getenv ("LIVE_DEVICE")), atoi (strchr (g_getenv ("LIVE_DEVICE"), ',') + 1));
  page = iochart_window_record (app_test_window (), &o);
  g_assert_null (iochart_live_page_get_error (page));
  g_assert_true (iochart_live_page_is_recording (page));
  tl = iochart_capture_page_get_timeline (iochart_live_page_get_capture_page (page));

  /* following: the visible range moves with the newest events, lanes appear with their classes
   * (sampled for 3 s, longer while the view has not moved a second yet: a loaded machine) */
  t0 = g_get_monotonic_time ();
  cpu0 = cpu_s ();
  ui0 = thread_cpu_s ();
  in_updates0 = iochart_live_page_get_update_cpu_ns (page);
  waits0 = iochart_live_page_get_n_waits (page);
  wall0 = iochart_live_page_get_update_wall_us (page);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (app_test_window ()));
  frames0 = gdk_frame_clock_get_frame_counter (clock);
  updates0 = iochart_live_page_get_n_updates (page);
  for (gboolean shot = FALSE; iochart_live_page_is_recording (page);)
    {
      gint64 waited = g_get_monotonic_time () - t0;

      app_test_run_for (100000);
      iochart_timeline_view_get_range (tl, &from, &to);
      if (to0 == 0 && to > from)
        {
          from0 = from;
          to0 = to;
        }
      idle_pid = read_pid ("idle.pid");
      be_pid = read_pid ("be.pid");
      if (lane_class (tl, idle_pid) == IOCHART_CLASS_IDLE)
        classes_seen |= 1;
      if (lane_class (tl, be_pid) == IOCHART_CLASS_BE)
        classes_seen |= 2;
      if (!shot && waited > 2 * G_USEC_PER_SEC)
        {
          app_test_screenshot ("live-following.png");
          shot = TRUE;
        }
      if (waited > 10 * G_USEC_PER_SEC || (waited > 3 * G_USEC_PER_SEC && to0 > 0 && to - to0 > 1000000000
                                           && classes_seen == 3))
        break;
    }
  updates1 = iochart_live_page_get_n_updates (page);
  rate = (updates1 - updates0) / ((g_get_monotonic_time () - t0) / 1e6);
  g_test_message ("following: %.1f frames a second, %u times an update waited a frame for a layout of its copy; "
                  "%.1f ms wall time in an update",
                  (gdk_frame_clock_get_frame_counter (clock) - frames0) / ((g_get_monotonic_time () - t0) / 1e6),
                  iochart_live_page_get_n_waits (page) - waits0,
                  (iochart_live_page_get_update_wall_us (page) - wall0) / 1e3 / MAX (iochart_live_page_get_n_updates (page) - updates0, 1));
  g_test_message ("following: %.1f updates a second; UI thread %.1f ms of CPU an update (%.1f ms in the "
                  "update itself), the app's threads %.0f ms (recording, layout and drawing); the view moved "
                  "from [%.3f, %.3f] s to [%.3f, %.3f] s", rate,
                  1000 * (thread_cpu_s () - ui0) / MAX (updates1 - updates0, 1),
                  (iochart_live_page_get_update_cpu_ns (page) - in_updates0) / 1e6 / MAX (updates1 - updates0, 1),
                  1000 * (cpu_s () - cpu0) / MAX (updates1 - updates0, 1), from0 / 1e9, to0 / 1e9, from / 1e9, to / 1e9);
  g_assert_true (iochart_live_page_is_recording (page));
  g_assert_cmpint (to - to0, >, 1000000000);
  /* ten a second; on a machine busier than it has CPUs the time slices decide, not we */
  if (machine_quiet (&load))
    g_assert_cmpfloat (rate, >=, 10);
  else
    g_test_message ("load average %.1f on %u CPUs: the rate of %.1f updates a second is not checked", load,
                    g_get_num_processors (), rate);
  g_assert_cmpfloat (rate, >=, 0.5);
  g_assert_cmpuint (classes_seen, ==, 3);

  /* what a user sees in the dark palette and on a narrow window (~700 px), still following */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  gtk_window_set_default_size (GTK_WINDOW (app_test_window ()), 700, 950);
  app_test_run_for (1500000);
  app_test_screenshot ("live-following-dark-narrow.png");
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (app_test_window ())), <, 900);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  gtk_window_set_default_size (GTK_WINDOW (app_test_window ()), 1500, 950);
  app_test_run_for (500000);

  /* paused: the view stays while recording goes on; one can zoom into the past */
  iochart_live_page_set_paused (page, TRUE);
  app_test_run_for (300000);
  iochart_timeline_view_get_range (tl, &paused_from, &paused_to);
  updates0 = iochart_live_page_get_n_updates (page);
  iochart_timeline_view_zoom (tl, 2, 0.25);
  app_test_run_for (700000);
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpuint (iochart_live_page_get_n_updates (page), ==, updates0);
  g_assert_cmpint (to - from, <, paused_to - paused_from);
  g_assert_cmpint (to, <, paused_to);
  g_assert_true (iochart_live_page_is_recording (page));
  app_test_screenshot ("live-paused.png");

  /* resumed: it follows the newest events again, over the span zoomed to. The first updates
   * take in all that came while paused; on two cores shared with twenty busy processes the UI
   * thread gets a tenth of one and they took over 5 s: waited for up to 30 s (a page whose
   * updates stopped still fails), the time they took reported */
  iochart_live_page_set_paused (page, FALSE);
  t0 = g_get_monotonic_time ();
  ui0 = thread_cpu_s ();
  frames0 = gdk_frame_clock_get_frame_counter (clock);
  waits0 = iochart_live_page_get_n_waits (page);
  while (g_get_monotonic_time () - t0 < 30 * G_USEC_PER_SEC && iochart_live_page_get_n_updates (page) <= updates0 + 2)
    app_test_run_for (100000);
  machine_quiet (&load);
  g_test_message ("resumed: %u updates in %.1f s (load %.1f), %" G_GINT64_FORMAT " frames, %u times an update "
                  "waited a frame for a layout, UI thread %.0f ms of CPU",
                  iochart_live_page_get_n_updates (page) - updates0, (g_get_monotonic_time () - t0) / 1e6,
                  load, gdk_frame_clock_get_frame_counter (clock) - frames0,
                  iochart_live_page_get_n_waits (page) - waits0, 1000 * (thread_cpu_s () - ui0));
  iochart_timeline_view_get_range (tl, &from, &to);
  g_assert_cmpuint (iochart_live_page_get_n_updates (page), >, updates0 + 2);
  g_assert_cmpint (to, >, paused_to);

  /* the command's end stops the recording and writes LIVE_OUT */
  {
    g_autofree char *stop = g_build_filename (g_getenv ("LIVE_PIDS"), "stop", NULL);
    g_assert_true (g_file_set_contents (stop, "", 0, NULL));
  }
  for (int i = 0; i < 300 && iochart_live_page_is_recording (page); i++)
    app_test_run_for (100000);
  g_assert_false (iochart_live_page_is_recording (page));
  app_test_run_for (1000000);
  g_assert_null (iochart_live_page_get_error (page));
  g_assert_cmpint (lane_class (tl, idle_pid), ==, IOCHART_CLASS_IDLE);
  g_assert_cmpint (lane_class (tl, be_pid), ==, IOCHART_CLASS_BE);
  g_assert_true (g_file_test (g_getenv ("LIVE_OUT"), G_FILE_TEST_IS_REGULAR));
  app_test_screenshot ("live-stopped.png");
  write_btt (page);
}

/* Without root the page says why, in the window. */
static void
test_not_root (void)
{
  IochartLivePage *page;

  if (geteuid () == 0)
    {
      g_test_skip ("root can record");
      return;
    }
  page = iochart_window_record (app_test_window (), NULL);
  g_assert_nonnull (iochart_live_page_get_error (page));
  g_assert_nonnull (strstr (iochart_live_page_get_error (page)->message, "root"));
  app_test_run_for (300000);
  app_test_screenshot ("live-not-root.png");
}

int
main (int argc, char **argv)
{
  if (!app_test_init (&argc, &argv, NULL))
    return 77;
  if (g_getenv ("LIVE_COMMAND") != NULL)
    g_test_add_func ("/live/record", test_live);
  g_test_add_func ("/live/not-root", test_not_root);
  return g_test_run ();
}
