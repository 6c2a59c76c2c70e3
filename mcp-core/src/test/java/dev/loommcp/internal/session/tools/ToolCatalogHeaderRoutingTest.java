package dev.loommcp.internal.session.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.McpProtocolException;
import dev.loommcp.config.OutputSchemaValidation;
import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.internal.session.Paging;
import dev.loommcp.schema.ListToolsResult;
import dev.loommcp.schema.Tool;
import dev.loommcp.testing.LogCapture;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tool catalog's x-mcp-header hooks: listings drop tools with invalid annotations while header routing applies
 * (modern era, exchange per request), with a WARNING naming tool and reason; {@code parameterHeaders} gives a call's
 * values and refuses a dropped tool (MCP 2026-07-28 "Streamable HTTP: custom headers from tool parameters").
 */
class ToolCatalogHeaderRoutingTest {

    @RegisterExtension
    final LogCapture logs = new LogCapture("dev.loommcp.client");

    /** A tools/list result shaped like the conformance scenario http-invalid-tool-headers (a few of its tools). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> listing(String cursor) {
        String next = cursor == null ? "" : ",\"nextCursor\":\"" + cursor + "\"";
        return (Map<String, Object>) Json.deepUnmodifiable(Json.read("""
                {"resultType":"complete","tools":[
                 {"name":"valid_tool","inputSchema":{"type":"object","properties":{
                    "region":{"type":"string","x-mcp-header":"Region"},"n":{"type":"integer","x-mcp-header":"N"}}}},
                 {"name":"invalid_number_header","inputSchema":{"type":"object","properties":{
                    "score":{"type":"number","x-mcp-header":"Score"}}}},
                 {"name":"plain","inputSchema":{"type":"object"}},
                 {"name":"invalid_duplicate_diff_case","inputSchema":{"type":"object","properties":{
                    "a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}}
                ]%s}""".formatted(next)));
    }

    @Test
    void whileRoutingAppliesInvalidToolsAreDroppedWithOneWarningEach() {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.WARN, () -> true);
        Map<String, Object> screened = catalog.screen(listing(null));
        assertThat(names(screened)).containsExactly("valid_tool", "plain");
        assertThat(screened).containsEntry("resultType", "complete");
        assertThat(logs.warnings()).hasSize(2);
        assertThat(logs.warnings().get(0).message()).contains("invalid_number_header").contains("number");
        assertThat(logs.warnings().get(1).message()).contains("invalid_duplicate_diff_case")
                .contains("case-insensitively");
        catalog.screen(listing(null)); // the same verdicts again: no new warning
        assertThat(logs.warnings()).hasSize(2);
    }

    @Test
    void withoutRoutingTheListingIsUntouchedButTheVerdictsAreKept() {
        AtomicBoolean routing = new AtomicBoolean(false);
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.WARN, routing::get);
        Map<String, Object> original = listing(null);
        assertThat(catalog.screen(original)).isSameAs(original);
        assertThat(logs.warnings()).isEmpty();
        assertThat(new ToolCatalog(OutputSchemaValidation.WARN).screen(original)).isSameAs(original);
        routing.set(true);
        assertThat(names(catalog.screen(original))).containsExactly("valid_tool", "plain");
    }

    @Test
    void parameterHeadersMirrorsDesignatedArgumentsAndRefusesADroppedTool() {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.WARN, () -> true);
        assertThat(catalog.parameterHeaders("valid_tool", Map.of("region", "x"))).isEmpty(); // never listed yet
        catalog.screen(listing(null));
        assertThat(catalog.parameterHeaders("valid_tool", Map.of("region", "us-west1", "n", 42, "other", "o")))
                .containsExactly(Map.entry("Region", "us-west1"), Map.entry("N", "42"));
        assertThat(catalog.parameterHeaders("valid_tool", null)).isEmpty();
        assertThat(catalog.parameterHeaders("plain", Map.of("region", "x"))).isEmpty();
        assertThat(catalog.parameterHeaders("unknown", Map.of("region", "x"))).isEmpty();
        assertThatThrownBy(() -> catalog.parameterHeaders("invalid_number_header", Map.of("score", 1.5)))
                .isInstanceOf(McpProtocolException.class)
                .hasMessageContaining("'invalid_number_header'")
                .hasMessageContaining("excluded from tools/list")
                .hasMessageNotContaining("1.5");
        assertThatThrownBy(() -> catalog.parameterHeaders("valid_tool", Map.of("n", 1L << 53)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'valid_tool'")
                .hasMessageContaining("'n'");
    }

    @Test
    void aToolFixedInALaterListingBecomesCallable() {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.WARN, () -> true);
        catalog.screen(listing(null));
        @SuppressWarnings("unchecked")
        Map<String, Object> fixed = (Map<String, Object>) Json.read("""
                {"tools":[{"name":"invalid_number_header","inputSchema":{"type":"object","properties":{
                  "score":{"type":"integer","x-mcp-header":"Score"}}}}]}""");
        assertThat(names(catalog.screen(fixed))).containsExactly("invalid_number_header");
        assertThat(catalog.parameterHeaders("invalid_number_header", Map.of("score", 3))).containsEntry("Score", "3");
    }

    @Test
    void pagingDropsInvalidToolsFromPagesAndCompleteListings() throws Exception {
        ToolCatalog catalog = new ToolCatalog(OutputSchemaValidation.WARN, () -> true);
        List<String> cursors = new ArrayList<>();
        Paging paging = new Paging((method, params, options) -> {
            String cursor = params == null ? null : (String) params.get("cursor");
            cursors.add(cursor);
            return listing(cursor == null ? "p2" : null);
        }, 10);
        ListToolsResult page = paging.toolsPage(catalog, null, RequestOptions.DEFAULT);
        assertThat(page.tools()).extracting(Tool::name).containsExactly("valid_tool", "plain");
        List<String> all = paging.allTools(catalog, RequestOptions.DEFAULT, (tool, raw) -> tool.name());
        assertThat(all).containsExactly("valid_tool", "plain", "valid_tool", "plain");
        assertThat(cursors).containsExactly(null, null, "p2");
    }

    @SuppressWarnings("unchecked")
    private static List<String> names(Map<String, Object> result) {
        return ((List<Map<String, Object>>) result.get("tools")).stream().map(t -> (String) t.get("name")).toList();
    }
}
