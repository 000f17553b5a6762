package io.quarkiverse.lock.leadership;

import java.time.Instant;

/**
 * This instance began leading a group: it holds the group's lock and the store confirmed its lease.
 *
 * @param group the group's name
 * @param term the term, the fencing token of the group's lock for this hold, greater than every earlier term
 * @param at when this instance became leader, by its wall clock
 */
public record LeaderElected(String group, long term, Instant at) implements LeadershipChange {
}
