package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.lock.mongodb.create-indexes=false} the store creates no index (for database users that may
 * not), and the locks work all the same; {@code write-concern=1} is accepted.
 */
class MongoIndexesOffTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared()
            .overrideConfigKey("quarkus.lock.mongodb.database", "no_indexes")
            .overrideConfigKey("quarkus.lock.mongodb.create-indexes", "false")
            .overrideConfigKey("quarkus.lock.mongodb.write-concern", "1");

    @Inject
    LockRegistry locks;

    @Inject
    ReactiveMongoClient mongo;

    @Test
    void theLocksWorkWithoutTheIndexes() throws InterruptedException {
        ReactiveDistributedLock lock = locks.obtain("no-index");
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(locks.obtain("no-index").acquireOnce().await().atMost(TIMEOUT)).isFalse();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();

        Thread.sleep(500);
        List<String> indexes = mongo.getDatabase("no_indexes").getCollection("locks").listIndexes().collect().asList()
                .await().atMost(TIMEOUT).stream().map(index -> index.getString("name")).toList();
        assertThat(indexes).containsExactly("_id_");
    }
}
