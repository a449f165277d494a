/* PLACEHOLDER until the headless renderer lands: replaced by its owner. */
#include "iochart-cli-private.h"
#include <stdio.h>
int iochart_render_command (int argc, char **argv) { fprintf (stderr, "iochart: rendering is not built yet\n"); return IOCHART_EXIT_BAD_INPUT; }
