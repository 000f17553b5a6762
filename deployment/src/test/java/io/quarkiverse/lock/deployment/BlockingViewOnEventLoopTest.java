package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * The blocking view refuses to block an event loop, with a message that names the lock and the remedy, and takes
 * nothing.
 */
class BlockingViewOnEventLoopTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(OnEventLoop.class);

    @Inject
    LockRegistry locks;

    @Inject
    Vertx vertx;

    @Test
    void onAnEventLoopTheBlockingViewFailsNamingTheLockAndTheRemedy() throws Exception {
        DistributedLock lock = locks.obtainBlocking("event-loop-refusal");
        assertThat(OnEventLoop.failureOf(vertx, lock::acquireOnce))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'event-loop-refusal'")
                .hasMessageContaining("must not block")
                .hasMessageContaining("LockRegistry.obtain")
                .hasMessageContaining("@Blocking");
        assertThat(locks.obtain("event-loop-refusal").acquireOnce().await().atMost(Duration.ofSeconds(10)))
                .as("the refused acquisition took nothing").isTrue();
    }
}
