/* iochart-simulate-cmd.c: `iochart simulate [--policy P]... [--device-model M] ... CAPTURE...`
 *
 * Replays the capture closed-loop under each policy (in parallel threads) and prints per lane the
 * observed run, then each simulated one: start, end, change, bytes, Q2C p50/p99; per class totals
 * and the idle steal of each run. --json gives the same as one document; --svg/--png/--pdf draw
 * the observed chart and each simulated one on one time scale, one above the other.
 */
#include <stdio.h>
#include <string.h>
#include "iochart-cli-private.h"
#include "iochart-format.h"
#include "analysis/iochart-lanes.h"
#include "render/iochart-chart.h"
#include "render/iochart-cairo.h"
#include "render/iochart-svg.h"
#include "simulator/iochart-simulator.h"
#include "simulator/iochart-sim-compare.h"

typedef struct {
  char  **policies, *model, **set_class, **set_group, **drop, *device, *group_by;
  gboolean json;
  char   *svg, *png, *pdf;
  int     top, width;
  IochartCliLoadOptions load;
  char  **captures;
} Options;

static void
options_clear (Options *o)
{
  g_strfreev (o->policies);
  g_free (o->model);
  g_strfreev (o->set_class);
  g_strfreev (o->set_group);
  g_strfreev (o->drop);
  g_free (o->device);
  g_free (o->group_by);
  g_free (o->svg);
  g_free (o->png);
  g_free (o->pdf);
  g_strfreev (o->load.class_rules);
  g_strfreev (o->captures);
}

/* One run: the observed capture (policy NULL) or a simulated one. */
typedef struct {
  const char        *policy;
  char              *described;     /* as the user gave it */
  char              *full;          /* every setting as used */
  char              *name;          /* the policies' names: "idle-gate+cfq" */
  IochartCapture    *capture;
  IochartSimStats    stats;
  GError            *error;
  IochartSimWorkload *wl;
  IochartSimDevice  *dev;
  IochartSimFigures *lanes;
  IochartSimFigures  classes[IOCHART_N_CLASSES];
  IochartSteal      *steal;
} Run;

static void
run_clear (Run *r)
{
  g_free (r->described);
  g_free (r->full);
  g_free (r->name);
  g_clear_object (&r->capture);
  g_clear_error (&r->error);
  g_free (r->lanes);
  g_clear_pointer (&r->steal, iochart_steal_free);
}

static gpointer
run_thread (gpointer data)
{
  Run *r = data;

  r->capture = iochart_sim_run (r->wl, r->dev, r->policy, &r->stats, &r->error);
  return NULL;
}

