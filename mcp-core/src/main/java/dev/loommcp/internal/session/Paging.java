package dev.loommcp.internal.session;

import dev.loommcp.McpProtocolException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.FastResults;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.json.JsonRpcCodec;
import dev.loommcp.internal.json.ListEntries;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.Tool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import dev.loommcp.McpClient;

/**
 * Complete listings over paged {@code .../list} methods (MCP "Pagination"): follows {@code nextCursor} until it is
 * absent, stopping with {@link McpProtocolException} at a repeated cursor or beyond the page cap. Also the checks
 * and conversions every page needs. Stateless apart from its source and cap; thread-safe.
 */
public final class Paging {

    /** Sends one list request and returns its result object. */
    @FunctionalInterface
    public interface PageSource {
        /**
         * Reads one page.
         *
         * @param method  the list method
         * @param params  the params ({@code cursor}), or {@code null}
         * @param options the call's options
         * @return the result object
         * @throws InterruptedException if the calling thread is interrupted
         */
        Map<String, Object> request(String method, Map<String, Object> params, RequestOptions options)
                throws InterruptedException;
    }

    /** Receives each page's result object in order. */
    @FunctionalInterface
    public interface PageConsumer {
        /**
         * Takes one page.
         *
         * @param result the page's result object
         */
        void accept(Map<String, Object> result);
    }

    private final PageSource source;
    private final int maxPages;
    private final ResultCache cache;

    /**
     * Creates the helper without a cache.
     *
     * @param source   reads a page
     * @param maxPages the most pages one listing reads
     */
    public Paging(PageSource source, int maxPages) {
        this(source, maxPages, null);
    }

    /**
     * Creates the helper.
     *
     * @param source   reads a page
     * @param maxPages the most pages one listing reads
     * @param cache    where complete listings with caching hints are kept (modern era), or {@code null}
     */
    public Paging(PageSource source, int maxPages, ResultCache cache) {
        this.source = source;
        this.maxPages = maxPages;
        this.cache = cache;
    }

    /**
     * Reads one page.
     *
     * @param method  the list method
     * @param cursor  the cursor, or {@code null} for the first page
     * @param options the call's options
     * @return the result object
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Map<String, Object> page(String method, String cursor, RequestOptions options)
            throws InterruptedException {
        return source.request(method, cursorParams(cursor), options);
    }

    /**
     * Reads every page of a listing, in order. A complete listing whose every page carried a positive
     * {@code ttlMs} (modern era) is kept in the cache and answers the next complete listing while fresh, unless the
     * call sets {@code _meta}.
     *
     * @param method   the list method
     * @param options  the options of each page's call
     * @param consumer takes each page
     * @throws McpProtocolException if a cursor repeats, {@code nextCursor} is not a string or there are too many pages
     * @throws InterruptedException if the calling thread is interrupted
     */
    public void forEachPage(String method, RequestOptions options, PageConsumer consumer)
            throws InterruptedException {
        ResultCache c = options.meta().isEmpty() ? cache : null;
        long generation = c == null ? 0 : c.generation();
        List<Map<String, Object>> cached = c == null ? null : c.pages(method);
        if (cached != null) {
            for (Map<String, Object> page : cached) {
                consumer.accept(page);
            }
            return;
        }
        List<Map<String, Object>> pages = c == null ? null : new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String cursor = null;
        for (int page = 1; ; page++) {
            if (page > maxPages) {
                throw new McpProtocolException(method + ": more than " + maxPages
                        + " pages; stopped (raise McpClient.Builder.maxListPages if the server really has that many)");
            }
            Map<String, Object> result = source.request(method, cursorParams(cursor), options);
            consumer.accept(result);
            if (pages != null) {
                pages.add(result);
            }
            Object next = result.get("nextCursor");
            if (next == null) {
                if (pages != null) {
                    c.putPages(method, pages, generation);
                }
                return;
            }
            if (!(next instanceof String s)) {
                throw new McpProtocolException(method + ": nextCursor is not a string");
            }
            if (!seen.add(s)) {
                throw new McpProtocolException(method + ": the server repeated a cursor on page " + page
                        + " (the nextCursor of an earlier page); stopped to avoid a loop");
            }
            cursor = s;
        }
    }

    /**
     * Reads every page of a listing and returns its items, decoded.
     *
     * @param method  the list method
     * @param key     the key of the items' array
     * @param type     the type of a page's result (its envelope is checked)
     * @param itemType the type of an item; a malformed item is left out with a WARNING ({@link ListEntries})
     * @param options the options of each page's call
     * @param <R>     the page's result type
     * @param <T>     the item type
     * @return the items in server order
     * @throws McpProtocolException if a page's envelope is malformed (no array, a bad {@code nextCursor}), a cursor
     *                              repeats or there are too many pages
     * @throws InterruptedException if the calling thread is interrupted
     */
    public <R, T> List<T> all(String method, String key, Class<R> type, Class<T> itemType,
                              RequestOptions options) throws InterruptedException {
        List<T> all = new ArrayList<>();
        forEachPage(method, options, r -> {
            ListEntries.Decoded<T> page = ListEntries.decode(r, method, key, itemType);
            Json.convert(ListEntries.envelope(r, key), type, method + " result"); // nextCursor and _meta checked
            all.addAll(page.items());
        });
        return all;
    }

