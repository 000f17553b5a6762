package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on methods returning {@code Multi}: the lock is held from subscription until the stream completes,
 * fails or is cancelled, and nothing runs before subscription. The streams emit before they end, fail or hang, so the
 * lock is seen held past the first item.
 */
class MultiReturnTypeTest extends LazyLockedMethodContract<Multi<String>> {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Override
    Uni<String> adapt(String id, Supplier<Multi<String>> call) {
        return call.get().collect().last();
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
            return Multi.createFrom().item(id).onCompletion().failWith(() -> failure(id));
        }

        @Locked(key = "job-{id}")
        Multi<String> endless(String id, CountDownLatch started) {
            return Multi.createFrom().emitter(emitter -> {
                emitter.emit(id);
                started.countDown();
            });
        }

        @Locked(key = "job-{id}", waitTime = "100ms")
        Multi<String> impatient(String id) {
            return Multi.createFrom().items(id, id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        Multi<String> skipping(String id) {
            return Multi.createFrom().items(id, id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Multi<String> holdingAtLeast(String id) {
            return Multi.createFrom().items(id, id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Multi<String> failingHoldingAtLeast(String id) {
            return Multi.createFrom().item(id).onCompletion().failWith(() -> failure(id));
        }
    }
}
