package dev.loommcp.bench;

import dev.loommcp.McpClient;
import dev.loommcp.intercept.McpInterceptor;

/**
 * Adds interceptors that do nothing but pass the request on (issue 30's cost of an interceptor chain: the
 * {@code loom-icpt3} client). Its one method takes the builder as an {@code Object}, so that {@link LoomClient}
 * still compiles against a build from before interceptors existed (the comparison's adapter), which never calls it.
 */
final class NoOpInterceptors {

    private NoOpInterceptors() {
    }

    /** Adds {@code count} pass-through interceptors to {@code builder} (an {@code McpClient.Builder}). */
    static void addTo(Object builder, int count) {
        McpClient.Builder b = (McpClient.Builder) builder;
        for (int i = 0; i < count; i++) {
            McpInterceptor passOn = chain -> chain.proceed(chain.request());
            b.addInterceptor(passOn);
        }
    }
}
