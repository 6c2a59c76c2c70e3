package dev.loommcp.spring.boot;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code loom.mcp.*} properties: where the servers come from (an {@code mcpServers} file and/or
 * {@code loom.mcp.servers.<name>.*}), the registry's timeouts and restart policy, per-server settings and OAuth.
 * Durations take Spring's forms ({@code 30s}, {@code PT30S}, {@code 500ms}). Bound once when the context starts; a
 * mistake (a server with neither command nor url, a name given twice, an unreadable file) fails the start with a
 * message naming the property or the file.
 */
@ConfigurationProperties(prefix = "loom.mcp")
public class LoomMcpProperties {

    /** Whether the auto-configuration creates the McpServers registry and its beans. */
    private boolean enabled = true;

    /**
     * An mcpServers JSON file (Claude Desktop / VS Code / Cursor form: {"mcpServers": {...}} or {"servers": {...}});
     * its servers are added before those of loom.mcp.servers, and a name may appear in only one of the two.
     */
    private @Nullable Path configFile;

    /** How long one server's start (spawn or connect, then initialize) may take before it counts as failed. */
    private Duration startupTimeout = Duration.ofSeconds(30);

    /** How long a call or a tool listing waits for a server that is starting or restarting. */
    private Duration readyTimeout = Duration.ofSeconds(60);

    /** How long closing the registry (at context stop) waits for each server's process to end. */
    private Duration closeTimeout = Duration.ofSeconds(15);

    /** The default timeout of each request to a server (a server's own request-timeout overrides it). */
    private Duration requestTimeout = Duration.ofSeconds(60);

    /** What separates a server's name from its tool's name in the names the model sees. */
    private String separator = "__";

    /** How a server that exits or drops its connection is restarted. */
    private final Restart restart = new Restart();

    /** OAuth settings shared by the servers that have an oauth.client-id. */
    private final OAuth oauth = new OAuth();

    /** Settings of the Spring AI tool callbacks. */
    private final Tools tools = new Tools();

    /** Servers by name: a command (stdio) or a url (Streamable HTTP, or SSE with transport=sse). */
    private final Map<String, Server> servers = new LinkedHashMap<>();

    /** Creates the properties with their defaults. */
    public LoomMcpProperties() {
    }

    /** @return whether the auto-configuration is on */
    public boolean isEnabled() { return enabled; }

    /** @param enabled whether the auto-configuration is on */
    public void setEnabled(boolean enabled) { this.enabled = enabled; }

    /** @return the mcpServers file, or null */
    public @Nullable Path getConfigFile() { return configFile; }

    /** @param configFile the mcpServers file, or null */
    public void setConfigFile(@Nullable Path configFile) { this.configFile = configFile; }

    /** @return the start timeout of one server */
    public Duration getStartupTimeout() { return startupTimeout; }

    /** @param startupTimeout the start timeout of one server */
    public void setStartupTimeout(Duration startupTimeout) { this.startupTimeout = startupTimeout; }

    /** @return how long calls wait for a starting server */
    public Duration getReadyTimeout() { return readyTimeout; }

    /** @param readyTimeout how long calls wait for a starting server */
    public void setReadyTimeout(Duration readyTimeout) { this.readyTimeout = readyTimeout; }

    /** @return how long closing waits per server */
    public Duration getCloseTimeout() { return closeTimeout; }

    /** @param closeTimeout how long closing waits per server */
    public void setCloseTimeout(Duration closeTimeout) { this.closeTimeout = closeTimeout; }

    /** @return the default request timeout */
    public Duration getRequestTimeout() { return requestTimeout; }

    /** @param requestTimeout the default request timeout */
    public void setRequestTimeout(Duration requestTimeout) { this.requestTimeout = requestTimeout; }

    /** @return the separator of namespaced tool names */
    public String getSeparator() { return separator; }

    /** @param separator the separator of namespaced tool names */
    public void setSeparator(String separator) { this.separator = separator; }

    /** @return the restart settings */
    public Restart getRestart() { return restart; }

    /** @return the OAuth settings */
    public OAuth getOauth() { return oauth; }

    /** @return the tool callback settings */
    public Tools getTools() { return tools; }

    /** @return the servers by name */
    public Map<String, Server> getServers() { return servers; }

    /** Restart policy of every server (McpServers.Builder.restartPolicy). */
    public static class Restart {
        /** How many restarts in a row before the server is FAILED; 0 never restarts. */
        private int maxRestarts = 5;
        /** The wait before the first restart; it doubles per restart. */
        private Duration initialBackoff = Duration.ofMillis(250);
        /** The longest wait between restarts. */
        private Duration maxBackoff = Duration.ofSeconds(30);
        /** How long a server must stay up for its restart count to start again from zero. */
        private Duration stableAfter = Duration.ofSeconds(60);

        /** Creates the defaults. */
        public Restart() {
        }

        /** @return the restart limit */
        public int getMaxRestarts() { return maxRestarts; }

        /** @param maxRestarts the restart limit */
        public void setMaxRestarts(int maxRestarts) { this.maxRestarts = maxRestarts; }

        /** @return the first backoff */
        public Duration getInitialBackoff() { return initialBackoff; }

        /** @param initialBackoff the first backoff */
        public void setInitialBackoff(Duration initialBackoff) { this.initialBackoff = initialBackoff; }

