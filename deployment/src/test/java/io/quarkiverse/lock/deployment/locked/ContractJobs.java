package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.lock.tck.Overlap;

/**
 * What the bean of every return type's test records: the overlap of its {@code work} calls, and how many times its
 * methods were invoked (where the test counts them); and the bodies its methods share.
 */
class ContractJobs {

    final Overlap overlap = new Overlap();
    final AtomicInteger invocations = new AtomicInteger();

    Overlap overlap() {
        return overlap;
    }

    int invocations() {
        return invocations.get();
    }

    /** What the {@code failing} methods fail with: the contract checks the message. */
    static IllegalStateException failure(String id) {
        return new IllegalStateException("failed " + id);
    }

    /** The body of a blocking {@code work}: records its overlap while it works for {@code duration}. */
    void workFor(Duration duration) throws InterruptedException {
        overlap.enter();
        try {
            Thread.sleep(duration.toMillis());
        } finally {
            overlap.leave();
        }
    }

    /**
     * The body of a blocking {@code endless}: counts down {@code started}, then sleeps until interrupted (it never
     * returns, whatever type it is given).
     */
    static <T> T hang(CountDownLatch started) throws InterruptedException {
        started.countDown();
        Thread.sleep(Long.MAX_VALUE);
        throw new IllegalStateException("slept for ever");
    }
}
