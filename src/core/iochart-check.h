/* iochart-check.h: thresholds a capture must hold, for CI gates (`iochart check`)
 *
 * Every figure comes from the analyses (summary, idle steal, boot chart); a check only compares
 * it with its limit and says by how much it is over.
 */
#pragma once

#include <json-glib/json-glib.h>
#include "iochart-summary.h"
#include "analysis/iochart-steal.h"
#include "bootchart/iochart-bootchart.h"

G_BEGIN_DECLS

/* A limit below zero is not checked. */
typedef struct {
  double  max_stolen_pct;   /* idle steal share of foreground-active time, on the steal's primary device */
  double  max_stolen_ms;    /* idle steal, ms */
  double  max_p99_ms;       /* queue-to-complete p99 of every class in p99_classes */
  guint   p99_classes;      /* 1 << IochartClass; 0: every class with requests but idle */
  double  max_boot_s;       /* "boot done" since boot, s */
  gint64  boot_done_window_ns;  /* <0: the boot chart's default */
} IochartCheckLimits;

#define IOCHART_CHECK_LIMITS_INIT { .max_stolen_pct = -1, .max_stolen_ms = -1, .max_p99_ms = -1, \
                                    .p99_classes = 0, .max_boot_s = -1, .boot_done_window_ns = -1 }

typedef struct {
  char       *name;      /* "stolen-pct", "stolen-ms", "p99-ms", "boot-s": the option without max- */
  char       *subject;   /* what was measured: "7,0", "7,0, class be", "boot" */
  double      value;     /* in unit; NAN when the capture has no such figure */
  double      limit;
  const char *unit;      /* "%", "ms", "s" */
  gboolean    passed;
  char       *note;      /* why there is no figure, or NULL */
} IochartCheckResult;

/* What limits need that the captures lack, as an error naming the option; TRUE when none. */
gboolean   iochart_check_limits_validate (const IochartCheckLimits *limits,
                                          gboolean                  has_io,
                                          gboolean                  has_bootchart,
                                          GError                  **error);

/* One result per limit set (per class for p99), in option order. Each of summary, steal and
 * bootchart may be NULL when the limits do not need it. */
GPtrArray *iochart_check_run             (const IochartCheckLimits *limits,
                                          const IochartSummary     *summary,
                                          IochartSteal             *steal,
                                          IochartBootchart         *bootchart);

/* TRUE when every result passed. */
gboolean   iochart_check_all_passed      (GPtrArray                *results);

/* "FAIL stolen-pct on 7,0: 19.4 % > 5 % (over by 14.4 %)": one line, no newline. */
char      *iochart_check_result_line     (const IochartCheckResult *result);

/* [{name, subject, value, limit, unit, passed, over_by}] as the builder's next value. */
void       iochart_check_to_json         (GPtrArray                *results,
                                          JsonBuilder              *builder);

/* A JUnit XML document: one testsuite named suite, one testcase per result. */
char      *iochart_check_to_junit        (GPtrArray                *results,
                                          const char               *suite);

G_END_DECLS
