package io.quarkiverse.lock.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Predicate;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;

/** Reads the spans the application exported. */
public final class Spans {

    /** The attributes of the lock spans. */
    public static final AttributeKey<String> NAME = AttributeKey.stringKey("lock.name");
    public static final AttributeKey<String> KEY = AttributeKey.stringKey("lock.key");
    public static final AttributeKey<String> STORE = AttributeKey.stringKey("lock.store");
    public static final AttributeKey<String> TYPE = AttributeKey.stringKey("lock.type");
    public static final AttributeKey<Long> WAIT_REQUESTED = AttributeKey.longKey("lock.wait.requested_ms");
    public static final AttributeKey<Long> WAITED = AttributeKey.longKey("lock.waited_ms");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("lock.outcome");
    public static final AttributeKey<Long> FENCING_TOKEN = AttributeKey.longKey("lock.fencing_token");
    public static final AttributeKey<Long> PLACE_IN_LINE = AttributeKey.longKey("lock.place_in_line");

    private Spans() {
    }

    /**
     * @return the one exported span of that name, waited for at most 10 s
     */
    public static SpanData named(InMemorySpanExporter exporter, String name) {
        List<SpanData> found = waitFor(exporter, span -> span.getName().equals(name), 1);
        assertThat(found).as("exported spans named '%s'", name).hasSize(1);
        return found.get(0);
    }

    /**
     * @return the exported spans that match, once there are at least {@code count} of them (or 10 s passed)
     */
    public static List<SpanData> waitFor(InMemorySpanExporter exporter, Predicate<SpanData> matching, int count) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        List<SpanData> found;
        do {
            found = exporter.getFinishedSpanItems().stream().filter(matching).toList();
            if (found.size() >= count) {
                return found;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        } while (System.nanoTime() < deadline);
        return found;
    }

    /** Asserts that {@code child}'s parent is {@code parent}, in its trace. */
    public static void assertChildOf(SpanData child, SpanData parent) {
        assertThat(child.getTraceId()).as("trace of '%s'", child.getName()).isEqualTo(parent.getTraceId());
        assertThat(child.getParentSpanId()).as("parent of '%s' (expected '%s')", child.getName(), parent.getName())
                .isEqualTo(parent.getSpanId());
    }

    /** Asserts that {@code inner} starts and ends within {@code outer}. */
    public static void assertWithin(SpanData inner, SpanData outer) {
        assertThat(inner.getStartEpochNanos()).as("start of '%s' after the start of '%s'", inner.getName(),
                outer.getName()).isGreaterThanOrEqualTo(outer.getStartEpochNanos());
        assertThat(inner.getEndEpochNanos()).as("end of '%s' before the end of '%s'", inner.getName(),
                outer.getName()).isLessThanOrEqualTo(outer.getEndEpochNanos());
    }
}
