import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The documentation's Java samples as a user's project: run by scripts/consumer-test.sh with the JDK's source launcher
 * (the convention is written at the top of that script and in docs/architecture.md, "Contributing").
 *
 * <pre>
 * java DocSamples.java extract ROOT OUT JUNIT_VERSION MODULE...   every ```java block of README.md and docs/*.md
 *     made into OUT (a Maven reactor, one module per dependency set; OUT/samples.map says where each came from)
 * java DocSamples.java report OUT MAVEN_LOG                        the compiler's errors named by file and line
 * </pre>
 *
 * Nothing is written outside OUT, and nothing of a sample is kept anywhere but in its Markdown file.
 */
public class DocSamples {

    private static final Pattern FENCE = Pattern.compile("^(\\s*)```(\\S*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*sample:(.*?)-->\\s*$");
    private static final Pattern MARKER_START = Pattern.compile("<!--\\s*sample:");
    private static final Pattern OPTION = Pattern.compile("\\s*(\\w+)=(?:\"([^\"]*)\"|(\\S+))");
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+(static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;.*$");
    private static final Pattern TYPE_DECLARATION = Pattern.compile(
            "^(?:(?:public|final|abstract|sealed|non-sealed)\\s+)*(?:class|record|interface|enum)\\s+(\\w+).*");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "^public\\s+(?:(?:final|abstract|sealed|non-sealed)\\s+)*(?:class|record|interface|enum)\\s+(\\w+).*");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;.*$");
    private static final Pattern EXPORTS = Pattern.compile("^\\s*exports\\s+([\\w.]+)\\s*;");
    /** What a fragment sees besides the packages of its modules: the JDK packages samples use without saying so. */
    private static final List<String> FRAGMENT_JDK_IMPORTS = List.of("java.io.*", "java.net.*", "java.nio.file.*",
            "java.time.*", "java.util.*", "java.util.concurrent.*", "java.util.function.*");

    public static void main(String[] args) throws IOException {
        switch (args.length > 0 ? args[0] : "") {
            case "extract" -> extract(Path.of(args[1]), Path.of(args[2]), args[3],
                    List.of(args).subList(4, args.length));
            case "report" -> System.exit(report(Path.of(args[1]), Path.of(args[2])));
            default -> {
                System.err.println("usage: DocSamples extract ROOT OUT JUNIT_VERSION MODULE... | report OUT MAVEN_LOG");
                System.exit(2);
            }
        }
    }

    /** A fenced java block: where it is, what its marker says. */
    record Block(String file, int fenceLine, List<String> lines, Map<String, String> options, String skipReason) {}

    static final class BadDocs extends RuntimeException {
        BadDocs(String message) {
            super(message);
        }
    }

    static void extract(Path root, Path out, String junitVersion, List<String> modules) throws IOException {
        Map<String, List<String>> exportsByModule = new LinkedHashMap<>();
        for (String module : modules) {
            Path info = root.resolve(module).resolve("src/main/java/module-info.java");
            if (!Files.exists(info)) {
                // a class-path-only module (the Spring ones: Spring Boot applications run on the class path): the
                // packages that have a package-info.java; none for the parent POM and the BOM
                Path sources = root.resolve(module).resolve("src/main/java");
                if (Files.isDirectory(sources)) {
                    try (var files = Files.walk(sources)) {
                        exportsByModule.put(module, files.filter(f -> f.endsWith("package-info.java"))
                                .map(f -> sources.relativize(f.getParent()).toString().replace('/', '.'))
                                .sorted().toList());
                    }
                }
                continue;
            }
            List<String> packages = new ArrayList<>();
            for (String line : Files.readAllLines(info)) {
                Matcher m = EXPORTS.matcher(line);
                if (m.find()) {
                    packages.add(m.group(1));   // unqualified exports only: what a user's code may import
                }
            }
            exportsByModule.put(module, packages);
        }
        List<String> files = new ArrayList<>();
        files.add("README.md");
        try (var docs = Files.list(root.resolve("docs"))) {
            docs.map(p -> "docs/" + p.getFileName()).filter(f -> f.endsWith(".md")).sorted().forEach(files::add);
        }
        List<String> problems = new ArrayList<>();
        Map<String, List<Block>> blocksByDeps = new TreeMap<>();
        Map<String, int[]> counts = new LinkedHashMap<>();   // file -> {compiled, skipped}
        for (String file : files) {
            int[] count = counts.computeIfAbsent(file, f -> new int[2]);
            for (Block block : blocks(file, Files.readAllLines(root.resolve(file)), problems)) {
                if (block.skipReason() != null) {
                    count[1]++;
                    continue;
                }
                try {
                    String deps = String.join(",", dependencies(block, exportsByModule));
                    blocksByDeps.computeIfAbsent(deps, d -> new ArrayList<>()).add(block);
                    count[0]++;
                } catch (BadDocs e) {
                    problems.add(e.getMessage());
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(p -> System.err.println("doc samples: " + p));
            System.exit(1);
        }
        Files.createDirectories(out);
        StringBuilder map = new StringBuilder();
        List<String> setDirs = new ArrayList<>();
        for (var entry : blocksByDeps.entrySet()) {
            List<String> deps = List.of(entry.getKey().split(","));
            String dir = deps.stream().map(d -> d.contains(":") ? d.split(":")[1] : d)
                    .map(d -> d.replaceFirst("^mcp-", "")).collect(Collectors.joining("+"));
            setDirs.add(dir);
            Path src = out.resolve(dir).resolve("src/main/java");
            for (Block block : entry.getValue()) {
                Path written = write(src, block, deps, exportsByModule);
                map.append(written.toAbsolutePath()).append('\t').append(block.file()).append('\t')
                        .append(block.fenceLine()).append('\n');
            }
            Files.writeString(out.resolve(dir).resolve("pom.xml"), modulePom(dir, deps));
        }
        Files.writeString(out.resolve("pom.xml"), reactorPom(setDirs, junitVersion));
        Files.writeString(out.resolve("samples.map"), map);
        counts.forEach((file, c) -> {
            if (c[0] + c[1] > 0) {
                System.out.println(file + ": " + c[0] + " compiled, " + c[1] + " skipped");
            }
        });
    }

    /** The java blocks of one Markdown file with their markers; a marker that marks no java block is a problem. */
    static List<Block> blocks(String file, List<String> lines, List<String> problems) {
        List<Block> blocks = new ArrayList<>();
        String fence = null;   // the indentation of the open fence, or null outside a fenced block
        boolean java = false;
        int start = 0;
        List<String> body = new ArrayList<>();
        String marker = null;
        int markerLine = 0;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher f = FENCE.matcher(line);
            if (fence == null) {
                if (f.matches()) {
                    fence = f.group(1);
                    java = f.group(2).equals("java");
                    start = i + 1;
                    body = new ArrayList<>();
                    if (marker != null && !java) {
                        problems.add(file + ":" + markerLine + ": a sample marker before a ```" + f.group(2)
                                + " block (markers go just before a ```java block)");
                    }
                    if (java) {
                        marker = marker == null ? "" : marker;
                    }
                    continue;
                }
                Matcher m = MARKER.matcher(line);
                if (m.matches()) {
                    if (marker != null) {
                        problems.add(file + ":" + markerLine + ": a sample marker with no ```java block after it");
                    }
                    marker = m.group(1).trim();
                    markerLine = i + 1;
                } else if (line.trim().startsWith("<!--") && MARKER_START.matcher(line).find()) {
                    problems.add(file + ":" + (i + 1) + ": a sample marker must be one line: <!-- sample: ... -->");
                } else if (!line.isBlank() && marker != null) {
                    problems.add(file + ":" + markerLine + ": a sample marker with no ```java block after it");
                    marker = null;
                }
            } else if (line.trim().equals("```")) {
                if (java) {
                    try {
                        blocks.add(block(file, start, body, marker));
                    } catch (BadDocs e) {
                        problems.add(e.getMessage());
                    }
                }
                fence = null;
                marker = null;
            } else {
                body.add(line.startsWith(fence) ? line.substring(fence.length()) : line);
            }
        }
        if (fence != null) {
            problems.add(file + ":" + start + ": a fenced block that never ends");
        }
        return blocks;
    }

    static Block block(String file, int fenceLine, List<String> body, String marker) {
        String where = file + ":" + fenceLine + ": ";
        if (marker.startsWith("skip")) {
            Matcher reason = Pattern.compile("^skip\\s*\\((.*\\S.*)\\)$").matcher(marker);
            if (!reason.matches()) {
                throw new BadDocs(where + "a skipped sample names its reason: <!-- sample: skip (why) -->");
            }
            return new Block(file, fenceLine, body, Map.of(), reason.group(1).trim());
        }
        Map<String, String> options = new LinkedHashMap<>();
        Matcher o = OPTION.matcher(marker);
        int at = 0;
        while (at < marker.length() && o.find(at) && o.start() == at) {
            String key = o.group(1);
            if (!Set.of("deps", "given", "imports").contains(key)) {
                throw new BadDocs(where + "unknown sample option '" + key + "' (deps, given, imports, or skip (why))");
            }
            options.put(key, o.group(2) != null ? o.group(2) : o.group(3));
            at = o.end();
        }
        if (!marker.substring(at).isBlank()) {
            throw new BadDocs(where + "cannot read the sample marker at '" + marker.substring(at).trim() + "'");
        }
        if (body.stream().allMatch(String::isBlank)) {
            throw new BadDocs(where + "an empty java block");
        }
        return new Block(file, fenceLine, body, options, null);
    }

    /** mcp-core, the modules whose packages the block imports, and what its marker names. */
    static Set<String> dependencies(Block block, Map<String, List<String>> exportsByModule) {
        Set<String> deps = new TreeSet<>();
        deps.add("mcp-core");
        for (String line : block.lines()) {
            Matcher m = IMPORT.matcher(line);
            if (m.matches() && m.group(2).startsWith("dev.loommcp.")) {
                String module = owner(m.group(2), exportsByModule);
                if (module == null) {
                    throw new BadDocs(block.file() + ":" + block.fenceLine() + ": '" + m.group(2)
                            + "' is in no package a published module exports");
                }
                deps.add(module);
            }
        }
        for (String dep : list(block.options().getOrDefault("deps", ""), ",")) {
            if (!dep.contains(":") && !exportsByModule.containsKey(dep)) {
                throw new BadDocs(block.file() + ":" + block.fenceLine() + ": deps names '" + dep
                        + "', which is no published module (" + String.join(", ", exportsByModule.keySet())
                        + ") nor a groupId:artifactId");
            }
            deps.add(dep);
        }
        return deps;
    }

    /** The module exporting the package of an import (a.b.C, a.b.*, or static a.b.C.m), or null. */
    static String owner(String imported, Map<String, List<String>> exportsByModule) {
        String best = null;
        int length = -1;
        for (var e : exportsByModule.entrySet()) {
            for (String p : e.getValue()) {
                if (imported.startsWith(p + ".") && p.length() > length) {
                    char next = imported.charAt(p.length() + 1);
                    if (Character.isUpperCase(next) || next == '*') {
                        best = e.getKey();
                        length = p.length();
                    }
                }
            }
        }
        return best;
    }

    /**
     * Writes one block as a source file whose line n + 1 is the block's line n: the generated text goes on line 1
     * (the package, a fragment's imports) or in front of a line (a fragment's class and method).
     */
    static Path write(Path src, Block block, List<String> deps, Map<String, List<String>> exportsByModule)
            throws IOException {
        String pkg = "samples." + block.file().toLowerCase().replaceAll("[^a-z0-9]+", "_") + "_l" + block.fenceLine();
        List<String> lines = new ArrayList<>(block.lines());
        boolean unit = lines.stream().anyMatch(l -> TYPE_DECLARATION.matcher(l).matches() || l.startsWith("@")
                || PACKAGE.matcher(l).matches());
        String header;
        String name;
        if (unit) {
            if (block.options().containsKey("given") || block.options().containsKey("imports")) {
                throw new BadDocs(block.file() + ":" + block.fenceLine()
                        + ": given= and imports= are for fragments; this block declares a type");
            }
            String own = lines.stream().map(PACKAGE::matcher).filter(Matcher::matches).map(m -> m.group(1))
                    .findFirst().orElse(null);
            header = own == null ? "package " + pkg + ";" : "";
            pkg = own == null ? pkg : own;
            name = lines.stream().map(PUBLIC_TYPE::matcher).filter(Matcher::matches).map(m -> m.group(1))
                    .findFirst().orElseGet(() -> lines.stream().map(TYPE_DECLARATION::matcher)
                            .filter(Matcher::matches).map(m -> m.group(1)).findFirst().orElse("Sample"));
        } else {
            name = "Sample";
            Set<String> imports = new LinkedHashSet<>();
            imports.add("dev.loommcp.*");
            for (String dep : deps) {
                exportsByModule.getOrDefault(dep, List.of()).forEach(p -> imports.add(p + ".*"));
            }
            imports.addAll(FRAGMENT_JDK_IMPORTS);
            imports.addAll(list(block.options().getOrDefault("imports", ""), ","));
            header = "package " + pkg + "; " + imports.stream().map(i -> "import " + i + ";")
                    .collect(Collectors.joining(" "));
            StringBuilder opening = new StringBuilder("public class Sample { ");
            List<String> parameters = new ArrayList<>();
            for (String given : list(block.options().getOrDefault("given", ""), ";")) {
                if (given.contains("(")) {   // a method the sample calls: a stub
                    opening.append("static ").append(given).append(" { throw new UnsupportedOperationException(); } ");
                } else {
                    parameters.add(given);
                }
            }
            opening.append("static void sample(").append(String.join(", ", parameters)).append(") throws Exception { ");
            int first = 0;   // the first line after the block's own imports
            while (first < lines.size() && (lines.get(first).isBlank() || IMPORT.matcher(lines.get(first)).matches()
                    || lines.get(first).trim().startsWith("//"))) {
                first++;
            }
            if (first == lines.size()) {
                throw new BadDocs(block.file() + ":" + block.fenceLine() + ": a fragment with nothing but imports");
            }
            lines.set(first, opening + lines.get(first));
            lines.add("}}");
        }
        Path file = src.resolve(pkg.replace('.', '/')).resolve(name + ".java");
        Files.createDirectories(file.getParent());
        if (Files.exists(file)) {
            throw new BadDocs(block.file() + ":" + block.fenceLine() + ": " + pkg + "." + name + " is declared twice");
        }
        Files.writeString(file, header + "\n" + String.join("\n", lines) + "\n");
        return file;
    }

    static List<String> list(String value, String separator) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(Pattern.quote(separator))) {
            if (!item.isBlank()) {
                items.add(item.trim());
            }
        }
        return items;
    }

    static String modulePom(String dir, List<String> deps) {
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>dev.example</groupId>
                    <artifactId>doc-samples</artifactId>
                    <version>1.0</version>
                  </parent>
                  <artifactId>doc-samples-%s</artifactId>
                """.formatted(dir.replace('+', '-')));
        // groupId:artifactId:version:import is a BOM (e.g. Spring Boot's, whose versions a Spring sample needs)
        List<String[]> boms = deps.stream().map(d -> d.split(":")).filter(g -> g.length == 4 && g[3].equals("import"))
                .toList();
        if (!boms.isEmpty()) {
            xml.append("  <dependencyManagement>\n    <dependencies>\n");
            for (String[] g : boms) {
                xml.append("      <dependency><groupId>").append(g[0]).append("</groupId><artifactId>").append(g[1])
                        .append("</artifactId><version>").append(g[2])
                        .append("</version><type>pom</type><scope>import</scope></dependency>\n");
            }
            xml.append("    </dependencies>\n  </dependencyManagement>\n");
        }
        xml.append("  <dependencies>\n");
        for (String dep : deps) {   // mcp-x, or groupId:artifactId[:version]
            String[] gav = dep.contains(":") ? dep.split(":") : new String[] {"dev.loommcp", dep};
            if (gav.length == 4 && gav[3].equals("import")) {
                continue;
            }
            xml.append("    <dependency><groupId>").append(gav[0]).append("</groupId><artifactId>").append(gav[1])
                    .append("</artifactId>").append(gav.length > 2 ? "<version>" + gav[2] + "</version>" : "")
                    .append("</dependency>\n");
        }
        return xml.append("  </dependencies>\n</project>\n").toString();
    }

    static String reactorPom(List<String> modules, String junitVersion) {
        return """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <!-- generated by scripts/DocSamples.java: the documentation's java blocks, one module per set of
                       dependencies, set up as the README tells a user (the BOM imported, release 21) -->
                  <groupId>dev.example</groupId>
                  <artifactId>doc-samples</artifactId>
                  <version>1.0</version>
                  <packaging>pom</packaging>
                  <modules>
                %s
                  </modules>
                  <properties>
                    <maven.compiler.release>21</maven.compiler.release>
                    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
                    <loommcp.version>0.1.0-SNAPSHOT</loommcp.version>
                    <loommcp.repository>file:///nonexistent</loommcp.repository>
                  </properties>
                  <repositories>
                    <repository>
                      <id>loommcp-staging</id>
                      <url>${loommcp.repository}</url>
                      <snapshots><enabled>true</enabled><updatePolicy>always</updatePolicy></snapshots>
                    </repository>
                  </repositories>
                  <dependencyManagement>
                    <dependencies>
                      <dependency>
                        <groupId>dev.loommcp</groupId>
                        <artifactId>mcp-bom</artifactId>
                        <version>${loommcp.version}</version>
                        <type>pom</type>
                        <scope>import</scope>
                      </dependency>
                      <dependency>
                        <groupId>org.junit</groupId>
                        <artifactId>junit-bom</artifactId>
                        <version>%s</version>
                        <type>pom</type>
                        <scope>import</scope>
                      </dependency>
                    </dependencies>
                  </dependencyManagement>
                  <build>
                    <pluginManagement>
                      <plugins>
                        <plugin>
                          <groupId>org.apache.maven.plugins</groupId>
                          <artifactId>maven-resources-plugin</artifactId>
                          <version>3.3.1</version>
                        </plugin>
                        <plugin>
                          <groupId>org.apache.maven.plugins</groupId>
                          <artifactId>maven-compiler-plugin</artifactId>
                          <version>3.14.0</version>
                        </plugin>
                      </plugins>
                    </pluginManagement>
                  </build>
                </project>
                """.formatted(modules.stream().map(m -> "    <module>" + m + "</module>")
                .collect(Collectors.joining("\n")), junitVersion);
    }

    private static final Pattern ERROR = Pattern.compile("^\\[ERROR\\] (/\\S+\\.java):\\[(\\d+),(\\d+)\\] (.*)$");

    /** Prints each compiler error of the Maven log as FILE:LINE of the Markdown; 1 when there was any. */
    static int report(Path out, Path log) throws IOException {
        Map<String, String[]> origin = new LinkedHashMap<>();
        for (String line : Files.readAllLines(out.resolve("samples.map"))) {
            String[] f = line.split("\t");
            origin.put(f[0], new String[] {f[1], f[2]});
        }
        List<String> lines = Files.readAllLines(log);
        Map<String, String> seen = new LinkedHashMap<>();   // Maven repeats each error in its summary
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = ERROR.matcher(lines.get(i));
            if (!m.matches()) {
                continue;
            }
            String[] from = origin.get(m.group(1));
            String key = m.group(1) + ":" + m.group(2) + ":" + m.group(3) + ":" + m.group(4);
            if (seen.containsKey(key)) {
                continue;
            }
            StringBuilder message = new StringBuilder();
            if (from == null) {
                message.append(m.group(1)).append(':').append(m.group(2)).append(": ");
            } else {
                int fence = Integer.parseInt(from[1]);
                message.append(from[0]).append(':').append(fence + Integer.parseInt(m.group(2)) - 1)
                        .append(": (the java block at line ").append(fence).append(") ");
            }
            message.append(m.group(4));
            for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("["); j++) {
                message.append("\n    ").append(lines.get(j).trim());
            }
            seen.put(key, message.toString());
        }
        seen.values().forEach(s -> System.err.println("doc samples: " + s));
        return seen.isEmpty() ? 0 : 1;
    }

    private DocSamples() {}
}
