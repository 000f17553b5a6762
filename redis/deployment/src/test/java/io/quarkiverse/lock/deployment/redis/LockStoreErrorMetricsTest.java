package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A store that cannot be reached counts as store errors, tagged with the operation, and as attempts.
 */
class LockStoreErrorMetricsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.lock.operation-timeout", "500ms");

    @Inject
    LockRegistry locks;

    @Inject
    MeterRegistry meters;

    @Test
    void anUnreachableStoreCountsAsStoreErrors() {
        SimpleMeterRegistry recorded = new SimpleMeterRegistry();
        ((CompositeMeterRegistry) meters).add(recorded);

        assertThatThrownBy(() -> locks.obtain("payment-1").withMetricsName("payments").acquireOnce().await()
                .atMost(Duration.ofSeconds(10))).isInstanceOf(LockException.class);

        assertThat(recorded.get("quarkus.lock.store.errors").tag("lock", "payments").tag("operation", "acquire")
                .tag("store", "redis").counter().count()).isEqualTo(1);
        assertThat(recorded.get("quarkus.lock.acquire.attempts").tag("lock", "payments").counter().count())
                .isEqualTo(1);
    }
}
