/* iochart-range-panel.c: figures of the selected range laid out in grids */
#include <glib/gi18n.h>
#include "iochart-range-panel.h"
#include "iochart-format.h"
#include "render/iochart-chart.h"

struct _IochartRangePanel {
  GtkBox          parent_instance;
  GtkScrolledWindow *scroller;
  GtkLabel       *range_label;
  GtkGrid        *class_grid;
  GtkLabel       *steal_label;
  GtkGrid        *process_grid;
  GtkLabel       *lane_label;
  GtkWidget      *lane_buttons;
  GtkButton      *expand_button;
  GtkListBox     *episodes;
  GtkLabel       *episodes_label;
  GtkLabel       *boot_label;
  GtkGrid        *boot_grid;
  GtkWidget      *lane_heading;
  IochartSummary *summary;
  IochartBootchartRange *boot_range;
};

G_DEFINE_FINAL_TYPE (IochartRangePanel, iochart_range_panel, GTK_TYPE_BOX)

enum { EPISODE_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))))
    gtk_grid_remove (grid, child);
}

static GtkWidget *
cell (const char *text, gboolean heading, gboolean numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (label), numeric ? -1 : 14);
  gtk_widget_set_hexpand (label, !numeric);
  gtk_widget_add_css_class (label, heading ? "caption-heading" : "figures");
  if (heading)
    gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
row (GtkGrid *grid, int r, const char *const *texts, guint n, gboolean heading)
{
  for (guint c = 0; c < n; c++)
    gtk_grid_attach (grid, cell (texts[c], heading, c > 0), c, r, 1, 1);
}

static char *
fmt_latency (const IochartLatencyStats *l)
{
  g_autofree char *p50 = NULL, *p99 = NULL;

  if (l->n == 0 || l->p50_ns == IOCHART_TIME_UNKNOWN)
    return g_strdup ("–");
  p50 = iochart_format_duration (l->p50_ns);
  p99 = iochart_format_duration (l->p99_ns);
  return g_strdup_printf ("%s / %s", p50, p99);
}

static char *
fmt_btt (const IochartBttStat *st)
{
  g_autofree char *avg = iochart_format_duration ((double) st->sum_ns / st->n);
  g_autofree char *max = iochart_format_duration (st->max_ns);

  return g_strdup_printf ("%s / %s", avg, max);
}

/* btt's own figures of the device (the whole capture, every bio, as `info --btt`): a live
 * recording's grow with it. */
static int
btt_rows (GtkGrid *grid, int r, const IochartSummary *summary)
{
  const char *head[] = { _("btt, whole capture"), _("Q2C avg/max"), _("D2C avg/max") };

  if (summary->btt_devices->len == 0)
    return r;
  row (grid, r++, head, 3, TRUE);
  for (guint i = 0; i < summary->btt_devices->len; i++)
    {
      const IochartSummaryBtt *bt = &g_array_index (summary->btt_devices, IochartSummaryBtt, i);
      g_autofree char *n = iochart_format_count (bt->q2c.n);
      g_autofree char *what = g_strdup_printf (_("%u,%u: %s bios"), IOCHART_DEV_MAJOR (bt->dev),
                                               IOCHART_DEV_MINOR (bt->dev), n);
      g_autofree char *q = fmt_btt (&bt->q2c), *d = fmt_btt (&bt->d2c);

      row (grid, r++, (const char *[]) { what, q, d }, 3, FALSE);
    }
  return r;
}

static void show_boot (IochartRangePanel *self, gboolean boot);

/* A class's or a lane's latency on a dim line under its figures: four columns would not fit. */
static void
latency_line (GtkGrid *grid, int r, int width, const char *q2c, const char *d2c)
{
  /* Translators: latency percentiles, "p50 / p99" each */
  g_autofree char *text = g_strdup_printf (_("Q2C %s · D2C %s (p50 / p99)"), q2c, d2c);
  GtkWidget *sub = cell (text, FALSE, FALSE);

  gtk_widget_add_css_class (sub, "dim-label");
  gtk_widget_set_margin_start (sub, 12);
  gtk_grid_attach (grid, sub, 0, r, width, 1);
}

