package io.quarkiverse.lock.runtime.store.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;

import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.quarkus.mongodb.impl.ReactiveMongoClientImpl;
import io.quarkus.mongodb.reactive.ReactiveMongoDatabase;
import io.vertx.core.Vertx;

/**
 * A take-over whose first command fails with a duplicate key is sent once more (a concurrent creation of the lock
 * document makes the first fail, and the second then takes the lock), but not once the operation timeout ran out: its
 * caller has been told it failed by then, and the second command would take a lock granted since from a holder that
 * keeps working as if it held it. Here the duplicate key comes from the store's grant commands recorded as taken back, which
 * makes every
 * command of the take-over fail with one; the take-over is sent late, behind an earlier acquisition on the key, and
 * its reply comes within the command's own timeout but after the operation's.
 */
class MongoLateTakeOverRetryTest {

    private static final String DATABASE = "late_take_over";
    private static final String COLLECTION = "locks";
    private static final String KEY = "retried";
    private static final String OWNER = "taken-back-owner";
    private static final String EARLIER_OWNER = "earlier-owner";
    /** The operation timeout, which also bounds each command: every delay below stays within it. */
    private static final Duration TIMEOUT = Duration.ofMillis(2_000);
    private static final Duration EARLIER_DELAY = Duration.ofMillis(1_000);
    private static final Duration FIRST_REPLY_DELAY = Duration.ofMillis(1_400);
    private static final Duration AWAIT = Duration.ofSeconds(10);

    private MongoClient direct;
    private MongoClient proxied;
    private FaultProxy proxy;
    private Vertx vertx;

    @AfterEach
    void stop() {
        if (proxied != null) {
            proxied.close();
        }
        if (direct != null) {
            direct.close();
        }
        if (proxy != null) {
            proxy.close();
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    @Test
    void aTakeOverIsNotSentAgainAfterItsTimeRanOut() throws InterruptedException {
        String connection = MongoTestServer.sharedConnectionString();
        direct = client(connection);
        ReactiveMongoDatabase database = new ReactiveMongoClientImpl(direct).getDatabase(DATABASE);
        database.getCollection(COLLECTION).deleteMany(new Document()).await().atMost(AWAIT);

        String host = new ConnectionString(connection).getHosts().get(0);
        proxy = FaultProxy.start("127.0.0.1", Integer.parseInt(host.substring(host.lastIndexOf(':') + 1)),
                WireProtocol.MONGODB);
        AtomicInteger takeOvers = new AtomicInteger();
        AtomicBoolean first = new AtomicBoolean(true);
        AtomicBoolean earlier = new AtomicBoolean(true);
        proxy.rule(exchange -> {
            String request = exchange.request();
            if (request != null && request.contains(EARLIER_OWNER) && earlier.compareAndSet(true, false)) {
                return Fault.delay(EARLIER_DELAY);
            }
            if (request != null && request.startsWith("{\"findAndModify\"") && request.contains(OWNER)) {
                takeOvers.incrementAndGet();
                if (first.compareAndSet(true, false)) {
                    return Fault.delay(FIRST_REPLY_DELAY);
                }
            }
            return Fault.pass();
        });
        vertx = Vertx.vertx();
        proxied = client("mongodb://" + proxy.host() + ":" + proxy.port());
        MongoLockStore store = new MongoLockStore(vertx, new ReactiveMongoClientImpl(proxied).getDatabase(DATABASE),
                new MongoLockStoreSettings(COLLECTION, "lock:", new Document("w", 1), false, false, TIMEOUT));
        // every grant command of this store is recorded as taken back
        database.getCollection(COLLECTION).insertOne(new Document("_id", "lock:" + KEY).append(
                MongoLockDocuments.TAKEN_BACK_UP_TO, new Document(store.instance(), Long.MAX_VALUE)))
                .await().atMost(AWAIT);

        // The take-over waits behind an earlier acquisition on the key, whose replies come late, so that it is sent
        // well into its operation timeout, and its own reply, late too, comes after that timeout ran out.
        store.tryAcquire(KEY, EARLIER_OWNER, 10_000, false).subscribe().with(ignored -> {
        }, ignored -> {
        });
        assertThatThrownBy(() -> store.takeOver(KEY, OWNER, 10_000).await().atMost(AWAIT))
                .as("an owner taken back gets no lock").satisfies(failure -> assertThat(MongoGrants.isDuplicateKey(
                        failure)).as("a duplicate key, %s", failure).isTrue());
        TimeUnit.MILLISECONDS.sleep(200);
        assertThat(takeOvers.get()).as("take-over commands sent: the first, whose reply came after the operation "
                + "timeout, and no second one").isEqualTo(1);
    }

    private static MongoClient client(String connection) {
        return MongoClients.create(MongoClientSettings.builder().applyConnectionString(new ConnectionString(connection))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS)).build());
    }
}
