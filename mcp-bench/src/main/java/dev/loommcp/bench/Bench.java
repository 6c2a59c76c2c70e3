package dev.loommcp.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import tools.jackson.databind.json.JsonMapper;

/**
 * The benchmark harness: runs every client, each in its own child process (a JVM; Node for the TypeScript SDK's
 * clients), against the echo server, in several alternating rounds, and prints the tables (markdown) with medians and
 * ratios to the raw loop of the same transport and round.
 *
 * <pre>
 * java -jar mcp-bench/target/mcp-bench.jar [--quick | --full | --check] [--clients raw,loom,...] [--rounds N]
 *      [--no-scale | --scale-only] [--jfr DIR] [--json FILE] [--server java|java-c2|node|dual] [--eras]
 * java -jar mcp-bench/target/mcp-bench.jar --compare-with BEFORE_BUILD_DIR [--after-build DIR] [--short] [--rounds N]
 *      [--before-label L] [--after-label L]
 * </pre>
 *
 * <p>By default ({@code --quick}, {@code --full}) it runs the matrix {@link Clients#MATRIX}: every client over stdio,
 * Streamable HTTP with JSON answers and with SSE answers, against the dual-era echo server, and prints one table and
 * the targets table ({@link MatrixReport}). With {@code --clients} naming only the stdio set {@link Clients#ALL} it
 * runs those against the single-era server, followed by the 10,000-in-flight scale run, as before the matrix.
 *
 * <p>{@code --eras} is the protocol-era comparison: the dual-era echo server ({@code --server dual}) and the clients
 * {@link Clients#ERAS} (the raw loop and loom-mcp pinned to each era, over stdio and HTTP), without the scale run.
 *
 * <p>{@code --compare-with DIR} is the before/after comparison ({@link Compare}): loom-mcp's matrix clients on the
 * build in {@code DIR} (its {@code lib/}) and on this one, alternating, with the raw loops as the reference, profile
 * {@link Profile#COMPARE} or, with {@code --short}, {@link Profile#COMPARE_SHORT}; {@code scripts/bench.sh --compare
 * REF} builds and caches {@code DIR} for a git ref.
 *
 * <p>{@code --check} is the CI mode: one tiny round, exit status 1 when any client fails to complete or fails a call.
 * No mode ever fails on a speed.
 */
public final class Bench {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The client JVM's heap limit in the rounds (the same for every client, so RSS compares). */
    static final String CLIENT_HEAP = "-Xmx512m";
    /** The client JVM's heap limit in the scale run (the bound). */
    static final String SCALE_HEAP = "-Xmx256m";
    static final int SCALE_CALLS = 10_000;
    static final int SCALE_SLEEP_MS = 200;

    final Profile profile;
    private final List<String> clients;
    final int rounds;
    private final boolean runRounds;
    private final boolean runScale;
    private final Path jfrDir;
    private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classpath = absoluteClasspath();
    private final List<String> serverArgv;
    final List<String> problems = new ArrayList<>();
    final PrintStream out;
    private boolean eras;

