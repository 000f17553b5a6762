package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Redis that stops answering (its process paused) or goes away (stopped, then started again on the same port):
 * operations fail with {@link LockException} within the operation timeout instead of hanging, and the locks work
 * again once the server is back, without restarting the application.
 */
class RedisOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** A server of its own, since the test stops it; its port and pid cross class loaders as system properties. */
    private static final String PORT = RedisOutageTest.class.getName() + ".port";
    private static final String PID = RedisOutageTest.class.getName() + ".pid";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.lock.operation-timeout", "1s")
            .overrideConfigKey("quarkus.redis.hosts", startServer());

    @Inject
    LockRegistry registry;

    /** Runs once per class loader that loads this class: the second one finds the first one's server. */
    private static String startServer() {
        Integer started = Integer.getInteger(PORT);
        if (started != null) {
            return RedisServer.at(started).uri();
        }
        RedisServer server = RedisServer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.setProperty(PORT, Integer.toString(server.port()));
        System.setProperty(PID, Long.toString(server.pid()));
        return server.uri();
    }

    @Test
    void aHungServerMakesOperationsFailInBoundedTimeAndAnAbandonedGrantIsTakenBack() throws Exception {
        String key = "hung-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        signal("-STOP");
        long start = System.nanoTime();
        try {
            assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofMinutes(5)).await().atMost(TIMEOUT))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining(key)
                    .hasMessageContaining("no answer within PT1S");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        } finally {
            signal("-CONT");
        }

        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(eventually(() -> other.acquireOnce().await().atMost(TIMEOUT)))
                .as("the attempt that timed out (lease: five minutes) was granted when the server resumed, "
                        + "and then taken back at once")
                .isTrue();
        assertThat(lock.fencingToken()).isEmpty();
    }

    @Test
    void locksWorkAgainOnceAStoppedServerIsBack() throws Exception {
        RedisServer.at(Integer.getInteger(PORT)).shutdown();
        ReactiveDistributedLock lock = registry.obtain("outage-" + UUID.randomUUID());
        assertThatThrownBy(() -> lock.acquireOnce().await().atMost(TIMEOUT)).isInstanceOf(LockException.class);

        RedisServer restarted = RedisServer.start(Integer.getInteger(PORT));
        try {
            assertThat(eventually(() -> lock.acquireOnce().await().atMost(TIMEOUT))).isTrue();
            assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        } finally {
            System.setProperty(PID, Long.toString(restarted.pid()));
        }
    }

    private static void signal(String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", signal, System.getProperty(PID)).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
    }

    /** Tries an operation for up to ten seconds, as a caller would while the store comes back. */
    private static boolean eventually(BooleanSupplier operation) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try {
                if (operation.getAsBoolean()) {
                    return true;
                }
            } catch (LockException storeNotBackYet) {
                if (System.nanoTime() > deadline) {
                    throw storeNotBackYet;
                }
            }
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(100);
        }
    }
}
