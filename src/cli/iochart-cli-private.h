/* iochart-cli-private.h: what the subcommands of the `iochart` executable share */
#pragma once

#include "iochart-loader.h"
#include "iochart-summary.h"
#include "analysis/iochart-steal.h"
#include "bootchart/iochart-bootchart.h"
#include "bootchart/iochart-bootchart-range.h"

G_BEGIN_DECLS

/* Exit codes of every subcommand. */
enum {
  IOCHART_EXIT_OK = 0,
  IOCHART_EXIT_FAILURE = 1,     /* a check or gate failed */
  IOCHART_EXIT_BAD_INPUT = 2,   /* bad capture, bad option, missing file */
};

/* Options every command that reads captures takes: --class RULE (repeatable). */
typedef struct {
  char **class_rules;           /* from GOptionEntry G_OPTION_ARG_STRING_ARRAY */
} IochartCliLoadOptions;

/* Parses --class rules ("COMM_OR_PID=CLASS[:LEVEL]"), into an array of IochartClassRule that
 * clears them; NULL with an error naming the bad one. */
GArray         *iochart_cli_parse_class_rules (char * const           *texts,
                                               GError                **error);

/* Loads captures as one, with a progress bar on a TTY (stderr) and reader warnings printed. */
IochartCapture *iochart_cli_load_captures (const char * const         *paths,
                                           const IochartCliLoadOptions *options,
                                           GError                    **error);

/* Loads what the captures hold: the block I/O (the traces, else a bootchart bundle's own events)
 * into *capture, and the one bootchart capture among them, if any, into *bootchart. Either may be
 * NULL on success; FALSE when both are. Warnings go to stderr. */
gboolean        iochart_cli_load_run      (const char * const         *paths,
                                           const IochartCliLoadOptions *options,
                                           IochartCapture            **capture,
                                           IochartBootchart          **bootchart,
                                           GError                    **error);

/* Prints "iochart: MESSAGE" on stderr and returns the exit code for that error. */
int             iochart_cli_report_error  (const GError              *error);

/* Parses "MAJ,MIN" into a dev_t as the model keeps it. */
gboolean        iochart_cli_parse_dev     (const char                *text,
                                           guint32                   *dev,
                                           GError                   **error);

/* The JSON document of `info --json` and of the chart's --json: the summary's members, then
 * `idle_steal`, `bootchart` and `bootchart_range` (its top processes, 0: all) for those given
 * (each may be NULL). */
char           *iochart_cli_json_document (const IochartSummary        *summary,
                                           IochartSteal                *steal,
                                           IochartBootchart            *bootchart,
                                           const IochartBootchartRange *range,
                                           guint                        top);

/* "12", "1.5s", "500ms", "250us", "40ns", "2m": a time from the capture's start; option names it in errors. */
gboolean        iochart_cli_parse_duration (const char               *text,
                                            const char               *option,
                                            gint64                   *ns,
                                            GError                  **error);

/* --from (text, from_rel_ns from the capture's start; IOCHART_TIME_UNKNOWN: not given) must start
 * before the capture's end: else an error naming the span. */
gboolean        iochart_cli_check_from    (IochartCapture            *capture,
                                           const char                *text,
                                           gint64                     from_rel_ns,
                                           GError                   **error);

/* `iochart [CAPTURE...]` with no output: execs the desktop app when a display is there, else says
 * how to render headless; returns the exit code when it cannot. */
int             iochart_cli_open_app      (const char * const        *captures);
/* Execs the desktop app with args; without a display or the app, says so and what to run
 * instead (no_display, no_app) and returns the exit code. */
int             iochart_cli_exec_app      (const char * const        *args,
                                           const char                *no_display,
                                           const char                *no_app);

/* Subcommands: each parses its own options from argv (argv[0] is the subcommand name). */
/* Leaves object (a GObject or any allocation) to the process's exit: a model freed piece by
 * piece just before exit costs time and returns nothing. Held here, it stays reachable (no leak
 * to LSan). */
void            iochart_cli_keep_until_exit (gpointer                 object);

int iochart_live_command   (int argc, char **argv);
int iochart_info_command   (int argc, char **argv);
int iochart_render_command (int argc, char **argv);   /* iochart [--svg F] [--png F] ... CAPTURE... */
int iochart_record_command (int argc, char **argv);
int iochart_simulate_command (int argc, char **argv);
int iochart_check_command  (int argc, char **argv);
int iochart_export_command (int argc, char **argv);
int iochart_diff_command   (int argc, char **argv);
int iochart_report_command (int argc, char **argv);
int iochart_synth_command  (int argc, char **argv);

G_END_DECLS
