package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;

/**
 * The last release of a reentrant hold and a re-entry of the same handle on another thread, in the one order that
 * used to strand the lock: the release has taken the hold's last entry but not yet dropped the hold when the
 * re-entry comes. The hold is ending, not lost: the release must still end it in the store, and the re-entry acquire
 * afresh, waiting for the release as a handle that holds nothing would.
 */
class ReentrantLastReleaseTest {

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    @Test
    void aReentryMeetingTheLastReleaseHalfwayLeavesTheReleaseToEndTheHold() {
        String key = "reentrant-last-release-" + UUID.randomUUID();
        LockHandle handle = holdingWithLastEntryTaken(key);
        Hold hold = handle.currentHold();

        boolean reentered = RegistryFixture.await(handle.acquireOnce());
        boolean released = RegistryFixture.await(HoldRelease.release(handle, hold, 0));

        assertThat(reentered).as("the re-entry found the hold ending and the lock still held in the store").isFalse();
        assertThat(released).as("the release that took the last entry ended the hold in the store").isTrue();
        assertThat(RegistryFixture.await(locks.registry().obtain(key).acquireOnce()))
                .as("another handle acquires: no acquisition nobody tracks holds the lock").isTrue();
    }

    @Test
    void aWaitingReentryMeetingTheLastReleaseHalfwayWaitsForItAndAcquires() throws Exception {
        String key = "reentrant-last-release-waiting-" + UUID.randomUUID();
        LockHandle handle = holdingWithLastEntryTaken(key);
        Hold hold = handle.currentHold();

        CompletableFuture<Boolean> reentry = handle.acquire(Duration.ofSeconds(10)).subscribeAsCompletionStage();
        assertThat(reentry).as("the re-entry waits: the lock is still held in the store by the ending hold")
                .isNotDone();
        boolean released = RegistryFixture.await(HoldRelease.release(handle, hold, 0));

        assertThat(released).as("the release that took the last entry ended the hold in the store").isTrue();
        assertThat(reentry.get(5, TimeUnit.SECONDS)).as("the re-entry acquired once the release freed the lock")
                .isTrue();
        assertThat(handle.fencingToken().orElseThrow()).as("a new hold, not the one that ended").isGreaterThan(hold.token());
        assertThat(RegistryFixture.await(handle.release())).isTrue();
        assertThat(RegistryFixture.await(locks.registry().obtain(key).acquireOnce()))
                .as("released: another handle acquires").isTrue();
    }

    /**
     * @return a reentrant handle holding {@code key}, whose release has taken the hold's last entry and not yet
     *         dropped the hold
     */
    private LockHandle holdingWithLastEntryTaken(String key) {
        LockHandle handle = (LockHandle) locks.registry().obtain(key, LockType.REENTRANT);
        assertThat(RegistryFixture.await(handle.acquireOnce())).isTrue();
        assertThat(handle.currentHold().leaveOneEntry()).as("the release takes the hold's last entry").isFalse();
        return handle;
    }
}
