package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code takeBack} keeps the store's promise: it takes an acquisition out of the line and, when the store granted it
 * the lock (a reply that never reached its caller), releases it as its holder would, so the next waiter gets it. And
 * a grant whose reply carried a {@code writeConcernError} is released again by the store itself, and not recorded as
 * taken back: it ran, and no copy of its command can arrive late.
 */
class MongoTakeBackTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long LEASE = 30_000;

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared()
            .overrideConfigKey("quarkus.lock.mongodb.database", "take_back");

    @Inject
    LockRegistry registry;

    @Inject
    MongoInstances instances;

    @Inject
    ReactiveMongoClient mongo;

    private MongoLockStore store() {
        return instances.store("take_back", false);
    }

    @Test
    void takingBackAGrantReleasesTheLockAndTheNextWaiterGetsIt() {
        MongoLockStore store = store();
        String key = "granted-" + UUID.randomUUID();
        AcquireResult lost = await(store.tryAcquire(key, "reply-lost", LEASE, false));
        assertThat(lost.acquired()).isTrue();
        assertThat(await(store.tryAcquire(key, "waiter", LEASE, true)).acquired()).isFalse();

        assertThat(await(store.takeBack(key, "reply-lost"))).as("it held the lock").isTrue();

        assertThat(await(store.isHeld(key, "reply-lost"))).isFalse();
        assertThat(await(store.tryAcquire(key, "outsider", LEASE, false)).acquired())
                .as("the waiter in line comes first").isFalse();
        AcquireResult next = await(store.tryAcquire(key, "waiter", LEASE, true));
        assertThat(next.acquired()).isTrue();
        assertThat(next.token()).isGreaterThan(lost.token());
        assertThat(await(store.takeBack(key, "reply-lost"))).as("again: nothing to take back").isFalse();
        assertThat(await(store.isHeld(key, "waiter"))).isTrue();
    }

    @Test
    void takingBackAWaiterTakesItOutOfTheLineAndLeavesTheHolderAlone() {
        MongoLockStore store = store();
        String key = "waiting-" + UUID.randomUUID();
        assertThat(await(store.tryAcquire(key, "holder", LEASE, false)).acquired()).isTrue();
        assertThat(await(store.tryAcquire(key, "gave-up", LEASE, true)).acquired()).isFalse();

        assertThat(await(store.takeBack(key, "gave-up"))).isFalse();
        assertThat(await(store.takeBack(key, "someone-else"))).isFalse();

        assertThat(await(store.isHeld(key, "holder"))).isTrue();
        assertThat(await(store.release(key, "holder"))).isTrue();
        assertThat(await(store.tryAcquire(key, "outsider", LEASE, false)).acquired())
                .as("nobody is in line any more").isTrue();
    }

    @Test
    void takingBackAnAcquisitionTheStoreNeverSawChangesNothing() {
        MongoLockStore store = store();
        String key = "unseen-" + UUID.randomUUID();
        assertThat(await(store.takeBack(key, "never-asked"))).isFalse();
        assertThat(mongo.getDatabase("take_back").getCollection("locks")
                .countDocuments(new Document("_id", "lock:" + key)).await().atMost(TIMEOUT)).isZero();
    }

    @Test
    void aGrantAnsweredWithAWriteConcernErrorIsReleasedBeforeTheCallerHearsOfTheFailure() {
        String key = "concern-error-" + UUID.randomUUID();
        ReactiveDistributedLock first = registry.obtain(key);
        assertThat(await(first.acquireOnce())).isTrue();
        long firstToken = first.fencingToken().getAsLong();
        assertThat(await(first.release())).isTrue();

        MongoTestServer.sharedFaults().concernErrorAfterNext(command -> command.contains("findAndModify")
                && command.contains(key) && command.contains("\"$inc\""));
        ReactiveDistributedLock failed = registry.obtain(key);
        assertThatThrownBy(() -> await(failed.acquireOnce())).isInstanceOf(LockException.class)
                .hasMessageContaining("write concern");

        Document lock = mongo.getDatabase("take_back").getCollection("locks")
                .find(new Document("_id", "lock:" + key)).collect().first().await().atMost(TIMEOUT);
        assertThat(lock).as("the grant was applied, then taken back").doesNotContainKey("owner");
        ReactiveDistributedLock next = registry.obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(next.fencingToken().getAsLong()).isGreaterThan(firstToken + 1);
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void grantsTheServerAnsweredWithAnErrorAreNotRecordedAsTakenBack() {
        MongoLockStore store = store();
        String key = "answered-" + UUID.randomUUID();
        assertThat(await(store.tryAcquire(key, "first", LEASE, false)).acquired()).isTrue();
        assertThat(await(store.release(key, "first"))).isTrue();
        for (int i = 0; i < 65; i++) {
            String owner = "failed-" + i + "-" + UUID.randomUUID();
            MongoTestServer.sharedFaults().concernErrorAfterNext(command -> command.contains("findAndModify")
                    && command.contains(owner) && command.contains("\"$inc\""));
            assertThatThrownBy(() -> await(store.tryAcquire(key, owner, LEASE, false)))
                    .hasMessageContaining("write concern");
            assertThat(await(store.takeBack(key, owner))).as("released by the store already").isFalse();
        }

        Document lock = mongo.getDatabase("take_back").getCollection("locks")
                .find(new Document("_id", "lock:" + key)).collect().first().await().atMost(TIMEOUT);
        assertThat(lock.get("takenBackUpTo")).as("grant commands recorded as taken back: none, since every command "
                + "was answered and cannot arrive late").isNull();
        assertThat(lock.get("owner")).as("every applied grant was released").isNull();
        AcquireResult next = await(store.tryAcquire(key, "next", LEASE, false));
        assertThat(next.acquired()).isTrue();
        assertThat(await(store.release(key, "next"))).isTrue();
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
