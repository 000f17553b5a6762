package io.quarkiverse.lock.it;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkiverse.lock.Locked;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * One {@link Locked} endpoint per return type, each incrementing a counter in a critical section (see
 * {@link Sections}), and two that do not wait: one fails when the lock is held elsewhere, one skips.
 */
@Path("/locked")
public class LockedResource {

    /** Bounds the blocking endpoints' wait for their section, which the lock bounds already. */
    private static final Duration SECTION_TIMEOUT = Duration.ofMinutes(1);

    @Inject
    Sections sections;

    @Inject
    Counters counters;

    /**
     * @param counter the counter
     * @return its new value
     */
    @POST
    @Path("/uni/{counter}")
    @Locked(key = "uni-{counter}", waitTime = "30s")
    public Uni<Long> uni(@PathParam("counter") String counter) {
        return sections.increment(counter);
    }

    /**
     * @param counter the counter
     * @return its new value, as the one item (a JSON array of one number)
     */
    @POST
    @Path("/multi/{counter}")
    @Produces(MediaType.APPLICATION_JSON)
    @Locked(key = "multi-{counter}", waitTime = "30s")
    public Multi<Long> multi(@PathParam("counter") String counter) {
        return sections.increment(counter).toMulti();
    }

    /**
     * @param counter the counter
     * @return its new value
     */
    @POST
    @Path("/completion-stage/{counter}")
    @Locked(key = "completion-stage-{counter}", waitTime = "30s")
    public CompletionStage<Long> completionStage(@PathParam("counter") String counter) {
        return sections.increment(counter).subscribeAsCompletionStage();
    }

    /**
     * Runs on a worker thread, as a blocking {@code @Locked} method must.
     *
     * @param counter the counter
     * @return its new value
     */
    @POST
    @Path("/blocking/{counter}")
    @Locked(key = "blocking-{counter}", waitTime = "30s")
    public long blocking(@PathParam("counter") String counter) {
        return sections.increment(counter).await().atMost(SECTION_TIMEOUT);
    }

    /**
     * Runs on a worker thread, as a blocking {@code @Locked} method must.
     *
     * @param counter the counter
     */
    @POST
    @Path("/void/{counter}")
    @Locked(key = "void-{counter}", waitTime = "30s")
    public void noResult(@PathParam("counter") String counter) {
        sections.increment(counter).await().atMost(SECTION_TIMEOUT);
    }

    /**
     * One attempt: fails with {@code CannotAcquireLockException}, which the extension answers with 409, when the lock is
     * held elsewhere.
     *
     * @param counter the counter
     * @return its new value
     */
    @POST
    @Path("/once/{counter}")
    @Locked(key = "once-{counter}", waitTime = "0s")
    public Uni<Long> once(@PathParam("counter") String counter) {
        return sections.increment(counter);
    }

    /**
     * One attempt: does not run, and answers no content, when the lock is held elsewhere.
     *
     * @param counter the counter
     * @return its new value, or {@code null} when skipped
     */
    @POST
    @Path("/skip/{counter}")
    @Locked(key = "skip-{counter}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
    public Uni<Long> skip(@PathParam("counter") String counter) {
        return sections.increment(counter);
    }

    /**
     * @param counter the counter
     * @return its value
     */
    @GET
    @Path("/{counter}")
    public Uni<Long> value(@PathParam("counter") String counter) {
        return counters.get(counter);
    }

    /**
     * @param counter the counter
     * @return how many of its sections overlapped another: 0 unless the lock failed
     */
    @GET
    @Path("/{counter}/overlaps")
    public int overlaps(@PathParam("counter") String counter) {
        return sections.overlaps(counter);
    }
}
