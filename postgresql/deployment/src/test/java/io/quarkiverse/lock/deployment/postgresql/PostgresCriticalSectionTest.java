package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.tck.CriticalSectionRace;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Many workers run critical sections on one key of the PostgreSQL store, each incrementing a counter row the unsafe
 * way (read, a short pause, write, in separate statements): without mutual exclusion increments would be lost.
 */
class PostgresCriticalSectionTest {

    private static final int WORKERS = 8;
    private static final int SECTIONS_PER_WORKER = 500;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "critical_sections");

    @Inject
    LockRegistry locks;

    @Inject
    Pool pool;

    @Test
    void eightWorkersRunningFiveHundredSectionsEachLoseNoIncrementAndNeverOverlap() {
        pool.query("CREATE TABLE IF NOT EXISTS counters (id text PRIMARY KEY, value bigint NOT NULL)").execute()
                .await().atMost(TIMEOUT);
        String counter = "counter-" + UUID.randomUUID();

        long start = System.nanoTime();
        CriticalSectionRace race = CriticalSectionRace.run(locks, WORKERS, SECTIONS_PER_WORKER,
                () -> pool.preparedQuery("SELECT value FROM counters WHERE id = $1").execute(Tuple.of(counter))
                        .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getLong(0)),
                value -> pool.preparedQuery("INSERT INTO counters (id, value) VALUES ($1, $2) "
                        + "ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value").execute(Tuple.of(counter, value))
                        .replaceWithVoid());
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();

        Row stored = pool.preparedQuery("SELECT value FROM counters WHERE id = $1").execute(Tuple.of(counter))
                .await().atMost(TIMEOUT).iterator().next();
        assertThat(stored.getLong(0)).isEqualTo((long) WORKERS * SECTIONS_PER_WORKER);
        race.assertExclusiveWithRisingTokens(WORKERS * SECTIONS_PER_WORKER);
        System.out.printf("PostgreSQL counter: %d workers x %d sections = %d, counter %d, 0 overlaps, in %d ms "
                + "(%.0f sections/s)%n", WORKERS, SECTIONS_PER_WORKER, WORKERS * SECTIONS_PER_WORKER,
                stored.getLong(0), millis, WORKERS * SECTIONS_PER_WORKER * 1000.0 / millis);
    }
}
