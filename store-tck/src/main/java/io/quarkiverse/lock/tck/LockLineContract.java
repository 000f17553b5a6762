package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.MINUTE;
import static io.quarkiverse.lock.tck.TckSupport.acquire;
import static io.quarkiverse.lock.tck.TckSupport.acquireInLine;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.eventually;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static io.quarkiverse.lock.tck.TckSupport.owner;
import static io.quarkiverse.lock.tck.TckSupport.sleep;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;

/**
 * The line of waiters a store reached over a network keeps, and its release notifications, through the store SPI:
 * a free lock goes to the first waiter in line, whichever instance asks; a waiter taken back leaves the line; and a
 * release that someone waits for is heard by every instance. A {@linkplain StoreFixture#storeIsLocal() local} store
 * keeps neither (the registries of its one JVM share their local lines), so these tests are skipped for it.
 */
public interface LockLineContract extends StoreFixture {

    private void assumeTheStoreKeepsALine() {
        assumeFalse(storeIsLocal(), "a local store keeps no line and sends no notifications");
    }

    @Test
    default void aFreeLockGoesToTheWaiterInLineBeforeAnyoneWhoCameLater() {
        assumeTheStoreKeepsALine();
        String key = newKey("line");
        String holder = owner("holder");
        String waiter = owner("waiter");
        long holderToken = holdWithWaitersInLine(key, holder, MINUTE, waiter);

        assertThat(await(store().release(key, holder))).isTrue();

        String late = owner("late");
        assertThat(acquire(store(), key, late, MINUTE).acquired()).as("promised to the waiter").isFalse();
        assertThat(acquireInLine(store(), key, late, MINUTE).acquired()).as("behind the waiter").isFalse();
        AcquireResult served = acquireInLine(otherStore(), key, waiter, MINUTE);
        assertThat(served.acquired()).isTrue();
        assertThat(served.token()).isGreaterThan(holderToken);
        assertThat(await(store().isHeld(key, waiter))).isTrue();

        assertThat(await(otherStore().release(key, waiter))).isTrue();
        assertThat(acquireInLine(store(), key, late, MINUTE).token()).as("then the next in line")
                .isGreaterThan(served.token());
        assertThat(await(store().release(key, late))).isTrue();
    }

    @Test
    default void waitersAreServedInTheOrderTheyJoinedTheLine() {
        assumeTheStoreKeepsALine();
        String key = newKey("line-order");
        String holder = owner("holder");
        List<String> waiters = List.of(owner("first"), owner("second"), owner("third"));
        List<LockStore> instances = List.of(otherStore(), store(), otherStore());
        holdWithWaitersInLine(key, holder, MINUTE, waiters.toArray(String[]::new));
        assertThat(await(store().release(key, holder))).isTrue();

        for (int served = 0; served < waiters.size(); served++) {
            for (int later = waiters.size() - 1; later > served; later--) {
                assertThat(acquireInLine(instances.get(later), key, waiters.get(later), MINUTE).acquired())
                        .as("%s waits for %s", waiters.get(later), waiters.get(served)).isFalse();
            }
            assertServedThenReleases(instances.get(served), key, waiters.get(served));
        }
        assertThat(acquire(store(), key, owner("anyone"), MINUTE).acquired()).as("nobody waits any more").isTrue();
    }

    @Test
    default void aWaiterTakenBackLeavesTheLineSoTheNextOneIsServed() {
        assumeTheStoreKeepsALine();
        String key = newKey("line-leave");
        String holder = owner("holder");
        String gone = owner("gone");
        String next = owner("next");
        holdWithWaitersInLine(key, holder, MINUTE, gone, next);

        assertThat(await(otherStore().takeBack(key, gone))).as("it held nothing").isFalse();
        assertThat(await(otherStore().release(key, holder))).isTrue();

        assertThat(acquireInLine(store(), key, next, MINUTE).acquired()).isTrue();
        assertThat(await(otherStore().isHeld(key, gone))).isFalse();
        assertThat(await(store().release(key, next))).isTrue();
    }

    @Test
    default void aWaiterThatGivesUpAfterAReleaseServedItPassesTheLockOnToTheNext() {
        assumeTheStoreKeepsALine();
        String key = newKey("line-give-up");
        String holder = owner("holder");
        String gone = owner("gone");
        String next = owner("next");
        holdWithWaitersInLine(key, holder, MINUTE, gone, next);
        assertThat(await(store().release(key, holder))).isTrue();

        await(otherStore().takeBack(key, gone));

        assertThat(await(store().isHeld(key, gone))).isFalse();
        assertPromisedToAWaiter(otherStore(), key);
        assertServedThenReleases(store(), key, next);
    }

