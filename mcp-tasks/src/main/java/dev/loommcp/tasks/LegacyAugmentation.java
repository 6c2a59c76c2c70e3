package dev.loommcp.tasks;

import dev.loommcp.config.Era;
import dev.loommcp.RequestOptions;
import dev.loommcp.schema.ServerCapabilities;
import dev.loommcp.spi.TaskAugmentation;
import dev.loommcp.spi.TaskChannel;
import dev.loommcp.spi.TaskServer;
import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The 2025-11-25 rule of when a {@code tools/call} asks for a task (MCP 2025-11-25 tasks §Capability Negotiation and
 * §Tool-Level Negotiation, MODERN-ERA.md C.6.1 and C.6.2): the client speaks the legacy era at version 2025-11-25 or
 * later, the server declares {@code capabilities.tasks.requests.tools.call}, and the tool's
 * {@code execution.taskSupport} is {@code required} (or, for {@code callToolAsTask}, {@code optional}). Never in the
 * modern era, where the server decides. Stateless.
 */
final class LegacyAugmentation {

    /** The first legacy version with tasks (MCP 2025-11-25 "Tasks"; earlier versions have none). */
    static final String FIRST_TASKS_VERSION = "2025-11-25";

    private LegacyAugmentation() {
    }

    /**
     * Decides the augmentation of one call.
     *
     * @param channel      the client's channel (its server's facts; the tool's {@code execution.taskSupport}, which
     *                     may cost one {@code tools/list})
     * @param toolName     the tool
     * @param requiredOnly whether only a tool that requires a task is augmented (a plain {@code callTool}); else an
     *                     optional one is too ({@code callToolAsTask})
     * @param ttl          the TTL to ask for, or {@code null} to let the server choose
     * @param options      deadline and token of a listing, when one is needed
     * @return the augmentation, or {@code null} for a plain call
     * @throws InterruptedException if the calling thread is interrupted
     */
    static @Nullable TaskAugmentation of(TaskChannel channel, String toolName, boolean requiredOnly,
                                         @Nullable Duration ttl,
                               RequestOptions options) throws InterruptedException {
        TaskServer server = channel.server();
        if (server.era() != Era.LEGACY || !speaksTasks(server.protocolVersion())
                || !declaresToolTasks(server.capabilities())) {
            return null;
        }
        String mode = channel.toolTaskSupport(toolName, options);
        return "required".equals(mode) || !requiredOnly && "optional".equals(mode) ? new TaskAugmentation(ttl) : null;
    }

    /** Whether the negotiated legacy version has tasks: 2025-11-25 or later (versions are dates, compared as text). */
    static boolean speaksTasks(String version) {
        return version != null && version.compareTo(FIRST_TASKS_VERSION) >= 0;
    }

    /** Whether legacy capabilities declare {@code tasks.requests.tools.call}. */
    private static boolean declaresToolTasks(ServerCapabilities caps) {
        return caps != null && caps.tasks() != null && caps.tasks().get("requests") instanceof Map<?, ?> requests
                && requests.get("tools") instanceof Map<?, ?> toolRequests
                && toolRequests.get("call") instanceof Map<?, ?>;
    }
}
