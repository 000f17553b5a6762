package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A MongoDB server that goes away makes lock operations fail with {@code LockException} within the configured
 * operation timeout, never hang, and readiness down; once a server answers on that address again, the locks work
 * without a restart, and readiness is up.
 */
class MongoOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.on(MongoTestServer.ownedBy(MongoOutageTest.class))
            .overrideConfigKey("quarkus.lock.operation-timeout", OPERATION_TIMEOUT.toString());

    @Inject
    LockRegistry registry;

    @Test
    void operationsFailInBoundedTimeWhileTheServerIsDownAndWorkOnceItIsBack() throws InterruptedException {
        String key = "outage-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();

        MongoTestServer.stopOwnedBy(MongoOutageTest.class);
        // The driver may answer at once (connection refused) or not at all (then the operation timeout answers):
        // either is a LockException naming the key, within the operation timeout and a margin for the scheduler.
        BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                () -> lock.acquireOnce().await().atMost(TIMEOUT), key);
        BoundedFailure.assertFailsWithin(Duration.ofSeconds(2).plus(OPERATION_TIMEOUT).plus(MARGIN),
                LockException.class, () -> lock.acquire(Duration.ofSeconds(2)).await().atMost(TIMEOUT), key);
        StoreReadiness.assertDown("mongodb");

        MongoTestServer.restartOwnedBy(MongoOutageTest.class);
        boolean acquired = StoreRecovery.await(() -> lock.acquireOnce().await().atMost(TIMEOUT), done -> done,
                Duration.ofSeconds(20));
        assertThat(acquired).as("acquired within 20 s of the server's return").isTrue();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
    }
}
