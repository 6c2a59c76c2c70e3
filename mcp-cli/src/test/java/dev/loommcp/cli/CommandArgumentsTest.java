package dev.loommcp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommcp.schema.Tool;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * How a command's argument words become what it sends ({@link CommandArguments}), without a server: the params of
 * {@code request} and {@code notify}, the JSON-object form, prompt strings, tool arguments typed by a listed tool,
 * and that every problem is a usage error on the command line it was made with. The end-to-end behaviour is in
 * {@link CliInspectorCommandsTest}.
 */
class CommandArgumentsTest {

    private final CommandLine commandLine = Main.commandLine(name -> null);
    private final StringWriter err = new StringWriter();
    private final CommandArguments arguments;

    CommandArgumentsTest() {
        commandLine.setErr(new PrintWriter(err));
        arguments = new CommandArguments(commandLine, new Output(() -> commandLine, name -> null));
    }

    @Test
    void rawParamsAreNoneInferredWordsOrOneObject() {
        assertThat(arguments.rawParams("ping", null)).isNull();
        assertThat(arguments.rawParams("ping", List.of())).isNull();
        assertThat(arguments.rawParams("tools/call", List.of("name=echo", "arguments={\"a\":1}", "n=2", "s=hi")))
                .containsExactly(Map.entry("name", "echo"), Map.entry("arguments", Map.of("a", 1)),
                        Map.entry("n", 2), Map.entry("s", "hi"));
        assertThat(arguments.rawParams("prompts/get", List.of("{\"name\":\"p\"}"))).containsExactly(
                Map.entry("name", "p"));
    }

    @Test
    void aMethodThatNamesNoMethodIsAUsageErrorOfTheRootCommandLine() {
        for (String method : List.of("", "  ", "a\u0001b", "x\u007f")) {
            assertThatThrownBy(() -> arguments.rawParams(method, null)).isInstanceOfSatisfying(
                    ParameterException.class, e -> {
                        assertThat(e.getCommandLine()).isSameAs(commandLine);
                        assertThat(e.getMessage()).startsWith("METHOD must name a JSON-RPC method");
                        assertThat(e.getMessage()).doesNotContain("\u0001", "\u007f");
                    });
        }
    }

    @Test
    void theJsonFormMustBeOneValidObject() {
        assertThat(arguments.jsonObject(null, "the params")).isEmpty();
        assertThatThrownBy(() -> arguments.jsonObject("[1]", "the params")).isInstanceOf(ParameterException.class)
                .hasMessage("the params must be a JSON object, like '{\"name\": \"value\"}'");
        assertThatThrownBy(() -> arguments.jsonObject("{bad", "the params")).isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("the params are not valid JSON");
        assertThatThrownBy(() -> arguments.form(List.of("a=1", "{}"), "the params"))
                .isInstanceOf(ParameterException.class).hasMessageContaining("not both");
    }

    @Test
    void promptStringsTurnNumbersAndBooleansIntoTheirJsonText() {
        assertThat(arguments.promptStrings("{\"a\":\"x\",\"n\":1.5,\"b\":true}"))
                .containsExactly(Map.entry("a", "x"), Map.entry("n", "1.5"), Map.entry("b", "true"));
        assertThatThrownBy(() -> arguments.promptStrings("{\"a\":[1]}")).isInstanceOf(ParameterException.class)
                .hasMessage("prompt argument 'a' must be a string (prompt arguments are strings)");
    }

    @Test
    void toolArgumentsAreTypedByTheListedSchemaOrInferred() {
        Tool tool = Tool.of("add", null, Map.of("type", "object", "properties",
                Map.of("a", Map.of("type", "string"), "n", Map.of("type", "number"))));
        KeyValues.Form form = arguments.form(List.of("a=1", "n=2"), "the tool arguments");
        assertThat(CommandArguments.typedArguments(tool, "add", form, commandLine))
                .containsExactly(Map.entry("a", "1"), Map.entry("n", 2));
        assertThat(CommandArguments.typedArguments(null, "add", form, commandLine))
                .containsExactly(Map.entry("a", 1), Map.entry("n", 2));
        KeyValues.Form unknown = arguments.form(List.of("x=1"), "the tool arguments");
        assertThatThrownBy(() -> CommandArguments.typedArguments(tool, "add", unknown, commandLine))
                .isInstanceOfSatisfying(ParameterException.class,
                        e -> assertThat(e.getCommandLine()).isSameAs(commandLine))
                .hasMessageStartingWith("tool 'add' has no argument 'x'");
    }
}