static gboolean
parse_options (Options *o, int argc, char **argv, GError **error)
{
  GOptionEntry entries[] = {
    { "policy", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &o->policies,
      "noop, cfq, mq-deadline, bfq, idle-gate[+POLICY], each with [:KEY=VALUE,...] (repeatable; default noop)", "SPEC" },
    { "device-model", 'm', 0, G_OPTION_ARG_STRING, &o->model,
      "fit (default: from requests served alone), observed, hdd or ssd, with [:KEY=VALUE,...]", "MODEL" },
    { "set-class", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->set_class,
      "give a process and its descendants this class (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { "set-group", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->set_group,
      "put a process and its descendants in a cgroup of this weight, 100-1000, default 500, for cfq (repeatable)",
      "COMM_OR_PID=NAME[:WEIGHT]" },
    { "drop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->drop,
      "leave a process and its descendants out (repeatable)", "COMM_OR_PID" },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device, "the device to simulate", "MAJ,MIN" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "print JSON instead of the table", NULL },
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &o->svg, "draw the observed and simulated charts as SVG", "FILE" },
    { "png", 0, 0, G_OPTION_ARG_FILENAME, &o->png, "... as PNG", "FILE" },
    { "pdf", 0, 0, G_OPTION_ARG_FILENAME, &o->pdf, "... as PDF", "FILE" },
    { "top", 0, 0, G_OPTION_ARG_INT, &o->top, "lanes kept by bytes, the rest folded (default 12, 0: all)", "N" },
    { "group-by", 0, 0, G_OPTION_ARG_STRING, &o->group_by,
      "rows: tree (a process and its short-lived descendants, default), pid (every process), comm, parent, class", "HOW" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o->width, "chart width in pixels (default 1600)", "PX" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o->load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- replay a capture under other schedulers, devices or priorities");

  o->top = 12;
  o->width = 1600;
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx,
    "The replay is closed-loop: each process's next request, fork or exit follows its previous\n"
    "completion, submission or child's exit by the observed gap, so think times stay and only\n"
    "disk time changes (CPU contention is not modelled). Async writes keep their observed times.\n"
    "Policies: noop; cfq (Linux 2.6.35: quantum, slice_sync, slice_async, slice_async_rq,\n"
    "slice_idle, low_latency, target_latency, fifo_expire_sync, fifo_expire_async, back_seek_max\n"
    "KiB, back_seek_penalty, group_idle, iops_mode); mq-deadline (read_expire,\n"
    "write_expire, fifo_batch, writes_starved, prio_aging_expire); bfq (slice_idle, timeout_sync,\n"
    "max_budget, low_latency, wr_max_time, fifo_expire_sync, fifo_expire_async, back_seek_max,\n"
    "back_seek_penalty); idle-gate (gap, k, starve) alone or wrapping one:\n"
    "idle-gate:gap=100ms+cfq. --set-group puts processes in cgroups for cfq.\n"
    "Device models: fit (depth), observed (depth), hdd (rpm, seek, stroke, overhead, rate MiB/s,\n"
    "capacity GiB, depth), ssd (latency, bandwidth MiB/s, channels).");
  if (!g_option_context_parse (ctx, &argc, &argv, error))
    return FALSE;
  if (o->captures == NULL || o->captures[0] == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "no capture given (see 'iochart simulate --help')");
      return FALSE;
    }
  if (o->top < 0 || o->width < IOCHART_VIEW_MIN_WIDTH || o->width > 32000)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "bad --top or --width");
      return FALSE;
    }
  if (o->policies == NULL)
    o->policies = g_strdupv ((char *[]) { (char *) "noop", NULL });
  for (guint i = 0; o->policies[i]; i++)
    if (!iochart_sim_policy_check (o->policies[i], error))
      return FALSE;
  return TRUE;
}

static gboolean
parse_rules (char **texts, GArray *rules, GError **error)
{
  for (guint i = 0; texts && texts[i]; i++)
    {
      IochartClassRule rule = { 0 };

      if (!iochart_class_rule_parse (texts[i], &rule, error))
        return FALSE;
      g_array_append_val (rules, rule);
    }
  return TRUE;
}

/* ---- figures ---- */

static void
compute_figures (Run *r, guint device, IochartLanes *lanes)
{
  IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;

  r->lanes = g_new0 (IochartSimFigures, MAX (iochart_lanes_get_n_lanes (lanes), 1));
  iochart_sim_figures_lanes (r->capture, device, lanes, r->lanes, r->classes);
  so.device = device;
  r->steal = iochart_steal_new (r->capture, &so);
}

static const IochartStealDevice *
steal_of (const Run *r, guint device)
{
  return iochart_steal_find_device (r->steal, device);
}

static char *
seconds (IochartCapture *c, gint64 ns)
{
  if (ns == IOCHART_TIME_UNKNOWN)
    return g_strdup ("-");
  return g_strdup_printf ("%.2f s", (ns - iochart_capture_get_start_ns (c)) / 1e9);
}

static char *
change (const IochartSimFigures *obs, const IochartSimFigures *sim, IochartCapture *c)
{
  return iochart_sim_figures_change_text (obs, sim);
}

/* "0 (sequential)", "under 1 MiB", "1 MiB - 16 MiB", "4 GiB and more": unit bytes per step */
static char *
band_label (const IochartSimFitBand *band, guint unit)
{
  g_autofree char *lo = iochart_format_bytes ((double) band->lo * unit);
  g_autofree char *hi = band->hi != G_MAXUINT64 ? iochart_format_bytes ((double) band->hi * unit) : NULL;

  if (band->hi == 1 && unit != 1)
    return g_strdup ("0 (sequential)");
  if (hi == NULL)
    return g_strdup_printf ("%s and more", lo);
  if (band->lo <= (unit != 1))
    return g_strdup_printf ("under %s", hi);
  return g_strdup_printf ("%s - %s", lo, hi);
}

