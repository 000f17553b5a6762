package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.mongo.MongoTopology;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * On a standalone server (no change streams, {@code majority} accepted), the locks work: the release watch is
 * refused once and never asked again, and a waiter of another instance finds a released lock by polling.
 */
class MongoStandaloneTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp
            .on(MongoTestServer.ownedBy(MongoStandaloneTest.class, MongoTopology.STANDALONE));

    @Inject
    LockRegistry registry;

    @Inject
    MongoInstances instances;

    @Test
    void aWaiterOfAnotherInstanceGetsAReleasedLockByPollingAndTheRefusedWatchIsNotRetried()
            throws InterruptedException {
        String key = "standalone-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
        DefaultLockRegistry other = instances.start("quarkus_lock");
        try {
            ReactiveDistributedLock waiter = other.obtain(key);
            Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(20)).memoize().indefinitely();
            waiting.subscribe().with(ignored -> {
            });
            Thread.sleep(300);
            assertThat(await(holder.release())).isTrue();
            assertThat(await(waiting)).isTrue();
            assertThat(waiter.fencingToken().getAsLong()).isGreaterThan(1);
            assertThat(await(waiter.release())).isTrue();
        } finally {
            other.close();
        }
        Thread.sleep(1000);
        assertThat(MongoTestServer.faultsOf(MongoStandaloneTest.class).received("changeStream"))
                .as("one refused change stream per instance, never asked again").isEqualTo(2);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
