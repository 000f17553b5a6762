package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.lock.redis.wait-replicas=1}, an acquisition counts only once a replica has it: the replica
 * holds the lock when the acquisition returns; without a replica to acknowledge, the acquisition fails with a
 * {@code LockException} and leaves nothing held on the primary.
 */
class RedisReplicaAcknowledgementTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            .overrideConfigKey("quarkus.lock.redis.wait-timeout", "300ms")
            .overrideConfigKey("quarkus.redis.hosts", primary().uri());

    @Inject
    LockRegistry locks;

    private static RedisServer primary() {
        return RedisServer.ownedBy(RedisReplicaAcknowledgementTest.class);
    }

    private static RedisServer replica() {
        return RedisServer.ownedBy(RedisReplica.class, "--replicaof", "127.0.0.1",
                Integer.toString(primary().port()));
    }

    @Test
    void anAcquisitionCountsOnceTheReplicaHasItAndFailsCleanlyWithoutOne() throws Exception {
        RedisServer replica = replica();
        awaitReplicaInSync();
        String key = "replicated-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.obtain(key);
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(replica.send("EXISTS lock:{" + key + "}")).as("the replica has it").isEqualTo(":1");
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();

        replica.shutdown();
        String unreplicated = "unreplicated-" + UUID.randomUUID();
        assertThatThrownBy(() -> locks.obtain(unreplicated).acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class)
                .hasMessageContaining(unreplicated)
                .hasMessageContaining("0 of the 1 replicas");
        assertThat(primary().send("EXISTS lock:{" + unreplicated + "}")).as("released again").isEqualTo(":0");
    }

    private static void awaitReplicaInSync() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!":1".equals(primary().send("WAIT 1 100"))) {
            assertThat(System.nanoTime()).as("the replica synchronised").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** Owns the replica's server. */
    private static final class RedisReplica {
    }
}
