/* iochart-whatif-panel.c: what-if runs of the core's simulator in a worker, and their lane table */
#include <glib/gi18n.h>
#include <string.h>
#include "iochart-whatif-panel.h"
#include "iochart-format.h"
#include "analysis/iochart-lanes.h"
#include "analysis/iochart-steal.h"
#include "simulator/iochart-simulator.h"
#include "simulator/iochart-sim-compare.h"

/* Lanes the table shows, as `iochart simulate` by default. */
#define TABLE_LANES 12

static const char * const model_specs[] = { "fit", "observed", "hdd", "ssd" };

struct _IochartWhatifPanel {
  GtkBox          parent_instance;
  GtkCheckButton *noop, *cfq, *bfq, *deadline, *idle_gate;
  GtkDropDown    *model;
  GtkEntry       *set_class, *drop;
  GtkWidget      *run_button, *cancel_button;
  GtkProgressBar *progress;
  GtkLabel       *status;
  GtkGrid        *lane_grid;

  IochartCapture *capture;
  gboolean        live;           /* capture changes in place: a run reads a copy of it */
  GCancellable   *cancellable;
  gint            runs_done;      /* written by the worker */
  guint           n_runs_asked;
  guint           progress_source;
  GPtrArray      *runs;           /* IochartCapture, simulated */
  IochartCapture *observed;       /* what they simulated (a live capture's copy as it was) */
  GPtrArray      *policies;       /* char *, as used */
  GPtrArray      *rows;           /* GStrv */
  char           *model_used;     /* the device model as used */
  GError         *error;
  guint           min_run_ms;     /* tests: a run lasts at least this long */
};

G_DEFINE_FINAL_TYPE (IochartWhatifPanel, iochart_whatif_panel, GTK_TYPE_BOX)

