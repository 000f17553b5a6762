package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;

/**
 * Bytes of a replaced connection that the network delivers after the take-back of the acquisition they carry (TCP
 * keeps retransmitting what was written before a close) never grant the lock: each new connection kills, on the
 * server, every connection it replaces before it carries anything, however the old one ended.
 */
class LateBytesOfAReplacedConnectionGrantNothingTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /** The path holds the acquisition's bytes until it times out; the take-back runs on the next connection. */
    @Test
    void anAcquisitionDeliveredAfterItsTakeBackIsNotHeldForEver() throws Exception {
        HoldingProxy proxy = redis.holdingProxy(false);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = "late-request-" + UUID.randomUUID();
        proxy.holdOpenConnections();
        assertThatThrownBy(() -> await(registry.obtain(key).acquireForever())).isInstanceOf(LockException.class)
                .hasMessageContaining("no answer");
        Thread.sleep(1_000);
        int late = proxy.deliverHeld();
        Thread.sleep(500);

        redis.assertAcquirableSoon(registry, key, late + " bytes of the abandoned connection delivered after the "
                + "take-back");
    }

    /** A middlebox resets the client side while it holds the acquisition's bytes: the client sees the end at once. */
    @Test
    void aConnectionEndedUnderAnAcquisitionIsKilledBeforeItsTakeBack() throws Exception {
        HoldingProxy proxy = redis.holdingProxy(true);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        String key = "ended-" + UUID.randomUUID();
        proxy.holdOpenConnections();
        CompletableFuture<Object> outcome = acquireForever(registry, key);
        Thread.sleep(300);
        proxy.resetHeldClients();
        LateDelivery delivery = outcomeThenLateDelivery(outcome, proxy, 500);

        redis.assertAcquirableSoon(registry, key, "acquireForever ended with " + delivery.result() + "; "
                + delivery.bytes() + " bytes of the reset connection delivered after the take-back");
    }

    /**
     * The path breaks right as a connection opens (which is when connections get opened: after a failure) and holds
     * its {@code CLIENT ID} and the first acquisition, so its replacement never learnt which id to kill.
     */
    @Test
    void aReplacedConnectionWhoseIdWasNeverAnsweredIsStillKilled() throws Exception {
        assertLateBytesGrantNothing("unknown-id-", "CLIENT ID never answered", proxy -> {
            proxy.cutAll();
            Thread.sleep(200);
            // the next connection passes its handshake (HELLO), then the path holds its bytes
            proxy.holdNextConnections(1, true);
        });
    }

    /** The first reconnect is refused (the path is still broken): the kill must wait for the next connection. */
    @Test
    void theKillOfAReplacedConnectionSurvivesAFailedReconnect() throws Exception {
        assertLateBytesGrantNothing("kill-forgotten-", "first reconnect refused", proxy -> {
            proxy.holdOpenConnections();
            proxy.refuseNextConnections(1);
        });
    }

    /**
     * Breaks the path with {@code breakPath} (operation timeout 1 s), acquires a key for ever, waits for the
     * acquisition's outcome and its take-back on the next connection, then delivers the bytes the proxy held on the
     * replaced connection.
     */
    private void assertLateBytesGrantNothing(String keyPrefix, String fault, PathBreak breakPath) throws Exception {
        HoldingProxy proxy = redis.holdingProxy(true);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = keyPrefix + UUID.randomUUID();
        breakPath.apply(proxy);
        LateDelivery delivery = outcomeThenLateDelivery(acquireForever(registry, key), proxy, 1_000);

        redis.assertAcquirableSoon(registry, key, fault + ": acquireForever ended with " + delivery.result() + "; "
                + delivery.bytes() + " bytes of the replaced connection delivered after the take-back; connections "
                + "accepted " + proxy.accepted.get());
    }

    /** What breaks the path before the acquisition. */
    private interface PathBreak {
        void apply(HoldingProxy proxy) throws Exception;
    }

    /** Subscribes {@code acquireForever()} on {@code key}; the future completes with its item or its failure. */
    private static CompletableFuture<Object> acquireForever(DefaultLockRegistry registry, String key) {
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        registry.obtain(key).acquireForever().subscribe().with(outcome::complete, outcome::complete);
        return outcome;
    }

    /**
     * Waits for the acquisition's outcome, lets {@code settleMillis} pass (its take-back runs meanwhile), delivers the
     * bytes the proxy held, and gives them half a second to run.
     */
    private static LateDelivery outcomeThenLateDelivery(CompletableFuture<Object> outcome, HoldingProxy proxy,
            long settleMillis) throws Exception {
        Object result = outcome.get(10, TimeUnit.SECONDS);
        Thread.sleep(settleMillis);
        int late = proxy.deliverHeld();
        Thread.sleep(500);
        return new LateDelivery(result, late);
    }

    /** An acquisition's outcome, and how many bytes of its connection reached Redis after it. */
    private record LateDelivery(Object result, int bytes) {
    }
}
