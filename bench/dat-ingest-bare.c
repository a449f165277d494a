/* dat-ingest-bare.c: the floor for .dat ingest: libtracecmd iterating every buffer of a file
 * in time order and touching each record's type, nothing else. -DBARE_NO_PLUGINS opens the
 * file as iochart's reader does, without libtraceevent's plugins (they only format text). */
#include <stdio.h>
#include <stdlib.h>
#include <trace-cmd/trace-cmd.h>

#ifdef BARE_NO_PLUGINS
#define OPEN_FLAGS TRACECMD_FL_LOAD_NO_PLUGINS
#else
#define OPEN_FLAGS 0
#endif

static int
on_record (struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
  unsigned long long *n = data;

  n[0]++;
  n[1] += tep_data_type (tracecmd_get_tep (h), rec);
  return 0;
}

int
main (int argc, char **argv)
{
  struct tracecmd_input *top, *handles[64];
  unsigned long long n[2] = { 0, 0 };
  int nh = 0;

  if (argc != 2 || (top = tracecmd_open (argv[1], OPEN_FLAGS)) == NULL)
    return fprintf (stderr, "usage: dat-ingest-bare FILE.dat (a readable one)\n"), 2;
  handles[nh++] = top;
  for (int i = 0; i < tracecmd_buffer_instances (top) && nh < 64; i++)
    if ((handles[nh] = tracecmd_buffer_instance_handle (top, i)) != NULL)
      nh++;
  tracecmd_iterate_events_multi (handles, nh, on_record, n);
  printf ("%llu records\n", n[0]);
  for (int i = 1; i < nh; i++)
    tracecmd_close (handles[i]);
  tracecmd_close (top);
  return 0;
}