enum { FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ---- the controls ---- */

GStrv
iochart_whatif_panel_get_policies (IochartWhatifPanel *self)
{
  g_autoptr(GStrvBuilder) out = g_strv_builder_new ();
  GtkCheckButton *buttons[] = { self->noop, self->cfq, self->bfq, self->deadline };
  gboolean gate = gtk_check_button_get_active (self->idle_gate);

  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    if (gtk_check_button_get_active (buttons[i]))
      {
        g_autofree char *spec = gate ? g_strconcat ("idle-gate+", gtk_check_button_get_label (buttons[i]), NULL)
                                     : g_strdup (gtk_check_button_get_label (buttons[i]));
        g_strv_builder_add (out, spec);
      }
  return g_strv_builder_end (out);
}

void
iochart_whatif_panel_set_choices (IochartWhatifPanel *self, const char * const *policies, gboolean idle_gate,
                                  const char *model, const char *set_class, const char *drop)
{
  GtkCheckButton *buttons[] = { self->noop, self->cfq, self->bfq, self->deadline };

  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    gtk_check_button_set_active (buttons[i], policies &&
                                 g_strv_contains (policies, gtk_check_button_get_label (buttons[i])));
  gtk_check_button_set_active (self->idle_gate, idle_gate);
  for (guint i = 0; i < G_N_ELEMENTS (model_specs); i++)
    if (g_strcmp0 (model, model_specs[i]) == 0)
      gtk_drop_down_set_selected (self->model, i);
  gtk_editable_set_text (GTK_EDITABLE (self->set_class), set_class ? set_class : "");
  gtk_editable_set_text (GTK_EDITABLE (self->drop), drop ? drop : "");
}

/* "a=idle, b=be:4" -> { "a=idle", "b=be:4" } */
static GStrv
split_list (GtkEntry *entry)
{
  g_auto(GStrv) parts = g_strsplit_set (gtk_editable_get_text (GTK_EDITABLE (entry)), ", ", -1);
  g_autoptr(GStrvBuilder) out = g_strv_builder_new ();

  for (guint i = 0; parts[i]; i++)
    if (*parts[i])
      g_strv_builder_add (out, parts[i]);
  return g_strv_builder_end (out);
}

/* ---- the runs, in a worker ---- */

typedef struct {
  IochartCapture    *capture;
  GStrv              policies, set_class, drop;
  char              *model;
  gint              *runs_done;
  guint              min_run_ms;
  /* results */
  GPtrArray         *runs;       /* IochartCapture */
  GPtrArray         *described;  /* char * */
  GPtrArray         *rows;       /* GStrv */
  char              *model_described;
} Job;

static void
job_free (Job *j)
{
  g_clear_object (&j->capture);
  g_strfreev (j->policies);
  g_strfreev (j->set_class);
  g_strfreev (j->drop);
  g_free (j->model);
  g_free (j->model_described);
  g_clear_pointer (&j->runs, g_ptr_array_unref);
  g_clear_pointer (&j->described, g_ptr_array_unref);
  g_clear_pointer (&j->rows, g_ptr_array_unref);
  g_free (j);
}

/* A time as the table shows it: from the observed capture's start, as `iochart simulate` prints it. */
static char *
rel_time (IochartCapture *c, gint64 ns)
{
  return ns == IOCHART_TIME_UNKNOWN ? g_strdup ("–")
                                    : g_strdup_printf ("%.2f s", (ns - iochart_capture_get_start_ns (c)) / 1e9);
}

/* The table: lanes made once on the observed capture (the simulated ones keep its processes). */
static void
make_rows (Job *j, guint device)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) lanes = NULL;
  guint n_lanes, n_runs = j->runs->len;
  g_autofree IochartSimFigures *figures = NULL;
  IochartSimFigures classes[IOCHART_N_CLASSES];

  lo.device = device;
  lo.top_n = TABLE_LANES;
  lanes = iochart_lanes_new (j->capture, &lo);
  n_lanes = iochart_lanes_get_n_lanes (lanes);
  figures = g_new0 (IochartSimFigures, (gsize) MAX (n_lanes, 1) * (n_runs + 1));
  iochart_sim_figures_lanes (j->capture, device, lanes, figures, classes);
  for (guint k = 0; k < n_runs; k++)
    iochart_sim_figures_lanes (g_ptr_array_index (j->runs, k), device, lanes, figures + (gsize) (k + 1) * n_lanes,
                               classes);
  j->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint l = 0; l < n_lanes; l++)
    {
      GStrvBuilder *row = g_strv_builder_new ();
      const IochartSimFigures *obs = &figures[l];
      g_autofree char *obs_end = rel_time (j->capture, obs->end_ns);

      g_strv_builder_add (row, iochart_lanes_get_lane (lanes, l)->label);
      g_strv_builder_add (row, obs_end);
      for (guint k = 0; k < n_runs; k++)
        {
          const IochartSimFigures *sim = &figures[(gsize) (k + 1) * n_lanes + l];
          g_autofree char *end = rel_time (j->capture, sim->end_ns);
          g_autofree char *change = iochart_sim_figures_change_text (obs, sim);

          g_strv_builder_add (row, end);
          g_strv_builder_add (row, change);
        }
      g_ptr_array_add (j->rows, g_strv_builder_end (row));
      g_strv_builder_unref (row);
    }
}

static void
run_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  Job *j = data;
  IochartSimWorkloadOptions wo = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
  g_autoptr(GArray) rules = g_array_new (FALSE, TRUE, sizeof (IochartClassRule));
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  GError *error = NULL;

  g_array_set_clear_func (rules, (GDestroyNotify) iochart_class_rule_clear);
  for (guint i = 0; j->set_class[i]; i++)
    {
      IochartClassRule rule = { 0 };

      if (!iochart_class_rule_parse (j->set_class[i], &rule, &error))
        goto fail;
      g_array_append_val (rules, rule);
    }
  wo.set_class = (const IochartClassRule *) rules->data;
  wo.n_set_class = rules->len;
  wo.drop = (const char * const *) j->drop;
  if ((wl = iochart_sim_workload_new (j->capture, &wo, &error)) == NULL ||
      (dev = iochart_sim_device_new (wl, j->model, &error)) == NULL)
    goto fail;
  j->model_described = g_strdup (iochart_sim_device_describe (dev));
  j->runs = g_ptr_array_new_with_free_func (g_object_unref);
  j->described = g_ptr_array_new_with_free_func (g_free);
  for (guint k = 0; j->policies[k]; k++)
    {
      IochartSimStats stats;
      IochartCapture *run;
      gint64 until = g_get_monotonic_time () + j->min_run_ms * 1000;

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        goto fail;
      if ((run = iochart_sim_run (wl, dev, j->policies[k], &stats, &error)) == NULL)
        goto fail;
      while (g_get_monotonic_time () < until)
        g_usleep (10000);
      g_ptr_array_add (j->runs, run);
      g_ptr_array_add (j->described, iochart_sim_policy_describe (j->policies[k], 1));
      g_atomic_int_inc (j->runs_done);
    }
  make_rows (j, iochart_sim_workload_get_device (wl));
  g_task_return_boolean (task, TRUE);
  return;
