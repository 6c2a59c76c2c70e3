package dev.loommcp.internal.json;

import dev.loommcp.schema.AudioContent;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.ImageContent;
import dev.loommcp.schema.TextContent;
import java.util.ArrayList;
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
}
