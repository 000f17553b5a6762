package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;

/**
 * The last release of a reentrant hold and a re-entry of the same handle on another thread, in the one order that
 * used to strand the lock: the release has taken the hold's last entry but not yet dropped the hold when the
 * re-entry's check with the store answers that the hold is still there. The hold is ending, not lost: the release must
 * still end it in the store, and the re-entry acquire afresh.
 */
class ReentrantLastReleaseTest {

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    @Test
    void aReentryMeetingTheLastReleaseHalfwayLeavesTheReleaseToEndTheHold() {
        String key = "reentrant-last-release-" + UUID.randomUUID();
        LockHandle handle = (LockHandle) locks.registry().obtain(key, LockType.REENTRANT);
        assertThat(RegistryFixture.await(handle.acquireOnce())).isTrue();
        Hold hold = handle.currentHold();

        assertThat(hold.leaveOneEntry()).as("the release takes the hold's last entry").isFalse();
        boolean reentered = RegistryFixture.await(handle.acquireOnce());
        boolean released = RegistryFixture.await(HoldRelease.release(handle, hold, 0));

        assertThat(reentered).as("the re-entry found the hold ending and the lock still held in the store").isFalse();
        assertThat(released).as("the release that took the last entry ended the hold in the store").isTrue();
        assertThat(RegistryFixture.await(locks.registry().obtain(key).acquireOnce()))
                .as("another handle acquires: no acquisition nobody tracks holds the lock").isTrue();
    }
}
