package dev.loommcp.transport.stdio;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Everything a launch needs, validated ({@link #of}) when the builder builds. Its {@link #toString()} never shows
 * arguments or environment values.
 *
 * @param programName       argv[0] as given (for messages)
 * @param executable        argv[0] resolved to an absolute path
 * @param args              the arguments after argv[0]
 * @param launcher          the prefix that starts the child in its own process group (may be empty)
 * @param killCommand       the {@code kill} program for group signals, or {@code null}
 * @param workingDirectory  the directory, or {@code null} for the JVM's
 * @param environment       the child's whole environment
 * @param maxMessageBytes   the longest stdout line accepted
 * @param stderrBufferBytes the stderr ring's size
 * @param stderrListener    the stderr line listener, or {@code null}
 * @param startupTimeout    the first message's deadline after launch
 * @param stdinCloseGrace   how long to wait after closing stdin
 * @param terminateGrace    how long to wait after SIGTERM
 * @param killGrace         how long to wait after SIGKILL
 */
record LaunchConfig(String programName, Path executable, List<String> args, List<String> launcher, Path killCommand,
                    Path workingDirectory, Map<String, String> environment, int maxMessageBytes,
                    int stderrBufferBytes, Consumer<String> stderrListener, Duration startupTimeout,
                    Duration stdinCloseGrace, Duration terminateGrace, Duration killGrace) {

    /**
     * Validates the settings of a {@link StdioTransport.Builder} and resolves the program (what
     * {@link StdioTransport.Builder#build()} does): the program and arguments (no NUL, encodable in the native
     * encoding), the working directory (exists, is a directory), the environment variables; then the child's whole
     * environment and the program found on its {@code PATH}, with the process-group helpers of this JVM.
     *
     * @return the configuration
     * @throws IllegalArgumentException as documented on {@link StdioTransport.Builder#build()}, naming what is wrong
     *                                  and never an environment value
     * @throws NullPointerException     if an environment variable's name or value is {@code null}
     */
    static LaunchConfig of(List<String> argv, Path workingDirectory, Map<String, String> environment,
                           boolean inheritEnvironment, int maxMessageBytes, int stderrBufferBytes,
                           Consumer<String> stderrListener, Duration startupTimeout, Duration stdinCloseGrace,
                           Duration terminateGrace, Duration killGrace) {
        String program = argv.get(0);
        if (program.isEmpty()) {
            throw new IllegalArgumentException("the program (argv[0]) is empty");
        }
        for (int i = 0; i < argv.size(); i++) {
            if (argv.get(i).indexOf('\0') >= 0) {
                throw new IllegalArgumentException(i == 0 ? "the program name contains a NUL character"
                        : "argument " + i + " of " + program + " contains a NUL character");
            }
            int index = i;
            Launch.checkEncodable(argv.get(i), () -> index == 0 ? "the program name"
                    : "argument " + index + " of " + program);
        }
        Path dir = null;
        if (workingDirectory != null) {
            dir = workingDirectory.toAbsolutePath().normalize();
            Launch.checkEncodable(dir.toString(), () -> "the working directory");
            if (!Files.exists(dir)) {
                throw new IllegalArgumentException("working directory " + workingDirectory
                        + " does not exist");
            }
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("working directory " + workingDirectory
                        + " is not a directory");
            }
        }
        for (Map.Entry<String, String> e : environment.entrySet()) {
            Launch.validateVariable(e.getKey(), e.getValue());
        }
        Map<String, String> env = Launch.childEnvironment(System.getenv(), inheritEnvironment, environment);
        Path base = dir != null ? dir : Path.of("").toAbsolutePath();
        Path executable = Launch.resolveProgram(program, lookup(env, "PATH"), lookup(env, "PATHEXT"), base);
        LaunchHelpers helpers = LaunchHelpers.get();
        return new LaunchConfig(program, executable, List.copyOf(argv.subList(1, argv.size())),
                helpers.launcher, helpers.kill, dir, Collections.unmodifiableMap(env), maxMessageBytes,
                stderrBufferBytes, stderrListener, startupTimeout, stdinCloseGrace, terminateGrace, killGrace);
    }

    private static String lookup(Map<String, String> env, String name) {
        if (Launch.windows()) {
            for (Map.Entry<String, String> e : env.entrySet()) {
                if (e.getKey().toUpperCase(Locale.ROOT).equals(name)) {
                    return e.getValue();
                }
            }
            return null;
        }
        return env.get(name);
    }

    /**
     * A builder's check of a duration that must be positive.
     *
     * @throws NullPointerException     if {@code d} is {@code null}
     * @throws IllegalArgumentException if it is not positive or longer than {@link StdioTransport#MAX_DURATION}
     */
    static Duration positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
        return capped(d, name);
    }

    /**
     * A builder's check of a duration that may be zero.
     *
     * @throws NullPointerException     if {@code d} is {@code null}
     * @throws IllegalArgumentException if it is negative or longer than {@link StdioTransport#MAX_DURATION}
     */
    static Duration nonNegative(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + d);
        }
        return capped(d, name);
    }

    /**
     * Refuses durations beyond {@link StdioTransport#MAX_DURATION}, which would overflow the nanosecond clock
     * arithmetic.
     */
    private static Duration capped(Duration d, String name) {
        if (d.compareTo(StdioTransport.MAX_DURATION) > 0) {
            throw new IllegalArgumentException(name + " must be at most " + StdioTransport.MAX_DURATION.toDays()
                    + " days, got " + d);
        }
        return d;
    }

    /** Returns the command executed: the launcher prefix, the resolved program, the arguments. */
    List<String> processCommand() {
        List<String> cmd = new java.util.ArrayList<>(launcher);
        cmd.add(executable.toString());
        cmd.addAll(args);
        return cmd;
    }

    /**
     * Returns the era-verdict cache key: {@code "stdio:"} and the hex SHA-256 of the resolved program, the
     * arguments, the working directory (the JVM's current one when none was set) and the environment sorted by
     * name, each field length-prefixed so no two configurations encode alike. Values never appear in clear.
     */
    String serverKey() {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from the JDK", e);
        }
        Path dir = workingDirectory != null ? workingDirectory : Path.of("").toAbsolutePath();
        digestField(sha, "program", executable.toString());
        digestField(sha, "args", Integer.toString(args.size()));
        for (String a : args) {
            digestField(sha, "arg", a);
        }
        digestField(sha, "cwd", dir.normalize().toString());
        for (Map.Entry<String, String> e : new TreeMap<>(environment).entrySet()) {
            digestField(sha, "env", e.getKey());
            digestField(sha, "value", e.getValue());
        }
        return "stdio:" + HexFormat.of().formatHex(sha.digest());
    }

    private static void digestField(MessageDigest sha, String tag, String value) {
        byte[] bytes = (tag + ':' + value).getBytes(StandardCharsets.UTF_8);
        sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        sha.update(bytes);
    }

    /** Returns whether the child is started as the leader of its own process group. */
    boolean grouped() {
        return !launcher.isEmpty();
    }

    /**
     * Returns whether the child is started as the leader of its own session too ({@code setsid}, on Linux), so that
     * every process of that session belongs to its tree (the perl launcher makes a new group in the JVM's session).
     */
    boolean ownSession() {
        return launcher.size() == 1 && Path.of(launcher.getFirst()).getFileName().toString().equals("setsid");
    }

    @Override
    public String toString() {
        return "LaunchConfig[" + programName + ", " + args.size() + " arguments, " + environment.size()
                + " environment variables]";
    }
}
