/* iochart-sim-device.c: how long a request takes: observed, fitted, an HDD or an SSD
 *
 * A model is fixed once made, so runs in parallel threads share it. A serial model (a disk arm)
 * serves what it holds one after another; the engine keeps when it is free again.
 */
#include <math.h>
#include <string.h>
#include "iochart-sim-private.h"
#include "iochart-error.h"

typedef enum { MODEL_OBSERVED, MODEL_HDD, MODEL_SSD, MODEL_FIT } Kind;

struct _IochartSimDevice {
  Kind           kind;
  guint          depth;
  gboolean       serial;
  char          *describe;
  const gint64  *observed_ns;     /* the workload's, which outlives the model */
  /* hdd and fit: positioning + transfer */
  double         overhead_ms;     /* every request */
  double         settle_ms;       /* hdd: every seek */
  double         stroke_ms;       /* hdd: * sqrt(distance / capacity) */
  double         rotation_ms;     /* hdd: half a turn on every seek */
  double         capacity;        /* sectors */
  double         ns_per_byte;
  /* ssd */
  double         latency_ms;
  IochartSimFit  fit;
};

static guint64
max_end_sector (const IochartSimGraph *g)
{
  guint64 end = 1;

  for (guint i = 0; i < g->n_rq; i++)
    end = MAX (end, g->rq[i].sector + g->rq[i].bytes / 512);
  return end;
}

static gboolean
hdd_init (IochartSimDevice *d, const IochartSimGraph *g, IochartSimSettings *s, GError **error)
{
  double rpm, rate, cap_gib, depth, overhead;
  gint64 settle, stroke;

  if (!_iochart_sim_settings_double (s, "rpm", 7200, 1000, 30000, &rpm, error) ||
      !_iochart_sim_settings_time (s, "seek", 1500000, &settle, error) ||
      !_iochart_sim_settings_time (s, "stroke", 7000000, &stroke, error) ||
      !_iochart_sim_settings_double (s, "overhead", 0.1, 0, 100, &overhead, error) ||
      !_iochart_sim_settings_double (s, "rate", 120, 1, 100000, &rate, error) ||
      !_iochart_sim_settings_double (s, "capacity", (double) max_end_sector (g) * 512 / (1 << 30),
                                     1e-6, 1e6, &cap_gib, error) ||
      !_iochart_sim_settings_double (s, "depth", 1, 1, 256, &depth, error))
    return FALSE;
  d->serial = TRUE;
  d->depth = (guint) depth;
  d->overhead_ms = overhead;
  d->settle_ms = settle / 1e6;
  d->stroke_ms = stroke / 1e6;
  d->rotation_ms = 30000.0 / rpm;
  d->ns_per_byte = 1e9 / (rate * 1024 * 1024);
  d->capacity = cap_gib * (1 << 30) / 512;
  return TRUE;
}

static gboolean
ssd_init (IochartSimDevice *d, IochartSimSettings *s, GError **error)
{
  double bw, channels;
  gint64 latency;

  if (!_iochart_sim_settings_time (s, "latency", 100000, &latency, error) ||
      !_iochart_sim_settings_double (s, "bandwidth", 500, 1, 1e6, &bw, error) ||
      !_iochart_sim_settings_double (s, "channels", 4, 1, 256, &channels, error))
    return FALSE;
  d->latency_ms = latency / 1e6;
  d->ns_per_byte = 1e9 / (bw * 1024 * 1024);
  d->depth = (guint) channels;
  d->serial = FALSE;
  return TRUE;
}

/* ---- fit: from the requests the device served alone ---- */

typedef struct {
  double service_ms;
  double bytes;
  double distance;      /* sectors from where the previous request ended */
} Sample;

static int
by_double (gconstpointer a, gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

typedef struct { gint64 issue, done; guint32 i; } Life;

static int
by_done (gconstpointer a, gconstpointer b)
{
  const Life *x = a, *y = b;

  if (x->done != y->done)
    return x->done < y->done ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* Service times, in completion order, the head where the request served before ended. Requests
 * served alone (nothing else in flight from issue to completion) are pure service; when too few
 * were, a device that serves one at a time (an HDD without NCQ, a FUSE disk behind a loop device)
 * still tells each request's service from the previous completion on. */
static GArray *
service_samples (const IochartSimGraph *g, gboolean *serial)
{
  g_autofree Life *life = g_new (Life, MAX (g->n_rq, 1));
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Sample));
  gint64 prev_done = G_MININT64;
  guint64 head = 0;
  guint n_alone = 0;

  for (guint i = 0; i < g->n_rq; i++)
    {
      IochartRequest r;

      iochart_capture_get_request (g->capture, g->source[i], &r);
      life[i] = (Life) { r.issue_ns, r.complete_ns, i };
    }
  qsort (life, g->n_rq, sizeof (Life), by_done);
  /* alone: issued after the previous completion, and the next issue after its own completion */
  for (guint k = 0; k < g->n_rq; k++)
    n_alone += life[k].issue >= prev_done && (k + 1 == g->n_rq || life[k + 1].issue >= life[k].done),
    prev_done = life[k].done;
  *serial = n_alone < 100;
  prev_done = G_MININT64;
  for (guint k = 0; k < g->n_rq; k++)
    {
      const IochartSimRq *q = &g->rq[life[k].i];
      gboolean alone = life[k].issue >= prev_done && (k + 1 == g->n_rq || life[k + 1].issue >= life[k].done);
      gint64 from = MAX (life[k].issue, prev_done);

      if ((alone || *serial) && life[k].done > from && q->bytes > 0)
        g_array_append_val (out, ((Sample) { (life[k].done - from) / 1e6, q->bytes,
                                             fabs ((double) q->sector - (double) head) }));
      prev_done = life[k].done;
      head = q->sector + q->bytes / 512;
    }
  return out;
}

