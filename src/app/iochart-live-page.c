/* iochart-live-page.c: recording live into a capture page (see the header)
 *
 * The live capture's worker drains the recorder; on the frame clock, every UPDATE_US, the page
 * takes the newest events into one of the live capture's two published copies and shows it, and
 * the timeline scrolls to them. The timeline lays its charts out in a worker that reads the copy
 * shown while the next update fills the other one: an update waits (a frame) only when a layout
 * of the copy before is still running.
 */
#include <glib/gi18n.h>
#include <signal.h>
#include <time.h>
#include <sys/wait.h>
#include "iochart-live-page.h"
#include "iochart-error.h"
#include "iochart-format.h"
#include "iochart-heap.h"
#include "record/iochart-recorder.h"
#include "record/iochart-live-capture.h"
#include "record/iochart-live.h"

#define TICK_MS 250                           /* the clock on the state label */
/* 12.5 updates a second when frames keep up: with frames late by up to a beat (a loaded
 * machine) at least ten still land. The UI thread spends about 10 ms of CPU an update: the
 * layout worker draws the chart. */
#define UPDATE_US (80 * G_TIME_SPAN_MILLISECOND)
#define DEFAULT_KEEP_NS (600 * G_GINT64_CONSTANT (1000000000))
#define DEFAULT_SPAN_NS (10 * G_GINT64_CONSTANT (1000000000))

struct _IochartLivePage {
  GtkBox              parent_instance;
  GtkStack           *stack;
  AdwStatusPage      *error_page;
  GtkLabel           *state_label;
  GtkLabel           *status_label;
  IochartCapturePage *capture_page;
  AdwTabPage         *tab;
  GtkFileChooserNative *chooser;

  IochartRecorder    *recorder;
  IochartLiveCapture *live;
  IochartCapture     *capture;        /* the copy shown (the live capture owns it) */
  char               *out;
  GPid                child;
  guint               child_watch;
  guint               tick;
  guint               frame_tick;     /* updates, on the frame clock */
  gint64              due_us;         /* when the next update is due */
  gint64              update_cpu_ns;  /* the UI thread's CPU time in updates */
  guint               n_waits;        /* frames an update waited for a layout of its copy */
  gint64              update_wall_us; /* and the wall time they took */
  gint64              started_us, stopped_us;
  gboolean            recording;
  gboolean            paused;
  gboolean            shown;          /* the capture page shows the capture */
  gboolean            final_pending;  /* stopped: one last update to take */
  guint               n_updates;
  gint64              last_figures_us, last_status_us, last_episodes_us;
  gint64              span_ns;        /* the span the view follows with */
  gint64              set_from, set_to;   /* the range it was given last */
  IochartLiveStatus   status;
  GError             *error;
};

G_DEFINE_FINAL_TYPE (IochartLivePage, iochart_live_page, GTK_TYPE_BOX)

/* "paused" backs the live.pause action of the toggle button */
enum { PROP_0, PROP_PAUSED, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
update_tab (IochartLivePage *self)
{
  if (self->tab == NULL)
    return;
  adw_tab_page_set_title (self->tab, self->recording ? _("Recording") : self->error ? _("Cannot Record")
                                                                                     : _("Recorded"));
  adw_tab_page_set_loading (self->tab, self->recording);
}

static void
show_error (IochartLivePage *self, GError *error)
{
  g_clear_error (&self->error);
  self->error = error;
  adw_status_page_set_description (self->error_page, error->message);
  gtk_stack_set_visible_child_name (self->stack, "error");
  update_tab (self);
}

static void
update_state_label (IochartLivePage *self)
{
  gint64 until = self->recording ? g_get_monotonic_time () : self->stopped_us;
  g_autofree char *t = iochart_format_duration ((until - self->started_us) * 1000);
  g_autofree char *text = NULL;

  if (self->recording)
    text = g_strdup_printf (self->paused ? _("● Recording %s (view paused)") : _("● Recording %s"), t);
  else
    text = g_strdup_printf (_("Recorded %s"), t);
  gtk_label_set_text (self->state_label, text);
}

/* The span the view follows with: the one the user zoomed to (10 s at first), the whole
 * recording while it is shorter; 0 while paused. */
static gint64
follow_span (IochartLivePage *self)
{
  IochartTimelineView *tl = iochart_capture_page_get_timeline (self->capture_page);
  gint64 from, to;

  if (self->paused)
    return 0;
  iochart_timeline_view_get_range (tl, &from, &to);
  if (self->set_to != 0 && (from != self->set_from || to != self->set_to))
    self->span_ns = to - from;   /* zoomed since */
  return self->span_ns;
}

/* What follow_span compares with next time. */
static void
note_range (IochartLivePage *self)
{
  iochart_timeline_view_get_range (iochart_capture_page_get_timeline (self->capture_page), &self->set_from,
                                   &self->set_to);
}

static void
update_status (IochartLivePage *self, IochartCapture *c)
{
  IochartLiveStatus prev = self->status;
  g_autofree char *line = NULL;

  g_autoptr(GPtrArray) parts = NULL;
  g_autoptr(GString) wrapped = g_string_new (NULL);

  iochart_live_status_compute (c, &prev, &self->status);
  parts = iochart_live_status_parts (&self->status);
  /* a narrow window wraps the line between its parts, never inside one, and cuts the least
   * telling parts at the end of its second line; the tooltip has it all */
  for (guint i = 0; i < parts->len; i++)
    {
      g_autoptr(GString) part = g_string_new (g_ptr_array_index (parts, i));

      g_string_replace (part, " ", "\u00a0", 0);
      g_string_append_printf (wrapped, "%s%s", i ? " · " : "", part->str);
    }
  line = iochart_live_status_format (&self->status);
  gtk_label_set_text (self->status_label, wrapped->str);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status_label), line);
}

