/* iochart-format.c: numbers as people read them */
#include <math.h>
#include <string.h>
#include "iochart-format.h"

char *
iochart_format_bytes (double bytes)
{
  static const char * const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
  guint u = 0;

  while (bytes >= 1024 && u + 1 < G_N_ELEMENTS (units))
    {
      bytes /= 1024;
      u++;
    }
  if (u == 0)
    return g_strdup_printf ("%.0f B", bytes);
  return g_strdup_printf (bytes < 10 ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

char *
iochart_format_duration (double ns)
{
  double a = fabs (ns);

  if (a == 0)
    return g_strdup ("0 s");
  if (a < 1e3)
    return g_strdup_printf ("%.0f ns", ns);
  if (a < 1e6)
    return g_strdup_printf (a < 1e4 ? "%.1f µs" : "%.0f µs", ns / 1e3);
  if (a < 1e9)
    return g_strdup_printf (a < 1e7 ? "%.1f ms" : "%.0f ms", ns / 1e6);
  return g_strdup_printf (a < 1e11 ? "%.1f s" : "%.0f s", ns / 1e9);
}

char *
iochart_format_count (guint64 n)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, n);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append_c (out, ',');
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

double
iochart_nice_ceil (double v)
{
  double e, f;

  if (v <= 0)
    return 1;
  e = pow (10, floor (log10 (v)));
  f = v / e;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

double
iochart_nice_ceil_bytes (double v)
{
  double unit = 1;

  while (v >= 1024 * unit && unit < 1099511627776.0)
    unit *= 1024;
  return iochart_nice_ceil (v / unit) * unit;
}

char *
iochart_format_plural (guint64 n, const char *one, const char *many)
{
  g_autofree char *count = iochart_format_count (n);

  return g_strdup_printf ("%s %s", count, n == 1 ? one : many);
}
