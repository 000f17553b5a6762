package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A pool of one connection cannot spare one for {@code LISTEN}: the store says so at startup and does not listen, and
 * the locks work, waiters polling.
 */
class PostgresSingleConnectionPoolTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "single_connection")
            .overrideConfigKey("quarkus.datasource.reactive.max-size", "1")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).singleElement()
                    .satisfies(record -> assertThat(record.getMessage()).contains("does not listen")));

    @Inject
    LockRegistry locks;

    @Test
    void theLocksWorkWithoutListening() {
        String key = "single-" + UUID.randomUUID();
        ReactiveDistributedLock holder = locks.obtain(key);
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        ReactiveDistributedLock waiter = locks.obtain(key);
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(5)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });
        assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(waiting.await().atMost(TIMEOUT)).isTrue();
        assertThat(waiter.release().await().atMost(TIMEOUT)).isTrue();
    }
}
