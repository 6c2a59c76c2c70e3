package dev.loommcp.hosts;

import dev.loommcp.spi.McpTransport;
import dev.loommcp.transport.stdio.StdioTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A server run as a child process over stdio: the {@code command}/{@code args}/{@code env}/{@code cwd} entry of an
 * {@code mcpServers} file. The child gets the stdio transport's small safe list of this process's environment
 * variables ({@code PATH}, {@code HOME}, ...) plus {@code env}.
 *
 * @param name    the server's name in the registry (see {@link ServerConfig#name()})
 * @param command the program to run (looked up on {@code PATH} when it has no directory)
 * @param args    its arguments, in order
 * @param env     variables to set in the child's environment, in order
 * @param cwd     the child's working directory, or {@code null} for this process's
 */
public record StdioServerConfig(String name, String command, List<String> args, Map<String, String> env,
                                @Nullable Path cwd)
        implements ServerConfig {

    /**
     * Checks and copies the values.
     *
     * @throws IllegalArgumentException if the name is not valid, the command is blank, or a variable's name is
     *                                  empty or holds {@code =} or NUL (or its value NUL)
     * @throws NullPointerException     if a value other than {@code cwd} is {@code null}, or an argument or
     *                                  variable is
     */
    public StdioServerConfig {
        ServerConfig.checkName(Objects.requireNonNull(name, "name"));
        Objects.requireNonNull(command, "command");
        if (command.isBlank()) {
            throw new IllegalArgumentException("server '" + name + "': the command is blank");
        }
        args = List.copyOf(args);
        env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(env, "env")));
        env.forEach((k, v) -> {
            Objects.requireNonNull(k, "env name");
            Objects.requireNonNull(v, "env value");
            // neither is printed: a malformed name may well be a value given in its place
            if (k.isEmpty() || k.indexOf('=') >= 0 || k.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("server '" + name + "': env: a variable name is empty or holds "
                        + "'=' or a NUL character");
            }
            if (v.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("server '" + name + "': env: the value of a variable holds a NUL "
                        + "character");
            }
        });
    }

    /**
     * A server run as {@code command args...}, with no extra variables, in this process's working directory.
     *
     * @param name    the server's name
     * @param command the program
     * @param args    its arguments
     * @return the configuration
     * @throws IllegalArgumentException if the name is not valid or the command is blank
     */
    public static StdioServerConfig of(String name, String command, String... args) {
        return new StdioServerConfig(name, command, List.of(args), Map.of(), null);
    }

    /**
     * A server run with the given command line (program first).
     *
     * @param name the server's name
     * @param argv the command line; not empty
     * @return the configuration
     * @throws IllegalArgumentException if the name is not valid or {@code argv} is empty
     */
    public static StdioServerConfig of(String name, List<String> argv) {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("server '" + name + "': the command line is empty");
        }
        return new StdioServerConfig(name, argv.getFirst(), argv.subList(1, argv.size()), Map.of(), null);
    }

    /**
     * Returns this configuration with one more environment variable.
     *
     * @param variable the name
     * @param value    the value (never printed)
     * @return a new configuration
     */
    public StdioServerConfig withEnv(String variable, String value) {
        Map<String, String> more = new LinkedHashMap<>(env);
        more.put(variable, value);
        return new StdioServerConfig(name, command, args, more, cwd);
    }

    /**
     * Returns this configuration with another working directory.
     *
     * @param dir the directory, or {@code null} for this process's
     * @return a new configuration
     */
    public StdioServerConfig withCwd(@Nullable Path dir) {
        return new StdioServerConfig(name, command, args, env, dir);
    }

    /**
     * Returns the command line: {@code command} then {@code args}.
     *
     * @return an unmodifiable list
     */
    public List<String> argv() {
        List<String> argv = new ArrayList<>();
        argv.add(command);
        argv.addAll(args);
        return List.copyOf(argv);
    }

    /**
     * Returns {@code "stdio"}.
     *
     * @return {@code "stdio"}
     */
    @Override
    public String transport() {
        return "stdio";
    }

    /**
     * Builds a stdio transport running the command with the variables and working directory.
     *
     * @return the transport, not started
     * @throws IllegalArgumentException if the transport refuses it (program not found, bad directory, bad variable
     *                                  name), prefixed with the server's name
     */
    @Override
    public McpTransport newTransport() {
        return newTransportBuilder().build();
    }

    /**
     * Returns a stdio transport builder set up from this configuration, for a caller that sets more (startup timeout,
     * stderr listener) before building.
     *
     * @return the builder
     * @throws IllegalArgumentException if the transport refuses a value, prefixed with the server's name
     */
    public StdioTransport.Builder newTransportBuilder() {
        try {
            StdioTransport.Builder b = StdioTransport.newBuilder(argv());
            env.forEach(b::putEnvironment);
            if (cwd != null) {
                b.workingDirectory(cwd);
            }
            return b;
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("server '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * Describes the configuration without the variables' values.
     *
     * @return for example {@code StdioServerConfig[name=files, command=npx, args=3, env=[API_KEY], cwd=null]}
     */
    @Override
    public String toString() {
        return "StdioServerConfig[name=" + name + ", command=" + command + ", args=" + args.size() + ", env="
                + env.keySet() + ", cwd=" + cwd + "]";
    }
}
