package dev.loommcp.internal.session;

/**
 * Placeholder of the era branch for the mrtr helper's {@code ClientHandlers} (the client's handlers for server
 * input, shared by the 2025 server-request path and multi round-trip requests); the mrtr branch's class replaces
 * this file at merge.
 */
final class ClientHandlers {

    private final SessionConfig config;

    ClientHandlers(SessionConfig config) {
        this.config = config;
    }

    /** Whether a handler serves {@code method}. */
    boolean has(String method) {
        return switch (method) {
            case "elicitation/create" -> config.elicitationHandler() != null;
            case "sampling/createMessage" -> config.samplingHandler() != null;
            case "roots/list" -> config.rootsHandler() != null;
            default -> false;
        };
    }
}
