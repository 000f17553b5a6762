package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on methods returning {@code CompletionStage}: the lock is taken when the method is called and
 * released when the stage completes, or when it is cancelled.
 */
class CompletionStageReturnTypeTest extends LockedMethodContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs jobs;

    @Override
    Uni<String> work(String id, Duration duration) {
        return Uni.createFrom().completionStage(() -> jobs.work(id, duration));
    }

    @Override
    Uni<String> failing(String id) {
        return Uni.createFrom().completionStage(() -> jobs.failing(id));
    }

    @Override
    Uni<String> endless(String id, CountDownLatch started) {
        return Uni.createFrom().completionStage(() -> jobs.endless(id, started));
    }

    @Override
    Uni<String> impatient(String id) {
        return Uni.createFrom().completionStage(() -> jobs.impatient(id));
    }

    @Override
    Uni<String> skipping(String id) {
        return Uni.createFrom().completionStage(() -> jobs.skipping(id));
    }

    @Override
    Uni<String> holdingAtLeast(String id) {
        return Uni.createFrom().completionStage(() -> jobs.holdingAtLeast(id));
    }

    @Override
    Uni<String> failingHoldingAtLeast(String id) {
        return Uni.createFrom().completionStage(() -> jobs.failingHoldingAtLeast(id));
    }

    @Override
    Overlap overlap() {
        return jobs.overlap();
    }

    @ApplicationScoped
    static class Jobs extends ContractJobs {

        @Locked(key = "job-{id}")
        CompletionStage<String> work(String id, Duration duration) {
            invocations.incrementAndGet();
            overlap.enter();
            return CompletableFuture.supplyAsync(() -> id,
                    CompletableFuture.delayedExecutor(duration.toMillis(), TimeUnit.MILLISECONDS))
                    .whenComplete((item, failure) -> overlap.leave());
        }

        @Locked(key = "job-{id}")
        CompletionStage<String> failing(String id) {
            return CompletableFuture.failedFuture(new IllegalStateException("failed " + id));
        }

        @Locked(key = "job-{id}")
        CompletionStage<String> endless(String id, CountDownLatch started) {
            started.countDown();
            return new CompletableFuture<>();
        }

        @Locked(key = "job-{id}", waitTime = "100ms")
        CompletionStage<String> impatient(String id) {
            return CompletableFuture.completedFuture(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        CompletionStage<String> skipping(String id) {
            return CompletableFuture.completedFuture(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        CompletionStage<String> holdingAtLeast(String id) {
            return CompletableFuture.completedFuture(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        CompletionStage<String> failingHoldingAtLeast(String id) {
            return CompletableFuture.failedFuture(new IllegalStateException("failed " + id));
        }
    }
}