static void
steal_text (IochartRangePanel *self, IochartSteal *steal, const IochartStealDevice *d, gboolean filtered)
{
  if (iochart_steal_device_is_unknown (d))
    {
      /* as the chart's header and `info` say it: 0 s would be a figure nobody measured */
      g_autofree char *n = iochart_format_count (d->unknown_requests);
      g_autofree char *text = g_strdup_printf (_("Idle steal: unknown, %s requests have no class"), n);

      gtk_label_set_text (self->steal_label, text);
    }
  else if (d && d->foreground_active_ns > 0)
    {
      g_autofree char *s = iochart_format_duration (d->stolen_ns);
      g_autofree char *a = iochart_format_duration (d->foreground_active_ns);
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "Idle steal: %s of the %s with foreground I/O outstanding "
                                                            "(%.1f%%), %u episode",
                                                            "Idle steal: %s of the %s with foreground I/O outstanding "
                                                            "(%.1f%%), %u episodes", d->n_episodes), s, a,
                                               100.0 * d->stolen_ns / d->foreground_active_ns, d->n_episodes);
      gtk_label_set_text (self->steal_label, text);
    }
  else if (d)
    gtk_label_set_text (self->steal_label, filtered ? _("Idle steal: the filtered lanes had no foreground I/O "
                                                        "outstanding in this range")
                                                    : _("Idle steal: no foreground I/O outstanding in this range"));
  else
    gtk_label_set_text (self->steal_label, "");
  gtk_widget_set_visible (GTK_WIDGET (self->steal_label), steal != NULL);
}

/* The lanes as `info` lists them (by bytes), each with the idle steal its processes took and, on a
 * line under it, its latency. */
static void
lane_rows (IochartRangePanel *self, const IochartSummary *summary, const IochartStealDevice *d)
{
  const char *head[] = { _("Lane"), _("Requests"), _("Bytes"), _("Stolen") };
  g_autofree gint64 *stolen = d ? iochart_steal_device_per_lane (d, summary->lanes) : NULL;
  guint width = d ? 4 : 3;   /* a boot chart's panel without block I/O has no steal figures */
  int r = 1;

  if (summary->lane_rows->len == 0)
    return;
  row (self->process_grid, 0, head, width, TRUE);
  for (guint i = 0; i < summary->lane_rows->len && i < 12; i++)
    {
      const IochartSummaryLane *sl = &g_array_index (summary->lane_rows, IochartSummaryLane, i);
      g_autofree char *n = iochart_format_count (sl->count.requests);
      g_autofree char *b = iochart_format_bytes (sl->count.bytes);
      g_autofree char *st = stolen && stolen[sl->lane] > 0 ? iochart_format_duration (stolen[sl->lane]) : g_strdup ("–");
      g_autofree char *q = fmt_latency (&sl->latency.kind[IOCHART_LATENCY_Q2C]);
      g_autofree char *dc = fmt_latency (&sl->latency.kind[IOCHART_LATENCY_D2C]);

      row (self->process_grid, r++, (const char *[]) { sl->l->label, n, b, st }, width, FALSE);
      gtk_widget_set_tooltip_text (gtk_grid_get_child_at (self->process_grid, 0, r - 1), sl->l->label);
      latency_line (self->process_grid, r++, width, q, dc);
    }
  if (summary->lane_rows->len > 12)
    {
      g_autofree char *more = g_strdup_printf (_("and %u more lanes"), summary->lane_rows->len - 12);
      gtk_grid_attach (self->process_grid, cell (more, FALSE, FALSE), 0, r, width, 1);
    }
}

