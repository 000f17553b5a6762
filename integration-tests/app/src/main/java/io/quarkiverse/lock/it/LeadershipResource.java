package io.quarkiverse.lock.it;

import java.util.OptionalLong;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

import io.quarkiverse.lock.leadership.Leader;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.smallrye.mutiny.Uni;

/**
 * Leadership of group {@value LeaderWork#GROUP} over HTTP: who leads, the work only the leader runs, and a yield.
 */
@Path("/leadership")
public class LeadershipResource {

    @Inject
    Leadership leadership;

    @Inject
    LeaderWork work;

    /**
     * @return whether this instance leads and in which term, the store's leader, and how many times this instance was
     *         elected
     */
    @GET
    public Uni<Status> status() {
        LeadershipGroup group = leadership.group(LeaderWork.GROUP);
        OptionalLong term = group.term();
        return group.leader().map(leader -> new Status(term.isPresent(), term.orElse(0),
                leader.map(Leader::term).orElse(0L), leader.map(Leader::thisInstance).orElse(false),
                work.elections()));
    }

    /**
     * @return the term, from the work only the leader runs; 500 with a {@code NotLeaderException} elsewhere
     */
    @GET
    @Path("/work")
    public Uni<Long> work() {
        return work.term();
    }

    /**
     * @return {@code true} if this instance led and yielded
     */
    @POST
    @Path("/yield")
    public Uni<Boolean> yieldLeadership() {
        return leadership.group(LeaderWork.GROUP).yieldLeadership();
    }

    /**
     * What {@link #status()} tells.
     *
     * @param leading whether this instance believes it leads
     * @param term its term while it leads, else 0
     * @param storeTerm the term of the leader the store names, 0 if none
     * @param thisInstance whether the store names this instance
     * @param elections how many times this instance was elected
     */
    public record Status(boolean leading, long term, long storeTerm, boolean thisInstance, int elections) {
    }
}
