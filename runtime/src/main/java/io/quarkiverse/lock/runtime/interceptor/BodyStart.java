package io.quarkiverse.lock.runtime.interceptor;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Whether the body of one {@code @Locked} call has started and ended well, so that a failure can be told to come from
 * the acquisition (the body never ran: the call may skip), from the body itself (the call fails), or from the release
 * after a body that ended well (a scheduled job's firing did its work).
 */
final class BodyStart {

    private volatile boolean started;
    private volatile boolean finished;

    /** Marks the body started; called by the body before it runs. */
    void mark() {
        started = true;
    }

    /** @return {@code true} once the body has started */
    boolean started() {
        return started;
    }

    /** Marks the body ended without failure; called once it returned (or its {@code Uni} or {@code Multi} completed). */
    void finish() {
        finished = true;
    }

    /** @return {@code true} once the body has ended without failure */
    boolean finished() {
        return finished;
    }

    /** @return the body, marking it started on subscription and finished on its item */
    Uni<Object> marking(Uni<Object> body) {
        return Uni.createFrom().deferred(() -> {
            mark();
            return body;
        }).invoke(this::finish);
    }

    /** @return the body, marking it started on subscription and finished on its completion */
    Multi<Object> marking(Multi<Object> body) {
        return Multi.createFrom().deferred(() -> {
            mark();
            return body;
        }).onCompletion().invoke(this::finish);
    }
}
