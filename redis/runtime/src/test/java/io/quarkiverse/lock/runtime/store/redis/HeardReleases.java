package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * What a release listener heard, in order: {@code released[key]}, {@code handedOver[key|owner|token]} and
 * {@code missed}.
 */
final class HeardReleases implements ReleaseListener {

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void released(String key) {
        events.add("released[" + key + "]");
    }

    @Override
    public void handedOver(String key, String owner, long token) {
        events.add("handedOver[" + key + "|" + owner + "|" + token + "]");
    }

    @Override
    public void mayHaveMissed() {
        events.add("missed");
    }

    /** @return what was heard so far, in order */
    List<String> events() {
        return events;
    }

    /** Waits up to 10 s until {@code event} was heard, and fails the test if it was not. */
    void awaitHeard(String event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!events.contains(event)) {
            assertThat(System.nanoTime()).as("heard " + event + " within 10 s; heard " + events).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
