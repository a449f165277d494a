/* iochart-lazy-json.c: json-glib and GIO, loaded on first use (iochart-lazy-private.h)
 *
 * json-glib pulls in GIO, and GIO libmount, libblkid, libselinux and libgmodule: bound at start
 * (all of them are linked with -z now), their 2,200 symbol bindings were three quarters of the dynamic
 * linker's work in every run, for JSON that only --json, `info --json`, `export` and the like
 * write, and a gzip stream (iochart-loader.c) that only compressed text captures need. Only the
 * `iochart` executable links this library; the app, tests and benchmarks link both. A json-glib
 * or GIO function the core starts calling needs its line here (the CLI's link fails until then).
 */
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include "iochart-lazy-private.h"

G_STATIC_ASSERT (JSON_MAJOR_VERSION == 1);
static IochartLazyLib libjson = IOCHART_LAZY_LIB_INIT ("libjson-glib-1.0.so.0");
static IochartLazyLib libgio = IOCHART_LAZY_LIB_INIT ("libgio-2.0.so.0");

#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libjson, ret, name, params, args)

FORWARD (JsonBuilder *, json_builder_add_boolean_value, (JsonBuilder *builder, gboolean value), (builder, value))
FORWARD (JsonBuilder *, json_builder_add_double_value, (JsonBuilder *builder, gdouble value), (builder, value))
FORWARD (JsonBuilder *, json_builder_add_int_value, (JsonBuilder *builder, gint64 value), (builder, value))
FORWARD (JsonBuilder *, json_builder_add_null_value, (JsonBuilder *builder), (builder))
FORWARD (JsonBuilder *, json_builder_add_string_value, (JsonBuilder *builder, const gchar *value), (builder, value))
FORWARD (JsonBuilder *, json_builder_begin_array, (JsonBuilder *builder), (builder))
FORWARD (JsonBuilder *, json_builder_begin_object, (JsonBuilder *builder), (builder))
FORWARD (JsonBuilder *, json_builder_end_array, (JsonBuilder *builder), (builder))
FORWARD (JsonBuilder *, json_builder_end_object, (JsonBuilder *builder), (builder))
FORWARD (JsonNode *, json_builder_get_root, (JsonBuilder *builder), (builder))
FORWARD (GType, json_builder_get_type, (void), ())
FORWARD (JsonBuilder *, json_builder_new, (void), ())
FORWARD (JsonBuilder *, json_builder_set_member_name, (JsonBuilder *builder, const gchar *member_name), (builder, member_name))
FORWARD (JsonGenerator *, json_generator_new, (void), ())
FORWARD (void, json_generator_set_pretty, (JsonGenerator *generator, gboolean is_pretty), (generator, is_pretty))
FORWARD (void, json_generator_set_root, (JsonGenerator *generator, JsonNode *node), (generator, node))
FORWARD (gchar *, json_generator_to_data, (JsonGenerator *generator, gsize *length), (generator, length))
FORWARD (JsonNode *, json_node_alloc, (void), ())
FORWARD (gint64, json_node_get_int, (JsonNode *node), (node))
FORWARD (JsonNodeType, json_node_get_node_type, (JsonNode *node), (node))
FORWARD (const gchar *, json_node_get_string, (JsonNode *node), (node))
FORWARD (GType, json_node_get_value_type, (JsonNode *node), (node))
FORWARD (JsonNode *, json_node_init_int, (JsonNode *node, gint64 value), (node, value))
FORWARD (JsonNode *, json_node_init_object, (JsonNode *node, JsonObject *object), (node, object))
FORWARD (JsonNode *, json_node_init_string, (JsonNode *node, const char *value), (node, value))
FORWARD (void, json_node_unref, (JsonNode *node), (node))
FORWARD (JsonNode *, json_object_get_member, (JsonObject *object, const gchar *member_name), (object, member_name))
FORWARD (JsonObject *, json_object_new, (void), ())
FORWARD (void, json_object_remove_member, (JsonObject *object, const gchar *member_name), (object, member_name))
FORWARD (void, json_object_set_double_member, (JsonObject *object, const gchar *member_name, gdouble value), (object, member_name, value))
FORWARD (void, json_object_set_int_member, (JsonObject *object, const gchar *member_name, gint64 value), (object, member_name, value))
FORWARD (void, json_object_set_member, (JsonObject *object, const gchar *member_name, JsonNode *node), (object, member_name, node))
FORWARD (void, json_object_set_null_member, (JsonObject *object, const gchar *member_name), (object, member_name))
FORWARD (void, json_object_set_object_member, (JsonObject *object, const gchar *member_name, JsonObject *value), (object, member_name, value))
FORWARD (void, json_object_set_string_member, (JsonObject *object, const gchar *member_name, const gchar *value), (object, member_name, value))
FORWARD (void, json_object_unref, (JsonObject *object), (object))
FORWARD (char *, json_to_string, (JsonNode *node, gboolean pretty), (node, pretty))

#undef FORWARD
#define FORWARD(ret, name, params, args) IOCHART_LAZY_FORWARD (libgio, ret, name, params, args)

FORWARD (GType, g_converter_get_type, (void), ())
FORWARD (GInputStream *, g_converter_input_stream_new, (GInputStream *base_stream, GConverter *converter), (base_stream, converter))
FORWARD (GFile *, g_file_new_for_path, (const char *path), (path))
FORWARD (GFileInputStream *, g_file_read, (GFile *file, GCancellable *cancellable, GError **error), (file, cancellable, error))
FORWARD (GType, g_input_stream_get_type, (void), ())
FORWARD (gssize, g_input_stream_read, (GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable, GError **error), (stream, buffer, count, cancellable, error))
FORWARD (GZlibDecompressor *, g_zlib_decompressor_new, (GZlibCompressorFormat format), (format))
