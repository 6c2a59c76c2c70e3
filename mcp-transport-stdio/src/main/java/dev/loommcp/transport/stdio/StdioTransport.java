package dev.loommcp.transport.stdio;

import dev.loommcp.McpClosedException;
import dev.loommcp.McpTransportException;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import dev.loommcp.spi.McpTransport;
import dev.loommcp.spi.SendContext;
import dev.loommcp.spi.TransportContext;
import java.lang.ref.Cleaner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The MCP stdio transport (MCP "Transports: stdio"; DESIGN.md section 4; issue 3 and the C++ seed's "hardened local
 * launch"): runs an MCP server as a child process and exchanges newline-delimited JSON-RPC messages over its stdin
 * and stdout.
 *
 * <pre>{@code
 * StdioTransport transport = StdioTransport.newBuilder("npx", "-y", "@modelcontextprotocol/server-everything")
 *         .putEnvironment("API_KEY", key)            // added to the small safe environment
 *         .workingDirectory(Path.of("/srv/mcp"))
 *         .build();                                   // resolves npx on PATH, validates everything
 * McpClient client = McpClient.newBuilder(transport).build();
 * }</pre>
 *
 * <h2>Launch</h2>
 * {@link Builder#build()} validates the launch before anything runs: the program is resolved on {@code PATH} (the
 * {@code PATH} the child will get; on Windows trying the {@code PATHEXT} extensions, so {@code npx} finds
 * {@code npx.cmd}), and "not found" and "not executable" are distinct errors naming the program; the working
 * directory must exist and be a directory; environment variable names must be non-empty without {@code '='} or NUL,
 * values without NUL. Errors name the variable or path and never show a value.
 *
 * <p><b>Environment.</b> By default the child does not get the parent's environment: it gets only
 * {@code PATH, HOME, USER, LOGNAME, SHELL, TERM, TMPDIR, LANG, LC_*, TZ} (on Windows also {@code PATHEXT,
 * SystemRoot, SystemDrive, windir, ComSpec, TEMP, TMP, USERPROFILE, USERNAME, USERDOMAIN, HOMEDRIVE, HOMEPATH,
 * APPDATA, LOCALAPPDATA, ProgramData, ProgramFiles, ProgramFiles(x86), ProgramW6432, CommonProgramFiles*,
 * ALLUSERSPROFILE, PUBLIC, OS, PROCESSOR_ARCHITECTURE, NUMBER_OF_PROCESSORS, COMPUTERNAME}, matched ignoring case)
 * from the parent, plus the variables set on the builder, which win. {@link Builder#inheritEnvironment(boolean)}
 * passes the whole parent environment instead. Environment values are never logged or put in messages.
 *
 * <h2>Framing</h2>
 * Messages are UTF-8 JSON, one per line. Inbound, {@code "\r\n"} line ends and blank lines are tolerated and a line
 * may hold a JSON-RPC batch (each member is delivered). A line that is not JSON-RPC (a log line a server printed on
 * stdout by mistake) is counted ({@link #skippedLines()}), logged at WARNING with an excerpt of at most 80
 * characters (only when it is not JSON: a JSON line that is not JSON-RPC is described, never quoted), reported to
 * the sink's {@code onSkipped}, and skipped. A line longer than {@link Builder#maxMessageBytes(int)} (default
 * 16 MiB) fails the transport with an {@link McpTransportException} naming the limit; memory stays bounded by the
 * limit however long the line is.
 *
 * <h2>Sending</h2>
 * {@link #send} encodes the message on the caller's thread and either writes it there, when the write provably
 * cannot block (nothing queued, a small message, and the child answered the last request, so that the pipe has room:
 * a sequential exchange takes this path and costs no hand-off), or queues it for the single writer thread, which
 * writes everything queued and then flushes once. It never waits for the pipe, so a child that stops reading its stdin
 * never blocks a caller: the caller's request fails at its own deadline in the client. More than
 * {@code max(64 MiB, 4 * maxMessageBytes)} bytes queued makes {@code send} fail rather than grow memory further.
 *
 * <h2>stderr</h2>
 * stderr is drained at all times by its own thread into a ring buffer of {@link Builder#stderrBufferBytes(int)}
 * (default 64 KiB) that keeps the last lines ({@link #stderrTail()}); each line (cut at 8 KiB) also goes to the
 * optional {@link Builder#stderrListener(Consumer)}. However much a child writes, it is never blocked on stderr and
 * memory stays bounded: the ring holds its lines as UTF-8 bytes in one array of at most
 * {@code stderrBufferBytes}, so the heap it holds is bounded by that size whatever the line lengths (a flood of
 * one-byte lines costs no more than one long line). A listener that throws (any {@link Throwable}, an {@link Error}
 * too) is logged at WARNING (the exception's class only, never the line) and draining goes on.
 *
 * <h2>Failure</h2>
 * When the child exits, every pending call fails at once: the sink's {@code onClosed} is called exactly once with an
 * {@link McpProcessExitedException} carrying the exit code (or signal), the stderr tail and the program name, as
 * soon as the process exits (after giving its pipes at most 0.5 s to deliver what it wrote last). A child that
 * exits during the handshake therefore fails {@code connect()} at once, not at a timeout. The transport also fails
 * when no message at all arrived within {@link Builder#startupTimeout(Duration)} (default 30 s) of the launch, when
 * the child closes its stdout while still running, or on an oversized line; in every case the process tree is then
 * ended in the background with the shutdown sequence below. After a failure {@link #send} throws the exception that
 * ended the transport; after {@link #close()} it throws {@link McpClosedException} (with that failure as its cause,
 * if the transport had failed before it was closed).
 *
 * <h2>Process tree and shutdown</h2>
 * The transport owns the child and everything it starts. {@link #close()} runs these steps, each bounded:
 * <ol>
 *   <li>close the child's stdin (after writing what is already queued) and wait up to
 *       {@link Builder#stdinCloseGrace(Duration)} (default 2 s): a server that exits on end of input costs no
 *       signal;</li>
 *   <li>send {@code SIGTERM} to the whole tree and wait up to {@link Builder#terminateGrace(Duration)}
 *       (default 2 s);</li>
 *   <li>send {@code SIGKILL} to what is left and wait up to {@link Builder#killGrace(Duration)} (default 2 s).</li>
 * </ol>
 * When the child itself has already died (it exited or was killed while, say, a grandchild still holds its pipes),
 * the first step does not wait: what is left of its group is sent {@code SIGTERM} at once (then {@code SIGKILL}
 * after the terminate grace), and {@code close()} returns once it is gone.
 * {@code close()} therefore returns within the sum of the three bounds plus a few seconds of overhead at worst (each
 * signal is sent by running {@code kill}, bounded at 3 s, and the transport's own threads are collected within about
 * one second; normally both take milliseconds), even for a child that ignores {@code SIGTERM} or never reads its stdin. It never
 * throws; the exit code of a child ended this way is available from {@link #exitCode()}.
 *
 * <p>What "the whole tree" means per platform:
 * <ul>
 *   <li><b>Linux:</b> the child is started through {@code setsid} (util-linux, found on {@code PATH} when the
 *       builder runs), so it leads a new session and process group whose id is its pid; descendants stay in that
 *       group unless they move themselves. Signals go to the group with {@code kill -SIG -- -pgid} (atomic, so a
 *       process forking meanwhile is reached too) and to every remaining member found through {@code /proc} and
 *       {@link ProcessHandle#descendants()} one by one. This reaches grandchildren whose parent already exited (the
 *       {@code npx -> node} and {@code sh -c 'server & wait'} shapes). Without {@code setsid}, {@code perl} is used
 *       as on macOS; without either, only descendants are reached.</li>
 *   <li><b>macOS (and other Unix):</b> the child is started through {@code perl -e 'setpgrp(0,0); exec ...'}, which
 *       makes it lead its own process group; signals go to the group with {@code kill} and to every visible
 *       descendant. Without {@code perl}, only descendants are reached (an orphaned grandchild is then missed).</li>
 *   <li><b>Windows:</b> there are no process groups or signals reachable from Java: the child and every visible
 *       descendant ({@link ProcessHandle#descendants()}, also snapshots taken earlier) are ended with
 *       {@link ProcessHandle#destroy()} (which on Windows terminates at once, so the "terminate" and "kill" steps
 *       are the same). A grandchild whose parent exited before it was seen is not reached (a Job Object would be
 *       needed, which the JDK does not offer).</li>
 * </ul>
 * On Linux the child also leads its own session ({@code setsid}), and every process of that session is a member
 * of the tree too, so one that moved to a process group of its own is still reached.
 *
 * <p><b>Where the guarantee ends.</b> A process that deliberately leaves both the session and the group (a daemon
 * that double-forks and calls {@code setsid} itself) is reached only while it is still a visible descendant: once
 * its parent has exited it is out of the client's sight and outlives {@link #close()}. When such a process keeps the
 * server's stdout or stderr open, no end of stream comes; the shutdown then stops reading those pipes (what it writes
 * later is not read) and, on Linux, wakes the two reading threads through {@code /proc/self/fd} so that they end
 * within the close's bound and no thread of the transport is left behind (logged at DEBUG). On other platforms
 * those two threads end only when that process closes the pipes or exits (logged at WARNING). A stdin writer blocked
 * on a full pipe that such a process holds but does not read is likewise released only when it reads or exits.
 *
 * <p>The tree is also ended when the JVM exits normally or on a signal that runs shutdown hooks (one hook shared by
 * all transports: {@code SIGTERM} to every tree, at most 2 s, then {@code SIGKILL}), and when a transport that was
 * opened but never closed becomes unreachable (a {@link Cleaner} safety net; it runs at some GC after the transport
 * and its client are dropped, so do not rely on it: close the client).
 *
 * <h2>Threads</h2>
 * An open transport runs three platform daemon threads with a 256 KiB stack, because they block in native pipe I/O
 * ({@code mcp-stdio-reader-N} for stdout, {@code mcp-stdio-stderr-N}, {@code mcp-stdio-writer-N} for stdin), and one
 * virtual thread, {@code mcp-stdio-exit-N} (exit and startup watcher); a failure starts the virtual thread
 * {@code mcp-stdio-reaper-N} for the background shutdown. All end when the transport closes (with the exception
 * named under "Where the guarantee ends" above). A blocked pipe read or
 * write on a virtual thread would hold a carrier thread of the virtual-thread scheduler for as long as the server
 * lives, and some 100 open servers would leave no carrier for any virtual thread in the JVM; so these never run on
 * virtual threads, and the waits for the process's exit go through {@link Process#onExit()} (they park; they never
 * call {@link Process#waitFor()}, which is monitor-locked on JDK 21 and pins its carrier).
 *
 * <p><b>OS-thread cost:</b> 4 OS threads per open server: the three pipe threads, plus the "process reaper" thread
 * the JDK itself starts for every child process (a platform daemon thread with a 128 KiB stack waiting in
 * {@code waitpid}; {@link Process#onExit()} is completed by that same thread and adds none). 300 open servers cost
 * about 1,200 OS threads, idle in the kernel while the servers are quiet, no carrier thread, and 3 file descriptors
 * each (the soft {@code ulimit -n} must allow them).
 *
 * <h2>Logging</h2>
 * Through {@link System.Logger} {@code dev.loommcp.transport.stdio}: launch at DEBUG (program, argument count and
 * environment variable names, never values), skipped lines at WARNING, failures at WARNING or DEBUG, stderr lines at
 * TRACE. Message bodies are logged only at TRACE, under {@code dev.loommcp.transport.stdio.wire}.
 *
 * <p>Instances are built by {@link Builder}, used by one client, opened once (a second child only through {@link #reopen}). All methods are thread-safe.
 */
public final class StdioTransport implements McpTransport {

    /** Default {@link Builder#maxMessageBytes(int)}: 16 MiB. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
    /** Default {@link Builder#stderrBufferBytes(int)}: 64 KiB. */
    public static final int DEFAULT_STDERR_BUFFER_BYTES = 64 * 1024;
    /** The longest accepted timeout or grace period: 365 days (longer ones would overflow nanosecond arithmetic). */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    /** Default {@link Builder#startupTimeout(Duration)}: 30 seconds. */
    public static final Duration DEFAULT_STARTUP_TIMEOUT = Duration.ofSeconds(30);
    /** Default of each shutdown step ({@link Builder#stdinCloseGrace}, {@link Builder#terminateGrace},
     * {@link Builder#killGrace}): 2 seconds. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    private final LaunchConfig config;
    /** The current process, its replacement by {@link #reopen} and close's coordination with it. */
    private final ProcessSuccession processes;
    /** The era-verdict cache key: a digest of the command line, working directory and environment. */
    private final String serverKey;

    private StdioTransport(LaunchConfig config) {
        this.config = config;
        this.processes = new ProcessSuccession(config);
        this.serverKey = config.serverKey();
    }

    /**
     * Starts a builder for {@code program} with {@code args}.
     *
     * @param program the program: a name looked up on {@code PATH}, or a path (relative ones are taken from the
     *                working directory)
     * @param args    its arguments
     * @return a new builder
     * @throws NullPointerException if an argument is {@code null}
     */
    public static Builder newBuilder(String program, String... args) {
        Objects.requireNonNull(program, "program");
        List<String> argv = new ArrayList<>();
        argv.add(program);
        for (String a : Objects.requireNonNull(args, "args")) {
            argv.add(Objects.requireNonNull(a, "argument"));
        }
        return new Builder(argv);
    }

    /**
     * Starts a builder for a whole command line: {@code argv.get(0)} is the program, the rest its arguments.
     *
     * @param argv the command line, not empty
     * @return a new builder
     * @throws NullPointerException     if {@code argv} or an element is {@code null}
     * @throws IllegalArgumentException if {@code argv} is empty
     */
    public static Builder newBuilder(List<String> argv) {
        Objects.requireNonNull(argv, "argv");
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("argv is empty: the program is missing");
        }
        List<String> copy = new ArrayList<>(argv.size());
        for (String a : argv) {
            copy.add(Objects.requireNonNull(a, "argv element"));
        }
        return new Builder(copy);
    }

    // ------------------------------------------------------------------------------------------------ SPI

    /**
     * Launches the child process and starts the transport's threads (SPI; called by the client).
     *
     * @param context where inbound messages go (its sink), the client's threads and framing; its open deadline is
     *                not used: launching does not wait for the child (the startup deadline is
     *                {@link Builder#startupTimeout(Duration)})
     * @throws McpTransportException if the process cannot be started, the OS refuses the transport's threads (the
     *                               process is then ended before this throws), or the transport had failed
     * @throws McpClosedException    if {@link #close()} was called before or while this ran (a {@code close()}
     *                               racing the client's {@code connect()}); a process started meanwhile is ended
     *                               by that {@code close()}
     * @throws IllegalStateException if the transport was opened before
     */
    @Override
    public void open(TransportContext context) {
        Objects.requireNonNull(context, "context");
        processes.open(this, context);
    }

    /**
     * Writes a message to the child's stdin, or queues it for the writer thread, and returns without waiting for the
     * child (SPI; called by the client). The calling thread writes the message itself only when nothing is queued,
     * the message is small and the child provably read what was written before (it answered the last request), so
     * that the write finds room in the pipe and cannot block; otherwise it queues it and the writer thread writes it.
     * Either way messages reach stdin in the order their sends returned.
     *
     * @param message the message
     * @param context not used: the caller never waits for the pipe, so there is nothing to cancel
     * @throws McpTransportException the exception that ended the transport (for example a
     *                               {@link McpProcessExitedException}) once it failed, or one saying that the child
     *                               is not reading its stdin and too much is queued
     * @throws McpClosedException    once {@link #close()} was called (its cause is the failure that had ended the
     *                               transport before, if any)
     * @throws IllegalStateException if the transport was not opened
     */
    @Override
    public void send(JsonRpcMessage message, SendContext context) {
        Objects.requireNonNull(message, "message");
        processes.current().send(message);
    }

    /** Returns how many messages the sending threads wrote themselves (the direct path), for tests. */
    long directWrites() {
        return processes.current().writer().directWrites();
    }

    /**
     * Returns a new, unopened transport with this one's launch configuration (the same resolved program, arguments,
     * working directory, environment, limits, graces and stderr listener) for a throw-away era probe (SPI). The core
     * does not use it for this transport, which is {@link #reopenable()}: it probes on this transport's own process
     * and reopens it only when the probe ended it; the copy stays for decorators and callers that want a second,
     * independent launch of the same server. The copy launches its
     * own child process, in its own process group, when it is opened; its {@link #close()} ends that child's whole
     * tree with the shutdown sequence described above, whether the probe succeeded, timed out or failed. It shares
     * nothing with this transport: opening, failing or closing one never affects the other. A copy that is never
     * opened holds no process and no thread. Each call returns a new copy.
     *
     * @return the probe transport, always present
     */
    @Override
    public Optional<McpTransport> probeTransport() {
        return Optional.of(new StdioTransport(config));
    }

    /**
     * Returns {@code true}: {@link #reopen(TransportContext)} starts a fresh process of the same command line (SPI;
     * the core's {@code ProtocolMode.AUTO} then probes on this transport's own process and starts a second one only
     * when the probe ended the first).
     *
     * @return {@code true}
     */
    @Override
    public boolean reopenable() {
        return true;
    }

    /**
     * Ends the running child with the shutdown sequence of {@link #close()} and waits until its process tree is
     * gone (the waits park on {@link Process#onExit()}, never pinning a carrier), then launches a fresh child of
     * the same launch configuration and opens it with {@code context} (SPI; called by the core when its era probe
     * ended the first process, MCP 2026-07-28 "stdio: backward compatibility"). The two processes never run at the
     * same time, so a server that allows one instance (a lock file, a fixed port) starts again. Afterwards
     * {@link #pid()}, {@link #exitCode()} and {@link #skippedLines()} describe the new child, and
     * {@link #stderrTail()} holds both tails, each under a label line naming its process. The stderr listener gets
     * the lines of both, one process after the other, with one line between them that names the first process
     * ({@code [process 1, pid P] ended with exit code C; the lines of process 2 follow}). Nothing of the first child reaches the sink after this
     * returns.
     *
     * @param context the sink and deadline for the new child
     * @throws McpClosedException    if {@link #close()} was called before or while this ran (a child started
     *                               meanwhile is ended by that close)
     * @throws McpTransportException if the new child cannot be started
     * @throws IllegalStateException if the transport was never opened
     * @throws InterruptedException  if the calling thread was interrupted while the first child was ended (it is
     *                               then killed at once and no new one is started)
     */
    @Override
    public void reopen(TransportContext context) throws InterruptedException {
        Objects.requireNonNull(context, "context");
        processes.reopen(this, context);
    }

    /**
     * Returns the key under which the client caches this server's era verdict (SPI): a SHA-256 digest, in hex, of
     * the resolved program, the arguments, the working directory (the JVM's current directory when none was set)
     * and the child's whole environment (names and values). Two transports built from the same configuration have
     * the same key; a different argument, directory or environment value gives a different key. The digest never
     * reveals an environment value; the client keeps it in memory (and a digest of it in its era-verdict
     * file, when it has one) and never logs it.
     *
     * @return the key, always present
     */
    @Override
    public java.util.Optional<String> serverKey() {
        return java.util.Optional.of(serverKey);
    }

    /**
     * Returns the program name as given ({@code argv[0]}), without arguments.
     *
     * @return the description
     */
    /**
     * Returns {@link dev.loommcp.spi.TransportInfo#pipe()}: a child process's standard input and output.
     *
     * @return the info
     */
    @Override
    public dev.loommcp.spi.TransportInfo info() {
        return dev.loommcp.spi.TransportInfo.pipe();
    }

    @Override
    public String describe() {
        return config.programName();
    }

    /**
     * Ends the transport and the child's whole process tree with the bounded shutdown sequence described in the
     * class documentation: close stdin, wait; {@code SIGTERM}, wait; {@code SIGKILL}, wait. Returns within
     * {@code stdinCloseGrace + terminateGrace + killGrace} plus the overhead described there (at most about 7 s, usually
     * milliseconds). Idempotent and thread-safe: a
     * second caller waits for the first one's shutdown to finish (unless it is one of the transport's own threads).
     * Never throws. After close the sink gets no more calls, not even {@code onClosed}.
     *
     * <p>If the calling thread is interrupted while it waits, the remaining graceful steps are skipped: the tree is
     * killed at once ({@code SIGKILL}), close waits up to the kill grace for it, and the thread's interrupt status
     * is set again on return.
     */
    @Override
    public void close() {
        processes.close(null);
    }

    /**
     * Closes as {@link #close()} does, but waits at most {@code grace} after closing the child's stdin and at most
     * {@code grace} after {@code SIGTERM} (the configured {@link #stdinCloseGrace()} and {@link #terminateGrace()}
     * when they are shorter); the kill grace is unchanged, so the tree is still ended in full. For an owner that has
     * given up on the server, such as a command-line tool whose call timed out or failed while the server works on
     * and ignores the end of its input: it then returns within about {@code 2 * grace} plus the kill step instead of
     * the sum of the configured graces. When a shutdown is already under way (the transport failed, or another
     * thread closes it), its current wait is cut to {@code grace} too, and this call waits for it like a second
     * {@link #close()}. Idempotent, thread-safe, never throws (other than for a {@code null} or negative grace);
     * the interrupt behaviour is that of {@link #close()}.
     *
     * @param grace the most to wait for each of the two graceful steps; {@link Duration#ZERO} signals at once
     * @throws NullPointerException     if {@code grace} is {@code null}
     * @throws IllegalArgumentException if {@code grace} is negative
     */
    public void close(Duration grace) {
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative: " + grace);
        }
        processes.close(grace);
    }

    // ------------------------------------------------------------------------------------------------ accessors

    /**
     * Returns the command that runs: the resolved absolute path of the program followed by the arguments (without
     * the process-group launcher prefix).
     *
     * @return an unmodifiable list
     */
    public List<String> command() {
        List<String> cmd = new ArrayList<>();
        cmd.add(config.executable().toString());
        cmd.addAll(config.args());
        return Collections.unmodifiableList(cmd);
    }

    /**
     * Returns the program name as given ({@code argv[0]}), used in messages.
     *
     * @return the program name
     */
    public String programName() {
        return config.programName();
    }

    /**
     * Returns the program resolved on {@code PATH} when the builder ran.
     *
     * @return its absolute path
     */
    public Path executable() {
        return config.executable();
    }

    /**
     * Returns the child's working directory.
     *
     * @return the directory, or empty for the JVM's current directory
     */
    public Optional<Path> workingDirectory() {
        return Optional.ofNullable(config.workingDirectory());
    }

    /**
     * Returns the names of the environment variables the child gets (never their values).
     *
     * @return an unmodifiable set of names
     */
    public Set<String> environmentNames() {
        return Collections.unmodifiableSet(new LinkedHashSet<>(config.environment().keySet()));
    }

    /**
     * Returns the longest line accepted from stdout, in bytes.
     *
     * @return the limit
     */
    public int maxMessageBytes() {
        return config.maxMessageBytes();
    }

    /**
     * Returns the size of the stderr ring buffer, in bytes.
     *
     * @return the size
     */
    public int stderrBufferBytes() {
        return config.stderrBufferBytes();
    }

    /**
     * Returns the startup deadline: how long after launch the first message may take.
     *
     * @return the duration
     */
    public Duration startupTimeout() {
        return config.startupTimeout();
    }

    /**
     * Returns how long {@link #close()} waits after closing stdin.
     *
     * @return the duration
     */
    public Duration stdinCloseGrace() {
        return config.stdinCloseGrace();
    }

    /**
     * Returns how long {@link #close()} waits after {@code SIGTERM}.
     *
     * @return the duration
     */
    public Duration terminateGrace() {
        return config.terminateGrace();
    }

    /**
     * Returns how long {@link #close()} waits after {@code SIGKILL}.
     *
     * @return the duration
     */
    public Duration killGrace() {
        return config.killGrace();
    }

    /**
     * Returns whether the child is launched as the leader of its own process group (Linux through {@code setsid},
     * macOS through {@code perl}), so the whole group can be signalled. {@code false} on Windows or when neither
     * helper is available.
     *
     * @return {@code true} when a process group is used
     */
    public boolean usesProcessGroup() {
        return config.grouped();
    }

    /**
     * Returns the last lines the child wrote to stderr, joined with {@code '\n'}: at most
     * {@link #stderrBufferBytes()} bytes of the most recent lines. After {@link #reopen} (the era probe ended the
     * first process) it holds the first process's tail too, each process's lines under a label line
     * {@code [process N, pid P]} (the first one's label also names its exit code), the current process last.
     *
     * @return the tail, empty before the child wrote anything
     */
    public String stderrTail() {
        return processes.stderrTail();
    }

    /**
     * Returns how many stdout lines were skipped because they were not JSON-RPC.
     *
     * @return the count
     */
    public long skippedLines() {
        return processes.current().skippedLines();
    }

    /**
     * Returns the child's process id.
     *
     * @return the pid, empty before {@link #open} launched it
     */
    public OptionalLong pid() {
        Process p = processes.current().process();
        return p == null ? OptionalLong.empty() : OptionalLong.of(p.pid());
    }

    /**
     * Returns the child's exit code (on Unix {@code 128 + n} when it was killed by signal {@code n}, including by
     * {@link #close()}).
     *
     * @return the exit code, empty while it runs or before it was launched
     */
    public OptionalInt exitCode() {
        return processes.current().exitCode();
    }

    long stderrBufferedBytes() {
        return processes.current().stderrBufferedBytes();
    }

    long stderrHeapBytes() {
        return processes.current().stderrHeapBytes();
    }

    @Override
    public String toString() {
        return "StdioTransport[" + config.programName() + "]";
    }

    // ------------------------------------------------------------------------------------------------ builder

    /**
     * Configures and validates a {@link StdioTransport}. Not thread-safe; {@link #build()} may be called more than
     * once, each time validating again and returning a new transport.
     */
    public static final class Builder {

        private final List<String> argv;
        private Path workingDirectory;
        private final Map<String, String> environment = new LinkedHashMap<>();
        private boolean inheritEnvironment;
        private int maxMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
        private int stderrBufferBytes = DEFAULT_STDERR_BUFFER_BYTES;
        private Consumer<String> stderrListener;
        private Duration startupTimeout = DEFAULT_STARTUP_TIMEOUT;
        private Duration stdinCloseGrace = DEFAULT_GRACE;
        private Duration terminateGrace = DEFAULT_GRACE;
        private Duration killGrace = DEFAULT_GRACE;

        private Builder(List<String> argv) {
            this.argv = argv;
        }

        /**
         * Sets the child's working directory (checked by {@link #build()}: it must exist and be a directory).
         * Default: the JVM's current directory.
         *
         * @param dir the directory, or {@code null} for the default
         * @return this builder
         */
        public Builder workingDirectory(@Nullable Path dir) {
            this.workingDirectory = dir;
            return this;
        }

        /**
         * Replaces the variables set so far with {@code variables}; they are added to the safe base environment
         * (or to the whole parent environment with {@link #inheritEnvironment(boolean)}) and win over it.
         * Validated by {@link #build()}.
         *
         * @param variables the variables, not {@code null}
         * @return this builder
         * @throws NullPointerException if {@code variables} is {@code null}
         */
        public Builder environment(Map<String, String> variables) {
            Objects.requireNonNull(variables, "variables");
            environment.clear();
            environment.putAll(variables);
            return this;
        }

        /**
         * Sets one environment variable for the child (added to the base environment, winning over it). Validated
         * by {@link #build()}.
         *
         * @param name  the name
         * @param value the value
         * @return this builder
         */
        public Builder putEnvironment(String name, String value) {
            environment.put(name, value);
            return this;
        }

        /**
         * Chooses whether the child gets the parent's whole environment ({@code true}) or only the safe list
         * described in {@link StdioTransport} ({@code false}, the default). Variables set on this builder are
         * added in both cases.
         *
         * @param inherit whether to inherit everything
         * @return this builder
         */
        public Builder inheritEnvironment(boolean inherit) {
            this.inheritEnvironment = inherit;
            return this;
        }

        /**
         * Sets the longest stdout line (one message, or one batch) accepted, in bytes; a longer line fails the
         * transport. Memory for reading is bounded by it. Default {@value StdioTransport#DEFAULT_MAX_MESSAGE_BYTES}
         * (16 MiB); range 1 KiB to 1 GiB.
         *
         * @param bytes the limit
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder maxMessageBytes(int bytes) {
            if (bytes < 1024 || bytes > 1024 * 1024 * 1024) {
                throw new IllegalArgumentException("maxMessageBytes must be between 1024 and 1073741824, got "
                        + bytes);
            }
            this.maxMessageBytes = bytes;
            return this;
        }

        /**
         * Sets the size of the stderr ring buffer in bytes: the most recent lines that fit are kept (for
         * {@link StdioTransport#stderrTail()} and {@link McpProcessExitedException#stderrTail()}). Default
         * {@value StdioTransport#DEFAULT_STDERR_BUFFER_BYTES} (64 KiB); range 256 bytes to 64 MiB.
         *
         * @param bytes the size
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder stderrBufferBytes(int bytes) {
            if (bytes < 256 || bytes > 64 * 1024 * 1024) {
                throw new IllegalArgumentException("stderrBufferBytes must be between 256 and 67108864, got "
                        + bytes);
            }
            this.stderrBufferBytes = bytes;
            return this;
        }

        /**
         * Sets a listener called with each line the child writes to stderr (without the line end; lines longer
         * than 8 KiB are cut), on the transport's stderr thread (a platform thread with a 256 KiB stack). It must
         * return quickly: while it runs, stderr is not drained. Anything it throws, {@link Error}s included, is
         * logged at WARNING (the class only, never the line; the first 5 times, then at DEBUG) and ignored: draining
         * goes on. When {@link StdioTransport#reopen} starts a second process, the listener gets one line of the
         * transport's own between the two processes' lines, naming the first (on the thread that reopens). Default:
         * none.
         *
         * @param listener the listener, or {@code null} for none
         * @return this builder
         */
        public Builder stderrListener(@Nullable Consumer<String> listener) {
            this.stderrListener = listener;
            return this;
        }

        /**
         * Sets the startup deadline: if no message at all arrived from the child this long after launch, the
         * transport fails (every pending call, usually the handshake, fails with an exception saying so) and the
         * tree is ended. Separate from the per-request deadlines. Default 30 s.
         *
         * @param timeout a positive duration
         * @return this builder
         * @throws IllegalArgumentException if not positive or longer than {@link StdioTransport#MAX_DURATION}
         */
        public Builder startupTimeout(Duration timeout) {
            this.startupTimeout = LaunchConfig.positive(timeout, "startupTimeout");
            return this;
        }

        /**
         * Sets how long {@link StdioTransport#close()} waits for the child to exit after closing its stdin.
         * Default 2 s.
         *
         * @param grace zero or positive
         * @return this builder
         * @throws IllegalArgumentException if negative or longer than {@link StdioTransport#MAX_DURATION}
         */
        public Builder stdinCloseGrace(Duration grace) {
            this.stdinCloseGrace = LaunchConfig.nonNegative(grace, "stdinCloseGrace");
            return this;
        }

        /**
         * Sets how long {@link StdioTransport#close()} waits for the tree to exit after {@code SIGTERM}.
         * Default 2 s.
         *
         * @param grace zero or positive
         * @return this builder
         * @throws IllegalArgumentException if negative or longer than {@link StdioTransport#MAX_DURATION}
         */
        public Builder terminateGrace(Duration grace) {
            this.terminateGrace = LaunchConfig.nonNegative(grace, "terminateGrace");
            return this;
        }

        /**
         * Sets how long {@link StdioTransport#close()} waits for the tree to exit after {@code SIGKILL}.
         * Default 2 s.
         *
         * @param grace zero or positive
         * @return this builder
         * @throws IllegalArgumentException if negative or longer than {@link StdioTransport#MAX_DURATION}
         */
        public Builder killGrace(Duration grace) {
            this.killGrace = LaunchConfig.nonNegative(grace, "killGrace");
            return this;
        }

        /**
         * Validates the configuration and returns a transport; nothing is launched yet.
         *
         * @return the transport
         * @throws IllegalArgumentException if the program is empty, not found or not executable, an argument holds a
         *                                  NUL character, the working directory does not exist or is not a
         *                                  directory, or an environment variable is invalid (the message names the
         *                                  variable, never its value); also when the program name, an argument,
         *                                  the working directory or an environment variable has characters this
         *                                  JVM's native encoding cannot pass to a process (a JVM in the C/POSIX
         *                                  locale: the JDK would turn them into {@code ?} silently; the message
         *                                  names which one and suggests a UTF-8 locale)
         * @throws NullPointerException     if an environment variable's name or value is {@code null}
         */
        public StdioTransport build() {
            return new StdioTransport(LaunchConfig.of(argv, workingDirectory, environment, inheritEnvironment,
                    maxMessageBytes, stderrBufferBytes, stderrListener, startupTimeout, stdinCloseGrace,
                    terminateGrace, killGrace));
        }
    }
}
