package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreSettings;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.testsupport.OwnedMongoServer;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.proxy.Exchange;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.FaultRule;
import io.quarkus.mongodb.impl.ReactiveMongoClientImpl;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Faults on the wire between the MongoDB store and the (strict) test server, through a fault-injecting proxy: the
 * reply of a command that grants a lock is dropped after the server applied it, comes after the operation timeout, or
 * carries a {@code writeConcernError}. On every lock type the acquisition fails with {@code LockException} within the
 * operation timeout, afterwards no lock stays held that no handle tracks, and the next fencing token is above the one
 * the lost grant took. A command whose reply never comes does not stall the later operations on its lock. A grant
 * command held on its way until after its acquisition failed and was taken back grants nothing when it arrives.
 * <p>
 * A plain JUnit test: the registry, its store, a Vert.x instance and the Quarkus reactive MongoDB client are made
 * here, as a second instance of an application would have them, so that the proxy sits between the client and the
 * server.
 */
class MongoWireFaultTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SETTLED = Duration.ofSeconds(5);
    /** More grants failed with an answer than the record of acquisitions taken back once kept. */
    private static final int ANSWERED_FAILURES = 100;

    @RegisterExtension
    static final OwnedMongoServer SERVER = new OwnedMongoServer(MongoWireFaultTest.class);
    private FaultProxy proxy;
    private Vertx vertx;
    private com.mongodb.reactivestreams.client.MongoClient driver;
    private MongoLockStore store;
    private DefaultLockRegistry registry;

    @BeforeEach
    void startInstance() {
        proxy = SERVER.startProxy();
        vertx = Vertx.vertx();
        driver = com.mongodb.reactivestreams.client.MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString("mongodb://" + proxy.host() + ":" + proxy.port()))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .build());
        LockSettings settings = new LockSettings(Duration.ofSeconds(30), Duration.ofSeconds(5), Duration.ofSeconds(1),
                "lock:", false, OPERATION_TIMEOUT);
        store = new MongoLockStore(vertx, new ReactiveMongoClientImpl(driver).getDatabase("wire"),
                new MongoLockStoreSettings("locks", "lock:", new Document("w", "majority"), false, true,
                        OPERATION_TIMEOUT));
        registry = new DefaultLockRegistry(store, settings, new BackoffWaitStrategy(vertx), new LocalLockStates(),
                vertx);
        registry.start();
    }

    @AfterEach
    void stopInstance() {
        try {
            registry.close();
            driver.close();
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(10, TimeUnit.SECONDS).join();
        } finally {
            proxy.close();
        }
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void aGrantWhoseReplyIsDroppedAfterTheServerAppliedItIsReleased(LockType type) {
        assertAGrantWhoseReplyNeverComesInTimeIsReleased("dropped-", type, Fault.drop());
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void aGrantWhoseReplyComesAfterTheOperationTimeoutIsReleased(LockType type) {
        assertAGrantWhoseReplyNeverComesInTimeIsReleased("late-", type, Fault.delay(OPERATION_TIMEOUT.multipliedBy(3)));
    }

    @ParameterizedTest
    @EnumSource(LockType.class)
    void aGrantAnsweredWithAWriteConcernErrorIsReleased(LockType type) {
        String key = "concern-" + type + "-" + UUID.randomUUID();
        long before = acquireAndRelease(key, type);
        proxy.rule(once(exchange -> grants(exchange, key), null));

        assertThatThrownBy(() -> await(registry.obtain(key, type).acquireOnce()))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("write concern");

        assertNothingHeldAndTokensRise(key, type, before);
    }

    @ParameterizedTest
    @EnumSource(value = LockType.class, names = { "SINGLE_ENTRANT", "REENTRANT" })
    void aWaitingAcquisitionWhoseGrantReplyIsDroppedLeavesNothingHeld(LockType type) {
        String key = "waiting-" + type + "-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key, type);
        assertThat(await(holder.acquireOnce())).isTrue();
        long holderToken = holder.fencingToken().getAsLong();
        ReactiveDistributedLock waiter = registry.obtain(key, type);
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(8)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        }, ignored -> {
        });
        eventually(() -> document(key).getList("line", Document.class) != null
                && !document(key).getList("line", Document.class).isEmpty());
        proxy.rule(once(exchange -> grants(exchange, key), Fault.drop()));

        assertThat(await(holder.release())).isTrue();

        assertThatThrownBy(() -> await(waiting)).isInstanceOf(LockException.class);
        assertNothingHeldAndTokensRise(key, type, holderToken);
    }

    @Test
    void aCommandWhoseReplyNeverComesDoesNotStallTheLaterOperationsOnItsLock() {
        String key = "stuck-" + UUID.randomUUID();
        proxy.rule(once(exchange -> grants(exchange, key), Fault.drop()));
        assertFailsWithinTheOperationTimeout(registry.obtain(key));

        long start = System.nanoTime();
        ReactiveDistributedLock next = registry.obtain(key);
        assertThat(await(next.acquireOnce())).as("the same instance acquires the same lock").isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(OPERATION_TIMEOUT.multipliedBy(2));
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void aGrantHeldInTheNetworkUntilAfterItsTakeBackCannotTakeTheLock() {
        String key = "held-" + UUID.randomUUID();
        long before = acquireAndRelease(key, LockType.SINGLE_ENTRANT);

        assertAGrantHeldUntilAfterItsTakeBackLeavesTheLockFree(key, request -> grantRequest(request, key));

        assertThat(((Number) document(key).get("token")).longValue()).as("no token taken by the late grant")
                .isEqualTo(before);
        ReactiveDistributedLock next = registry.obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(next.fencingToken().getAsLong()).isGreaterThan(before);
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void theFirstGrantOfAKeyHeldInTheNetworkUntilAfterItsTakeBackCannotTakeTheLock() {
        String key = "held-first-" + UUID.randomUUID();

        assertAGrantHeldUntilAfterItsTakeBackLeavesTheLockFree(key,
                request -> grantRequest(request, key) && request.contains("\"upsert\": true"));

        ReactiveDistributedLock next = registry.obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(await(next.release())).isTrue();
    }

    /**
     * Holds the first grant command that {@code held} matches in the network, past the operation timeout: the
     * acquisition (held for ever, in one try) fails and is taken back while the server has not seen the command, which
     * arrives only then. The lock stays free.
     */
    private void assertAGrantHeldUntilAfterItsTakeBackLeavesTheLockFree(String key, Predicate<String> held) {
        String owner = "gave-up-" + UUID.randomUUID();
        proxy.holdRequests(held);
        long start = System.nanoTime();
        assertThatThrownBy(() -> await(store.tryAcquire(key, owner, LockStore.NO_EXPIRY, false)))
                .as("the grant gets no answer");
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(OPERATION_TIMEOUT.multipliedBy(2).plus(Duration.ofSeconds(2)));
        assertThat(proxy.heldRequests()).as("the grant is held on its way").isEqualTo(1);
        assertThat(document(key).get("takenBackUpTo", Document.class)).as("recorded as its grant failed")
                .hasSize(1);
        assertThat(await(store.takeBack(key, owner))).as("nothing to take back yet").isFalse();

        assertThat(proxy.deliverHeld()).as("the server answered the late grant").isTrue();

        assertThat(document(key).get("owner")).as("the late grant took the lock").isNull();
        assertThat(await(store.isHeld(key, owner))).isFalse();
    }

    /**
     * A grant held on its way stays refused however many grants of its key fail meanwhile with an answer (here a
     * {@code writeConcernError}, as a lagging secondary gives): those ran and cannot arrive late, so they must not
     * change the record of the grant commands taken back. When every failed grant was recorded in a list of the last
     * 64 owners, 64 of them let the held grant take the lock for ever.
     */
    @Test
    void aHeldGrantStaysRefusedAfterManyGrantsOfItsKeyFailedWithAnAnswer() {
        String key = "answered-" + UUID.randomUUID();
        acquireAndRelease(key, LockType.SINGLE_ENTRANT);
        String owner = "gave-up-" + UUID.randomUUID();
        proxy.holdRequests(request -> request.contains("\"$inc\"") && request.contains(owner));
        assertThatThrownBy(() -> await(store.tryAcquire(key, owner, LockStore.NO_EXPIRY, false)))
                .as("the grant gets no answer");
        assertThat(proxy.heldRequests()).as("the grant is held on its way").isEqualTo(1);
        Document recorded = document(key).get("takenBackUpTo", Document.class);

        proxy.rule(exchange -> grants(exchange, key) ? Fault.replaceWith(withConcernError(exchange.reply()))
                : Fault.pass());
        for (int i = 0; i < ANSWERED_FAILURES; i++) {
            assertThatThrownBy(() -> await(registry.obtain(key).acquireOnce())).isInstanceOf(LockException.class)
                    .hasMessageContaining("write concern");
        }
        proxy.clearRules();
        assertThat(document(key).get("takenBackUpTo", Document.class))
                .as("the record of the grant that got no answer, unchanged by the answered ones").isEqualTo(recorded)
                .hasSize(1);

        assertThat(proxy.deliverHeld()).as("the server answered the late grant").isTrue();
        assertThat(document(key).get("owner")).as("the late grant took the lock").isNull();
        ReactiveDistributedLock next = registry.obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void aRenewalHeldInTheNetworkUntilAfterAReleaseThatKeepsTheLockDoesNotRestoreTheFullLease() {
        String key = "renewal-" + UUID.randomUUID();
        Duration lease = Duration.ofSeconds(3);
        ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(true)
                .withHoldAtLeast(Duration.ofMillis(2_500));
        proxy.holdRequests(request -> request.startsWith("{\"update\"") && request.contains(key)
                && request.contains(String.valueOf(lease.toMillis())));
        assertThat(await(lock.acquire(Duration.ZERO, lease))).isTrue();
        eventually(() -> proxy.heldRequests() == 1);

        assertThat(await(lock.release())).as("kept until its minimum hold").isTrue();
        assertThat(proxy.deliverHeld()).as("the server answered the late renewal").isTrue();

        assertThat(((Number) document(key).get("leaseMillis")).longValue())
                .as("the lease the release left, after the renewal sent before it arrived")
                .isLessThan(lease.toMillis());
    }

    /**
     * An overriding release (or take-over) that its caller gave up on while it still waited for the commands before
     * it on its key is never sent: sent later, it would free a lock that another instance took meanwhile, whose holder
     * keeps working as if it held it. The registry gives up on it when the operation timeout runs out, by cancelling
     * it; here the test cancels it, while a release ahead of it waits for a reply that comes after the timeout.
     */
    @ParameterizedTest
    @EnumSource(Overriding.class)
    void anOverridingCommandGivenUpOnBeforeItWasSentNeverHitsALaterHolder(Overriding overriding)
            throws InterruptedException {
        String key = "late-" + overriding + "-" + UUID.randomUUID();
        String ahead = "ahead-" + UUID.randomUUID();
        proxy.rule(once(exchange -> exchange.request() != null && exchange.request().contains(ahead),
                Fault.delay(OPERATION_TIMEOUT.multipliedBy(2))));
        store.release(key, ahead).subscribe().with(ignored -> {
        }, ignored -> {
        });
        Thread.sleep(100);
        overriding.send(store, key).subscribe().with(ignored -> {
        }, ignored -> {
        }).cancel();

        assertALaterHolderKeepsTheLock(key, overriding + " given up on before it was sent");
    }

    /**
     * An overriding command whose operation timeout ran out while it waited behind the commands before it on its key
     * is never sent either: the registry fails its caller at the timeout without cancelling it, and two commands ahead
     * of it, each given up by the driver at the timeout, hold it back past its own.
     */
    @ParameterizedTest
    @EnumSource(Overriding.class)
    void anOverridingCommandWhoseTimeRanOutBeforeItWasSentNeverHitsALaterHolder(Overriding overriding)
            throws InterruptedException {
        String key = "timed-out-" + overriding + "-" + UUID.randomUUID();
        String ahead = "ahead-" + UUID.randomUUID();
        proxy.rule(exchange -> exchange.request() != null && exchange.request().contains(ahead)
                ? Fault.delay(OPERATION_TIMEOUT.multipliedBy(3))
                : Fault.pass());
        for (int i = 0; i < 2; i++) {
            store.release(key, ahead + "-" + i).subscribe().with(ignored -> {
            }, ignored -> {
            });
        }
        Thread.sleep(100);
        overriding.send(store, key).subscribe().with(ignored -> {
        }, ignored -> {
        });
        Thread.sleep(OPERATION_TIMEOUT.toMillis() + 200);

        assertALaterHolderKeepsTheLock(key, overriding + " whose time ran out before it was sent");
    }

    /**
     * Another instance takes the free lock; once this instance's commands on the key have ended, it still holds it:
     * the overriding command ({@code what}) never reached the store.
     */
    private void assertALaterHolderKeepsTheLock(String key, String what) {
        MongoLockStore other = new MongoLockStore(vertx, new ReactiveMongoClientImpl(driver).getDatabase("wire"),
                new MongoLockStoreSettings("locks", "lock:", new Document("w", "majority"), false, true,
                        OPERATION_TIMEOUT));
        assertThat(await(other.tryAcquire(key, "later-holder", 30_000, false)).acquired())
                .as("another instance takes the free lock").isTrue();

        assertThat(await(store.release(key, "nobody-" + UUID.randomUUID())))
                .as("a release queued after the others, run once they ended").isFalse();
        assertThat(await(other.isHeld(key, "later-holder"))).as("the %s reached the store", what).isTrue();
    }

    /** The commands that act on a lock whoever holds it. */
    enum Overriding {
        FORCE_RELEASE {
            @Override
            Uni<?> send(MongoLockStore store, String key) {
                return store.forceRelease(key);
            }
        },
        TAKE_OVER {
            @Override
            Uni<?> send(MongoLockStore store, String key) {
                return store.takeOver(key, "overrider-" + UUID.randomUUID(), 30_000);
            }
        };

        abstract Uni<?> send(MongoLockStore store, String key);
    }

    /** @return {@code true} for a command that grants the lock {@code key} (the only ones that take a token) */
    private static boolean grantRequest(String request, String key) {
        return request.contains("\"$inc\"") && request.contains(key);
    }

    /**
     * Applies {@code fault} to the reply of a grant the server applied: the acquisition fails within the operation
     * timeout, and the grant is released.
     */
    private void assertAGrantWhoseReplyNeverComesInTimeIsReleased(String keyPrefix, LockType type, Fault fault) {
        String key = keyPrefix + type + "-" + UUID.randomUUID();
        long before = acquireAndRelease(key, type);
        proxy.rule(once(exchange -> grants(exchange, key), fault));

        assertFailsWithinTheOperationTimeout(registry.obtain(key, type));

        assertNothingHeldAndTokensRise(key, type, before);
    }

    private long acquireAndRelease(String key, LockType type) {
        ReactiveDistributedLock lock = registry.obtain(key, type);
        assertThat(await(lock.acquireOnce())).isTrue();
        long token = lock.fencingToken().getAsLong();
        assertThat(await(lock.release())).isTrue();
        return token;
    }

    private static void assertFailsWithinTheOperationTimeout(ReactiveDistributedLock lock) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> await(lock.acquireOnce())).isInstanceOf(LockException.class);
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .isLessThan(OPERATION_TIMEOUT.plus(Duration.ofSeconds(2)));
    }

    /**
     * The grant whose reply was lost was applied (the counter took a token for it), and is released again: the lock
     * document has no owner once the take-backs ran, and the next acquisition's token is above the lost one.
     */
    private void assertNothingHeldAndTokensRise(String key, LockType type, long tokenBefore) {
        eventually(() -> !document(key).containsKey("owner"));
        long lostToken = ((Number) document(key).get("token")).longValue();
        assertThat(lostToken).as("the server applied the grant whose reply was lost").isGreaterThan(tokenBefore);
        assertThat(document(key).getList("line", Document.class)).as("nobody left in line").isNullOrEmpty();

        ReactiveDistributedLock next = registry.obtain(key, type);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(next.fencingToken().getAsLong()).isGreaterThan(lostToken);
        assertThat(await(next.release())).isTrue();
    }

    /**
     * @return {@code true} for the reply of a command that granted the lock (the only ones that take a token)
     */
    private static boolean grants(Exchange exchange, String key) {
        return exchange.request() != null && exchange.request().contains("\"$inc\"")
                && exchange.request().contains(key) && exchange.reply() != null
                && exchange.reply().contains("\"value\": {");
    }

    /**
     * @param matches which reply
     * @param fault what to do to the first reply that matches; {@code null} to answer it with a
     *        {@code writeConcernError} after the write (code 64, as a {@code wtimeout} gives)
     */
    private static FaultRule once(Predicate<Exchange> matches,
            Fault fault) {
        AtomicBoolean done = new AtomicBoolean();
        return exchange -> {
            if (!matches.test(exchange) || !done.compareAndSet(false, true)) {
                return Fault.pass();
            }
            return fault != null ? fault : Fault.replaceWith(withConcernError(exchange.reply()));
        };
    }

    /**
     * @param replyJson the reply the server sent
     * @return an {@code OP_MSG} frame of that reply with a {@code writeConcernError} added (the proxy writes the
     *         header's request ids)
     */
    private static byte[] withConcernError(String replyJson) {
        Document reply = Document.parse(replyJson).append("writeConcernError", new Document("code", 64)
                .append("codeName", "WriteConcernFailed").append("errmsg", "waiting for replication timed out"));
        ByteBuffer body = new RawBsonDocument(reply, new DocumentCodec()).getByteBuffer().asNIO();
        int length = 16 + 4 + 1 + body.remaining();
        ByteBuffer frame = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(length).putInt(0).putInt(0).putInt(2013).putInt(0).put((byte) 0).put(body);
        return frame.array();
    }

    private Document document(String key) {
        MongoCollection<Document> locks = SERVER.direct().getDatabase("wire").getCollection("locks");
        Document lock = locks.find(new Document("_id", "lock:" + key)).first();
        return lock == null ? new Document() : lock;
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    private static void eventually(BooleanSupplier condition) {
        Pause.until(condition, SETTLED, "still not so after " + SETTLED);
    }
}
