package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreSettings;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.mongo.MongoFaults;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The release watch says announcements reach listeners only once the server opened its change stream, wakes waiters
 * only then, and gives up on a stream the server refuses for good; a waiting instance's polls are acknowledged by the
 * primary alone, its acquisitions by the configured write concern.
 */
class MongoReleaseWatchTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.on(MongoTestServer.ownedBy(MongoReleaseWatchTest.class))
            // only the watches of this test's stores open change streams
            .overrideConfigKey("quarkus.lock.mongodb.release-notifications", "false");

    @Inject
    Vertx vertx;

    @Inject
    ReactiveMongoClient mongo;

    @AfterEach
    void clearFaults() {
        faults().clear();
    }

    @Test
    void aStreamRefusedForGoodIsAskedForOnceAndWakesNobody() throws Exception {
        faults().refuse(command -> command.contains("$changeStream"), 1, 13, "Unauthorized",
                "not authorized on quarkus_lock to execute command { aggregate: \"locks.releases\" }");
        long before = faults().received("changeStream");
        CountingListener listener = new CountingListener();
        try (AutoCloseable watch = store().watchReleases(listener)) {
            Thread.sleep(2000);
            assertThat(faults().received("changeStream") - before).isEqualTo(1);
            assertThat(listener.gaps.get()).as("no waiter woken by a stream that never opened").isZero();
        }
    }

    @Test
    void anOpenStreamWakesWaitersOnceAndCarriesReleases() throws Exception {
        MongoLockStore store = store();
        CountingListener listener = new CountingListener();
        try (AutoCloseable watch = store.watchReleases(listener)) {
            eventually(() -> listener.gaps.get() == 1);
            String key = "announced-" + UUID.randomUUID();
            assertThat(await(store.tryAcquire(key, "holder", 30_000, false)).acquired()).isTrue();
            assertThat(await(store.tryAcquire(key, "waiter", 30_000, true)).acquired()).isFalse();
            assertThat(await(store.release(key, "holder"))).isTrue();
            eventually(() -> listener.released.contains(key));
            assertThat(listener.gaps.get()).isEqualTo(1);
        }
    }

    @Test
    void aWaitersPlaceIsKeptWithWriteConcernOneAndItsGrantWithTheConfiguredOne() {
        MongoLockStore store = store();
        String key = "polls-" + UUID.randomUUID();
        Collection<String> lineWrites = faults().record(command -> command.contains(key)
                && (command.contains("line.$.seenAt") || command.contains("$push")));
        Collection<String> grants = faults().record(command -> command.contains(key) && command.contains("\"grant\""));
        assertThat(await(store.tryAcquire(key, "holder", 30_000, false)).acquired()).isTrue();
        for (int poll = 0; poll < 5; poll++) {
            assertThat(await(store.tryAcquire(key, "waiter", 30_000, true)).acquired()).isFalse();
        }
        assertThat(await(store.release(key, "holder"))).isTrue();
        assertThat(await(store.tryAcquire(key, "waiter", 30_000, true)).acquired()).isTrue();

        assertThat(lineWrites).hasSizeGreaterThanOrEqualTo(6)
                .allSatisfy(command -> assertThat(command).contains("\"writeConcern\" : {\"w\" : 1}"));
        assertThat(grants).isNotEmpty()
                .allSatisfy(command -> assertThat(command).contains("\"writeConcern\" : {\"w\" : \"majority\"}"));
    }

    private MongoLockStore store() {
        return new MongoLockStore(vertx, mongo.getDatabase("quarkus_lock"), new MongoLockStoreSettings("locks",
                "", new Document("w", "majority"), false, true, Duration.ofSeconds(5)));
    }

    private static MongoFaults faults() {
        return MongoTestServer.faultsOf(MongoReleaseWatchTest.class);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition still false after " + TIMEOUT).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private static final class CountingListener implements ReleaseListener {

        final List<String> released = new CopyOnWriteArrayList<>();
        final AtomicInteger gaps = new AtomicInteger();

        @Override
        public void released(String key) {
            released.add(key);
        }

        @Override
        public void handedOver(String key, String owner, long token) {
        }

        @Override
        public void mayHaveMissed() {
            gaps.incrementAndGet();
        }
    }
}
