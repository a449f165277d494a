/* The live page's capture page fed by a fake source (no root, no tracefs): each update of the
 * live capture goes to the page as the live page hands it (iochart_capture_page_capture_changed).
 * - follow: a clicked and an expanded lane stay on their processes when an update drops the
 *   processes that left the window and numbers the rest again;
 * - whatif: a what-if run on the live capture simulates the capture as it was when the run
 *   started, whatever the updates during the run rewrite. */
#include "app-test-util.h"
#include <math.h>
#include <stdlib.h>
#include "iochart-capture-page.h"
#include "../record/live-fake-events.h"

/* The window app_test_init made; the tests' own windows stand in for it while they take screenshots. */
static IochartWindow *main_window;

/* Process pid named name, forked at t0 and reading 4 KiB every step until t1 (then it exits
 * when exits), each read queued and inserted by it, issued by a kworker, done 400 µs later. */
static void
reader (GArray *evs, gint32 pid, const char *name, IochartClass klass, gint64 t0, gint64 t1, gint64 step,
        gboolean exits)
{
  Ev e = { .kind = E_FORK, .ts = t0, .pid = pid, .other = 1 };
  gint32 ioprio = (gint32) IOCHART_IOPRIO_MAKE (klass, 4);
  guint64 sector = (guint64) pid << 24;

  g_strlcpy (e.comm, "sh", sizeof e.comm);
  add (evs, e);
  e = (Ev) { .kind = E_EXEC, .ts = t0 + 1, .pid = pid };
  g_strlcpy (e.comm, name, sizeof e.comm);
  add (evs, e);
  for (gint64 t = t0 + 1000; t < t1; t += step, sector += 8)
    {
      add (evs, blk (t, IOCHART_BLOCK_QUEUE, sector, 8, IOCHART_OP_READ, pid, name, ioprio));
      add (evs, blk (t + 10, IOCHART_BLOCK_INSERT, sector, 8, IOCHART_OP_READ, pid, name, ioprio));
      add (evs, blk (t + 50000, IOCHART_BLOCK_ISSUE, sector, 8, IOCHART_OP_READ, 50, "kworker/0:1", ioprio));
      add (evs, blk (t + 450000, IOCHART_BLOCK_COMPLETE, sector, 8, IOCHART_OP_READ, 0, NULL, ioprio));
    }
  if (exits)
    add (evs, (Ev) { .kind = E_EXIT, .ts = t1 + MS, .pid = pid });
}

/* 40 short-lived readers in the first 0.8 s, then two that stay to the end (the keepers). */
static GArray *
workload (gint64 end)
{
  GArray *evs = g_array_new (FALSE, FALSE, sizeof (Ev));

  for (guint i = 0; i < 40; i++)
    {
      char name[16];

      g_snprintf (name, sizeof name, "early%u", i);
      reader (evs, 2000 + i, name, IOCHART_CLASS_BE, i * 10 * MS, i * 10 * MS + 400 * MS, 5 * MS, TRUE);
    }
  reader (evs, 3000, "keeper-a", IOCHART_CLASS_BE, 900 * MS, end, 2 * MS, FALSE);
  reader (evs, 3001, "keeper-b", IOCHART_CLASS_IDLE, 950 * MS, end, 2 * MS, FALSE);
  g_array_sort (evs, ev_cmp);
  return evs;
}

/* Feeds the events before until_ns from *fed on, as the recording worker would. */
static void
feed_until (IochartLiveCapture *live, const GArray *evs, guint *fed, gint64 until_ns)
{
  IochartBuilder *b = _iochart_live_capture_lock (live);

  for (; *fed < evs->len && g_array_index (evs, Ev, *fed).ts < until_ns; (*fed)++)
    apply (b, &g_array_index (evs, Ev, *fed));
  _iochart_live_capture_unlock (live);
}

