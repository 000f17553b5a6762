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
        RedisServer log = RedisServer.start();
        List<String> settings = new ArrayList<>(datasource());
        settings.add("-Dquarkus.redis.hosts=" + log.uri());
        try {
            ContentionRun.contend(args -> Processes.startOnPostgres(settings, args),
                    contender -> assertThat(contender.output()).as("the build that locks on PostgreSQL")
                            .contains("lock-postgresql"),
                    log.port(), "PostgreSQL");
        } finally {
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
