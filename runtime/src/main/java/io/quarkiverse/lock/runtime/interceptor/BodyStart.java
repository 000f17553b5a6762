package io.quarkiverse.lock.runtime.interceptor;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Whether the body of one {@code @Locked} call has started, so that a failure can be told to come from the acquisition
 * (the body never ran: the call may skip) or from what followed (the body's own failure, a release that failed after
 * it: the call fails).
 */
final class BodyStart {

    private volatile boolean started;

    /** Marks the body started; called by the body before it runs. */
    void mark() {
        started = true;
    }

    /** @return {@code true} once the body has started */
    boolean started() {
        return started;
    }

    /** @return the body, marking it started on subscription */
    Uni<Object> marking(Uni<Object> body) {
        return Uni.createFrom().deferred(() -> {
            mark();
            return body;
        });
    }

    /** @return the body, marking it started on subscription */
    Multi<Object> marking(Multi<Object> body) {
        return Multi.createFrom().deferred(() -> {
            mark();
            return body;
        });
    }
}
