package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The reliability runs on the PostgreSQL store, with the harness build that locks on PostgreSQL: three JVM processes
 * contend on four keys (the section log, which orders every start and end, stays in a redis-server), and a holder
 * killed with {@code kill -9} frees its lock when its lease ends, not before.
 */
class PostgresProcessesIT {

    private static final int PROCESSES = 3;
    private static final int KEYS = 4;
    private static final int WORKERS_PER_PROCESS = 8;
    private static final long LEASE_MILLIS = 4_000;

    private static PostgresServer postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    private static List<String> datasource() {
        return List.of("-Dquarkus.datasource.reactive.url=" + postgres.url(),
                "-Dquarkus.datasource.username=" + PostgresServer.SUPERUSER,
                "-Dquarkus.datasource.password=" + PostgresServer.SUPERUSER_PASSWORD);
    }

    @Test
    void threeProcessesNeverOverlapOnAKeyAndTheirTokensOnlyRise() throws Exception {
        boolean soak = Boolean.getBoolean("reliability.soak");
        int sectionsPerProcess = soak ? 100_000 : 7_000;
        RedisServer log = RedisServer.start();
        List<String> settings = new ArrayList<>(datasource());
        settings.add("-Dquarkus.redis.hosts=" + log.uri());
        List<Processes.Contender> contenders = new ArrayList<>();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < PROCESSES; i++) {
                contenders.add(Processes.startOnPostgres(settings, "contend", Integer.toString(KEYS),
                        Integer.toString(sectionsPerProcess), Integer.toString(WORKERS_PER_PROCESS), "sections"));
            }
            for (Processes.Contender contender : contenders) {
                assertThat(contender.awaitExit(Duration.ofMinutes(soak ? 60 : 10))).as(contender.output()).isZero();
                assertThat(contender.output()).as("the build that locks on PostgreSQL").contains("lock-postgresql");
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

            List<String> entries = Processes.readList(log.port(), "sections");
            assertThat(SectionLog.sections(entries)).isEqualTo((long) PROCESSES * sectionsPerProcess);
            assertThat(SectionLog.violations(entries)).isEmpty();
            System.out.printf("Checked %d critical sections of %d processes on %d keys of PostgreSQL in %d ms: no "
                    + "overlap, tokens strictly increasing%n", SectionLog.sections(entries), PROCESSES, KEYS,
                    elapsed.toMillis());
        } finally {
            contenders.forEach(Processes.Contender::close);
            log.shutdown();
        }
    }

    @Test
    void anotherProcessGetsTheLockOfAKilledHolderRightAfterItsLeaseEnds() throws Exception {
        try (Processes.Contender holder = Processes.startOnPostgres(datasource(), "hold", "crash",
                Long.toString(LEASE_MILLIS))) {
            String[] holding = holder.awaitLine("HOLDING", Duration.ofSeconds(30)).split(" ");
            assertThat(holder.output()).as("the build that locks on PostgreSQL").contains("lock-postgresql");
            long asked = Long.parseLong(holding[2]);
            long granted = Long.parseLong(holding[3]);
            try (Processes.Contender waiter = Processes.startOnPostgres(datasource(), "await", "crash",
                    Long.toString(LEASE_MILLIS))) {
                HolderCrash.crashAndTakeOver("PostgreSQL: holder", holder, waiter, LEASE_MILLIS, asked, granted);
            }
        }
    }
}
