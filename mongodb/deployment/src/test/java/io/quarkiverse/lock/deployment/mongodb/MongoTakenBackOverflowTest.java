package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.DocumentCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoCollection;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreSettings;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.testsupport.OwnedMongoServer;
import io.quarkiverse.lock.testsupport.proxy.Exchange;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkus.mongodb.impl.ReactiveMongoClientImpl;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The durable take-back of the MongoDB store keeps a bounded list of owner ids in {@code takenBack}. A one-try
 * {@code acquireForever()} whose grant command is held in the network is recorded there and taken back; then many more
 * acquisitions of the same key fail with a {@code writeConcernError} (a {@code wtimeout} of {@code w:majority} while a
 * secondary lags: instant failures the server answered, whose commands ran and cannot arrive late). They must not
 * push the first owner out of the list: when the held grant reaches the server at last, it must grant nothing. (When
 * every failed grant was recorded, 64 of them were enough to let the late grant take the lock for ever.)
 */
class MongoTakenBackOverflowTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** More failures than the list once kept. */
    private static final int FAILURES = 100;

    @RegisterExtension
    static final OwnedMongoServer SERVER = new OwnedMongoServer(MongoTakenBackOverflowTest.class);
    private FaultProxy proxy;
    private Vertx vertx;
    private com.mongodb.reactivestreams.client.MongoClient driver;
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
        MongoLockStore store = new MongoLockStore(vertx, new ReactiveMongoClientImpl(driver).getDatabase("wire"),
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

    @Test
    void aHeldGrantStaysRefusedAfterManyMoreAnsweredFailuresOnItsKey() {
        int failures = FAILURES;
        String key = "overflow-" + UUID.randomUUID();
        ReactiveDistributedLock warm = registry.obtain(key);
        assertThat(await(warm.acquireOnce())).isTrue();
        assertThat(await(warm.release())).isTrue();

        AtomicBoolean holdOnce = new AtomicBoolean(true);
        proxy.holdRequests(request -> grantRequest(request, key) && holdOnce.compareAndSet(true, false));
        assertThatThrownBy(() -> await(registry.obtain(key).acquireForever())).isInstanceOf(LockException.class);
        assertThat(proxy.heldRequests()).as("the grant is held on its way").isEqualTo(1);
        List<String> recorded = document(key).getList("takenBack", String.class);
        assertThat(recorded).as("the acquisition that gave up is recorded as taken back").hasSize(1);
        String gaveUp = recorded.get(0);

        // more acquisitions of the key fail with a write concern error after the server applied their grants
        AtomicInteger concernErrors = new AtomicInteger();
        proxy.rule(exchange -> {
            if (grants(exchange, key)) {
                concernErrors.incrementAndGet();
                return Fault.replaceWith(withConcernError(exchange.reply()));
            }
            return Fault.pass();
        });
        for (int i = 0; i < failures; i++) {
            assertThatThrownBy(() -> await(registry.obtain(key).acquireOnce())).isInstanceOf(LockException.class)
                    .hasMessageContaining("write concern");
        }
        proxy.clearRules();
        assertThat(concernErrors.get()).isEqualTo(failures);
        assertThat(document(key).get("owner")).as("every failed grant was undone").isNull();
        assertThat(document(key).getList("takenBack", String.class)).as("only the unanswered grant is recorded")
                .containsExactly(gaveUp);

        // the held grant reaches the server
        assertThat(proxy.deliverHeld()).as("the server answered the late grant").isTrue();

        Document lock = document(key);
        ReactiveDistributedLock next = registry.obtain(key);
        boolean acquired = await(next.acquireOnce());
        assertThat(lock.get("owner"))
                .as("the late grant of %s, taken back %d failures earlier, took the lock (leaseMillis %s)", gaveUp,
                        failures, lock.get("leaseMillis"))
                .isNotEqualTo(gaveUp);
        assertThat(acquired).as("the lock is free for the next acquisition").isTrue();
    }

    /** @return {@code true} for a command that grants the lock {@code key} (the only ones that take a token) */
    private static boolean grantRequest(String request, String key) {
        return request.contains("\"$inc\"") && request.contains(key);
    }

    /** @return {@code true} for the reply of a command that granted the lock */
    private static boolean grants(Exchange exchange, String key) {
        return exchange.request() != null && exchange.request().contains("\"$inc\"")
                && exchange.request().contains(key) && exchange.reply() != null
                && exchange.reply().contains("\"value\": {");
    }

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
}