void
iochart_range_panel_set_figures (IochartRangePanel *self, const char *range_text, IochartSummary *summary,
                                 IochartSteal *steal)
{
  const char *class_head[] = { _("Class"), _("Requests"), _("Bytes") };
  const IochartStealDevice *d = steal ? iochart_steal_get_primary (steal) : NULL;
  int r = 1;

  g_clear_pointer (&self->summary, iochart_summary_free);
  self->summary = summary;
  gtk_label_set_text (self->range_label, range_text);
  if (self->boot_range == NULL)
    show_boot (self, FALSE);
  clear_grid (self->class_grid);
  clear_grid (self->process_grid);
  if (summary == NULL)
    return;
  row (self->class_grid, 0, class_head, 3, TRUE);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      g_autofree char *n = NULL, *b = NULL, *q = NULL, *dc = NULL;

      if (summary->counts.by_class[k].requests == 0)
        continue;
      n = iochart_format_count (summary->counts.by_class[k].requests);
      b = iochart_format_bytes (summary->counts.by_class[k].bytes);
      q = fmt_latency (&summary->class_latency[k].kind[IOCHART_LATENCY_Q2C]);
      dc = fmt_latency (&summary->class_latency[k].kind[IOCHART_LATENCY_D2C]);
      row (self->class_grid, r++, (const char *[]) { iochart_class_name (k), n, b }, 3, FALSE);
      latency_line (self->class_grid, r++, 3, q, dc);
    }
  if (r == 1)
    gtk_grid_attach (self->class_grid, cell (summary->requests ? _("No request of the filtered lanes in this range")
                                                               : _("No request issued in this range"), FALSE, FALSE),
                     0, r++, 3, 1);
  btt_rows (self->class_grid, r, summary);
  steal_text (self, steal, d, summary->requests != NULL);
  lane_rows (self, summary, d);
}

/* A boot chart has no lanes to click nor steal episodes of its own: its processes and disks instead. */
static void
show_boot (IochartRangePanel *self, gboolean boot)
{
  gtk_widget_set_visible (GTK_WIDGET (self->boot_label), boot);
  gtk_widget_set_visible (GTK_WIDGET (self->boot_grid), boot);
  gtk_widget_set_visible (self->lane_heading, !boot);
  gtk_widget_set_visible (GTK_WIDGET (self->lane_label), !boot);
  gtk_widget_set_visible (GTK_WIDGET (self->episodes_label), !boot);
  if (boot)
    {
      gtk_widget_set_visible (self->lane_buttons, FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->episodes), FALSE);
    }
}

void
iochart_range_panel_set_boot_figures (IochartRangePanel *self, const char *range_text, IochartBootchartRange *range,
                                      IochartSummary *summary, IochartSteal *steal)
{
  const char *head[] = { _("Process"), _("CPU"), _("Waiting for CPU"), _("D state") };
  g_autoptr(GString) text = g_string_new (NULL);
  int r = 1;

  g_clear_pointer (&self->boot_range, iochart_bootchart_range_free);
  self->boot_range = range;
  show_boot (self, TRUE);
  /* the block I/O of the same boot, when there is one, in the grids of an I/O chart, with the
   * idle steal of the device the chart draws */
  iochart_range_panel_set_figures (self, range_text, summary, steal);
  gtk_widget_set_visible (GTK_WIDGET (self->class_grid), summary != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->process_grid), summary != NULL);
  clear_grid (self->boot_grid);
  if (range == NULL)
    {
      gtk_label_set_text (self->boot_label, _("No sample in this range"));
      return;
    }
  g_string_append_printf (text, _("CPU: user %.1f%%, system %.1f%%, I/O wait %.1f%%"),
                          100 * range->cpu_user, 100 * range->cpu_sys, 100 * range->cpu_iowait);
  for (guint i = 0; i < range->disks->len; i++)
    {
      g_autofree char *line = iochart_bootchart_range_disk_text (&g_array_index (range->disks,
                                                                                 IochartBootchartRangeDisk, i), TRUE);

      g_string_append_c (text, '\n');
      g_string_append (text, line);
    }
  gtk_label_set_text (self->boot_label, text->str);
  row (self->boot_grid, 0, head, 4, TRUE);
  for (guint i = 0; i < range->processes->len && i < 12; i++)
    {
      const IochartBootchartRangeProcess *p = &g_array_index (range->processes, IochartBootchartRangeProcess, i);
      g_autofree char *name = g_strdup_printf ("%s[%d]", p->process->cmd ? p->process->cmd : "?", p->process->pid);
      g_autofree char *cpu = iochart_format_duration (p->cpu_ns);
      g_autofree char *wait = iochart_format_duration (p->split.ns[IOCHART_SPLIT_RUNNABLE]);
      g_autofree char *d = iochart_format_duration (p->d_state_ns);

      row (self->boot_grid, r++, (const char *[]) { name, cpu, wait, d }, 4, FALSE);
    }
  if (r == 1)
    gtk_grid_attach (self->boot_grid, cell (_("No process ran or waited in this range"), FALSE, FALSE), 0, r, 4, 1);
}

