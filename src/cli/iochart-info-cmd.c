/* iochart-info-cmd.c: `iochart info [--json] [--device MAJ,MIN] [--all] CAPTURE...` */
#include <stdio.h>
#include "iochart-cli-private.h"
#include "iochart-summary.h"
#include "iochart-format.h"
#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-chart.h"
#include "analysis/iochart-steal.h"
#include "analysis/iochart-lanes.h"

/* A bootchart capture is a model of its own: it is summarised beside the block I/O, if any. */
static gboolean
split_bootchart (char **captures, char **bootchart_path, GError **error)
{
  guint out = 0;

  *bootchart_path = NULL;
  for (guint i = 0; captures[i] != NULL; i++)
    {
      if (iochart_bootchart_sniff_path (captures[i]))
        {
          if (*bootchart_path != NULL)
            {
              g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                           "'%s': only one bootchart capture at a time", captures[i]);
              return FALSE;
            }
          *bootchart_path = captures[i];
          continue;
        }
      captures[out++] = captures[i];
    }
  captures[out] = NULL;
  return TRUE;
}

static int
cmp_stolen_desc (gconstpointer a, gconstpointer b)
{
  const IochartStealShare *x = a, *y = b;

  return (x->stolen_ns < y->stolen_ns) - (x->stolen_ns > y->stolen_ns);
}

/* Thousands of short-lived `cat`s each steal a little: credit them to the lane they belong to,
 * the process that forked them. */
static void
print_steal_lanes (IochartCapture *capture, const IochartStealDevice *d, GString *out)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) lanes = NULL;
  g_autoptr(GArray) per_lane = g_array_new (FALSE, TRUE, sizeof (IochartStealShare));
  g_autofree gint64 *stolen = NULL;

  if (d->idle == NULL || d->idle->len == 0)
    return;
  lo.top_n = 0;
  lo.device = d->device;
  lanes = iochart_lanes_new (capture, &lo);
  stolen = iochart_steal_device_per_lane (d, lanes);
  g_array_set_size (per_lane, iochart_lanes_get_n_lanes (lanes));
  for (guint i = 0; i < per_lane->len; i++)
    {
      g_array_index (per_lane, IochartStealShare, i).process = i;
      g_array_index (per_lane, IochartStealShare, i).stolen_ns = stolen[i];
    }
  g_array_sort (per_lane, cmp_stolen_desc);
  for (guint i = 0; i < MIN (per_lane->len, 5); i++)
    {
      const IochartStealShare *share = &g_array_index (per_lane, IochartStealShare, i);
      g_autofree char *t = NULL;

      if (share->stolen_ns <= 0)
        break;
      t = iochart_format_duration (share->stolen_ns);
      g_string_append_printf (out, "  %s took %s\n", iochart_lanes_get_lane (lanes, share->process)->label, t);
    }
}

static void
print_steal (IochartSteal *steal, GString *out)
{
  const IochartStealDevice *d = iochart_steal_get_primary (steal);
  IochartCapture *capture = iochart_steal_get_capture (steal);
  const IochartDevice *dev;
  g_autofree char *stolen = NULL, *active = NULL, *unknown = NULL, *episodes = NULL;

  if (d == NULL)
    return;
  dev = iochart_capture_get_device (capture, d->device);
  if (iochart_steal_device_is_unknown (d))
    {
      unknown = iochart_format_count (d->unknown_requests);
      g_string_append_printf (out, "idle steal on %u,%u: unknown: %s requests have no class (give --class, or a "
                              "capture of the same run that has it)\n",
                              IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev), unknown);
      return;
    }
  stolen = iochart_format_duration (d->stolen_ns);
  active = iochart_format_duration (d->foreground_active_ns);
  episodes = iochart_format_count (d->n_episodes);
  g_string_append_printf (out, "idle steal on %u,%u: %s stolen, %.1f%% of %s foreground-active time, %s episode%s\n",
                          IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev), stolen,
                          d->foreground_active_ns > 0 ? 100.0 * d->stolen_ns / d->foreground_active_ns : 0.0,
                          active, episodes, d->n_episodes == 1 ? "" : "s");
  if (d->unknown_requests > 0)
    {
      unknown = iochart_format_count (d->unknown_requests);
      g_string_append_printf (out, "  (at least: %s requests have no class)\n", unknown);
    }
  print_steal_lanes (capture, d, out);
}

static gboolean
print_json (const IochartSummary *summary, IochartSteal *steal, IochartBootchart *bootchart,
            const IochartBootchartRange *range, guint top, GError **error)
{
  g_autofree char *text = iochart_cli_json_document (summary, steal, bootchart, range, top);

  if (fputs (text, stdout) < 0 || fputc ('\n', stdout) < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "cannot write to standard output");
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  gboolean  json, all, btt;
  char     *device, *group_by, *from, *to;
  char    **pid_texts, **comms;
  char    **captures;
  IochartCliLoadOptions load;
  /* parsed before anything is loaded */
  guint32         dev;
  IochartGroupBy  group;
  gint64          from_rel_ns, to_rel_ns;
  GArray         *pids;
} InfoOptions;

