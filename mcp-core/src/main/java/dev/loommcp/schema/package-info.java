/**
 * The MCP protocol records (schema 2025-11-25 and earlier, and 2026-07-28 where marked), named as in the spec.
 * Free-form JSON (tool arguments, schemas, {@code structuredContent}, {@code _meta}) is held as plain JSON values.
 *
 * <p>Conventions shared by every type here:
 * <ul>
 *   <li>Records are immutable and thread-safe. Lists and maps given to a constructor are copied shallowly into
 *       unmodifiable collections (order and JSON {@code null} values inside free-form JSON are kept); nested
 *       plain-JSON values are not copied deeply.</li>
 *   <li>A {@code null} component means the property is absent, and absent properties are not written. Required
 *       identifiers ({@code Tool.name}, {@code Resource.uri}, {@code TextContent.text}, ...) are checked by the
 *       constructor; other fields the spec requires are kept {@code null} when a peer omits them, so the caller can
 *       name what is missing.</li>
 *   <li>Unknown JSON properties are ignored when reading. A content block of an unknown {@code type} is kept whole
 *       as {@link dev.loommcp.schema.UnknownContent} and written back unchanged.</li>
 *   <li>{@code _meta} is the component {@code meta}, a plain JSON object; unknown keys pass through.</li>
 *   <li>The only Jackson types here are the {@code com.fasterxml.jackson.annotation} annotations that drive the
 *       mapping; no Jackson type appears in a signature.</li>
 * </ul>
 *
 * <h2>Nullness</h2>
 * This package is {@link org.jspecify.annotations.NullMarked @NullMarked}: a type in a signature excludes
 * {@code null} unless it is written {@link org.jspecify.annotations.Nullable @Nullable}. One rule for records and
 * accessors in every loom-mcp package: a record component that may be absent (a JSON member a peer may leave out, a
 * setting not given) is a {@code @Nullable} component, never an {@code Optional}; a method that looks something up,
 * or reads an option or a state that may be unset, returns {@link java.util.Optional}; a collection is empty, never
 * {@code null}, unless it mirrors a JSON member that may be absent; a map of free-form JSON is
 * {@code Map<String, @Nullable Object>}, since JSON {@code null} is a value. A parameter is {@code @Nullable} only
 * where {@code null} means "none" or "the default", as its documentation says.
 */
@NullMarked
package dev.loommcp.schema;

import org.jspecify.annotations.NullMarked;
