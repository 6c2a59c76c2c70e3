package dev.loommcp.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.exception.ToolArgumentsException;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.loommcp.McpException;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.ReadResourceResult;
import dev.loommcp.schema.Resource;
import dev.loommcp.schema.ResourceContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** The two resource tools of {@link LoomToolProvider.Builder#resourcesAsTools(boolean)}. Thread-safe. */
final class ResourceTools {

    private ResourceTools() {
    }

    /** Reads the shared {@code execute} entry point as {@code executeWithContext}'s text. */
    private abstract static class TextTool implements ToolExecutor {
        final ToolSource source;
        final RequestOptions options;

        TextTool(ToolSource source, RequestOptions options) {
            this.source = source;
            this.options = options;
        }

        abstract String run(Map<String, @Nullable Object> arguments) throws InterruptedException, UnknownServer;

        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request,
                                                      @Nullable InvocationContext context) {
            Map<String, @Nullable Object> arguments = LoomToolExecutor.arguments(request, request.name());
            try {
                return ToolExecutionResult.builder().resultText(run(arguments)).build();
            } catch (UnknownServer e) {
                // like LoomToolProvider.unknownTool: a name the model made up is an answer it can act on
                return ToolExecutionResult.builder().isError(true).resultText(e.getMessage()).build();
            } catch (InterruptedException e) {
                throw LoomToolExecutor.interrupted(request.name());
            }
        }

        @Override
        public String execute(ToolExecutionRequest request, @Nullable Object memoryId) {
            return executeWithContext(request, null).resultText();
        }

        String server(Map<String, @Nullable Object> arguments, boolean required) throws UnknownServer {
            Object server = arguments.get("server");
            if (server == null && !required) {
                return "";
            }
            if (!(server instanceof String s) || !source.servers().contains(s)) {
                throw new UnknownServer("unknown MCP server " + (server == null ? "(none given)"
                        : "'" + server + "'") + "; the servers are: " + String.join(", ", source.servers()));
            }
            return s;
        }
    }

    /** A server argument that names no server: an error result for the model, not an aborted AI service call. */
    private static final class UnknownServer extends Exception {
        private static final long serialVersionUID = 1L;

        UnknownServer(String message) {
            super(message, null, false, false);
        }
    }

    /** {@value LoomToolProvider#LIST_RESOURCES}: one block per server, one line per resource. */
    static final class Lister extends TextTool {
        Lister(ToolSource source, RequestOptions options) {
            super(source, options);
        }

        @Override
        String run(Map<String, @Nullable Object> arguments) throws InterruptedException, UnknownServer {
            String only = server(arguments, false);
            List<String> lines = new ArrayList<>();
            for (String server : only.isEmpty() ? source.servers() : List.of(only)) {
                try {
                    List<Resource> resources = source.resources(server, options);
                    lines.add("server " + server + ": " + resources.size() + " resource(s)");
                    for (Resource r : resources) {
                        lines.add("- " + r.uri() + (r.name() == null ? "" : " (" + r.name() + ")")
                                + (r.mimeType() == null ? "" : " [" + r.mimeType() + "]")
                                + (r.description() == null ? "" : ": " + r.description()));
                    }
                } catch (McpException e) {
                    lines.add("server " + server + ": resources unavailable: " + e.getMessage());
                }
            }
            return String.join("\n", lines);
        }
    }

    /** {@value LoomToolProvider#READ_RESOURCE}: the contents' texts (binary ones described). */
    static final class Reader extends TextTool {
        Reader(ToolSource source, RequestOptions options) {
            super(source, options);
        }

        @Override
        String run(Map<String, @Nullable Object> arguments) throws InterruptedException, UnknownServer {
            String server = server(arguments, true);
            if (!(arguments.get("uri") instanceof String uri) || uri.isBlank()) {
                throw new ToolArgumentsException(LoomToolProvider.READ_RESOURCE + " needs a uri (a string)");
            }
            ReadResourceResult result = source.read(server, uri, options);
            List<String> texts = new ArrayList<>();
            if (result.contents() != null) {
                for (ResourceContents c : result.contents()) {
                    texts.add(Contents.text(c));
                }
            }
            return String.join("\n", texts);
        }
    }
}