static void
info_options_clear (InfoOptions *o)
{
  g_free (o->device);
  g_free (o->group_by);
  g_free (o->from);
  g_free (o->to);
  g_strfreev (o->captures);
  g_strfreev (o->pid_texts);
  g_strfreev (o->comms);
  g_clear_pointer (&o->pids, g_array_unref);
  g_strfreev (o->load.class_rules);
}

static gboolean
parse_options (InfoOptions *o, int argc, char **argv, GError **error)
{
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "print JSON", NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &o->device, "only this device", "MAJ,MIN" },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &o->all, "list every lane or process, not the top 20", NULL },
    { "group-by", 0, 0, G_OPTION_ARG_STRING, &o->group_by,
      "lanes as the chart groups them: tree (default), pid (one row per process), comm, parent or class", "HOW" },
    { "btt", 0, 0, G_OPTION_ARG_NONE, &o->btt, "btt's own Q2C and D2C figures per device and process name", NULL },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o->from,
      "only requests issued from this time of the capture on (of a boot chart: since boot, and its processes' and "
      "disks' figures in the range)", "TIME" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o->to, "only requests issued before this time of the capture", "TIME" },
    { "pid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->pid_texts,
      "only the requests of lanes holding this pid, as the chart's --pid and the app's filters (repeatable)", "PID" },
    { "comm", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->comms,
      "only the requests of lanes holding a process of this name (repeatable)", "COMM" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &o->load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- requests, bytes and latency by device, class and lane");

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, error))
    return FALSE;
  if (o->captures == NULL || o->captures[0] == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "info needs a capture (see 'iochart info --help')");
      return FALSE;
    }
  o->group = IOCHART_GROUP_TREE;
  o->from_rel_ns = o->to_rel_ns = IOCHART_TIME_UNKNOWN;
  if (o->device != NULL && !iochart_cli_parse_dev (o->device, &o->dev, error))
    return FALSE;
  if (o->group_by != NULL && !iochart_group_by_from_name (o->group_by, &o->group))
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': bad --group-by: give tree, pid, comm, parent or class", o->group_by);
      return FALSE;
    }
  o->pids = g_array_new (FALSE, FALSE, sizeof (gint32));
  for (guint i = 0; o->pid_texts && o->pid_texts[i]; i++)
    {
      gint64 pid;
      gint32 pid32;

      if (!g_ascii_string_to_signed (o->pid_texts[i], 10, 0, G_MAXINT32, &pid, NULL))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad --pid: give a process id", o->pid_texts[i]);
          return FALSE;
        }
      pid32 = (gint32) pid;
      g_array_append_val (o->pids, pid32);
    }
  if ((o->from && !iochart_cli_parse_duration (o->from, "--from", &o->from_rel_ns, error)) ||
      (o->to && !iochart_cli_parse_duration (o->to, "--to", &o->to_rel_ns, error)))
    return FALSE;
  if (o->from_rel_ns != IOCHART_TIME_UNKNOWN && o->to_rel_ns != IOCHART_TIME_UNKNOWN && o->to_rel_ns <= o->from_rel_ns)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': --to must come after --from ('%s')", o->to, o->from);
      return FALSE;
    }
  return TRUE;
}

/* Turns the options into the summary's, with times from the capture's start; with a boot chart,
 * since boot on the samples' clock (offset_ns: bootchart time = capture time + offset). */
static gboolean
summary_options (const InfoOptions *o, IochartCapture *capture, const gint64 *offset_ns, IochartSummaryOptions *so,
                 GError **error)
{
  gint64 start = offset_ns ? -*offset_ns : iochart_capture_get_start_ns (capture);

  so->top = o->all ? 0 : 20;
  so->group_by = o->group;
  so->text_only = !o->json;
  so->pids = (const gint32 *) o->pids->data;
  so->n_pids = o->pids->len;
  so->comms = (const char * const *) o->comms;
  if (o->device != NULL && (so->device = iochart_capture_find_device (capture, o->dev)) < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s", o->captures[0], o->device);
      return FALSE;
    }
  if (offset_ns == NULL && !iochart_cli_check_from (capture, o->from, o->from_rel_ns, error))
    return FALSE;
  so->from_ns = o->from_rel_ns != IOCHART_TIME_UNKNOWN ? start + o->from_rel_ns : IOCHART_TIME_UNKNOWN;
  so->to_ns = o->to_rel_ns != IOCHART_TIME_UNKNOWN ? start + o->to_rel_ns : IOCHART_TIME_UNKNOWN;
  return TRUE;
}

