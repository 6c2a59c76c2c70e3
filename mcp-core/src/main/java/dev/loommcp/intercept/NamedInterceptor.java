package dev.loommcp.intercept;

import java.util.Objects;

/**
 * An interceptor with a name ({@link McpInterceptor#named}): each call goes to the wrapped one unchanged, and its
 * {@code toString()} is the name, which {@link dev.loommcp.McpInterceptorException} shows. Immutable.
 *
 * @param name        the name
 * @param interceptor the interceptor
 */
record NamedInterceptor(String name, McpInterceptor interceptor) implements McpInterceptor {

    @Override
    public McpResponse intercept(Chain chain) throws InterruptedException {
        return interceptor.intercept(chain);
    }

    @Override
    public String toString() {
        return name;
    }

    /** A name for messages: not blank, no ISO control character. */
    static String checkedName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("an interceptor's name must not be blank");
        }
        if (name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("an interceptor's name must not hold control characters");
        }
        return name;
    }
}
