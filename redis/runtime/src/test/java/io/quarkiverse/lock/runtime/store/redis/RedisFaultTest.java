package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.testsupport.proxy.Exchange;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Uni;

/**
 * Faults between the client and a real redis-server, injected by a proxy: a reply lost after the server granted, a
 * connection that silently swallows traffic, and a {@code NOSCRIPT} reply that arrives after its acquisition timed
 * out. After each, no lock stays held that no handle tracks, and the locks work again.
 */
class RedisFaultTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();
    private FaultProxy proxy;
    private DefaultLockRegistry registry;

    @BeforeEach
    void start() {
        proxy = redis.faultProxy();
        registry = redis.registry(redis.store(proxy.redisUri()), OPERATION_TIMEOUT);
    }

    @Test
    void aLockAcquiredForeverWhoseReplyIsLostIsTakenBack() {
        assertAGrantWhoseReplyIsLostIsTakenBack("lost-forever-", key -> registry.obtain(key).acquireForever());
    }

    @Test
    void anOverridingAcquisitionWhoseReplyIsLostIsTakenBack() {
        assertAGrantWhoseReplyIsLostIsTakenBack("lost-take-over-",
                key -> registry.obtain(key, LockType.OVERRIDING).acquire(Duration.ZERO, Duration.ofMinutes(10)));
    }

    @Test
    void aConnectionThatSwallowsTrafficIsReplaced() {
        String key = "swallowed-" + UUID.randomUUID();
        proxy.swallow(true);
        long start = System.nanoTime();
        assertThatThrownBy(() -> await(registry.obtain(key).acquireOnce())).isInstanceOf(LockException.class)
                .hasMessageContaining(key);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(OPERATION_TIMEOUT.plusSeconds(2));
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(await(lock.acquireOnce())).as("the next operation runs on a new connection").isTrue();
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void aNoScriptReplyThatComesAfterTheAcquisitionTimedOutIsNotRetried() throws IOException {
        String key = "late-noscript-" + UUID.randomUUID();
        redis.server().send("SCRIPT FLUSH");
        preload(RedisLockStore.LEAVE.source());
        AtomicBoolean delayed = new AtomicBoolean();
        proxy.rule(exchange -> isScriptCallOn(exchange, key) && exchange.reply().contains("NOSCRIPT")
                && delayed.compareAndSet(false, true) ? Fault.delay(OPERATION_TIMEOUT.multipliedBy(2)) : Fault.pass());
        assertThatThrownBy(() -> await(registry.obtain(key).acquireForever())).isInstanceOf(LockException.class)
                .hasMessageContaining("no answer within");
        assertThat(delayed).isTrue();
        proxy.clearRules();
        sleep(OPERATION_TIMEOUT.multipliedBy(2));
        assertAcquirableSoon(key);
    }

    /**
     * Cuts the connection at the reply to the first grant of a new key, so that {@code acquisition} fails although the
     * server granted it; then the lock must be free again soon (taken back) and acquirable.
     */
    private void assertAGrantWhoseReplyIsLostIsTakenBack(String keyPrefix, Function<String, Uni<Boolean>> acquisition) {
        String key = keyPrefix + UUID.randomUUID();
        cutAtTheFirstGrantOf(key);
        assertThatThrownBy(() -> await(acquisition.apply(key))).isInstanceOf(LockException.class);
        proxy.clearRules();
        assertThat(proxy.counts().cuts()).isEqualTo(1);
        assertAcquirableSoon(key);
    }

    private void cutAtTheFirstGrantOf(String key) {
        AtomicBoolean cut = new AtomicBoolean();
        proxy.rule(exchange -> isScriptCallOn(exchange, key) && !exchange.reply().contains("NOSCRIPT")
                && cut.compareAndSet(false, true) ? Fault.cut() : Fault.pass());
    }

    private static boolean isScriptCallOn(Exchange exchange, String key) {
        String request = exchange.request();
        return request != null && request.regionMatches(true, 0, "EVALSHA ", 0, 8) && request.contains(key);
    }

    private void assertAcquirableSoon(String key) {
        RegistryFixture.assertAcquirableSoon(registry, key);
    }

    private void preload(String source) throws IOException {
        String escaped = source.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        assertThat(redis.server().send("SCRIPT LOAD \"" + escaped + "\"")).doesNotStartWith("-");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
