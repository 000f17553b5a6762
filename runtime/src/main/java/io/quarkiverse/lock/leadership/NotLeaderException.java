package io.quarkiverse.lock.leadership;

import java.util.Optional;

/**
 * Work guarded by leadership did not run, or was cancelled: this instance did not lead the group when the work was
 * subscribed to (or called), or its term ended while the work ran.
 */
public class NotLeaderException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String group;
    private final long term;
    private final transient LeadershipEnded.Cause endedBy;

    /**
     * This instance did not lead when the work was to start.
     *
     * @param group the group's name
     * @param what the work, as the message names it (a method, "the work")
     */
    public NotLeaderException(String group, String what) {
        super(what + " runs only on the leader of group '" + group + "', and this instance does not lead it");
        this.group = group;
        this.term = 0;
        this.endedBy = null;
    }

    /**
     * This instance's term ended while the work ran; the work was cancelled.
     *
     * @param group the group's name
     * @param what the work, as the message names it
     * @param term the term that ended
     * @param endedBy why it ended
     */
    public NotLeaderException(String group, String what, long term, LeadershipEnded.Cause endedBy) {
        super(what + " was cancelled: term " + term + " of group '" + group + "' ended (" + endedBy + ")");
        this.group = group;
        this.term = term;
        this.endedBy = endedBy;
    }

    /**
     * @return the group's name
     */
    public String getGroup() {
        return group;
    }

    /**
     * @return the term that ended while the work ran, or {@code 0} if the work did not start
     */
    public long getTerm() {
        return term;
    }

    /**
     * @return why the term ended while the work ran, or empty if the work did not start
     */
    public Optional<LeadershipEnded.Cause> getEndedBy() {
        return Optional.ofNullable(endedBy);
    }
}
