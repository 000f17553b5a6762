package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on {@code void} methods, such as scheduled jobs: the same guarantees as any blocking method; a
 * skipped call returns without running.
 */
class VoidReturnTypeTest extends LockedMethodContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs jobs;

    @Override
    Uni<String> work(String id, Duration duration) {
        return BlockingCall.of(() -> ran(id, () -> jobs.work(id, duration)));
    }

    @Override
    Uni<String> failing(String id) {
        return BlockingCall.of(() -> ran(id, () -> jobs.failing(id)));
    }

    @Override
    Uni<String> endless(String id, CountDownLatch started) {
        return BlockingCall.of(() -> ran(id, () -> jobs.endless(id, started)));
    }

    @Override
    Uni<String> impatient(String id) {
        return BlockingCall.of(() -> ran(id, () -> jobs.impatient(id)));
    }

    @Override
    Uni<String> skipping(String id) {
        return BlockingCall.of(() -> ran(id, () -> jobs.skipping(id)));
    }

    @Override
    Uni<String> holdingAtLeast(String id) {
        return BlockingCall.of(() -> ran(id, () -> jobs.holdingAtLeast(id)));
    }

    @Override
    Uni<String> failingHoldingAtLeast(String id) {
        return BlockingCall.of(() -> ran(id, () -> jobs.failingHoldingAtLeast(id)));
    }

    @Override
    Overlap overlap() {
        return jobs.overlap();
    }

    /** Calls a void method, and answers the id if its body ran, {@code null} if it was skipped. */
    private String ran(String id, VoidCall call) throws Exception {
        call.run();
        return jobs.forgetRun(id) ? id : null;
    }

    @FunctionalInterface
    interface VoidCall {
        void run() throws Exception;
    }

    @ApplicationScoped
    static class Jobs extends ContractJobs {

        /** How many runs of each id are not yet accounted for: calls on one id may return in any order. */
        private final Map<String, Integer> runs = new ConcurrentHashMap<>();

        boolean forgetRun(String id) {
            boolean[] ran = new boolean[1];
            runs.computeIfPresent(id, (k, count) -> {
                ran[0] = true;
                return count == 1 ? null : count - 1;
            });
            return ran[0];
        }

        private void ran(String id) {
            runs.merge(id, 1, Integer::sum);
        }

        @Locked(key = "job-{id}")
        void work(String id, Duration duration) throws InterruptedException {
            overlap.enter();
            try {
                ran(id);
                Thread.sleep(duration.toMillis());
            } finally {
                overlap.leave();
            }
        }

        @Locked(key = "job-{id}")
        void failing(String id) {
            throw new IllegalStateException("failed " + id);
        }

        @Locked(key = "job-{id}")
        void endless(String id, CountDownLatch started) throws InterruptedException {
            started.countDown();
            Thread.sleep(Long.MAX_VALUE);
        }

        @Locked(key = "job-{id}", waitTime = "100ms")
        void impatient(String id) {
            ran(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        void skipping(String id) {
            ran(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        void holdingAtLeast(String id) {
            ran(id);
        }

        @Locked(key = "job-{id}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        void failingHoldingAtLeast(String id) {
            throw new IllegalStateException("failed " + id);
        }
    }
}