static void
print_bands (const char *title, const IochartSimFitBand *bands, guint n, guint unit)
{
  printf ("  %-22s %8s %10s %10s %10s\n", title, "requests", "observed", "fitted", "residual");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *label = band_label (&bands[i], unit);
      g_autofree char *count = iochart_format_count (bands[i].n);

      if (bands[i].n == 0)
        continue;
      printf ("  %-22s %8s %7.2f ms %7.2f ms %+7.2f ms (%+.1f%%)\n", label, count, bands[i].observed_ms,
              bands[i].fitted_ms, bands[i].fitted_ms - bands[i].observed_ms,
              bands[i].observed_ms > 0 ? 100 * (bands[i].fitted_ms / bands[i].observed_ms - 1) : 0);
    }
}

static void
print_fit (IochartSimDevice *dev)
{
  const IochartSimFit *f = iochart_sim_device_get_fit (dev);

  if (f == NULL)
    return;
  printf ("fit: from %u requests %s; %.0f MB/s; positioning %.2f + %.4f·√d ms", f->n_alone,
          f->one_at_a_time ? "served one at a time (too few alone)" : "served alone",
          f->rate_bytes_per_s / 1e6, f->a_ms, f->b_ms);
  if (f->split_sectors != G_MAXUINT64)
    printf (" below %" G_GUINT64_FORMAT " sectors, %.2f + %.2e·d ms above", f->split_sectors, f->c_ms, f->e_ms);
  printf ("; error %.2f ms, %.1f%% of the mean %.2f ms (RMS horizontal distance of the D2C CDFs)\n",
          f->demerit_ms, f->demerit_pct, f->mean_ms);
  printf ("fit residuals (mean D2C of the requests it learnt from, observed and fitted):\n");
  print_bands ("seek distance", f->by_distance, IOCHART_SIM_FIT_DISTANCE_BANDS, 512);
  print_bands ("request size", f->by_size, IOCHART_SIM_FIT_SIZE_BANDS, 1);
}

static void
print_lane_row (const char *label, const char *run, IochartCapture *c, const IochartSimFigures *f,
                const char *delta)
{
  g_autofree char *a = seconds (c, f->start_ns), *b = seconds (c, f->end_ns);
  g_autofree char *bytes = iochart_format_bytes (f->bytes);
  g_autofree char *p50 = f->requests ? iochart_format_duration (f->q2c_p50_ns) : g_strdup ("-");
  g_autofree char *p99 = f->requests ? iochart_format_duration (f->q2c_p99_ns) : g_strdup ("-");

  printf ("%-44.44s %-22.22s %9s %9s %13s %9s %9s %9s\n", label, run, a, b, delta, bytes, p50, p99);
}

