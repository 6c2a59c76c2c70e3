package dev.loommcp.langchain4j;

import dev.langchain4j.data.message.AudioContent;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.ImageContent;
import dev.langchain4j.data.message.TextContent;
import dev.loommcp.schema.BlobResourceContents;
import dev.loommcp.schema.ContentBlock;
import dev.loommcp.schema.EmbeddedResource;
import dev.loommcp.schema.ResourceContents;
import dev.loommcp.schema.ResourceLink;
import dev.loommcp.schema.TextResourceContents;
import dev.loommcp.schema.UnknownContent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** MCP content blocks to LangChain4j contents and text, and the JSON the adapter reads and writes. */
final class Contents {

    /** Numbers keep every digit both ways (big integers, decimals). */
    static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private Contents() {
    }

    /** The blocks as LangChain4j contents: text, image and audio as such, anything else as a line of text. */
    static List<Content> of(@Nullable List<? extends @Nullable ContentBlock> blocks) {
        List<Content> out = new ArrayList<>();
        if (blocks == null) {
            return out;
        }
        for (ContentBlock block : blocks) {
            if (block instanceof dev.loommcp.schema.ImageContent i && i.data() != null && i.mimeType() != null) {
                out.add(ImageContent.from(i.data(), i.mimeType()));
            } else if (block instanceof dev.loommcp.schema.AudioContent a && a.data() != null
                    && a.mimeType() != null) {
                out.add(AudioContent.from(a.data(), a.mimeType()));
            } else if (block != null) {
                out.add(TextContent.from(text(block)));
            }
        }
        return out;
    }

    /** Whether any block is an image or audio (which text alone cannot carry). */
    static boolean hasMedia(@Nullable List<? extends @Nullable ContentBlock> blocks) {
        return blocks != null && blocks.stream().anyMatch(b -> b instanceof dev.loommcp.schema.ImageContent
                || b instanceof dev.loommcp.schema.AudioContent);
    }

    /** One block as text: its text, an embedded resource's text, or a short description of what it is. */
    static String text(ContentBlock block) {
        return switch (block) {
            case dev.loommcp.schema.TextContent t -> t.text();
            case EmbeddedResource r -> text(r.resource());
            case ResourceLink l -> "[resource " + l.uri() + (l.name() == null ? "" : " (" + l.name() + ")") + "]";
            case dev.loommcp.schema.ImageContent i -> "[image " + i.mimeType() + "]";
            case dev.loommcp.schema.AudioContent a -> "[audio " + a.mimeType() + "]";
            case UnknownContent u -> "[content of type " + u.type() + "]";
        };
    }

    /** A resource's contents as text: its text, or a description of a binary one. */
    static String text(ResourceContents contents) {
        if (contents instanceof TextResourceContents t) {
            return t.text();
        }
        if (contents instanceof BlobResourceContents b) {
            return "[binary resource " + b.uri() + (b.mimeType() == null ? "" : ", " + b.mimeType()) + ", "
                    + b.blob().length() + " base64 characters]";
        }
        return "[resource " + contents.uri() + "]";
    }

    /** The blocks' texts joined by newlines. */
    static String joined(@Nullable List<? extends @Nullable ContentBlock> blocks) {
        List<String> texts = new ArrayList<>();
        if (blocks != null) {
            for (ContentBlock b : blocks) {
                if (b != null) {
                    texts.add(text(b));
                }
            }
        }
        return String.join("\n", texts);
    }

    static String toJson(@Nullable Object value) {
        return JSON.writeValueAsString(value);
    }

    /**
     * Parses tool arguments: blank means none; anything but a JSON object is refused.
     *
     * @throws IllegalArgumentException naming what was wrong (never echoing the arguments)
     */
    @SuppressWarnings("unchecked")
    static Map<String, @Nullable Object> arguments(@Nullable String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        Object parsed;
        try {
            parsed = JSON.readValue(json, Object.class);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the arguments are not valid JSON: " + e.getOriginalMessage());
        }
        if (parsed == null) {
            return Map.of();
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("the arguments must be a JSON object, not a JSON "
                    + (parsed instanceof List ? "array" : parsed instanceof String ? "string" : "scalar"));
        }
        return (Map<String, @Nullable Object>) map;
    }
}
