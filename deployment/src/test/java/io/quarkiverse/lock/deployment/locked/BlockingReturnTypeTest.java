package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.deployment.OnEventLoop;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * {@code @Locked} on blocking methods: the lock is held while the method runs on its worker thread; an interrupted
 * method releases it; called on an event loop, the method fails at once instead of blocking it.
 */
class BlockingReturnTypeTest extends LockedMethodContract<String> {

    @RegisterExtension
    static final QuarkusUnitTest APP = app(Jobs.class);

    @Inject
    Jobs blocking;

    @Inject
    Vertx vertx;

    @Override
    Uni<String> adapt(String id, Supplier<String> call) {
        return BlockingCall.of(call::get);
    }

    @Test
    void aBlockingMethodCalledOnAnEventLoopFailsInsteadOfBlockingIt() throws Exception {
        assertThat(OnEventLoop.failureOf(vertx, () -> blocking.impatient("event-loop")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event-loop thread")
                .hasMessageContaining("impatient");
        assertThat(registry.obtain("job-event-loop").acquireOnce().await().atMost(TIMEOUT)).isTrue();
    }

    @ApplicationScoped
    static class Jobs extends ContractJobs {

        @Locked(key = "job-{id}")
        String work(String id, Duration duration) throws InterruptedException {
            workFor(duration);
            return id;
        }

        @Locked(key = "job-{id}")
        String failing(String id) {
            throw failure(id);
        }

        @Locked(key = "job-{id}")
        String endless(String id, CountDownLatch started) throws InterruptedException {
            return hang(started);
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
            throw failure(id);
        }
    }
}
