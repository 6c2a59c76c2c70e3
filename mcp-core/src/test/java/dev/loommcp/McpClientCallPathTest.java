package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import dev.loommcp.config.ProtocolMode;

/**
 * One straight call path (issue 28): a {@code tools/call} goes from {@code McpClient.callTool} to the transport's
 * {@code send} through few frames, each a step of its own, none entered twice, with the era's path chosen at connect.
 * The frames are those of the sending thread, recorded by the scripted transport; stdio-like ({@link Mode#INLINE})
 * and HTTP-like ({@link Mode#BLOCKING}: the modern era's {@code Mcp-Param-*} header routing) in each era.
 */
class McpClientCallPathTest {

    /** The most frames a legacy {@code tools/call} takes from {@code McpClient.callTool} to the transport. */
    static final int LEGACY_FRAMES = 7;
    /** The most frames a modern {@code tools/call} takes (header routing on an HTTP-like transport included). */
    static final int MODERN_FRAMES = 9;

    @RegisterExtension
    final Sessions sessions = new Sessions();

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aLegacyToolCallReachesTheTransportOnAStraightPath(Mode mode) throws Exception {
        Session s = sessions.connected(mode, t -> t.recordStacksOf("tools/call").on("tools/call",
                r -> Map.of("content", List.of())), b -> b.protocolMode(ProtocolMode.LEGACY));
        List<String> frames = pathOf(s);
        assertStraight(frames, LEGACY_FRAMES);
        assertThat(frames).contains("SessionRenewal.call").noneMatch(f -> f.startsWith("ModernRequests."));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aModernToolCallReachesTheTransportOnAStraightPath(Mode mode) throws Exception {
        Consumer<ScriptedTransport> modern = McpClientModernEraTest::modern;
        Session s = sessions.connected(mode, modern.andThen(t -> t.recordStacksOf("tools/call")),
                b -> b.protocolMode(ProtocolMode.MODERN));
        List<String> frames = pathOf(s);
        assertStraight(frames, MODERN_FRAMES);
        assertThat(frames).contains("ModernRequests.call").noneMatch(f -> f.startsWith("SessionRenewal."));
        if (mode == Mode.BLOCKING) {
            assertThat(frames).contains("HeaderRoutedCalls.callTool");
        }
    }

    /** The frames from the outermost {@code McpClient.callTool} down to the transport's send, outermost first. */
    private static List<String> pathOf(Session s) throws InterruptedException {
        s.client().callTool("echo", Map.of());
        List<List<String>> stacks = s.server().sendStacks();
        assertThat(stacks).hasSize(1);
        List<String> innermostFirst = stacks.get(0);
        int outermost = innermostFirst.lastIndexOf("McpClient.callTool");
        assertThat(outermost).as("McpClient.callTool on the sending thread's stack %s", innermostFirst)
                .isNotNegative();
        List<String> path = new ArrayList<>(innermostFirst.subList(0, outermost + 1));
        java.util.Collections.reverse(path);
        return path;
    }

    private static void assertStraight(List<String> frames, int most) {
        Set<String> seen = new HashSet<>();
        List<String> twice = frames.stream().filter(f -> !seen.add(f)).toList();
        assertThat(twice).as("frames entered twice on the path %s", frames).isEmpty();
        assertThat(frames).as("the path %s", frames).hasSizeLessThanOrEqualTo(most)
                .filteredOn(f -> f.startsWith("Session.")).hasSize(1);
    }
}
