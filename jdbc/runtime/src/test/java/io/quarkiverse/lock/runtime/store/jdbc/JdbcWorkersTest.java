package io.quarkiverse.lock.runtime.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * The order of one key's work on the store's threads: each runs only once the one before it ended.
 */
class JdbcWorkersTest {

    private static final String KEY = "k";

    private final Vertx vertx = Vertx.vertx();
    private final JdbcWorkers workers = new JdbcWorkers(vertx, 4, Duration.ofSeconds(30));

    @AfterEach
    void close() {
        workers.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /**
     * Work A runs (an attempt whose answer is slow), work B waits behind it and its caller stops waiting (a take-back
     * that timed out), work C waits behind B (the take-back tried again): C still waits for A, or it could commit
     * before the attempt it takes back.
     */
    @Test
    void workCancelledWhileWaitingKeepsTheWorkAfterItBehindTheWorkBeforeIt() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        AtomicBoolean firstEnded = new AtomicBoolean();
        CompletableFuture<Integer> first = workers.onKey(KEY, deadline -> {
            running.countDown();
            answer.await(30, TimeUnit.SECONDS);
            firstEnded.set(true);
            return 1;
        }).subscribeAsCompletionStage();
        assertThat(running.await(10, TimeUnit.SECONDS)).as("the first work runs").isTrue();
        AtomicBoolean secondRan = new AtomicBoolean();
        Cancellable second = workers.onKey(KEY, deadline -> {
            secondRan.set(true);
            return 2;
        }).subscribe().with(ignored -> {
        });
        CompletableFuture<Boolean> third = workers.onKey(KEY, deadline -> firstEnded.get())
                .subscribeAsCompletionStage();

        second.cancel();
        assertThat(catchThrowable(() -> third.get(500, TimeUnit.MILLISECONDS)))
                .as("the third work waits while the first runs").isInstanceOf(TimeoutException.class);
        assertThat(workers.busyKeys()).as("the key is busy").isEqualTo(1);

        answer.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(third.get(10, TimeUnit.SECONDS)).as("the third work ran once the first ended").isTrue();
        assertThat(secondRan).as("the cancelled work never ran").isFalse();
    }
}