fail:
  g_task_return_error (task, error);
}

static gboolean
progress_tick (gpointer user_data)
{
  IochartWhatifPanel *self = user_data;
  int done = g_atomic_int_get (&self->runs_done);
  g_autofree char *text = g_strdup_printf (_("%d of %u runs done"), done, self->n_runs_asked);

  if (done > 0)
    gtk_progress_bar_set_fraction (self->progress, (double) done / MAX (self->n_runs_asked, 1));
  else
    gtk_progress_bar_pulse (self->progress);
  gtk_progress_bar_set_text (self->progress, text);
  return G_SOURCE_CONTINUE;
}

static void
show_running (IochartWhatifPanel *self, gboolean running)
{
  gtk_widget_set_sensitive (self->run_button, !running);
  gtk_widget_set_visible (self->cancel_button, running);
  gtk_widget_set_visible (GTK_WIDGET (self->progress), running);
  if (!running)
    g_clear_handle_id (&self->progress_source, g_source_remove);
}

/* "idle-gate+bfq" of "idle-gate:...+bfq:slice_idle=8ms,...": the policies' names */
static char *
policy_name (const char *described)
{
  g_auto(GStrv) parts = g_strsplit (described, "+", -1);

  for (guint i = 0; parts[i]; i++)
    if (strchr (parts[i], ':'))
      *strchr (parts[i], ':') = '\0';
  return g_strjoinv ("+", parts);
}

static GtkWidget *
cell (GtkGrid *grid, const char *text, int col, int row, float xalign, const char *css)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  if (css != NULL)
    gtk_widget_add_css_class (label, css);
  gtk_grid_attach (grid, label, col, row, 1, 1);
  return label;
}

/* Three columns whatever the runs: a lane's name with its observed end, then a row per run (the
 * policy, its end, the change). A column per run made four runs twice the panel's width, behind a
 * scrollbar that shows only under the pointer. */
static void
fill_table (IochartWhatifPanel *self)
{
  GtkWidget *child, *label;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->lane_grid))))
    gtk_grid_remove (self->lane_grid, child);
  if (self->rows == NULL || self->rows->len == 0)
    return;
  label = cell (self->lane_grid, _("Lane, then each run"), 0, row, 0, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (cell (self->lane_grid, _("End"), 1, row, 1, "caption-heading"), "dim-label");
  gtk_widget_add_css_class (cell (self->lane_grid, _("Change"), 2, row, 1, "caption-heading"), "dim-label");
  row++;
  for (guint r = 0; r < self->rows->len; r++)
    {
      GStrv lane = g_ptr_array_index (self->rows, r);

      /* the name (long: ellipsized, whole in its tooltip) and where it ended as observed */
      label = cell (self->lane_grid, lane[0], 0, row, 0, "heading");
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (label, lane[0]);
      gtk_widget_set_margin_top (label, 6);
      label = cell (self->lane_grid, lane[1], 1, row, 1, "figures");
      gtk_widget_set_tooltip_text (label, _("Its end as observed"));
      gtk_widget_set_valign (label, GTK_ALIGN_END);
      row++;
      for (guint k = 0; k < self->runs->len && lane[2 + 2 * k] && lane[3 + 2 * k]; k++, row++)
        {
          /* a policy's name without its settings (they are in its tooltip) */
          g_autofree char *name = policy_name (g_ptr_array_index (self->policies, k));

          label = cell (self->lane_grid, name, 0, row, 0, "dim-label");
          gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
          gtk_widget_set_margin_start (label, 12);
          gtk_widget_set_tooltip_text (label, g_ptr_array_index (self->policies, k));
          cell (self->lane_grid, lane[2 + 2 * k], 1, row, 1, "figures");
          label = cell (self->lane_grid, lane[3 + 2 * k], 2, row, 1, "figures");
          if (g_str_equal (lane[3 + 2 * k], "not simulated"))
            gtk_widget_set_tooltip_text (label, _("This lane issued only flushes, which the simulator does not "
                                                  "replay"));
        }
    }
}

