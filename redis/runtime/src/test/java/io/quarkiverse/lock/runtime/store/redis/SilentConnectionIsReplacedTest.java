package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;

/**
 * A connection that goes silent while it is being opened is given up like one that goes silent later: lock commands
 * do not queue behind it for ever, and locks work again once new connections get through.
 */
class SilentConnectionIsReplacedTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /** The handshake (HELLO/PING) never completes the connect future, which no failure will end either. */
    @Test
    void aConnectionSilentDuringItsHandshakeIsReplaced() throws Exception {
        HoldingProxy proxy = redis.holdingProxy(true);
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = "silent-handshake-" + UUID.randomUUID();
        proxy.cutAll();
        Thread.sleep(200);
        proxy.holdNextConnections(1, false);
        Object first = await(registry.obtain(key).acquireOnce().<Object> map(b -> b).onFailure().recoverWithItem(f -> f));
        // the path heals for every later connection
        long healed = System.nanoTime();
        boolean works = false;
        Object last = null;
        while (!works && System.nanoTime() - healed < Duration.ofSeconds(8).toNanos()) {
            last = await(registry.obtain(key).acquireOnce().<Object> map(b -> b).onFailure().recoverWithItem(f -> f));
            works = Boolean.TRUE.equals(last);
        }
        assertThat(works).as("locks work within 8 s of the path healing (first acquisition: %s, last: %s, "
                + "connections accepted: %d)", first, last, proxy.accepted.get()).isTrue();
    }
}
