package dev.loommcp.internal.session.tools;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.loommcp.McpProtocolException;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CallToolResult;
import dev.loommcp.schema.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The client's cache of tool definitions, used to validate {@code structuredContent} against each tool's
 * {@code outputSchema} (MCP 2025-06-18+ "Tools: output schema"). Thread-safe.
 *
 * <p>Staleness: {@code notifications/tools/list_changed} and a session restart bump a generation counter; the cache is
 * trusted only while it was filled by a complete listing that started in the current generation. Each definition
 * carries its own compiled schema, so a compiled schema never outlives (nor outruns) the definition it came from:
 * a validation still holding an old definition while a new listing is published can never put the old schema in
 * the new one's place.
 *
 * <p>Header routing (MCP 2026-07-28 "Streamable HTTP: custom headers from tool parameters"): every listing page passes
 * through {@link #screen}, which reads each tool's {@code x-mcp-header} annotations ({@link ParameterHeaders}) and,
 * while header routing applies (the modern era on a transport with an exchange per request), drops the tools whose
 * annotations are invalid from what the caller sees, with a WARNING naming the tool and the reason.
 * {@link #parameterHeaders} then gives a call's {@code Mcp-Param-*} values, and refuses a dropped tool.
 */
public final class ToolCatalog {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");
    /** Loaded on first validation only: the validator's classes cost start-up time a client may never need. */
    private static final class Registry {
        static final SchemaRegistry INSTANCE = SchemaRegistry.withDefaultDialect(
                SpecificationVersion.DRAFT_2020_12, b -> b.schemaLoader(l -> l.fetchRemoteResources(false)));
    }

    /** One tool definition and, once a validation needed it, the schema compiled from its outputSchema. */
    private static final class Entry {
        final Map<String, Object> outputSchema;
        /** The tool's {@code annotations.idempotentHint} was {@code true}. */
        final boolean idempotent;
        /** The tool as the listing described it. */
        final Tool tool;
        private volatile Schema compiled;

        Entry(Map<String, Object> outputSchema, boolean idempotent, Tool tool) {
            this.outputSchema = outputSchema;
            this.idempotent = idempotent;
            this.tool = tool;
        }

        /** The schema cannot be used (it does not compile, or checking with it failed): results go unchecked. */
        private volatile boolean unusable;

        /** Compiles at most a few times (racing validations may each compile; any result is this entry's). */
        Schema schema() {
            Schema s = compiled;
            if (s == null) {
                s = Registry.INSTANCE.getSchema(Json.write(outputSchema), InputFormat.JSON);
                compiled = s;
            }
            return s;
        }

        /**
         * Checks a value against the schema: its errors, or {@code null} when the schema cannot be used. The validator
         * resolves {@code $ref} lazily, so a reference it cannot resolve fails on the first check, not at compile
         * time, and a cycle ({@code {"$ref":"#"}}) recurses until the stack overflows: both make the schema unusable
         * for this listing, logged once, instead of failing the call.
         */
        List<Error> check(String toolName, Object value) {
            if (unusable) {
                return null;
            }
            try {
                return schema().validate(Json.mapper().valueToTree(value));
            } catch (RuntimeException | StackOverflowError ex) {
                String why = ex instanceof StackOverflowError ? "its references never end (a $ref cycle)"
                        : ex.getClass().getSimpleName() + (ex.getMessage() == null ? "" : ": " + ex.getMessage());
                unusable = true;
                LOG.log(System.Logger.Level.WARNING, () -> "outputSchema of tool '" + toolName
                        + "' cannot be used; structuredContent not checked: " + why);
                return null;
            }
        }
    }

    /** The definitions and the generation their complete listing started in (-1: never listed completely). */
    private record Snapshot(Map<String, Entry> entries, long generation) {
    }

    private final OutputSchemaValidation mode;
    private final BooleanSupplier headerRouting;
    /** Each listed tool's x-mcp-header annotations, by name, from the latest listing that described it. */
    private final ConcurrentHashMap<String, ParameterHeaders> routes = new ConcurrentHashMap<>();
    /** Each listed tool's {@code execution.taskSupport} (2025-11-25), by name; {@code "forbidden"} when absent. */
    private final ConcurrentHashMap<String, String> taskSupport = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    private final AtomicReference<Snapshot> snapshot = new AtomicReference<>(new Snapshot(Map.of(), -1));

    /**
     * Creates an empty catalog.
     *
     * @param mode what a failed validation does
     */
    public ToolCatalog(OutputSchemaValidation mode) {
        this(mode, () -> false);
    }

    /**
     * Creates an empty catalog.
     *
     * @param mode          what a failed validation does
     * @param headerRouting whether header routing applies right now (the modern era on a transport with an exchange
     *                      per request): then listings drop tools with invalid {@code x-mcp-header} annotations
     */
    public ToolCatalog(OutputSchemaValidation mode, BooleanSupplier headerRouting) {
        this.mode = mode;
        this.headerRouting = java.util.Objects.requireNonNull(headerRouting, "headerRouting");
    }

    /**
     * Screens one {@code tools/list} result before it is decoded: records each tool's {@code x-mcp-header}
     * annotations and, while header routing applies, returns a copy without the tools whose annotations are invalid
     * (MCP 2026-07-28: a client on Streamable HTTP MUST exclude them from the result of {@code tools/list}), logging
     * a WARNING naming each such tool and the reason (once per tool and reason; never an argument value). Items
     * that are not objects with a string {@code name}, and results without a {@code tools} array, pass unchanged.
     *
     * @param result the result object as received
     * @return the result, or a copy with the invalid tools removed
     */
    public Map<String, Object> screen(Map<String, Object> result) {
        return screen(result, false);
    }

    /**
     * As {@link #screen(Map)}; {@code quiet} logs exclusions at DEBUG instead of WARNING (a listing the client made
     * on its own to learn a tool's header annotations before a {@code tools/call}, which would otherwise repeat the
     * warning about unrelated tools on every call of a short-lived client).
     *
     * @param result the result object as received
     * @param quiet  whether exclusions are logged at DEBUG
     * @return the result, or a copy with the invalid tools removed
     */
    public Map<String, Object> screen(Map<String, Object> result, boolean quiet) {
        if (result == null || !(result.get("tools") instanceof List<?> items)) {
            return result;
        }
        boolean routing = headerRouting.getAsBoolean();
        List<Object> kept = new ArrayList<>(items.size());
        for (Object item : items) {
            if (item instanceof Map<?, ?> tool && tool.get("name") instanceof String name) {
                ParameterHeaders headers = ParameterHeaders.of(tool.get("inputSchema"));
                ParameterHeaders before = routes.put(name, headers);
                taskSupport.put(name, tool.get("execution") instanceof Map<?, ?> execution
                        && execution.get("taskSupport") instanceof String ts ? ts : "forbidden");
                if (!headers.isValid()) {
                    if (routing) {
                        if (before == null || !headers.problem().equals(before.problem())) {
                            LOG.log(quiet ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING,
                                    "tool ''{0}'' excluded from tools/list: {1}",
                                    ParameterHeaders.printable(name), headers.problem());
                        }
                        continue;
                    }
                }
            }
            kept.add(item);
        }
        if (kept.size() == items.size()) {
            return result;
        }
        Map<String, Object> copy = new LinkedHashMap<>(result);
        copy.put("tools", java.util.Collections.unmodifiableList(kept));
        return java.util.Collections.unmodifiableMap(copy);
    }

    /**
     * Returns the current generation; a listing records it when it starts.
     *
     * @return the generation
     */
    public long generation() {
        return generation.get();
    }

    /** The cached definitions may be outdated (the tool list changed, or the session was replaced). */
    public void markStale() {
        generation.incrementAndGet();
    }

    /**
     * Records tools read by a listing that started at {@code startGeneration}. A complete listing replaces the
     * cache unless a listing that started later already did; a single page adds to a cache of its own generation
     * only (a page of an older generation would bring back outdated definitions).
     */
    public void merge(List<Map<String, Object>> raw, List<Tool> typed, long startGeneration, boolean complete) {
        Map<String, Entry> page = new HashMap<>();
        for (int i = 0; i < typed.size(); i++) {
            Object schema = i < raw.size() ? raw.get(i).get("outputSchema") : null;
            @SuppressWarnings("unchecked")
            Map<String, Object> s = schema instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
            Tool t = typed.get(i);
            boolean idempotent = t.annotations() != null && Boolean.TRUE.equals(t.annotations().idempotentHint());
            page.put(t.name(), new Entry(s, idempotent, t));
        }
        snapshot.updateAndGet(current -> {
            if (complete) {
                return startGeneration >= current.generation() ? new Snapshot(Map.copyOf(page), startGeneration)
                        : current;
            }
            if (startGeneration != current.generation()) {
                return current;
            }
            Map<String, Entry> next = new HashMap<>(current.entries());
            next.putAll(page);
            return new Snapshot(Map.copyOf(next), current.generation());
        });
    }

    /**
     * Returns whether the last listing that described {@code toolName} said {@code idempotentHint: true}, even when
     * the listing is stale (the hint is what the server promised when the call was made).
     *
     * @param toolName the tool
     * @return {@code true} when the tool is known and declared idempotent
     */
    public boolean isIdempotent(String toolName) {
        Entry e = snapshot.get().entries().get(toolName);
        return e != null && e.idempotent;
    }

    /**
     * Returns the definition of {@code toolName} from the last listing that described it (even a stale one).
     *
     * @param toolName the tool
     * @return the tool, or empty when no listing described it
     */
    public java.util.Optional<Tool> tool(String toolName) {
        Entry e = snapshot.get().entries().get(toolName);
        return e == null ? java.util.Optional.empty() : java.util.Optional.of(e.tool);
    }

    /** Validates a result as the mode says; never for isError results or stale or unknown tools. */
    public void validate(String toolName, CallToolResult result) {
        if (mode == OutputSchemaValidation.OFF || result.error()) {
            return;
        }
        Snapshot current = snapshot.get();
        if (current.generation() != generation.get()) {
            return; // stale or never listed completely
        }
        Entry e = current.entries().get(toolName);
        if (e == null || e.outputSchema == null) {
            return;
        }
        String problem;
        if (result.structuredContent() == null) {
            problem = "the tool declares an outputSchema but the result has no structuredContent";
        } else {
            List<Error> errors = e.check(toolName, result.structuredContent());
            if (errors == null || errors.isEmpty()) {
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

    /**
     * Returns whether a listing described the tool, so that its {@code x-mcp-header} annotations are known.
     *
     * @param toolName the tool
     * @return {@code true} once a {@code tools/list} result naming it was screened
     */
    public boolean hasRoute(String toolName) {
        return routes.containsKey(toolName);
    }

    /**
     * Returns the tool's {@code execution.taskSupport} (MCP 2025-11-25 "Tool-Level Negotiation") as the latest
     * listing that described it said.
     *
     * @param toolName the tool
     * @return {@code "required"}, {@code "optional"}, {@code "forbidden"} (also when absent) or another string the
     *         server sent; {@code null} when no listing described the tool
     */
    public String taskSupport(String toolName) {
        return taskSupport.get(java.util.Objects.requireNonNull(toolName, "toolName"));
    }

    /**
     * Records that a listing made to learn the tool's {@code execution.taskSupport} did not describe it: until a
     * listing does, it counts as {@code "forbidden"} (so that calling it does not list the tools again each time).
     *
     * @param toolName the tool
     */
    public void notListed(String toolName) {
        taskSupport.putIfAbsent(java.util.Objects.requireNonNull(toolName, "toolName"), "forbidden");
    }

    /**
     * Returns the {@code Mcp-Param-*} values of a {@code tools/call}: each argument the tool's {@code x-mcp-header}
     * annotations designate, by header suffix (a string as is, an integer in decimal, a boolean as
     * {@code true}/{@code false}; absent and {@code null} arguments omitted, unannotated ones never included). A
     * tool no listing described yet designates nothing. Used when header routing applies.
     *
     * @param toolName  the tool
     * @param arguments the call's arguments, or {@code null}
     * @return the values, raw and unencoded, in schema order; unmodifiable
     * @throws McpProtocolException     if the latest listing that described the tool had invalid
     *                                  {@code x-mcp-header} annotations (the tool was excluded from the listing and
     *                                  is never called over Streamable HTTP); the message names the tool and reason
     * @throws IllegalArgumentException if a designated argument is an object, an array, a fractional number or an
     *                                  integer outside +-(2^53 - 1) (the message names the argument, never its value)
     */
    public Map<String, String> parameterHeaders(String toolName, Map<String, Object> arguments) {
        ParameterHeaders headers = routes.get(java.util.Objects.requireNonNull(toolName, "toolName"));
        if (headers == null) {
            return Map.of();
        }
        if (!headers.isValid()) {
            throw new McpProtocolException("tool '" + ParameterHeaders.printable(toolName) + "' cannot be called over "
                    + "Streamable HTTP: its x-mcp-header annotations are invalid (" + headers.problem()
                    + "), so it was excluded from tools/list");
        }
        try {
            return headers.extract(arguments);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tool '" + ParameterHeaders.printable(toolName) + "': "
                    + e.getMessage(), e);
        }
    }
}
