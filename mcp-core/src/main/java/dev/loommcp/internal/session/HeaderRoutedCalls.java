package dev.loommcp.internal.session;

import dev.loommcp.McpRpcException;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.session.base.Deadlines;
import dev.loommcp.internal.session.tools.ToolCatalog;
import dev.loommcp.Deadline;
import java.util.Map;
import java.util.Set;

/**
 * {@code tools/call} where {@code Mcp-Param-*} headers apply: the modern era on a transport with one exchange per
 * request (MCP 2026-07-28 "Streamable HTTP: custom headers from tool parameters"). The headers come from the tool's
 * {@code x-mcp-header} annotations in the {@link ToolCatalog}, so a tool no listing described is looked up first,
 * and a {@code -32020} mismatch leads to one re-listing and retry. Stateless apart from the catalog; thread-safe.
 */
final class HeaderRoutedCalls {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    /** Sends one request and returns its result. */
    @FunctionalInterface
    interface Call<T> {
        T call(String method, Map<String, Object> params, RequestOptions options) throws InterruptedException;
    }

    private final ToolCatalog tools;
    private final int maxListPages;
    private final Call<Map<String, Object>> list;

    /** @param list one {@code tools/list} request, whatever the era */
    HeaderRoutedCalls(ToolCatalog tools, int maxListPages, Call<Map<String, Object>> list) {
        this.tools = tools;
        this.maxListPages = maxListPages;
        this.list = list;
    }

    /**
     * {@code tools/call} where {@code Mcp-Param-*} headers apply (modern era, an exchange per request; MCP 2026-07-28
     * "Streamable HTTP: custom headers from tool parameters"): a tool no listing described yet is looked up first
     * (its {@code x-mcp-header} annotations decide the headers), and a {@code -32020} header mismatch makes the
     * client list the tools again and retry once, as the spec recommends; all within the call's one deadline.
     *
     * @param path the modern wire path each {@code tools/call} goes through
     */
    Object callTool(String name, Map<String, Object> params, RequestOptions options, Deadline deadline,
                    WirePath path) throws InterruptedException {
        if (!tools.hasRoute(name)) {
            learnToolRoutes(Deadlines.within(options, deadline, "tools/list"));
        }
        try {
            return path.call("tools/call", params, Deadlines.remaining(options, deadline, "tools/call"), null);
        } catch (McpRpcException e) {
            if (e.code() != HEADER_MISMATCH) {
                throw e;
            }
            LOG.log(System.Logger.Level.DEBUG, () -> "tools/call of '" + name + "' refused with -32020; listing "
                    + "the tools again and retrying once");
            learnToolRoutes(Deadlines.within(options, deadline, "tools/list"));
            return path.call("tools/call", params, Deadlines.remaining(options, deadline, "tools/call"), null);
        }
    }

    /** The JSON-RPC code of a header/body mismatch (MCP 2026-07-28 "HeaderMismatch"). */
    private static final int HEADER_MISMATCH = -32020;

    /** Reads every page of {@code tools/list} so that the catalog knows each tool's header annotations. */
    void learnToolRoutes(RequestOptions options) throws InterruptedException {
        String cursor = null;
        Set<String> seen = new java.util.HashSet<>();
        for (int page = 0; page < maxListPages; page++) {
            Map<String, Object> result = list.call("tools/list", cursor == null ? null : Map.of("cursor", cursor),
                    options);
            tools.screen(result, true); // the caller did not ask for a listing: exclusions logged at DEBUG
            if (!(result.get("nextCursor") instanceof String next) || !seen.add(next)) {
                return;
            }
            cursor = next;
        }
    }
}
