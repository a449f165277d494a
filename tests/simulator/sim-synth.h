/* sim-synth.h: the core's synthetic `find -exec cat` readers (src/core/synth/) under the names
 * the simulator's tests use. */
#pragma once

#include <math.h>
#include <string.h>
#include "iochart-capture-private.h"
#include "synth/iochart-synth.h"

#define SYNTH_MS G_GINT64_CONSTANT (1000000)

typedef IochartSynthReader SynthReader;

static inline IochartCapture *
synth_capture (const SynthReader *readers, guint n_readers)
{
  return iochart_synth_capture (readers, n_readers);
}