/* Least squares y = p + q x over the samples where keep() holds; FALSE when under 3 points. */
typedef double (*Xof) (const Sample *s, double rate_ns_per_byte);

static gboolean
line_fit (const Sample *s, guint n, double lo, double hi, Xof x_of, double npb, gboolean positioning,
          double *p, double *q, double *sse)
{
  double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;

  for (guint i = 0; i < n; i++)
    {
      double x, y;

      if (s[i].distance < lo || s[i].distance >= hi)
        continue;
      x = x_of (&s[i], npb);
      y = positioning ? s[i].service_ms - s[i].bytes * npb / 1e6 : s[i].service_ms;
      sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
    }
  if (m < 3 || m * sxx - sx * sx <= 0)
    return FALSE;
  *q = (m * sxy - sx * sy) / (m * sxx - sx * sx);
  *p = (sy - *q * sx) / m;
  *sse = 0;
  for (guint i = 0; i < n; i++)
    if (s[i].distance >= lo && s[i].distance < hi)
      {
        double x = x_of (&s[i], npb);
        double y = positioning ? s[i].service_ms - s[i].bytes * npb / 1e6 : s[i].service_ms;
        *sse += (y - *p - *q * x) * (y - *p - *q * x);
      }
  return TRUE;
}

/* Without sequential runs: service = p + q sqrt(distance) + r bytes over every sample, by the
 * normal equations; r is the transfer time per byte. */
static gboolean
joint_rate (const Sample *s, guint n, double *ns_per_byte)
{
  double m[3][4] = { { 0 } };

  for (guint i = 0; i < n; i++)
    {
      double x[3] = { 1, sqrt (s[i].distance), s[i].bytes / 1e6 };

      for (guint a = 0; a < 3; a++)
        {
          for (guint b = 0; b < 3; b++)
            m[a][b] += x[a] * x[b];
          m[a][3] += x[a] * s[i].service_ms;
        }
    }
  for (guint c = 0; c < 3; c++)   /* Gauss-Jordan with partial pivoting */
    {
      guint piv = c;

      for (guint r = c + 1; r < 3; r++)
        if (fabs (m[r][c]) > fabs (m[piv][c]))
          piv = r;
      if (fabs (m[piv][c]) < 1e-12)
        return FALSE;
      for (guint k = 0; k < 4; k++)
        {
          double t = m[c][k];
          m[c][k] = m[piv][k];
          m[piv][k] = t;
        }
      for (guint r = 0; r < 3; r++)
        if (r != c)
          {
            double f = m[r][c] / m[c][c];
            for (guint k = c; k < 4; k++)
              m[r][k] -= f * m[c][k];
          }
    }
  /* ms per MB -> ns per byte */
  *ns_per_byte = m[2][3] / m[2][2];
  return *ns_per_byte > 0;
}

static double x_bytes (const Sample *s, double npb) { (void) npb; return s->bytes; }
static double x_sqrt (const Sample *s, double npb) { (void) npb; return sqrt (s->distance); }
static double x_lin (const Sample *s, double npb) { (void) npb; return s->distance; }

static double
fit_service_ms (const IochartSimDevice *d, double bytes, double distance)
{
  const IochartSimFit *f = &d->fit;
  double ms = d->overhead_ms + bytes * d->ns_per_byte / 1e6;

  if (distance > 0)
    ms += distance < f->split_sectors ? f->a_ms + f->b_ms * sqrt (distance) : f->c_ms + f->e_ms * distance;
  return MAX (ms, 0.001);
}

static void
bands_init (IochartSimFitBand *bands, guint n, const guint64 *edges)
{
  for (guint i = 0; i < n; i++)
    bands[i] = (IochartSimFitBand) { edges[i], i + 1 < n ? edges[i + 1] : G_MAXUINT64, 0, 0, 0 };
}

