package dev.loommcp.it;

import dev.loommcp.McpClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walls of {@code mcp-core} (issue 28), checked on its compiled classes with the JDK's {@code jdeps}: no package
 * cycle, no class cycle that involves an internal package, and no class but the facade's path refers to the engine's
 * {@code Session}. What exists today and is not yet fixed is listed, exactly, in the baseline file {@value #BASELINE}:
 * a violation not listed fails, and so does a listed one that no longer exists, so that the file only ever shrinks
 * (delete the line the failure names). A nested class counts as its top-level class. Regenerate the whole file after
 * an intended change with {@value #REGENERATE} and commit it; review then sees every new line.
 */
class ArchitectureTest {

    /** The baseline, relative to the source tree's root. */
    static final String BASELINE = "mcp-it/src/test/resources/architecture/mcp-core-baseline.txt";

    /** The command that rewrites the baseline from the current code. */
    static final String REGENERATE = "./mvnw -B -ntp -pl mcp-it -am verify -Dtest=ArchitectureTest "
            + "-Dsurefire.failIfNoSpecifiedTests=false -Darchitecture.update=true";

    /** The engine class only the facade's path may name. */
    static final String SESSION = "dev.loommcp.internal.session.Session";

    private static final String INTERNAL = "dev.loommcp.internal.";
    /** A class-level line of {@code jdeps -verbose:class}: {@code   a.B   -> c.D   where}. */
    private static final Pattern DEPENDENCE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s");
    private static final int EXAMPLES = 8;

    /** mcp-core's top-level classes, each with the top-level classes of mcp-core it refers to. */
    private static Map<String, Set<String>> classes;
    /** For each class edge, the nested classes that make it ({@code a$1 -> b$C}), for the messages. */
    private static Map<String, Set<String>> via;
    private static Baseline baseline;

    @BeforeAll
    static void analyse(@TempDir Path temp) throws IOException {
        List<Path> classFiles = coreClassFiles(temp);
        classes = new TreeMap<>();
        via = new TreeMap<>();
        Set<String> known = new TreeSet<>();
        List<String[]> raw = new ArrayList<>();
        for (String line : jdeps(classFiles)) {
            Matcher m = DEPENDENCE.matcher(line);
            if (m.find()) {
                known.add(topLevel(m.group(1)));
                raw.add(new String[] {m.group(1), m.group(2)});
            }
        }
        known.forEach(c -> classes.put(c, new TreeSet<>()));
        for (String[] d : raw) {
            String from = topLevel(d[0]);
            String to = topLevel(d[1]);
            if (!from.equals(to) && known.contains(to)) {
                classes.get(from).add(to);
                via.computeIfAbsent(from + " -> " + to, k -> new TreeSet<>()).add(d[0] + " -> " + d[1]);
            }
        }
        if (!known.contains("dev.loommcp.McpClient")) {
            throw new AssertionError("jdeps did not report mcp-core's classes (" + known.size() + " found in "
                    + classFiles.size() + " class files)");
        }
        Path file = Path.of(System.getProperty("loommcp.root.dir", "..")).resolve(BASELINE);
        if (Boolean.getBoolean("architecture.update")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, Baseline.render(packageCycleEdges().keySet(), internalClassCycles(),
                    sessionReferrers()), StandardCharsets.UTF_8);
        }
        if (!Files.exists(file)) {
            throw new AssertionError("the baseline " + file + " is missing; create it with: " + REGENERATE);
        }
        baseline = Baseline.read(file);
    }

    @Test
    void noPackageCycleBeyondTheBaseline() {
        Map<String, Set<String>> edges = packageCycleEdges();
        List<String> problems = new ArrayList<>();
        // the dependencies with the fewest class references first: the one that closed a cycle is usually among them
        edges.entrySet().stream().filter(e -> !baseline.packageEdges().contains(e.getKey()))
                .sorted(Comparator.comparingInt(e -> e.getValue().size()))
                .forEach(e -> problems.add("new dependency inside a package cycle: " + e.getKey() + ", by "
                        + examples(e.getValue())));
        for (String gone : baseline.packageEdges()) {
            if (!edges.containsKey(gone)) {
                problems.add("the baseline's package dependency '" + gone
                        + "' is no longer part of a cycle: delete its line");
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("package cycles in mcp-core differ from " + BASELINE + " (cycles now: "
                    + packageCycles() + "):\n  " + String.join("\n  ", problems) + hint());
        }
    }

    @Test
    void noClassCycleInTheInternalsBeyondTheBaseline() {
        List<Set<String>> cycles = internalClassCycles();
        List<String> problems = new ArrayList<>();
        for (Set<String> cycle : cycles) {
            if (!baseline.classCycles().contains(cycle)) {
                problems.add("class cycle not in the baseline: " + describe(cycle));
            }
        }
        for (Set<String> gone : baseline.classCycles()) {
            if (!cycles.contains(gone)) {
                problems.add("the baseline's class cycle " + gone + " no longer exists: delete its line (or"
                        + " replace it, when a cycle above is what it became)");
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("class cycles in mcp-core's internals differ from " + BASELINE + ":\n  "
                    + String.join("\n  ", problems) + hint());
        }
    }

    @Test
    void onlyTheFacadePathRefersToSession() {
        if (!classes.containsKey(SESSION)) {
            throw new AssertionError(SESSION + " is not among mcp-core's classes: if it moved or was renamed, update"
                    + " ArchitectureTest.SESSION and the baseline's session-referrer lines");
        }
        Set<String> referrers = sessionReferrers();
        List<String> problems = new ArrayList<>();
        for (String r : referrers) {
            if (!baseline.sessionReferrers().contains(r)) {
                problems.add(r + " refers to Session (" + examples(via.get(r + " -> " + SESSION))
                        + "): pass it what it needs, not the Session");
            }
        }
        for (String gone : baseline.sessionReferrers()) {
            if (!referrers.contains(gone)) {
                problems.add("the baseline's " + gone + " no longer refers to Session: delete its line");
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError("the classes that refer to " + SESSION + " differ from " + BASELINE + ":\n  "
                    + String.join("\n  ", problems) + hint());
        }
    }

    /** Each dependency between two packages of the same package cycle ({@code a -> b}), with its class edges. */
    private static Map<String, Set<String>> packageCycleEdges() {
        Map<String, Set<String>> packages = packageGraph();
        Map<String, Set<String>> out = new TreeMap<>();
        for (Set<String> cycle : stronglyConnected(packages)) {
            for (String from : cycle) {
                for (String to : packages.get(from)) {
                    if (cycle.contains(to)) {
                        out.put(from + " -> " + to, classEdgesBetween(from, to));
                    }
                }
            }
        }
        return out;
    }

    private static List<Set<String>> packageCycles() {
        return stronglyConnected(packageGraph());
    }

    private static Map<String, Set<String>> packageGraph() {
        Map<String, Set<String>> packages = new TreeMap<>();
        classes.forEach((c, targets) -> {
            Set<String> to = packages.computeIfAbsent(packageOf(c), k -> new TreeSet<>());
            targets.stream().map(ArchitectureTest::packageOf).filter(p -> !p.equals(packageOf(c))).forEach(to::add);
        });
        return packages;
    }

    private static Set<String> classEdgesBetween(String fromPackage, String toPackage) {
        Set<String> out = new TreeSet<>();
        classes.forEach((c, targets) -> {
            if (packageOf(c).equals(fromPackage)) {
                targets.stream().filter(t -> packageOf(t).equals(toPackage)).forEach(t -> out.add(c + " -> " + t));
            }
        });
        return out;
    }

    /** The class cycles (strongly connected components of more than one class) with a class of an internal package. */
    private static List<Set<String>> internalClassCycles() {
        return stronglyConnected(classes).stream()
                .filter(cycle -> cycle.stream().anyMatch(c -> c.startsWith(INTERNAL))).toList();
    }

    private static Set<String> sessionReferrers() {
        Set<String> out = new TreeSet<>();
        classes.forEach((c, targets) -> {
            if (targets.contains(SESSION)) {
                out.add(c);
            }
        });
        return out;
    }

    /** The members of a class cycle, and the edges among them when they are few enough to read. */
    private static String describe(Set<String> cycle) {
        StringBuilder sb = new StringBuilder().append(cycle.size()).append(" classes ").append(cycle);
        List<String> inside = new ArrayList<>();
        for (String from : cycle) {
            classes.get(from).stream().filter(cycle::contains).forEach(to -> inside.add(from + " -> " + to));
        }
        if (inside.size() <= 3 * EXAMPLES) {
            sb.append("; its dependencies: ").append(String.join(", ", inside));
        }
        for (Set<String> listed : baseline.classCycles()) {
            if (listed.stream().anyMatch(cycle::contains)) {
                Set<String> added = new TreeSet<>(cycle);
                added.removeAll(listed);
                Set<String> removed = new TreeSet<>(listed);
                removed.removeAll(cycle);
                sb.append("; against the baseline's cycle of ").append(listed.size()).append(": added ")
                        .append(added).append(", left ").append(removed);
            }
        }
        return sb.toString();
    }

    private static String examples(Collection<String> edges) {
        if (edges == null) {
            return "?";
        }
        List<String> shown = edges.stream().limit(EXAMPLES).toList();
        return String.join(", ", shown) + (edges.size() > EXAMPLES ? " and " + (edges.size() - EXAMPLES) + " more"
                : "");
    }

    private static String hint() {
        return "\nFix the code, or (for a change review has agreed to) edit " + BASELINE + " or regenerate it with\n  "
                + REGENERATE;
    }

    /** Tarjan's algorithm, iterative; the components of more than one node, each sorted, in the order found. */
    static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new TreeMap<>();
        Map<String, Integer> low = new TreeMap<>();
        List<String> stack = new ArrayList<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        for (String root : graph.keySet()) {
            if (index.containsKey(root)) {
                continue;
            }
            // frames: node and the iterator position over its successors
            List<Object[]> frames = new ArrayList<>();
            frames.add(new Object[] {root, new ArrayList<>(graph.getOrDefault(root, Set.of())).iterator()});
            index.put(root, index.size());
            low.put(root, index.get(root));
            stack.add(root);
            onStack.add(root);
            while (!frames.isEmpty()) {
                Object[] frame = frames.getLast();
                String v = (String) frame[0];
                @SuppressWarnings("unchecked")
                var successors = (java.util.Iterator<String>) frame[1];
                if (successors.hasNext()) {
                    String w = successors.next();
                    if (!index.containsKey(w)) {
                        index.put(w, index.size());
                        low.put(w, index.get(w));
                        stack.add(w);
                        onStack.add(w);
                        frames.add(new Object[] {w, new ArrayList<>(graph.getOrDefault(w, Set.of())).iterator()});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                frames.removeLast();
                if (!frames.isEmpty()) {
                    String parent = (String) frames.getLast()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    Set<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.removeLast();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    if (component.size() > 1) {
                        out.add(component);
                    }
                }
            }
        }
        out.sort(Comparator.comparing(Set::toString));
        return out;
    }

    /** mcp-core's class files: from its classes directory, or copied out of its jar when the reactor packaged it. */
    private static List<Path> coreClassFiles(Path temp) throws IOException {
        Path location;
        try {
            location = Path.of(McpClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isDirectory(location)) {
            return classFilesUnder(location);
        }
        try (FileSystem jar = FileSystems.newFileSystem(location)) {
            Path root = jar.getPath("/");
            for (Path p : classFilesUnder(root)) {
                Path target = temp.resolve(root.relativize(p).toString());
                Files.createDirectories(target.getParent());
                Files.copy(p, target);
            }
        }
        return classFilesUnder(temp);
    }

    /**
     * The class files under a root, without {@code module-info.class}: given one by one, jdeps reads them as plain
     * classes and does not resolve the module's dependencies (Jackson), which it would need for the module.
     */
    private static List<Path> classFilesUnder(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".class")
                            && !p.getFileName().toString().equals("module-info.class"))
                    .sorted().toList();
        }
    }

    private static List<String> jdeps(List<Path> classFiles) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError(
                "this JDK has no jdeps tool (module jdk.jdeps); run the tests on a full JDK"));
        List<String> args = new ArrayList<>(List.of("-verbose:class", "-filter:none"));
        classFiles.forEach(p -> args.add(p.toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            rc = jdeps.run(o, e, args.toArray(String[]::new));
        }
        if (rc != 0) {
            throw new AssertionError("jdeps failed (" + rc + "): " + err.toString(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static String topLevel(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('.'));
    }

    /**
     * The baseline file: one entry a line, {@code #} comments. {@code package-edge a -> b}: a dependency between two
     * packages of one cycle; {@code class-cycle A B C}: the members of a class cycle; {@code session-referrer A}: a
     * class allowed to refer to {@code Session}.
     */
    record Baseline(Set<String> packageEdges, List<Set<String>> classCycles, Set<String> sessionReferrers) {

        static Baseline read(Path file) throws IOException {
            Set<String> edges = new TreeSet<>();
            List<Set<String>> cycles = new ArrayList<>();
            Set<String> referrers = new TreeSet<>();
            int n = 0;
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                n++;
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) {
                    continue;
                }
                String[] words = l.split("\\s+");
                switch (words[0]) {
                    case "package-edge" -> {
                        if (words.length != 4 || !words[2].equals("->")) {
                            throw new AssertionError(file + ":" + n + ": expected 'package-edge a -> b'");
                        }
                        edges.add(words[1] + " -> " + words[3]);
                    }
                    case "class-cycle" -> {
                        if (words.length < 3) {
                            throw new AssertionError(file + ":" + n + ": a class cycle has two classes or more");
                        }
                        cycles.add(new TreeSet<>(List.of(words).subList(1, words.length)));
                    }
                    case "session-referrer" -> {
                        if (words.length != 2) {
                            throw new AssertionError(file + ":" + n + ": expected 'session-referrer a.B'");
                        }
                        referrers.add(words[1]);
                    }
                    default -> throw new AssertionError(file + ":" + n + ": unknown entry '" + words[0]
                            + "' (package-edge, class-cycle or session-referrer)");
                }
            }
            return new Baseline(edges, cycles, referrers);
        }

        static String render(Collection<String> edges, List<Set<String>> cycles, Set<String> referrers) {
            StringBuilder sb = new StringBuilder();
            sb.append("# mcp-core's walls not yet built (ArchitectureTest; see docs/architecture.md, \"Walls\").\n")
                    .append("# Exact: an entry that no longer holds fails the test too. Delete lines; never add one")
                    .append(" without review.\n\n# Dependencies between two packages of the same package cycle\n");
            edges.forEach(e -> sb.append("package-edge ").append(e).append('\n'));
            sb.append("\n# Class cycles (strongly connected components) with a class of an internal package\n");
            cycles.forEach(c -> sb.append("class-cycle ").append(String.join(" ", c)).append('\n'));
            sb.append("\n# Classes that refer to ").append(SESSION).append(": the facade (McpClient) and the engine")
                    .append(" classes that still do\n");
            referrers.forEach(r -> sb.append("session-referrer ").append(r).append('\n'));
            return sb.toString();
        }
    }
}
