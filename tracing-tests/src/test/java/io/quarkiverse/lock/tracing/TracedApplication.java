package io.quarkiverse.lock.tracing;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The application a test of this module builds: its classes, the in-memory span exporter, the in-memory lock store,
 * and no Dev Services; spans are exported every 20 ms, to memory only.
 */
public final class TracedApplication {

    private TracedApplication() {
    }

    /** An application of these classes whose spans end up in {@link InMemorySpanExporterProducer}'s exporter. */
    public static QuarkusUnitTest of(Class<?>... classes) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(classes)
                        .addClasses(TracedApplication.class, InMemorySpanExporterProducer.class, Spans.class))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.lock.provider", "in-memory")
                .overrideConfigKey("quarkus.otel.traces.exporter", "cdi")
                .overrideConfigKey("quarkus.otel.metrics.enabled", "false")
                .overrideConfigKey("quarkus.otel.logs.enabled", "false")
                .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "20ms");
    }
}
