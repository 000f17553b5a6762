package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on methods returning {@code Multi}: the lock is held from subscription until the stream completes,
 * fails or is cancelled, and nothing runs before subscription.
 */
class MultiReturnTypeTest extends LockedMethodContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs jobs;

    @Override
    Uni<String> work(String id, Duration duration) {
        return jobs.work(id, duration).collect().last();
    }

    @Override
    Uni<String> failing(String id) {
        return jobs.failing(id).collect().last();
    }

    @Override
    Uni<String> endless(String id, CountDownLatch started) {
        return jobs.endless(id, started).collect().last();
    }

    @Override
    Uni<String> impatient(String id) {
        return jobs.impatient(id).collect().last();
    }

    @Override
    Uni<String> skipping(String id) {
        return jobs.skipping(id).collect().last();
    }

    @Override
    Uni<String> holdingAtLeast(String id) {
        return jobs.holdingAtLeast(id).collect().last();
    }

    @Override
    Uni<String> failingHoldingAtLeast(String id) {
        return jobs.failingHoldingAtLeast(id).collect().last();
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
        Multi<String> work(String id, Duration duration) {
            invocations.incrementAndGet();
            return Multi.createFrom().items(id, id)
                    .onSubscription().invoke(overlap::enter)
                    .onItem().call(item -> Uni.createFrom().voidItem().onItem().delayIt().by(duration.dividedBy(2)))
                    .onCompletion().invoke(overlap::leave);
        }

        @Locked(key = "job-{id}")
        Multi<String> failing(String id) {
            return Multi.createFrom().failure(new IllegalStateException("failed " + id));
        }

        @Locked(key = "job-{id}")
        Multi<String> endless(String id, CountDownLatch started) {
            return Multi.createFrom().<String> nothing().onSubscription().invoke(started::countDown);
        }

        @Locked(key = "job-{id}", waitTime = "100ms")
        Multi<String> impatient(String id) {
            return Multi.createFrom().item(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        Multi<String> skipping(String id) {
            return Multi.createFrom().item(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Multi<String> holdingAtLeast(String id) {
            return Multi.createFrom().item(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Multi<String> failingHoldingAtLeast(String id) {
            return Multi.createFrom().failure(new IllegalStateException("failed " + id));
        }
    }
}
