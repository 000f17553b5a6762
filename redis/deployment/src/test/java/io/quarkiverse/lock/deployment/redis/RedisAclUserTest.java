package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * The locks use the Quarkus Redis client's credentials: an ACL user that may touch only the keys and channels under
 * the lock prefix can acquire, wait, be woken and release.
 */
class RedisAclUserTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisAclUser.app(RedisAclUserTest.class, RedisAclUser.PASSWORD);

    @Inject
    LockRegistry locks;

    @Test
    void anAclUserLimitedToTheLockPrefixCanUseTheLocks() {
        ReactiveDistributedLock holder = locks.obtain("acl-order-1");
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        ReactiveDistributedLock waiter = locks.obtain("acl-order-1");
        assertThat(waiter.acquireOnce().await().atMost(TIMEOUT)).isFalse();
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(5)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });

        assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(waiting.await().atMost(TIMEOUT)).isTrue();
        assertThat(waiter.release().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
    }
}
