package io.quarkiverse.lock.runtime.waiting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.RegistryFixture;

/**
 * The evictor runs on a Vert.x timer between start and stop, and drops idle local state.
 */
class IdleLockEvictorTest {

    @RegisterExtension
    final RegistryFixture fixture = RegistryFixture.vertxOnly();

    @Test
    void evictsPeriodicallyUntilStopped() throws InterruptedException {
        LocalLockStates states = new LocalLockStates();
        IdleLockEvictor evictor = new IdleLockEvictor(states, fixture.vertx(), Duration.ofMillis(20));
        states.join("idle", "w", t -> {
        }).leave(System.nanoTime());

        evictor.start();
        assertThat(evictor.isRunning()).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (states.size() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(states.size()).isZero();

        evictor.stop();
        assertThat(evictor.isRunning()).isFalse();
        states.join("after-stop", "w", t -> {
        }).leave(System.nanoTime());
        Thread.sleep(100);
        assertThat(states.get("after-stop")).as("nothing evicts once stopped").isNotNull();
    }
}