static void
print_table (Run *runs, guint n_runs, IochartLanes *lanes, guint device)
{
  IochartCapture *obs = runs[0].capture;
  GString *caveat = g_string_new (NULL);
  g_autoptr(GString) flushes = g_string_new (NULL);

  printf ("\n%-44s %-22s %9s %9s %13s %9s %9s %9s\n", "lane", "run", "start", "end", "change", "bytes",
          "q2c p50", "q2c p99");
  for (guint l = 0; l < iochart_lanes_get_n_lanes (lanes); l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (lanes, l);
      g_autofree char *label = g_strdup_printf ("%s (%s)", lane->label, iochart_class_name (lane->klass));

      for (guint k = 0; k < n_runs; k++)
        {
          g_autofree char *delta = k ? change (&runs[0].lanes[l], &runs[k].lanes[l], obs) : g_strdup ("");
          print_lane_row (k == 0 ? label : "", runs[k].described, obs, &runs[k].lanes[l], delta);
        }
      if (iochart_sim_figures_mostly_off_disk (&runs[0].lanes[l]))
        g_string_append_printf (caveat, "%s%s", caveat->len ? ", " : "", lane->label);
      if (runs[0].lanes[l].requests > 0 && runs[0].lanes[l].flushes == runs[0].lanes[l].requests)
        g_string_append_printf (flushes, "%s%s", flushes->len ? ", " : "", lane->label);
    }
  printf ("\n%-44s %-22s %9s %9s %13s %9s %9s %9s\n", "class", "run", "start", "end", "change", "bytes",
          "q2c p50", "q2c p99");
  for (guint c = 0; c < IOCHART_N_CLASSES; c++)
    for (guint k = 0; k < n_runs; k++)
      if (runs[0].classes[c].requests > 0 || runs[k].classes[c].requests > 0)
        {
          g_autofree char *delta = k ? change (&runs[0].classes[c], &runs[k].classes[c], obs) : g_strdup ("");
          print_lane_row (k == 0 ? iochart_class_name (c) : "", runs[k].described, obs, &runs[k].classes[c], delta);
        }
  printf ("\nidle steal:");
  for (guint k = 0; k < n_runs; k++)
    {
      const IochartStealDevice *d = steal_of (&runs[k], device);
      g_autofree char *t = iochart_format_duration (d ? d->stolen_ns : 0);

      printf ("%s %s %s (%.1f%%)", k ? ";" : "", runs[k].described, t,
              d && d->foreground_active_ns > 0 ? 100.0 * d->stolen_ns / d->foreground_active_ns : 0.0);
    }
  printf ("\n");
  if (caveat->len)
    printf ("note: I/O time only; CPU contention not modelled: %s spent most of %s life off the disk\n",
            caveat->str, strchr (caveat->str, ',') ? "their" : "its");
  if (flushes->len)
    printf ("note: flushes are not simulated (the workload leaves them out): %s issued only flushes\n",
            flushes->str);
  g_string_free (caveat, TRUE);
}

/* ---- JSON ---- */

static void
json_figures (JsonBuilder *b, IochartCapture *c, const IochartSimFigures *f)
{
  gint64 t0 = iochart_capture_get_start_ns (c);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start_ns");
  json_builder_add_int_value (b, f->start_ns == IOCHART_TIME_UNKNOWN ? -1 : f->start_ns - t0);
  json_builder_set_member_name (b, "end_ns");
  json_builder_add_int_value (b, f->end_ns == IOCHART_TIME_UNKNOWN ? -1 : f->end_ns - t0);
  json_builder_set_member_name (b, "bytes");
  json_builder_add_int_value (b, f->bytes);
  json_builder_set_member_name (b, "requests");
  json_builder_add_int_value (b, f->requests);
  json_builder_set_member_name (b, "flushes");
  json_builder_add_int_value (b, f->flushes);
  json_builder_set_member_name (b, "q2c_p50_ns");
  json_builder_add_int_value (b, f->q2c_p50_ns);
  json_builder_set_member_name (b, "q2c_p99_ns");
  json_builder_add_int_value (b, f->q2c_p99_ns);
  json_builder_end_object (b);
}

