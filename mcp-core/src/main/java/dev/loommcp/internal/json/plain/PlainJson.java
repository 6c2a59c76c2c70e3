package dev.loommcp.internal.json.plain;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What this SDK sends as JSON: only plain JSON values ({@code Map} with {@code String} keys, {@code List},
 * {@code String}, {@code Number}, {@code Boolean}, {@code null}) and the SDK's own types (its records and enums,
 * converted by their annotations), whose free-form members hold plain JSON values again. Anything else (a
 * {@code Thread}, a bean, {@code new Object()}, an array, {@code byte[]}, a {@code char}, an enum of the
 * application) is refused with an {@link IllegalArgumentException} naming where it is, for example
 * {@code arguments.items[2].when: java.lang.Thread is not a JSON value}: it is never bean-serialised and sent.
 *
 * <p>Stateless and thread-safe.
 */
public final class PlainJson {

    /** The deepest nesting the writers write and {@link #check} checks; deeper (or cyclic) values are refused. */
    public static final int MAX_DEPTH = 1000;

    /** The most characters of one map key shown in a path. */
    private static final int KEY_SHOWN = 64;

    private PlainJson() {
    }

    /**
     * A value that is not plain JSON, with the path to it; the writers add the path while they unwind, so that the
     * path costs nothing unless a value is refused.
     */
    public static final class NotJsonException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        /** The path's segments from the root: map keys as they are, list indexes as {@code [i]}. */
        private final transient ArrayDeque<String> path = new ArrayDeque<>();
        private final String problem;

        /**
         * Creates the refusal of a value at the root; the writers add the path as they unwind.
         *
         * @param problem what is wrong with the value, without its path
         */
        public NotJsonException(String problem) {
            super(problem, null);
            this.problem = problem;
        }

        /**
         * Prepends the key under which the refused value was found.
         *
         * @param key the map key or record member
         * @return this exception
         */
        public NotJsonException underKey(String key) {
            path.addFirst(key.length() > KEY_SHOWN ? key.substring(0, KEY_SHOWN) + "..." : key);
            return this;
        }

        /**
         * Prepends the list index under which the refused value was found.
         *
         * @param index the index
         * @return this exception
         */
        public NotJsonException underIndex(int index) {
            path.addFirst("[" + index + "]");
            return this;
        }

        /** Returns {@code path: problem}, or the problem alone for a refused root value. */
        @Override
        public String getMessage() {
            if (path.isEmpty()) {
                return problem;
            }
            StringBuilder sb = new StringBuilder();
            for (String segment : path) {
                if (!sb.isEmpty() && !segment.startsWith("[")) {
                    sb.append('.');
                }
                sb.append(segment);
            }
            return sb.append(": ").append(problem).toString();
        }
    }

    /**
     * Returns the refusal of a value that is neither plain JSON nor an SDK type.
     *
     * @param value the value, not {@code null}
     * @return the exception, without path yet
     */
    public static NotJsonException refusal(Object value) {
        String type = value.getClass().getTypeName();
        String hint;
        if (value instanceof byte[]) {
            hint = " (send binary data as Base64 text)";
        } else if (value.getClass().isArray() || value instanceof Collection<?>) {
            hint = " (use a List)";
        } else if (value instanceof Character) {
            hint = " (use a String)";
        } else if (value instanceof Enum<?>) {
            hint = " (send its name as a String)";
        } else {
            hint = "";
        }
        return new NotJsonException(type + " is not a JSON value" + hint
                + "; use Map with String keys, List, String, Number, Boolean or null");
    }

    /**
     * Returns the refusal of a map key that is not a String.
     *
     * @param key the key
     * @return the exception, without path yet
     */
    public static NotJsonException keyRefusal(Object key) {
        return new NotJsonException("a map key that is not a String (" + (key == null ? "null"
                : key.getClass().getTypeName()) + "); use plain JSON values");
    }

    /**
     * Whether the value is one of the SDK's own types (a record or enum of a {@code dev.loommcp} package), which
     * is sent as its annotations say.
     *
     * @param value the value, not {@code null}
     * @return whether it is an SDK type
     */
    public static boolean sdkType(Object value) {
        Class<?> c = value.getClass();
        return (c.isRecord() || c.isEnum()) && c.getName().startsWith("dev.loommcp.");
    }

    /**
     * Checks that a value holds only plain JSON values and SDK types (whose members are checked in turn), down to
     * {@code maxDepth} levels.
     *
     * @param value    the value
     * @param maxDepth the deepest nesting checked
     * @throws NotJsonException naming the path of the first value that is not JSON
     */
    public static void check(Object value, int maxDepth) {
        check(value, 0, maxDepth);
    }

    private static void check(Object value, int depth, int maxDepth) {
        if (depth > maxDepth) {
            throw new IllegalArgumentException("nesting deeper than " + maxDepth
                    + " levels (or a cycle); use plain JSON values", null);
        }
        switch (value) {
            case null -> { }
            case String s -> { }
            case Boolean b -> { }
            case Number n -> { }
            case Map<?, ?> m -> {
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (!(e.getKey() instanceof String key)) {
                        throw keyRefusal(e.getKey());
                    }
                    try {
                        check(e.getValue(), depth + 1, maxDepth);
                    } catch (NotJsonException x) {
                        throw x.underKey(key);
                    }
                }
            }
            case List<?> l -> {
                int i = 0;
                for (Object o : l) {
                    try {
                        check(o, depth + 1, maxDepth);
                    } catch (NotJsonException x) {
                        throw x.underIndex(i);
                    }
                    i++;
                }
            }
            case Record r when sdkType(r) -> {
                for (RecordComponent rc : r.getClass().getRecordComponents()) {
                    Object member;
                    try {
                        member = rc.getAccessor().invoke(r);
                    } catch (IllegalAccessException | InvocationTargetException e) {
                        continue; // an SDK record the core cannot read: its own module vouches for it
                    }
                    try {
                        check(member, depth + 1, maxDepth);
                    } catch (NotJsonException x) {
                        JsonProperty p = rc.getAccessor().getAnnotation(JsonProperty.class);
                        throw x.underKey(p != null && !p.value().isEmpty() ? p.value() : rc.getName());
                    }
                }
            }
            default -> {
                if (!sdkType(value)) {
                    throw refusal(value);
                }
            }
        }
    }
}
