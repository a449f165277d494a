/* iochart-capture-page.c: one capture's tab: worker-thread loading, filters, ruler, side panel */
#include <math.h>
#include <glib/gi18n.h>
#include "iochart-capture-page.h"
#include "iochart-loader.h"
#include "iochart-format.h"
#include "iochart-heap.h"
#include "render/iochart-cairo.h"
#include "render/iochart-chart.h"
#include "render/iochart-svg.h"
#include "bootchart/iochart-bootchart-chart.h"

#define RULER_HEIGHT 26

struct _IochartCapturePage {
  GtkBox               parent_instance;
  GtkStack            *stack;
  GtkPaned            *paned;
  guint                orient_source;
  GtkLabel            *loading_label;
  GtkProgressBar      *progress;
  AdwStatusPage       *error_page;
  GtkWidget           *retry_button;
  GtkBox              *filters;
  GtkDropDown         *device_dropdown;
  GtkDropDown         *class_dropdown;
  GtkDropDown         *order_dropdown;
  GtkSearchEntry      *search;
  GtkBox              *search_row;
  GtkLabel            *range_label;
  GtkDrawingArea      *ruler;
  IochartTimelineView *timeline;
  IochartRangePanel   *panel;
  GtkStack            *side_stack;
  IochartWhatifPanel  *whatif;
  GtkBox              *sim_box;
  GPtrArray           *sim_views;           /* IochartTimelineView of each simulated run */

  char                *title;
  GStrv                paths;
  GCancellable        *cancellable;
  gint                 progress_permille;   /* written by the worker */
  guint                progress_source;
  guint                figures_source;
  gboolean             loading;
  GError              *error;
  IochartCapture      *capture;
  IochartBootchart    *bootchart;
  IochartSteal        *steal;               /* the whole capture's, for the episode list */
  gint64               boot_offset_ns;      /* boot chart time = capture time + this */
  GArray              *filter_pids;         /* the lanes kept by the class and name filters, or NULL */
};

G_DEFINE_FINAL_TYPE (IochartCapturePage, iochart_capture_page, GTK_TYPE_BOX)

enum { PROP_0, PROP_TITLE, N_PROPS };
static GParamSpec *properties[N_PROPS];

typedef struct {
  GStrv             paths;
  IochartCapture   *capture;
  IochartBootchart *bootchart;
  IochartSteal     *steal;
  IochartBinIndex  *index;
} LoadResult;

static void
load_result_free (LoadResult *r)
{
  g_strfreev (r->paths);
  g_clear_object (&r->capture);
  g_clear_object (&r->bootchart);
  g_clear_pointer (&r->steal, iochart_steal_free);
  g_clear_pointer (&r->index, iochart_bin_index_unref);
  g_free (r);
}

/* ---- loading, in a worker thread ---- */

#define LOAD_PERMILLE 800

static void
progress_cb (double fraction, gpointer user_data)
{
  IochartCapturePage *self = user_data;

  /* reading is most of the work; the steal figures and the bin index come after it */
  g_atomic_int_set (&self->progress_permille, (gint) (fraction * LOAD_PERMILLE));
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  IochartCapturePage *self = source;
  LoadResult *r = g_new0 (LoadResult, 1);
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  const char *bootchart_path = NULL;
  IochartLoadOptions options = { .progress = progress_cb, .progress_data = self };
  GError *error = NULL;

  r->paths = g_strdupv (task_data);
  /* as on the command line: a bootchart with the traces of the same boot */
  for (guint i = 0; r->paths[i]; i++)
    if (bootchart_path == NULL && iochart_bootchart_sniff_path (r->paths[i]))
      bootchart_path = r->paths[i];
    else
      g_ptr_array_add (traces, r->paths[i]);
  g_ptr_array_add (traces, NULL);
  if (bootchart_path && (r->bootchart = iochart_bootchart_load (bootchart_path, &error)) == NULL)
    goto fail;
  if (traces->len > 1)
    r->capture = iochart_load ((const char * const *) traces->pdata, &options, &error);
  else if (bootchart_path)
    r->capture = iochart_bootchart_chart_load_bundle_io (bootchart_path, &error);
  if (error)
    goto fail;
  if (r->capture && r->bootchart)
    iochart_bootchart_lend_task_states (r->bootchart, r->capture);   /* the time split from samples */
  if (r->capture && r->bootchart == NULL)
    {
      IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;

      so.device = iochart_steal_pick_device (r->capture);
      /* the chart's index, here under the progress bar rather than in the first layout; the
       * episode list's steal then sweeps the events it sorted */
      g_atomic_int_set (&self->progress_permille, LOAD_PERMILLE);
      if (so.device >= 0)
        r->index = iochart_bin_index_new (r->capture, so.device, IOCHART_LATENCY_Q2C);
      g_atomic_int_set (&self->progress_permille, (LOAD_PERMILLE + 3000) / 4);
      so.index = r->index;
      r->steal = iochart_steal_new (r->capture, &so);
      g_atomic_int_set (&self->progress_permille, 1000);
    }
  g_task_return_pointer (task, r, (GDestroyNotify) load_result_free);
  return;
fail:
  load_result_free (r);
  g_task_return_error (task, error);
}

