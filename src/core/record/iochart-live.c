/* iochart-live.c: the figures of a recording while it runs (see the header) */
#include <string.h>

#include "iochart-live.h"
#include "analysis/iochart-lanes.h"
#include "analysis/iochart-steal.h"
#include "analysis/iochart-summary.h"
#include "iochart-format.h"

#define NS_PER_S G_GINT64_CONSTANT (1000000000)

static void
rates (IochartCapture *capture, IochartLiveStatus *st)
{
  gint64 end = iochart_capture_get_end_ns (capture);
  IochartCounts counts;

  iochart_counts_compute (capture, -1, end - NS_PER_S, end, &counts);
  for (guint k = 0; k < IOCHART_N_CLASSES; k++)
    {
      st->bytes_per_s[k] = counts.by_class[k].bytes;
      st->requests_per_s[k] = counts.by_class[k].requests;
    }
}

/* Events a second over the last second of trace time, as the class rates are: from the newest
 * earlier status a second or more back (else the oldest), not the previous one alone, which
 * after a quiet second (the recording stopped, a pause in the source) saw no new events. */
static void
events_rate (const IochartLiveStatus *prev, IochartLiveStatus *st)
{
  guint n = prev != NULL ? prev->n_seen : 0, skip = n == IOCHART_LIVE_N_SEEN ? 1 : 0;
  int base = -1;

  for (guint i = 0; i < n; i++)
    if (prev->seen_end_ns[i] < st->end_ns && prev->seen_events[i] <= st->events
        && (base < 0 || prev->seen_end_ns[i] <= st->end_ns - NS_PER_S))
      base = i;
  if (base >= 0)
    st->events_per_s = (double) (st->events - prev->seen_events[base]) * NS_PER_S
                       / (st->end_ns - prev->seen_end_ns[base]);
  for (guint i = skip; i < n; i++)
    {
      st->seen_end_ns[st->n_seen] = prev->seen_end_ns[i];
      st->seen_events[st->n_seen++] = prev->seen_events[i];
    }
  st->seen_end_ns[st->n_seen] = st->end_ns;
  st->seen_events[st->n_seen++] = st->events;
}

/* The idle lane whose processes stole the most on the primary device. */
static void
top_idle (IochartCapture *capture, const IochartStealDevice *dev, IochartLiveStatus *st)
{
  IochartLanesOptions lo = IOCHART_LANES_OPTIONS_INIT;
  g_autoptr(IochartLanes) lanes = NULL;
  g_autofree gint64 *stolen = NULL;
  int best = -1;

  lo.device = dev->device;
  lanes = iochart_lanes_new (capture, &lo);
  stolen = g_new0 (gint64, iochart_lanes_get_n_lanes (lanes) + 1);
  for (guint i = 0; i < dev->idle->len; i++)
    {
      const IochartStealShare *s = &g_array_index (dev->idle, IochartStealShare, i);
      int lane = iochart_lanes_lane_of_process (lanes, s->process);
      if (lane >= 0)
        stolen[lane] += s->stolen_ns;
    }
  for (guint i = 0; i < iochart_lanes_get_n_lanes (lanes); i++)
    if (stolen[i] > 0 && (best < 0 || stolen[i] > stolen[best]))
      best = i;
  if (best < 0)
    return;
  g_strlcpy (st->top_idle, iochart_lanes_get_lane (lanes, best)->label, sizeof st->top_idle);
  st->top_idle_stolen_ns = stolen[best];
  st->top_idle_bytes = iochart_lanes_get_lane (lanes, best)->bytes;
}

void
iochart_live_status_compute (IochartCapture *capture, const IochartLiveStatus *prev, IochartLiveStatus *st)
{
  gint64 start = iochart_capture_get_start_ns (capture);
  g_autoptr(IochartSteal) steal = NULL;
  const IochartStealDevice *dev;

  memset (st, 0, sizeof *st);
  st->events = iochart_capture_get_n_events (capture);
  st->lost = iochart_capture_get_n_lost_events (capture);
  if (start == IOCHART_TIME_UNKNOWN)
    return;
  st->end_ns = iochart_capture_get_end_ns (capture);
  events_rate (prev, st);
  rates (capture, st);
  steal = iochart_steal_new (capture, NULL);
  dev = iochart_steal_get_primary (steal);
  if (dev == NULL || iochart_steal_device_is_unknown (dev) || dev->foreground_active_ns == 0)
    return;
  st->stolen_known = TRUE;
  st->stolen_pct = 100.0 * dev->stolen_ns / dev->foreground_active_ns;
  top_idle (capture, dev, st);
}

GPtrArray *
iochart_live_status_parts (const IochartLiveStatus *st)
{
  /* the legend's order */
  static const IochartClass shown[] = { IOCHART_CLASS_RT, IOCHART_CLASS_BE, IOCHART_CLASS_NONE,
                                        IOCHART_CLASS_IDLE, IOCHART_CLASS_UNKNOWN };
  GPtrArray *parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *events = iochart_format_count ((guint64) st->events_per_s);
  gboolean any = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (shown); i++)
    {
      IochartClass k = shown[i];
      g_autofree char *rate = iochart_format_bytes ((guint64) st->bytes_per_s[k]);
      g_autofree char *iops = iochart_format_count ((guint64) st->requests_per_s[k]);

      if (st->requests_per_s[k] == 0)
        continue;
      g_ptr_array_add (parts, g_strdup_printf ("%s %s/s (%s/s)", iochart_class_name (k), rate, iops));
      any = TRUE;
    }
  if (!any)
    g_ptr_array_add (parts, g_strdup ("no I/O issued"));
  g_ptr_array_add (parts, st->stolen_known ? g_strdup_printf ("stolen %.1f%%", st->stolen_pct) : g_strdup ("stolen -"));
  if (st->top_idle[0] != '\0')
    {
      g_autofree char *b = iochart_format_bytes (st->top_idle_bytes);
      g_ptr_array_add (parts, g_strdup_printf ("top idle %s %s", st->top_idle, b));
    }
  g_ptr_array_add (parts, g_strdup_printf ("%s events/s", events));
  g_ptr_array_add (parts, g_strdup_printf ("lost %" G_GUINT64_FORMAT, st->lost));
  return parts;
}

char *
iochart_live_status_format (const IochartLiveStatus *st)
{
  g_autoptr(GPtrArray) parts = iochart_live_status_parts (st);

  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}
