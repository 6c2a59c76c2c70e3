package dev.loommcp.opentelemetry;

import dev.loommcp.McpCancelledException;
import dev.loommcp.McpRpcException;
import dev.loommcp.McpTimeoutException;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import org.jspecify.annotations.Nullable;

/**
 * How a failed request is recorded (the conventions' {@code error.type} rules): the JSON-RPC code of a server's error
 * (also as {@code rpc.response.status_code}, with the server's message as the status description), {@code timeout},
 * {@code cancelled}, or the failure's class name.
 *
 * @param errorType   the {@code error.type}
 * @param statusCode  the JSON-RPC code as a string, or {@code null} when the server sent no error
 * @param description the span status's description
 */
record Outcome(String errorType, @Nullable String statusCode, String description) {

    /** The most characters of a server's error message a span status repeats. */
    static final int MAX_DESCRIPTION = 1_024;

    static Outcome toolError() {
        return new Outcome(Conventions.TOOL_ERROR, null, "the tool reported an error (isError)");
    }

    static Outcome of(Throwable failure) {
        if (failure instanceof McpRpcException rpc) {
            String code = Integer.toString(rpc.code());
            String message = rpc.errorMessage();
            return new Outcome(code, code, message.length() > MAX_DESCRIPTION
                    ? message.substring(0, MAX_DESCRIPTION) + "..." : message);
        }
        if (failure instanceof McpTimeoutException) {
            return new Outcome(Conventions.TIMEOUT, null, "the request's deadline passed");
        }
        if (failure instanceof McpCancelledException || failure instanceof InterruptedException) {
            return new Outcome(Conventions.CANCELLED, null, "the caller cancelled the request");
        }
        String name = failure.getClass().getName();
        return new Outcome(name, null, name);
    }

    /** Puts {@code error.type} and, for a server's error, {@code rpc.response.status_code}. */
    void putInto(AttributesBuilder attributes) {
        attributes.put(Conventions.ERROR_TYPE, errorType);
        if (statusCode != null) {
            attributes.put(Conventions.RPC_RESPONSE_STATUS_CODE, statusCode);
        }
    }

    /** Sets the span's {@code error.type}, {@code rpc.response.status_code} and status {@code ERROR}. */
    void applyTo(Span span) {
        span.setAttribute(Conventions.ERROR_TYPE, errorType);
        if (statusCode != null) {
            span.setAttribute(Conventions.RPC_RESPONSE_STATUS_CODE, statusCode);
        }
        span.setStatus(StatusCode.ERROR, description);
    }
}
