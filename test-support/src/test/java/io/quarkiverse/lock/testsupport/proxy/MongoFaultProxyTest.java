package io.quarkiverse.lock.testsupport.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.Document;
import org.bson.RawBsonDocument;
import org.bson.codecs.BsonDocumentCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;

import io.quarkiverse.lock.testsupport.OwnedMongoServer;
import io.quarkiverse.lock.testsupport.Pause;

/**
 * The fault proxy between the MongoDB sync driver and the in-process MongoDB wire server: replies are paired with
 * their commands by responseTo and shown as JSON, and each fault does what it says.
 */
class MongoFaultProxyTest {

    private static final String DATABASE = "proxytest";
    @RegisterExtension
    static final OwnedMongoServer SERVER = new OwnedMongoServer(MongoFaultProxyTest.class);
    private FaultProxy proxy;
    private MongoClient client;

    @BeforeEach
    void startProxy() {
        proxy = SERVER.startProxy();
        client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(
                        "mongodb://" + proxy.host() + ":" + proxy.port() + "/?directConnection=true"))
                .applyToSocketSettings(socket -> socket.readTimeout(1, TimeUnit.SECONDS))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .build());
    }

    @AfterEach
    void stopProxy() {
        try {
            client.close();
        } finally {
            proxy.close();
        }
    }

    private MongoCollection<Document> docs(MongoClient through, String name) {
        return through.getDatabase(DATABASE).getCollection(name);
    }

    private static FaultRule onCommand(String command, String collection, Fault fault) {
        return exchange -> exchange.request() != null
                && exchange.request().startsWith("{\"" + command + "\": \"" + collection + "\"") ? fault
                        : Fault.pass();
    }

    /**
     * Inserts a document through the proxy, which applies {@code fault} to the insert's reply: the client fails with
     * {@code failure}, although the server applied the insert.
     *
     * @return the client's failure, for the test's further checks
     */
    private Throwable assertInsertAppliedButFailed(String collection, Fault fault,
            Class<? extends Throwable> failure) {
        proxy.rule(onCommand("insert", collection, fault));
        Throwable failed = catchThrowable(() -> docs(client, collection).insertOne(new Document("_id", 1)));
        assertThat(failed).isInstanceOf(failure);
        assertThat(docs(SERVER.direct(), collection).countDocuments()).as("applied by the server").isEqualTo(1);
        return failed;
    }

    @Test
    void passesRepliesAndPairsThemWithTheirCommandsAsJson() {
        List<Exchange> seen = new CopyOnWriteArrayList<>();
        proxy.rule(exchange -> {
            seen.add(exchange);
            return Fault.pass();
        });
        docs(client, "pairs").insertOne(new Document("_id", 1).append("name", "one"));
        assertThat(docs(client, "pairs").find().first()).isEqualTo(new Document("_id", 1).append("name", "one"));
        assertThat(seen).filteredOn(exchange -> exchange.request().startsWith("{\"insert\": \"pairs\""))
                .singleElement()
                .satisfies(exchange -> {
                    assertThat(exchange.push()).isFalse();
                    assertThat(exchange.reply()).contains("\"n\": 1").contains("\"ok\": 1");
                });
        assertThat(seen).filteredOn(exchange -> exchange.request().startsWith("{\"find\": \"pairs\""))
                .singleElement()
                .satisfies(exchange -> assertThat(exchange.reply()).contains("\"name\": \"one\""));
        assertThat(proxy.counts().faults()).isZero();
    }

    @Test
    void dropLosesTheReplyOfAnAppliedCommandAndLaterRepliesPass() {
        assertInsertAppliedButFailed("dropped", Fault.drop(), MongoSocketReadTimeoutException.class);
        assertThat(docs(client, "dropped").countDocuments()).isEqualTo(1);
        assertThat(proxy.counts().drops()).isEqualTo(1);
    }

    @Test
    void delayDeliversTheReplyLater() {
        docs(SERVER.direct(), "delayed").insertOne(new Document("_id", 1));
        proxy.rule(onCommand("find", "delayed", Fault.delay(Duration.ofMillis(500))));
        long start = System.nanoTime();
        assertThat(docs(client, "delayed").find().first()).isEqualTo(new Document("_id", 1));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        assertThat(proxy.counts().delays()).isEqualTo(1);
    }

    @Test
    void cutClosesTheConnectionAtTheReplyOfAnAppliedCommand() {
        assertInsertAppliedButFailed("cut", Fault.cut(), MongoSocketReadException.class);
        assertThat(proxy.counts().cuts()).isEqualTo(1);
    }

    @Test
    void replaceWithDeliversAnotherReplyFittedToTheCommand() {
        Fault replace = Fault.replaceWith(opMsg(new BsonDocument("ok", new BsonInt32(0))
                .append("errmsg", new BsonString("injected by the proxy")).append("code", new BsonInt32(2))));
        assertThat(assertInsertAppliedButFailed("replaced", replace, MongoCommandException.class))
                .hasMessageContaining("injected by the proxy");
        assertThat(proxy.counts().replacements()).isEqualTo(1);
    }

    @Test
    void swallowMakesTheOpenConnectionSilentlyDead() {
        docs(client, "swallowed").insertOne(new Document("_id", 1));
        proxy.swallow(true);
        assertThatThrownBy(() -> docs(client, "swallowed").insertOne(new Document("_id", 2)))
                .isInstanceOf(MongoSocketReadTimeoutException.class);
        assertThat(docs(SERVER.direct(), "swallowed").countDocuments()).isEqualTo(1);
        assertThat(proxy.counts().swallowedBytes()).isPositive();
        proxy.swallow(false);
        assertThat(proxy.counts().faults()).isZero();
    }

    @Test
    void holdRequestsKeepsACommandFromTheServerUntilDeliveredAfterItsClientClosedTheConnection() {
        proxy.holdRequests(request -> request.startsWith("{\"insert\": \"held\""));
        assertThatThrownBy(() -> docs(client, "held").insertOne(new Document("_id", 1)))
                .isInstanceOf(MongoSocketReadTimeoutException.class);
        assertThat(proxy.heldRequests()).isEqualTo(1);
        assertThat(docs(SERVER.direct(), "held").countDocuments()).as("not at the server yet").isZero();
        client.close();

        assertThat(proxy.deliverHeld()).as("the server answered the held insert").isTrue();

        assertThat(docs(SERVER.direct(), "held").countDocuments()).as("applied at delivery").isEqualTo(1);
        Pause.until(() -> proxy.openConnections() == 0, Duration.ofSeconds(5),
                "the held connection stayed open after the server answered");
        assertThat(proxy.heldRequests()).isZero();
    }

    /** An OP_MSG whose only section is the body {@code document}; the proxy fills in its requestID and responseTo. */
    private static byte[] opMsg(BsonDocument document) {
        RawBsonDocument body = new RawBsonDocument(document, new BsonDocumentCodec());
        ByteBuffer bytes = body.getByteBuffer().asNIO();
        int length = 16 + 4 + 1 + bytes.remaining();
        ByteBuffer message = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        message.putInt(length).putInt(0).putInt(0).putInt(2013).putInt(0).put((byte) 0).put(bytes);
        return message.array();
    }
}
