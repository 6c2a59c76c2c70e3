package dev.loommcp.jsonrpc;

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
