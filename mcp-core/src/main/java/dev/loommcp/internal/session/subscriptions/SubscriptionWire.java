package dev.loommcp.internal.session.subscriptions;

import dev.loommcp.event.SubscriptionFilter;
import dev.loommcp.event.SubscriptionListener;
import dev.loommcp.internal.concurrent.UserCode;
import dev.loommcp.jsonrpc.JsonRpcMessage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The wire side of subscriptions (MCP 2026-07-28 "Subscriptions": {@code SubscriptionFilter},
 * {@code notifications/subscriptions/acknowledged}): a filter to and from its JSON form, and a notification to the
 * listener method of its kind. Stateless.
 */
final class SubscriptionWire {

    private static final System.Logger LOG = System.getLogger("dev.loommcp.client");

    private SubscriptionWire() {
    }

    /** The {@code notifications} of an acknowledgment as a filter; what is not well-formed counts as not granted. */
    static SubscriptionFilter parseFilter(Object value) {
        if (!(value instanceof Map<?, ?> m)) {
            return SubscriptionFilter.NONE;
        }
        List<String> uris = new ArrayList<>();
        if (m.get("resourceSubscriptions") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof String s) {
                    uris.add(s);
                }
            }
        }
        return new SubscriptionFilter(Boolean.TRUE.equals(m.get("toolsListChanged")),
                Boolean.TRUE.equals(m.get("promptsListChanged")),
                Boolean.TRUE.equals(m.get("resourcesListChanged")), uris);
    }

    /** The filter as the {@code notifications} of {@code subscriptions/listen}. */
    static Map<String, Object> toWire(SubscriptionFilter f) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (f.toolsListChanged()) {
            m.put("toolsListChanged", true);
        }
        if (f.promptsListChanged()) {
            m.put("promptsListChanged", true);
        }
        if (f.resourcesListChanged()) {
            m.put("resourcesListChanged", true);
        }
        if (!f.resourceSubscriptions().isEmpty()) {
            m.put("resourceSubscriptions", f.resourceSubscriptions());
        }
        return m;
    }

    /** {@code a ∩ b}: what both include. */
    static SubscriptionFilter intersect(SubscriptionFilter a, SubscriptionFilter b) {
        List<String> uris = new ArrayList<>(a.resourceSubscriptions());
        uris.retainAll(b.resourceSubscriptions());
        return new SubscriptionFilter(a.toolsListChanged() && b.toolsListChanged(),
                a.promptsListChanged() && b.promptsListChanged(),
                a.resourcesListChanged() && b.resourcesListChanged(), uris);
    }

    /** Calls the listener method for a notification's kind, then {@code onNotification}; each guarded. */
    static void deliverTo(SubscriptionListener l, JsonRpcMessage.Notification n) {
        String what = "a subscription listener";
        switch (n.method()) {
            case "notifications/tools/list_changed" -> UserCode.run(LOG, what, l::onToolsListChanged);
            case "notifications/prompts/list_changed" -> UserCode.run(LOG, what, l::onPromptsListChanged);
            case "notifications/resources/list_changed" -> UserCode.run(LOG, what, l::onResourcesListChanged);
            case "notifications/resources/updated" -> {
                if (n.params() != null && n.params().get("uri") instanceof String uri) {
                    UserCode.run(LOG, what, () -> l.onResourceUpdated(uri));
                }
            }
            default -> {
                // notifications/tasks and kinds this client does not name: onNotification only
            }
        }
        UserCode.run(LOG, what, () -> l.onNotification(n));
    }
}