static gboolean
progress_tick (gpointer user_data)
{
  IochartCapturePage *self = user_data;
  int permille = g_atomic_int_get (&self->progress_permille);

  if (permille > 0)
    gtk_progress_bar_set_fraction (self->progress, permille / 1000.0);
  else
    gtk_progress_bar_pulse (self->progress);
  return G_SOURCE_CONTINUE;
}

static void fill_filters (IochartCapturePage *self);
static void timeline_changed (IochartCapturePage *self);
static void toggle_expanded (IochartCapturePage *self);
static void schedule_figures (IochartCapturePage *self);

/* A closed tab's capture is most of the heap, and malloc keeps the pages it frees: they go back
 * once the capture is gone, from whichever thread (a layout worker's) dropped it last. */
static void
capture_finalized (gpointer data, GObject *where_the_object_was)
{
  iochart_heap_trim_later (250);
}

static void
load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  IochartCapturePage *self = IOCHART_CAPTURE_PAGE (source);
  LoadResult *r = g_task_propagate_pointer (G_TASK (result), &self->error);

  self->loading = FALSE;
  g_clear_handle_id (&self->progress_source, g_source_remove);
  if (r == NULL)
    {
      if (g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *text = g_strdup_printf (_("“%s” was not opened. Close this tab, or load it again."),
                                                   self->title);

          adw_status_page_set_title (self->error_page, _("Loading Cancelled"));
          adw_status_page_set_description (self->error_page, text);
        }
      else
        {
          adw_status_page_set_title (self->error_page, _("Cannot Open This Capture"));
          adw_status_page_set_description (self->error_page, self->error->message);
        }
      /* a cancelled load can be taken up again; a reader's error would only repeat */
      gtk_widget_set_visible (self->retry_button, g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
      gtk_stack_set_visible_child_name (self->stack, "error");
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
      return;
    }
  /* recent files: the captures that opened */
  for (guint i = 0; self->paths[i]; i++)
    {
      g_autofree char *uri = g_filename_to_uri (self->paths[i], NULL, NULL);
      if (uri)
        gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
    }
  self->capture = g_steal_pointer (&r->capture);
  if (self->capture)
    g_object_weak_ref (G_OBJECT (self->capture), capture_finalized, NULL);
  self->bootchart = g_steal_pointer (&r->bootchart);
  self->steal = g_steal_pointer (&r->steal);
  iochart_timeline_view_set_index (self->timeline, r->index);
  load_result_free (r);
  if (self->bootchart && self->capture)
    g_free (iochart_bootchart_align_io (self->bootchart, self->capture, &self->boot_offset_ns));
  iochart_timeline_view_set_data (self->timeline, self->capture, self->bootchart);
  iochart_whatif_panel_set_capture (self->whatif, self->bootchart ? NULL : self->capture);
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->side_stack)) ?
                          gtk_widget_get_first_child (gtk_widget_get_parent (GTK_WIDGET (self->side_stack))) : NULL,
                          self->bootchart == NULL);
  fill_filters (self);
  iochart_range_panel_set_episodes (self->panel, self->steal,
                                    iochart_timeline_view_get_origin_ns (self->timeline));
  gtk_stack_set_visible_child_name (self->stack, "chart");
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
  schedule_figures (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

void
iochart_capture_page_load (IochartCapturePage *self, GFile **files, int n_files)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();

  g_return_if_fail (!self->loading);
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      if (path)
        g_strv_builder_add (paths, path);
    }
  g_strfreev (self->paths);
  self->paths = g_strv_builder_end (paths);
  g_free (self->title);
  self->title = g_file_get_basename (files[0]);
  if (n_files > 1)
    {
      /* a blktrace folder and the .dat of the same run: both names */
      g_autofree char *first = g_steal_pointer (&self->title);
      g_autofree char *second = g_file_get_basename (files[1]);

      self->title = n_files == 2 ? g_strdup_printf ("%s + %s", first, second)
                                 : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s + %d more", "%s + %d more",
                                                                 n_files - 1), first, n_files - 1);
    }
  {
    g_autofree char *text = g_strdup_printf (_("Loading %s…"), self->title);
    gtk_label_set_text (self->loading_label, text);
  }
  self->loading = TRUE;
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  gtk_stack_set_visible_child_name (self->stack, "loading");
  self->progress_source = g_timeout_add (100, progress_tick, self);
  task = g_task_new (self, self->cancellable, load_done, NULL);
  /* the readers cannot stop half-way: Cancel returns at once and the result is dropped */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, g_strdupv (self->paths), (GDestroyNotify) g_strfreev);
  g_task_run_in_thread (task, load_thread);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

static void
set_episodes (IochartCapturePage *self)
{
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;

  so.device = iochart_steal_pick_device (self->capture);
  g_clear_pointer (&self->steal, iochart_steal_free);
  self->steal = iochart_steal_new (self->capture, &so);
  iochart_range_panel_set_episodes (self->panel, self->steal, iochart_timeline_view_get_origin_ns (self->timeline));
}

