package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * A registry that closes ends what it owes the store before the store's connections close: a take-back whose try
 * failed, during or before the close, is tried again (an acquisition cancelled just before shutdown, whose attempt
 * Redis granted for ever, is not left holding the lock), and a grant that arrives while the registry closes is taken
 * back rather than handed to a caller whose release could no longer reach Redis, and a release that failed within
 * the lock's minimum hold is tried again.
 */
class ClosingRegistryKeepsTakeBacksTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /**
     * The take-back is sent while {@code close()} waits for the store (still open, for up to the operation timeout and
     * a second) and fails once: the connection breaks before it reached Redis. It must be tried again before the
     * store closes.
     */
    @Test
    void aTakeBackThatFailsWhileTheRegistryClosesIsTriedAgain() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(quietStore(proxy), Duration.ofSeconds(5));
        String key = "closing-" + UUID.randomUUID();
        long[] closeMillis = new long[2];
        long t0 = System.nanoTime();
        Thread closer = new Thread(() -> {
            registry.close();
            closeMillis[1] = (System.nanoTime() - t0) / 1_000_000;
        }, "closer");
        cancelAGrantAndHoldItsTakeBack(proxy, registry, key, Duration.ofMillis(1500), closer::start);
        // the connection breaks before the take-back reached Redis; the network is fine again at once
        closeMillis[0] = (System.nanoTime() - t0) / 1_000_000;
        breakAndHeal(proxy);
        closer.join(10_000);
        Thread.sleep(2_000);

        assertThat(redis.server().send("EXISTS lock:{" + key + "}"))
                .as("the acquisition cancelled before the close was taken back (close() began at 0 ms, the "
                        + "take-back's connection was cut at %d ms, close() returned at %d ms); %s", closeMillis[0],
                        closeMillis[1], redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /**
     * The take-back failed once just before the close and waits for its retry, 100 ms later: the close must wait for
     * it, not close the store under it.
     */
    @Test
    void aTakeBackRetryPendingWhenTheRegistryClosesIsNotDropped() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(quietStore(proxy), Duration.ofSeconds(5));
        String key = "closing-retry-" + UUID.randomUUID();
        cancelAGrantAndHoldItsTakeBack(proxy, registry, key, Duration.ofMillis(800), () -> {
        });
        breakAndHeal(proxy);
        // the take-back failed; its retry is due 100 ms after the failure
        Thread.sleep(30);
        long closing = System.nanoTime();
        registry.close();
        long closedAfterMillis = (System.nanoTime() - closing) / 1_000_000;
        Thread.sleep(2_000);

        assertThat(redis.server().send("EXISTS lock:{" + key + "}"))
                .as("the acquisition cancelled before the close was taken back (close() returned after %d ms); %s",
                        closedAfterMillis, redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /**
     * The same faults without a close: the take-back's retry, 100 ms after its failure, frees the lock, so the tests
     * above show what the close adds.
     */
    @Test
    void withoutACloseTheRetryFreesTheLock() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(quietStore(proxy), Duration.ofSeconds(5));
        String key = "control-" + UUID.randomUUID();
        cancelAGrantAndHoldItsTakeBack(proxy, registry, key, Duration.ofMillis(800), () -> {
        });
        breakAndHeal(proxy);
        Thread.sleep(2_000);

        assertThat(redis.server().send("EXISTS lock:{" + key + "}")).as(redis.keyInRedis(key)).isEqualTo(":0");
    }

    /**
     * A release whose tries all fail for a while (each connection breaks before the request reaches Redis) goes on as
     * a take-back with growing pauses: 100, 200, ... 3200, then 5000 ms. The network is fine again and the registry
     * closes during the last pause: the take-back is tried again at once, before the store closes, rather than when
     * its pause ends, after it.
     */
    @Test
    void aTakeBackPausedBeforeTheCloseIsTriedAgainBeforeTheStoreCloses() throws Exception {
        String key = "paused-take-back-" + UUID.randomUUID();
        long[] closedAfterMillis = { -1 };
        String history = failReleaseForAWhile(key, registry -> {
            long closing = System.nanoTime();
            registry.close();
            closedAfterMillis[0] = (System.nanoTime() - closing) / 1_000_000;
        });
        assertThat(closedAfterMillis[0]).as("close() waited for the take-back, not its pause").isLessThan(3_000);
        assertThat(redis.server().send("EXISTS lock:{" + key + "}"))
                .as("the release that failed before the close was taken back before the store closed (close() "
                        + "returned after %d ms); %s; %s", closedAfterMillis[0], history, redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /** The same faults without a close: the take-back's retry, after its 5 s pause, frees the lock. */
    @Test
    void withoutACloseThePausedTakeBackFreesTheLock() throws Exception {
        String key = "paused-take-back-control-" + UUID.randomUUID();
        String history = failReleaseForAWhile(key, registry -> {
        });
        assertThat(redis.server().send("EXISTS lock:{" + key + "}")).as("%s; %s", history, redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /**
     * An acquisition for ever whose grant is on its way when the registry closes: the grant arrives while close()
     * waits for it. Its caller is told it failed, and the grant is taken back: had the caller been told it holds the
     * lock, its release would find the store closed, and the lock would stay held for ever.
     */
    @Test
    void aGrantThatArrivesWhileTheRegistryClosesIsTakenBack() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(quietStore(proxy), Duration.ofSeconds(5));
        String key = "grant-while-closing-" + UUID.randomUUID();
        delayFirstReply(proxy, key, Duration.ofMillis(1500));
        ReactiveDistributedLock lock = registry.obtain(key);
        AtomicReference<Object> outcome = new AtomicReference<>();
        lock.acquireForever().subscribe().with(outcome::set, outcome::set);
        // Redis granted it; its reply is on its way
        redis.awaitHeld(key);
        long closing = System.nanoTime();
        registry.close();
        long closedAfterMillis = (System.nanoTime() - closing) / 1_000_000;

        assertThat(outcome.get()).as("the caller was told it failed (close() returned after %d ms)",
                closedAfterMillis).isInstanceOf(Throwable.class);
        assertThat(redis.server().send("EXISTS lock:{" + key + "}"))
                .as("the grant that arrived while the registry closed was taken back; %s", redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /**
     * A release within the lock's minimum hold ({@code withHoldAtLeast}) fails (the connection breaks before it
     * reaches Redis), and the registry closes right after: the release is tried again before the store closes, so
     * Redis frees the lock when the minimum hold ends, not when its 10 minute lease does; and not earlier either.
     */
    @Test
    void aReleaseThatFailedWithinItsMinimumHoldIsTriedAgainBeforeTheStoreCloses() throws Exception {
        String key = "hold-at-least-" + UUID.randomUUID();
        String[] afterClose = { "" };
        String history = failAReleaseWithinItsMinimumHold(key, registry -> {
            registry.close();
            afterClose[0] = redis.keyInRedis(key);
        });
        assertThat(afterClose[0]).as("the minimum hold is kept after the close; %s", history)
                .startsWith("key in Redis: :1");
        assertThat(redis.server().send("EXISTS lock:{" + key + "}"))
                .as("the lock whose release failed within its minimum hold (2 s) is free 3.5 s after the release; "
                        + "%s; after the close: %s; now: %s", history, afterClose[0], redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /** The same faults without a close: the release tried again frees the lock once the minimum hold is over. */
    @Test
    void withoutACloseTheFailedReleaseWithinItsMinimumHoldFreesTheLock() throws Exception {
        String key = "hold-at-least-control-" + UUID.randomUUID();
        String history = failAReleaseWithinItsMinimumHold(key, registry -> {
        });
        assertThat(redis.server().send("EXISTS lock:{" + key + "}")).as("%s; %s", history, redis.keyInRedis(key))
                .isEqualTo(":0");
    }

    /**
     * Acquires {@code key} for 10 minutes with a minimum hold of 2 s, releases it at once while the connection breaks
     * before the release reaches Redis, heals the network, runs {@code then}, and waits 3.5 s (past the minimum hold).
     *
     * @return what happened, for the failure's description
     */
    private String failAReleaseWithinItsMinimumHold(String key, ThrowingConsumer<DefaultLockRegistry> then)
            throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(quietStore(proxy), Duration.ofSeconds(2));
        ReactiveDistributedLock lock = registry.obtain(key).withHoldAtLeast(Duration.ofSeconds(2));
        assertThat(RegistryFixture.await(lock.acquire(Duration.ofSeconds(1), Duration.ofMinutes(10)))).isTrue();

        proxy.holdRequests(request -> true);
        AtomicReference<Object> released = new AtomicReference<>();
        lock.release().subscribe().with(released::set, released::set);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (proxy.heldRequests() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertThat(proxy.heldRequests()).as("the release was sent").isPositive();
        breakAndHeal(proxy);
        deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (released.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertThat(released.get()).as("the release's caller was told it failed").isInstanceOf(Throwable.class);
        String history = "before the close: " + redis.keyInRedis(key);
        long t0 = System.nanoTime();
        then.accept(registry);
        history += "; close() took " + (System.nanoTime() - t0) / 1_000_000 + " ms";
        Thread.sleep(3_500);
        return history;
    }

    /** A step of a test that may throw. */
    @FunctionalInterface
    private interface ThrowingConsumer<T> {

        void accept(T value) throws Exception;
    }

    /**
     * Acquires {@code key} for ever, then releases it while every try fails (the connection is cut before each reaches
     * Redis) until seven have failed (the release and its take-back's retries after 100 to 3200 ms), heals the
     * network, runs {@code then}, and waits past the take-back's next pause (5 s).
     *
     * @return what happened, for the failure's description
     */
    private String failReleaseForAWhile(String key, ThrowingConsumer<DefaultLockRegistry> then) throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(quietStore(proxy), Duration.ofSeconds(2));
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(RegistryFixture.await(lock.acquireForever())).isTrue();
        assertThat(redis.server().send("PTTL lock:{" + key + "}")).isEqualTo(":-1");

        proxy.holdRequests(request -> true);
        AtomicBoolean cutting = new AtomicBoolean(true);
        AtomicInteger cuts = new AtomicInteger();
        Thread cutter = new Thread(() -> {
            while (cutting.get()) {
                if (proxy.heldRequests() > 0) {
                    proxy.cutAll();
                    cuts.incrementAndGet();
                }
                Pause.sleep(2);
            }
        }, "cutter");
        cutter.start();
        long t0 = System.nanoTime();
        AtomicReference<Object> released = new AtomicReference<>();
        lock.release().subscribe().with(released::set, released::set);
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (cuts.get() < 7 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertThat(cuts.get()).as("tries that failed").isGreaterThanOrEqualTo(7);
        long lastCut = System.nanoTime();
        Thread.sleep(100);
        cutting.set(false);
        cutter.join();
        breakAndHeal(proxy);
        String history = "the release was answered " + released.get() + "; " + cuts.get() + " tries failed, the last "
                + "at " + (lastCut - t0) / 1_000_000 + " ms; the network was fine again at "
                + (System.nanoTime() - t0) / 1_000_000 + " ms";
        then.accept(registry);
        long left = Duration.ofMillis(6_500).toNanos() - (System.nanoTime() - lastCut);
        if (left > 0) {
            Thread.sleep(left / 1_000_000);
        }
        return history;
    }

    /**
     * Acquires {@code key} for ever with its reply delayed by {@code replyDelay}, cancels the acquisition once Redis
     * granted it, then holds every request in the network, and waits until the take-back that follows the reply is
     * held.
     *
     * @param afterCancel run once the requests are held, before waiting for the take-back
     */
    private void cancelAGrantAndHoldItsTakeBack(FaultProxy proxy, DefaultLockRegistry registry, String key,
            Duration replyDelay, Runnable afterCancel) throws Exception {
        delayFirstReply(proxy, key, replyDelay);
        Cancellable acquisition = registry.obtain(key).acquireForever().subscribe().with(ignored -> {
        }, ignored -> {
        });
        // Redis granted it; its reply is on its way
        redis.awaitHeld(key);
        acquisition.cancel();
        proxy.holdRequests(request -> true);
        afterCancel.run();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (proxy.heldRequests() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(proxy.heldRequests()).as("the take-back was sent").isPositive();
    }

    /** Delays the reply to the first command on {@code key} by {@code delay}. */
    private static void delayFirstReply(FaultProxy proxy, String key, Duration delay) {
        AtomicBoolean delayed = new AtomicBoolean();
        proxy.rule(exchange -> exchange.request() != null && exchange.request().contains("lock:{" + key + "}")
                && delayed.compareAndSet(false, true) ? Fault.delay(delay) : Fault.pass());
    }

    /** The connections break before the held take-back reached Redis; the network is fine again at once. */
    private static void breakAndHeal(FaultProxy proxy) {
        proxy.cutAll();
        proxy.deliverHeld();
    }

    /**
     * A store through the proxy without release notifications: the lock connections are the proxy's only ones, so a
     * request held is a lock command (no subscription's keep-alive).
     */
    private RedisLockStore quietStore(FaultProxy proxy) {
        Redis client = Redis.createClient(redis.vertx(), new RedisOptions().setConnectionString(proxy.redisUri()));
        return new RedisLockStore(redis.vertx(), client, "lock:", Duration.ofHours(1).toMillis(), false);
    }
}
