/**
 * The MCP protocol records (schema 2025-11-25 and earlier, and 2026-07-28 where marked), named as in the spec.
 * Free-form JSON (tool arguments, schemas, {@code structuredContent}, {@code _meta}) is held as plain JSON values.
 */
package dev.loommcp.schema;
