package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Reads the stored documents back and checks they have the shape the docs describe, in the configured database and
 * collection, under the key prefix, with the indexes the store creates.
 */
class MongoLockDocumentTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared()
            .overrideConfigKey("quarkus.lock.mongodb.database", "shapes")
            .overrideConfigKey("quarkus.lock.mongodb.collection", "app_locks")
            .overrideConfigKey("quarkus.lock.key-prefix", "billing:");

    @Inject
    LockRegistry registry;

    @Inject
    ReactiveMongoClient mongo;

    @Test
    void aHeldLockIsOneDocumentWithOwnerTokenAndServerTimedLease() {
        String key = "order-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        Date before = new Date(System.currentTimeMillis() - 1000);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(30)))).isTrue();

        Document held = document(key);
        assertThat(held.keySet()).containsExactlyInAnyOrder("_id", "owner", "grant", "token", "acquiredAt",
                "leaseStartedAt", "leaseMillis");
        assertThat(held.getString("owner")).isNotBlank();
        assertThat(held.getLong("token")).isEqualTo(1L).isEqualTo(lock.fencingToken().getAsLong());
        assertThat(held.getLong("leaseMillis")).isEqualTo(30_000L);
        assertThat(held.getDate("acquiredAt")).isAfter(before).isEqualTo(held.getDate("leaseStartedAt"));

        assertThat(await(lock.release())).isTrue();
        Document released = document(key);
        assertThat(released.keySet()).containsExactlyInAnyOrder("_id", "token", "acquiredAt", "releasedAt");
        assertThat(released.getLong("token")).isEqualTo(1L);
        assertThat(released.getDate("releasedAt")).isAfterOrEqualTo(held.getDate("acquiredAt"));

        assertThat(await(lock.acquireOnce())).isTrue();
        assertThat(document(key).getLong("token")).as("the counter survives the release").isEqualTo(2L);
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void aLockAcquiredForeverHasALeaseOfZero() {
        String key = "forever-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(await(lock.acquireForever())).isTrue();
        assertThat(document(key).getLong("leaseMillis")).isZero();
        assertThat(await(lock.release())).isTrue();
    }

    @Test
    void aRenewalRestartsTheLeaseOnTheServerClock() {
        String key = "renewed-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(true);
        Uni<Date> leaseStartSeenInside = lock.acquireAndExecute(Duration.ZERO, Duration.ofMillis(600),
                Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(700))
                        .map(ignored -> document(key).getDate("leaseStartedAt")));
        Date renewedStart = await(leaseStartSeenInside);
        assertThat(renewedStart).isAfter(document(key).getDate("acquiredAt"));
    }

    @Test
    void aWaitingInstanceStandsInTheDocumentsLine() {
        String key = "line-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
        ReactiveDistributedLock waiter = registry.obtain(key);
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(20)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });

        eventually(() -> document(key).getList("line", Document.class) != null
                && !document(key).getList("line", Document.class).isEmpty());
        List<Document> line = document(key).getList("line", Document.class);
        assertThat(line).hasSize(1);
        assertThat(line.get(0).keySet()).containsExactlyInAnyOrder("owner", "seenAt");
        assertThat(line.get(0).getString("owner")).isNotEqualTo(document(key).getString("owner"));

        assertThat(await(holder.release())).isTrue();
        assertThat(await(waiting)).isTrue();
        assertThat(document(key).getList("line", Document.class)).as("the new holder left the line").isEmpty();
        assertThat(await(waiter.release())).isTrue();
    }

    @Test
    void keysThatLookLikeOperatorsPathsOrOtherPrefixesStayUnderThePrefix() {
        List<String> hostile = List.of("$where", "$gt", "a.b.c", ".", "../../admin", "{\"$ne\": null}",
                "other-app:orders", "\u0000nul", "$" + UUID.randomUUID());
        for (String key : hostile) {
            ReactiveDistributedLock lock = registry.obtain(key);
            assertThat(await(lock.acquireOnce())).as(key).isTrue();
            assertThat(document(key).getString("owner")).as(key).isNotNull();
            assertThat(await(registry.obtain(key).acquireOnce())).as(key).isFalse();
            assertThat(await(lock.release())).as(key).isTrue();
        }
        List<Document> stored = collection("app_locks").find().collect().asList().await().atMost(TIMEOUT);
        assertThat(stored).allSatisfy(lock -> assertThat(lock.getString("_id")).startsWith("billing:"));
        assertThat(stored).extracting(lock -> lock.getString("_id"))
                .contains(hostile.stream().map(key -> "billing:" + key).toArray(String[]::new));
    }

    @Test
    void theStoreCreatesItsIndexesAtStartup() {
        eventually(() -> indexNames("app_locks").contains("quarkus_lock_owner")
                && indexNames("app_locks.releases").contains("quarkus_lock_announcement_ttl"));
        Document ownerIndex = indexes("app_locks").stream()
                .filter(index -> "quarkus_lock_owner".equals(index.getString("name"))).findFirst().orElseThrow();
        assertThat(ownerIndex.get("key", Document.class)).isEqualTo(new Document("owner", 1));
        assertThat(ownerIndex.getBoolean("sparse")).isTrue();
    }

    private Document document(String key) {
        return collection("app_locks").find(new Document("_id", "billing:" + key)).collect().first().await()
                .atMost(TIMEOUT);
    }

    private List<Document> indexes(String name) {
        return collection(name).listIndexes().collect().asList().await().atMost(TIMEOUT);
    }

    private List<String> indexNames(String name) {
        return indexes(name).stream().map(index -> index.getString("name")).toList();
    }

    private ReactiveMongoCollection<Document> collection(String name) {
        return mongo.getDatabase("shapes").getCollection(name);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    private static void eventually(BooleanSupplier condition) {
        Pause.until(condition, TIMEOUT, "condition still false after " + TIMEOUT);
    }
}
