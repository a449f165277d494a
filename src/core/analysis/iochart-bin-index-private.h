/* iochart-bin-index-private.h: the bin index's hooks for tests */
#pragma once

#include "iochart-bin-index.h"

G_BEGIN_DECLS

/* Tests: when kept is not NULL, the lanes' device counts (iochart_bin_index_fill_with_lanes) are
 * also searched at every column edge and asserted equal to the ones taken from what the frame's
 * spread and completions found there, and how many were taken is added to *kept. */
void _iochart_bin_index_set_check_edges (guint *kept);

G_END_DECLS
