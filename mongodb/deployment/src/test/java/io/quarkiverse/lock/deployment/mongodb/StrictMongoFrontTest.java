package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.mongodb.MongoCommandException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;

import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.mongo.MongoTopology;
import io.quarkiverse.lock.testsupport.mongo.StrictMongoBackend;
import io.quarkiverse.lock.testsupport.mongo.StrictRule;

/**
 * The strict front in front of the MongoDB test server answers as a real server does where {@code mongo-java-server}
 * alone would accept: each rule is tried here with the command a real server refuses, and with the nearest command
 * it accepts. Plain driver clients, no application.
 */
class StrictMongoFrontTest {

    private static MongoClient replicaSet;
    private static MongoClient standalone;

    @BeforeAll
    static void connect() {
        replicaSet = MongoClients.create(MongoTestServer.sharedConnectionString());
        standalone = MongoClients.create(MongoTestServer.ownedBy(StrictMongoFrontTest.class, MongoTopology.STANDALONE));
    }

    @AfterAll
    static void disconnect() {
        replicaSet.close();
        standalone.close();
        MongoTestServer.stopOwnedBy(StrictMongoFrontTest.class);
    }

    @Test
    void anUpsertWhoseQueryHasExprIsRefusedWithCode224AndWritesNothing() {
        MongoDatabase db = replicaSet.getDatabase("front");
        String id = "expr-" + UUID.randomUUID();
        Document expr = new Document("$expr", new Document("$lt", List.of("$n", 5)));

        assertThatThrownBy(() -> db.runCommand(new Document("findAndModify", "docs")
                .append("query", new Document("_id", id).append("$or", List.of(expr, new Document("n", null))))
                .append("update", new Document("$inc", new Document("n", 1)))
                .append("upsert", true)))
                .isInstanceOfSatisfying(MongoCommandException.class, refused -> {
                    assertThat(refused.getErrorCode()).isEqualTo(224);
                    assertThat(refused.getErrorCodeName()).isEqualTo("QueryFeatureNotAllowed");
                    assertThat(refused.getErrorMessage())
                            .isEqualTo("$expr is not allowed in the query predicate for an upsert");
                });
        assertThatThrownBy(() -> db.runCommand(new Document("update", "docs").append("updates", List.of(
                new Document("q", new Document("_id", id).append("$expr", expr.get("$expr")))
                        .append("u", new Document("$inc", new Document("n", 1))).append("upsert", true)))))
                .isInstanceOfSatisfying(MongoCommandException.class,
                        refused -> assertThat(refused.getErrorCode()).isEqualTo(224));
        assertThat(db.getCollection("docs").countDocuments(new Document("_id", id))).isZero();

        Document withoutUpsert = db.runCommand(new Document("findAndModify", "docs")
                .append("query", new Document("_id", id).append("$expr", expr.get("$expr")))
                .append("update", new Document("$inc", new Document("n", 1))));
        assertThat(withoutUpsert.getDouble("ok")).isEqualTo(1.0);
        Document equalityUpsert = db.runCommand(new Document("findAndModify", "docs")
                .append("query", new Document("_id", id))
                .append("update", new Document("$inc", new Document("n", 1)))
                .append("upsert", true).append("new", true));
        assertThat(equalityUpsert.get("value", Document.class).getInteger("n")).isEqualTo(1);
    }

    @Test
    void aStandaloneRefusesANumericWriteConcernAboveOneBeforeWritingAndAcceptsMajority() {
        MongoDatabase db = standalone.getDatabase("front");
        String id = "w2-" + UUID.randomUUID();
        assertThatThrownBy(() -> db.runCommand(new Document("insert", "docs")
                .append("documents", List.of(new Document("_id", id)))
                .append("writeConcern", new Document("w", 2))))
                .isInstanceOfSatisfying(MongoCommandException.class, refused -> {
                    assertThat(refused.getErrorCode()).isEqualTo(2);
                    assertThat(refused.getErrorMessage()).isEqualTo("cannot use 'w' > 1 when a host is not replicated");
                });
        assertThat(db.getCollection("docs").countDocuments(new Document("_id", id))).isZero();

        Document majority = db.runCommand(new Document("insert", "docs")
                .append("documents", List.of(new Document("_id", id)))
                .append("writeConcern", new Document("w", "majority")));
        assertThat(majority.getInteger("n")).isEqualTo(1);
        assertThat(majority).doesNotContainKey("writeConcernError");
    }

