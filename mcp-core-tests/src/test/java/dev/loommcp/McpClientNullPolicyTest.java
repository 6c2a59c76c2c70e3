package dev.loommcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.loommcp.schema.CompletionReference;
import dev.loommcp.schema.LoggingLevel;
import dev.loommcp.schema.PromptReference;
import dev.loommcp.testing.ScriptedTransport;
import dev.loommcp.testing.ScriptedTransport.Mode;
import dev.loommcp.testing.Sessions;
import dev.loommcp.testing.Sessions.Session;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;

/** The null policy of package {@code dev.loommcp} (its package-info): what accepts null, and the NPEs of the rest. */
class McpClientNullPolicyTest {

    @RegisterExtension
    final Sessions sessions = new Sessions();

    private static Object sample(Class<?> type) {
        if (type == String.class) {
            return "x";
        }
        if (type == Map.class) {
            return Map.of();
        }
        if (type == LoggingLevel.class) {
            return LoggingLevel.INFO;
        }
        if (type == CompletionReference.class) {
            return new PromptReference("p", null);
        }
        if (type == SubscriptionFilter.class) {
            return SubscriptionFilter.allListChanges();
        }
        if (type == SubscriptionListener.class) {
            return new SubscriptionListener() { };
        }
        throw new AssertionError("no sample for " + type);
    }

    /** Every public method taking RequestOptions throws an NPE naming "options" for null, and sends nothing. */
    @Test
    void nullOptionsAreRefusedByEveryMethodThatTakesThem() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        int sentBefore = s.server().sent().size();
        List<String> checked = new ArrayList<>();
        for (Method m : McpClient.class.getMethods()) {
            Class<?>[] types = m.getParameterTypes();
            if (Modifier.isStatic(m.getModifiers()) || types.length == 0
                    || types[types.length - 1] != RequestOptions.class) {
                continue;
            }
            Object[] args = new Object[types.length];
            for (int i = 0; i < types.length - 1; i++) {
                args[i] = sample(types[i]);
            }
            Throwable thrown = catchThrowable(() -> invoke(m, s.client(), args));
            assertThat(thrown).as(m.toString()).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("options");
            checked.add(m.getName());
        }
        assertThat(checked).contains("connect", "ping", "listTools", "tools", "callTool", "callToolAsync",
                "requestAsync", "listResources", "readResource", "subscribe", "getPrompt", "complete",
                "setLoggingLevel", "notify", "notifyRootsListChanged", "listen");
        assertThat(s.server().sent()).hasSize(sentBefore);
    }

    @Test
    void requiredParametersAreRefusedWithTheirNameBeforeAnythingIsSent() throws Exception {
        Session s = sessions.connected(Mode.INLINE);
        McpClient c = s.client();
        int sentBefore = s.server().sent().size();
        RequestOptions o = RequestOptions.DEFAULT;
        PromptReference ref = new PromptReference("p", null);
        assertThatThrownBy(() -> c.callTool(null, Map.of())).hasMessage("name");
        assertThatThrownBy(() -> c.callToolAsync(null, Map.of(), o)).hasMessage("name");
        assertThatThrownBy(() -> c.request(null, null, o)).hasMessage("method");
        assertThatThrownBy(() -> c.requestAsync(null, null, o)).hasMessage("method");
        assertThatThrownBy(() -> c.notify(null, null)).hasMessage("method");
        assertThatThrownBy(() -> c.readResource(null)).hasMessage("uri");
        assertThatThrownBy(() -> c.subscribe(null)).hasMessage("uri");
        assertThatThrownBy(() -> c.unsubscribe(null)).hasMessage("uri");
        assertThatThrownBy(() -> c.getPrompt(null, null)).hasMessage("name");
        assertThatThrownBy(() -> c.complete(null, "a", "v", null)).hasMessage("reference");
        assertThatThrownBy(() -> c.complete(ref, null, "v", null)).hasMessage("argumentName");
        assertThatThrownBy(() -> c.complete(ref, "a", null, null)).hasMessage("argumentValue");
        assertThatThrownBy(() -> c.setLoggingLevel(null)).hasMessage("level");
        assertThat(catchThrowable(() -> c.setLoggingLevel(null))).isInstanceOf(NullPointerException.class);
        assertThat(s.server().sent()).hasSize(sentBefore);
    }

    @Test
    void theBuilderRefusesNullWhereNoDefaultIsMeantAndTakesNullListenersAsNone() {
        McpClient.Builder b = McpClient.newBuilder(ScriptedTransport.create(Mode.INLINE));
        assertThatThrownBy(() -> b.clientInfo(null)).hasMessage("info");
        assertThatThrownBy(() -> b.requestTimeout(null)).hasMessage("requestTimeout");
        assertThatThrownBy(() -> b.samplingHandler(null)).hasMessage("handler");
        assertThatThrownBy(() -> b.outputSchemaValidation(null)).hasMessage("mode");
        assertThatThrownBy(() -> b.addEventListener(null)).hasMessage("listener");
        assertThatThrownBy(() -> McpClient.newBuilder(null)).hasMessage("transport");
        b.listener(null).eventListener(null).build().close();
    }

    private static Object invoke(Method m, Object target, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
