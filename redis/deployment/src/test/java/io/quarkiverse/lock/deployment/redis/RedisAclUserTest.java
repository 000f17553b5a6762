package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;

/**
 * The locks use the Quarkus Redis client's credentials: an ACL user that may touch only the keys and channels under
 * the lock prefix can acquire, wait, be woken and release.
 */
class RedisAclUserTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(root -> root.addClass(RedisAclUser.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.hosts", RedisAclUser.uri(
                    RedisServer.ownedBy(RedisAclUserTest.class, RedisAclUser.SERVER_SETTINGS).port(),
                    RedisAclUser.PASSWORD));

    @Inject
    LockRegistry locks;

    @Inject
    @Readiness
    AsyncHealthCheck readiness;

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
        assertThat(readiness.call().await().atMost(TIMEOUT).getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
    }
}
