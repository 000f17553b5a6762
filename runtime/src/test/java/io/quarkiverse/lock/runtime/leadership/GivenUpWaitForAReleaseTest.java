package io.quarkiverse.lock.runtime.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.leadership.Leader;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.MonotonicClock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Every caller that ends a term waits for the term's release; one that gives up its wait (a timed-out
 * {@code await().atMost}, a cancelled subscription) does not cut short the wait of the others: {@code leave()} after a
 * yield whose caller gave up still completes only once the lock is released.
 */
class GivenUpWaitForAReleaseTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void leaveStillWaitsForTheReleaseWhenTheYieldsCallerGaveUpWaiting() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (StandaloneLockRegistry locks = StandaloneLockRegistry
                .over(new InMemoryLockStore(MonotonicClock.system()), vertx).start()) {
            Leadership leadership = locks.leadership("g", Duration.ofSeconds(10), Duration.ofSeconds(2),
                    Duration.ofSeconds(1));
            LeadershipGroup group = leadership.group("g");
            group.join();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (!group.isLeader()) {
                assertThat(System.nanoTime() - deadline).as("elected").isNegative();
                Thread.sleep(5);
            }
            CountDownLatch stopping = new CountDownLatch(1);
            CountDownLatch mayStop = new CountDownLatch(1);
            // guarded work whose cancellation takes a while: it winds down for up to 1.5 s
            group.whileLeading(Uni.createFrom().nothing().onCancellation().invoke(() -> {
                stopping.countDown();
                try {
                    mayStop.await(1500, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            })).subscribe().with(ignored -> {
            }, ignored -> {
            });
            try {
                // the yield's caller waits 200 ms only: its await times out and cancels its subscription
                assertThatThrownBy(() -> group.yieldLeadership().await().atMost(Duration.ofMillis(200)))
                        .isInstanceOf(TimeoutException.class);
                assertThat(stopping.await(5, TimeUnit.SECONDS)).as("the guarded work told to stop").isTrue();

                assertThatCode(() -> group.leave().await().atMost(TIMEOUT)).as("leave() after the yield")
                        .doesNotThrowAnyException();

                Optional<Leader> holder = group.leader().await().atMost(TIMEOUT);
                assertThat(holder).as("who holds the group's lock once leave() completed").isEmpty();
            } finally {
                mayStop.countDown();
            }
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }
}
