package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * {@code @Locked} on blocking methods: the lock is held while the method runs on its worker thread; an interrupted
 * method releases it; called on an event loop, the method fails at once instead of blocking it.
 */
class BlockingReturnTypeTest extends LockedMethodContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs jobs;

    @Inject
    Vertx vertx;

    @Override
    Uni<String> work(String id, Duration duration) {
        return BlockingCall.of(() -> jobs.work(id, duration));
    }

    @Override
    Uni<String> failing(String id) {
        return BlockingCall.of(() -> jobs.failing(id));
    }

    @Override
    Uni<String> endless(String id, CountDownLatch started) {
        return BlockingCall.of(() -> jobs.endless(id, started));
    }

    @Override
    Uni<String> impatient(String id) {
        return BlockingCall.of(() -> jobs.impatient(id));
    }

    @Override
    Uni<String> skipping(String id) {
        return BlockingCall.of(() -> jobs.skipping(id));
    }

    @Override
    Uni<String> holdingAtLeast(String id) {
        return BlockingCall.of(() -> jobs.holdingAtLeast(id));
    }

    @Override
    Uni<String> failingHoldingAtLeast(String id) {
        return BlockingCall.of(() -> jobs.failingHoldingAtLeast(id));
    }

    @Override
    Overlap overlap() {
        return jobs.overlap();
    }

    @Test
    void aBlockingMethodCalledOnAnEventLoopFailsInsteadOfBlockingIt() throws Exception {
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(ignored -> {
            try {
                jobs.impatient("event-loop");
                failure.complete(null);
            } catch (Throwable t) {
                failure.complete(t);
            }
        });
        assertThat(failure.get(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event-loop thread")
                .hasMessageContaining("impatient");
        assertThat(registry.obtain("job-event-loop").acquireOnce().await().atMost(TIMEOUT)).isTrue();
    }

    @ApplicationScoped
    static class Jobs extends ContractJobs {

        @Locked(key = "job-{id}")
        String work(String id, Duration duration) throws InterruptedException {
            overlap.enter();
            try {
                Thread.sleep(duration.toMillis());
                return id;
            } finally {
                overlap.leave();
            }
        }

        @Locked(key = "job-{id}")
        String failing(String id) {
            throw new IllegalStateException("failed " + id);
        }

        @Locked(key = "job-{id}")
        String endless(String id, CountDownLatch started) throws InterruptedException {
            started.countDown();
            Thread.sleep(Long.MAX_VALUE);
            return id;
        }

        @Locked(key = "job-{id}", waitTime = "100ms")
        String impatient(String id) {
            return id;
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        String skipping(String id) {
            return id;
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        String holdingAtLeast(String id) {
            return id;
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        String failingHoldingAtLeast(String id) {
            throw new IllegalStateException("failed " + id);
        }
    }
}
