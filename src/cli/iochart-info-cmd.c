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

  if (d->idle == NULL || d->idle->len == 0)
    return;
  lo.top_n = 0;
  lo.device = d->device;
  lanes = iochart_lanes_new (capture, &lo);
  g_array_set_size (per_lane, iochart_lanes_get_n_lanes (lanes));
  for (guint i = 0; i < per_lane->len; i++)
    g_array_index (per_lane, IochartStealShare, i).process = i;
  for (guint i = 0; i < d->idle->len; i++)
    {
      const IochartStealShare *share = &g_array_index (d->idle, IochartStealShare, i);
      int lane = iochart_lanes_lane_of_process (lanes, share->process);

      if (lane >= 0)
        g_array_index (per_lane, IochartStealShare, lane).stolen_ns += share->stolen_ns;
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
  g_autofree char *stolen = NULL, *active = NULL;

  if (d == NULL)
    return;
  dev = iochart_capture_get_device (capture, d->device);
  stolen = iochart_format_duration (d->stolen_ns);
  active = iochart_format_duration (d->foreground_active_ns);
  g_string_append_printf (out, "idle steal on %u,%u: %s stolen, %.1f%% of %s foreground-active time, %u episodes\n",
                          IOCHART_DEV_MAJOR (dev->dev), IOCHART_DEV_MINOR (dev->dev), stolen,
                          d->foreground_active_ns > 0 ? 100.0 * d->stolen_ns / d->foreground_active_ns : 0.0,
                          active, d->n_episodes);
  print_steal_lanes (capture, d, out);
}

static gboolean
print_json (const IochartSummary *summary, IochartSteal *steal, IochartBootchart *bootchart, GError **error)
{
  g_autofree char *text = iochart_cli_json_document (summary, steal, bootchart);

  if (fputs (text, stdout) < 0 || fputc ('\n', stdout) < 0)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_IO, "cannot write to standard output");
      return FALSE;
    }
  return TRUE;
}

int
iochart_info_command (int argc, char **argv)
{
  gboolean json = FALSE, all = FALSE;
  g_autofree char *device = NULL, *from = NULL, *to = NULL;
  g_auto(GStrv) captures = NULL;
  IochartCliLoadOptions load = { 0 };
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "print JSON", NULL },
    { "device", 'd', 0, G_OPTION_ARG_STRING, &device, "only this device", "MAJ,MIN" },
    { "all", 'a', 0, G_OPTION_ARG_NONE, &all, "list every process, not the top 20", NULL },
    { "from", 0, 0, G_OPTION_ARG_STRING, &from, "only requests issued from this time on (from the capture's start)", "TIME" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to, "only requests issued before this time", "TIME" },
    { "class", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &load.class_rules,
      "class for a process whose class no capture tells (repeatable)", "COMM_OR_PID=idle|be|rt[:LEVEL]" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &captures, NULL, "CAPTURE..." },
    { NULL }
  };
  g_autoptr(GOptionContext) ctx = g_option_context_new ("- requests, bytes and latency by device, class and process");
  g_autoptr(GError) error = NULL;
  g_autoptr(IochartCapture) capture = NULL;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(IochartBootchart) bootchart = NULL;
  g_autofree char *bootchart_path = NULL;
  int dev_index = -1;
  guint32 dev;
  gint64 from_rel = IOCHART_TIME_UNKNOWN, to_rel = IOCHART_TIME_UNKNOWN;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    goto fail;
  if (captures == NULL || captures[0] == NULL)
    {
      g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "info needs a capture (see 'iochart info --help')");
      goto fail;
    }
  if (device != NULL && !iochart_cli_parse_dev (device, &dev, &error))
    goto fail;
  if ((from && !iochart_cli_parse_duration (from, "--from", &from_rel, &error)) ||
      (to && !iochart_cli_parse_duration (to, "--to", &to_rel, &error)))
    goto fail;
  if (!split_bootchart (captures, &bootchart_path, &error))
    goto fail;
  if (bootchart_path != NULL)
    {
      bootchart = iochart_bootchart_load (bootchart_path, &error);
      if (bootchart == NULL)
        goto fail;
      for (guint i = 0; i < iochart_bootchart_get_warnings (bootchart)->len; i++)
        fprintf (stderr, "iochart: warning: %s\n", (char *) g_ptr_array_index (iochart_bootchart_get_warnings (bootchart), i));
    }
  if (captures[0] != NULL)
    capture = iochart_cli_load_captures ((const char * const *) captures, &load, &error);
  else if (bootchart != NULL)   /* a bundle recorded by `iochart record --bootchart` has its own */
    capture = iochart_bootchart_chart_load_bundle_io (bootchart_path, &error);
  if (error != NULL)
    goto fail;
  if (capture != NULL)
    {
      if (device != NULL && (dev_index = iochart_capture_find_device (capture, dev)) < 0)
        {
          g_set_error (&error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': no request on device %s", captures[0], device);
          goto fail;
        }
      {
        IochartStealOptions so = IOCHART_STEAL_OPTIONS_INIT;
        gint64 start = iochart_capture_get_start_ns (capture);

        /* a range counts the requests issued inside it, as the app's selection does */
        if (from_rel != IOCHART_TIME_UNKNOWN)
          so.from_ns = start + from_rel;
        if (to_rel != IOCHART_TIME_UNKNOWN)
          so.to_ns = start + to_rel;
        summary = iochart_summary_new_range (capture, dev_index, all ? 0 : 20, so.from_ns, so.to_ns);
        so.device = dev_index;
        steal = iochart_steal_new (capture, &so);
      }
    }
  if (json)
    {
      if (!print_json (summary, steal, bootchart, &error))
        goto fail;
    }
  else
    {
      g_autoptr(GString) out = g_string_new (NULL);

      if (bootchart != NULL)
        iochart_bootchart_print_info (bootchart, stdout);
      if (summary != NULL)
        iochart_summary_print (summary, out);
      if (steal != NULL)
        print_steal (steal, out);
      fputs (out->str, stdout);
    }
  g_strfreev (load.class_rules);
  return IOCHART_EXIT_OK;
fail:
  g_strfreev (load.class_rules);
  return iochart_cli_report_error (error);
}
