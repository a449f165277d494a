/* iochart-sim-settings.c: KEY=VALUE lists of policies and device models */
#include <errno.h>
#include <string.h>
#include "iochart-sim-private.h"
#include "iochart-error.h"

typedef struct {
  char    *key;
  char    *value;
  char    *used;      /* canonical text once read */
} Setting;

struct _IochartSimSettings {
  GArray *items;      /* Setting, in the given order */
  GArray *order;      /* char* keys as read, for to_string */
};

static void
setting_clear (gpointer data)
{
  Setting *s = data;

  g_free (s->key);
  g_free (s->value);
  g_free (s->used);
}

IochartSimSettings *
_iochart_sim_settings_parse (const char *text, GError **error)
{
  g_autoptr(IochartSimSettings) s = g_new0 (IochartSimSettings, 1);
  g_auto(GStrv) parts = NULL;

  s->items = g_array_new (FALSE, TRUE, sizeof (Setting));
  g_array_set_clear_func (s->items, setting_clear);
  s->order = g_array_new (FALSE, FALSE, sizeof (guint));
  if (text == NULL || *text == '\0')
    return g_steal_pointer (&s);
  parts = g_strsplit (text, ",", -1);
  for (guint i = 0; parts[i]; i++)
    {
      const char *eq = strchr (parts[i], '=');
      Setting it = { 0 };

      if (eq == NULL || eq == parts[i] || eq[1] == '\0')
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': bad setting: give KEY=VALUE", parts[i]);
          return NULL;
        }
      it.key = g_strndup (parts[i], eq - parts[i]);
      it.value = g_strdup (eq + 1);
      g_array_append_val (s->items, it);
    }
  return g_steal_pointer (&s);
}

void
_iochart_sim_settings_free (IochartSimSettings *s)
{
  if (s == NULL)
    return;
  g_array_unref (s->items);
  g_array_unref (s->order);
  g_free (s);
}

static Setting *
find (IochartSimSettings *s, const char *key)
{
  for (guint i = 0; i < s->items->len; i++)
    {
      Setting *it = &g_array_index (s->items, Setting, i);
      if (strcmp (it->key, key) == 0)
        return it;
    }
  return NULL;
}

/* Records what a key was read as, found or not, for to_string. */
static void
mark_used (IochartSimSettings *s, const char *key, char *text)
{
  Setting *it = find (s, key);

  if (it == NULL)
    {
      Setting fresh = { .key = g_strdup (key) };
      g_array_append_val (s->items, fresh);
      it = &g_array_index (s->items, Setting, s->items->len - 1);
    }
  g_free (it->used);
  it->used = text;
  g_array_append_val (s->order, (guint) { (guint) (it - (Setting *) s->items->data) });
}

static char *
format_time (gint64 ns)
{
  if (ns % 1000000 == 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT "ms", ns / 1000000);
  if (ns % 1000 == 0)
    return g_strdup_printf ("%" G_GINT64_FORMAT "us", ns / 1000);
  return g_strdup_printf ("%" G_GINT64_FORMAT "ns", ns);
}

gboolean
_iochart_sim_settings_time (IochartSimSettings *s, const char *key, gint64 default_ns, gint64 *ns,
                            GError **error)
{
  static const struct { const char *unit; double scale; } units[] = {
    { "", 1e6 }, { "ms", 1e6 }, { "s", 1e9 }, { "us", 1e3 }, { "ns", 1 },
  };
  Setting *it = find (s, key);
  char *end = NULL;
  double v;

  *ns = default_ns;
  if (it != NULL && it->value != NULL)
    {
      errno = 0;
      v = g_ascii_strtod (it->value, &end);
      for (guint i = 0; end != it->value && errno == 0 && v >= 0 && i < G_N_ELEMENTS (units); i++)
        if (strcmp (end, units[i].unit) == 0)
          {
            *ns = (gint64) (v * units[i].scale + 0.5);
            mark_used (s, key, format_time (*ns));
            return TRUE;
          }
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s=%s': bad time: give a number of ms or a unit (8ms, 200us, 0.1s)", key, it->value);
      return FALSE;
    }
  mark_used (s, key, format_time (*ns));
  return TRUE;
}

gboolean
_iochart_sim_settings_double (IochartSimSettings *s, const char *key, double default_value, double min,
                              double max, double *value, GError **error)
{
  Setting *it = find (s, key);
  char *end = NULL;

  *value = default_value;
  if (it != NULL && it->value != NULL)
    {
      errno = 0;
      *value = g_ascii_strtod (it->value, &end);
      if (end == it->value || *end != '\0' || errno != 0 || !(*value >= min && *value <= max))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s=%s': bad value: give %g to %g",
                       key, it->value, min, max);
          return FALSE;
        }
    }
  mark_used (s, key, g_strdup_printf ("%g", *value));
  return TRUE;
}

gboolean
_iochart_sim_settings_bool (IochartSimSettings *s, const char *key, gboolean default_value,
                            gboolean *value, GError **error)
{
  Setting *it = find (s, key);

  *value = default_value;
  if (it != NULL && it->value != NULL)
    {
      if (strcmp (it->value, "1") == 0 || strcmp (it->value, "on") == 0 || strcmp (it->value, "true") == 0)
        *value = TRUE;
      else if (strcmp (it->value, "0") == 0 || strcmp (it->value, "off") == 0 || strcmp (it->value, "false") == 0)
        *value = FALSE;
      else
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s=%s': bad value: give on or off",
                       key, it->value);
          return FALSE;
        }
    }
  mark_used (s, key, g_strdup (*value ? "on" : "off"));
  return TRUE;
}

gboolean
_iochart_sim_settings_check (IochartSimSettings *s, const char *what, GError **error)
{
  for (guint i = 0; i < s->items->len; i++)
    {
      Setting *it = &g_array_index (s->items, Setting, i);
      if (it->used == NULL)
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': %s has no setting '%s'",
                       it->key, what, it->key);
          return FALSE;
        }
    }
  return TRUE;
}

char *
_iochart_sim_settings_to_string (IochartSimSettings *s)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < s->order->len; i++)
    {
      Setting *it = &g_array_index (s->items, Setting, g_array_index (s->order, guint, i));
      gboolean seen = FALSE;

      /* a key read twice (idle-gate's inner policy) is listed once */
      for (guint j = 0; j < i; j++)
        seen |= g_array_index (s->order, guint, j) == g_array_index (s->order, guint, i);
      if (!seen)
        g_string_append_printf (out, "%s%s=%s", out->len ? "," : "", it->key, it->used);
    }
  return g_string_free (out, FALSE);
}
