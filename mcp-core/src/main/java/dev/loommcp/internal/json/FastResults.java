package dev.loommcp.internal.json;

import dev.loommcp.schema.AudioContent;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.ClientCapabilities;
import dev.loommcp.schema.Implementation;
import dev.loommcp.schema.InitializeResult;
import dev.loommcp.schema.ListChangedCapability;
import dev.loommcp.schema.ResourcesCapability;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.schema.TextContent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the most common results straight from plain JSON values, without a pass through Jackson's data binding
 * (which re-serializes the map and builds each record through a reflective creator). Anything outside the common
 * shape (annotations, resource blocks, unknown types, values of unexpected types) falls back to {@link Json#convert},
 * so the outcome, including errors, is the same as the general path.
 */
public final class FastResults {

    private FastResults() {
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
        if (raw instanceof Map<?, ?> m) {
            CallToolResult fast = tryCallToolResult(m);
            if (fast != null) {
                return fast;
            }
        }
        return Json.convert(raw, CallToolResult.class, what);
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
     * Converts an {@code initialize} result (the handshake must not wait for the data-binding mapper).
     *
     * @param raw  the result as plain JSON values
     * @param what what is converted, for error messages
     * @return the record
     * @throws dev.loommcp.McpProtocolException when the value does not have the record's shape
     */
    public static InitializeResult initializeResult(Object raw, String what) {
        if (raw instanceof Map<?, ?> m) {
            InitializeResult fast = tryInitializeResult(m);
            if (fast != null) {
                return fast;
            }
        }
        return Json.convert(raw, InitializeResult.class, what);
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
