package io.quarkiverse.lock.runtime.waiting;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.vertx.core.Vertx;

/**
 * The evictor runs on a Vert.x timer between start and stop, and frees expired locks of the in-memory store.
 */
class IdleLockEvictorTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void evictsPeriodicallyUntilStopped() throws InterruptedException {
        LocalLockStates states = new LocalLockStates();
        InMemoryLockStore store = new InMemoryLockStore(java.time.InstantSource.system());
        IdleLockEvictor evictor = new IdleLockEvictor(states, store, vertx, Duration.ofMillis(20));
        store.tryAcquire("expired", "owner", 1, false).await().indefinitely();
        states.join("idle", "w", t -> { }).leave(System.nanoTime());

        evictor.start();
        assertThat(evictor.isRunning()).isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while ((states.size() > 0 || store.size() > 0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(states.size()).isZero();
        assertThat(store.size()).isZero();

        evictor.stop();
        assertThat(evictor.isRunning()).isFalse();
        states.join("after-stop", "w", t -> { }).leave(System.nanoTime());
        Thread.sleep(100);
        assertThat(states.get("after-stop")).as("nothing evicts once stopped").isNotNull();
    }
}
