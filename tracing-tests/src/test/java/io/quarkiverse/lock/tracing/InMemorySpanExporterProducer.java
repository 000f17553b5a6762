package io.quarkiverse.lock.tracing;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;

/** The test application's span exporter: every span ends up in memory, and nothing is sent anywhere. */
@Singleton
public class InMemorySpanExporterProducer {

    /** @return the exporter the tests read */
    @Produces
    @Singleton
    InMemorySpanExporter inMemorySpanExporter() {
        return InMemorySpanExporter.create();
    }
}
