package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;

/**
 * A re-entry answering {@code true} holds the lock at least as long as it asked, as a fresh acquisition would: the
 * store sets the longer of the hold's lease and the re-entry's, never the shorter. Time is the store's own clock,
 * moved by the test, so no lease is waited for.
 */
class ReentryLeaseTest {

    private static final Duration SHORT = Duration.ofSeconds(1);
    private static final Duration LONG = Duration.ofSeconds(30);

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    private final AtomicLong nowMillis = new AtomicLong(1_000_000);
    private DefaultLockRegistry registry;

    @BeforeEach
    void startRegistry() {
        InMemoryLockStore store = new InMemoryLockStore(() -> Instant.ofEpochMilli(nowMillis.get()));
        registry = locks.start(store, RegistryFixture.settings(SHORT, Duration.ZERO, Duration.ofSeconds(5)),
                new LocalLockStates());
    }

    @Test
    void aReentryAskingForALongerLeaseKeepsTheLockForThatLease() {
        ReactiveDistributedLock holder = registry.obtain("reentry-longer-lease", LockType.REENTRANT);
        assertThat(RegistryFixture.await(holder.acquire(Duration.ZERO, SHORT))).isTrue();
        assertThat(RegistryFixture.await(holder.acquire(Duration.ZERO, LONG))).as("re-entered").isTrue();

        nowMillis.addAndGet(SHORT.multipliedBy(5).toMillis());

        assertThat(RegistryFixture.await(registry.obtain("reentry-longer-lease").acquireOnce()))
                .as("another handle, past the first lease but within the re-entry's: still held").isFalse();
        nowMillis.addAndGet(LONG.toMillis());
        assertThat(RegistryFixture.await(registry.obtain("reentry-longer-lease").acquireOnce()))
                .as("another handle, past the re-entry's lease: free").isTrue();
    }

    @Test
    void aReentryAskingForAShorterLeaseDoesNotShortenTheHold() {
        ReactiveDistributedLock holder = registry.obtain("reentry-shorter-lease", LockType.REENTRANT);
        assertThat(RegistryFixture.await(holder.acquire(Duration.ZERO, LONG))).isTrue();
        assertThat(RegistryFixture.await(holder.acquire(Duration.ZERO, SHORT))).as("re-entered").isTrue();

        nowMillis.addAndGet(SHORT.multipliedBy(5).toMillis());

        assertThat(RegistryFixture.await(registry.obtain("reentry-shorter-lease").acquireOnce()))
                .as("another handle, past the re-entry's lease but within the hold's: still held").isFalse();
    }

    @Test
    void aReentryAskingForeverKeepsTheLockUntilReleased() {
        ReactiveDistributedLock holder = registry.obtain("reentry-forever", LockType.REENTRANT);
        assertThat(RegistryFixture.await(holder.acquire(Duration.ZERO, SHORT))).isTrue();
        assertThat(RegistryFixture.await(holder.acquireForever())).as("re-entered").isTrue();

        nowMillis.addAndGet(Duration.ofDays(1).toMillis());

        assertThat(RegistryFixture.await(registry.obtain("reentry-forever").acquireOnce()))
                .as("another handle, a day later: still held").isFalse();
        assertThat(RegistryFixture.await(holder.release())).isTrue();
        assertThat(RegistryFixture.await(holder.release())).as("the last entry ends the hold").isTrue();
        assertThat(RegistryFixture.await(registry.obtain("reentry-forever").acquireOnce()))
                .as("released: another handle acquires").isTrue();
    }
}