const IochartBootchartRange *
iochart_range_panel_get_boot_range (IochartRangePanel *self)
{
  return self->boot_range;
}

const IochartSummary *
iochart_range_panel_get_summary (IochartRangePanel *self)
{
  return self->summary;
}

const char *
iochart_range_panel_get_steal_text (IochartRangePanel *self)
{
  return gtk_label_get_text (self->steal_label);
}

const char *
iochart_range_panel_get_lane_text (IochartRangePanel *self)
{
  return gtk_label_get_text (self->lane_label);
}

GtkGrid *
iochart_range_panel_get_lane_grid (IochartRangePanel *self)
{
  return self->process_grid;
}

void
iochart_range_panel_set_lane (IochartRangePanel *self, IochartLanes *lanes, int lane, const IochartLane *figures,
                              gint64 from_ns, gint64 to_ns, gboolean selected)
{
  const IochartLane *l;
  g_autofree char *text = NULL;

  if (lanes == NULL || lane < 0 || (guint) lane >= iochart_lanes_get_n_lanes (lanes))
    {
      gtk_label_set_text (self->lane_label, _("Click a lane to see its figures here."));
      gtk_widget_set_visible (self->lane_buttons, FALSE);
      return;
    }
  l = iochart_lanes_get_lane (lanes, lane);
  if (figures == NULL)
    text = g_strdup_printf (selected ? _("%s\nno I/O in the selection") : _("%s\nno I/O in the view"), l->label);
  else
    {
      g_autofree char *bytes = iochart_format_bytes (figures->bytes);
      g_autofree char *out = iochart_format_duration (figures->outstanding_ns);
      g_autofree char *life = iochart_format_duration (iochart_lane_get_life_ns (figures, from_ns, to_ns));
      g_autofree char *rq = iochart_format_count (figures->n_requests);
      g_autofree char *in_rq = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %s request", "%s in %s requests",
                                                             figures->n_requests), bytes, rq);
      g_autofree char *procs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u process", "%u processes",
                                                             figures->n_processes), figures->n_processes);

      /* Translators: a lane's label; its class, "2 MiB in 3 requests", "1 process"; durations */
      text = g_strdup_printf (selected ? _("%s\nclass %s · %s · %s\nI/O outstanding %s of %s in the selection")
                                       : _("%s\nclass %s · %s · %s\nI/O outstanding %s of %s in the view"),
                              l->label, iochart_class_name (figures->klass), in_rq, procs, out, life);
    }
  gtk_label_set_text (self->lane_label, text);
  gtk_widget_set_visible (self->lane_buttons, !l->others);
  /* a lane of one process has nothing to expand; one out of an expanded lane folds it back */
  gtk_widget_set_visible (GTK_WIDGET (self->expand_button),
                          l->expanded_from != IOCHART_NO_PROCESS ||
                          (l->n_processes > 1 && iochart_lanes_get_group_by (lanes) == IOCHART_GROUP_TREE));
  gtk_button_set_label (self->expand_button, l->expanded_from != IOCHART_NO_PROCESS ? _("_Fold Back Into One Lane")
                                                                                   : _("_Show Its Processes"));
  {
    g_autofree char *tip = l->expanded_from != IOCHART_NO_PROCESS
      ? g_strdup (_("Show these processes as one lane again"))
      : g_strdup_printf (_("A lane for each of this lane's processes (the %u busiest)"), IOCHART_LANES_EXPAND_MAX);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->expand_button), tip);
  }
}