static void
json_processes (JsonBuilder *b, Run *obs, Run *sim, guint device)
{
  IochartCapture *c = obs->capture;
  guint n = iochart_capture_get_n_processes (c);
  g_autofree gint64 *obs_end = g_new (gint64, MAX (n, 1)), *sim_end = g_new (gint64, MAX (n, 1));
  g_autofree guint64 *obs_bytes = g_new (guint64, MAX (n, 1)), *sim_bytes = g_new (guint64, MAX (n, 1));
  gint64 t0 = iochart_capture_get_start_ns (c);

  iochart_sim_figures_processes (c, device, obs_end, obs_bytes);
  iochart_sim_figures_processes (sim->capture, device, sim_end, sim_bytes);
  json_builder_set_member_name (b, "processes");
  json_builder_begin_array (b);
  for (guint p = 0; p < n; p++)
    {
      const IochartProcess *proc = iochart_capture_get_process (sim->capture, p);

      if (obs_bytes[p] == 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, proc->pid);
      json_builder_set_member_name (b, "comm");
      json_builder_add_string_value (b, proc->comm ? proc->comm : "");
      json_builder_set_member_name (b, "class");
      json_builder_add_string_value (b, iochart_class_name (proc->klass));
      json_builder_set_member_name (b, "observed_end_ns");
      json_builder_add_int_value (b, obs_end[p] - t0);
      json_builder_set_member_name (b, "simulated_end_ns");
      if (sim_bytes[p] == 0)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, sim_end[p] - t0);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, obs_bytes[p]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
json_run (JsonBuilder *b, Run *runs, guint k, IochartLanes *lanes, guint device)
{
  Run *r = &runs[k];
  const IochartStealDevice *d = steal_of (r, device);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, k == 0 ? "observed" : r->name);
  json_builder_set_member_name (b, "settings");
  json_builder_add_string_value (b, k == 0 ? "" : r->full);
  if (k > 0)
    json_processes (b, &runs[0], r, device);
  json_builder_set_member_name (b, "lanes");
  json_builder_begin_array (b);
  for (guint l = 0; l < iochart_lanes_get_n_lanes (lanes); l++)
    json_figures (b, runs[0].capture, &r->lanes[l]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "classes");
  json_builder_begin_object (b);
  for (guint c = 0; c < IOCHART_N_CLASSES; c++)
    {
      json_builder_set_member_name (b, iochart_class_name (c));
      json_figures (b, runs[0].capture, &r->classes[c]);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "idle_steal");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "stolen_ns");
  json_builder_add_int_value (b, d ? d->stolen_ns : 0);
  json_builder_set_member_name (b, "stolen_pct");
  json_builder_add_double_value (b, d && d->foreground_active_ns > 0 ? 100.0 * d->stolen_ns / d->foreground_active_ns : 0);
  json_builder_end_object (b);
  if (k > 0)
    {
      json_builder_set_member_name (b, "events");
      json_builder_add_int_value (b, r->stats.events);
    }
  json_builder_end_object (b);
}

/* [{"lo_UNIT", "hi_UNIT" (null: no bound), "requests", "observed_ms", "fitted_ms", "residual_ms"}],
 * the means null in an empty band */
static void
json_bands (JsonBuilder *b, const char *name, const IochartSimFitBand *bands, guint n, const char *unit)
{
  g_autofree char *lo = g_strdup_printf ("lo_%s", unit), *hi = g_strdup_printf ("hi_%s", unit);

  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, lo);
      json_builder_add_int_value (b, bands[i].lo);
      json_builder_set_member_name (b, hi);
      if (bands[i].hi == G_MAXUINT64)
        json_builder_add_null_value (b);
      else
        json_builder_add_int_value (b, bands[i].hi);
      json_builder_set_member_name (b, "requests");
      json_builder_add_int_value (b, bands[i].n);
      json_builder_set_member_name (b, "observed_ms");
      bands[i].n ? json_builder_add_double_value (b, bands[i].observed_ms) : json_builder_add_null_value (b);
      json_builder_set_member_name (b, "fitted_ms");
      bands[i].n ? json_builder_add_double_value (b, bands[i].fitted_ms) : json_builder_add_null_value (b);
      json_builder_set_member_name (b, "residual_ms");
      bands[i].n ? json_builder_add_double_value (b, bands[i].fitted_ms - bands[i].observed_ms)
                 : json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
json_fit (JsonBuilder *b, IochartSimDevice *dev)
{
  const IochartSimFit *f = iochart_sim_device_get_fit (dev);

  if (f == NULL)
    return;
  json_builder_set_member_name (b, "fit");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "requests_alone");
  json_builder_add_int_value (b, f->n_alone);
  json_builder_set_member_name (b, "rate_bytes_per_s");
  json_builder_add_double_value (b, f->rate_bytes_per_s);
  json_builder_set_member_name (b, "error_ms");
  json_builder_add_double_value (b, f->demerit_ms);
  json_builder_set_member_name (b, "error_pct");
  json_builder_add_double_value (b, f->demerit_pct);
  json_builder_set_member_name (b, "mean_ms");
  json_builder_add_double_value (b, f->mean_ms);
  json_bands (b, "by_distance", f->by_distance, IOCHART_SIM_FIT_DISTANCE_BANDS, "sectors");
  json_bands (b, "by_size", f->by_size, IOCHART_SIM_FIT_SIZE_BANDS, "bytes");
  json_builder_end_object (b);
}

