package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.mongo.MongoFaults;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Only the database server's clock decides: with every client's clock an hour ahead of the server's, a waiter that
 * joined the line and died at once keeps no place (its place lapses after a second of server time), and no time in a
 * lock document comes from a client.
 */
class MongoServerClockTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CLIENTS_AHEAD = Duration.ofHours(1);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.on(MongoTestServer.ownedBy(MongoServerClockTest.class));

    @Inject
    LockRegistry registry;

    @Inject
    MongoInstances instances;

    @Inject
    ReactiveMongoClient mongo;

    @AfterEach
    void clearFaults() {
        faults().clear();
    }

    @Test
    void aWaiterThatDiedRightAfterJoiningTheLineBlocksNobody() {
        faults().shiftClientClocks(CLIENTS_AHEAD);
        String key = "dead-joiner-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();

        // The joiner's first visit of the line finds it absent and joins; its instance dies before the next visit.
        AtomicInteger visits = new AtomicInteger();
        faults().refuseNext(command -> command.contains("line.$.seenAt") && command.contains("dead-joiner-owner")
                && visits.incrementAndGet() == 2, 11600, "InterruptedAtShutdown", "the joiner's instance died");
        MongoLockStore joiner = instances.store("quarkus_lock", false);
        assertThatThrownBy(() -> await(joiner.tryAcquire(key, "dead-joiner-owner", 30_000, true)));
        assertThat(line(key)).extracting(place -> place.getString("owner")).containsExactly("dead-joiner-owner");
        assertThat(await(holder.release())).isTrue();

        long start = System.nanoTime();
        ReactiveDistributedLock next = registry.obtain(key);
        while (!await(next.acquireOnce())) {
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the dead joiner still comes first")
                    .isLessThan(Duration.ofSeconds(3));
            Pause.sleep(50);
        }
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void everyTimeInALockDocumentIsTheServersEvenWhenClientClocksAreAhead() {
        faults().shiftClientClocks(CLIENTS_AHEAD);
        String key = "server-time-" + UUID.randomUUID();
        Instant serverBefore = Instant.now();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
        ReactiveDistributedLock waiter = registry.obtain(key);
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(20)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });
        while (line(key).isEmpty()) {
            Pause.sleep(20);
        }
        Document held = document(key);
        assertThat(await(holder.release())).isTrue();
        assertThat(await(waiting)).isTrue();
        Document handedOn = document(key);
        assertThat(await(waiter.release())).isTrue();
        Document released = document(key);

        Instant serverAfter = Instant.now();
        for (Document lock : List.of(held, handedOn, released)) {
            for (String field : List.of("acquiredAt", "leaseStartedAt", "releasedAt")) {
                if (lock.containsKey(field)) {
                    assertThat(lock.getDate(field).toInstant()).as(field).isBetween(serverBefore, serverAfter);
                }
            }
        }
        assertThat(held.getList("line", Document.class)).singleElement()
                .satisfies(place -> assertThat(place.getDate("seenAt").toInstant()).isBefore(serverAfter));
    }

    private List<Document> line(String key) {
        List<Document> line = document(key).getList("line", Document.class);
        return line == null ? List.of() : line;
    }

    private Document document(String key) {
        return mongo.getDatabase("quarkus_lock").getCollection("locks").find(new Document("_id", "lock:" + key))
                .collect().first().await().atMost(TIMEOUT);
    }

    private static MongoFaults faults() {
        return MongoTestServer.faultsOf(MongoServerClockTest.class);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

}
