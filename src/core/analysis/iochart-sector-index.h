/* iochart-sector-index.h: a device's data requests indexed once for the sector map
 *
 * Built in the bin index's passes over a device's requests (iochart_bin_index_new), so that a
 * range's sector map (its band, its sample, its cells) is found without decoding a capture
 * request: the requests are kept by sample level (iochart-bins-private.h), then issue time, with
 * their sectors, so a range's band sample, and the sample its cells count when it issues over
 * IOCHART_SECTOR_CELLS requests, are a search in each level's run: a frame of a 10M-request range
 * costs about that many requests, not 10M. The map equals the walk's (iochart-bins.c), cell for
 * cell.
 */
#pragma once

#include "iochart-capture.h"
#include "iochart-bins.h"

G_BEGIN_DECLS

typedef struct _IochartSectorIndex IochartSectorIndex;

IochartSectorIndex *iochart_sector_index_new      (void);
void                iochart_sector_index_free     (IochartSectorIndex       *index);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartSectorIndex, iochart_sector_index_free)

/* Building, in two passes over the device's requests in capture order: each one seen, then
 * each one added (rec: its capture index; life: it has a life the map counts), then finished. */
void                iochart_sector_index_see      (IochartSectorIndex       *index,
                                                   const IochartRequest     *rq);
void                iochart_sector_index_add      (IochartSectorIndex       *index,
                                                   const IochartRequest     *rq,
                                                   guint32                   rec,
                                                   gboolean                  life);
void                iochart_sector_index_finish   (IochartSectorIndex       *index);

/* The classes (1 << class) of the data requests kept (every class when it could not keep them). */
guint               iochart_sector_index_get_classes (const IochartSectorIndex *index);

/* Bytes the index holds. */
gsize               iochart_sector_index_get_size (const IochartSectorIndex *index);

/* Sets the sector map's band of bins (allocated, with its range, columns and rows set) and
 * zeroes and counts its cells (the classes' own: a block of columns at a time, zeroed as they
 * are counted); FALSE when the index could not keep the requests (a sector past 2^40, a request
 * of 8 GiB, issues over 78 hours apart) or the map has over 32768 rows: the caller zeroes the
 * cells and walks. */
gboolean            iochart_sector_index_fill     (const IochartSectorIndex *index,
                                                   IochartCapture           *capture,
                                                   IochartBins              *bins);

G_END_DECLS
