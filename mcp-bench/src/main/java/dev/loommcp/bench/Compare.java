package dev.loommcp.bench;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The before/after comparison ({@code --compare-with DIR}, {@code scripts/bench.sh --compare REF}): loom-mcp's rows of
 * the matrix on two builds, alternating, with the raw loops as the same-run reference, and one table per row with a
 * verdict against the noise of the run ({@link CompareReport}).
 *
 * <p>Both sides run the same harness (this build's classes: drivers, phases, the thread check) and the same echo
 * server; only the libraries under test differ: each side's class path is this harness's classes followed by that
 * build's {@code lib/} (the loom-mcp modules and their dependencies as {@code mcp-bench}'s packaging copied them). In
 * each round every loom-mcp client runs once on each build, back to back, in the order before then after in odd
 * rounds and after then before in even ones (so before, after, after, before, ...: drift and warm-up of the machine
 * weigh on both alike); the clients' order rotates each round as in the matrix. The raw loops (no loom-mcp code) run
 * once per round and are the reference of both sides.
 */
final class Compare {

    /**
     * One side of the comparison.
     *
     * @param label     its name in the tables (a commit, "working tree")
     * @param classpath the client JVM's class path: the build's {@code adapter/} when it has one, the harness's
     *                  classes, then the build's {@code lib/*}
     */
    record Build(String label, String classpath) {

        /**
         * A build directory holding {@code lib/} (an {@code mcp-bench/target}, or the cache of one), and for a build
         * from before the 0.1 API pass {@code adapter/}: the harness's {@code LoomClient} compiled against that
         * build's names (what {@code scripts/bench.sh --compare} makes for such a build).
         */
        static Build of(String label, Path dir) {
            Path lib = dir.resolve("lib");
            if (!Files.isDirectory(lib)) {
                throw new IllegalArgumentException(dir + " has no lib/ directory: expected an mcp-bench build"
                        + " (its target/ or the cache scripts/bench.sh --compare keeps)");
            }
            try (var jars = Files.list(lib)) {
                if (jars.noneMatch(j -> j.getFileName().toString().startsWith("mcp-core"))) {
                    throw new IllegalArgumentException(lib + " holds no mcp-core jar: not an mcp-bench build's lib/");
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + lib + ": " + e.getMessage(), e);
            }
            // a build older than the harness's view of the API (before the 0.1 API pass) brings the harness's
            // client adapter compiled against its own API in adapter/, ahead of the harness's classes
            Path adapter = dir.resolve("adapter");
            String first = Files.isDirectory(adapter) ? adapter + File.pathSeparator : "";
            return new Build(label, first + harnessClasses() + File.pathSeparator + lib + File.separator + "*");
        }
    }

    private final Bench bench;
    private final Build before;
    private final Build after;

    Compare(Bench bench, Build before, Build after) {
        this.bench = bench;
        this.before = before;
        this.after = after;
    }

    /** The directory of the running harness's build ({@code mcp-bench/target}): where its jar or classes are. */
    static Path runningBuild() {
        return codeLocation().getParent();
    }

    /** The harness's compiled classes: {@code target/classes} next to the running jar, or the running directory. */
    static Path harnessClasses() {
        Path here = codeLocation();
        Path classes = Files.isDirectory(here) ? here : here.getParent().resolve("classes");
        if (!Files.isRegularFile(classes.resolve(Bench.class.getName().replace('.', '/') + ".class"))) {
            throw new IllegalStateException("the harness's classes are not at " + classes + " (build mcp-bench"
                    + " with Maven: the comparison runs them over each build's libraries)");
        }
        return classes;
    }

    private static Path codeLocation() {
        try {
            return Path.of(Bench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the harness: " + e.getMessage(), e);
        }
    }

    /**
     * Runs the rounds and prints the report.
     *
     * @return the exit status: 0 done, 2 a run did not complete
     * @throws Exception on a broken set-up
     */
    int run() throws Exception {
        Profile profile = bench.profile;
        long t0 = System.nanoTime();
        String loadBefore = Bench.loadAverage();
        bench.out.printf("# loom-mcp before/after benchmark (%s profile): %s against %s%n%n", profile.name(),
                after.label(), before.label());
        List<String> clients = Clients.COMPARE;
        List<List<Map<String, Object>>> beforeRounds = new ArrayList<>();
        List<List<Map<String, Object>>> afterRounds = new ArrayList<>();
        List<String> what = List.of("--profile", profile.name());
        for (int r = 0; r < bench.rounds; r++) {
            List<Map<String, Object>> b = new ArrayList<>();
            List<Map<String, Object>> a = new ArrayList<>();
            String tag = "r" + (r + 1);
            for (int k = 0; k < clients.size(); k++) {
                String c = clients.get((k + r) % clients.size());
                if (Clients.isRaw(c)) {
                    Map<String, Object> m = bench.runChild(c, what, Bench.CLIENT_HEAP, tag, after.classpath());
                    b.add(m);
                    a.add(m);
                } else if (r % 2 == 0) {
                    b.add(bench.runChild(c, what, Bench.CLIENT_HEAP, tag + " before", before.classpath()));
                    a.add(bench.runChild(c, what, Bench.CLIENT_HEAP, tag + " after", after.classpath()));
                } else {
                    a.add(bench.runChild(c, what, Bench.CLIENT_HEAP, tag + " after", after.classpath()));
                    b.add(bench.runChild(c, what, Bench.CLIENT_HEAP, tag + " before", before.classpath()));
                }
            }
            beforeRounds.add(b);
            afterRounds.add(a);
        }
        String loadAfter = Bench.loadAverage();
        bench.conditions(loadBefore, loadAfter, (System.nanoTime() - t0) / 6e10);
        bench.out.printf("- before: %s (`%s`); after: %s (`%s`); the same harness and echo server for both, only the"
                + " libraries differ; each loom-mcp client runs on both builds back to back in each round (before"
                + " first in odd rounds, after first in even ones); the raw loops once per round, the reference of"
                + " both%n%n", before.label(), before.classpath(), after.label(), after.classpath());
        new CompareReport(clients, new Report(clients, beforeRounds, bench.out),
                new Report(clients, afterRounds, bench.out), before.label(), after.label(), profile,
                bench.out).print();
        if (!bench.problems.isEmpty()) {
            bench.out.println();
            bench.out.println("## Problems");
            bench.out.println();
            bench.problems.forEach(p -> bench.out.println("- " + p));
        }
        return bench.problems.isEmpty() ? 0 : 2;
    }
}
