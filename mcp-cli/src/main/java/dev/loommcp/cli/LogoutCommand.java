package dev.loommcp.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code logout} command: removes the OAuth tokens {@code --token-cache} holds for the {@code --http} server
 * (from every authorization server; the client registrations stay, so a later {@code --oauth} run authorizes again
 * without registering again). Connects to nothing.
 */
@Command(name = "logout", mixinStandardHelpOptions = true,
        description = {"Remove the OAuth tokens stored in --token-cache DIR for the --http server (client "
                + "registrations stay). Connects to nothing; the next --oauth run authorizes again."})
final class LogoutCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Created by picocli. */
    LogoutCommand() {
    }

    @Override
    public Integer call() {
        return logout();
    }

    /**
     * Runs the command.
     *
     * @return {@link ExitCodes#OK}
     * @throws ParameterException without {@code --http} or {@code --token-cache}, or with a bad URL or an unusable
     *                            directory
     */
    int logout() {
        CommandLine cl = spec.commandLine();
        AuthOptions auth = (AuthOptions) spec.root().mixins().get("auth").userObject();
        String http = optionText("--http");
        if (http == null) {
            throw new ParameterException(cl, "say which server with --http URL");
        }
        if (auth.tokenCache() == null) {
            throw new ParameterException(cl, "say where the tokens are with --token-cache DIR (without it "
                    + "tokens live in memory for one run only)");
        }
        URI server;
        try {
            server = new URI(http);
        } catch (URISyntaxException e) {
            throw new ParameterException(cl, "--http: not a valid URL: " + e.getReason());
        }
        if (server.getScheme() == null || !(server.getScheme().equalsIgnoreCase("http")
                || server.getScheme().equalsIgnoreCase("https")) || server.getHost() == null) {
            throw new ParameterException(cl, "--http: expected an http:// or https:// URL with a host");
        }
        int removed = CliAuth.logout(server, auth.tokenCache(), cl);
        if (removed < 0) {
            cl.getOut().println("no stored tokens for " + server + " (" + auth.tokenCache() + " does not exist)");
            cl.getOut().flush();
            return ExitCodes.OK;
        }
        cl.getOut().println(removed == 0 ? "no stored tokens for " + server
                : "logged out of " + server + " (" + removed + " token set" + (removed == 1 ? "" : "s")
                        + " removed)");
        cl.getOut().flush();
        return ExitCodes.OK;
    }

    /** The value of an option as typed (before or after the command name), or {@code null} when not given. */
    private String optionText(String option) {
        CommandLine.ParseResult pr = spec.root().commandLine().getParseResult();
        String value = null;
        while (pr != null) {
            if (pr.hasMatchedOption(option)) {
                value = pr.matchedOption(option).stringValues().getLast();
            }
            pr = pr.subcommand();
        }
        return value;
    }
}
