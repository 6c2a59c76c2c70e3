package dev.loommcp.cli;

import dev.loommcp.RequestOptions;
import dev.loommcp.internal.json.Json;
import dev.loommcp.schema.CompleteResult;
import dev.loommcp.schema.Completion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Parameters;

/**
 * The {@code complete} command: asks the server to complete an argument of a prompt or of a resource template
 * ({@code completion/complete}) and prints the values, one per line, noting on stderr when the server has more. The
 * connection options are the parent's ({@link McpCommand}).
 *
 * <p>Not thread-safe: made by picocli for one command line.
 */
@Command(name = "complete", mixinStandardHelpOptions = true,
        description = {"Ask the server to complete an argument of a prompt or of a resource template "
                + "(completion/complete) and print the values, one per line. A note on stderr says when the "
                + "server has more."})
final class CompleteCommand implements Callable<Integer> {

    @ParentCommand
    private McpCommand parent;

    @Parameters(index = "0", paramLabel = "prompt|resource", description = "what the argument belongs to")
    private String kind;

    @Parameters(index = "1", paramLabel = "NAME|URI-TEMPLATE",
            description = "the prompt's name, or the resource template's URI template")
    private String ref;

    @Parameters(index = "2", paramLabel = "ARG", description = "the argument's name")
    private String argument;

    @Parameters(index = "3", arity = "0..1", paramLabel = "VALUE", description = "what is typed so far (default: empty)")
    private String value;

    @Option(names = "--context", paramLabel = "KEY=VALUE", description = {"an argument already "
            + "given (repeatable): its value is a string; sent as context.arguments"})
    private List<String> context;

    /** Created by picocli. */
    CompleteCommand() {
    }

    /**
     * Runs the command.
     *
     * @return the exit code
     * @throws picocli.CommandLine.ParameterException for a kind other than {@code prompt} or {@code resource}, or a
     *                                                {@code --context} that is not {@code KEY=VALUE}
     * @throws InterruptedException                   if the command is interrupted (Ctrl+C)
     */
    @Override
    public Integer call() throws InterruptedException {
        CommandArguments words = parent.arguments();
        Map<String, Object> reference = new LinkedHashMap<>();
        switch (kind) {
            case "prompt" -> {
                reference.put("type", dev.loommcp.schema.PromptReference.TYPE);
                reference.put("name", ref);
            }
            case "resource" -> {
                reference.put("type", dev.loommcp.schema.ResourceTemplateReference.TYPE);
                reference.put("uri", ref);
            }
            default -> throw parent.usage("complete: expected 'prompt NAME' or 'resource URI-TEMPLATE', not '"
                    + TerminalText.escape(kind) + "'");
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("ref", reference);
        params.put("argument", Map.of("name", argument, "value", value == null ? "" : value));
        if (context != null && !context.isEmpty()) {
            KeyValues.Form form = words.form(context, "--context");
            if (!form.isPairs()) {
                throw parent.usage("--context: expected KEY=VALUE, not '" + TerminalText.escape(form.json()) + "'");
            }
            params.put("context", Map.of("arguments", KeyValues.strings(form.pairs(), null, "")));
        }
        Output io = parent.io();
        boolean json = parent.json();
        return parent.withClient(client -> {
            Map<String, Object> raw = client.request("completion/complete", params, RequestOptions.DEFAULT);
            if (json) {
                io.printJson(raw);
                return ExitCodes.OK;
            }
            Completion completion = Json.convert(raw, CompleteResult.class, "completion/complete result")
                    .completion();
            List<String> values = completion.values() == null ? List.of() : completion.values();
            if (values.isEmpty()) {
                io.out().println("(no values)");
            }
            values.forEach(io.out()::println);
            io.out().flush();
            if (Boolean.TRUE.equals(completion.hasMore())
                    || (completion.total() != null && completion.total() > values.size())) {
                io.err().println("mcp: the server has more values than these " + values.size()
                        + (completion.total() != null ? " (" + completion.total() + " in all)" : ""));
                io.err().flush();
            }
            return ExitCodes.OK;
        });
    }
}
