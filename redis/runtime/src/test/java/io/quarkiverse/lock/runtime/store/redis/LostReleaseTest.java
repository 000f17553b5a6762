package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;

/**
 * A release that never reaches Redis does not keep a lock acquired forever held for ever.
 */
class LostReleaseTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /** The connection swallows the release until it times out; the handle no longer holds, so nothing else frees it. */
    @Test
    void aLockAcquiredForeverWhoseReleaseIsLostIsNotHeldForEver() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry registry = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(1));
        String key = "release-lost-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(await(lock.acquireForever())).isTrue();
        proxy.swallow(true);
        assertThatThrownBy(() -> await(lock.release())).isInstanceOf(LockException.class);
        proxy.swallow(false);
        boolean retried = await(lock.release().onFailure().recoverWithItem(false));

        redis.assertAcquirableSoon(registry, key, "the release was lost; the handle's second release() answered "
                + retried);
    }
}
