/* PLACEHOLDER until the recorder lands: replaced by its owner. */
#include "iochart-cli-private.h"
#include <stdio.h>
int iochart_record_command (int argc, char **argv) { fprintf (stderr, "iochart: record is not built yet\n"); return IOCHART_EXIT_BAD_INPUT; }
