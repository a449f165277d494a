/* iochart-lazy-trace.c: libtracecmd, libtracefs, libtraceevent and libzstd, loaded on first use
 * (iochart-lazy-private.h)
 *
 * Only .dat input and `record` need them. Linked at start, mapping and relocating them cost
 * 0.8 ms of CPU in every run (an empty program linked with them: 1.0-1.3 ms; with them too:
 * 1.9-2.0 ms), more than all the rest of `iochart --version`. Only the `iochart` executable
 * links this library; the app, tests and benchmarks link the libraries. A function of theirs the
 * core starts calling needs its line here (the CLI's link fails until then).
 */
#include <event-parse.h>
#include <kbuffer.h>
#include <trace-cmd/trace-cmd.h>
#include <tracefs.h>
#include <zstd.h>
#include "iochart-lazy-private.h"

static IochartLazyLib libtracecmd = IOCHART_LAZY_LIB_INIT ("libtracecmd.so.1");
static IochartLazyLib libtracefs = IOCHART_LAZY_LIB_INIT ("libtracefs.so.1");
static IochartLazyLib libtraceevent = IOCHART_LAZY_LIB_INIT ("libtraceevent.so.1");
static IochartLazyLib libzstd = IOCHART_LAZY_LIB_INIT ("libzstd.so.1");

#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libtracecmd, ret, name, params, args)

FORWARD (struct tracecmd_input *, tracecmd_buffer_instance_handle, (struct tracecmd_input *handle, int indx), (handle, indx))
FORWARD (const char *, tracecmd_buffer_instance_name, (struct tracecmd_input *handle, int indx), (handle, indx))
FORWARD (int, tracecmd_buffer_instances, (struct tracecmd_input *handle), (handle))
FORWARD (void, tracecmd_close, (struct tracecmd_input *handle), (handle))
FORWARD (struct tep_handle *, tracecmd_get_tep, (struct tracecmd_input *handle), (handle))
FORWARD (int, tracecmd_iterate_events_multi, (struct tracecmd_input **handles, int nr_handles, int (*callback)(struct tracecmd_input *handle, struct tep_record *, int, void *), void *callback_data), (handles, nr_handles, callback, callback_data))
FORWARD (struct tracecmd_input *, tracecmd_open, (const char *file, int flags), (file, flags))
FORWARD (void, tracecmd_set_loglevel, (enum tep_loglevel level), (level))

#undef FORWARD
#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libtracefs, ret, name, params, args)

FORWARD (void, tracefs_cpu_close, (struct tracefs_cpu *tcpu), (tcpu))
FORWARD (int, tracefs_cpu_flush, (struct tracefs_cpu *tcpu, void *buffer), (tcpu, buffer))
FORWARD (struct tracefs_cpu *, tracefs_cpu_open, (struct tracefs_instance *instance, int cpu, _Bool nonblock), (instance, cpu, nonblock))
FORWARD (int, tracefs_cpu_read, (struct tracefs_cpu *tcpu, void *buffer, _Bool nonblock), (tcpu, buffer, nonblock))
FORWARD (int, tracefs_event_enable, (struct tracefs_instance *instance, const char *system, const char *event), (instance, system, event))
FORWARD (char *, tracefs_event_file_read, (struct tracefs_instance *instance, const char *system, const char *event, const char *file, int *psize), (instance, system, event, file, psize))
FORWARD (struct tracefs_instance *, tracefs_instance_alloc, (const char *tracing_dir, const char *name), (tracing_dir, name))
FORWARD (struct tracefs_instance *, tracefs_instance_create, (const char *name), (name))
FORWARD (int, tracefs_instance_destroy, (struct tracefs_instance *instance), (instance))
FORWARD (char *, tracefs_instance_file_read, (struct tracefs_instance *instance, const char *file, int *psize), (instance, file, psize))
FORWARD (int, tracefs_instance_file_write, (struct tracefs_instance *instance, const char *file, const char *str), (instance, file, str))
FORWARD (void, tracefs_instance_free, (struct tracefs_instance *instance), (instance))
FORWARD (struct tep_handle *, tracefs_local_events_system, (const char *tracing_dir, const char * const *sys_names), (tracing_dir, sys_names))
FORWARD (int, tracefs_trace_off, (struct tracefs_instance *instance), (instance))
FORWARD (int, tracefs_trace_on, (struct tracefs_instance *instance), (instance))
FORWARD (const char *, tracefs_tracing_dir, (void), ())

