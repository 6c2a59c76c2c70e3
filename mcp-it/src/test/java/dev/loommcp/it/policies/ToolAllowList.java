package dev.loommcp.it.policies;

import dev.loommcp.McpVetoedException;
import dev.loommcp.intercept.McpInterceptor;
import dev.loommcp.intercept.McpResponse;

import java.util.Set;

/** Lets a client call only the tools on its list: any other tools/call is refused before it is sent. */
public final class ToolAllowList implements McpInterceptor {

    private final Set<String> allowed;

    public ToolAllowList(Set<String> allowed) {
        this.allowed = Set.copyOf(allowed);
    }

    @Override
    public McpResponse intercept(Chain chain) throws InterruptedException {
        String tool = chain.request().toolName().orElse(null);
        if (tool != null && !allowed.contains(tool)) {
            throw new McpVetoedException(chain.request().method(),
                    "tool '" + tool + "' is not on the allow-list of " + chain.connection().server());
        }
        return chain.proceed(chain.request());
    }
}
