package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked(leaseRenewal = ON)} keeps the lock for a call that outlives its lease; without renewal, such a call
 * loses the lock and fails with {@link LockExpiredException}.
 */
class LockedLeaseRenewalTest {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(LongJobs.class);

    @Inject
    LongJobs jobs;

    @Test
    void aRenewedCallKeepsTheLockForThreeLeases() {
        assertThat(jobs.renewed().await().atMost(TIMEOUT)).hasSize(10).containsOnly(false);
    }

    @Test
    void aCallThatOutlivesItsLeaseWithoutRenewalFailsWithLockExpired() {
        assertThatThrownBy(() -> jobs.notRenewed().await().atMost(TIMEOUT))
                .isInstanceOf(LockExpiredException.class)
                .hasMessageContaining("long-job-off");
    }

    @ApplicationScoped
    static class LongJobs {

        @Inject
        LockRegistry registry;

        @Locked(key = "long-job-on", expireAfter = "300ms", leaseRenewal = Locked.LeaseRenewal.ON)
        Uni<List<Boolean>> renewed() {
            return contenderAttempts("long-job-on");
        }

        @Locked(key = "long-job-off", expireAfter = "300ms", leaseRenewal = Locked.LeaseRenewal.OFF)
        Uni<List<Boolean>> notRenewed() {
            return contenderAttempts("long-job-off");
        }

        /** A contender tries the lock ten times, 100 ms apart: over three leases of 300 ms. */
        private Uni<List<Boolean>> contenderAttempts(String key) {
            return Multi.createBy().repeating()
                    .uni(() -> registry.obtain(key).acquireOnce().onItem().delayIt().by(Duration.ofMillis(100)))
                    .atMost(10)
                    .collect().asList();
        }
    }
}
