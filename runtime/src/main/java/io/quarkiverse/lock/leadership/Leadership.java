package io.quarkiverse.lock.leadership;

import java.util.Collection;

import io.smallrye.mutiny.Multi;

/**
 * Leader election on the application's locks: a CDI bean that knows every leadership group this application declared.
 * A group is one lock in the store, {@code leadership:<group>}, that every instance taking part tries to hold; the
 * instance that holds it leads, and the lock's fencing token is its term.
 *
 * <pre>
 * &#64;Inject
 * Leadership leadership;
 *
 * void onlyOnTheLeader() {
 *     if (leadership.group("orders-consumer").isLeader()) { ... }
 * }
 * </pre>
 *
 * Groups are declared in configuration ({@code quarkus.lock.leadership."orders-consumer".enabled=true}), and every
 * instance joins them at startup unless told otherwise; see {@link LeadershipGroup}.
 */
public interface Leadership {

    /**
     * Returns a declared group.
     *
     * @param name the group's name, as in {@code quarkus.lock.leadership."<name>".enabled}
     * @return the group, joined or not
     * @throws IllegalArgumentException if no group of that name is declared, naming the property that declares one
     */
    LeadershipGroup group(String name);

    /**
     * @return every declared group, in no particular order
     */
    Collection<LeadershipGroup> groups();

    /**
     * The changes of every group, as this instance sees them: one {@link LeaderElected} when it begins a term, one
     * {@link LeadershipEnded} when that term ends. A hot stream: a subscriber sees the changes made after it
     * subscribed, in the order of each group's terms; items wait in a buffer while the subscriber has no demand.
     *
     * @return the stream of changes; it never completes while the application runs
     */
    Multi<LeadershipChange> changes();
}
