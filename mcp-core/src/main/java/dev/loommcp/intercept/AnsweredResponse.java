package dev.loommcp.intercept;

import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * A response an interceptor made ({@link McpResponse#of}): nothing was sent. Immutable.
 *
 * @param result the result object as plain JSON
 */
record AnsweredResponse(Map<String, @Nullable Object> result) implements McpResponse {

    @Override
    public boolean fromServer() {
        return false;
    }

    @Override
    public boolean isToolError() {
        return Boolean.TRUE.equals(result.get("isError"));
    }

    /** Says where it came from; never the result. */
    @Override
    public String toString() {
        return "McpResponse[made by an interceptor" + (isToolError() ? ", isError" : "") + "]";
    }
}
