/* iochart-live-capture-private.h: feeding a live capture's builder directly (tests' fake
 * sources, and the page decoder) */
#pragma once

#include "iochart-live-capture.h"
#include "iochart-capture-private.h"

G_BEGIN_DECLS

/* The builder, locked against updates until unlock: feed it events in time order. */
IochartBuilder *_iochart_live_capture_lock   (IochartLiveCapture *self);
void            _iochart_live_capture_unlock (IochartLiveCapture *self);
/* Requests still waiting or in flight this long after they were first seen stop being matched
 * (a bio-based device's bios never complete); 0: never. Default 30 s. */
void            _iochart_live_capture_set_expire_ns (IochartLiveCapture *self,
                                                     gint64              expire_ns);

G_END_DECLS
