package io.quarkiverse.lock.deployment.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Without {@code quarkus-opentelemetry} the build registers no tracer and the locks run without one, although the
 * OpenTelemetry API is on this application's class path (other extensions bring it): what registers the tracer is the
 * extension's capability, not the API's presence. That the lock's code then loads no OpenTelemetry class is shown by
 * the runtime module's {@code NoTracingLibraryLoadedTest}.
 */
class NoTracerWithoutOpenTelemetryTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory();

    @Inject
    LockRegistry locks;

    @Test
    void withoutOpenTelemetryNoTracerIsRegisteredAndLocksWork() {
        assertThat(Arc.container().select(LockTracer.class).isResolvable()).as("a tracer bean").isFalse();
        assertThat(locks.obtain("untraced").acquireAndExecute(Duration.ofSeconds(1), Uni.createFrom().item("done"))
                .await().atMost(Duration.ofSeconds(10))).isEqualTo("done");
    }
}
