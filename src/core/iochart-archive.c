/* iochart-archive.c: libarchive, loaded on first use (iochart-lazy-private.h)
 *
 * libarchive pulls in libxml2, ICU and libstdc++: linked at start, resolving their symbols was
 * half of every run's start-up (`iochart info` on a small capture, a boot chart), for a library
 * that only compressed input, boot chart tarballs and `record`'s archives need.
 */
#include <archive.h>
#include <archive_entry.h>
#include <glib.h>

#include "iochart-lazy-private.h"

/* libarchive 3.x is soname 13, as it has been since 3.0 */
G_STATIC_ASSERT (ARCHIVE_VERSION_NUMBER >= 3000000 && ARCHIVE_VERSION_NUMBER < 4000000);
static IochartLazyLib libarchive = IOCHART_LAZY_LIB_INIT ("libarchive.so.13");

#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libarchive, ret, name, params, args)

typedef struct archive A;
typedef struct archive_entry E;

FORWARD (const char *, archive_error_string, (A *a), (a))
FORWARD (A *, archive_read_new, (void), ())
FORWARD (int, archive_read_free, (A *a), (a))
FORWARD (int, archive_read_support_filter_all, (A *a), (a))
FORWARD (int, archive_read_support_format_all, (A *a), (a))
FORWARD (int, archive_read_support_format_gnutar, (A *a), (a))
FORWARD (int, archive_read_support_format_raw, (A *a), (a))
FORWARD (int, archive_read_support_format_tar, (A *a), (a))
FORWARD (int, archive_read_open_filename, (A *a, const char *file, size_t block), (a, file, block))
FORWARD (int, archive_read_next_header, (A *a, E **e), (a, e))
FORWARD (la_ssize_t, archive_read_data, (A *a, void *buf, size_t len), (a, buf, len))
FORWARD (int, archive_read_data_block, (A *a, const void **buf, size_t *len, la_int64_t *off),
         (a, buf, len, off))
FORWARD (int, archive_read_data_into_fd, (A *a, int fd), (a, fd))
FORWARD (A *, archive_write_new, (void), ())
FORWARD (int, archive_write_free, (A *a), (a))
FORWARD (int, archive_write_add_filter_gzip, (A *a), (a))
FORWARD (int, archive_write_add_filter_zstd, (A *a), (a))
FORWARD (int, archive_write_set_format_pax_restricted, (A *a), (a))
FORWARD (int, archive_write_set_format_raw, (A *a), (a))
FORWARD (int, archive_write_open_filename, (A *a, const char *file), (a, file))
FORWARD (int, archive_write_header, (A *a, E *e), (a, e))
FORWARD (la_ssize_t, archive_write_data, (A *a, const void *buf, size_t len), (a, buf, len))
FORWARD (int, archive_write_close, (A *a), (a))
FORWARD (E *, archive_entry_new, (void), ())
FORWARD (void, archive_entry_free, (E *e), (e))
FORWARD (const char *, archive_entry_pathname, (E *e), (e))
FORWARD (__LA_MODE_T, archive_entry_filetype, (E *e), (e))
FORWARD (la_int64_t, archive_entry_size, (E *e), (e))
FORWARD (void, archive_entry_set_filetype, (E *e, unsigned int type), (e, type))
FORWARD (void, archive_entry_set_mtime, (E *e, time_t t, long ns), (e, t, ns))
FORWARD (void, archive_entry_set_pathname, (E *e, const char *path), (e, path))
FORWARD (void, archive_entry_set_perm, (E *e, __LA_MODE_T perm), (e, perm))
FORWARD (void, archive_entry_set_size, (E *e, la_int64_t size), (e, size))