static void
run_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  IochartWhatifPanel *self = IOCHART_WHATIF_PANEL (source);
  Job *j = g_task_get_task_data (G_TASK (result));

  show_running (self, FALSE);
  g_clear_error (&self->error);
  if (!g_task_propagate_boolean (G_TASK (result), &self->error))
    {
      gtk_label_set_text (self->status, g_error_matches (self->error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                        ? _("Simulation cancelled.") : self->error->message);
      gtk_widget_remove_css_class (GTK_WIDGET (self->status), "dim-label");
      gtk_widget_add_css_class (GTK_WIDGET (self->status), "error");
    }
  else
    {
      g_autofree char *text = NULL;

      g_clear_pointer (&self->runs, g_ptr_array_unref);
      g_clear_pointer (&self->policies, g_ptr_array_unref);
      g_clear_pointer (&self->rows, g_ptr_array_unref);
      self->runs = g_steal_pointer (&j->runs);
      g_set_object (&self->observed, j->capture);
      self->policies = g_steal_pointer (&j->described);
      self->rows = g_steal_pointer (&j->rows);
      g_free (self->model_used);
      self->model_used = g_steal_pointer (&j->model_described);
      text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%u simulated run (device model %s), drawn under the observed "
                                           "chart. Each lane's end as observed, then under each run with how its "
                                           "duration changed:",
                                           "%u simulated runs (device model %s), drawn under the observed "
                                           "chart. Each lane's end as observed, then under each run with how its "
                                           "duration changed:", self->runs->len),
                              self->runs->len, self->model_used);
      gtk_label_set_text (self->status, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->status), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
      fill_table (self);
    }
  g_signal_emit (self, signals[FINISHED], 0);
}

void
iochart_whatif_panel_run (IochartWhatifPanel *self)
{
  g_autoptr(GTask) task = NULL;
  Job *j;

  if (self->capture == NULL || iochart_whatif_panel_is_running (self))
    return;
  j = g_new0 (Job, 1);
  /* a live capture's copy is rewritten by the updates after the next one: the run (and the
   * table made after it) would read it half-way through a rewrite */
  j->capture = self->live ? iochart_capture_copy (self->capture) : g_object_ref (self->capture);
  j->policies = iochart_whatif_panel_get_policies (self);
  j->set_class = split_list (self->set_class);
  j->drop = split_list (self->drop);
  j->model = g_strdup (model_specs[MIN (gtk_drop_down_get_selected (self->model), G_N_ELEMENTS (model_specs) - 1)]);
  j->runs_done = &self->runs_done;
  j->min_run_ms = self->min_run_ms;
  if (j->policies[0] == NULL)
    {
      gtk_label_set_text (self->status, _("Choose a scheduler to simulate."));
      job_free (j);
      return;
    }
  self->n_runs_asked = g_strv_length (j->policies);
  g_atomic_int_set (&self->runs_done, 0);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  gtk_label_set_text (self->status, _("Simulating…"));
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_progress_bar_set_show_text (self->progress, TRUE);
  show_running (self, TRUE);
  progress_tick (self);
  self->progress_source = g_timeout_add (100, progress_tick, self);
  task = g_task_new (self, self->cancellable, run_done, NULL);
  /* the engine cannot stop half-way through a run: Cancel returns at once and the result is dropped */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, j, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, run_thread);
}

