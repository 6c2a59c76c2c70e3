package dev.loommcp.schema;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One block of content in a tool result, a prompt message or a sampling message (MCP 2025-11-25 "ContentBlock"),
 * told apart by its {@code type} property. A block whose {@code type} this version of loom-mcp does not know (or
 * that has no {@code type}) decodes as {@link UnknownContent}, which keeps the whole JSON object and writes it back
 * unchanged, so decoding never fails on a new kind of content.
 *
 * <p>Instances are immutable and thread-safe.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "type",
        visible = true, defaultImpl = UnknownContent.class)
@JsonSubTypes({
        @JsonSubTypes.Type(value = TextContent.class, name = TextContent.TYPE),
        @JsonSubTypes.Type(value = ImageContent.class, name = ImageContent.TYPE),
        @JsonSubTypes.Type(value = AudioContent.class, name = AudioContent.TYPE),
        @JsonSubTypes.Type(value = ResourceLink.class, name = ResourceLink.TYPE),
        @JsonSubTypes.Type(value = EmbeddedResource.class, name = EmbeddedResource.TYPE)
})
public sealed interface ContentBlock
        permits TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource, UnknownContent {

    /**
     * Returns the block's {@code type}: {@code "text"}, {@code "image"}, {@code "audio"}, {@code "resource_link"},
     * {@code "resource"}, or for an {@link UnknownContent} whatever the peer sent (possibly {@code null}).
     *
     * @return the type
     */
    String type();
}