/* A window holding a capture page, as the live page holds one. */
static IochartCapturePage *
page_in_window (GtkWindow **window_out)
{
  GtkWindow *w = GTK_WINDOW (gtk_window_new ());
  IochartCapturePage *page = iochart_capture_page_new ();

  gtk_window_set_default_size (w, 1500, 950);
  gtk_window_set_child (w, GTK_WIDGET (page));
  gtk_window_present (w);
  app_test_run_for (200000);
  *window_out = w;
  return page;
}

/* Until the chart of the current range is laid out. */
static void
wait_drawn (IochartTimelineView *tl)
{
  gint64 end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  app_test_run_for (50000);
  while (iochart_timeline_view_is_drawing (tl) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  app_test_run_for (50000);
}

/* An update of the live capture handed to the page, as the live page's refresh does: never
 * into a copy a layout still reads. */
static IochartCapture *
update (IochartLiveCapture *live, IochartCapturePage *page)
{
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartCapture *c;

  while (iochart_timeline_view_is_reading (tl, iochart_live_capture_peek_next (live)))
    g_main_context_iteration (NULL, TRUE);
  c = iochart_live_capture_update (live);
  iochart_capture_page_capture_changed (page, c, FALSE, 0);
  return c;
}

static guint32
process_of_pid (IochartCapture *c, gint32 pid)
{
  for (guint i = 0; i < iochart_capture_get_n_processes (c); i++)
    if (iochart_capture_get_process (c, i)->pid == pid)
      return i;
  return IOCHART_NO_PROCESS;
}

static int
lane_of_pid (IochartTimelineView *tl, gint32 pid)
{
  IochartView *view = iochart_timeline_view_get_view (tl);
  guint32 p = process_of_pid (iochart_view_get_capture (view), pid);

  return p == IOCHART_NO_PROCESS ? -1 : iochart_lanes_lane_of_process (iochart_view_get_lanes (view), p);
}

static void
test_follow (void)
{
  g_autoptr(GArray) evs = workload (12000 * MS);
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 3000 * MS);
  GtkWindow *window;
  IochartCapturePage *page = page_in_window (&window);
  IochartTimelineView *tl = iochart_capture_page_get_timeline (page);
  IochartCapture *c;
  guint fed = 0, n_before;
  guint32 a_before, b_before, hl, a_now, b_now;
  gint64 t = 1500 * MS, from0, to0, span0;

  /* 1.5 s in: the early readers and the keepers, the keepers numbered after them */
  feed_until (live, evs, &fed, t);
  c = iochart_live_capture_update (live);
  iochart_capture_page_show_capture (page, c, "live");
  wait_drawn (tl);
  iochart_timeline_view_get_range (tl, &from0, &to0);
  span0 = to0 - from0;
  n_before = iochart_capture_get_n_processes (c);
  a_before = process_of_pid (c, 3000);
  b_before = process_of_pid (c, 3001);
  g_assert_cmpuint (a_before, >, 40);
  /* click keeper-a's lane, expand keeper-b's */
  g_assert_cmpint (lane_of_pid (tl, 3000), >=, 0);
  iochart_timeline_view_activate_lane (tl, lane_of_pid (tl, 3000));
  iochart_timeline_view_set_expanded (tl, b_before, TRUE);
  wait_drawn (tl);
  g_assert_cmpuint (iochart_timeline_view_get_highlighted_process (tl), ==, a_before);

  /* ten updates a second to 12 s: the early readers leave the 3 s window and are dropped */
  while (fed < evs->len)
    {
      t += 100 * MS;
      feed_until (live, evs, &fed, t);
      c = update (live, page);
      if (iochart_live_capture_get_n_dropped_processes (live) > 0 && t % (1000 * MS) == 0)
        wait_drawn (tl);
    }
  wait_drawn (tl);
  a_now = process_of_pid (c, 3000);
  b_now = process_of_pid (c, 3001);
  g_test_message ("%u processes at 1.5 s, %u at 12 s (%" G_GUINT64_FORMAT " dropped); keeper-a #%u -> #%u, "
                  "keeper-b #%u -> #%u", n_before, iochart_capture_get_n_processes (c),
                  iochart_live_capture_get_n_dropped_processes (live), a_before, a_now, b_before, b_now);
  /* the early readers were dropped and the keepers numbered again */
  g_assert_cmpuint (iochart_live_capture_get_n_dropped_processes (live), >=, 30);
  g_assert_cmpuint (a_now, <, a_before);
  g_assert_cmpuint (b_now, <, b_before);

  /* the view kept its span but not a range the window dropped (its ticks read "-9.0 s") */
  {
    gint64 from, to, full_from, full_to;

    iochart_timeline_view_get_range (tl, &from, &to);
    iochart_timeline_view_get_full_range (tl, &full_from, &full_to);
    g_assert_cmpint (from, ==, full_from);
    g_assert_cmpint (to - from, ==, span0);
  }
  /* the highlight is still keeper-a, the expanded lane still keeper-b's */
  hl = iochart_timeline_view_get_highlighted_process (tl);
  g_assert_cmpuint (hl, <, iochart_capture_get_n_processes (c));
  g_assert_cmpint (iochart_capture_get_process (c, hl)->pid, ==, 3000);
  g_assert_cmpuint (hl, ==, a_now);
  g_assert_true (iochart_timeline_view_is_expanded (tl, b_now));
  g_assert_false (iochart_timeline_view_is_expanded (tl, b_before));
  /* and the chart drawn now highlights keeper-a's lane */
  g_assert_cmpint (iochart_timeline_view_get_highlighted_lane (tl), ==, lane_of_pid (tl, 3000));
  g_assert_cmpint (iochart_view_get_highlight_lane (iochart_timeline_view_get_view (tl)), ==, lane_of_pid (tl, 3000));
  app_test_set_window ((IochartWindow *) window);
  app_test_screenshot ("live-fake-follow.png");
  app_test_set_window (main_window);
  gtk_window_destroy (window);
  app_test_run_for (100000);
}

