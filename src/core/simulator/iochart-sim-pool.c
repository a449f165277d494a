/* iochart-sim-pool.c: per-process queues that follow the live processes */
#include <string.h>
#include "iochart-sim-private.h"

void
_iochart_sim_pool_init (IochartSimPool *pool, gsize item_size, guint n_fixed, guint n_owners)
{
  pool->item_size = item_size;
  pool->n_fixed = pool->n = MAX (n_fixed, 1);
  pool->size = pool->n + 256;
  pool->items = g_malloc0 (pool->size * item_size);
  pool->n_owners = n_owners;
  pool->slot = g_new0 (guint32, MAX (n_owners, 1));
  pool->free = g_array_new (FALSE, FALSE, sizeof (guint32));
}

guint32
_iochart_sim_pool_get (IochartSimPool *pool, guint32 owner, gboolean *fresh)
{
  guint32 id;

  g_assert (owner < pool->n_owners);
  *fresh = pool->slot[owner] == 0;
  if (!*fresh)
    return pool->slot[owner];
  if (pool->free->len > 0)
    {
      id = g_array_index (pool->free, guint32, pool->free->len - 1);
      g_array_set_size (pool->free, pool->free->len - 1);
    }
  else
    {
      if (pool->n == pool->size)
        {
          pool->size *= 2;
          pool->items = g_realloc (pool->items, pool->size * pool->item_size);
        }
      id = pool->n++;
      memset (pool->items + id * pool->item_size, 0, pool->item_size);
    }
  pool->slot[owner] = id;
  return id;
}

void
_iochart_sim_pool_release (IochartSimPool *pool, guint32 owner)
{
  if (owner >= pool->n_owners || pool->slot[owner] == 0)
    return;
  g_array_append_val (pool->free, pool->slot[owner]);
  pool->slot[owner] = 0;
}

void
_iochart_sim_pool_clear (IochartSimPool *pool)
{
  g_clear_pointer (&pool->items, g_free);
  g_clear_pointer (&pool->slot, g_free);
  g_clear_pointer (&pool->free, g_array_unref);
}
