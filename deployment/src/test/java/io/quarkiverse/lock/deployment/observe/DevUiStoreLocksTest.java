package io.quarkiverse.lock.deployment.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.runtime.devui.LockJsonRPCService;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Dev UI's JSON-RPC service outside dev mode (here, test mode, where it is a bean): it lists the store's locks
 * with their holder, but offers no forced release and refuses one, leaving the lock held.
 */
class DevUiStoreLocksTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory();

    @Inject
    LockRegistry locks;

    @Inject
    LockJsonRPCService devUi;

    @Test
    void theStoresLocksAreListedWithTheirHolderButNoForcedReleaseIsOffered() {
        ReactiveDistributedLock lock = locks.obtain("invoice-7").withMetricsName("invoices");
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();

        LockJsonRPCService.StorePage page = devUi.getStoreLocks(null, 10).await().atMost(TIMEOUT);

        assertThat(page.forceRelease()).as("a forced release offered").isFalse();
        assertThat(page.locks()).filteredOn(held -> held.key().equals("invoice-7")).singleElement()
                .satisfies(held -> {
                    assertThat(held.holder()).isEqualTo("this application (invoices)");
                    assertThat(held.token()).isEqualTo(lock.fencingToken().getAsLong());
                    assertThat(held.waiters()).isEqualTo("not kept by the store");
                });
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
    }

    @Test
    void aForcedReleaseIsRefusedOutsideDevModeAndTheLockStaysHeld() {
        ReactiveDistributedLock lock = locks.obtain("invoice-8");
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThatThrownBy(() -> devUi.forceRelease("invoice-8")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dev mode").hasMessageContaining("TEST");

        assertThat(lock.isAcquired().await().atMost(TIMEOUT)).as("held after the refused release").isTrue();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
    }
}
