package dev.loommcp.schema;

import dev.loommcp.McpProtocolException;
import dev.loommcp.internal.json.plain.Binding;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code content} of sampling messages and results: one block or (2025-11-25) an array of blocks, held as plain
 * JSON.
 */
final class SamplingContent {

    private SamplingContent() {
    }

    /** Returns content as plain JSON: content block records are written out, objects and arrays copied. */
    @SuppressWarnings("unchecked")
    static Object plain(Object content) {
        if (content instanceof ContentBlock block) {
            return Binding.toPlain(block);
        }
        if (content instanceof Map<?, ?> map) {
            return Copies.map((Map<String, @Nullable Object>) map);
        }
        if (content instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            for (Object o : list) {
                out.add(o instanceof ContentBlock block ? Binding.toPlain(block) : o);
            }
            return Collections.unmodifiableList(out);
        }
        return content;
    }

    /** Decodes content into blocks; blocks of other types (tool_use, tool_result) become {@link UnknownContent}. */
    static List<ContentBlock> blocks(Object content, String what) {
        if (content == null) {
            return List.of();
        }
        if (content instanceof Map<?, ?> map) {
            return List.of(Conversions.convert(map, ContentBlock.class, what));
        }
        if (content instanceof List<?> list) {
            List<ContentBlock> out = new ArrayList<>(list.size());
            for (Object o : list) {
                if (!(o instanceof Map<?, ?>)) {
                    throw new McpProtocolException("malformed " + what + ": an array element is not a JSON object");
                }
                out.add(Conversions.convert(o, ContentBlock.class, what));
            }
            return List.copyOf(out);
        }
        throw new McpProtocolException("malformed " + what + ": neither a JSON object nor an array");
    }
}
