package io.quarkiverse.lock.runtime.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.RegistryFixture;

/**
 * The in-memory store sweeps its expired locks on a Vert.x timer between start and close.
 */
class InMemoryLockStoreSweepTest {

    @RegisterExtension
    final RegistryFixture fixture = RegistryFixture.vertxOnly();

    @Test
    void sweepsExpiredLocksPeriodicallyUntilClosed() throws InterruptedException {
        InMemoryLockStore store = new InMemoryLockStore(InstantSource.system(), fixture.vertx(), Duration.ofMillis(20));
        store.tryAcquire("expired", "owner", 1, false).await().indefinitely();
        store.tryAcquire("held", "owner", 60_000, false).await().indefinitely();

        store.start();
        assertThat(store.isSweeping()).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (store.size() > 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(store.size()).as("only the live lock is left").isEqualTo(1);
        assertThat(store.isHeld("held", "owner").await().indefinitely()).isTrue();

        store.close();
        assertThat(store.isSweeping()).isFalse();
        store.tryAcquire("after-close", "owner", 1, false).await().indefinitely();
        Thread.sleep(100);
        assertThat(store.size()).as("nothing is swept once closed").isEqualTo(2);
    }

    @Test
    void aStoreWithoutVertxDoesNotSweep() {
        InMemoryLockStore store = new InMemoryLockStore(InstantSource.system());
        store.start();
        assertThat(store.isSweeping()).isFalse();
        store.close();
    }
}