static gint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

/* Takes the newest events into the copy the chart does not read and shows them; last: the
 * recording stopped. FALSE when a layout still reads that copy: try again at the next frame. */
static gboolean
refresh (IochartLivePage *self, gboolean last)
{
  IochartTimelineView *tl = iochart_capture_page_get_timeline (self->capture_page);
  IochartCapture *c;
  gint64 now = g_get_monotonic_time (), cpu0 = thread_cpu_ns ();
  gboolean second = now - self->last_status_us >= G_USEC_PER_SEC;

  if (iochart_timeline_view_is_reading (tl, iochart_live_capture_peek_next (self->live)))
    {
      self->n_waits++;
      return FALSE;
    }
  c = self->capture = iochart_live_capture_update (self->live);
  self->n_updates++;
  if (iochart_capture_get_start_ns (c) == IOCHART_TIME_UNKNOWN)
    ;   /* nothing recorded yet */
  else if (!self->shown)
    {
      iochart_capture_page_show_capture (self->capture_page, c, _("Live recording"));
      self->shown = TRUE;
      note_range (self);
    }
  else
    {
      /* the episode list is a row per episode: rebuilt every few seconds, not 10 times a second */
      gboolean episodes = last || now - self->last_episodes_us >= 5 * G_USEC_PER_SEC;

      iochart_capture_page_capture_changed (self->capture_page, c, episodes, follow_span (self));
      note_range (self);
      if (episodes)
        self->last_episodes_us = now;
    }
  /* the figures of the visible range: a few times a second is what a reader can follow */
  if (self->shown && (last || now - self->last_figures_us >= G_USEC_PER_SEC / 3))
    {
      iochart_capture_page_update_figures (self->capture_page);
      self->last_figures_us = now;
    }
  if (self->shown && (second || last))
    {
      update_status (self, c);
      self->last_status_us = now;
    }
  self->update_cpu_ns += thread_cpu_ns () - cpu0;
  self->update_wall_us += g_get_monotonic_time () - now;
  return TRUE;
}

/* Each frame: an update when one is due, on a fixed beat (a late one does not push the next
 * ones back). */
static gboolean
frame_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer user_data)
{
  IochartLivePage *self = IOCHART_LIVE_PAGE (widget);
  gint64 now = g_get_monotonic_time ();

  if (!self->recording)
    {
      self->frame_tick = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->paused || now < self->due_us || !refresh (self, FALSE))
    return G_SOURCE_CONTINUE;
  self->due_us = now - self->due_us > UPDATE_US ? now + UPDATE_US : self->due_us + UPDATE_US;
  return G_SOURCE_CONTINUE;
}

static gboolean
tick (gpointer user_data)
{
  IochartLivePage *self = user_data;

  update_state_label (self);
  /* a page out of sight has no frames: its capture still takes what arrived, so that the
   * builder does not hold it all until the page is shown */
  if (self->recording && !self->paused && !gtk_widget_get_mapped (GTK_WIDGET (self)))
    refresh (self, FALSE);
  if (self->live != NULL && self->final_pending && refresh (self, TRUE))
    {
      self->final_pending = FALSE;
      if (!self->paused)
        iochart_timeline_view_zoom_fit (iochart_capture_page_get_timeline (self->capture_page));
    }
  return G_SOURCE_CONTINUE;
}

/* ---- starting and stopping ---- */

static void
child_exited (GPid pid, int status, gpointer user_data)
{
  IochartLivePage *self = user_data;

  self->child_watch = 0;
  g_spawn_close_pid (pid);
  self->child = 0;
  iochart_live_page_stop (self);
}

