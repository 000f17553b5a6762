package io.quarkiverse.lock.leadership;

/**
 * Who leads a group, as the store says: the term of the hold on the group's lock, and whether it is this instance's.
 *
 * @param group the group's name
 * @param term the leader's term, the fencing token of its hold
 * @param thisInstance {@code true} if the hold is this instance's current term
 */
public record Leader(String group, long term, boolean thisInstance) {
}
