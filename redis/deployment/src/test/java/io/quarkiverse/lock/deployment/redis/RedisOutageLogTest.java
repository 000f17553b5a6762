package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.scheduler.FailedExecution;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.SuccessfulExecution;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A scheduled {@code @Locked} job firing five times a second (the rate of a job every 200 ms: the simple scheduler
 * checks its triggers once a second, so five triggers stand for it) while redis-server is down for three seconds, longer
 * than the job's lease: the outage is logged once when it starts (one warning line with the cause) and once when it
 * ends (info), each firing in between is skipped and counted instead of failing, and nothing at info or above carries
 * a stack trace, neither from the locks nor from the scheduler.
 */
class RedisOutageLogTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int FIRINGS_DURING_OUTAGE = 15;
    static final AtomicInteger RUNS = new AtomicInteger();
    static final AtomicInteger FIRINGS = new AtomicInteger();
    static final AtomicInteger FAILED_FIRINGS = new AtomicInteger();

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp
            .on(RedisServer.ownedBy(RedisOutageLogTest.class).uri(), Report.class, Firings.class)
            .overrideConfigKey("quarkus.lock.operation-timeout", "500ms")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.INFO.intValue())
            .assertLogRecords(RedisOutageLogTest::loggedOncePerOutage);

    @Inject
    MeterRegistry meters;

    @Test
    void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds() throws Exception {
        SimpleMeterRegistry recorded = new SimpleMeterRegistry();
        ((CompositeMeterRegistry) meters).add(recorded);
        awaitAtLeast(RUNS::get, 2, "runs before the outage");
        RedisServer.ownedBy(RedisOutageLogTest.class).shutdown();
        int firedBefore = FIRINGS.get();
        int ranBefore = RUNS.get();
        awaitAtLeast(FIRINGS::get, firedBefore + FIRINGS_DURING_OUTAGE, "firings during the outage");
        int ranDuringOutage = RUNS.get() - ranBefore;
        RedisServer.restartOwnedBy(RedisOutageLogTest.class);
        int ranAtRestart = RUNS.get();
        awaitAtLeast(RUNS::get, ranAtRestart + 2, "runs after the outage");

        assertThat(ranDuringOutage).as("runs while the store was down").isZero();
        assertThat(FAILED_FIRINGS.get()).as("firings the scheduler saw fail").isZero();
        assertThat(recorded.get("quarkus.lock.store.outages").tag("store", "redis").counter().count())
                .as("outages counted").isEqualTo(1);
        assertThat(recorded.get("quarkus.lock.skipped").tag("lock", "outage-report").tag("reason", "store_failure")
                .counter().count()).as("firings skipped because the store failed")
                .isGreaterThanOrEqualTo(FIRINGS_DURING_OUTAGE - 1);
    }

    private static void loggedOncePerOutage(List<LogRecord> records) {
        assertThat(records).as("records at info or above with a stack trace")
                .filteredOn(record -> record.getThrown() != null && !isClientAssertion(record.getThrown()))
                .extracting(record -> record.getLoggerName() + ": " + record.getMessage())
                .isEmpty();
        assertThat(records).as("errors").filteredOn(record -> record.getLevel().intValue() >= Level.SEVERE.intValue()
                && (record.getThrown() == null || !isClientAssertion(record.getThrown())))
                .extracting(record -> record.getLoggerName() + ": " + record.getMessage())
                .isEmpty();
        List<String> warnings = records.stream().filter(record -> record.getLevel().intValue() == Level.WARNING.intValue()
                && record.getLoggerName().startsWith("io.quarkiverse.lock")).map(RedisOutageLogTest::text).toList();
        assertThat(warnings).as("warnings of the locks").singleElement().satisfies(warning -> assertThat(warning)
                .contains("redis lock store").doesNotContain("\n")
                // the cause: refused, or reset when an operation was on its way as the server stopped
                .containsAnyOf("Connection refused", "Connection reset"));
        List<String> outageInfos = records.stream().filter(record -> record.getLevel().intValue() == Level.INFO.intValue()
                && record.getLoggerName().startsWith("io.quarkiverse.lock")).map(RedisOutageLogTest::text)
                .filter(text -> text.contains("lock store")).toList();
        assertThat(outageInfos).as("info records of the lock store").singleElement()
                .satisfies(info -> assertThat(info).contains("redis lock store answers again"));
    }

    /**
     * The Vert.x Redis client's {@code assert !closed} in {@code RedisStandaloneConnection.end}, which fails (with
     * {@code -ea}, as tests run) when a server that goes away resets a connection before closing it: the client's
     * own bookkeeping, reported by Vert.x as an uncaught error, and absent without assertions.
     */
    private static boolean isClientAssertion(Throwable thrown) {
        StackTraceElement[] trace = thrown.getStackTrace();
        return thrown instanceof AssertionError && trace.length > 0
                && trace[0].getClassName().equals("io.vertx.redis.client.impl.RedisStandaloneConnection")
                && trace[0].getMethodName().equals("end");
    }

    private static String text(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }

    private static void awaitAtLeast(IntSupplier count, int expected, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (count.getAsInt() < expected) {
            assertThat(System.nanoTime() - deadline).as("%s: %d of %d within %s", what, count.getAsInt(),
                    expected, TIMEOUT).isNegative();
            Thread.sleep(20);
        }
    }

    @ApplicationScoped
    static class Report {

        @Scheduled(identity = "report-1", every = "1s")
        @Scheduled(identity = "report-2", every = "1s")
        @Scheduled(identity = "report-3", every = "1s")
        @Scheduled(identity = "report-4", every = "1s")
        @Scheduled(identity = "report-5", every = "1s")
        @Locked(key = "outage-report", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, expireAfter = "1s")
        void run() {
            RUNS.incrementAndGet();
        }
    }

    @ApplicationScoped
    static class Firings {

        void succeeded(@Observes SuccessfulExecution execution) {
            FIRINGS.incrementAndGet();
        }

        void failed(@Observes FailedExecution execution) {
            FIRINGS.incrementAndGet();
            FAILED_FIRINGS.incrementAndGet();
        }
    }
}
