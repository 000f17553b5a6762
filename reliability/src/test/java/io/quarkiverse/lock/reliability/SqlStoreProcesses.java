package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The reliability runs on a store in a database, with the harness build that locks on it: three JVM processes contend
 * on four keys (the section log, which orders every start and end, stays in a redis-server), also across a restart of
 * the database, and a holder killed with {@code kill -9} frees its lock when its lease ends, not before. A subclass
 * starts the database and names the build. The leader-election run goes on the database too.
 */
abstract class SqlStoreProcesses {

    private static final int OUTAGE_PROCESSES = 3;
    private static final int OUTAGE_SECTIONS = 2_000;
    private static final Duration OUTAGE = Duration.ofSeconds(3);

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

    /** Stops the database as a server going down does (its sessions are ended); its data stay. */
    abstract void stopDatabase();

    /** Starts the database again on its port and data, after {@link #stopDatabase()}. */
    abstract void restartDatabase();

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

    /**
     * The database stopped for a few seconds while three processes contend: their operations fail with store
     * failures meanwhile (each section then tries again), no two sections of a key overlap across the outage, tokens
     * keep rising, and every process finishes its sections once the database is back, without a restart of its own.
     */
    @Test
    void threeProcessesRideOutARestartOfTheDatabase() throws Exception {
        RedisServer log = RedisServer.start();
        List<String> settings = new ArrayList<>(datasource());
        settings.add("-Dquarkus.redis.hosts=" + log.uri());
        settings.add("-Dquarkus.lock.operation-timeout=1s");
        List<Processes.Contender> contenders = new ArrayList<>();
        boolean down = false;
        try {
            for (int i = 0; i < OUTAGE_PROCESSES; i++) {
                contenders.add(start(settings, "contend", "4", Integer.toString(OUTAGE_SECTIONS), "8", "sections",
                        "ride-out"));
            }
            awaitLogLength(log.port(), OUTAGE_SECTIONS / 2, Duration.ofMinutes(2));
            stopDatabase();
            down = true;
            long stopped = System.nanoTime();
            Thread.sleep(OUTAGE.toMillis());
            long beforeRestart = Processes.listLength(log.port(), "sections");
            restartDatabase();
            down = false;
            long restarted = System.nanoTime();
            awaitLogLength(log.port(), beforeRestart + 2, Duration.ofMinutes(1));
            long recoveredMillis = Duration.ofNanos(System.nanoTime() - restarted).toMillis();
            long failures = 0;
            for (Processes.Contender contender : contenders) {
                assertThat(contender.awaitExit(Duration.ofMinutes(10))).as(contender.output()).isZero();
                failures += Long.parseLong(contender.awaitLine("FAILED", Duration.ofSeconds(1)).split(" ")[1]);
            }
            List<String> entries = Processes.readList(log.port(), "sections");
            assertThat(SectionLog.violations(entries)).isEmpty();
            assertThat(SectionLog.sections(entries)).isGreaterThanOrEqualTo((long) OUTAGE_PROCESSES * OUTAGE_SECTIONS);
            assertThat(failures).as("the processes met the outage").isPositive();
            System.out.printf("%s stopped for %d ms under three contending processes: %d store failures, sections "
                    + "again %d ms after the restart; %d sections checked, no overlap, tokens strictly increasing%n",
                    database(), Duration.ofNanos(restarted - stopped).toMillis(), failures, recoveredMillis,
                    SectionLog.sections(entries));
        } finally {
            contenders.forEach(Processes.Contender::close);
            if (down) {
                restartDatabase();
            }
            log.shutdown();
        }
    }

    private static void awaitLogLength(int port, long length, Duration atMost) throws Exception {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (Processes.listLength(port, "sections") < length) {
            assertThat(System.nanoTime() - deadline).as("the section log reached %d entries within %s", length,
                    atMost).isNegative();
            Thread.sleep(50);
        }
    }

    /**
     * The leader-election run ({@link LeaderElectionRun}) on the database: a kill, a freeze and a graceful shutdown of
     * the leader, then the database stopped for longer than a lease and started again on its data.
     */
    @Test
    void oneLeaderAtATimeThroughAKillAFreezeAShutdownAndARestartOfTheDatabase(@TempDir Path logs) throws Exception {
        LeaderElectionRun.run(new LeaderElectionRun.Store() {
            @Override
            public Processes.Contender start(List<String> settings, String... args) throws IOException {
                List<String> all = new ArrayList<>(datasource());
                all.addAll(settings);
                return SqlStoreProcesses.this.start(all, args);
            }

            @Override
            public void stop() {
                stopDatabase();
            }

            @Override
            public void restart() {
                restartDatabase();
            }

            @Override
            public String name() {
                return database();
            }
        }, logs);
    }

    @Test
    void anotherProcessGetsTheLockOfAKilledHolderRightAfterItsLeaseEnds() throws Exception {
        String lease = Long.toString(leaseMillis());
        RedisServer log = RedisServer.start();
        List<String> settings = new ArrayList<>(datasource());
        settings.add("-Dquarkus.redis.hosts=" + log.uri());
        try (Processes.Contender holder = start(settings, "hold", "crash", lease)) {
            String[] holding = holder.awaitLine("HOLDING", Duration.ofSeconds(30)).split(" ");
            assertThat(holder.output()).as("the build that locks on %s", database()).contains(feature());
            long asked = Long.parseLong(holding[2]);
            long granted = Long.parseLong(holding[3]);
            try (Processes.Contender waiter = start(settings, "await", "crash", lease)) {
                HolderCrash.crashAndTakeOver(database() + ": holder", holder, waiter, log.port(), "crash",
                        leaseMillis(), asked, granted);
            }
        } finally {
            log.shutdown();
        }
    }
}