void
iochart_capture_page_show_capture (IochartCapturePage *self, IochartCapture *capture, const char *title)
{
  g_set_object (&self->capture, capture);
  g_free (self->title);
  self->title = g_strdup (title);
  iochart_timeline_view_set_data (self->timeline, self->capture, NULL);
  iochart_whatif_panel_capture_changed (self->whatif, self->capture);
  fill_filters (self);
  set_episodes (self);
  gtk_stack_set_visible_child_name (self->stack, "chart");
  schedule_figures (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

void
iochart_capture_page_capture_changed (IochartCapturePage *self, IochartCapture *capture, gboolean episodes,
                                      gint64 follow_span_ns)
{
  GListModel *devices = gtk_drop_down_get_model (self->device_dropdown);

  g_set_object (&self->capture, capture);
  iochart_timeline_view_data_changed (self->timeline, capture, follow_span_ns);
  iochart_whatif_panel_capture_changed (self->whatif, capture);
  /* the range moved with the data: the caller updates the figures at its own pace, not 150 ms
   * after every change (a live view changes ten times a second) */
  g_clear_handle_id (&self->figures_source, g_source_remove);
  /* a new device: refilled only then, since refilling resets the choice */
  if (devices == NULL || g_list_model_get_n_items (devices) != iochart_capture_get_n_devices (self->capture) + 1)
    fill_filters (self);
  if (episodes)
    set_episodes (self);
}

void
iochart_capture_page_cancel (IochartCapturePage *self)
{
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

static void
cancel_clicked (IochartCapturePage *self)
{
  iochart_capture_page_cancel (self);
}

/* Retry on a cancelled load: the same files loaded again. */
static void
retry_clicked (IochartCapturePage *self)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->loading || self->paths == NULL || self->paths[0] == NULL)
    return;
  for (guint i = 0; self->paths[i]; i++)
    g_ptr_array_add (files, g_file_new_for_path (self->paths[i]));
  g_clear_error (&self->error);
  iochart_capture_page_load (self, (GFile **) files->pdata, files->len);
}

/* ---- filters ---- */

/* Beside the other filters, or narrow, on a row of its own, as wide as the window. */
static void
place_search (IochartCapturePage *self)
{
  gboolean narrow = gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == GTK_ORIENTATION_VERTICAL;
  GtkWidget *search = GTK_WIDGET (self->search);
  GtkWidget *parent = narrow ? GTK_WIDGET (self->search_row) : GTK_WIDGET (self->filters);

  gtk_widget_set_visible (GTK_WIDGET (self->search_row), narrow && gtk_widget_get_visible (search));
  if (gtk_widget_get_parent (search) == parent)
    return;
  g_object_ref (search);
  gtk_box_remove (GTK_BOX (gtk_widget_get_parent (search)), search);
  if (narrow)
    gtk_box_append (self->search_row, search);
  else
    gtk_box_insert_child_after (self->filters, search, GTK_WIDGET (self->order_dropdown));
  gtk_widget_set_hexpand (search, narrow);
  g_object_unref (search);
}

static void
fill_filters (IochartCapturePage *self)
{
  g_autoptr(GtkStringList) devices = gtk_string_list_new (NULL);

  gtk_widget_set_visible (GTK_WIDGET (self->device_dropdown), self->bootchart == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->class_dropdown), self->bootchart == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->search), self->bootchart == NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->order_dropdown), self->bootchart == NULL);
  /* type-ahead: what is typed over the charts (a key they do not take) starts the search */
  gtk_search_entry_set_key_capture_widget (self->search, self->bootchart == NULL
                                           ? gtk_widget_get_ancestor (GTK_WIDGET (self->timeline),
                                                                      GTK_TYPE_SCROLLED_WINDOW)
                                           : NULL);
  place_search (self);
  if (self->capture == NULL)
    return;
  gtk_string_list_append (devices, _("Busiest device"));
  for (guint i = 0; i < iochart_capture_get_n_devices (self->capture); i++)
    {
      const IochartDevice *d = iochart_capture_get_device (self->capture, i);
      g_autofree char *text = d->name ? g_strdup_printf ("%u,%u (%s)", IOCHART_DEV_MAJOR (d->dev),
                                                         IOCHART_DEV_MINOR (d->dev), d->name)
                                      : g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (d->dev),
                                                         IOCHART_DEV_MINOR (d->dev));
      gtk_string_list_append (devices, text);
    }
  gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (devices));
}

/* Which classes the class filter offers, in its order. */
static const IochartClass filter_classes[] = { IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_IDLE,
                                               IOCHART_CLASS_NONE, IOCHART_CLASS_UNKNOWN };

