package dev.loommcp.transport.stdio;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

    /** Returns whether the child is started as the leader of its own process group. */
    boolean grouped() {
        return !launcher.isEmpty();
    }

    @Override
    public String toString() {
        return "LaunchConfig[" + programName + ", " + args.size() + " arguments, " + environment.size()
                + " environment variables]";
    }
}
