package io.quarkiverse.lock.tracing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.QuarkusUnitTest;

/** With {@code quarkus.lock.tracing.include-key=true} both spans carry the key; their names still carry none. */
class IncludeKeyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = TracedApplication.of(TracedJobs.class, TracedResource.class)
            .overrideConfigKey("quarkus.lock.tracing.include-key", "true");

    @Inject
    InMemorySpanExporter exporter;

    @Test
    void theSpansOfASectionCarryItsKeyWhenAskedTo() {
        given().get("/traced/uni/{id}", "order-7").then().statusCode(200);

        SpanData section = Spans.named(exporter, "lock section uni-{id}");
        SpanData acquire = Spans.named(exporter, "lock acquire uni-{id}");
        assertThat(section.getAttributes().get(Spans.KEY)).isEqualTo("uni-order-7");
        assertThat(acquire.getAttributes().get(Spans.KEY)).isEqualTo("uni-order-7");
        assertThat(acquire.getAttributes().get(Spans.PLACE_IN_LINE)).as("first in line of a free lock").isEqualTo(1L);
    }
}