static void
apply_filters (IochartCapturePage *self)
{
  guint dev = gtk_drop_down_get_selected (self->device_dropdown);
  guint klass = gtk_drop_down_get_selected (self->class_dropdown);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search));
  g_autoptr(GArray) pids = NULL;
  g_autofree char *needle = g_utf8_casefold (text, -1);
  gboolean by_class = klass != GTK_INVALID_LIST_POSITION && klass > 0;
  gboolean by_name = *text != '\0';

  if (self->capture == NULL)
    return;
  /* lanes that hold a process of the class, or of a name containing the text */
  if (by_class || by_name)
    {
      pids = g_array_new (FALSE, FALSE, sizeof (gint32));
      for (guint i = 0; i < iochart_capture_get_n_processes (self->capture); i++)
        {
          const IochartProcess *p = iochart_capture_get_process (self->capture, i);
          g_autofree char *comm = g_utf8_casefold (p->comm ? p->comm : "", -1);
          g_autofree char *pid = g_strdup_printf ("%d", p->pid);

          if (by_class && p->klass != filter_classes[klass - 1])
            continue;
          if (by_name && !strstr (comm, needle) && strcmp (pid, text) != 0)
            continue;
          g_array_append_val (pids, p->pid);
        }
      if (pids->len == 0)
        {
          gint32 none = G_MININT32;   /* nothing matches: an empty chart, not everything */
          g_array_append_val (pids, none);
        }
    }
  iochart_timeline_view_set_filter (self->timeline, dev == 0 || dev == GTK_INVALID_LIST_POSITION ? -1 : (int) dev - 1,
                                    pids, NULL);
  /* the side panel's figures are those of the lanes drawn */
  g_clear_pointer (&self->filter_pids, g_array_unref);
  self->filter_pids = g_steal_pointer (&pids);
  schedule_figures (self);
}

static void
filter_changed (IochartCapturePage *self)
{
  apply_filters (self);
}

static void
order_changed (IochartCapturePage *self)
{
  guint order = gtk_drop_down_get_selected (self->order_dropdown);

  if (order < IOCHART_N_LANE_ORDERS)
    iochart_timeline_view_set_lane_order (self->timeline, order);
}

void
iochart_capture_page_set_filters (IochartCapturePage *self, int device, int klass)
{
  guint k = 0;

  for (guint i = 0; i < G_N_ELEMENTS (filter_classes); i++)
    if ((int) filter_classes[i] == klass)
      k = i + 1;
  /* the drop-downs' own handlers apply them, as a user's choice does */
  gtk_drop_down_set_selected (self->device_dropdown, device < 0 ? 0 : (guint) device + 1);
  gtk_drop_down_set_selected (self->class_dropdown, k);
  apply_filters (self);
}

/* Typed over the chart: the keys go on to the search (Escape there ends it), the letters typed
 * kept (a plain focus grab selects them, and the next key would replace them) */
static void
search_started (IochartCapturePage *self)
{
  gtk_text_grab_focus_without_selecting (GTK_TEXT (gtk_editable_get_delegate (GTK_EDITABLE (self->search))));
}

/* Escape in the search: everything shown again, the keys back to the chart */
static void
search_stopped (IochartCapturePage *self)
{
  iochart_capture_page_set_search (self, "");
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

void
iochart_capture_page_set_search (IochartCapturePage *self, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search), text);
  apply_filters (self);
}

/* ---- the ruler and the figures ---- */

static void
draw_ruler (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer user_data)
{
  IochartCapturePage *self = user_data;
  IochartDisplayList *dl = iochart_timeline_view_get_display_list (self->timeline);
  g_autoptr(IochartDisplayList) ruler = NULL;
  gint64 from, to;

  if (dl == NULL)
    return;
  iochart_timeline_view_get_range (self->timeline, &from, &to);
  ruler = iochart_chart_draw_ruler (dl, from, to, iochart_timeline_view_get_origin_ns (self->timeline),
                                    adw_style_manager_get_dark (adw_style_manager_get_default ())
                                    ? IOCHART_THEME_DARK : IOCHART_THEME_LIGHT, height);
  if (ruler)
    iochart_cairo_draw (ruler, cr);
}

/* A time of a range: far from the origin (a boot chart counts from boot) with as many decimals as
 * the span needs to tell its ends apart, "1968.87 s", else as durations read. */
static char *
time_text (gint64 ns, gint64 span_ns)
{
  double s = ns / 1e9;
  int decimals = 0;

  if (llabs (ns) < 100 * MAX (span_ns, 1))
    return iochart_format_duration (ns);
  while (decimals < 9 && span_ns > 0 && span_ns < 100 * pow (10, 9 - decimals))
    decimals++;
  return g_strdup_printf ("%.*f s", decimals, s);
}

static char *
range_text (IochartCapturePage *self, gint64 from, gint64 to)
{
  gint64 origin = iochart_timeline_view_get_origin_ns (self->timeline);
  g_autofree char *a = time_text (from - origin, to - from);
  g_autofree char *b = time_text (to - origin, to - from);
  g_autofree char *s = iochart_format_duration (to - from);

  return g_strdup_printf (_("%s – %s (%s)"), a, b, s);
}

static void lane_activated (IochartCapturePage *self, int lane);

