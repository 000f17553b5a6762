package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on methods returning {@code Uni}: the lock is taken on subscription, and nothing runs before.
 */
class UniReturnTypeTest extends LazyLockedMethodContract<Uni<String>> {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Override
    Uni<String> adapt(String id, Supplier<Uni<String>> call) {
        return call.get();
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
            return Uni.createFrom().failure(failure(id));
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
            return Uni.createFrom().failure(failure(id));
        }
    }
}
