package dev.loommcp.transport.stdio;

import java.util.Map;

/**
 * Run in a separate JVM in the C locale by {@link StdioTransportLaunchTest}: builds transports whose argument or
 * environment value the JVM's native encoding cannot hold, and one that is plain ASCII, and prints one line per
 * case: {@code ok} or the exception's class and message. (A working directory cannot even become a {@code Path}
 * in that locale.)
 */
public final class NativeEncodingMain {

    private NativeEncodingMain() {
    }

    /**
     * Entry point.
     *
     * @param args none
     */
    public static void main(String[] args) {
        System.out.println("encoding " + System.getProperty("sun.jnu.encoding"));
        attempt("argument", () -> StdioTransport.newBuilder("sh", "-c", "true", "\u00fcn\u00ef \u65e5\u672c"));
        attempt("environment", () -> StdioTransport.newBuilder("sh", "-c", "true")
                .environment(Map.of("GREETING", "gr\u00fc\u00df dich")));
        attempt("ascii", () -> StdioTransport.newBuilder("sh", "-c", "true", "plain"));
    }

    private static void attempt(String what, java.util.function.Supplier<StdioTransport.Builder> builder) {
        try {
            builder.get().build();
            System.out.println(what + " ok");
        } catch (RuntimeException e) {
            System.out.println(what + " " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