void
iochart_capture_page_update_figures (IochartCapturePage *self)
{
  IochartView *view = iochart_timeline_view_get_view (self->timeline);
  gint64 from, to;
  gboolean selected;
  g_autofree char *text = NULL, *label = NULL;
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
  IochartSummaryOptions sumo = IOCHART_SUMMARY_OPTIONS_INIT;
  IochartSummary *summary;
  g_autoptr(IochartSteal) steal = NULL;
  int device;

  g_clear_handle_id (&self->figures_source, g_source_remove);
  if (self->capture == NULL && self->bootchart == NULL)
    return;
  selected = iochart_timeline_view_get_selection (self->timeline, &from, &to);
  text = range_text (self, from, to);
  label = g_strdup_printf (selected ? _("Selected: %s") : _("Whole view: %s (drag across the chart to select)"), text);
  if (self->bootchart)
    {
      /* the boot chart's times count from boot; the block I/O of the same boot is moved onto them */
      if (self->capture)
        steal = iochart_bootchart_range_steal (self->bootchart, self->capture, self->boot_offset_ns, from, to);
      iochart_range_panel_set_boot_figures (self->panel, label, iochart_bootchart_range_new (self->bootchart, from, to),
                                            self->capture ? iochart_summary_new_range (self->capture, -1, 12,
                                                                                       from - self->boot_offset_ns,
                                                                                       to - self->boot_offset_ns)
                                                          : NULL, steal);
      return;
    }
  device = view ? iochart_view_get_device (view) : iochart_steal_pick_device (self->capture);
  /* as `info --device --from --to --pid…` gives them: the lanes the filters keep */
  sumo.device = device;
  sumo.top = 0;
  sumo.from_ns = from;
  sumo.to_ns = to;
  if (self->filter_pids)
    {
      sumo.pids = (const gint32 *) self->filter_pids->data;
      sumo.n_pids = self->filter_pids->len;
    }
  summary = iochart_summary_new_full (self->capture, &sumo);
  so.device = device;
  so.from_ns = from;
  so.to_ns = to;
  if (summary->requests)
    {
      so.requests = (const guint32 *) summary->requests->data;
      so.n_requests = summary->requests->len;
    }
  steal = iochart_steal_new (self->capture, &so);
  iochart_range_panel_set_figures (self->panel, label, summary, steal);
  /* the clicked lane's figures follow the same range */
  lane_activated (self, iochart_timeline_view_get_highlighted_lane (self->timeline));
}

static gboolean
figures_timeout (gpointer user_data)
{
  IochartCapturePage *self = user_data;

  self->figures_source = 0;
  iochart_capture_page_update_figures (self);
  return G_SOURCE_REMOVE;
}

static void
schedule_figures (IochartCapturePage *self)
{
  g_clear_handle_id (&self->figures_source, g_source_remove);
  self->figures_source = g_timeout_add (150, figures_timeout, self);
}

static void
timeline_changed (IochartCapturePage *self)
{
  gint64 from, to, sf, st;
  g_autofree char *text = NULL;

  iochart_timeline_view_get_range (self->timeline, &from, &to);
  text = range_text (self, from, to);
  gtk_label_set_text (self->range_label, text);
  /* the simulated runs follow the observed one's time range */
  for (guint i = 0; self->sim_views && i < self->sim_views->len; i++)
    iochart_timeline_view_set_range (g_ptr_array_index (self->sim_views, i), from, to);
  gtk_widget_queue_draw (GTK_WIDGET (self->ruler));
  if (!iochart_timeline_view_get_selection (self->timeline, &sf, &st))
    schedule_figures (self);
}

static void
timeline_drawn (IochartCapturePage *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self->ruler));
  /* a zoom, a sort or an expansion moves the clicked lane: the panel follows it */
  lane_activated (self, iochart_timeline_view_get_highlighted_lane (self->timeline));
}

static void
selection_changed (IochartCapturePage *self)
{
  schedule_figures (self);
}

static void
lane_activated (IochartCapturePage *self, int lane)
{
  IochartView *view = iochart_timeline_view_get_view (self->timeline);
  g_autoptr(IochartLanes) in_range = NULL;
  const IochartLane *figures = NULL;
  gint64 from, to;
  gboolean selected = iochart_timeline_view_get_selection (self->timeline, &from, &to);

  if (view == NULL || lane < 0 || (guint) lane >= iochart_lanes_get_n_lanes (iochart_view_get_lanes (view)))
    {
      iochart_range_panel_set_lane (self->panel, NULL, -1, NULL, 0, 0, FALSE);
      return;
    }
  /* the figures of the range the lanes' table has: the selection's when there is one */
  if (selected)
    figures = iochart_view_lane_in_range (view, lane, from, to, &in_range);
  else
    {
      figures = iochart_lanes_get_lane (iochart_view_get_lanes (view), lane);
      from = iochart_view_get_from_ns (view);
      to = iochart_view_get_to_ns (view);
    }
  iochart_range_panel_set_lane (self->panel, iochart_view_get_lanes (view), lane, figures, from, to, selected);
}

