package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on methods returning {@code CompletionStage}: the lock is taken when the method is called and
 * released when the stage completes, or when it is cancelled.
 */
class CompletionStageReturnTypeTest extends LockedMethodContract<CompletionStage<String>> {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Override
    Uni<String> adapt(String id, Supplier<CompletionStage<String>> call) {
        return Uni.createFrom().completionStage(call);
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
            return CompletableFuture.failedFuture(failure(id));
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
            return CompletableFuture.failedFuture(failure(id));
        }
    }
}