    @Test
    void aReplicaSetOfOneAppliesAWriteConcernOfTwoAndAnswersWithAWriteConcernError() {
        MongoDatabase db = replicaSet.getDatabase("front");
        String id = "w2-" + UUID.randomUUID();
        Document reply = db.runCommand(new Document("insert", "docs")
                .append("documents", List.of(new Document("_id", id)))
                .append("writeConcern", new Document("w", 2)));

        assertThat(reply.getInteger("n")).isEqualTo(1);
        Document concernError = reply.get("writeConcernError", Document.class);
        assertThat(concernError.getInteger("code")).isEqualTo(100);
        assertThat(concernError.getString("codeName")).isEqualTo("UnsatisfiableWriteConcern");
        assertThat(db.getCollection("docs").countDocuments(new Document("_id", id))).as("the write stays applied")
                .isEqualTo(1);
        assertThat(replicaSet.getDatabase("admin").runCommand(new Document("isMaster", 1)).getString("setName"))
                .isEqualTo("rs0");
    }

    @Test
    void aStandaloneRefusesChangeStreamsAndAReplicaSetOpensThem() {
        Document changeStream = new Document("aggregate", "docs")
                .append("pipeline", List.of(new Document("$changeStream", new Document())))
                .append("cursor", new Document());
        assertThatThrownBy(() -> standalone.getDatabase("front").runCommand(changeStream))
                .isInstanceOfSatisfying(MongoCommandException.class,
                        refused -> assertThat(refused.getErrorCode()).isEqualTo(40573));
        assertThat(replicaSet.getDatabase("front").runCommand(changeStream).getDouble("ok")).isEqualTo(1.0);
    }

    @Test
    void aWriteConcernOnACommandThatDoesNotWriteIsRefused() {
        assertThatThrownBy(() -> replicaSet.getDatabase("front").runCommand(new Document("find", "docs")
                .append("filter", new Document()).append("writeConcern", new Document("w", "majority"))))
                .isInstanceOfSatisfying(MongoCommandException.class,
                        refused -> assertThat(refused.getErrorCode()).isEqualTo(72));
    }

    @Test
    void anIndexCreatedAgainUnderItsNameWithOtherOptionsIsRefused() {
        MongoDatabase db = replicaSet.getDatabase("front");
        String collection = "indexed-" + UUID.randomUUID();
        Document ttl = new Document("key", new Document("at", 1)).append("name", "at_ttl")
                .append("expireAfterSeconds", 60);
        db.runCommand(new Document("createIndexes", collection).append("indexes", List.of(ttl)));
        assertThat(db.runCommand(new Document("createIndexes", collection).append("indexes", List.of(ttl)))
                .getDouble("ok")).as("the same index again").isEqualTo(1.0);

        Document otherTtl = new Document(ttl).append("expireAfterSeconds", 30);
        assertThatThrownBy(() -> db.runCommand(new Document("createIndexes", collection)
                .append("indexes", List.of(otherTtl))))
                .isInstanceOfSatisfying(MongoCommandException.class,
                        refused -> assertThat(refused.getErrorCode()).isEqualTo(85));
        Document otherKey = new Document(ttl).append("key", new Document("other", 1));
        assertThatThrownBy(() -> db.runCommand(new Document("createIndexes", collection)
                .append("indexes", List.of(otherKey))))
                .isInstanceOfSatisfying(MongoCommandException.class,
                        refused -> assertThat(refused.getErrorCode()).isEqualTo(86));
    }

    @Test
    void everyRuleNamesTheServerSourceThatMakesIt() {
        assertThat(StrictMongoBackend.RULES).isNotEmpty()
                .allSatisfy(rule -> assertThat(rule.source()).startsWith("src/mongo/db/"));
        assertThat(StrictMongoBackend.RULES).extracting(StrictRule::source).doesNotHaveDuplicates();
    }
}