    @Test
    default void aForcedReleaseServesTheLineLikeARelease() {
        assumeTheStoreKeepsALine();
        String key = newKey("line-force");
        String waiter = owner("waiter");
        holdWithWaitersInLine(key, owner("holder"), LockStore.NO_EXPIRY, waiter);

        assertThat(await(store().forceRelease(key))).isTrue();

        assertPromisedToAWaiter(store(), key);
        assertServedThenReleases(otherStore(), key, waiter);
    }

    /**
     * Every instance watches releases, as each registry does from its start (a store may announce a release only
     * while its own watch is open). A release handed to a waiter reaches at least the waiter's own instance; a store
     * may tell it to that instance alone.
     */
    @Test
    default void aReleaseThatSomeoneWaitsForIsHeardByAnotherInstanceUntilItsWatchCloses() throws Exception {
        assumeTheStoreKeepsALine();
        HeardReleases own = new HeardReleases();
        HeardReleases heard = new HeardReleases();
        try (AutoCloseable ownWatch = store().watchReleases(own)) {
            AutoCloseable watch = otherStore().watchReleases(heard);
            try {
                awaitWatching(heard);
                String key = newKey("heard");
                String waiter = owner("waiter");
                releaseWhileWaitedFor(key, waiter);

                eventually(() -> heard.heard(key));
                AcquireResult served = acquireInLine(otherStore(), key, waiter, MINUTE);
                assertThat(served.acquired()).isTrue();
                if (heard.handedTo(key) != null) {
                    assertThat(heard.handedTo(key)).as("handed over to the waiter").isEqualTo(waiter);
                    assertThat(heard.handedToken(key)).as("with the token it holds").isEqualTo(served.token());
                }
                assertThat(await(otherStore().release(key, waiter))).isTrue();
            } finally {
                watch.close();
            }

            String unheard = newKey("unheard");
            releaseWhileWaitedFor(unheard, owner("waiter"), store());
            eventually(() -> own.heard(unheard));
            assertThat(heard.heard(unheard)).as("a closed watch tells nothing").isFalse();
        }
    }

    /**
     * {@code holder} takes the lock through this instance, then {@code waiters} join its line in turn, through the
     * other instance and this one alternately, starting with the other.
     *
     * @return the holder's token
     */
    private long holdWithWaitersInLine(String key, String holder, long leaseMillis, String... waiters) {
        AcquireResult held = acquire(store(), key, holder, leaseMillis);
        assertThat(held.acquired()).isTrue();
        for (int i = 0; i < waiters.length; i++) {
            LockStore instance = i % 2 == 0 ? otherStore() : store();
            assertThat(acquireInLine(instance, key, waiters[i], MINUTE).acquired()).as(waiters[i]).isFalse();
        }
        return held.token();
    }

    /** A newcomer asking through {@code instance} is refused: the free lock is promised to a waiter in line. */
    private void assertPromisedToAWaiter(LockStore instance, String key) {
        assertThat(acquire(instance, key, owner("late"), MINUTE).acquired()).as("promised to a waiter").isFalse();
    }

    /** {@code waiter}, asking again through {@code instance}, is served the lock, and releases it. */
    private void assertServedThenReleases(LockStore instance, String key, String waiter) {
        assertThat(acquireInLine(instance, key, waiter, MINUTE).acquired()).as(waiter).isTrue();
        assertThat(await(instance.release(key, waiter))).isTrue();
    }

    /** Releases, through this instance, a lock that {@code waiter} waits for in line through the other instance. */
    private void releaseWhileWaitedFor(String key, String waiter) {
        releaseWhileWaitedFor(key, waiter, otherStore());
    }

    /** Releases, through this instance, a lock that {@code waiter} waits for in line through {@code waiting}. */
    private void releaseWhileWaitedFor(String key, String waiter, LockStore waiting) {
        String holder = owner("holder");
        assertThat(acquire(store(), key, holder, MINUTE).acquired()).isTrue();
        assertThat(acquireInLine(waiting, key, waiter, MINUTE).acquired()).as(waiter).isFalse();
        assertThat(await(store().release(key, holder))).isTrue();
    }

    /** A watch may take a moment to reach the server: releases probe it until it hears one. */
    private void awaitWatching(HeardReleases heard) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            String probe = newKey("probe");
            String waiter = owner("waiter");
            releaseWhileWaitedFor(probe, waiter);
            long heardBy = System.nanoTime() + Duration.ofMillis(500).toNanos();
            while (!heard.heard(probe) && System.nanoTime() < heardBy) {
                sleep(Duration.ofMillis(10));
            }
            await(otherStore().takeBack(probe, waiter));
            if (heard.heard(probe)) {
                return;
            }
            assertThat(System.nanoTime()).as("the watch heard no release within 20 s").isLessThan(deadline);
        }
    }
}
