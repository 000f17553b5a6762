package io.quarkiverse.lock.runtime.store.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.UpdateOptions;

import io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.Grant;
import io.quarkiverse.lock.testsupport.MongoTestServer;

/**
 * The record of grant commands taken back ({@code takenBackUpTo}) keeps one entry per instance, its highest number,
 * however many times each instance records, so no number of failures of other instances can drop one: a grant command
 * numbered up to its instance's entry matches no grant's filter, one numbered above it does. Run with the store's
 * filters and updates on the test server.
 */
class MongoTakenBackRecordTest {

    private static final String ID = "lock:recorded";
    private static final int INSTANCES = 20;
    private static final int RECORDS_EACH = 100;

    private MongoClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void theRecordKeepsEachInstancesHighestNumberAndRefusesTheCommandsUpToIt() {
        client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(MongoTestServer.sharedConnectionString()))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS)).build());
        MongoCollection<Document> locks = client.getDatabase("taken_back_record").getCollection("locks");
        locks.deleteMany(new Document());
        for (int record = 1; record <= RECORDS_EACH; record++) {
            for (int instance = 0; instance < INSTANCES; instance++) {
                locks.updateOne(new Document(MongoLockDocuments.ID, ID),
                        MongoLockDocuments.takeBackRecorded(instance(instance), 10L * record + instance),
                        new UpdateOptions().upsert(true));
            }
        }
        // an older record arriving late lowers nothing
        locks.updateOne(new Document(MongoLockDocuments.ID, ID), MongoLockDocuments.takeBackRecorded(instance(0), 5));

        Document recorded = locks.find(new Document(MongoLockDocuments.ID, ID)).first()
                .get(MongoLockDocuments.TAKEN_BACK_UP_TO, Document.class);
        assertThat(recorded).as("one entry per instance").hasSize(INSTANCES);
        long floor = 10L * RECORDS_EACH;
        assertThat(recorded.get(instance(0))).as("the first instance's highest number").isEqualTo(floor);
        assertThat(locks.countDocuments(MongoLockDocuments.acquirableBy(ID, "late", new Grant(instance(0), 7))))
                .as("a command of the first instance numbered below its entry").isZero();
        assertThat(locks.countDocuments(MongoLockDocuments.acquirableBy(ID, "late", new Grant(instance(0), floor))))
                .as("its command numbered as its entry").isZero();
        assertThat(locks.countDocuments(MongoLockDocuments.acquirableBy(ID, "next", new Grant(instance(0), floor + 1))))
                .as("its next command").isOne();
        assertThat(locks.countDocuments(MongoLockDocuments.acquirableBy(ID, "other", new Grant("iunrecorded", 1))))
                .as("a command of an instance that recorded nothing").isOne();
    }

    private static String instance(int instance) {
        return "i" + instance;
    }
}