        /** @return the longest backoff */
        public Duration getMaxBackoff() { return maxBackoff; }

        /** @param maxBackoff the longest backoff */
        public void setMaxBackoff(Duration maxBackoff) { this.maxBackoff = maxBackoff; }

        /** @return the stable time */
        public Duration getStableAfter() { return stableAfter; }

        /** @param stableAfter the stable time */
        public void setStableAfter(Duration stableAfter) { this.stableAfter = stableAfter; }
    }

    /** OAuth shared by the servers (mcp-auth, docs/auth.md). */
    public static class OAuth {
        /** A directory where tokens and client registrations are kept (FileTokenStore); unset keeps them in memory. */
        private @Nullable Path tokenStore;

        /** Creates the defaults. */
        public OAuth() {
        }

        /** @return the token store directory, or null */
        public @Nullable Path getTokenStore() { return tokenStore; }

        /** @param tokenStore the token store directory, or null */
        public void setTokenStore(@Nullable Path tokenStore) { this.tokenStore = tokenStore; }
    }

    /** Spring AI tool callbacks (LoomToolCallbacks). */
    public static class Tools {
        /** How long listing the tools for a chat request waits for servers that are starting. */
        private Duration listTimeout = Duration.ofSeconds(30);

        /** Creates the defaults. */
        public Tools() {
        }

        /** @return the listing wait */
        public Duration getListTimeout() { return listTimeout; }

        /** @param listTimeout the listing wait */
        public void setListTimeout(Duration listTimeout) { this.listTimeout = listTimeout; }
    }

    /** One server: stdio (command) or remote (url). */
    public static class Server {
        /** The program to start for a stdio server (found on PATH); exclusive with url. */
        private @Nullable String command;
        /** The program's arguments. */
        private List<String> args = new ArrayList<>();
        /** Environment variables added to the program's environment. */
        private Map<String, String> env = new LinkedHashMap<>();
        /** The program's working directory; unset: the application's. */
        private @Nullable Path cwd;
        /** The endpoint of a remote server; exclusive with command. */
        private @Nullable String url;
        /** The remote transport: http (Streamable HTTP, the default with a url) or sse (the 2024-11-05 transport). */
        private @Nullable String transport;
        /** HTTP headers sent with every request to a remote server (never logged). */
        private Map<String, String> headers = new LinkedHashMap<>();
        /** This server's request timeout; unset: loom.mcp.request-timeout. */
        private @Nullable Duration requestTimeout;
        /** OAuth for this remote server. */
        private final ServerOAuth oauth = new ServerOAuth();

        /** Creates an empty server entry. */
        public Server() {
        }

        /** @return the command, or null */
        public @Nullable String getCommand() { return command; }

        /** @param command the command, or null */
        public void setCommand(@Nullable String command) { this.command = command; }

        /** @return the arguments */
        public List<String> getArgs() { return args; }

        /** @param args the arguments */
        public void setArgs(List<String> args) { this.args = args; }

        /** @return the added environment */
        public Map<String, String> getEnv() { return env; }

        /** @param env the added environment */
        public void setEnv(Map<String, String> env) { this.env = env; }

        /** @return the working directory, or null */
        public @Nullable Path getCwd() { return cwd; }

        /** @param cwd the working directory, or null */
        public void setCwd(@Nullable Path cwd) { this.cwd = cwd; }

        /** @return the url, or null */
        public @Nullable String getUrl() { return url; }

        /** @param url the url, or null */
        public void setUrl(@Nullable String url) { this.url = url; }

        /** @return the transport, or null */
        public @Nullable String getTransport() { return transport; }

        /** @param transport the transport, or null */
        public void setTransport(@Nullable String transport) { this.transport = transport; }

        /** @return the headers */
        public Map<String, String> getHeaders() { return headers; }

        /** @param headers the headers */
        public void setHeaders(Map<String, String> headers) { this.headers = headers; }

        /** @return the request timeout, or null */
        public @Nullable Duration getRequestTimeout() { return requestTimeout; }

        /** @param requestTimeout the request timeout, or null */
        public void setRequestTimeout(@Nullable Duration requestTimeout) { this.requestTimeout = requestTimeout; }

        /** @return the OAuth settings */
        public ServerOAuth getOauth() { return oauth; }
    }

    /** OAuth client credentials of one remote server (a service account: no browser in a server application). */
    public static class ServerOAuth {
        /** The pre-registered client id; set it to turn OAuth on for this server. */
        private @Nullable String clientId;
        /** The client secret (client_credentials grant); never logged. */
        private @Nullable String clientSecret;
        /** The scope to ask for; unset: the server's advertised scopes. */
        private @Nullable String scope;

        /** Creates empty settings (OAuth off). */
        public ServerOAuth() {
        }

        /** @return the client id, or null */
        public @Nullable String getClientId() { return clientId; }

        /** @param clientId the client id, or null */
        public void setClientId(@Nullable String clientId) { this.clientId = clientId; }

        /** @return the client secret, or null */
        public @Nullable String getClientSecret() { return clientSecret; }

        /** @param clientSecret the client secret, or null */
        public void setClientSecret(@Nullable String clientSecret) { this.clientSecret = clientSecret; }

        /** @return the scope, or null */
        public @Nullable String getScope() { return scope; }

        /** @param scope the scope, or null */
        public void setScope(@Nullable String scope) { this.scope = scope; }
    }
}
