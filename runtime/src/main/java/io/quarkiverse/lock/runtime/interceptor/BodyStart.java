package io.quarkiverse.lock.runtime.interceptor;

import java.util.function.Supplier;

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

    /** @return makes the body, marking it started when made and finished on its item */
    Supplier<Uni<Object>> marking(Supplier<Uni<Object>> body) {
        return () -> {
            mark();
            return body.get().invoke(this::finish);
        };
    }

    /** @return makes the body, marking it started when made and finished on its completion */
    Supplier<Multi<Object>> markingMany(Supplier<Multi<Object>> body) {
        return () -> {
            mark();
            return body.get().onCompletion().invoke(this::finish);
        };
    }
}