/* A click on a lane (not a redraw moving it): its figures are what the user wants to see. */
static void
lane_clicked (IochartCapturePage *self, int lane)
{
  lane_activated (self, lane);
  if (lane >= 0)
    iochart_range_panel_reveal_lane (self->panel);
}

static void
episode_activated (IochartCapturePage *self, guint index)
{
  const IochartStealEpisode *ep = iochart_steal_get_episode (self->steal, index);
  /* the episode a fifth of the view or more, between what came before and after it: with 20 ms
   * either side a sub-millisecond episode was a sliver of the view */
  gint64 pad = MAX ((ep->end_ns - ep->start_ns) * 2, 2 * G_GINT64_CONSTANT (1000000));

  iochart_timeline_view_set_range (self->timeline, ep->start_ns - pad, ep->end_ns + pad);
  iochart_timeline_view_set_selection (self->timeline, ep->start_ns, ep->end_ns);
}

static void
dark_changed (IochartCapturePage *self)
{
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  iochart_timeline_view_set_dark (self->timeline, dark);
  for (guint i = 0; self->sim_views && i < self->sim_views->len; i++)
    iochart_timeline_view_set_dark (g_ptr_array_index (self->sim_views, i), dark);
}

/* ---- what if ---- */

static void
sim_changed (IochartCapturePage *self, IochartTimelineView *view)
{
  gint64 from, to;

  iochart_timeline_view_get_range (view, &from, &to);
  iochart_timeline_view_set_range (self->timeline, from, to);
}

/* Each simulated run's chart under the observed one, on one time scale: the longest run's. */
static void
whatif_finished (IochartCapturePage *self)
{
  GtkWidget *child;
  guint n = iochart_whatif_panel_get_n_runs (self->whatif);
  gint64 from = iochart_capture_get_start_ns (self->capture), to = iochart_capture_get_end_ns (self->capture);

  if (iochart_whatif_panel_get_error (self->whatif))
    return;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->sim_box))))
    gtk_box_remove (self->sim_box, child);
  g_ptr_array_set_size (self->sim_views, 0);
  for (guint i = 0; i < n; i++)
    to = MAX (to, iochart_capture_get_end_ns (iochart_whatif_panel_get_run (self->whatif, i)));
  for (guint i = 0; i < n; i++)
    {
      IochartTimelineView *view = IOCHART_TIMELINE_VIEW (iochart_timeline_view_new ());
      g_autofree char *text = g_strdup_printf (_("Simulated under %s, device model %s"),
                                               iochart_whatif_panel_get_run_policy (self->whatif, i),
                                               iochart_whatif_panel_get_model (self->whatif));
      GtkWidget *heading = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (heading), 0);
      gtk_label_set_wrap (GTK_LABEL (heading), TRUE);
      /* a policy's settings are one long word ("cfq:quantum=8,fifo_expire_sync=125ms,…"): broken
       * anywhere, else the label's width pushes the chart out of the window */
      gtk_label_set_wrap_mode (GTK_LABEL (heading), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (heading, "sim-heading");
      gtk_box_append (self->sim_box, heading);
      iochart_timeline_view_set_data (view, iochart_whatif_panel_get_run (self->whatif, i), NULL);
      iochart_timeline_view_set_dark (view, adw_style_manager_get_dark (adw_style_manager_get_default ()));
      iochart_timeline_view_set_full_range (view, from, to);
      /* zooming a simulated run's chart zooms them all */
      g_signal_connect_object (view, "changed", G_CALLBACK (sim_changed), self, G_CONNECT_SWAPPED);
      gtk_box_append (self->sim_box, GTK_WIDGET (view));
      g_ptr_array_add (self->sim_views, view);
    }
  iochart_timeline_view_set_full_range (self->timeline, from, to);
  iochart_timeline_view_zoom_fit (self->timeline);
  timeline_changed (self);
}

IochartWhatifPanel *
iochart_capture_page_get_whatif (IochartCapturePage *self)
{
  return self->whatif;
}

GPtrArray *
iochart_capture_page_get_sim_views (IochartCapturePage *self)
{
  return self->sim_views;
}

/* ---- actions ---- */

