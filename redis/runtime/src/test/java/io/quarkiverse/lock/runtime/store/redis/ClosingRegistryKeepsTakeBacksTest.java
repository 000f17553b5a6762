package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * A registry that closes ends what it owes the store before the store's connections close: a take-back whose first
 * try failed, during or just before the close, is tried again (an acquisition cancelled just before shutdown, whose
 * attempt Redis granted for ever, is not left holding the lock), and an acquisition waiting in Redis's line withdraws,
 * so a release of another instance cannot hand it the lock after its caller was told it failed.
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
     * Acquires {@code key} for ever with its reply delayed by {@code replyDelay}, cancels the acquisition once Redis
     * granted it, then holds every request in the network, and waits until the take-back that follows the reply is
     * held.
     *
     * @param afterCancel run once the requests are held, before waiting for the take-back
     */
    private void cancelAGrantAndHoldItsTakeBack(FaultProxy proxy, DefaultLockRegistry registry, String key,
            Duration replyDelay, Runnable afterCancel) throws Exception {
        AtomicBoolean delayed = new AtomicBoolean();
        proxy.rule(exchange -> exchange.request() != null && exchange.request().contains("lock:{" + key + "}")
                && delayed.compareAndSet(false, true) ? Fault.delay(replyDelay) : Fault.pass());
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

    /**
     * No fault at all: an acquisition of the closing application waits in Redis's line when the registry closes, and
     * the holder of another instance releases right after the close, within the waiter's place (1 s). Unless the
     * waiter withdrew before the store closed, the release hands the lock to it, for its whole lease, though its
     * caller was told it failed.
     */
    @Test
    void aWaiterOfAClosedRegistryIsNotHandedTheLock() throws Exception {
        DefaultLockRegistry other = redis.registry(redis.store(), Duration.ofSeconds(5));
        int rounds = 10;
        int ghosts = 0;
        String example = null;
        for (int i = 0; i < rounds; i++) {
            DefaultLockRegistry closing = redis.registry(redis.store(), Duration.ofSeconds(5));
            String key = "closing-waiter-" + i + "-" + UUID.randomUUID();
            ReactiveDistributedLock holder = other.obtain(key);
            assertThat(RegistryFixture.await(holder.acquireOnce())).isTrue();

            AtomicReference<Object> outcome = new AtomicReference<>();
            closing.obtain(key).acquire(Duration.ofSeconds(30), Duration.ofMinutes(10)).subscribe()
                    .with(outcome::set, outcome::set);
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (!":1".equals(redis.server().send("ZCARD lock:{" + key + "}:line"))
                    && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            Thread.sleep(i * 23 % 200);
            String line = redis.server().send("ZCARD lock:{" + key + "}:line");
            long closing0 = System.nanoTime();
            closing.close();
            long closedAfterMillis = (System.nanoTime() - closing0) / 1_000_000;
            assertThat(RegistryFixture.await(holder.release())).isTrue();
            Thread.sleep(300);
            if (!RegistryFixture.await(holder.acquireOnce().onFailure().recoverWithItem(false))) {
                ghosts++;
                example = "line " + line + " before the close, close() took " + closedAfterMillis
                        + " ms, the waiter's caller was told " + outcome.get() + "; " + redis.keyInRedis(key);
            } else {
                RegistryFixture.await(holder.release());
            }
        }
        assertThat(ghosts).as("of %d rounds, the lock was handed to the closed registry's waiter and stayed held "
                + "by it; e.g. %s", rounds, example).isZero();
    }
}
