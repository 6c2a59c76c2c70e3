package dev.loommcp.transport.stdio;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Everything a launch needs, validated by the builder. Its {@link #toString()} never shows arguments or environment
 * values.
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
