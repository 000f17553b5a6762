package io.quarkiverse.lock.tracing;

import java.time.Duration;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.opentelemetry.api.trace.Tracer;
import io.quarkiverse.lock.LockRegistry;
import io.smallrye.mutiny.Uni;

/** Calls the {@code @Locked} methods of {@link TracedJobs} from REST requests, each of which has a server span. */
@Path("/traced")
public class TracedResource {

    @Inject
    TracedJobs jobs;

    @Inject
    LockRegistry locks;

    @Inject
    Tracer tracer;

    @GET
    @Path("/uni/{id}")
    public Uni<String> uni(@PathParam("id") String id) {
        return jobs.uni(id);
    }

    @GET
    @Path("/blocking/{id}")
    public String blocking(@PathParam("id") String id) {
        return jobs.blocking(id);
    }

    @GET
    @Path("/multi/{id}")
    public Uni<String> multi(@PathParam("id") String id) {
        return jobs.multi(id).collect().asList().map(items -> String.join(" ", items));
    }

    @GET
    @Path("/busy/{id}")
    public Uni<String> busy(@PathParam("id") String id) {
        return jobs.busy(id);
    }

    /** A section of the reactive API whose action, a {@code Uni}, is made before the section starts. */
    @GET
    @Path("/direct/{id}")
    public Uni<String> direct(@PathParam("id") String id) {
        Uni<String> action = Uni.createFrom().item(() -> {
            tracer.spanBuilder("direct action").startSpan().end();
            return "direct " + id;
        });
        return locks.obtain("direct-" + id).withMetricsName("direct").acquireAndExecute(Duration.ofSeconds(1), action);
    }
}