static void
band_add (IochartSimFitBand *bands, guint n, double value, double observed_ms, double fitted_ms)
{
  guint i = n - 1;

  while (i > 0 && value < (double) bands[i].lo)
    i--;
  bands[i].n++;
  bands[i].observed_ms += observed_ms;
  bands[i].fitted_ms += fitted_ms;
}

static void
bands_finish (IochartSimFitBand *bands, guint n)
{
  for (guint i = 0; i < n; i++)
    if (bands[i].n > 0)
      bands[i].observed_ms /= bands[i].n, bands[i].fitted_ms /= bands[i].n;
}

/* Where the error lies: observed and fitted mean service per band of seek distance and of size. */
static void
residuals (IochartSimFit *f, const Sample *s, const double *fitted_ms, guint n)
{
  static const guint64 distance[IOCHART_SIM_FIT_DISTANCE_BANDS] = {
    0, 1, 1 << 11, 1 << 15, 1 << 19, G_GUINT64_CONSTANT (1) << 23 };   /* sectors: 1 MiB = 2^11 */
  static const guint64 size[IOCHART_SIM_FIT_SIZE_BANDS] = { 0, 8 << 10, 32 << 10, 128 << 10, 512 << 10 };

  bands_init (f->by_distance, IOCHART_SIM_FIT_DISTANCE_BANDS, distance);
  bands_init (f->by_size, IOCHART_SIM_FIT_SIZE_BANDS, size);
  for (guint i = 0; i < n; i++)
    {
      band_add (f->by_distance, IOCHART_SIM_FIT_DISTANCE_BANDS, s[i].distance, s[i].service_ms, fitted_ms[i]);
      band_add (f->by_size, IOCHART_SIM_FIT_SIZE_BANDS, s[i].bytes, s[i].service_ms, fitted_ms[i]);
    }
  bands_finish (f->by_distance, IOCHART_SIM_FIT_DISTANCE_BANDS);
  bands_finish (f->by_size, IOCHART_SIM_FIT_SIZE_BANDS);
}

/* DiskSim's demerit: RMS of the horizontal distance between the two CDFs, quantile by quantile. */
static void
demerit (IochartSimDevice *d, const Sample *s, guint n)
{
  g_autofree double *obs = g_new (double, n);
  g_autofree double *sim = g_new (double, n);
  double sum = 0, sq = 0;

  for (guint i = 0; i < n; i++)
    {
      obs[i] = s[i].service_ms;
      sim[i] = fit_service_ms (d, s[i].bytes, s[i].distance);
      sum += obs[i];
    }
  residuals (&d->fit, s, sim, n);
  qsort (obs, n, sizeof (double), by_double);
  qsort (sim, n, sizeof (double), by_double);
  for (guint i = 0; i < n; i++)
    sq += (obs[i] - sim[i]) * (obs[i] - sim[i]);
  d->fit.mean_ms = sum / n;
  d->fit.demerit_ms = sqrt (sq / n);
  d->fit.demerit_pct = 100 * d->fit.demerit_ms / d->fit.mean_ms;
}

static void
fit_seeks (IochartSimDevice *d, const Sample *s, guint n)
{
  IochartSimFit *f = &d->fit;
  g_autofree double *dist = g_new (double, n);
  guint m = 0;
  double best = G_MAXDOUBLE, npb = d->ns_per_byte;

  for (guint i = 0; i < n; i++)
    if (s[i].distance > 0)
      dist[m++] = s[i].distance;
  qsort (dist, m, sizeof (double), by_double);
  /* one curve for every distance, then each decile as the split between short and long */
  f->split_sectors = G_MAXUINT64;
  if (!line_fit (s, n, 1, G_MAXDOUBLE, x_sqrt, npb, TRUE, &f->a_ms, &f->b_ms, &best))
    f->a_ms = f->b_ms = 0, best = G_MAXDOUBLE;
  for (guint k = 1; k < 10 && m > 0; k++)
    {
      double split = dist[m * k / 10], a, b, c, e, s1, s2;

      /* a seek never gets cheaper with distance: a negative slope is noise, not a disk */
      if (line_fit (s, n, 1, split, x_sqrt, npb, TRUE, &a, &b, &s1) && b >= 0 &&
          line_fit (s, n, split, G_MAXDOUBLE, x_lin, npb, TRUE, &c, &e, &s2) && e >= 0 && s1 + s2 < best)
        {
          best = s1 + s2;
          f->a_ms = a, f->b_ms = b, f->c_ms = c, f->e_ms = e;
          f->split_sectors = (guint64) split;
        }
    }
}