gboolean
iochart_range_panel_reveal_lane (IochartRangePanel *self)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  GtkWidget *content = gtk_scrolled_window_get_child (self->scroller);
  double x, top, page = gtk_adjustment_get_page_size (adj), at = gtk_adjustment_get_value (adj);
  int height = gtk_widget_get_height (GTK_WIDGET (self->lane_buttons)) + 80;

  /* the lane's figures come under the selection's table of every lane: a click scrolls them in
   * view, its heading at the top, when they are not (the content's coordinates: a viewport's
   * child, or the scrolled content itself, which is at 0 when scrolled) */
  if (GTK_IS_VIEWPORT (content))
    content = gtk_viewport_get_child (GTK_VIEWPORT (content));
  if (!gtk_widget_translate_coordinates (self->lane_heading, content, 0, 0, &x, &top))
    return FALSE;
  if (top >= at && top + height <= at + page)
    return FALSE;
  gtk_adjustment_set_value (adj, top - 6);
  return TRUE;
}

void
iochart_range_panel_set_episodes (IochartRangePanel *self, IochartSteal *steal, gint64 origin_ns)
{
  GtkWidget *child;
  guint n = steal ? iochart_steal_get_n_episodes (steal) : 0;
  IochartCapture *capture = steal ? iochart_steal_get_capture (steal) : NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->episodes))))
    gtk_list_box_remove (self->episodes, child);
  for (guint i = 0; i < n && i < 200; i++)
    {
      const IochartStealEpisode *ep = iochart_steal_get_episode (steal, i);
      const IochartProcess *p = ep->idle_process < iochart_capture_get_n_processes (capture)
                                ? iochart_capture_get_process (capture, ep->idle_process) : NULL;
      g_autofree char *t = iochart_format_duration (ep->start_ns - origin_ns);
      g_autofree char *s = iochart_format_duration (ep->stolen_ns);
      g_autofree char *title = g_strdup_printf (_("at %s: %s stolen"), t, s);
      g_autofree char *sub = g_strdup_printf (_("by %s[%d], %u waiting"), p && p->comm ? p->comm : "?",
                                              p ? p->pid : 0, ep->waiting->len);
      GtkWidget *r = adw_action_row_new ();

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (r), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (r), sub);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (r), TRUE);
      g_object_set_data (G_OBJECT (r), "episode", GUINT_TO_POINTER (i));
      gtk_list_box_append (self->episodes, r);
    }
  {
    g_autofree char *text = n > 200 ? g_strdup_printf (_("Steal episodes (the first 200 of %u)"), n)
                            : n > 0 ? g_strdup_printf (_("Steal episodes (%u)"), n)
                                    : g_strdup (_("No steal episodes"));
    gtk_label_set_text (self->episodes_label, text);
  }
  gtk_widget_set_visible (GTK_WIDGET (self->episodes), n > 0);
}

static void
episode_activated (GtkListBox *box, GtkListBoxRow *r, IochartRangePanel *self)
{
  g_signal_emit (self, signals[EPISODE_ACTIVATED], 0, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (r), "episode")));
}

static void
iochart_range_panel_dispose (GObject *object)
{
  IochartRangePanel *self = IOCHART_RANGE_PANEL (object);

  g_clear_pointer (&self->summary, iochart_summary_free);
  g_clear_pointer (&self->boot_range, iochart_bootchart_range_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), IOCHART_TYPE_RANGE_PANEL);
  G_OBJECT_CLASS (iochart_range_panel_parent_class)->dispose (object);
}

static void
iochart_range_panel_class_init (IochartRangePanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = iochart_range_panel_dispose;
  gtk_widget_class_set_template_from_resource (widget_class, "/org/iochart/Iochart/iochart-range-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, scroller);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, range_label);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, class_grid);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, steal_label);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, process_grid);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, lane_label);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, lane_buttons);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, expand_button);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, episodes);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, episodes_label);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, boot_label);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, boot_grid);
  gtk_widget_class_bind_template_child (widget_class, IochartRangePanel, lane_heading);
  gtk_widget_class_bind_template_callback (widget_class, episode_activated);
  signals[EPISODE_ACTIVATED] = g_signal_new ("episode-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                             0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
iochart_range_panel_init (IochartRangePanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
iochart_range_panel_new (void)
{
  return g_object_new (IOCHART_TYPE_RANGE_PANEL, NULL);
}
