package dev.loommcp.internal.json;

import dev.loommcp.schema.AudioContent;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ListChangedCapability;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.ResourcesCapability;
import dev.loommcp.schema.ProgressNotification;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.TextContent;
import dev.loommcp.schema.Tool;
import dev.loommcp.schema.ToolAnnotations;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds the most common results straight from plain JSON values, without a pass through Jackson's data binding
 * (which re-serializes the map and builds each record through a reflective creator). Anything outside the common
 * shape (annotations, resource blocks, unknown types, values of unexpected types) falls back to {@link Json#convert},
 * so the outcome, including errors, is the same as the general path.
 */
public final class FastResults {

    private FastResults() {
    }

    /** The fast conversion when it applies (it gives null otherwise), else the general one, errors included. */
    private static <T> T fastOr(Object raw, Function<Map<?, ?>, T> fast, Class<T> type, String what) {
        if (raw instanceof Map<?, ?> m) {
            T result = fast.apply(m);
            if (result != null) {
                return result;
            }
        }
        return Json.convert(raw, type, what);
    }

    /**
     * Converts a {@code tools/call} result.
     *
     * @param raw  the result as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static CallToolResult callToolResult(Object raw, String what) {
        return fastOr(raw, FastResults::tryCallToolResult, CallToolResult.class, what);
    }

    @SuppressWarnings("unchecked")
    private static CallToolResult tryCallToolResult(Map<?, ?> m) {
        Object content = m.get("content");
        List<ContentBlock> blocks = null;
        if (content != null) {
            if (!(content instanceof List<?> list)) {
                return null;
            }
            blocks = new ArrayList<>(list.size());
            for (Object o : list) {
                ContentBlock b = block(o);
                if (b == null) {
                    return null;
                }
                blocks.add(b);
            }
        }
        Object structured = m.get("structuredContent");
        Object isError = m.get("isError");
        Object meta = m.get("_meta");
        if ((structured != null && !(structured instanceof Map)) || (isError != null && !(isError instanceof Boolean))
                || (meta != null && !(meta instanceof Map))) {
            return null;
        }
        return new CallToolResult(blocks, (Map<String, Object>) structured, (Boolean) isError,
                (Map<String, Object>) meta);
    }

    @SuppressWarnings("unchecked")
    private static ContentBlock block(Object o) {
        if (!(o instanceof Map<?, ?> b) || b.get("annotations") != null) {
            return null;
        }
        Object meta = b.get("_meta");
        if (meta != null && !(meta instanceof Map)) {
            return null;
        }
        Map<String, Object> m = (Map<String, Object>) meta;
        Object type = b.get("type");
        if (TextContent.TYPE.equals(type)) {
            return b.get("text") instanceof String text ? new TextContent(text, null, m) : null;
        }
        if (ImageContent.TYPE.equals(type) || AudioContent.TYPE.equals(type)) {
            if (!(b.get("data") instanceof String data) || !(b.get("mimeType") instanceof String mime)) {
                return null;
            }
            return ImageContent.TYPE.equals(type) ? new ImageContent(data, mime, null, m)
                    : new AudioContent(data, mime, null, m);
        }
        return null;
    }

    /**
     * Converts a {@code tools/list} result. The first listing of a process would otherwise build the data-binding
     * mapper and the deserializers of every record a tool can hold, hundreds of milliseconds of a cold JVM.
     *
     * @param raw  the result as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static ListToolsResult listToolsResult(Object raw, String what) {
        return fastOr(raw, FastResults::tryListToolsResult, ListToolsResult.class, what);
    }

    @SuppressWarnings("unchecked")
    private static ListToolsResult tryListToolsResult(Map<?, ?> m) {
        if (!(m.get("tools") instanceof List<?> list) || !optional(m, "nextCursor", String.class)
                || !optional(m, "_meta", Map.class)) {
            return null;
        }
        List<Tool> tools = new ArrayList<>(list.size());
        for (Object o : list) {
            Tool t = o instanceof Map<?, ?> tool ? tool(tool) : null;
            if (t == null) {
                return null;
            }
            tools.add(t);
        }
        return new ListToolsResult(tools, (String) m.get("nextCursor"), (Map<String, Object>) m.get("_meta"));
    }

    /**
     * Converts one entry of a {@code tools/list} result (a listing decodes its entries one by one, so that a
     * malformed one is left out alone: {@link ListEntries}).
     *
     * @param raw  the entry as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static Tool tool(Object raw, String what) {
        return fastOr(raw, FastResults::tool, Tool.class, what);
    }

    @SuppressWarnings("unchecked")
    private static Tool tool(Map<?, ?> t) {
        if (!(t.get("name") instanceof String name) || t.get("icons") != null
                || !optional(t, "title", String.class) || !optional(t, "description", String.class)
                || !optional(t, "inputSchema", Map.class) || !optional(t, "outputSchema", Map.class)
                || !optional(t, "annotations", Map.class) || !optional(t, "execution", Map.class)
                || !optional(t, "_meta", Map.class)) {
            return null;
        }
        ToolAnnotations annotations = null;
        if (t.get("annotations") instanceof Map<?, ?> a) {
            if (!optional(a, "title", String.class)
                    || !flags(a, "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")) {
                return null;
            }
            annotations = new ToolAnnotations((String) a.get("title"), (Boolean) a.get("readOnlyHint"),
                    (Boolean) a.get("destructiveHint"), (Boolean) a.get("idempotentHint"),
                    (Boolean) a.get("openWorldHint"));
        }
        return new Tool(name, (String) t.get("title"), (String) t.get("description"),
                (Map<String, Object>) t.get("inputSchema"), (Map<String, Object>) t.get("outputSchema"), annotations,
                null, (Map<String, Object>) t.get("execution"), (Map<String, Object>) t.get("_meta"));
    }

    /** Whether {@code m[key]} is absent, {@code null} or of the given type. */
    private static boolean optional(Map<?, ?> m, String key, Class<?> type) {
        Object v = m.get(key);
        return v == null || type.isInstance(v);
    }

    /**
     * Converts the params of {@code notifications/progress}. They are converted on the transport's reader thread,
     * which must not stop to build the data-binding mapper (hundreds of milliseconds on a cold JVM, during which no
     * answer would be delivered either).
     *
     * @param raw  the params as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static ProgressNotification progressNotification(Object raw, String what) {
        return fastOr(raw, FastResults::tryProgressNotification, ProgressNotification.class, what);
    }

    private static ProgressNotification tryProgressNotification(Map<?, ?> m) {
        Object token = m.get("progressToken");
        if (token instanceof Long l && l == l.intValue()) {
            token = l.intValue(); // data binding reads an integer that fits an int as an Integer
        }
        Object progress = m.get("progress");
        Object total = m.get("total");
        if (!(token instanceof String || token instanceof Integer || token instanceof Long)
                || !plainNumber(progress) || (total != null && !plainNumber(total))
                || !optional(m, "message", String.class)) {
            return null;
        }
        return new ProgressNotification(token, ((Number) progress).doubleValue(),
                total == null ? null : ((Number) total).doubleValue(), (String) m.get("message"));
    }

    /** Whether {@code v} is a number data binding turns into the same {@code double}. */
    private static boolean plainNumber(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Double;
    }

    /**
     * Converts an {@code initialize} result (the handshake must not wait for the data-binding mapper).
     *
     * @param raw  the result as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static InitializeResult initializeResult(Object raw, String what) {
        return fastOr(raw, FastResults::tryInitializeResult, InitializeResult.class, what);
    }

    @SuppressWarnings("unchecked")
    private static InitializeResult tryInitializeResult(Map<?, ?> m) {
        Object version = m.get("protocolVersion");
        Object instructions = m.get("instructions");
        Object meta = m.get("_meta");
        if (!(version == null || version instanceof String) || !(instructions == null || instructions instanceof String)
                || !(meta == null || meta instanceof Map)) {
            return null;
        }
        ServerCapabilities caps = null;
        if (m.get("capabilities") != null) {
            if (!(m.get("capabilities") instanceof Map<?, ?> c)) {
                return null;
            }
            caps = serverCapabilities(c);
            if (caps == null) {
                return null;
            }
        }
        Implementation info = null;
        if (m.get("serverInfo") != null) {
            if (!(m.get("serverInfo") instanceof Map<?, ?> i)) {
                return null;
            }
            info = implementation(i);
            if (info == null) {
                return null;
            }
        }
        return new InitializeResult((String) version, caps, info, (String) instructions, (Map<String, Object>) meta);
    }

    /**
     * Converts server capabilities (the modern era's {@code server/discover} carries them outside an
     * {@code initialize} result; the connect must not wait for the data-binding mapper either way).
     *
     * @param raw  the capabilities as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static ServerCapabilities serverCapabilities(Object raw, String what) {
        return fastOr(raw, FastResults::serverCapabilities, ServerCapabilities.class, what);
    }

    @SuppressWarnings("unchecked")
    private static ServerCapabilities serverCapabilities(Map<?, ?> c) {
        for (String k : List.of("experimental", "logging", "completions", "tasks", "extensions", "prompts", "tools",
                "resources")) {
            if (c.get(k) != null && !(c.get(k) instanceof Map)) {
                return null;
            }
        }
        Map<?, ?> prompts = (Map<?, ?>) c.get("prompts");
        Map<?, ?> tools = (Map<?, ?>) c.get("tools");
        Map<?, ?> resources = (Map<?, ?>) c.get("resources");
        if (!flags(prompts, "listChanged") || !flags(tools, "listChanged")
                || !flags(resources, "subscribe", "listChanged")) {
            return null;
        }
        return new ServerCapabilities((Map<String, Object>) c.get("experimental"),
                (Map<String, Object>) c.get("logging"), (Map<String, Object>) c.get("completions"),
                prompts == null ? null : new ListChangedCapability((Boolean) prompts.get("listChanged")),
                resources == null ? null : new ResourcesCapability((Boolean) resources.get("subscribe"),
                        (Boolean) resources.get("listChanged")),
                tools == null ? null : new ListChangedCapability((Boolean) tools.get("listChanged")),
                (Map<String, Object>) c.get("tasks"), (Map<String, Object>) c.get("extensions"));
    }

    private static boolean flags(Map<?, ?> m, String... names) {
        if (m == null) {
            return true;
        }
        for (String n : names) {
            if (m.get(n) != null && !(m.get(n) instanceof Boolean)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Converts a peer's identity ({@code serverInfo}, wherever the era carries it) without the data-binding mapper
     * when it has the common shape.
     *
     * @param raw  the identity as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static Implementation implementation(Object raw, String what) {
        return fastOr(raw, FastResults::implementation, Implementation.class, what);
    }

    private static Implementation implementation(Map<?, ?> i) {
        if (!(i.get("name") instanceof String name) || !(i.get("version") instanceof String version)
                || i.get("icons") != null) {
            return null;
        }
        for (String k : List.of("title", "description", "websiteUrl")) {
            if (i.get(k) != null && !(i.get(k) instanceof String)) {
                return null;
            }
        }
        return new Implementation(name, version, (String) i.get("title"), (String) i.get("description"),
                (String) i.get("websiteUrl"), null);
    }

    /**
     * Writes an {@link Implementation} as plain JSON values, as data binding would.
     *
     * @param info the record
     * @return the plain object
     */
    public static Map<String, Object> plain(Implementation info) {
        if (info.icons() != null) {
            return Json.toPlainObject(info);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", info.name());
        m.put("version", info.version());
        putIfPresent(m, "title", info.title());
        putIfPresent(m, "description", info.description());
        putIfPresent(m, "websiteUrl", info.websiteUrl());
        return m;
    }

    /**
     * Writes {@link ClientCapabilities} as plain JSON values, as data binding would.
     *
     * @param caps the record
     * @return the plain object
     */
    public static Map<String, Object> plain(ClientCapabilities caps) {
        Map<String, Object> m = new LinkedHashMap<>();
        putIfPresent(m, "experimental", caps.experimental());
        if (caps.roots() != null) {
            Map<String, Object> r = new LinkedHashMap<>();
            putIfPresent(r, "listChanged", caps.roots().listChanged());
            m.put("roots", r);
        }
        if (caps.sampling() != null) {
            Map<String, Object> r = new LinkedHashMap<>();
            putIfPresent(r, "context", caps.sampling().context());
            putIfPresent(r, "tools", caps.sampling().tools());
            m.put("sampling", r);
        }
        if (caps.elicitation() != null) {
            Map<String, Object> r = new LinkedHashMap<>();
            putIfPresent(r, "form", caps.elicitation().form());
            putIfPresent(r, "url", caps.elicitation().url());
            m.put("elicitation", r);
        }
        putIfPresent(m, "tasks", caps.tasks());
        putIfPresent(m, "extensions", caps.extensions());
        return m;
    }

    private static void putIfPresent(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }
}
