package io.quarkiverse.lock.deployment.locked;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

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
class VoidReturnTypeTest extends LockedMethodContract<Void> {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs voidJobs;

    /** Calls a void method, and emits the id if its body ran, {@code null} if it was skipped. */
    @Override
    Uni<String> adapt(String id, Supplier<Void> call) {
        return BlockingCall.of(() -> {
            call.get();
            return voidJobs.forgetRun(id) ? id : null;
        });
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
            ran(id);
            workFor(duration);
        }

        @Locked(key = "job-{id}")
        void failing(String id) {
            throw failure(id);
        }

        @Locked(key = "job-{id}")
        void endless(String id, CountDownLatch started) throws InterruptedException {
            hang(started);
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
            throw failure(id);
        }
    }
}