static void
wait_runs (IochartWhatifPanel *whatif)
{
  gint64 end = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  while (iochart_whatif_panel_is_running (whatif) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (iochart_whatif_panel_is_running (whatif));
  g_assert_null (iochart_whatif_panel_get_error (whatif));
}

static void
test_whatif (void)
{
  g_autoptr(GArray) evs = workload (4000 * MS);
  g_autoptr(IochartLiveCapture) live = iochart_live_capture_new ("fake", 0);
  const char *policies[] = { "noop", "bfq", NULL };
  GtkWindow *window;
  IochartCapturePage *page = page_in_window (&window);
  IochartWhatifPanel *whatif = iochart_capture_page_get_whatif (page);
  g_autoptr(IochartWhatifPanel) ref = g_object_ref_sink (IOCHART_WHATIF_PANEL (iochart_whatif_panel_new ()));
  g_autoptr(IochartCapture) then = NULL;
  IochartCapture *c;
  GPtrArray *rows, *ref_rows;
  guint fed = 0, n_then;

  feed_until (live, evs, &fed, 2000 * MS);
  iochart_capture_page_show_capture (page, iochart_live_capture_update (live), "live");
  wait_drawn (iochart_capture_page_get_timeline (page));
  feed_until (live, evs, &fed, 2500 * MS);
  c = update (live, page);
  n_then = fed;

  /* the run starts on the copy shown now and lasts through updates that rewrite both copies */
  iochart_whatif_panel_set_choices (whatif, policies, FALSE, "observed", "keeper-b=be", NULL);
  iochart_whatif_panel_set_min_run_ms (whatif, 300);
  iochart_whatif_panel_run (whatif);
  g_assert_true (iochart_whatif_panel_is_running (whatif));
  for (gint64 t = 2600 * MS; t <= 4000 * MS && iochart_whatif_panel_is_running (whatif); t += 100 * MS)
    {
      feed_until (live, evs, &fed, t);
      update (live, page);
      app_test_run_for (40000);
    }
  g_assert_cmpuint (fed, >, n_then);
  wait_runs (whatif);
  g_assert_cmpuint (iochart_whatif_panel_get_n_runs (whatif), ==, 2);

  /* what it simulated is the capture when it started: the batch build of the events fed then */
  then = batch (evs, n_then);
  g_assert_cmpuint (iochart_capture_get_n_requests (iochart_whatif_panel_get_observed (whatif)), ==,
                    iochart_capture_get_n_requests (then));
  g_assert_cmpuint (iochart_capture_get_n_requests (c), >, iochart_capture_get_n_requests (then));
  iochart_whatif_panel_set_capture (ref, then);
  iochart_whatif_panel_set_choices (ref, policies, FALSE, "observed", "keeper-b=be", NULL);
  iochart_whatif_panel_run (ref);
  wait_runs (ref);
  rows = iochart_whatif_panel_get_rows (whatif);
  ref_rows = iochart_whatif_panel_get_rows (ref);
  g_assert_cmpuint (rows->len, ==, ref_rows->len);
  g_assert_cmpuint (rows->len, >, 0);
  for (guint l = 0; l < rows->len; l++)
    {
      g_autofree char *a = g_strjoinv (" | ", g_ptr_array_index (rows, l));
      g_autofree char *b = g_strjoinv (" | ", g_ptr_array_index (ref_rows, l));

      g_test_message ("live: %s\nbatch: %s", a, b);
      g_assert_cmpstr (a, ==, b);
    }
  for (guint k = 0; k < 2; k++)
    g_assert_cmpuint (iochart_capture_get_n_requests (iochart_whatif_panel_get_run (whatif, k)), ==,
                      iochart_capture_get_n_requests (iochart_whatif_panel_get_run (ref, k)));
  app_test_set_window ((IochartWindow *) window);
  app_test_screenshot ("live-fake-whatif.png");
  app_test_set_window (main_window);
  gtk_window_destroy (window);
  app_test_run_for (100000);
}

/* Runs the main loop for us microseconds, checking the time at each round: while a page records,
 * its frame clock always has work, and app_test_run_for's draining never ends at 2500 px. */
static void
pump_for (gint64 us)
{
  gint64 end = g_get_monotonic_time () + us;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

/* A window of width w (light or dark) recording from a fake source through the live page: readers
 * of three classes at known rates, fed as time passes, so the page takes updates as it would from
 * the kernel. The status line shows each class's rate in the last second (the readers' rates by
 * count), no class that issued nothing, and fits: two lines at most, broken between its parts,
 * the window as wide as asked. */
static void
status_line_at (int w, gboolean dark, const char *shot)
{
  /* rt every 2 ms, be every 1 ms, idle every 4 ms, 4 KiB each */
  static const struct { gint32 pid; const char *name; IochartClass klass; gint64 step; } readers[] = {
    { 4000, "rt-reader", IOCHART_CLASS_RT, 2 * MS }, { 4001, "be-reader", IOCHART_CLASS_BE, 1 * MS },
    { 4002, "idle-reader-with-a-long-name", IOCHART_CLASS_IDLE, 4 * MS },
  };
  g_autoptr(GArray) evs = g_array_new (FALSE, FALSE, sizeof (Ev));
  IochartLiveCapture *live = iochart_live_capture_new ("fake", 0);
  IochartLivePageOptions options = { .fed = live };
  IochartWindow *window = iochart_window_new (IOCHART_APPLICATION (gtk_window_get_application (GTK_WINDOW (main_window))));
  IochartLivePage *page;
  const IochartLiveStatus *st;
  GtkLabel *label = NULL;
  const char *text;
  guint fed = 0;
  gint64 start_us, end_ns = 4000 * MS;
  double events_per_s = 0;
  PangoLayout *layout;

  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    reader (evs, readers[r].pid, readers[r].name, readers[r].klass, 0, end_ns, readers[r].step, FALSE);
  g_array_sort (evs, ev_cmp);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_set_default_size (GTK_WINDOW (window), w, 800);
  gtk_window_present (GTK_WINDOW (window));
  page = iochart_window_record (window, &options);
  g_assert_true (iochart_live_page_is_recording (page));
  /* trace time runs with the clock, from 1 s in: a status a second of wall time */
  start_us = g_get_monotonic_time ();
  while (fed < evs->len)
    {
      feed_until (live, evs, &fed, 1000 * MS + (g_get_monotonic_time () - start_us) * 1000);
      pump_for (20000);
    }
  pump_for (1200000);
  iochart_live_page_stop (page);
  pump_for (600000);

  /* the rates of the last second, per class, are the readers' (the newest event: the last
   * completion, 450 us after the last issue) */
  st = iochart_live_page_get_status (page);
  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      double want = 1000 * MS / readers[r].step;

      g_assert_cmpfloat (fabs (st->requests_per_s[readers[r].klass] - want), <=, 1);
      g_assert_cmpfloat (fabs (st->bytes_per_s[readers[r].klass] - want * 4096), <=, 4096);
      events_per_s += 4 * want;   /* queue, insert, issue, complete */
    }
  /* so are the events a second, after the stop too (it said "0 events/s": no events since the
   * status before) */
  g_assert_cmpfloat (fabs (st->events_per_s - events_per_s), <=, events_per_s * 0.02);
  /* the status label: the one wrapped to two lines at most */
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (page)); c && !label;)
    {
      if (GTK_IS_LABEL (c) && gtk_label_get_lines (GTK_LABEL (c)) == 2)
        label = GTK_LABEL (c);
      else if (gtk_widget_get_first_child (c))
        c = gtk_widget_get_first_child (c);
      else
        {
          while (c && !gtk_widget_get_next_sibling (c))
            c = gtk_widget_get_parent (c);
          c = c ? gtk_widget_get_next_sibling (c) : NULL;
        }
    }
  g_assert_nonnull (label);
  text = gtk_label_get_text (label);
  g_test_message ("%d px: %s", w, text);
  g_assert_true (g_str_has_prefix (text, "rt\u00a0"));
  g_assert_nonnull (strstr (text, " · be\u00a0"));
  g_assert_nonnull (strstr (text, " · idle\u00a0"));
  g_assert_null (strstr (text, "none"));
  g_assert_null (strstr (text, "unknown"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (label)), "lost 0"));
  /* it fits: two lines at most, the first beginning with the rt rate, nothing wider than asked */
  layout = gtk_label_get_layout (label);
  g_assert_cmpint (pango_layout_get_line_count (layout), <=, 2);
  g_assert_cmpint (abs (gtk_widget_get_width (GTK_WIDGET (window)) - w), <=, 12);
  app_test_set_window (window);
  app_test_screenshot (shot);
  app_test_set_window (main_window);
  gtk_window_destroy (GTK_WINDOW (window));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  app_test_run_for (100000);
}

static void
test_status_line (void)
{
  status_line_at (700, FALSE, "live-fake-status-700-light.png");
  status_line_at (700, TRUE, "live-fake-status-700-dark.png");
  status_line_at (2500, FALSE, "live-fake-status-2500-light.png");
}

int
main (int argc, char **argv)
{
  const char *required[] = { NULL };

  if (!app_test_init (&argc, &argv, required))
    return 77;
  main_window = app_test_window ();
  g_test_add_func ("/live-fake/follow", test_follow);
  g_test_add_func ("/live-fake/whatif", test_whatif);
  g_test_add_func ("/live-fake/status-line", test_status_line);
  return g_test_run ();
}
