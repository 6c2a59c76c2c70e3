package dev.loommcp.event;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Subscription} asks the server to deliver (MCP 2026-07-28 "Subscriptions: notification filter";
 * schema {@code SubscriptionFilter}): list changes of tools, prompts and resources, and updates of given resources.
 * The same filter serves both eras: in the modern era it is the {@code notifications} of
 * {@code subscriptions/listen}; in the legacy era the list changes come from the session's notifications and each
 * resource URI is subscribed with {@code resources/subscribe}.
 *
 * @param toolsListChanged      deliver {@code notifications/tools/list_changed}
 * @param promptsListChanged    deliver {@code notifications/prompts/list_changed}
 * @param resourcesListChanged  deliver {@code notifications/resources/list_changed}
 * @param resourceSubscriptions deliver {@code notifications/resources/updated} for these URIs (no duplicates, in
 *                              order); never {@code null}
 */
public record SubscriptionFilter(boolean toolsListChanged, boolean promptsListChanged, boolean resourcesListChanged,
                                 List<String> resourceSubscriptions) {

    /** A filter that asks for nothing. */
    public static final SubscriptionFilter NONE = new SubscriptionFilter(false, false, false, List.of());

    /**
     * Creates the filter; the URI list is copied without duplicates.
     *
     * @throws NullPointerException if {@code resourceSubscriptions} or one of its URIs is {@code null}
     */
    public SubscriptionFilter {
        Objects.requireNonNull(resourceSubscriptions, "resourceSubscriptions");
        resourceSubscriptions.forEach(u -> Objects.requireNonNull(u, "resourceSubscriptions holds null"));
        resourceSubscriptions = List.copyOf(new LinkedHashSet<>(resourceSubscriptions));
    }

    /**
     * Returns a filter for every list change (tools, prompts, resources) and no resource updates.
     *
     * @return the filter
     */
    public static SubscriptionFilter allListChanges() {
        return new SubscriptionFilter(true, true, true, List.of());
    }

    /**
     * Returns this filter with the given resource URIs added.
     *
     * @param uris the URIs
     * @return a new filter
     * @throws NullPointerException if a URI is {@code null}
     */
    public SubscriptionFilter withResources(String... uris) {
        List<String> all = new ArrayList<>(resourceSubscriptions);
        all.addAll(List.of(uris));
        return new SubscriptionFilter(toolsListChanged, promptsListChanged, resourcesListChanged, all);
    }

    /**
     * Returns whether the filter asks for nothing.
     *
     * @return {@code true} when no type and no URI is asked for
     */
    public boolean isEmpty() {
        return !toolsListChanged && !promptsListChanged && !resourcesListChanged && resourceSubscriptions.isEmpty();
    }

    /**
     * Returns what this filter asks for that {@code granted} does not include.
     *
     * @param granted what the server acknowledged
     * @return the refused part (possibly {@link #isEmpty() empty})
     * @throws NullPointerException if {@code granted} is {@code null}
     */
    public SubscriptionFilter minus(SubscriptionFilter granted) {
        List<String> uris = new ArrayList<>(resourceSubscriptions);
        uris.removeAll(granted.resourceSubscriptions);
        return new SubscriptionFilter(toolsListChanged && !granted.toolsListChanged,
                promptsListChanged && !granted.promptsListChanged,
                resourcesListChanged && !granted.resourcesListChanged, uris);
    }
}
