package io.quarkiverse.lock.it;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.lock.Locked;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.smallrye.mutiny.Uni;

/**
 * Counters kept in Redis and incremented the unsafe way (GET, a pause, SET), made safe by {@link Locked}: each
 * increment runs alone per counter, across requests and instances.
 */
@Path("/counters/{name}")
public class CounterResource {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final ReactiveValueCommands<String, Long> values;

    @Inject
    public CounterResource(ReactiveRedisDataSource redis) {
        this.values = redis.value(Long.class);
    }

    /**
     * Increments the counter.
     *
     * @param name the counter
     * @return its new value
     */
    @POST
    @Locked(key = "counter-{name}", waitTime = "30s")
    public Uni<Long> increment(@PathParam("name") String name) {
        return Uni.createFrom().deferred(() -> {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            return values.get(key(name))
                    .onItem().delayIt().by(Duration.ofMillis(1))
                    .flatMap(value -> {
                        long next = value == null ? 1 : value + 1;
                        return values.set(key(name), next).replaceWith(next);
                    });
        }).onTermination().invoke(inside::decrementAndGet);
    }

    /**
     * @param name the counter
     * @return its value, 0 if it was never incremented
     */
    @GET
    public Uni<Long> get(@PathParam("name") String name) {
        return values.get(key(name)).map(value -> value == null ? 0L : value);
    }

    /**
     * @return how many increments ran while another was running, on any counter: 0 unless the lock failed
     */
    @GET
    @Path("/overlaps")
    public int overlaps() {
        return overlaps.get();
    }

    static String key(String name) {
        return "it:counter:" + name;
    }
}