    /** Builds a page's result record from its well-formed entries and its envelope (decoded without them). */
    @FunctionalInterface
    public interface PageAssembler<R, T> {
        /**
         * Builds the record.
         *
         * @param items    the well-formed entries, in server order
         * @param envelope the result decoded with an empty array (for {@code nextCursor} and {@code _meta})
         * @return the record
         */
        R assemble(List<T> items, R envelope);
    }

    /**
     * Reads one page of a listing and decodes it: a malformed entry is left out with a WARNING
     * ({@link ListEntries}), the others kept. A page without the array decodes as before (the record's list is
     * {@code null}).
     *
     * @param method   the list method
     * @param key      the key of the entries' array
     * @param cursor   the cursor, or {@code null} for the first page
     * @param options  the call's options
     * @param type     the page's result type
     * @param itemType the entry type
     * @param assemble builds the record from the entries and the envelope
     * @param <R>      the page's result type
     * @param <T>      the entry type
     * @return the page
     * @throws McpProtocolException if the envelope is malformed (the array is not an array, a bad
     *                              {@code nextCursor} or {@code _meta})
     * @throws InterruptedException if the calling thread is interrupted
     */
    public <R, T> R onePage(String method, String key, String cursor, RequestOptions options, Class<R> type,
                            Class<T> itemType, PageAssembler<R, T> assemble) throws InterruptedException {
        Map<String, Object> result = page(method, cursor, options);
        if (result.get(key) == null) {
            return Json.convert(result, type, method + " result");
        }
        ListEntries.Decoded<T> page = ListEntries.decode(result, method, key, itemType);
        return assemble.assemble(page.items(), Json.convert(ListEntries.envelope(result, key), type,
                method + " result"));
    }

    /**
     * Reads one page of {@code tools/list} and merges its tools into the catalog.
     *
     * @param catalog the tool definitions used to validate results
     * @param cursor  the cursor, or {@code null} for the first page
     * @param options the call's options
     * @return the page
     * @throws InterruptedException if the calling thread is interrupted
     */
    public ListToolsResult toolsPage(ToolCatalog catalog, String cursor, RequestOptions options)
            throws InterruptedException {
        long generation = catalog.generation();
        ListEntries.Decoded<Tool> tools = tools(catalog.screen(page("tools/list", cursor, options)));
        ListToolsResult envelope = FastResults.listToolsResult(ListEntries.envelope(tools.result(), "tools"),
                "tools/list result");
        catalog.merge(rawItems(tools.result(), "tools"), tools.items(), generation, false);
        return new ListToolsResult(tools.items(), envelope.nextCursor(), envelope.meta());
    }

    /**
     * Reads every page of {@code tools/list}, replaces the catalog's definitions with them, and returns a handle per
     * tool.
     *
     * @param catalog the tool definitions used to validate results
     * @param options the options of each page's call
     * @param handle  makes a handle from a tool and its definition as received
     * @param <H>     the handle type
     * @return the handles in server order
     * @throws InterruptedException if the calling thread is interrupted
     */
    public <H> List<H> allTools(ToolCatalog catalog, RequestOptions options,
                                BiFunction<Tool, Map<String, Object>, H> handle) throws InterruptedException {
        long generation = catalog.generation();
        List<Map<String, Object>> raws = new ArrayList<>();
        List<Tool> typed = new ArrayList<>();
        forEachPage("tools/list", options, received -> {
            // screen drops tools with invalid x-mcp-header (modern HTTP); malformed entries are left out after it
            ListEntries.Decoded<Tool> tools = tools(catalog.screen(received));
            FastResults.listToolsResult(ListEntries.envelope(tools.result(), "tools"), "tools/list result");
            raws.addAll(rawItems(tools.result(), "tools"));
            typed.addAll(tools.items());
        });
        catalog.merge(raws, typed, generation, true);
        List<H> handles = new ArrayList<>(typed.size());
        for (int i = 0; i < typed.size(); i++) {
            handles.add(handle.apply(typed.get(i), raws.get(i)));
        }
        return handles;
    }

    /** The well-formed tools of one tools/list result (a malformed one is left out with a WARNING). */
    private static ListEntries.Decoded<Tool> tools(Map<String, Object> result) {
        return ListEntries.decode(result, "tools/list", "tools", FastResults::tool);
    }

    /**
     * Returns the items of a list result as deeply unmodifiable copies (handles and the tool catalog share them).
     *
     * @param result the result object
     * @param key    the array's key
     * @return the object items, in order
     */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> rawItems(Map<String, Object> result, String key) {
        Object items = result.get(key);
        List<Map<String, Object>> out = new ArrayList<>();
        if (items instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> m) {
                    out.add((Map<String, Object>) Json.deepUnmodifiable(m));
                }
            }
        }
        return out;
    }

    private static Map<String, Object> cursorParams(String cursor) {
        return cursor == null ? null : Map.of("cursor", cursor);
    }
}