static void
print_json (Run *runs, guint n_runs, IochartLanes *lanes, guint device, IochartSimDevice *dev)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  IochartCapture *c = runs[0].capture;
  const IochartDevice *d = iochart_capture_get_device (c, device);
  g_autofree char *dev_name = g_strdup_printf ("%u,%u", IOCHART_DEV_MAJOR (d->dev), IOCHART_DEV_MINOR (d->dev));

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "dev");
  json_builder_add_string_value (b, dev_name);
  json_builder_set_member_name (b, "device_model");
  json_builder_add_string_value (b, iochart_sim_device_describe (dev));
  json_fit (b, dev);
  json_builder_set_member_name (b, "lanes");
  json_builder_begin_array (b);
  for (guint l = 0; l < iochart_lanes_get_n_lanes (lanes); l++)
    {
      const IochartLane *lane = iochart_lanes_get_lane (lanes, l);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "label");
      json_builder_add_string_value (b, lane->label);
      json_builder_set_member_name (b, "head_pid");
      json_builder_add_int_value (b, lane->head == IOCHART_NO_PROCESS ? -1
                                     : iochart_capture_get_process (c, lane->head)->pid);
      json_builder_set_member_name (b, "class");
      json_builder_add_string_value (b, iochart_class_name (lane->klass));
      json_builder_set_member_name (b, "cpu_not_modelled");
      json_builder_add_boolean_value (b, iochart_sim_figures_mostly_off_disk (&runs[0].lanes[l]));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "observed");
  json_run (b, runs, 0, lanes, device);
  json_builder_set_member_name (b, "policies");
  json_builder_begin_array (b);
  for (guint k = 1; k < n_runs; k++)
    json_run (b, runs, k, lanes, device);
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

/* ---- charts: every run on the observed run's time scale, one above the other ---- */

static gboolean
write_charts (Options *o, Run *runs, guint n_runs, guint device, GError **error)
{
  g_autoptr(IochartDisplayList) all = NULL;
  gint64 from = iochart_capture_get_start_ns (runs[0].capture), to = iochart_capture_get_end_ns (runs[0].capture);
  double y = 0;

  for (guint k = 1; k < n_runs; k++)
    to = MAX (to, iochart_capture_get_end_ns (runs[k].capture));
  all = iochart_display_list_new (o->width, 0);
  for (guint k = 0; k < n_runs; k++)
    {
      IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
      IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
      g_autoptr(IochartView) view = NULL;
      g_autoptr(IochartDisplayList) dl = NULL;
      g_autofree char *title = g_strdup_printf ("%s: %s", k == 0 ? "observed" : "simulated",
                                                iochart_capture_get_name (runs[k].capture));

      vo.device = device;
      vo.from_ns = from;
      vo.to_ns = to;
      vo.width = o->width;
      vo.lanes.top_n = o->top;
      style.title = title;
      view = iochart_view_new (runs[k].capture, &vo);
      dl = iochart_chart_draw (view, &style);
      if (k == 0)
        iochart_display_list_set_background (all, iochart_display_list_get_background (dl));
      iochart_display_list_translate (dl, 0, y);
      y += iochart_display_list_get_height (dl);
      iochart_display_list_append_list (all, dl);
    }
  iochart_display_list_set_height (all, y);
  if (o->svg && !iochart_svg_write (all, o->svg, error))
    return FALSE;
  if (o->png && !iochart_cairo_write_png (all, o->png, error))
    return FALSE;
  if (o->pdf && !iochart_cairo_write_pdf (all, o->pdf, error))
    return FALSE;
  return TRUE;
}