#undef FORWARD
#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libtraceevent, ret, name, params, args)

FORWARD (struct kbuffer *, kbuffer_alloc, (enum kbuffer_long_size size, enum kbuffer_endian endian), (size, endian))
FORWARD (int, kbuffer_curr_offset, (struct kbuffer *kbuf), (kbuf))
FORWARD (int, kbuffer_event_size, (struct kbuffer *kbuf), (kbuf))
FORWARD (void, kbuffer_free, (struct kbuffer *kbuf), (kbuf))
FORWARD (int, kbuffer_load_subbuffer, (struct kbuffer *kbuf, void *subbuffer), (kbuf, subbuffer))
FORWARD (int, kbuffer_missed_events, (struct kbuffer *kbuf), (kbuf))
FORWARD (void *, kbuffer_next_event, (struct kbuffer *kbuf, unsigned long long *ts), (kbuf, ts))
FORWARD (void *, kbuffer_read_event, (struct kbuffer *kbuf, unsigned long long *ts), (kbuf, ts))
FORWARD (void, kbuffer_set_old_format, (struct kbuffer *kbuf), (kbuf))
FORWARD (int, kbuffer_subbuffer_size, (struct kbuffer *kbuf), (kbuf))
FORWARD (struct tep_handle *, tep_alloc, (void), ())
FORWARD (int, tep_data_pid, (struct tep_handle *tep, struct tep_record *rec), (tep, rec))
FORWARD (int, tep_data_type, (struct tep_handle *tep, struct tep_record *rec), (tep, rec))
FORWARD (struct tep_event *, tep_find_event_by_name, (struct tep_handle *tep, const char *sys, const char *name), (tep, sys, name))
FORWARD (struct tep_format_field *, tep_find_field, (struct tep_event *event, const char *name), (event, name))
FORWARD (void, tep_free, (struct tep_handle *tep), (tep))
FORWARD (int, tep_get_header_page_size, (struct tep_handle *tep), (tep))
FORWARD (int, tep_get_header_timestamp_size, (struct tep_handle *tep), (tep))
FORWARD (_Bool, tep_is_file_bigendian, (struct tep_handle *tep), (tep))
FORWARD (_Bool, tep_is_local_bigendian, (struct tep_handle *tep), (tep))
FORWARD (_Bool, tep_is_old_format, (struct tep_handle *tep), (tep))
FORWARD (enum tep_errno, tep_parse_event, (struct tep_handle *tep, const char *buf, unsigned long size, const char *sys), (tep, buf, size, sys))
FORWARD (int, tep_parse_header_page, (struct tep_handle *tep, char *buf, unsigned long size, int long_size), (tep, buf, size, long_size))
FORWARD (void, tep_set_file_bigendian, (struct tep_handle *tep, enum tep_endian endian), (tep, endian))
FORWARD (void, tep_set_local_bigendian, (struct tep_handle *tep, enum tep_endian endian), (tep, endian))
FORWARD (void, tep_set_loglevel, (enum tep_loglevel level), (level))
FORWARD (void, tep_set_long_size, (struct tep_handle *tep, int long_size), (tep, long_size))
FORWARD (void, tep_set_page_size, (struct tep_handle *tep, int _page_size), (tep, _page_size))

#undef FORWARD
#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libzstd, ret, name, params, args)

FORWARD (ZSTD_DCtx*, ZSTD_createDCtx, (void), ())
FORWARD (size_t, ZSTD_decompress, (void* dst, size_t dstCapacity, const void* src, size_t compressedSize), (dst, dstCapacity, src, compressedSize))
FORWARD (size_t, ZSTD_decompressDCtx, (ZSTD_DCtx* dctx, void* dst, size_t dstCapacity, const void* src, size_t srcSize), (dctx, dst, dstCapacity, src, srcSize))
FORWARD (size_t, ZSTD_freeDCtx, (ZSTD_DCtx* dctx), (dctx))
FORWARD (const char*, ZSTD_getErrorName, (size_t code), (code))
FORWARD (unsigned, ZSTD_isError, (size_t code), (code))
