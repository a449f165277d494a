/* iochart-dat-writer.h: write a trace-cmd .dat, file format version 6, uncompressed
 *
 * Debian 12's libtracecmd only declares its reading API, so the recorder writes the documented
 * format itself (trace-cmd.dat.v6(5)): magic, headers, event formats, kallsyms, printk formats,
 * saved cmdlines, CPU count, options, the CPU table (and the trace clock after it, when set),
 * then per CPU the ring-buffer pages as read from tracefs (per_cpu/cpuN/trace_pipe_raw). Fields are in host byte order, as trace-cmd does.
 * Pages wait in unlinked temporary files, so memory stays flat however long the recording.
 * All the events go to the top-level buffer of the file, even when recorded in an instance.
 * Events made by a program rather than recorded (`iochart synth`) are packed into the same
 * ring-buffer pages the kernel writes (iochart_dat_writer_add_event).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _IochartDatWriter IochartDatWriter;

IochartDatWriter *iochart_dat_writer_new              (guint             n_cpus,
                                                       guint             page_size);
void              iochart_dat_writer_free             (IochartDatWriter *self);

/* events/header_page and events/header_event of tracefs. */
void              iochart_dat_writer_set_headers      (IochartDatWriter *self,
                                                       const char       *header_page,
                                                       const char       *header_event);
/* One events/SYSTEM/EVENT/format file; system "ftrace" goes to the ftrace section. */
void              iochart_dat_writer_add_format       (IochartDatWriter *self,
                                                       const char       *system,
                                                       const char       *format);
void              iochart_dat_writer_set_kallsyms     (IochartDatWriter *self,
                                                       const char       *text);
void              iochart_dat_writer_set_printk       (IochartDatWriter *self,
                                                       const char       *text);
void              iochart_dat_writer_set_cmdlines     (IochartDatWriter *self,
                                                       const char       *text);
/* The trace_clock file's text ("local [boot] mono..."): readers learn the clock from it; it goes
 * in the TRACECLOCK option and, as "[boot]", after the CPU table, where libtracecmd reads it. */
void              iochart_dat_writer_set_trace_clock  (IochartDatWriter *self,
                                                       const char       *text);
/* A CPU's per_cpu/cpuN/stats text (entries, overrun...): the CPUSTAT option trace-cmd writes. */
void              iochart_dat_writer_set_cpu_stats    (IochartDatWriter *self,
                                                       guint             cpu,
                                                       const char       *text);
/* Bytes of ring-buffer pages added so far, all CPUs. */
guint64           iochart_dat_writer_get_data_size    (IochartDatWriter *self);
/* Whole ring-buffer pages (a multiple of the page size) of one CPU, in order. */
gboolean          iochart_dat_writer_add_pages        (IochartDatWriter *self,
                                                       guint             cpu,
                                                       const guint8     *pages,
                                                       gsize             len,
                                                       GError          **error);

/* The header_page and header_event of a 64-bit kernel for this page size: for events made by
 * iochart_dat_writer_add_event rather than read from tracefs. */
void              iochart_dat_writer_set_standard_headers (IochartDatWriter *self);
/* One event made by a program: its record (common header first, as its format describes) at
 * ts_ns on cpu, in time order per CPU, at most 112 bytes. Packed into ring-buffer pages as the
 * kernel does (27-bit time deltas, time extends for longer gaps). Not to mix with add_pages on
 * the same CPU. */
gboolean          iochart_dat_writer_add_event        (IochartDatWriter *self,
                                                       guint             cpu,
                                                       guint64           ts_ns,
                                                       const void       *record,
                                                       gsize             len,
                                                       GError          **error);

/* Headers, the formats of the given systems ("block", "sched"...) or single events
 * ("syscalls/sys_enter_ioprio_set") and ftrace's, printk formats
 * and saved cmdlines, read from the mounted tracefs. kallsyms only when with_kallsyms. */
gboolean          iochart_dat_writer_add_tracefs_metadata (IochartDatWriter   *self,
                                                       const char * const *systems,
                                                       gboolean            with_kallsyms,
                                                       GError            **error);

/* To PATH.XXXXXX, then renamed to path. */
gboolean          iochart_dat_writer_write            (IochartDatWriter *self,
                                                       const char       *path,
                                                       GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IochartDatWriter, iochart_dat_writer_free)

G_END_DECLS