static gboolean
spawn_command (IochartLivePage *self, const char * const *command, GError **error)
{
  g_autoptr(GError) local = NULL;

  if (!g_spawn_async (NULL, (char **) command, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                      &self->child, &local))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': %s", command[0], local->message);
      return FALSE;
    }
  self->child_watch = g_child_watch_add (self->child, child_exited, self);
  return TRUE;
}

static gboolean
add_rules (IochartLiveCapture *live, const char * const *texts, GError **error)
{
  for (guint i = 0; texts && texts[i]; i++)
    {
      IochartClassRule rule = { 0 };

      if (!iochart_class_rule_parse (texts[i], &rule, error))
        return FALSE;
      iochart_live_capture_add_rule (live, &rule);
      iochart_class_rule_clear (&rule);
    }
  return TRUE;
}

/* Recording from now on: the page shows it and takes its updates. */
static void
begin (IochartLivePage *self)
{
  self->recording = TRUE;
  self->started_us = g_get_monotonic_time ();
  gtk_stack_set_visible_child_name (self->stack, "live");
  self->tick = g_timeout_add (TICK_MS, tick, self);
  self->due_us = g_get_monotonic_time ();
  self->frame_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), frame_tick, NULL, NULL);
  update_state_label (self);
  update_tab (self);
}

gboolean
iochart_live_page_start (IochartLivePage *self, const IochartLivePageOptions *options)
{
  static const IochartLivePageOptions defaults = { 0 };
  const IochartLivePageOptions *o = options ? options : &defaults;
  IochartRecorderOptions ro = { .sched = TRUE, .devices = o->devices, .n_devices = o->n_devices };
  GError *error = NULL;

  g_return_val_if_fail (self->recorder == NULL && self->live == NULL, FALSE);
  if (o->fed != NULL)
    {
      self->live = o->fed;
      begin (self);
      return TRUE;
    }
  g_free (self->out);
  self->out = g_strdup (o->out);
  if ((self->recorder = iochart_recorder_new (&ro, &error)) == NULL)
    {
      show_error (self, error);
      return FALSE;
    }
  self->live = iochart_live_capture_new (_("Live recording"), o->keep_ns > 0 ? o->keep_ns : DEFAULT_KEEP_NS);
  if (!add_rules (self->live, o->class_rules, &error) || !iochart_live_capture_use_kernel_formats (self->live, &error))
    {
      g_clear_pointer (&self->live, iochart_live_capture_free);
      g_clear_pointer (&self->recorder, iochart_recorder_free);
      show_error (self, error);
      return FALSE;
    }
  iochart_live_capture_start (self->live, self->recorder, 50);
  begin (self);
  if (o->command != NULL && o->command[0] != NULL && !spawn_command (self, o->command, &error))
    {
      iochart_live_page_stop (self);
      show_error (self, error);
      return FALSE;
    }
  return TRUE;
}

void
iochart_live_page_stop (IochartLivePage *self)
{
  GError *error = NULL;

  if (!self->recording)
    return;
  if (self->child_watch != 0)
    {
      /* stopped before the command ended: it ends now, as with `iochart record` */
      kill (self->child, SIGTERM);
    }
  self->recording = FALSE;
  self->stopped_us = g_get_monotonic_time ();
  if (!iochart_live_capture_stop (self->live, &error))
    {
      show_error (self, error);
      return;
    }
  self->final_pending = TRUE;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "live.stop", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "live.pause", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "live.save", self->recorder != NULL);
  if (self->out != NULL && !iochart_live_page_save (self, self->out, &error))
    show_error (self, error);
  update_state_label (self);
  update_tab (self);
}

gboolean
iochart_live_page_save (IochartLivePage *self, const char *path, GError **error)
{
  g_return_val_if_fail (self->recorder != NULL && !self->recording, FALSE);
  return iochart_recorder_write (self->recorder, path, error);
}

void
iochart_live_page_set_paused (IochartLivePage *self, gboolean paused)
{
  if (self->paused == paused)
    return;
  if (!paused)
    {
      IochartTimelineView *tl = iochart_capture_page_get_timeline (self->capture_page);
      gint64 from, to;

      /* resumed: following again with the span the user zoomed to while paused */
      iochart_timeline_view_get_range (tl, &from, &to);
      self->span_ns = MAX (to - from, IOCHART_TIMELINE_MIN_SPAN_NS);
      self->set_to = 0;
    }
  self->paused = paused;
  if (paused && self->shown && self->live != NULL)
    iochart_capture_page_capture_changed (self->capture_page, self->capture, TRUE, 0);
  update_state_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
}

