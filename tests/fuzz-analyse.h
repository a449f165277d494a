/* fuzz-analyse.h: what `info --json` and the I/O chart compute, run on each capture a fuzz input
 * makes, so that the readers' fuzzers reach the analyses and the renderer too: arithmetic on
 * degenerate captures (no request, no completion, times at the range's ends) is found there,
 * as clang's UBSan stops the run on it. */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-capture.h"
#include "iochart-summary.h"
#include "iochart-steal.h"
#include "iochart-view.h"
#include "iochart-chart.h"

/* As tests/lsan.supp: what the libraries keep for the life of the process by design (fontconfig
 * for the chart's text), and what libtracecmd leaves after a fault it was stopped in. */
const char *__lsan_default_suppressions (void);

const char *
__lsan_default_suppressions (void)
{
  return "leak:libtraceevent.so\nleak:libtracecmd.so\nleak:tracecmd_parse_trace_clock\nleak:isoc99_vsscanf\n"
         "leak:libfontconfig.so\n";
}

/* draw: also the I/O chart, whose per-pixel-column work (the same for any input) costs about 50 ms
 * an input here: the callers draw one input in 16, chosen by its size so that a finding repeats. */
static inline G_GNUC_UNUSED void
fuzz_analyse (IochartCapture *capture, gboolean draw)
{
  IochartSummaryOptions so = IOCHART_SUMMARY_OPTIONS_INIT;
  IochartViewOptions vo = IOCHART_VIEW_OPTIONS_INIT;
  IochartChartStyle style = IOCHART_CHART_STYLE_INIT;
  g_autoptr(IochartSummary) summary = NULL;
  g_autoptr(IochartSteal) steal = NULL;
  g_autoptr(IochartView) view = NULL;
  g_autoptr(IochartDisplayList) dl = NULL;
  g_autoptr(JsonBuilder) b = json_builder_new ();

  so.top = 0;
  summary = iochart_summary_new_full (capture, &so);
  steal = iochart_steal_new (capture, NULL);
  json_builder_begin_object (b);
  iochart_summary_to_json (summary, b);
  json_builder_set_member_name (b, "idle_steal");
  iochart_steal_to_json (steal, b);
  json_builder_end_object (b);
  if (!draw)
    return;
  vo.width = IOCHART_VIEW_MIN_WIDTH;
  view = iochart_view_new (capture, &vo);
  dl = iochart_chart_draw (view, &style);
}

/* The builder's capture of an input of size bytes, analysed, then let go. */
static inline G_GNUC_UNUSED void
fuzz_finish (IochartCapture *capture, gsize size)
{
  fuzz_analyse (capture, size % 16 == 0);
  g_object_unref (capture);
}