static gboolean
simulate (Options *o, IochartCapture *capture, GError **error)
{
  IochartSimWorkloadOptions wo = IOCHART_SIM_WORKLOAD_OPTIONS_INIT;
  g_autoptr(GArray) rules = g_array_new (FALSE, TRUE, sizeof (IochartClassRule));
  g_autoptr(IochartSimWorkload) wl = NULL;
  g_autoptr(IochartSimDevice) dev = NULL;
  g_autoptr(IochartLanes) lanes = NULL;
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  guint n_runs = g_strv_length (o->policies) + 1, device;
  g_autofree Run *runs = g_new0 (Run, n_runs);
  g_autofree GThread **threads = g_new0 (GThread *, n_runs);
  gboolean ok = TRUE;
  guint32 dev_t;

  g_array_set_clear_func (rules, (GDestroyNotify) iochart_class_rule_clear);
  if (!parse_rules (o->set_class, rules, error))
    return FALSE;
  if (o->device)
    {
      if (!iochart_cli_parse_dev (o->device, &dev_t, error))
        return FALSE;
      if ((wo.device = iochart_capture_find_device (capture, dev_t)) < 0)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s",
                       iochart_capture_get_name (capture), o->device);
          return FALSE;
        }
    }
  wo.set_class = (const IochartClassRule *) rules->data;
  wo.n_set_class = rules->len;
  wo.drop = (const char * const *) o->drop;
  wo.set_group = (const char * const *) o->set_group;
  if ((wl = iochart_sim_workload_new (capture, &wo, error)) == NULL ||
      (dev = iochart_sim_device_new (wl, o->model, error)) == NULL)
    return FALSE;
  device = iochart_sim_workload_get_device (wl);
  lo.device = device;
  lo.top_n = o->top;
  if (o->group_by && !iochart_group_by_from_name (o->group_by, &lo.group_by))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': bad --group-by: give tree, pid, comm, parent or class", o->group_by);
      return FALSE;
    }
  lanes = iochart_lanes_new (capture, &lo);

  runs[0].capture = g_object_ref (capture);
  runs[0].described = g_strdup ("observed");
  for (guint k = 1; k < n_runs; k++)
    {
      runs[k].policy = o->policies[k - 1];
      runs[k].wl = wl;
      runs[k].dev = dev;
      threads[k] = g_thread_new ("simulate", run_thread, &runs[k]);
    }
  for (guint k = 1; k < n_runs; k++)
    {
      g_thread_join (threads[k]);
      if (runs[k].error && ok)
        {
          g_propagate_error (error, g_steal_pointer (&runs[k].error));
          ok = FALSE;
        }
    }
  for (guint k = 0; k < n_runs && ok; k++)
    {
      if (k > 0)
        {
          g_auto(GStrv) parts = NULL;

          runs[k].described = g_strdup (runs[k].policy);
          runs[k].full = iochart_sim_policy_describe (runs[k].policy, 1);
          parts = g_strsplit (runs[k].full, "+", -1);
          for (guint i = 0; parts[i]; i++)
            if (strchr (parts[i], ':'))
              *strchr (parts[i], ':') = '\0';
          runs[k].name = g_strjoinv ("+", parts);
        }
      compute_figures (&runs[k], device, lanes);
    }
  if (ok && !o->json)
    {
      const IochartDevice *d = iochart_capture_get_device (capture, device);
      g_autofree char *n = iochart_format_count (iochart_sim_workload_get_n_requests (wl));

      printf ("simulated %u,%u: %s requests, closed-loop; device model %s\n", IOCHART_DEV_MAJOR (d->dev),
              IOCHART_DEV_MINOR (d->dev), n, iochart_sim_device_describe (dev));
      print_fit (dev);
      for (guint k = 1; k < n_runs; k++)
        printf ("policy %s\n", runs[k].full);
      print_table (runs, n_runs, lanes, device);
    }
  else if (ok)
    print_json (runs, n_runs, lanes, device, dev);
  if (ok && (o->svg || o->png || o->pdf))
    ok = write_charts (o, runs, n_runs, device, error);
  for (guint k = 0; k < n_runs; k++)
    run_clear (&runs[k]);
  return ok;
}

int
iochart_simulate_command (int argc, char **argv)
{
  Options o = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  int rc = IOCHART_EXIT_OK;

  if (!parse_options (&o, argc, argv, &error) ||
      (capture = iochart_cli_load_captures ((const char * const *) o.captures, &o.load, &error)) == NULL ||
      !simulate (&o, capture, &error))
    rc = iochart_cli_report_error (error);
  options_clear (&o);
  return rc;
}
