package io.quarkiverse.lock.tracing;

import java.util.concurrent.CountDownLatch;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.opentelemetry.api.trace.Tracer;
import io.quarkiverse.lock.Locked;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/** {@code @Locked} methods of each shape, each of whose bodies makes a span of its own. */
@ApplicationScoped
public class TracedJobs {

    /** Counted down when the body of {@link #endless} started. */
    static volatile CountDownLatch endlessStarted = new CountDownLatch(1);

    @Inject
    Tracer tracer;

    @Locked(key = "uni-{id}")
    public Uni<String> uni(String id) {
        return Uni.createFrom().item(() -> {
            action("uni action");
            return "uni " + id;
        });
    }

    @Locked(key = "blocking-{id}")
    public String blocking(String id) {
        action("blocking action");
        return "blocking " + id;
    }

    @Locked(key = "multi-{id}")
    public Multi<String> multi(String id) {
        return Multi.createFrom().deferred(() -> {
            action("multi action");
            return Multi.createFrom().items("multi", id);
        });
    }

    @Locked(key = "busy-{id}", waitTime = "100ms")
    public Uni<String> busy(String id) {
        return Uni.createFrom().item(() -> {
            action("busy action");
            return "busy " + id;
        });
    }

    @Locked(key = "endless-{id}", waitTime = "5s")
    public Uni<String> endless(String id) {
        return Uni.createFrom().deferred(() -> {
            action("endless action");
            endlessStarted.countDown();
            return Uni.createFrom().nothing();
        });
    }

    /** A span of the action's own, a child of whatever span is current. */
    private void action(String name) {
        tracer.spanBuilder(name).startSpan().end();
    }
}