    private Bench(Profile profile, List<String> clients, int rounds, boolean runRounds, boolean runScale,
                  Path jfrDir, String server, PrintStream out) throws IOException {
        this.out = out;
        this.profile = profile;
        this.clients = clients;
        this.rounds = rounds;
        this.runRounds = runRounds;
        this.runScale = runScale;
        this.jfrDir = jfrDir;
        this.serverArgv = switch (server) {
            // C1 only: starts and warms up fastest, and a call costs it a few µs (see docs/benchmarks.md)
            case "java" -> List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-Xshare:auto",
                    "-XX:-UsePerfData", "-cp", classpath, EchoServer.class.getName());
            case "java-c2" -> List.of(java, "-XX:+UseSerialGC", "-Xmx64m", "-Xshare:auto", "-XX:-UsePerfData",
                    "-cp", classpath, EchoServer.class.getName());
            case "node" -> List.of("node", nodeScript().toString());
            // both eras from one server: server/discover and the modern envelope too (and --http for HTTP clients)
            case "dual" -> List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-Xshare:auto",
                    "-XX:-UsePerfData", "-cp", classpath, EchoServer.class.getName(), "--dual");
            default -> throw new IllegalArgumentException("unknown server " + server + "; known: java, java-c2, "
                    + "node, dual");
        };
    }

    private static Path nodeScript() throws IOException {
        Path script = Files.createTempFile("loom-mcp-bench-echo-", ".mjs");
        script.toFile().deleteOnExit();
        try (var in = Bench.class.getResourceAsStream("echo-server.mjs")) {
            Files.write(script, in.readAllBytes());
        }
        return script;
    }

    /**
     * Runs the benchmark.
     *
     * @param args see the class comment
     * @throws Exception on a broken set-up
     */
    public static void main(String[] args) throws Exception {
        int status;
        try {
            status = execute(args, System.out);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // a bad argument or a broken set-up (no node_modules, no test-servers/): the message says which
            System.err.println("mcp-bench: " + e.getMessage());
            status = 2;
        }
        System.exit(status);
    }

    /**
     * Runs the benchmark and prints the report to {@code out}.
     *
     * @param args see the class comment
     * @param out  where the report goes (progress goes to stderr)
     * @return the exit status: 0 done; 1 {@code --check} failed; 2 a client's run did not complete
     * @throws Exception on a broken set-up
     */
    static int execute(String[] args, PrintStream out) throws Exception {
        Profile profile = Profile.QUICK;
        List<String> clients = null;
        boolean eras = false;
        Integer rounds = null;
        boolean runRounds = true;
        Boolean runScale = null;
        Path jfr = null;
        Path json = null;
        String server = null;
        Path compareWith = null;
        Path afterBuild = null;
        boolean shortCompare = false;
        String beforeLabel = "before";
        String afterLabel = "after";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> profile = Profile.QUICK;
                case "--full" -> profile = Profile.FULL;
                case "--check" -> profile = Profile.CHECK;
                case "--clients" -> clients = clientList(value(args, i++));
                case "--rounds" -> rounds = positive(args, i++);
                case "--no-scale" -> runScale = false;
                case "--scale-only" -> {
                    runRounds = false;
                    runScale = true;
                }
                case "--jfr" -> jfr = Path.of(value(args, i++)).toAbsolutePath();
                case "--json" -> json = Path.of(value(args, i++));
                case "--server" -> server = value(args, i++);
                case "--compare-with" -> compareWith = Path.of(value(args, i++)).toAbsolutePath();
                case "--after-build" -> afterBuild = Path.of(value(args, i++)).toAbsolutePath();
                case "--short" -> shortCompare = true;
                case "--before-label" -> beforeLabel = value(args, i++);
                case "--after-label" -> afterLabel = value(args, i++);
                case "--eras" -> {
                    server = "dual";
                    clients = Clients.ERAS;
                    eras = true;
                    if (runScale == null) {
                        runScale = false;
                    }
                }
                case "--tasks" -> {
                    return TasksBench.run(List.of(args).subList(i + 1, args.length), out);
                }
                case "-h", "--help" -> {
                    out.println("usage: java -jar mcp-bench.jar [--quick | --full | --check] [--clients "
                            + String.join(",", Clients.MATRIX) + "] [--rounds N] [--no-scale | --scale-only]"
                            + " [--jfr DIR] [--json FILE] [--server java|java-c2|node|dual] [--eras]");
                    out.println("       java -jar mcp-bench.jar --compare-with BEFORE_BUILD_DIR [--after-build DIR]"
                            + " [--short] [--rounds N] [--before-label L] [--after-label L]");
                    out.println("       java -jar mcp-bench.jar --tasks [--count N] [--seconds S] [--poll-ms MS]"
                            + " [--push] [--transports stdio,http] [--fixture PATH]");
                    return 0;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i] + " (try --help)");
            }
        }
        if (compareWith != null) {
            if (clients != null || eras || json != null || jfr != null) {
                throw new IllegalArgumentException("--compare-with runs loom-mcp's matrix clients and the raw loops;"
                        + " it takes no --clients, --eras, --json or --jfr");
            }
            Profile p = shortCompare ? Profile.COMPARE_SHORT : Profile.COMPARE;
            Bench bench = new Bench(p, Clients.COMPARE, rounds != null ? rounds : p.rounds(), true, false, null,
                    "dual", out);
            return new Compare(bench, Compare.Build.of(beforeLabel, compareWith),
                    Compare.Build.of(afterLabel, afterBuild != null ? afterBuild : Compare.runningBuild())).run();
        }
        if (shortCompare || afterBuild != null) {
            throw new IllegalArgumentException("--short and --after-build go with --compare-with DIR");
        }
        if (clients == null) {
            clients = profile == Profile.CHECK ? Clients.CHECK : Clients.MATRIX;
        }
        boolean stdioSet = Clients.ALL.containsAll(clients);
        if (server == null) {
            // the single-era server for the original stdio set (comparable with earlier runs), else the dual one
            server = stdioSet ? "java" : "dual";
        }
        for (String c : clients) {
            Clients.validate(c); // fails fast on an unknown name
            if (Clients.isNode(c)) {
                TsClient.testServers(); // and on a missing node_modules
            }
        }
        if (jfr != null) {
            Files.createDirectories(jfr);
        }
        Bench bench = new Bench(profile, clients, rounds != null ? rounds : profile.rounds(), runRounds,
                runScale != null ? runScale : profile.scale() && stdioSet, jfr, server, out);
        bench.eras = eras;
        return bench.run(json);
    }

    /** The value after the option at {@code i}; a clear error when it is missing or is another option. */
    private static String value(String[] args, int i) {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
            throw new IllegalArgumentException(args[i] + " needs a value (try --help)");
        }
        return args[i + 1];
    }

    private static int positive(String[] args, int i) {
        String v = value(args, i);
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below says what is wanted
        }
        throw new IllegalArgumentException(args[i] + " wants a whole number of at least 1, not \"" + v + "\"");
    }

    /** A comma-separated client list: names trimmed; empty names and duplicates are errors that name them. */
    static List<String> clientList(String v) {
        List<String> out = new ArrayList<>();
        for (String name : v.split(",", -1)) {
            String n = name.trim();
            if (n.isEmpty()) {
                throw new IllegalArgumentException("--clients \"" + v + "\" has an empty name; known: "
                        + String.join(",", Clients.MATRIX));
            }
            if (out.contains(n)) {
                throw new IllegalArgumentException("--clients names " + n + " twice");
            }
            out.add(n);
        }
        return List.copyOf(out);
    }

    private int run(Path json) throws Exception {
        long t0 = System.nanoTime();
        String loadBefore = loadAverage();
        out.printf("# loom-mcp %s benchmark (%s mode)%n%n", eras ? "protocol-era"
                : Clients.ALL.containsAll(clients) ? "stdio" : "matrix", profile.name());
        List<List<Map<String, Object>>> byRound = new ArrayList<>();
        if (runRounds) {
            for (int r = 0; r < rounds; r++) {
                List<Map<String, Object>> round = new ArrayList<>();
                for (int k = 0; k < clients.size(); k++) {
                    String c = clients.get((k + r) % clients.size());
                    round.add(runChild(c, List.of("--profile", profile.name()), CLIENT_HEAP, "r" + (r + 1)));
                }
                byRound.add(round);
            }
        }
        List<Map<String, Object>> scale = new ArrayList<>();
        if (runScale) {
            // the scale run is a stdio run of the Java clients
            for (String c : clients.stream().filter(c -> !Clients.isNode(c) && !c.contains("http")).toList()) {
                scale.add(runChild(c, List.of("--scale", Integer.toString(SCALE_CALLS),
                        Integer.toString(SCALE_SLEEP_MS)), SCALE_HEAP, "scale"));
            }
        }
        String loadAfter = loadAverage();
        double minutes = (System.nanoTime() - t0) / 6e10;

        conditions(loadBefore, loadAfter, minutes);
        if (runRounds) {
            if (eras) {
                new Report(clients, byRound, out).print();
            } else {
                new MatrixReport(new Report(clients, byRound, out)).print();
            }
        }
        if (runScale) {
            Report.scale(clients, scale, out);
        }
        if (!problems.isEmpty()) {
            out.println();
            out.println("## Problems");
            out.println();
            problems.forEach(p -> out.println("- " + p));
        }
        if (json != null) {
            Map<String, Object> all = new LinkedHashMap<>();
            all.put("profile", profile.name());
            all.put("rounds", byRound);
            all.put("scale", scale);
            JSON.writerWithDefaultPrettyPrinter().writeValue(json.toFile(), all);
        }
        boolean failedCalls = byRound.stream().flatMap(List::stream).anyMatch(Bench::hadFailures)
                || scale.stream().anyMatch(Bench::hadFailures);
        for (String c : clients) {
            String known = Clients.knownFailures(c);
            if (known != null) {
                out.println();
                out.println("Note on " + c + ": " + known);
            }
        }
        if (profile == Profile.CHECK) {
            out.println();
            if (!problems.isEmpty() || failedCalls) {
                out.println("check: FAILED (see above)");
                return 1;
            }
            out.println("check: every client completed, zero failed calls");
        }
        return problems.isEmpty() ? 0 : 2;
    }

    /** Whether a run did not complete, or failed calls that its client is not known to fail. */
    private static boolean hadFailures(Map<String, Object> r) {
        if (r.containsKey("crashed")) {
            return true;
        }
        boolean failed = num(r, "failed") > 0 || num(r, "failedInWarmup") > 0;
        return failed && Clients.knownFailures((String) r.get("client")) == null;
    }

    private Map<String, Object> runChild(String client, List<String> what, String heap, String tag)
            throws IOException, InterruptedException {
        return runChild(client, what, heap, tag, classpath);
    }

    /**
     * Runs one client in its own process and returns its result (or a {@code crashed} entry, with the problem noted).
     *
     * @param cp the client JVM's class path (the comparison runs the same harness over two builds' libraries); the
     *           server's is always this harness's own
     */
    Map<String, Object> runChild(String client, List<String> what, String heap, String tag, String cp)
            throws IOException, InterruptedException {
        List<String> cmd;
        if (Clients.isNode(client)) {
            cmd = TsClient.command(client, profile, serverArgv);
        } else {
            cmd = new ArrayList<>(List.of(java, heap, "-XX:+UseG1GC"));
            if (jfrDir != null) {
                cmd.add("-XX:StartFlightRecording=filename=" + jfrDir.resolve(client + "-" + tag + ".jfr")
                        + ",settings=profile,dumponexit=true");
            }
            cmd.addAll(List.of("-cp", cp, ClientRun.class.getName(), "--client", client));
            cmd.addAll(what);
            cmd.add("--");
            cmd.addAll(serverArgv);
        }
        System.err.printf("== %s %s%n", client, tag);
        long started = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close();
        String result = null;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring("RESULT ".length());
                } else {
                    System.err.println(line);
                }
            }
        }
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
        }
        int exit = p.exitValue();
        System.err.printf("== %s %s took %.1f s%n", client, tag, (System.nanoTime() - started) / 1e9);
        if (result == null || exit != 0) {
            problems.add(client + " (" + tag + ") did not complete: exit status " + exit);
            Map<String, Object> crashed = new LinkedHashMap<>();
            crashed.put("client", client);
            crashed.put("crashed", true);
            return crashed;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = JSON.readValue(result, Map.class);
        return m;
    }

    void conditions(String loadBefore, String loadAfter, double minutes) {
        out.println("## Conditions");
        out.println();
        out.printf("- %s; %s %s (%s); %s %s; %d cores; %.0f GiB RAM%n",
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.vendor"), System.getProperty("os.name"),
                System.getProperty("os.version"), Runtime.getRuntime().availableProcessors(), memTotalGiB());
        out.printf("- load average (1, 5, 15 min) before: %s, after: %s; the run took %.1f min%n", loadBefore,
                loadAfter, minutes);
        out.printf("- %s mode: %d round(s), clients in rotated order each round; warm-up %d ms, sequential %d ms,"
                        + " each echo in-flight phase %d ms, each sleep(10) phase %d ms%n",
                profile.name(), rounds, profile.warmupMillis(), profile.seqMillis(), profile.flightMillis(),
                profile.sleepMillis());
        out.printf("- each client in its own JVM: `java %s -XX:+UseG1GC` (scale run: `%s`), on the class path%s%n",
                CLIENT_HEAP, SCALE_HEAP, clients.stream().anyMatch(Clients::isNode) ? "; the TypeScript SDK's"
                        + " clients in their own Node process: `node test-servers/bench-ts-client.mjs` (" + nodeVersion()
                        + ")" : "");
        if (profile.coldCalls() > 0) {
            out.printf("- cold: the first %,d sequential echo calls right after the first connect in the fresh client"
                    + " process, before any warm-up%n", profile.coldCalls());
        }
        out.printf("- server: `%s`%n", serverArgv.get(0).equals("node") ? "node echo-server.mjs"
                : serverArgv.stream().filter(a -> a.startsWith("-X")).collect(Collectors.joining(" ", "java ",
                        " ... EchoServer" + (serverArgv.contains("--dual") ? " --dual" : ""))) + " (hand-written "
                        + "JSON-RPC, JDK classes only" + (serverArgv.contains("--dual") ? "; both eras; each HTTP "
                        + "client starts its own with --http: stateless, JDK HttpServer, a virtual thread per "
                        + "exchange" : "") + ")");
        out.println();
    }

    private static String nodeVersion() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            String v = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return "Node " + v;
        } catch (IOException e) {
            return "node not found";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "Node";
        }
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + ", " + f[1] + ", " + f[2];
        } catch (IOException e) {
            return "n/a";
        }
    }

    private static double memTotalGiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1048576.0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return Double.NaN;
    }

    private static String absoluteClasspath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(e -> Path.of(e).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
    }

    static double num(Map<String, Object> m, String path) {
        Object v = m;
        for (String part : path.split("\\.")) {
            if (!(v instanceof Map<?, ?> map) || !map.containsKey(part)) {
                return Double.NaN;
            }
            v = map.get(part);
        }
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    static ToDoubleFunction<Map<String, Object>> metric(String path) {
        return m -> num(m, path);
    }

    static String fmt(String pattern, double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, pattern, v);
    }
}
