package io.quarkiverse.lock.deployment.devui;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;

/**
 * What the dev-mode applications of the Dev UI browser tests (the core's and each store's) do at startup: holds {@link #HELD}
 * (and keeps it),
 * fails to take it a second time, and takes and releases three {@code orders} locks, for a while each.
 */
@Singleton
public class DevUiLockActivity {

    public static final String HELD = "report-7";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    void takeAndRelease(@Observes StartupEvent started, LockRegistry locks) {
        expect(locks.obtain(HELD).withMetricsName("reports").acquireOnce(), true);
        expect(locks.obtain(HELD).withMetricsName("reports").acquireOnce(), false);
        for (int i = 0; i < 3; i++) {
            ReactiveDistributedLock order = locks.obtain("order-" + i).withMetricsName("orders");
            expect(order.acquireOnce(), true);
            // held for a time that is no round number of milliseconds
            LockSupport.parkNanos(Duration.ofMillis(20 + 7 * i).toNanos() + 123_457);
            expect(order.release(), true);
        }
    }

    private static void expect(Uni<Boolean> outcome, boolean expected) {
        if (outcome.await().atMost(TIMEOUT) != expected) {
            throw new IllegalStateException("Expected " + expected);
        }
    }
}