void
iochart_capture_page_activate (IochartCapturePage *self, const char *action)
{
  if (!iochart_capture_page_is_ready (self))
    return;
  if (g_str_equal (action, "zoom-in"))
    iochart_timeline_view_zoom (self->timeline, 1.5, 0.5);
  else if (g_str_equal (action, "zoom-out"))
    iochart_timeline_view_zoom (self->timeline, 1 / 1.5, 0.5);
  else if (g_str_equal (action, "zoom-fit"))
    iochart_timeline_view_zoom_fit (self->timeline);
  else if (g_str_equal (action, "zoom-selection"))
    iochart_timeline_view_zoom_to_selection (self->timeline);
  else if (g_str_equal (action, "pan-left"))
    iochart_timeline_view_pan (self->timeline, -0.2);
  else if (g_str_equal (action, "pan-right"))
    iochart_timeline_view_pan (self->timeline, 0.2);
  else if (g_str_equal (action, "find"))
    gtk_widget_grab_focus (GTK_WIDGET (self->search));
  else if (g_str_equal (action, "sort-first-io"))
    gtk_drop_down_set_selected (self->order_dropdown, IOCHART_LANE_ORDER_FIRST_IO);
  else if (g_str_equal (action, "sort-bytes"))
    gtk_drop_down_set_selected (self->order_dropdown, IOCHART_LANE_ORDER_BYTES);
  else if (g_str_equal (action, "sort-stolen"))
    gtk_drop_down_set_selected (self->order_dropdown, IOCHART_LANE_ORDER_STOLEN);
  else if (g_str_equal (action, "expand-lane"))
    toggle_expanded (self);
  else if (g_str_equal (action, "whatif-run") && self->bootchart == NULL)
    {
      gtk_stack_set_visible_child_name (self->side_stack, "whatif");
      iochart_whatif_panel_run (self->whatif);
    }
  else if (g_str_equal (action, "whatif-cancel"))
    iochart_whatif_panel_cancel (self->whatif);
}

/* The clicked lane as its processes, or the lane it came out of folded back. */
static void
toggle_expanded (IochartCapturePage *self)
{
  IochartView *view = iochart_timeline_view_get_view (self->timeline);
  int lane = iochart_timeline_view_get_highlighted_lane (self->timeline);
  const IochartLane *l;

  if (view == NULL || lane < 0 || (guint) lane >= iochart_lanes_get_n_lanes (iochart_view_get_lanes (view)))
    return;
  l = iochart_lanes_get_lane (iochart_view_get_lanes (view), lane);
  if (l->expanded_from != IOCHART_NO_PROCESS)
    iochart_timeline_view_set_expanded (self->timeline, l->expanded_from, FALSE);
  else if (!l->others && l->n_processes > 1)
    iochart_timeline_view_set_expanded (self->timeline, l->head, TRUE);
}

char *
iochart_capture_page_copy_lane (IochartCapturePage *self)
{
  IochartView *view = iochart_timeline_view_get_view (self->timeline);
  guint32 head = iochart_timeline_view_get_highlighted_process (self->timeline);
  IochartSummaryOptions so = IOCHART_SUMMARY_OPTIONS_INIT;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  if (view == NULL || head == IOCHART_NO_PROCESS || self->capture == NULL)
    return NULL;
  /* the lane's figures over the selection, else the range in view, as `info --from --to` gives them */
  iochart_timeline_view_get_selection (self->timeline, &so.from_ns, &so.to_ns);
  so.device = iochart_view_get_device (view);
  so.top = 0;
  summary = iochart_summary_new_full (self->capture, &so);
  if (!iochart_summary_print_lane (summary, head, text))
    return NULL;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text->str);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
button_action (GtkButton *button, IochartCapturePage *self)
{
  iochart_capture_page_activate (self, gtk_widget_get_name (GTK_WIDGET (button)));
}

gboolean
iochart_capture_page_export (IochartCapturePage *self, const char *path, GError **error)
{
  int width = MAX (gtk_widget_get_width (GTK_WIDGET (self->timeline)), IOCHART_VIEW_MIN_WIDTH);
  g_autoptr(IochartDisplayList) dl = iochart_timeline_view_draw_at (self->timeline, width, error);
  g_autofree char *lower = g_ascii_strdown (path, -1);

  if (dl == NULL)
    return FALSE;
  if (g_str_has_suffix (lower, ".png"))
    return iochart_cairo_write_png (dl, path, error);
  if (g_str_has_suffix (lower, ".pdf"))
    return iochart_cairo_write_pdf (dl, path, error);
  if (g_str_has_suffix (lower, ".svg"))
    return iochart_svg_write (dl, path, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("'%s': give a name ending in .svg, .png or .pdf"), path);
  return FALSE;
}

/* ---- accessors ---- */

const char *
iochart_capture_page_get_title (IochartCapturePage *self)
{
  return self->title ? self->title : _("Capture");
}

gboolean
iochart_capture_page_is_loading (IochartCapturePage *self)
{
  return self->loading;
}

gboolean
iochart_capture_page_is_ready (IochartCapturePage *self)
{
  return !self->loading && (self->capture || self->bootchart);
}

const GError *
iochart_capture_page_get_error (IochartCapturePage *self)
{
  return self->error;
}

IochartTimelineView *
iochart_capture_page_get_timeline (IochartCapturePage *self)
{
  return self->timeline;
}

IochartRangePanel *
iochart_capture_page_get_panel (IochartCapturePage *self)
{
  return self->panel;
}

static void
get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  if (id == PROP_TITLE)
    g_value_set_string (value, iochart_capture_page_get_title (IOCHART_CAPTURE_PAGE (object)));
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
}

