package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Rows free for longer than {@code free-row-retention} are deleted by the sweep, held ones never; a key whose row was
 * deleted still gets a fencing token above its earlier ones.
 */
class PostgresSweepTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "sweep")
            .overrideConfigKey("quarkus.lock.postgresql.free-row-retention", "1s");

    @Inject
    LockRegistry locks;

    @Inject
    Pool pool;

    @Test
    void freeRowsAreDeletedHeldOnesKeptAndTokensKeepRising() throws InterruptedException {
        String freed = "swept-" + UUID.randomUUID();
        String held = "held-" + UUID.randomUUID();
        String forever = "forever-" + UUID.randomUUID();
        ReactiveDistributedLock first = locks.obtain(freed);
        assertThat(first.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        long firstToken = first.fencingToken().getAsLong();
        assertThat(first.release().await().atMost(TIMEOUT)).isTrue();
        ReactiveDistributedLock holder = locks.obtain(held);
        assertThat(holder.acquire(Duration.ZERO, Duration.ofMinutes(1)).await().atMost(TIMEOUT)).isTrue();
        ReactiveDistributedLock keeper = locks.obtain(forever);
        assertThat(keeper.acquireForever().await().atMost(TIMEOUT)).isTrue();

        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (rowExists(freed)) {
            assertThat(System.nanoTime()).as("the free row is swept within 15 s").isLessThan(deadline);
            Thread.sleep(100);
        }
        assertThat(rowExists(held)).isTrue();
        assertThat(rowExists(forever)).isTrue();

        ReactiveDistributedLock again = locks.obtain(freed);
        assertThat(again.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(again.fencingToken().getAsLong()).isGreaterThan(firstToken);
        assertThat(again.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(keeper.release().await().atMost(TIMEOUT)).isTrue();
    }

    private boolean rowExists(String key) {
        return pool.preparedQuery("SELECT count(*) FROM sweep WHERE lock_key = $1")
                .execute(Tuple.tuple().addBuffer(Buffer.buffer(("lock:" + key).getBytes(StandardCharsets.UTF_8))))
                .await().atMost(TIMEOUT).iterator().next().getLong(0) == 1;
    }
}
