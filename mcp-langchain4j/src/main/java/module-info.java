/**
 * loom-mcp for LangChain4j: a {@code ToolProvider} over MCP servers, schema conversion, prompts as chat messages and
 * a {@code ChatModel}-backed sampling handler (see {@link dev.loommcp.langchain4j.LoomToolProvider}). Uses only the
 * public API of the core and of mcp-hosts, LangChain4j's core tool seam, and Jackson for tool arguments. LangChain4j's
 * jars are automatic modules named after their files ({@code langchain4j}, {@code langchain4j.core}).
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.loommcp.langchain4j {
    requires static transitive org.jspecify;
    requires transitive dev.loommcp.core;
    requires transitive dev.loommcp.hosts;
    requires transitive langchain4j.core;
    requires transitive langchain4j;
    requires tools.jackson.databind;

    exports dev.loommcp.langchain4j;
}
