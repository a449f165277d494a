/* iochart-steal-private.h: the steal analysis's internals for tests and the bin index */
#pragma once

#include "iochart-steal.h"

G_BEGIN_DECLS

/* Tests: how many of its device's events a range must hold before its steal comes from the bin
 * index's running sums rather than a sweep over them (0: always); gives the old value. */
guint   _iochart_steal_set_fast_min (guint n_events);
/* Tests: whether a column edge's integral goes on from the last edge's walk within their check
 * (TRUE, the default) or walks from the check again; returns the old setting. */
gboolean _iochart_steal_set_edge_resume (gboolean resume);
/* Events the figures read one by one: the sweeps', and from the running sums the few between a
 * cut episode's edge and its stolen time. */
guint64 _iochart_steal_get_n_read   (IochartSteal *steal);

/* iochart_steal_events_new from a pass over the device's requests that someone else makes (the
 * bin index's, which unpacks them anyway): begin (NULL: no events can be kept, as
 * iochart_steal_events_new's NULL), add every request of the device in the capture's order,
 * end. */
typedef struct _IochartStealCollect IochartStealCollect;

IochartStealCollect *_iochart_steal_collect_begin (IochartCapture       *capture,
                                                   int                   device);
void                 _iochart_steal_collect_add   (IochartStealCollect  *collect,
                                                   const IochartRequest *rq);
IochartStealEvents  *_iochart_steal_collect_end   (IochartStealCollect  *collect);

G_END_DECLS
