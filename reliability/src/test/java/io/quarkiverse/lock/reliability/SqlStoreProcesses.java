package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The reliability runs on a store in a database, with the harness build that locks on it: three JVM processes contend
 * on four keys (the section log, which orders every start and end, stays in a redis-server), and a holder killed with
 * {@code kill -9} frees its lock when its lease ends, not before. A subclass starts the database and names the build.
 */
abstract class SqlStoreProcesses {

    /**
     * @return the process's system properties that point the build at the database
     */
    abstract List<String> datasource();

    /**
     * @param settings the process's system properties, as {@code -Dname=value}
     * @param args the role and its arguments
     * @return the started process of the harness build that locks on the database
     */
    abstract Processes.Contender start(List<String> settings, String... args) throws IOException;

    /**
     * @return the database's name, for the assertions' messages
     */
    abstract String database();

    /**
     * @return the Quarkus feature the build lists, such as {@code lock-postgresql}
     */
    abstract String feature();

    /**
     * @return the lease of the killed holder: long enough for the waiter's JVM to start, open its pool and wait
     *         before it ends
     */
    abstract long leaseMillis();

    @Test
    void threeProcessesNeverOverlapOnAKeyAndTheirTokensOnlyRise() throws Exception {
        RedisServer log = RedisServer.start();
        List<String> settings = new ArrayList<>(datasource());
        settings.add("-Dquarkus.redis.hosts=" + log.uri());
        try {
            ContentionRun.contend(args -> start(settings, args),
                    contender -> assertThat(contender.output()).as("the build that locks on %s", database())
                            .contains(feature()),
                    log.port(), database());
        } finally {
            log.shutdown();
        }
    }

    @Test
    void anotherProcessGetsTheLockOfAKilledHolderRightAfterItsLeaseEnds() throws Exception {
        String lease = Long.toString(leaseMillis());
        try (Processes.Contender holder = start(datasource(), "hold", "crash", lease)) {
            String[] holding = holder.awaitLine("HOLDING", Duration.ofSeconds(30)).split(" ");
            assertThat(holder.output()).as("the build that locks on %s", database()).contains(feature());
            long asked = Long.parseLong(holding[2]);
            long granted = Long.parseLong(holding[3]);
            try (Processes.Contender waiter = start(datasource(), "await", "crash", lease)) {
                HolderCrash.crashAndTakeOver(database() + ": holder", holder, waiter, leaseMillis(), asked,
                        granted);
            }
        }
    }
}
