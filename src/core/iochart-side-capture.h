/* iochart-side-capture.h: give a capture's requests the classes that another capture of the
 * same run knows (blktrace has no ioprio; a .dat recorded at the same time has) */
#pragma once

#include "iochart-capture.h"

G_BEGIN_DECLS

/* Matches requests of primary to those of side by device, sector, size and time, and copies
 * class and level (class_source side-capture) to primary's requests whose class is unknown or
 * came from a weaker source. Returns how many requests were given a class. */
guint iochart_side_capture_apply (IochartCapture *primary,
                                  IochartCapture *side);

G_END_DECLS
