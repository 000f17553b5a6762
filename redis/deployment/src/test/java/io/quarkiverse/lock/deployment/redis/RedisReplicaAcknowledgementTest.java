package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.lock.redis.wait-replicas=1}, an acquisition counts only once a replica has it: the replica
 * holds the lock when the acquisition returns; without a replica to acknowledge, the acquisition fails with a
 * {@code LockException} and leaves nothing held on the primary; the same holds for a lock handed over by a release.
 */
class RedisReplicaAcknowledgementTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on(primary().uri())
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            .overrideConfigKey("quarkus.lock.redis.wait-replicas-timeout", "300ms");

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
        assertThat(acquiredOnceReplicaSynchronised(lock)).isTrue();
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

    @Test
    void aHandOverCountsOnlyOnceTheReplicaHasIt() throws Exception {
        RedisServer replica = RedisServer.ownedBy(FrozenReplica.class, "--replicaof", "127.0.0.1",
                Integer.toString(primary().port()));
        try {
            awaitReplicaInSync();
            String key = "handed-over-" + UUID.randomUUID();
            ReactiveDistributedLock holder = locks.obtain(key);
            assertThat(acquiredOnceReplicaSynchronised(holder)).isTrue();
            CompletableFuture<Boolean> waiting = locks.obtain(key).acquire(Duration.ofSeconds(5))
                    .subscribeAsCompletionStage();
            Thread.sleep(200);
            replica.pause();
            try {
                assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
                assertThatThrownBy(() -> waiting.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                        .hasCauseInstanceOf(LockException.class)
                        .hasMessageContaining("0 of the 1 replicas");
            } finally {
                replica.resume();
            }
            assertThat(primary().send("EXISTS lock:{" + key + "}")).as("released again").isEqualTo(":0");
        } finally {
            replica.shutdown();
        }
    }

    /**
     * A replica that just connected counts for {@code WAIT} only once its first synchronisation is over, which a
     * fresh connection's {@code WAIT} cannot tell: the first acquisition is tried until the replica acknowledges it.
     */
    private static boolean acquiredOnceReplicaSynchronised(ReactiveDistributedLock lock) throws InterruptedException {
        return StoreRecovery.await(() -> lock.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                TIMEOUT);
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

    /** Owns the server of the replica that a test freezes. */
    private static final class FrozenReplica {
    }
}
