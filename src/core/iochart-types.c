/* iochart-types.c: names of the shared enums and the RWBS codec */
#include <string.h>
#include "iochart-types.h"
#include "iochart-error.h"

static const char * const op_names[IOCHART_N_OPS] = { "read", "write", "discard", "flush", "other" };
static const char * const class_names[IOCHART_N_CLASSES] = { "none", "rt", "be", "idle", "unknown" };
static const char * const source_names[IOCHART_N_CLASS_SOURCES] = {
  "unknown", "ioprio-field", "ioprio_set", "inherited", "rule", "scheduler-note", "side-capture",
};

const char *
iochart_op_name (IochartOp op)
{
  return op < IOCHART_N_OPS ? op_names[op] : "other";
}

const char *
iochart_class_name (IochartClass klass)
{
  return klass < IOCHART_N_CLASSES ? class_names[klass] : "unknown";
}

const char *
iochart_class_source_name (IochartClassSource source)
{
  return source < IOCHART_N_CLASS_SOURCES ? source_names[source] : "unknown";
}

gboolean
iochart_class_from_name (const char *name, IochartClass *klass)
{
  for (guint i = 0; i < IOCHART_N_CLASSES; i++)
    if (g_ascii_strcasecmp (name, class_names[i]) == 0)
      {
        *klass = i;
        return TRUE;
      }
  /* ionice's and the kernel's spellings */
  if (g_ascii_strcasecmp (name, "best-effort") == 0 || g_ascii_strcasecmp (name, "normal") == 0)
    *klass = IOCHART_CLASS_BE;
  else if (g_ascii_strcasecmp (name, "realtime") == 0)
    *klass = IOCHART_CLASS_RT;
  else
    return FALSE;
  return TRUE;
}

/* blk_fill_rwbs(): an optional F (preflush), one op letter (F flush, W, D, R, N; "DE" secure erase),
 * then F (FUA), A (readahead), S (sync), M (meta). */
void
iochart_rwbs_parse (const char *rwbs, gsize len, IochartOp *op, guint8 *flags)
{
  gsize i = 0;

  len = strnlen (rwbs, len);
  *op = IOCHART_OP_OTHER;
  *flags = 0;
  if (len >= 2 && rwbs[0] == 'F' && strchr ("FWDRNE", rwbs[1]))
    {
      *flags |= IOCHART_RQ_PREFLUSH;
      i++;
    }
  if (i < len)
    {
      switch (rwbs[i++])
        {
        case 'F': *op = IOCHART_OP_FLUSH; break;
        case 'W': *op = IOCHART_OP_WRITE; break;
        case 'D': *op = IOCHART_OP_DISCARD; if (i < len && rwbs[i] == 'E') i++; break;
        case 'R': *op = IOCHART_OP_READ; break;
        case 'N':
          /* blktrace calls a flush "FN": a preflush with no data is a flush whatever its op */
          if (*flags & IOCHART_RQ_PREFLUSH)
            *op = IOCHART_OP_FLUSH;
          break;
        default: i--; break;
        }
    }
  for (; i < len; i++)
    {
      switch (rwbs[i])
        {
        case 'F': *flags |= IOCHART_RQ_FUA; break;
        case 'A': *flags |= IOCHART_RQ_READAHEAD; break;
        case 'S': *flags |= IOCHART_RQ_SYNC; break;
        case 'M': *flags |= IOCHART_RQ_META; break;
        default: break;
        }
    }
}

void
iochart_rwbs_format (IochartOp op, guint8 flags, char *buf)
{
  guint n = 0;

  if (flags & IOCHART_RQ_PREFLUSH)
    buf[n++] = 'F';
  switch (op)
    {
    case IOCHART_OP_FLUSH: buf[n++] = 'F'; break;
    case IOCHART_OP_READ: buf[n++] = 'R'; break;
    case IOCHART_OP_WRITE: buf[n++] = 'W'; break;
    case IOCHART_OP_DISCARD: buf[n++] = 'D'; break;
    default: buf[n++] = 'N'; break;
    }
  if (flags & IOCHART_RQ_FUA) buf[n++] = 'F';
  if (flags & IOCHART_RQ_READAHEAD) buf[n++] = 'A';
  if (flags & IOCHART_RQ_SYNC) buf[n++] = 'S';
  if (flags & IOCHART_RQ_META) buf[n++] = 'M';
  buf[n] = '\0';
}

gboolean
iochart_class_rule_parse (const char *text, IochartClassRule *rule, GError **error)
{
  const char *eq = strrchr (text, '=');
  g_autofree char *klass = NULL;
  char *colon;
  guint64 level = 4;

  if (eq == NULL || eq == text || eq[1] == '\0')
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': a class rule is COMM_OR_PID=idle|be|rt|none[:LEVEL]", text);
      return FALSE;
    }
  klass = g_strdup (eq + 1);
  colon = strchr (klass, ':');
  if (colon != NULL)
    {
      *colon = '\0';
      if (!g_ascii_string_to_unsigned (colon + 1, 10, 0, 7, &level, NULL))
        {
          g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE, "'%s': the level must be 0 to 7", text);
          return FALSE;
        }
    }
  if (!iochart_class_from_name (klass, &rule->klass) || rule->klass == IOCHART_CLASS_UNKNOWN)
    {
      g_set_error (error, IOCHART_ERROR, IOCHART_ERROR_USAGE,
                   "'%s': unknown class '%s' (idle, be, rt or none)", text, klass);
      return FALSE;
    }
  if (rule->klass == IOCHART_CLASS_IDLE && colon == NULL)
    level = 7;
  rule->level = level;
  rule->match = g_strndup (text, eq - text);
  return TRUE;
}

void
iochart_class_rule_clear (IochartClassRule *rule)
{
  g_clear_pointer (&rule->match, g_free);
}

