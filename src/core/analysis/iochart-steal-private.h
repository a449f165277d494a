/* iochart-steal-private.h: the steal analysis's internals for tests */
#pragma once

#include "iochart-steal.h"

G_BEGIN_DECLS

/* Tests: how many of its device's events a range must hold before its steal comes from the bin
 * index's running sums rather than a sweep over them (0: always); gives the old value. */
guint   _iochart_steal_set_fast_min (guint n_events);
/* Events the figures read one by one: the sweeps', and from the running sums the few between a
 * cut episode's edge and its stolen time. */
guint64 _iochart_steal_get_n_read   (IochartSteal *steal);

G_END_DECLS
