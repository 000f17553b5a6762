package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.mongo.MongoFaults;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Release announcements stay bounded without their TTL index ({@code create-indexes=false}): one document per lock
 * key, whatever the number of releases, and its time is the server's even when client clocks are ahead.
 */
class MongoAnnouncementsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final int RELEASES = 12;

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.on(MongoTestServer.ownedBy(MongoAnnouncementsTest.class))
            .overrideConfigKey("quarkus.lock.mongodb.database", "announced")
            .overrideConfigKey("quarkus.lock.mongodb.create-indexes", "false");

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    @Inject
    ReactiveMongoClient mongo;

    @Inject
    MongoInstances instances;

    @Test
    void manyReleasesWithWaitersLeaveOneAnnouncementOfServerTime() {
        faults().shiftClientClocks(Duration.ofHours(1));
        String key = "announced-" + UUID.randomUUID();
        DefaultLockRegistry other = instances.start("announced");
        try {
            for (int i = 0; i < RELEASES; i++) {
                ReactiveDistributedLock holder = registry.obtain(key);
                assertThat(await(holder.acquireOnce())).isTrue();
                ReactiveDistributedLock waiter = other.obtain(key);
                Uni<Boolean> waiting = waiter.acquire(TIMEOUT).memoize().indefinitely();
                waiting.subscribe().with(ignored -> {
                });
                while (!inLine(key)) {
                    Pause.sleep(10);
                }
                assertThat(await(holder.release())).isTrue();
                assertThat(await(waiting)).isTrue();
                assertThat(await(waiter.release())).isTrue();
            }
        } finally {
            other.close();
            faults().clear();
        }

        Instant serverNow = Instant.now();
        List<Document> documents = releases().find().collect().asList().await().atMost(TIMEOUT);
        assertThat(documents).as("one announcement per lock key, and the watch's probe").hasSizeLessThanOrEqualTo(2);
        assertThat(documents).filteredOn(announcement -> !Integer.valueOf(0).equals(announcement.get("_id")))
                .singleElement().satisfies(announcement -> {
                    assertThat(announcement.getString("_id")).isEqualTo(settings.keyPrefix() + key);
                    assertThat(announcement.getDate("at").toInstant()).as("server time").isBefore(serverNow);
                });
    }

    private boolean inLine(String key) {
        Document lock = mongo.getDatabase("announced").getCollection("locks")
                .find(new Document("_id", settings.keyPrefix() + key)).collect().first().await().atMost(TIMEOUT);
        return lock != null && lock.getList("line", Document.class) != null
                && !lock.getList("line", Document.class).isEmpty();
    }

    private ReactiveMongoCollection<Document> releases() {
        return mongo.getDatabase("announced").getCollection("locks.releases");
    }

    private static MongoFaults faults() {
        return MongoTestServer.faultsOf(MongoAnnouncementsTest.class);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

}
