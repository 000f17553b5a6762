package io.quarkiverse.lock.tracing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.lock.tracing.enabled=false} the build registers no tracer: the request is traced, its lock
 * makes no span.
 */
class TracingDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = TracedApplication.of(TracedJobs.class, TracedResource.class)
            .overrideConfigKey("quarkus.lock.tracing.enabled", "false");

    @Inject
    InMemorySpanExporter exporter;

    @Test
    void locksMakeNoSpanWhenTracingIsOff() {
        given().get("/traced/uni/{id}", "7").then().statusCode(200);

        assertThat(Spans.waitFor(exporter, span -> span.getKind() == SpanKind.SERVER, 1)).as("the request's span")
                .hasSize(1);
        assertThat(Spans.named(exporter, "uni action").getParentSpanId()).as("the action's span, under the request's")
                .isEqualTo(Spans.waitFor(exporter, span -> span.getKind() == SpanKind.SERVER, 1).get(0).getSpanId());
        assertThat(exporter.getFinishedSpanItems()).as("spans").noneMatch(span -> span.getName().startsWith("lock "));
        assertThat(Arc.container().select(LockTracer.class).isResolvable()).as("a tracer bean").isFalse();
    }
}
