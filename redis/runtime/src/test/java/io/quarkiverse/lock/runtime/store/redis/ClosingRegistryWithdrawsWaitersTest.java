package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;

/**
 * A registry that closes withdraws its waiting acquisitions from Redis's lines before the store's connections close,
 * whatever thread closes it, and tells each caller it failed: a release by another instance right after the close
 * must not hand the lock, for the waiter's whole lease, to an acquisition whose caller was told it failed.
 */
class ClosingRegistryWithdrawsWaitersTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(5);

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /** Where {@code close()} is called from. */
    enum Closer {
        /** An ordinary thread, as at shutdown. */
        TEST_THREAD {
            @Override
            void close(DefaultLockRegistry registry, RedisLocks redis) {
                registry.close();
            }
        },
        /** An event loop (a verticle's stop, a reactive route), which close() must not block. */
        EVENT_LOOP {
            @Override
            void close(DefaultLockRegistry registry, RedisLocks redis) throws InterruptedException {
                CountDownLatch closed = new CountDownLatch(1);
                redis.vertx().getOrCreateContext().runOnContext(ignored -> {
                    try {
                        registry.close();
                    } finally {
                        closed.countDown();
                    }
                });
                assertThat(closed.await(10, TimeUnit.SECONDS)).as("close() returned on the event loop").isTrue();
            }
        },
        /**
         * A thread whose interrupt status is set (a pool shut down with {@code shutdownNow()}, a cancelled task closing
         * its registry in a {@code finally}): close() still waits, and leaves the status set.
         */
        INTERRUPTED_THREAD {
            @Override
            void close(DefaultLockRegistry registry, RedisLocks redis) {
                Thread.currentThread().interrupt();
                registry.close();
                assertThat(Thread.interrupted()).as("the interrupt status is kept").isTrue();
            }
        };

        abstract void close(DefaultLockRegistry registry, RedisLocks redis) throws Exception;
    }

    /**
     * No fault at all: an acquisition of the closing application waits in Redis's line when the registry closes, and
     * the holder of another instance releases right after the close. Unless the waiter withdrew before the store
     * closed, the release hands the lock to it.
     */
    @ParameterizedTest
    @EnumSource(Closer.class)
    void aWaiterOfAClosedRegistryIsNotHandedTheLock(Closer closer) throws Exception {
        DefaultLockRegistry other = redis.registry(redis.store(), OPERATION_TIMEOUT);
        int rounds = 8;
        int ghosts = 0;
        String example = null;
        for (int i = 0; i < rounds; i++) {
            DefaultLockRegistry closing = redis.registry(redis.store(), OPERATION_TIMEOUT);
            String key = "closing-waiter-" + i + "-" + UUID.randomUUID();
            ReactiveDistributedLock holder = other.obtain(key);
            assertThat(RegistryFixture.await(holder.acquireOnce())).isTrue();

            AtomicReference<Object> outcome = new AtomicReference<>();
            closing.obtain(key).acquire(Duration.ofSeconds(30), Duration.ofMinutes(10)).subscribe()
                    .with(outcome::set, outcome::set);
            awaitInLine(key, 1);
            Thread.sleep(i * 23 % 200);
            long closing0 = System.nanoTime();
            closer.close(closing, redis);
            long closedAfterMillis = (System.nanoTime() - closing0) / 1_000_000;
            assertThat(RegistryFixture.await(holder.release())).isTrue();
            Thread.sleep(300);
            if (!RegistryFixture.await(holder.acquireOnce().onFailure().recoverWithItem(false))) {
                ghosts++;
                example = "close() took " + closedAfterMillis + " ms, the waiter's caller was told " + outcome.get()
                        + "; " + redis.keyInRedis(key);
            } else {
                RegistryFixture.await(holder.release());
            }
            assertThat(outcome.get()).as("the waiter's caller was told it failed").isInstanceOf(Throwable.class);
        }
        assertThat(ghosts).as("of %d rounds, the lock was handed to the closed registry's waiter and stayed held "
                + "by it; e.g. %s", rounds, example).isZero();
    }

    /**
     * Registries sharing their local state: the closing registry's acquisition waits in the local line behind another
     * registry's head, which waits in Redis's line. It is told at once that it failed, and close() does not wait for
     * it, since it has nothing in the store.
     */
    @Test
    void aWaiterBehindAnotherRegistrysHeadFailsWhenItsRegistryCloses() throws Exception {
        DefaultLockRegistry holderRegistry = redis.registry(redis.store(), OPERATION_TIMEOUT);
        LocalLockStates shared = new LocalLockStates();
        DefaultLockRegistry staying = redis.start(redis.store(),
                RedisLocks.settings(Duration.ofSeconds(30), Duration.ofSeconds(10), OPERATION_TIMEOUT), shared);
        DefaultLockRegistry closing = redis.start(redis.store(),
                RedisLocks.settings(Duration.ofSeconds(30), Duration.ofSeconds(10), OPERATION_TIMEOUT), shared);
        String key = "shared-line-" + UUID.randomUUID();
        ReactiveDistributedLock holder = holderRegistry.obtain(key);
        assertThat(RegistryFixture.await(holder.acquireOnce())).isTrue();
        AtomicReference<Object> head = new AtomicReference<>();
        staying.obtain(key).acquire(Duration.ofSeconds(30), Duration.ofMinutes(10)).subscribe().with(head::set,
                head::set);
        awaitInLine(key, 1);
        AtomicReference<Object> behind = new AtomicReference<>();
        closing.obtain(key).acquire(Duration.ofSeconds(30), Duration.ofMinutes(10)).subscribe().with(behind::set,
                behind::set);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (shared.get(key).waiting() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(shared.get(key).waiting()).as("both wait in the local line").isEqualTo(2);

        long t0 = System.nanoTime();
        closing.close();
        long closedAfterMillis = (System.nanoTime() - t0) / 1_000_000;

        assertThat(behind.get()).as("the closing registry's waiter was told it failed when close() returned (after "
                + "%d ms)", closedAfterMillis).isInstanceOf(Throwable.class);
        assertThat(closedAfterMillis).as("close() of a registry with nothing in the store").isLessThan(2_000);
        assertThat(head.get()).as("the other registry's waiter waits on").isNull();
        assertThat(RegistryFixture.await(holder.release())).isTrue();
        deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (head.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(head.get()).as("the other registry's waiter, handed the lock").isEqualTo(true);
    }

    private void awaitInLine(String key, int waiters) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!(":" + waiters).equals(redis.server().send("ZCARD lock:{" + key + "}:line"))
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(redis.server().send("ZCARD lock:{" + key + "}:line")).as("waiters in Redis's line")
                .isEqualTo(":" + waiters);
    }
}
