package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The reliability runs on the JDBC store, with the harness build that locks on MariaDB through it (the datasource
 * {@code locks}, on a private MariaDB server): three JVM processes contend on four keys (the section log, which orders
 * every start and end, stays in a redis-server), and a holder killed with {@code kill -9} frees its lock when its
 * lease ends, not before.
 */
class MariaDbProcessesIT {

    /**
     * Longer than on PostgreSQL: the waiter's JVM must start, open its pool and be waiting before the holder's lease
     * ends, which on a loaded 2-core machine took more than 4 s.
     */
    private static final long LEASE_MILLIS = 8_000;

    private static MariaDbServer mariaDb;

    @BeforeAll
    static void startMariaDb() {
        mariaDb = MariaDbServer.start();
    }

    @AfterAll
    static void stopMariaDb() {
        mariaDb.close();
    }

    private static List<String> datasource() {
        return List.of("-Dquarkus.datasource.locks.jdbc.url=" + mariaDb.jdbcUrl(),
                "-Dquarkus.datasource.locks.username=" + MariaDbServer.USER,
                "-Dquarkus.datasource.locks.password=" + MariaDbServer.PASSWORD);
    }

    @Test
    void threeProcessesNeverOverlapOnAKeyAndTheirTokensOnlyRise() throws Exception {
        RedisServer log = RedisServer.start();
        List<String> settings = new ArrayList<>(datasource());
        settings.add("-Dquarkus.redis.hosts=" + log.uri());
        try {
            ContentionRun.contend(args -> Processes.startOnJdbc(settings, args),
                    contender -> assertThat(contender.output()).as("the build that locks through the JDBC store")
                            .contains("lock-jdbc"),
                    log.port(), "MariaDB");
        } finally {
            log.shutdown();
        }
    }

    @Test
    void anotherProcessGetsTheLockOfAKilledHolderRightAfterItsLeaseEnds() throws Exception {
        try (Processes.Contender holder = Processes.startOnJdbc(datasource(), "hold", "crash",
                Long.toString(LEASE_MILLIS))) {
            String[] holding = holder.awaitLine("HOLDING", Duration.ofSeconds(30)).split(" ");
            assertThat(holder.output()).as("the build that locks through the JDBC store").contains("lock-jdbc");
            long asked = Long.parseLong(holding[2]);
            long granted = Long.parseLong(holding[3]);
            try (Processes.Contender waiter = Processes.startOnJdbc(datasource(), "await", "crash",
                    Long.toString(LEASE_MILLIS))) {
                HolderCrash.crashAndTakeOver("MariaDB: holder", holder, waiter, LEASE_MILLIS, asked, granted);
            }
        }
    }
}
