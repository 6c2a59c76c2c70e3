package dev.loommcp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.LeakCheck;
import dev.loommcp.testing.OwnedProcesses;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The echo server as a real child process, spoken to line by line. */
@ExtendWith(LeakCheck.class)
class EchoServerTest {

    @RegisterExtension
    final OwnedProcesses processes = new OwnedProcesses();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private Process server;
    private OutputStream in;
    private BufferedReader out;

    static List<String> serverArgv() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), EchoServer.class.getName());
    }

    @BeforeEach
    void start() throws Exception {
        server = processes.start(new ProcessBuilder(serverArgv()).redirectError(ProcessBuilder.Redirect.INHERIT));
        in = server.getOutputStream();
        out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() throws Exception {
        in.close();
        assertThat(server.waitFor(10, TimeUnit.SECONDS)).as("server exits when stdin ends").isTrue();
        assertThat(server.exitValue()).isZero();
    }

    private void send(String line) throws Exception {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private JsonNode receive() throws Exception {
        String line = out.readLine();
        assertThat(line).as("an answer line").isNotNull();
        return JSON.readTree(line);
    }

    @Test
    void answersTheHandshakeAndListsTwoTools() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        JsonNode init = receive();
        assertThat(init.get("id").asLong()).isEqualTo(1);
        assertThat(init.at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(init.at("/result/capabilities/tools").isObject()).isTrue();
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send("{\"jsonrpc\":\"2.0\",\"id\":\"p-1\",\"method\":\"ping\"}");
        JsonNode ping = receive();
        assertThat(ping.get("id").asString()).as("the notification got no answer; the ping did").isEqualTo("p-1");
        assertThat(ping.get("result").isEmpty()).isTrue();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        JsonNode tools = receive().at("/result/tools");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).get("name").asString()).isEqualTo("echo");
        assertThat(tools.get(1).get("name").asString()).isEqualTo("sleep");
    }

    @Test
    void echoesTextWithEscapesVerbatimAndInAnyMemberOrder() throws Exception {
        String text = "a \"quoted\" \\ back\\slash, \u00e9, \u4e2d, tab\t, newline\n";
        String request = JSON.writeValueAsString(JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 7)
                .put("method", "tools/call").set("params", JSON.createObjectNode()
                        .<tools.jackson.databind.node.ObjectNode>set("arguments",
                                JSON.createObjectNode().put("text", text))
                        .put("name", "echo")));
        send(request);
        JsonNode answer = receive();
        assertThat(answer.get("id").asLong()).isEqualTo(7);
        assertThat(answer.at("/result/content/0/type").asString()).isEqualTo("text");
        assertThat(answer.at("/result/content/0/text").asString()).isEqualTo(text);
    }

    @Test
    void sleepAnswersLaterWithoutHoldingUpOtherCalls() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"sleep\","
                + "\"arguments\":{\"ms\":400}}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"sleep\","
                + "\"arguments\":{\"ms\":0}}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{\"text\":\"now\"}}}");
        JsonNode first = receive();
        JsonNode second = receive();
        JsonNode third = receive();
        assertThat(List.of(first.get("id").asLong(), second.get("id").asLong())).containsExactlyInAnyOrder(2L, 3L);
        assertThat(third.get("id").asLong()).as("the long sleep answers last").isEqualTo(1);
        assertThat(third.at("/result/content/0/text").asString()).isEqualTo("slept 400 ms");
    }

    @Test
    void statsCountsPendingSleeps() throws Exception {
        for (int i = 1; i <= 3; i++) {
            send("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\"sleep\","
                    + "\"arguments\":{\"ms\":300}}}");
        }
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"stats\"}}");
        JsonNode stats = JSON.readTree(receive().at("/result/content/0/text").asString());
        assertThat(stats.get("pending").asLong()).isEqualTo(3);
        assertThat(stats.get("maxPending").asLong()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            receive();
        }
    }

    @Test
    void answersErrorsForUnknownMethodsToolsAndBrokenLines() throws Exception {
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\"}");
        assertThat(receive().at("/error/code").asInt()).isEqualTo(-32601);
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\"}}");
        assertThat(receive().at("/error/code").asInt()).isEqualTo(-32602);
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}");
        assertThat(receive().at("/error/code").asInt()).isEqualTo(-32602);
        send("{not json");
        JsonNode parse = receive();
        assertThat(parse.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(parse.get("id").isNull()).isTrue();
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
        assertThat(receive().get("id").asLong()).as("a response sent to the server is ignored").isEqualTo(5);
    }
}
