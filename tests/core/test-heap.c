/* Unit tests of the malloc settings of the command line and the app: after iochart_heap_init() a
 * large buffer and a thread's allocations come from the main heap, and the heap's next memory is
 * on huge pages; with glibc's defaults the buffer would be a mapping of its own, the thread would
 * get an arena of its own and every 4 KiB would cost a fault. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "iochart-heap.h"

/* the brk heap's bounds now, from /proc/self/maps (it may be several mappings, all "[heap]") */
static gboolean
on_heap (const void *p)
{
  g_autofree char *maps = NULL;
  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  g_auto (GStrv) lines = g_strsplit (maps, "\n", -1);
  uintptr_t from = UINTPTR_MAX, to = 0;
  for (char **l = lines; *l != NULL; l++)
    {
      unsigned long a, b;
      if (g_str_has_suffix (*l, "[heap]") && sscanf (*l, "%lx-%lx ", &a, &b) == 2)
        from = MIN (from, a), to = MAX (to, b);
    }
  return (uintptr_t) p >= from && (uintptr_t) p < to;
}

/* a counter of /proc/vmstat */
static guint64
vmstat (const char *name)
{
  g_autofree char *text = NULL;
  g_assert_true (g_file_get_contents ("/proc/vmstat", &text, NULL, NULL));
  g_autofree char *key = g_strdup_printf ("\n%s ", name);
  const char *at = strstr (text, key);
  return at != NULL ? g_ascii_strtoull (at + strlen (key), NULL, 10) : 0;
}

/* resident bytes of the process */
static guint64
resident (void)
{
  g_autofree char *text = NULL;
  guint64 size, pages;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL));
  g_assert_cmpint (sscanf (text, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &size, &pages), ==, 2);
  return pages * (guint64) sysconf (_SC_PAGESIZE);
}

/* A model's many blocks (100 MiB) freed under one still live, returned: malloc keeps every
 * page of them. */
static char *
free_under_live_block (void)
{
  enum { N = 1600, BLOCK = 64 << 10 };
  g_autofree char **blocks = g_new (char *, N);
  char *above;

  for (int i = 0; i < N; i++)
    memset (blocks[i] = malloc (BLOCK), i, BLOCK);
  above = malloc (64);
  for (int i = 0; i < N; i++)
    free (blocks[i]);
  return above;
}

/* The trim gives the pages a live block keeps back. */
static void
test_trim (void)
{
  char *above = free_under_live_block ();
  guint64 held = resident (), trimmed;

  iochart_heap_trim ();
  trimmed = resident ();
  g_test_message ("resident %" G_GUINT64_FORMAT " MiB after the frees, %" G_GUINT64_FORMAT " MiB after the trim",
                  held >> 20, trimmed >> 20);
  /* glibc gave back part of it by itself (the free top above its threshold): not the rest */
  g_assert_cmpuint (held - MIN (held, trimmed), >=, (guint64) 48 << 20);
  free (above);
}

/* A trim asked for from a worker runs once on the main context, later; asks while it is pending
 * join it. */
static gpointer
ask_trim (gpointer data)
{
  return GINT_TO_POINTER (iochart_heap_trim_later (20));
}

static void
test_trim_later (void)
{
  char *above = free_under_live_block ();
  guint64 held = resident (), trimmed;

  g_assert_true (GPOINTER_TO_INT (g_thread_join (g_thread_new ("ask", ask_trim, NULL))));
  g_assert_false (iochart_heap_trim_later (20));
  g_assert_cmpuint (resident (), >=, held - ((guint64) 8 << 20));
  while (!iochart_heap_trim_later (20))
    g_main_context_iteration (NULL, TRUE);
  trimmed = resident ();
  g_assert_cmpuint (held - MIN (held, trimmed), >=, (guint64) 48 << 20);
  /* the one the loop's last ask scheduled: the main context's only source */
  g_assert_false (iochart_heap_trim_later (20));
  g_main_context_iteration (NULL, TRUE);
  g_assert_false (g_main_context_pending (NULL));
  free (above);
}

static gpointer
thread_alloc (gpointer data)
{
  return malloc (1000);
}

static void
test_buffers (void)
{
  void *big = malloc ((size_t) 16 << 20);   /* a blktrace file's decode buffer, a PNG strip */
  g_assert_nonnull (big);
  g_assert_true (on_heap (big));
  free (big);

  GThread *t = g_thread_new ("alloc", thread_alloc, NULL);
  void *small = g_thread_join (t);
  g_assert_true (on_heap (small));
  free (small);
}

/* The heap's memory after the set-up is on huge pages: 8 MiB written cost a fault or so per 2 MiB,
 * not 2,048 (a page touched before the marking would keep its 2 MiB to 512 small ones). */
static void
test_huge_pages (void)
{
  g_autofree char *thp = NULL;
  if (!g_file_get_contents ("/sys/kernel/mm/transparent_hugepage/enabled", &thp, NULL, NULL) ||
      strstr (thp, "[never]") != NULL)
    {
      g_test_skip ("no transparent huge pages here");
      return;
    }
  guint64 fallbacks = vmstat ("thp_fault_fallback");
  struct rusage before, after;
  getrusage (RUSAGE_SELF, &before);
  char *p = malloc ((size_t) 8 << 20);
  memset (p, 1, (size_t) 8 << 20);
  getrusage (RUSAGE_SELF, &after);
  g_test_message ("%ld faults for 8 MiB at %p", after.ru_minflt - before.ru_minflt, (void *) p);
  free (p);
  if (vmstat ("thp_fault_fallback") != fallbacks)
    {
      g_test_skip ("the kernel had no huge page to give");
      return;
    }
  g_assert_cmpint (after.ru_minflt - before.ru_minflt, <, 32);
}

static void
skip_sanitized (void)
{
  g_test_skip ("a sanitizer's malloc: nothing was changed");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!iochart_heap_init ())
    {
      g_test_add_func ("/heap/buffers", skip_sanitized);
      return g_test_run ();
    }
  g_test_add_func ("/heap/buffers", test_buffers);
  g_test_add_func ("/heap/huge-pages", test_huge_pages);
  g_test_add_func ("/heap/trim", test_trim);
  g_test_add_func ("/heap/trim-later", test_trim_later);
  return g_test_run ();
}
