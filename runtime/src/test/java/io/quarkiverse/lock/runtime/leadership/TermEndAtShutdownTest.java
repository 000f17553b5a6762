package io.quarkiverse.lock.runtime.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipChange;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.MonotonicClock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A term told elected is told its end, even when the application stops while another caller is ending it: a yield
 * ends the term and is still telling its guarded work to stop (one task per guarded work, 5,000 here, which widens
 * the window) when the leadership closes. Closing finds the term ending, and waits until the yield queued the end and
 * released the lock, before it stops the threads that deliver the changes.
 */
class TermEndAtShutdownTest {

    private static final int ROUNDS = 10;
    private static final int GUARDED = 5000;

    @Test
    void everyElectedTermIsToldItsEndEvenWhenTheApplicationStopsMeanwhile() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            for (int round = 0; round < ROUNDS; round++) {
                List<LeadershipChange> told = new CopyOnWriteArrayList<>();
                try (StandaloneLockRegistry locks = StandaloneLockRegistry
                        .over(new InMemoryLockStore(MonotonicClock.system()), vertx).start()) {
                    Leadership leadership = locks.leadership("g", Duration.ofSeconds(10), Duration.ofSeconds(2),
                            Duration.ofSeconds(1));
                    leadership.changes().subscribe().with(told::add);
                    LeadershipGroup group = leadership.group("g");
                    group.join();
                    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                    while (!(group.isLeader() && told.stream().anyMatch(LeaderElected.class::isInstance))) {
                        assertThat(System.nanoTime() - deadline).as("elected").isNegative();
                        Thread.sleep(5);
                    }
                    for (int i = 0; i < GUARDED; i++) {
                        group.whileLeading(Uni.createFrom().nothing()).subscribe().with(ignored -> {
                        }, ignored -> {
                        });
                    }
                    Thread yielding = new Thread(() -> group.yieldLeadership().subscribe().with(ignored -> {
                    }, ignored -> {
                    }), "yielding");
                    yielding.start();
                    while (group.isLeader()) {
                        Thread.onSpinWait();
                    }
                    ((DefaultLeadership) leadership).close();
                    yielding.join();
                }
                assertThat(told).as("round %d: the changes told", round)
                        .anyMatch(LeaderElected.class::isInstance)
                        .anyMatch(LeadershipEnded.class::isInstance);
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
