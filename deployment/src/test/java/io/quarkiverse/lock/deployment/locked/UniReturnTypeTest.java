package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on methods returning {@code Uni}: the lock is taken on subscription, and nothing runs before.
 */
class UniReturnTypeTest extends LockedMethodContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs jobs;

    @Override
    Uni<String> work(String id, Duration duration) {
        return jobs.work(id, duration);
    }

    @Override
    Uni<String> failing(String id) {
        return jobs.failing(id);
    }

    @Override
    Uni<String> endless(String id, CountDownLatch started) {
        return jobs.endless(id, started);
    }

    @Override
    Uni<String> impatient(String id) {
        return jobs.impatient(id);
    }

    @Override
    Uni<String> skipping(String id) {
        return jobs.skipping(id);
    }

    @Override
    Uni<String> holdingAtLeast(String id) {
        return jobs.holdingAtLeast(id);
    }

    @Override
    Uni<String> failingHoldingAtLeast(String id) {
        return jobs.failingHoldingAtLeast(id);
    }

    @Override
    Overlap overlap() {
        return jobs.overlap();
    }

    @Test
    void nothingHappensBeforeSubscription() {
        assertNothingHappensBeforeSubscription(jobs::invocations, () -> jobs.work("lazy", Duration.ZERO));
    }

    @ApplicationScoped
    static class Jobs extends ContractJobs {

        @Locked(key = "job-{id}")
        Uni<String> work(String id, Duration duration) {
            invocations.incrementAndGet();
            return Uni.createFrom().item(id)
                    .onItem().invoke(overlap::enter)
                    .onItem().delayIt().by(duration)
                    .onItem().invoke(overlap::leave);
        }

        @Locked(key = "job-{id}")
        Uni<String> failing(String id) {
            return Uni.createFrom().failure(new IllegalStateException("failed " + id));
        }

        @Locked(key = "job-{id}")
        Uni<String> endless(String id, CountDownLatch started) {
            return Uni.createFrom().<String> nothing().onSubscription().invoke(started::countDown);
        }

        @Locked(key = "job-{id}", waitTime = "100ms")
        Uni<String> impatient(String id) {
            return Uni.createFrom().item(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        Uni<String> skipping(String id) {
            return Uni.createFrom().item(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Uni<String> holdingAtLeast(String id) {
            return Uni.createFrom().item(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Uni<String> failingHoldingAtLeast(String id) {
            return Uni.createFrom().failure(new IllegalStateException("failed " + id));
        }
    }
}
