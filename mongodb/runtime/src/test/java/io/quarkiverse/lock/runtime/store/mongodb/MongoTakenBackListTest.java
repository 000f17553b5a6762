package io.quarkiverse.lock.runtime.store.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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

import io.quarkiverse.lock.testsupport.MongoTestServer;

/**
 * The record of acquisitions taken back ({@code takenBack}) keeps the last {@link MongoLockDocuments#TAKEN_BACK_KEPT}
 * owner ids, each of which no grant's filter matches, however the record was reached: the store's updates, run on
 * the test server.
 */
class MongoTakenBackListTest {

    private static final String ID = "lock:kept";

    private MongoClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
    }

    @Test
    void theRecordKeepsTheLastOwnersTakenBackAndRefusesTheirGrants() {
        client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(MongoTestServer.sharedConnectionString()))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS)).build());
        MongoCollection<Document> locks = client.getDatabase("taken_back_list").getCollection("locks");
        locks.deleteMany(new Document());
        List<String> owners = new ArrayList<>();
        for (int i = 0; i <= MongoLockDocuments.TAKEN_BACK_KEPT; i++) {
            String owner = "owner-" + i;
            locks.updateOne(MongoLockDocuments.notTakenBack(ID, owner), MongoLockDocuments.takeBackRecorded(owner),
                    new UpdateOptions().upsert(true));
            owners.add(owner);
        }

        Document lock = locks.find(new Document("_id", ID)).first();
        assertThat(lock.getList(MongoLockDocuments.TAKEN_BACK, String.class))
                .as("the owners recorded, the oldest dropped")
                .containsExactlyElementsOf(owners.subList(1, owners.size()));
        String lastKept = owners.get(1);
        assertThat(locks.countDocuments(MongoLockDocuments.acquirableBy(ID, lastKept)))
                .as("a grant's filter for the oldest owner still recorded").isZero();
        assertThat(locks.countDocuments(MongoLockDocuments.acquirableBy(ID, owners.get(0))))
                .as("a grant's filter for the owner dropped from the record").isOne();
    }
}
