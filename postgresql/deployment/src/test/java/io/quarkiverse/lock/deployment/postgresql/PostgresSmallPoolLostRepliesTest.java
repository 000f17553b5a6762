package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application whose datasource pool has 4 connections and whose max-connections is the default (twice the
 * processors, at least 4: as many as the pool, or more), through a proxy that loses the replies of every lock
 * statement for a while. Abandoned statements then hold every connection the listener leaves, and the rounds that end
 * their sessions must still find one, or no key of the instance ever works again.
 */
class PostgresSmallPoolLostRepliesTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(10);
    private static final int KEYS = 6;
    /**
     * A system property, not a static field: QuarkusUnitTest loads this class again for the test instance, so the
     * rule of the proxy the application connects to would not see a field the test sets.
     */
    private static final String DROPPING = "quarkus-lock.small-pool-test.dropping";
    private static final FaultProxy PROXY = FaultProxy
            .start("127.0.0.1", PostgresServer.shared().port(), WireProtocol.POSTGRESQL)
            .rule(exchange -> Boolean.getBoolean(DROPPING) && exchange.request() != null
                    && exchange.request().contains("lock_key")
                            ? Fault.drop()
                            : Fault.pass());

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "small_pool_lost")
            .overrideConfigKey("quarkus.datasource.reactive.url",
                    "postgresql://127.0.0.1:" + PROXY.port() + "/" + PostgresServer.DATABASE)
            .overrideConfigKey("quarkus.datasource.reactive.max-size", "4")
            .overrideConfigKey("quarkus.lock.operation-timeout", OPERATION_TIMEOUT.toString());

    @Inject
    LockRegistry registry;

    @AfterAll
    static void closeProxy() {
        PROXY.close();
    }

    @Test
    void lostRepliesOnMoreKeysThanThePoolLeavesDoNotHangTheStoreForGood() throws Exception {
        String prefix = "small-pool-" + UUID.randomUUID() + "-";
        ReactiveDistributedLock warmUp = registry.obtain(prefix + "warm-up");
        assertThat(StoreRecovery.await(() -> warmUp.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                RECOVERY)).as("acquired before the fault, once connected").isTrue();
        assertThat(warmUp.release().await().atMost(TIMEOUT)).isTrue();

        System.setProperty(DROPPING, "true");
        try {
            List<CompletableFuture<Boolean>> acquisitions = new ArrayList<>();
            for (int k = 0; k < KEYS; k++) {
                acquisitions.add(registry.obtain(prefix + k).acquireOnce().subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> acquisition : acquisitions) {
                assertThat(acquisition).as("an acquisition whose reply is lost fails")
                        .failsWithin(OPERATION_TIMEOUT.plus(MARGIN).multipliedBy(KEYS));
            }
        } finally {
            System.clearProperty(DROPPING);
        }

        for (int k = 0; k < KEYS; k++) {
            ReactiveDistributedLock lock = registry.obtain(prefix + k);
            assertThat(StoreRecovery.await(() -> lock.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                    RECOVERY)).as("key %d works again within %s of the replies coming again", k, RECOVERY).isTrue();
            assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        }
    }
}
