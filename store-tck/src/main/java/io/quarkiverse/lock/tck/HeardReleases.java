package io.quarkiverse.lock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * A release listener for tests of {@link io.quarkiverse.lock.spi.LockStore#watchReleases}: what it heard, by key (every
 * key released or handed over, and to whom and with which token it was handed) and in order, as
 * {@code released[key]}, {@code handedOver[key|owner|token]} and {@code missed}.
 */
public final class HeardReleases implements ReleaseListener {

    private final Set<String> keys = ConcurrentHashMap.newKeySet();
    private final Map<String, String> handedTo = new ConcurrentHashMap<>();
    private final Map<String, Long> handedToken = new ConcurrentHashMap<>();
    private final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void released(String key) {
        keys.add(key);
        events.add("released[" + key + "]");
    }

    @Override
    public void handedOver(String key, String owner, long token) {
        // the hand-over is recorded before the key, so whoever sees the key heard sees to whom it went
        handedTo.put(key, owner);
        handedToken.put(key, token);
        keys.add(key);
        events.add("handedOver[" + key + "|" + owner + "|" + token + "]");
    }

    @Override
    public void mayHaveMissed() {
        events.add("missed");
    }

    /**
     * @param key a lock key
     * @return {@code true} once a release or a hand-over of it was heard
     */
    public boolean heard(String key) {
        return keys.contains(key);
    }

    /**
     * @param key a lock key
     * @return the owner a release handed it to, or {@code null} if no hand-over of it was heard
     */
    public String handedTo(String key) {
        return handedTo.get(key);
    }

    /**
     * @param key a lock key
     * @return the token it was handed over with, or {@code null} if no hand-over of it was heard
     */
    public Long handedToken(String key) {
        return handedToken.get(key);
    }

    /**
     * @return what was heard so far, in order
     */
    public List<String> events() {
        return events;
    }

    /**
     * Waits up to 10 s until {@code event} was heard, and fails the test if it was not.
     *
     * @param event an event as {@link #events()} lists it
     * @throws InterruptedException if the thread is interrupted while it waits
     */
    public void awaitHeard(String event) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!events.contains(event)) {
            assertThat(System.nanoTime()).as("heard " + event + " within 10 s; heard " + events).isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
