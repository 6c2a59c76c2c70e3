package dev.loommcp.transport.stdio;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Launch-time helpers: the platform, program resolution on {@code PATH}, the safe environment, variable validation
 * and the process-group launcher. Stateless; every method is thread-safe.
 */
final class Launch {

    /** The platforms the transport tells apart. */
    enum Os { LINUX, MAC, WINDOWS, OTHER_UNIX }

    static final Os OS = detectOs();

    /** Variables passed from the parent on Unix when the environment is not inherited (exact names). */
    private static final Set<String> SAFE_UNIX = Set.of(
            "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "TZ");

    /** Variables passed from the parent on Windows (matched ignoring case, as Windows does). */
    private static final Set<String> SAFE_WINDOWS = Set.of(
            "PATH", "PATHEXT", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "TEMP", "TMP", "USERPROFILE",
            "USERNAME", "USERDOMAIN", "HOMEDRIVE", "HOMEPATH", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA",
            "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432", "COMMONPROGRAMFILES", "COMMONPROGRAMFILES(X86)",
            "COMMONPROGRAMW6432", "ALLUSERSPROFILE", "PUBLIC", "OS", "PROCESSOR_ARCHITECTURE",
            "NUMBER_OF_PROCESSORS", "COMPUTERNAME", "LANG", "TZ");

    private Launch() {
    }

    private static Os detectOs() {
        String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (name.startsWith("windows")) {
            return Os.WINDOWS;
        }
        if (name.startsWith("mac") || name.startsWith("darwin")) {
            return Os.MAC;
        }
        if (name.startsWith("linux")) {
            return Os.LINUX;
        }
        return Os.OTHER_UNIX;
    }

    static boolean windows() {
        return OS == Os.WINDOWS;
    }

    /**
     * Returns whether a parent variable is on the safe list.
     *
     * @param name the variable name
     * @return {@code true} if it is passed to the child by default
     */
    static boolean isSafe(String name) {
        if (windows()) {
            String upper = name.toUpperCase(Locale.ROOT);
            return SAFE_WINDOWS.contains(upper) || upper.startsWith("LC_");
        }
        return SAFE_UNIX.contains(name) || name.startsWith("LC_");
    }

    /**
     * Builds the child's environment: the safe list from {@code parent} (or all of it when {@code inherit}), then the
     * caller's variables over it.
     *
     * @param parent  the parent's environment
     * @param inherit whether to pass the whole parent environment
     * @param caller  the caller's variables (validated)
     * @return the environment
     */
    static Map<String, String> childEnvironment(Map<String, String> parent, boolean inherit,
                                                Map<String, String> caller) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : parent.entrySet()) {
            if (inherit || isSafe(e.getKey())) {
                env.put(e.getKey(), e.getValue());
            }
        }
        for (Map.Entry<String, String> e : caller.entrySet()) {
            if (windows()) {
                env.keySet().removeIf(k -> k.equalsIgnoreCase(e.getKey()));
            }
            env.put(e.getKey(), e.getValue());
        }
        return env;
    }

    /**
     * Validates one environment variable; the message names the variable and never contains the value.
     *
     * @throws IllegalArgumentException when the name or the value is not acceptable
     * @throws NullPointerException     when the name or the value is {@code null}
     */
    static void validateVariable(String name, String value) {
        if (name == null) {
            throw new NullPointerException("environment variable name is null");
        }
        if (name.isEmpty()) {
            throw new IllegalArgumentException("environment variable name is empty");
        }
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("environment variable name contains a NUL character: "
                    + printable(name));
        }
        if (name.indexOf('=') >= 0) {
            throw new IllegalArgumentException("environment variable name contains '=': " + printable(name));
        }
        if (value == null) {
            throw new NullPointerException("value of environment variable " + name + " is null");
        }
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("value of environment variable " + name
                    + " contains a NUL character");
        }
        checkEncodable(name, () -> "environment variable name " + printable(name));
        checkEncodable(value, () -> "the value of environment variable " + name);
    }

    /**
     * The charset the JDK encodes a child's program path, arguments, working directory and environment in on
     * Unix-like systems ({@code sun.jnu.encoding}, from the JVM's locale); {@code null} on Windows, which passes
     * UTF-16.
     */
    private static final java.nio.charset.Charset NATIVE = nativeCharset();

    private static java.nio.charset.Charset nativeCharset() {
        if (OS == Os.WINDOWS) {
            return null;
        }
        try {
            return java.nio.charset.Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return null; // an encoding this JDK cannot name: leave the check to the launch itself
        }
    }

    /**
     * Refuses a string the JDK would damage on its way to a child process: in a JVM whose locale is not UTF-8 (the
     * {@code C} or {@code POSIX} locale, {@code sun.jnu.encoding} {@code ANSI_X3.4-1968}) every character outside
     * that charset silently becomes {@code ?}. The message names the string ({@code what}), never its value.
     *
     * @throws IllegalArgumentException when {@code value} cannot be encoded
     */
    static void checkEncodable(String value, java.util.function.Supplier<String> what) {
        java.nio.charset.Charset cs = NATIVE;
        if (cs == null || value.chars().allMatch(c -> c < 0x80) || cs.newEncoder().canEncode(value)) {
            return;
        }
        throw new IllegalArgumentException(what.get() + " has characters that this JVM's native encoding ("
                + cs.name() + ", from its locale) cannot pass to a process; they would arrive as '?'. Start the "
                + "JVM in a UTF-8 locale (for example LANG=C.UTF-8)");
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length() && i < 100; i++) {
            char c = s.charAt(i);
            sb.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return sb.toString();
    }

    /**
     * Resolves the program the way a shell would: a name with a path separator is taken relative to the working
     * directory; a bare name is searched on {@code PATH} (on Windows trying each {@code PATHEXT} extension).
     *
     * @param program the program as given
     * @param path    the {@code PATH} value to search, or {@code null}
     * @param pathext the {@code PATHEXT} value (Windows), or {@code null}
     * @param baseDir the working directory of the child
     * @return the absolute path of an executable file
     * @throws IllegalArgumentException "not found" or "not executable", naming the program (never the PATH value)
     */
    static Path resolveProgram(String program, String path, String pathext, Path baseDir) {
        List<String> exts = extensions(program, pathext);
        boolean hasSeparator = program.indexOf('/') >= 0 || (windows() && (program.indexOf('\\') >= 0
                || program.indexOf(':') >= 0));
        List<Path> dirs = new ArrayList<>();
        Path direct = null;
        if (hasSeparator) {
            try {
                direct = baseDir.resolve(program);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("program " + program + " is not a valid path");
            }
        } else if (path != null) {
            for (String entry : path.split(File.pathSeparator, -1)) {
                try {
                    dirs.add(entry.isEmpty() ? baseDir : baseDir.resolve(entry));
                } catch (InvalidPathException ignored) {
                    // an unusable PATH entry is skipped, as a shell does
                }
            }
        }
        Path notExecutable = null;
        List<Path> candidates = new ArrayList<>();
        if (direct != null) {
            for (String ext : exts) {
                candidates.add(Path.of(direct + ext));
            }
        } else {
            for (Path dir : dirs) {
                for (String ext : exts) {
                    try {
                        candidates.add(dir.resolve(program + ext));
                    } catch (InvalidPathException e) {
                        throw new IllegalArgumentException("program " + program + " is not a valid file name");
                    }
                }
            }
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                if (Files.isExecutable(c)) {
                    return c.toAbsolutePath().normalize();
                }
                if (notExecutable == null) {
                    notExecutable = c.toAbsolutePath().normalize();
                }
            }
        }
        if (notExecutable != null) {
            throw new IllegalArgumentException("program " + program + " is not executable: " + notExecutable
                    + " exists but may not be executed (check its permissions)");
        }
        if (direct != null) {
            if (Files.isDirectory(direct)) {
                throw new IllegalArgumentException("program " + program + " is not executable: " + direct
                        + " is a directory");
            }
            throw new IllegalArgumentException("program " + program + " not found: " + direct
                    + " does not exist");
        }
        if (path == null) {
            throw new IllegalArgumentException("program " + program + " not found: PATH is not set");
        }
        throw new IllegalArgumentException("program " + program + " not found on PATH (" + dirs.size()
                + " directories searched" + (windows() ? " with PATHEXT extensions" : "") + ")");
    }

    private static List<String> extensions(String program, String pathext) {
        List<String> exts = new ArrayList<>();
        exts.add("");
        if (windows()) {
            String name = program.substring(Math.max(program.lastIndexOf('/'), program.lastIndexOf('\\')) + 1);
            if (name.indexOf('.') < 0) {
                exts.clear();
                String pe = pathext == null || pathext.isBlank() ? ".COM;.EXE;.BAT;.CMD" : pathext;
                for (String e : pe.split(";")) {
                    if (!e.isBlank()) {
                        exts.add(e.strip().toLowerCase(Locale.ROOT));
                    }
                }
                exts.add("");
            }
        }
        return exts;
    }

    /**
     * Returns the launcher prefix that makes the program the leader of a new process group through {@code perl}
     * (macOS, and Linux without {@code setsid}): {@code setpgrp(0, 0)}, then exec the program with its arguments
     * unchanged (no shell is involved).
     *
     * @param perl the perl executable
     * @return the prefix; the program and its arguments follow it
     */
    static List<String> perlLauncher(Path perl) {
        return List.of(perl.toString(), "-e", "setpgrp(0, 0); exec { $ARGV[0] } @ARGV; exit 127;", "--");
    }

    /**
     * Finds a helper program (setsid, perl, kill) on the JVM's own {@code PATH} or in the usual places.
     *
     * @param name the program name
     * @return its absolute path, or {@code null} if there is none
     */
    static Path findHelper(String name) {
        try {
            return resolveProgram(name, System.getenv("PATH"), null, Path.of("").toAbsolutePath());
        } catch (IllegalArgumentException e) {
            for (String dir : List.of("/usr/bin", "/bin", "/usr/local/bin")) {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return p;
                }
            }
            return null;
        }
    }
}