void
iochart_whatif_panel_cancel (IochartWhatifPanel *self)
{
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

static void
cancel_clicked (IochartWhatifPanel *self)
{
  iochart_whatif_panel_cancel (self);
}

void
iochart_whatif_panel_set_min_run_ms (IochartWhatifPanel *self, guint ms)
{
  self->min_run_ms = ms;
}

double
iochart_whatif_panel_get_progress (IochartWhatifPanel *self)
{
  return iochart_whatif_panel_is_running (self) && gtk_widget_get_mapped (GTK_WIDGET (self->progress))
         ? gtk_progress_bar_get_fraction (self->progress) : -1;
}

gboolean
iochart_whatif_panel_is_running (IochartWhatifPanel *self)
{
  return self->progress_source != 0;
}

void
iochart_whatif_panel_set_capture (IochartWhatifPanel *self, IochartCapture *capture)
{
  g_set_object (&self->capture, capture);
  self->live = FALSE;
  gtk_widget_set_sensitive (self->run_button, capture != NULL);
}

void
iochart_whatif_panel_capture_changed (IochartWhatifPanel *self, IochartCapture *capture)
{
  iochart_whatif_panel_set_capture (self, capture);
  self->live = TRUE;
}

IochartCapture *
iochart_whatif_panel_get_observed (IochartWhatifPanel *self)
{
  return self->observed;
}

guint
iochart_whatif_panel_get_n_runs (IochartWhatifPanel *self)
{
  return self->runs ? self->runs->len : 0;
}

IochartCapture *
iochart_whatif_panel_get_run (IochartWhatifPanel *self, guint i)
{
  g_return_val_if_fail (self->runs && i < self->runs->len, NULL);
  return g_ptr_array_index (self->runs, i);
}

const char *
iochart_whatif_panel_get_run_policy (IochartWhatifPanel *self, guint i)
{
  g_return_val_if_fail (self->policies && i < self->policies->len, NULL);
  return g_ptr_array_index (self->policies, i);
}

const char *
iochart_whatif_panel_get_model (IochartWhatifPanel *self)
{
  return self->model_used;
}

const GError *
iochart_whatif_panel_get_error (IochartWhatifPanel *self)
{
  return self->error;
}

GPtrArray *
iochart_whatif_panel_get_rows (IochartWhatifPanel *self)
{
  return self->rows;
}

static void
iochart_whatif_panel_dispose (GObject *object)
{
  IochartWhatifPanel *self = IOCHART_WHATIF_PANEL (object);

  iochart_whatif_panel_cancel (self);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), IOCHART_TYPE_WHATIF_PANEL);
  G_OBJECT_CLASS (iochart_whatif_panel_parent_class)->dispose (object);
}

static void
iochart_whatif_panel_finalize (GObject *object)
{
  IochartWhatifPanel *self = IOCHART_WHATIF_PANEL (object);

  g_clear_object (&self->capture);
  g_clear_object (&self->observed);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->runs, g_ptr_array_unref);
  g_clear_pointer (&self->policies, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_free (self->model_used);
  g_clear_error (&self->error);
  G_OBJECT_CLASS (iochart_whatif_panel_parent_class)->finalize (object);
}

static void
iochart_whatif_panel_class_init (IochartWhatifPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iochart_whatif_panel_dispose;
  G_OBJECT_CLASS (klass)->finalize = iochart_whatif_panel_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/iochart/Iochart/iochart-whatif-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, noop);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, cfq);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, bfq);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, deadline);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, idle_gate);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, model);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, set_class);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, drop);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, run_button);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, progress);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, status);
  gtk_widget_class_bind_template_child (widget_class, IochartWhatifPanel, lane_grid);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
iochart_whatif_panel_init (IochartWhatifPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
iochart_whatif_panel_new (void)
{
  return g_object_new (IOCHART_TYPE_WHATIF_PANEL, NULL);
}
