package io.quarkiverse.lock.tck;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.Uni;

/** A guarded action that never ends by itself: it signals its start and counts its cancellations. */
final class EndlessAction {

    private final CountDownLatch started = new CountDownLatch(1);
    private final AtomicInteger cancellations = new AtomicInteger();

    /** The action: it emits nothing, ever. */
    final Uni<String> action = Uni.createFrom().<String> nothing()
            .onSubscription().invoke(started::countDown)
            .onCancellation().invoke(cancellations::incrementAndGet);

    /**
     * @return {@code true} if the action started within 10 s
     */
    boolean awaitStart() throws InterruptedException {
        return started.await(10, TimeUnit.SECONDS);
    }

    /**
     * @return how many times the action was cancelled
     */
    int cancellations() {
        return cancellations.get();
    }
}
