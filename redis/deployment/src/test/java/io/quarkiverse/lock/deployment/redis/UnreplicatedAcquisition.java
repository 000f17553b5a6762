package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;

/**
 * An acquisition that asks one replica to acknowledge it on a server without replicas, which shows how long the store
 * waited for the acknowledgement.
 */
final class UnreplicatedAcquisition {

    private UnreplicatedAcquisition() {
    }

    /**
     * @param locks the registry, configured with {@code quarkus.lock.redis.wait-replicas=1}
     * @param millis how long the store must have waited for the acknowledgement
     */
    static void failsAfterWaiting(LockRegistry locks, long millis) {
        String key = "unreplicated-" + UUID.randomUUID();
        assertThatThrownBy(() -> locks.obtain(key).acquireOnce().await().atMost(Duration.ofSeconds(10)))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("0 of the 1 replicas")
                .hasMessageContaining("within " + millis + " ms");
    }
}
