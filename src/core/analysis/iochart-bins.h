/* iochart-bins.h: a device's requests aggregated per pixel column
 *
 * Bins are the columns of the chart, not fixed one-second bins: nothing hides in aggregation,
 * and the last column covers exactly the time left, so there is no fake drop at the end. Work
 * (bytes, in-flight time, queue wait) is spread over the columns a request spans in proportion
 * to its time in each, so output size and drawing cost depend on pixels, not on events.
 */
#pragma once

#include "iochart-capture.h"
#include "iochart-lanes.h"
#include "iochart-latency.h"
#include "iochart-bin-index.h"

G_BEGIN_DECLS

/* Latency histogram: 4 buckets per octave from 1 µs to ~137 s. */
#define IOCHART_LAT_MIN_LOG2     10
#define IOCHART_LAT_MAX_LOG2     37
#define IOCHART_LAT_SUB          4
#define IOCHART_LAT_BUCKETS      ((IOCHART_LAT_MAX_LOG2 - IOCHART_LAT_MIN_LOG2) * IOCHART_LAT_SUB)

typedef enum {
  IOCHART_LAT_FOREGROUND,    /* every class but idle */
  IOCHART_LAT_IDLE,
  IOCHART_N_LAT_GROUPS
} IochartLatGroup;

struct _IochartBins {
  guint    n_columns;
  gint64   from_ns, to_ns;
  double   ns_per_column;
  double  *bytes[IOCHART_N_CLASSES][2];     /* [class][0 read, 1 write]: bytes served per column */
  double  *completions[IOCHART_N_CLASSES];  /* completions per column */
  double  *inflight_ns[IOCHART_N_CLASSES];  /* in-flight request·ns per column (÷ width = mean) */
  IochartLatencyKind latency_kind;         /* what latency[] holds, binned where that span ends */
  guint32 *latency[IOCHART_N_LAT_GROUPS];   /* n_columns × IOCHART_LAT_BUCKETS */
  /* sector map: n_columns × sector_rows cells, counts per class */
  guint    sector_rows;
  guint64  min_sector, max_sector;   /* the band the map shows */
  gboolean sector_trimmed;           /* the band leaves out the furthest 1% each side */
  /* cells count the requests of this sample level or more (iochart-bins-private.h), each as
   * 2^sector_level requests: 0 (all of them) unless the range issues over IOCHART_SECTOR_CELLS */
  guint    sector_level;
  guint32 *sectors[IOCHART_N_CLASSES];
  /* the classes (1 << class) whose sectors[] may have a count: the others' cells are zero, one
   * block they share (a frame zeroes and reads the classes its device has, not all five) */
  guint    sector_classes;
  guint32 *sector_cells;                    /* the one allocation sectors[] point into */
  /* lanes: per lane, per column */
  guint    n_lanes;
  double **lane_service_ns;                 /* time of its requests in flight (sum over requests) */
  double **lane_wait_ns;                    /* time of its requests queued before dispatch */
  guint8 **lane_classes;                    /* 1 << class of requests in the column */
};

/* device: a capture device index; lanes may be NULL. */
IochartBins *iochart_bins_new           (IochartCapture *capture,
                                         int             device,
                                         gint64          from_ns,
                                         gint64          to_ns,
                                         guint           n_columns,
                                         guint           sector_rows,
                                         IochartLanes   *lanes);
/* The same with the latency strip's figures of one kind (iochart_bins_new: Q2C). */
IochartBins *iochart_bins_new_full      (IochartCapture     *capture,
                                         int                 device,
                                         gint64              from_ns,
                                         gint64              to_ns,
                                         guint               n_columns,
                                         guint               sector_rows,
                                         IochartLanes       *lanes,
                                         IochartLatencyKind  latency_kind);
/* The same answered from a device's index: the strips from its prefix sums, the sector map and
 * the lanes from the requests it finds in the range (requests: iochart_bin_index_find_all's, when
 * the caller has them); the same figures as the walk over every request. */
IochartBins *iochart_bins_new_indexed   (const IochartBinIndex *index,
                                         GArray             *requests,
                                         gint64              from_ns,
                                         gint64              to_ns,
                                         guint               n_columns,
                                         guint               sector_rows,
                                         IochartLanes       *lanes,
                                         IochartLatencyKind  latency_kind);
/* The bins of one lane's requests alone, on like's columns and sector band (index may be NULL). */
IochartBins *iochart_bins_new_lane      (const IochartBins     *like,
                                         IochartCapture        *capture,
                                         int                    device,
                                         const IochartBinIndex *index,
                                         IochartLanes          *lanes,
                                         int                    lane);
void         iochart_bins_free          (IochartBins    *bins);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartBins, iochart_bins_free)

/* Width in ns of column i (the last may be narrower). */
double       iochart_bins_column_ns     (const IochartBins *bins,
                                         guint              i);
/* The q-quantile (0..1) of latency in column i, or -1 when it had no completion. */
double       iochart_bins_latency_quantile (const IochartBins *bins,
                                            IochartLatGroup    group,
                                            guint              i,
                                            double             q);
guint        iochart_bins_latency_bucket (gint64 latency_ns);

/* Adds weight × (ns of [a, b) in each column) to cols. */
void         iochart_columns_spread     (double         *cols,
                                         guint           n_columns,
                                         gint64          from_ns,
                                         double          ns_per_column,
                                         gint64          a,
                                         gint64          b,
                                         double          weight);

G_END_DECLS
