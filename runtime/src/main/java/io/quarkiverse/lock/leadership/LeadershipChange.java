package io.quarkiverse.lock.leadership;

import java.time.Instant;

/**
 * A change of this instance's leadership of a group: a term began ({@link LeaderElected}) or ended
 * ({@link LeadershipEnded}). Fired as a CDI event, observable with {@code @Observes} and {@code @ObservesAsync}, and
 * streamed by {@link Leadership#changes()}. A change is delivered after it happened: when an observer runs, the term
 * it announces may have ended already; {@link LeadershipGroup#isLeader()} tells the present.
 */
public sealed interface LeadershipChange permits LeaderElected, LeadershipEnded {

    /**
     * @return the group's name
     */
    String group();

    /**
     * @return the term: the fencing token of the group's lock for this instance's hold
     */
    long term();

    /**
     * @return when the change happened, by this instance's wall clock (for display; the terms order the changes)
     */
    Instant at();
}
