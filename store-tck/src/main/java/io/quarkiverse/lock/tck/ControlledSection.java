package io.quarkiverse.lock.tck;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.smallrye.mutiny.Uni;

/** A guarded action that signals its start and ends when told to. */
final class ControlledSection {

    final CountDownLatch started = new CountDownLatch(1);
    private final CompletableFuture<Void> end = new CompletableFuture<>();

    Uni<String> run(String result) {
        return Uni.createFrom().completionStage(end).onSubscription().invoke(started::countDown)
                .replaceWith(result);
    }

    void finish() {
        end.complete(null);
    }

    static ControlledSection firstToStart(ControlledSection a, ControlledSection b) throws InterruptedException {
        long deadline = System.nanoTime() + TckSupport.TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (a.started.await(10, TimeUnit.MILLISECONDS)) {
                return a;
            }
            if (b.started.getCount() == 0) {
                return b;
            }
        }
        throw new AssertionError("neither section started within " + TckSupport.TIMEOUT);
    }
}
