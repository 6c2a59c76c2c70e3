package dev.loommcp.transport.http;

import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable list of HTTP header fields, name and value, in order (a name may repeat: several values). Holds the
 * module's header rules: a name is an HTTP token, a value can be sent exactly as it is ({@link
 * HeaderRules#isValidValue}: visible ASCII, SP and HTAB, so never CR or LF), and values are never shown:
 * {@link #toString()} names the fields and redacts every value (a caller header, a credential, a session id or a
 * signature may be a secret, and the transport's own values are not worth telling apart).
 *
 * <p>Values are checked when a field is added, so a request built from a {@code Headers} never makes the HTTP client
 * throw an exception quoting a value. Thread-safe.
 */
final class Headers {

    /** No fields. */
    static final Headers NONE = new Headers(new String[0]);

    /** Name, value, name, value... */
    private final String[] fields;

    private Headers(String[] fields) {
        this.fields = fields;
    }

    /**
     * Returns the fields given as name, value, name, value... The array is taken as it is, not copied (a varargs
     * call passes a fresh one; a caller passing its own must not change it afterwards).
     *
     * @throws IllegalArgumentException as {@link #plus}, or for an odd count
     */
    static Headers of(String... nameValues) {
        if (nameValues.length % 2 != 0) {
            throw new IllegalArgumentException("a header without a value");
        }
        for (int i = 0; i < nameValues.length; i += 2) {
            check(nameValues[i], nameValues[i + 1]);
        }
        return new Headers(nameValues);
    }

    /**
     * Returns these fields and one more.
     *
     * @throws IllegalArgumentException if the name is not an HTTP token or the value cannot be sent as it is; the
     *                                  message names the header, never the value
     */
    Headers plus(String name, String value) {
        check(name, value);
        String[] f = Arrays.copyOf(fields, fields.length + 2);
        f[fields.length] = name;
        f[fields.length + 1] = value;
        return new Headers(f);
    }

    /**
     * Returns these fields with each of {@code replacements} in place of every field of the same name
     * (case-insensitive), added at the end.
     *
     * @throws IllegalArgumentException as {@link #plus}
     */
    Headers replacing(Map<String, String> replacements) {
        List<String> f = new ArrayList<>(fields.length + 2 * replacements.size());
        for (int i = 0; i < fields.length; i += 2) {
            if (!containsIgnoringCase(replacements, fields[i])) {
                f.add(fields[i]);
                f.add(fields[i + 1]);
            }
        }
        for (Map.Entry<String, String> e : replacements.entrySet()) {
            check(e.getKey(), e.getValue());
            f.add(e.getKey());
            f.add(e.getValue());
        }
        return new Headers(f.toArray(new String[0]));
    }

    /**
     * Returns these fields followed by {@code more}'s.
     *
     * @throws IllegalArgumentException as {@link #plus}
     */
    Headers plusAll(Map<String, String> more) {
        Headers h = this;
        for (Map.Entry<String, String> e : more.entrySet()) {
            h = h.plus(e.getKey(), e.getValue());
        }
        return h;
    }

    private static boolean containsIgnoringCase(Map<String, String> m, String name) {
        for (String k : m.keySet()) {
            if (k.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    private static void check(String name, String value) {
        if (!HeaderRules.isToken(name)) {
            throw new IllegalArgumentException("a header name that is not an HTTP token");
        }
        if (value == null || !HeaderRules.isValidValue(value)) {
            throw new IllegalArgumentException("a value for the header " + name + " that cannot be sent as it is");
        }
    }

    /** How many fields. */
    int size() {
        return fields.length / 2;
    }

    /** The name of field {@code i}. */
    String name(int i) {
        return fields[2 * i];
    }

    /** The value of field {@code i}: never log it. */
    String value(int i) {
        return fields[2 * i + 1];
    }

    /** Adds every field to a request. */
    void addTo(HttpRequest.Builder b) {
        for (int i = 0; i < fields.length; i += 2) {
            b.header(fields[i], fields[i + 1]);
        }
    }

    /**
     * Adds every field to {@code all}, the case-insensitive view a {@link RequestSigner} is shown.
     *
     * @param all a map ordered by {@link String#CASE_INSENSITIVE_ORDER}
     */
    void addTo(TreeMap<String, List<String>> all) {
        for (int i = 0; i < fields.length; i += 2) {
            all.computeIfAbsent(fields[i], k -> new ArrayList<>()).add(fields[i + 1]);
        }
    }

    /** Names the fields, every value redacted: for example {@code [Authorization: <redacted>]}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < fields.length; i += 2) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(fields[i]).append(": <redacted>");
        }
        return sb.append(']').toString();
    }
}