/* ---- the buttons' actions ---- */

static void
stop_action (GtkWidget *widget, const char *action, GVariant *parameter)
{
  iochart_live_page_stop (IOCHART_LIVE_PAGE (widget));
}

static void
save_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  IochartLivePage *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      if (!iochart_live_page_save (self, path, &error))
        text = g_strdup (error->message);
      else
        text = g_strdup_printf (_("Saved “%s”"), path);
      gtk_label_set_text (self->status_label, text);
    }
  g_clear_object (&self->chooser);
}

static void
save_action (GtkWidget *widget, const char *action, GVariant *parameter)
{
  IochartLivePage *self = IOCHART_LIVE_PAGE (widget);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *name = g_date_time_format (now, "iochart-%Y%m%d-%H%M%S.dat");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  self->chooser = gtk_file_chooser_native_new (_("Save the Recording"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Save"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- accessors ---- */

void
iochart_live_page_set_tab (IochartLivePage *self, AdwTabPage *tab)
{
  self->tab = tab;
  update_tab (self);
}

gboolean
iochart_live_page_is_recording (IochartLivePage *self)
{
  return self->recording;
}

const GError *
iochart_live_page_get_error (IochartLivePage *self)
{
  return self->error;
}

IochartCapturePage *
iochart_live_page_get_capture_page (IochartLivePage *self)
{
  return self->capture_page;
}

guint
iochart_live_page_get_n_updates (IochartLivePage *self)
{
  return self->n_updates;
}

gint64
iochart_live_page_get_update_cpu_ns (IochartLivePage *self)
{
  return self->update_cpu_ns;
}

gint64
iochart_live_page_get_update_wall_us (IochartLivePage *self)
{
  return self->update_wall_us;
}

const IochartLiveStatus *
iochart_live_page_get_status (IochartLivePage *self)
{
  return &self->status;
}

guint
iochart_live_page_get_n_waits (IochartLivePage *self)
{
  return self->n_waits;
}

static void
iochart_live_page_dispose (GObject *object)
{
  IochartLivePage *self = IOCHART_LIVE_PAGE (object);

  self->tab = NULL;
  if (self->recording)
    iochart_live_page_stop (self);
  g_clear_handle_id (&self->tick, g_source_remove);
  if (self->frame_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->frame_tick);
  self->frame_tick = 0;
  g_clear_handle_id (&self->child_watch, g_source_remove);
  g_clear_object (&self->chooser);
  gtk_widget_dispose_template (GTK_WIDGET (self), IOCHART_TYPE_LIVE_PAGE);
  G_OBJECT_CLASS (iochart_live_page_parent_class)->dispose (object);
}

static void
iochart_live_page_finalize (GObject *object)
{
  IochartLivePage *self = IOCHART_LIVE_PAGE (object);

  /* the capture page (disposed with the template) held the published capture */
  g_clear_pointer (&self->live, iochart_live_capture_free);
  g_clear_pointer (&self->recorder, iochart_recorder_free);
  /* a recording's copies of its capture are not trimmed one by one (that would be a trim a
   * second): what they all held goes back here */
  iochart_heap_trim_later (250);
  g_free (self->out);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (iochart_live_page_parent_class)->finalize (object);
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  g_value_set_boolean (value, IOCHART_LIVE_PAGE (object)->paused);
}

static void
set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  iochart_live_page_set_paused (IOCHART_LIVE_PAGE (object), g_value_get_boolean (value));
}

static void
iochart_live_page_class_init (IochartLivePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iochart_live_page_dispose;
  object_class->finalize = iochart_live_page_finalize;
  object_class->get_property = get_property;
  object_class->set_property = set_property;
  properties[PROP_PAUSED] = g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_type_ensure (IOCHART_TYPE_CAPTURE_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/iochart/Iochart/iochart-live-page.ui");
  gtk_widget_class_bind_template_child (widget_class, IochartLivePage, stack);
  gtk_widget_class_bind_template_child (widget_class, IochartLivePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, IochartLivePage, state_label);
  gtk_widget_class_bind_template_child (widget_class, IochartLivePage, status_label);
  gtk_widget_class_bind_template_child (widget_class, IochartLivePage, capture_page);
  gtk_widget_class_install_property_action (widget_class, "live.pause", "paused");
  gtk_widget_class_install_action (widget_class, "live.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "live.save", NULL, save_action);
}

static void
iochart_live_page_init (IochartLivePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->span_ns = DEFAULT_SPAN_NS;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "live.save", FALSE);
}

IochartLivePage *
iochart_live_page_new (void)
{
  return g_object_new (IOCHART_TYPE_LIVE_PAGE, NULL);
}