static void
iochart_capture_page_dispose (GObject *object)
{
  IochartCapturePage *self = IOCHART_CAPTURE_PAGE (object);

  iochart_capture_page_cancel (self);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_handle_id (&self->figures_source, g_source_remove);
  g_clear_handle_id (&self->orient_source, g_source_remove);
  g_signal_handlers_disconnect_by_data (adw_style_manager_get_default (), self);
  gtk_widget_dispose_template (GTK_WIDGET (self), IOCHART_TYPE_CAPTURE_PAGE);
  G_OBJECT_CLASS (iochart_capture_page_parent_class)->dispose (object);
}

static void
iochart_capture_page_finalize (GObject *object)
{
  IochartCapturePage *self = IOCHART_CAPTURE_PAGE (object);

  g_free (self->title);
  g_strfreev (self->paths);
  g_clear_object (&self->cancellable);
  g_clear_error (&self->error);
  g_clear_object (&self->capture);
  g_clear_object (&self->bootchart);
  g_clear_pointer (&self->steal, iochart_steal_free);
  g_clear_pointer (&self->sim_views, g_ptr_array_unref);
  g_clear_pointer (&self->filter_pids, g_array_unref);
  G_OBJECT_CLASS (iochart_capture_page_parent_class)->finalize (object);
}

/* Narrower than the chart's least width and the panel beside it: the panel goes under the chart
 * (after this allocation: the paned's orientation changes its size request). */
#define NARROW_PX (IOCHART_VIEW_MIN_WIDTH + 440)
/* Wide enough for the range in view beside the filters and the search above the chart. */
#define WIDE_PX   1400

static gboolean
orient (gpointer user_data)
{
  IochartCapturePage *self = user_data;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  GtkOrientation o = width < NARROW_PX ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL;

  self->orient_source = 0;
  /* the range in view is on the ruler too: below WIDE_PX the filters need its room more (at
   * 1280 px it and the search's placeholder were both cut) */
  gtk_widget_set_visible (GTK_WIDGET (self->range_label), width >= WIDE_PX);
  if (gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == o)
    return G_SOURCE_REMOVE;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self->paned), o);
  place_search (self);
  gtk_paned_set_position (self->paned, o == GTK_ORIENTATION_VERTICAL ? gtk_widget_get_height (GTK_WIDGET (self)) * 3 / 5
                                                                     : width - 440);
  return G_SOURCE_REMOVE;
}

/* The ruler spans the chart's column: it is resized whenever the page is. */
static void
ruler_resized (IochartCapturePage *self)
{
  gboolean narrow = gtk_orientable_get_orientation (GTK_ORIENTABLE (self->paned)) == GTK_ORIENTATION_VERTICAL;

  int width = gtk_widget_get_width (GTK_WIDGET (self));

  if (((width < NARROW_PX) != narrow || (width >= WIDE_PX) != gtk_widget_get_visible (GTK_WIDGET (self->range_label))) &&
      self->orient_source == 0)
    self->orient_source = g_idle_add (orient, self);
}

static void
iochart_capture_page_class_init (IochartCapturePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = iochart_capture_page_dispose;
  object_class->finalize = iochart_capture_page_finalize;
  object_class->get_property = get_property;
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (IOCHART_TYPE_TIMELINE_VIEW);
  g_type_ensure (IOCHART_TYPE_RANGE_PANEL);
  g_type_ensure (IOCHART_TYPE_WHATIF_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/iochart/Iochart/iochart-capture-page.ui");
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, stack);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, paned);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, progress);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, error_page);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, retry_button);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, filters);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, device_dropdown);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, class_dropdown);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, order_dropdown);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, search);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, search_row);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, range_label);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, ruler);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, timeline);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, panel);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, side_stack);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, whatif);
  gtk_widget_class_bind_template_child (widget_class, IochartCapturePage, sim_box);
  gtk_widget_class_bind_template_callback (widget_class, whatif_finished);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, retry_clicked);
  gtk_widget_class_bind_template_callback (widget_class, filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, order_changed);
  gtk_widget_class_bind_template_callback (widget_class, timeline_changed);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, timeline_drawn);
  gtk_widget_class_bind_template_callback (widget_class, lane_clicked);
  gtk_widget_class_bind_template_callback (widget_class, episode_activated);
  gtk_widget_class_bind_template_callback (widget_class, button_action);
}

static void
iochart_capture_page_init (IochartCapturePage *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();

  gtk_widget_init_template (GTK_WIDGET (self));
  self->sim_views = g_ptr_array_new ();
  gtk_drawing_area_set_draw_func (self->ruler, draw_ruler, self, NULL);
  g_signal_connect_swapped (self->ruler, "resize", G_CALLBACK (ruler_resized), self);
  g_signal_connect_swapped (self->search, "stop-search", G_CALLBACK (search_stopped), self);
  g_signal_connect_swapped (self->search, "search-started", G_CALLBACK (search_started), self);
  g_signal_connect_swapped (style, "notify::dark", G_CALLBACK (dark_changed), self);
  dark_changed (self);
}

IochartCapturePage *
iochart_capture_page_new (void)
{
  return g_object_new (IOCHART_TYPE_CAPTURE_PAGE, NULL);
}
