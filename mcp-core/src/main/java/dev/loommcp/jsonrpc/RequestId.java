package dev.loommcp.jsonrpc;

import dev.loommcp.internal.json.plain.JsonNumbers;
import java.util.Objects;

/**
 * A JSON-RPC request id: a string or an integer, never {@code null} (JSON-RPC 2.0 section 4, MCP "JSON-RPC
 * messages"). Two ids are equal only when they have the same kind and value, so the string {@code "1"} and the
 * number {@code 1} are different ids, as the spec requires.
 *
 * <p>Instances are immutable and thread-safe.
 */
public sealed interface RequestId permits RequestId.StringId, RequestId.NumberId {

    /**
     * Returns a string id.
     *
     * @param value the id, not {@code null}
     * @return the id
     * @throws NullPointerException if {@code value} is {@code null}
     */
    static RequestId of(String value) {
        return new StringId(value);
    }

    /**
     * Returns an integer id.
     *
     * @param value the id
     * @return the id
     */
    static RequestId of(long value) {
        return new NumberId(value);
    }

    /**
     * Returns the id as a plain JSON value: a {@link String} or a {@link Long}.
     *
     * @return the value, never {@code null}
     */
    Object value();

    /**
     * Returns whether this id, as a server sent it in a response, stands for the integer id {@code sent}: equal, or a
     * string or non-integer number whose JSON number text equals it exactly (for example {@code "7"} or {@code 7.0}
     * for {@code 7}; real servers answer so). The client matches responses with this rule.
     *
     * @param sent the id the request carried
     * @return {@code true} when the two stand for the same request
     */
    default boolean looselyMatches(RequestId sent) {
        if (equals(sent)) {
            return true;
        }
        Long loose = this instanceof StringId s ? JsonNumbers.looseInteger(s.value()) : null;
        return loose != null && sent instanceof NumberId n && n.number() == loose;
    }

    /**
     * A string request id.
     *
     * @param value the id, not {@code null}
     */
    record StringId(String value) implements RequestId {
        /**
         * Creates the id.
         *
         * @throws NullPointerException if {@code value} is {@code null}
         */
        public StringId {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return '"' + value + '"';
        }
    }

    /**
     * An integer request id.
     *
     * @param number the id
     */
    record NumberId(long number) implements RequestId {
        @Override
        public Object value() {
            return number;
        }

        @Override
        public String toString() {
            return Long.toString(number);
        }
    }
}