static gboolean
fit_init (IochartSimDevice *d, const IochartSimGraph *g, IochartSimSettings *s, GError **error)
{
  gboolean serial;
  g_autoptr(GArray) samples = service_samples (g, &serial);
  const Sample *v = (const Sample *) samples->data;
  double t0 = 0, slope = 0, sse, depth;

  if (!_iochart_sim_settings_double (s, "depth", 1, 1, 256, &depth, error))
    return FALSE;
  if (samples->len < 10)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': only %u requests tell a service time, too few to fit a device model: give "
                   "--device-model hdd, ssd or observed", iochart_capture_get_name (g->capture), samples->len);
      return FALSE;
    }
  d->serial = TRUE;
  d->depth = (guint) depth;
  d->fit.n_alone = samples->len;
  d->fit.one_at_a_time = serial;
  /* the media rate from sequential runs (no seek): service = t0 + bytes / rate */
  if (line_fit (v, samples->len, 0, 0.5, x_bytes, 0, FALSE, &t0, &slope, &sse) && slope > 0)
    {
      d->overhead_ms = MAX (t0, 0);
      d->ns_per_byte = slope * 1e6;
    }
  else if (!joint_rate (v, samples->len, &d->ns_per_byte))
    d->ns_per_byte = 10;    /* 100 MB/s when nothing tells */
  d->fit.rate_bytes_per_s = 1e9 / d->ns_per_byte;
  fit_seeks (d, v, samples->len);
  demerit (d, v, samples->len);
  return TRUE;
}

/* ---- the public face ---- */

IochartSimDevice *
iochart_sim_device_new (IochartSimWorkload *wl, const char *spec, GError **error)
{
  const IochartSimGraph *g = _iochart_sim_workload_get_graph (wl);
  g_autoptr(IochartSimDevice) d = g_new0 (IochartSimDevice, 1);
  const char *colon;
  g_autofree char *name = NULL, *used = NULL;
  g_autoptr(IochartSimSettings) s = NULL;
  gboolean ok;
  double depth;

  spec = spec ? spec : "fit";
  colon = strchr (spec, ':');
  name = colon ? g_strndup (spec, colon - spec) : g_strdup (spec);
  if ((s = _iochart_sim_settings_parse (colon ? colon + 1 : NULL, error)) == NULL)
    return NULL;
  d->observed_ns = g->observed_service_ns;
  if (strcmp (name, "observed") == 0)
    {
      d->kind = MODEL_OBSERVED;
      d->serial = TRUE;
      ok = _iochart_sim_settings_double (s, "depth", 1, 1, 256, &depth, error);
      d->depth = (guint) depth;
    }
  else if (strcmp (name, "hdd") == 0)
    d->kind = MODEL_HDD, ok = hdd_init (d, g, s, error);
  else if (strcmp (name, "ssd") == 0)
    d->kind = MODEL_SSD, ok = ssd_init (d, s, error);
  else if (strcmp (name, "fit") == 0)
    d->kind = MODEL_FIT, ok = fit_init (d, g, s, error);
  else
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': unknown device model (fit, observed, hdd, ssd)", name);
      return NULL;
    }
  if (!ok || !_iochart_sim_settings_check (s, name, error))
    return NULL;
  used = _iochart_sim_settings_to_string (s);
  d->describe = g_strdup_printf ("%s%s%s", name, *used ? ":" : "", used);
  return g_steal_pointer (&d);
}

void
iochart_sim_device_free (IochartSimDevice *dev)
{
  if (dev == NULL)
    return;
  g_free (dev->describe);
  g_free (dev);
}

const char *
iochart_sim_device_describe (IochartSimDevice *dev)
{
  return dev->describe;
}

const IochartSimFit *
iochart_sim_device_get_fit (IochartSimDevice *dev)
{
  return dev->kind == MODEL_FIT ? &dev->fit : NULL;
}

guint
_iochart_sim_device_get_depth (IochartSimDevice *dev)
{
  return dev->depth;
}

gboolean
_iochart_sim_device_is_serial (IochartSimDevice *dev)
{
  return dev->serial;
}

gint64
_iochart_sim_device_service_ns (IochartSimDevice *dev, const IochartSimRq *rq, guint32 index,
                                guint64 head_sector)
{
  double distance = fabs ((double) rq->sector - (double) head_sector), ms;

  switch (dev->kind)
    {
    case MODEL_OBSERVED:
      return dev->observed_ns[index];
    case MODEL_SSD:
      ms = dev->latency_ms + rq->bytes * dev->ns_per_byte / 1e6;
      break;
    case MODEL_HDD:
      ms = dev->overhead_ms + rq->bytes * dev->ns_per_byte / 1e6;
      if (distance > 0)
        ms += dev->settle_ms + dev->stroke_ms * sqrt (distance / dev->capacity) + dev->rotation_ms;
      break;
    default:
      ms = fit_service_ms (dev, rq->bytes, distance);
      break;
    }
  return (gint64) (ms * 1e6 + 0.5);
}
