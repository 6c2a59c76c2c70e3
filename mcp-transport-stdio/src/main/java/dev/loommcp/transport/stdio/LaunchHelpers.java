package dev.loommcp.transport.stdio;

import java.nio.file.Path;
import java.util.List;

/**
 * The helper programs a stdio launch needs, found once per JVM: the process-group launcher ({@code setsid} on Linux,
 * else {@code perl}; none on Windows or when neither is found) and {@code kill}. Used by {@link LaunchConfig#of}
 * (for {@link StdioTransport.Builder#build()}). Thread-safe: two threads racing the first lookup may both search,
 * with the same result.
 */
final class LaunchHelpers {
    private static volatile LaunchHelpers instance;

    final List<String> launcher;
    final Path kill;

    private LaunchHelpers(List<String> launcher, Path kill) {
        this.launcher = launcher;
        this.kill = kill;
    }

    static LaunchHelpers get() {
        LaunchHelpers h = instance;
        if (h == null) {
            h = find();
            instance = h;
        }
        return h;
    }

    private static LaunchHelpers find() {
        if (Launch.windows()) {
            return new LaunchHelpers(List.of(), null);
        }
        Path kill = Launch.findHelper("kill");
        if (Launch.OS == Launch.Os.LINUX) {
            Path setsid = Launch.findHelper("setsid");
            if (setsid != null) {
                return new LaunchHelpers(List.of(setsid.toString()), kill);
            }
        }
        Path perl = Launch.findHelper("perl");
        if (perl != null) {
            return new LaunchHelpers(Launch.perlLauncher(perl), kill);
        }
        System.getLogger("dev.loommcp.transport.stdio").log(System.Logger.Level.WARNING,
                "neither setsid nor perl was found: stdio servers are not started in their own process group,"
                        + " so only their visible descendants can be ended on close");
        return new LaunchHelpers(List.of(), kill);
    }
}
