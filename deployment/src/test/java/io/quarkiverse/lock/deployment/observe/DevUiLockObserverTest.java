package io.quarkiverse.lock.deployment.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.runtime.devui.DevUiLockObserver;
import io.quarkiverse.lock.runtime.devui.LockJsonRPCService;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Dev UI's JSON-RPC service lists a held lock, drops it at release, and keeps wait and hold statistics per name,
 * in milliseconds rounded to a tenth.
 */
class DevUiLockObserverTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory();

    @Inject
    LockRegistry locks;

    @Inject
    LockJsonRPCService devUi;

    @Test
    void aHeldLockIsListedUntilItIsReleased() {
        ReactiveDistributedLock lock = locks.obtain("invoice-42").withMetricsName("invoices");
        assertThat(devUi.getHeldLocks()).noneMatch(held -> held.key().equals("invoice-42"));

        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(devUi.getHeldLocks()).filteredOn(held -> held.key().equals("invoice-42")).singleElement()
                .satisfies(held -> {
                    assertThat(held.name()).isEqualTo("invoices");
                    assertThat(held.token()).isEqualTo(lock.fencingToken().getAsLong());
                });
        assertThat(locks.obtain("invoice-42").withMetricsName("invoices").acquireOnce().await().atMost(TIMEOUT))
                .isFalse();

        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(devUi.getHeldLocks()).noneMatch(held -> held.key().equals("invoice-42"));
        DevUiLockObserver.LockStatistics invoices = devUi.getStatistics().stream()
                .filter(statistics -> statistics.name().equals("invoices")).findFirst().orElseThrow();
        assertThat(invoices.acquired()).isEqualTo(1);
        assertThat(invoices.notAcquired()).isEqualTo(1);
        assertThat(invoices.holds()).isEqualTo(1);
        assertThat(List.of(invoices.averageWaitMillis(), invoices.longestWaitMillis(), invoices.averageHoldMillis(),
                invoices.longestHoldMillis())).as("milliseconds to a tenth")
                .allSatisfy(millis -> assertThat(String.valueOf(millis)).matches("\\d+\\.\\d"));
        assertThat(devUi.getConfiguration()).containsEntry("store", "in-memory")
                .containsEntry("quarkus.lock.expire-after", "PT10S");
    }
}
