package io.quarkiverse.lock.deployment;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.vertx.core.Vertx;

/** Runs a call that must not block on an event loop, for the tests of what blocking calls do there. */
public final class OnEventLoop {

    private OnEventLoop() {
    }

    /**
     * @param vertx the application's Vert.x
     * @param call what runs on one of its event loops
     * @return what {@code call} threw there, {@code null} if it returned
     * @throws Exception if {@code call} did not end within 10 s, or the wait was interrupted
     */
    public static Throwable failureOf(Vertx vertx, Runnable call) throws Exception {
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(ignored -> {
            try {
                call.run();
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
            }
        });
        return failure.get(10, TimeUnit.SECONDS);
    }
}
