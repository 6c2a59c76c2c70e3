package dev.loommcp;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Tool;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The client's cache of tool definitions, used to validate {@code structuredContent} against each tool's
 * {@code outputSchema} (MCP 2025-06-18+ "Tools: output schema"). Thread-safe.
 *
 * <p>Staleness: {@code notifications/tools/list_changed} bumps a generation counter; the cache is trusted only while
 * it was filled by a complete listing that started in the current generation.
 */
final class ToolCatalog {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");
    /** Loaded on first validation only: the validator's classes cost start-up time a client may never need. */
    private static final class Registry {
        static final SchemaRegistry INSTANCE = SchemaRegistry.withDefaultDialect(
                SpecificationVersion.DRAFT_2020_12, b -> b.schemaLoader(l -> l.fetchRemoteResources(false)));
    }

    private record Entry(Tool tool, Map<String, Object> outputSchema) {
    }

    private final OutputSchemaValidation mode;
    private final AtomicLong generation = new AtomicLong();
    private volatile Map<String, Entry> entries = Map.of();
    private volatile long entriesGeneration = -1;
    private final ConcurrentHashMap<String, Schema> compiled = new ConcurrentHashMap<>();

    ToolCatalog(OutputSchemaValidation mode) {
        this.mode = mode;
    }

    long generation() {
        return generation.get();
    }

    void markStale() {
        generation.incrementAndGet();
    }

    /**
     * Records tools read by a listing that started at {@code startGeneration}. A complete listing replaces the
     * cache; a single page adds to it.
     */
    void merge(List<Map<String, Object>> raw, List<Tool> typed, long startGeneration, boolean complete) {
        Map<String, Entry> next = complete ? new HashMap<>() : new HashMap<>(entries);
        for (int i = 0; i < typed.size(); i++) {
            Tool t = typed.get(i);
            Object schema = i < raw.size() ? raw.get(i).get("outputSchema") : null;
            @SuppressWarnings("unchecked")
            Map<String, Object> s = schema instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
            next.put(t.name(), new Entry(t, s));
        }
        compiled.clear();
        entries = Map.copyOf(next);
        if (complete) {
            entriesGeneration = startGeneration;
        }
    }

    /** Validates a result as the mode says; never for isError results or stale or unknown tools. */
    void validate(String toolName, CallToolResult result) {
        if (mode == OutputSchemaValidation.OFF || result.error()) {
            return;
        }
        if (entriesGeneration != generation.get()) {
            return; // stale or never listed completely
        }
        Entry e = entries.get(toolName);
        if (e == null || e.outputSchema() == null) {
            return;
        }
        String problem;
        if (result.structuredContent() == null) {
            problem = "the tool declares an outputSchema but the result has no structuredContent";
        } else {
            Schema schema;
            try {
                schema = compiled.computeIfAbsent(toolName,
                        n -> Registry.INSTANCE.getSchema(Json.write(e.outputSchema()), InputFormat.JSON));
            } catch (RuntimeException ex) {
                LOG.log(System.Logger.Level.WARNING, () -> "outputSchema of tool '" + toolName
                        + "' cannot be compiled; structuredContent not checked: " + ex.getMessage());
                return;
            }
            List<Error> errors = schema.validate(Json.MAPPER.valueToTree(result.structuredContent()));
            if (errors.isEmpty()) {
                return;
            }
            problem = errors.stream().limit(5)
                    .map(err -> err.getInstanceLocation() + ": " + err.getKeyword())
                    .collect(Collectors.joining("; "))
                    + (errors.size() > 5 ? " (and " + (errors.size() - 5) + " more)" : "");
        }
        String message = "structuredContent of tool '" + toolName + "' does not match its outputSchema: " + problem;
        if (mode == OutputSchemaValidation.FAIL) {
            throw new McpProtocolException(message);
        }
        LOG.log(System.Logger.Level.WARNING, message);
    }
}