static gboolean
print_btt_json (const IochartSummary *summary, GError **error)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  iochart_summary_btt_to_json (summary, b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  if (puts (text) < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "cannot write to standard output");
      return FALSE;
    }
  return TRUE;
}

static gboolean
print_text (const InfoOptions *o, IochartSummary *summary, IochartSteal *steal, IochartBootchart *bootchart,
            const IochartBootchartRange *range)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (bootchart != NULL)
    iochart_bootchart_print_info (bootchart, stdout);
  if (range != NULL)
    iochart_bootchart_range_print (range, o->all ? 0 : 20, out);
  if (summary != NULL && o->btt)
    iochart_summary_print_btt (summary, out);
  else if (summary != NULL)
    iochart_summary_print (summary, out);
  if (steal != NULL && !o->btt)
    print_steal (steal, out);
  return fputs (out->str, stdout) >= 0;
}

/* --from/--to of a boot chart count from boot, as its time axis does. */
static gboolean
bootchart_range (const InfoOptions *o, IochartBootchart *bc, IochartBootchartRange **range, GError **error)
{
  *range = iochart_bootchart_range_new (bc, o->from_rel_ns, o->to_rel_ns);
  if (*range == NULL)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': no sample in --from %s --to %s (the boot chart spans %.2f s to %.2f s after boot)",
                   iochart_bootchart_get_path (bc), o->from ? o->from : "(start)", o->to ? o->to : "(end)",
                   iochart_bootchart_get_start_ns (bc) / 1e9, iochart_bootchart_get_end_ns (bc) / 1e9);
      return FALSE;
    }
  return TRUE;
}

int
iochart_info_command (int argc, char **argv)
{
  InfoOptions o = { 0 };
  IochartSummaryOptions so = IOCHART_SUMMARY_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(IochartBootchart) bootchart = NULL;
  g_autoptr(IochartBootchartRange) range = NULL;
  g_autofree char *bootchart_path = NULL, *alignment = NULL;
  gint64 offset_ns = 0;
  gboolean ok;

  if (!parse_options (&o, argc, argv, &error) || !split_bootchart (o.captures, &bootchart_path, &error))
    goto fail;
  if (bootchart_path != NULL)
    {
      bootchart = iochart_bootchart_load (bootchart_path, &error);
      if (bootchart == NULL)
        goto fail;
      for (guint i = 0; i < iochart_bootchart_get_warnings (bootchart)->len; i++)
        fprintf (stderr, "iochart: warning: %s\n", (char *) g_ptr_array_index (iochart_bootchart_get_warnings (bootchart), i));
    }
  if (o.captures[0] != NULL)
    capture = iochart_cli_load_captures ((const char * const *) o.captures, &o.load, &error);
  else if (bootchart != NULL)   /* a bundle recorded by `iochart record --bootchart` has its own */
    capture = iochart_bootchart_chart_load_bundle_io (bootchart_path, &error);
  if (error != NULL)
    goto fail;
  if (capture != NULL && bootchart != NULL)
    {
      iochart_bootchart_lend_task_states (bootchart, capture);   /* the time split from samples */
      alignment = iochart_bootchart_align_io (bootchart, capture, &offset_ns);
    }
  if (bootchart != NULL && (o.from || o.to) && !bootchart_range (&o, bootchart, &range, &error))
    goto fail;
  if (capture != NULL)
    {
      IochartStealOptions st = IOCHART_STEAL_OPTIONS_INIT;
      IochartStealJob *job;

      if (!summary_options (&o, capture, bootchart ? &offset_ns : NULL, &so, &error))
        goto fail;
      st.device = so.device;
      st.from_ns = so.from_ns;
      st.to_ns = so.to_ns;
      /* text says only how many requests have no class when none has a known idle class */
      st.counts_if_unknown = !o.json;
      if (iochart_summary_options_filter (&so))
        {
          /* idle steal among the kept lanes' requests: those the summary found */
          summary = iochart_summary_new_full (capture, &so);
          st.requests = (const guint32 *) summary->requests->data;
          st.n_requests = summary->requests->len;
          steal = iochart_steal_new (capture, &st);
        }
      else
        {
          /* the two overlap on a large capture */
          job = iochart_steal_start (capture, &st);
          summary = iochart_summary_new_full (capture, &so);
          steal = iochart_steal_finish (job);
        }
    }
  if (o.json && o.btt && summary != NULL)
    ok = print_btt_json (summary, &error);
  else if (o.json)
    ok = print_json (summary, steal, bootchart, range, o.all ? 0 : 20, &error);
  else
    ok = print_text (&o, summary, steal, bootchart, range);
  if (!ok)
    {
      if (error == NULL)
        g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_IO, "cannot write to standard output");
      goto fail;
    }
  info_options_clear (&o);
  return IOCHART_EXIT_OK;
fail:
  info_options_clear (&o);
  return iochart_cli_report_error (error);
}
