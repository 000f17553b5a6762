package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A holder that renews its lease and loses the store learns that its lease may have run out when it runs out,
 * counted from the last renewal the store answered, not an operation timeout later.
 */
class RedisLeaseLossTest {

    private static final Duration LEASE = Duration.ofSeconds(1);

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.ownedBy(RedisLeaseLossTest.class)
            .overrideConfigKey("quarkus.lock.operation-timeout", "5s");

    @Inject
    LockRegistry registry;

    @Test
    void aHolderCutOffFromTheStoreIsToldWhenItsLeaseEnds() throws Exception {
        ReactiveDistributedLock lock = registry.obtain("cut-off-" + UUID.randomUUID()).withLeaseRenewal(true);
        CompletableFuture<Object> ended = new CompletableFuture<>();
        lock.acquireAndExecute(Duration.ZERO, LEASE, Uni.createFrom().<String> nothing()).subscribe()
                .with(item -> ended.complete(item), failure -> ended.complete(failure));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (lock.fencingToken().isEmpty()) {
            assertThat(System.nanoTime()).as("acquired").isLessThan(deadline);
            Thread.sleep(10);
        }
        Thread.sleep(500);

        RedisServer.ownedBy(RedisLeaseLossTest.class).pause();
        long stopped = System.nanoTime();
        Object outcome;
        try {
            outcome = ended.get(20, TimeUnit.SECONDS);
        } finally {
            RedisServer.ownedBy(RedisLeaseLossTest.class).resume();
        }
        Duration toldAfter = Duration.ofNanos(System.nanoTime() - stopped);
        System.out.printf("Told of the lost lease %d ms after the store stopped answering (lease %d ms)%n",
                toldAfter.toMillis(), LEASE.toMillis());
        assertThat(outcome).isInstanceOf(LockExpiredException.class);
        assertThat(toldAfter).as("at most a lease after the last renewal, well before the operation timeout")
                .isLessThan(LEASE.plusMillis(800));
    }
}
