package io.quarkiverse.lock.deployment.devui;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * What a Dev UI browser test asks the dev-mode application through the lock API: whether another handle can take a
 * lock now, and holding many locks with handles of their own, so the store's listing has pages.
 */
@Path("/lock-probe")
public class LockProbeResource {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Inject
    LockRegistry locks;

    /** Kept so that the locks stay held by handles that are still reachable. */
    private final List<ReactiveDistributedLock> held = new ArrayList<>();

    /**
     * @return {@code acquired} if a new handle got the lock in one try (and released it), {@code busy} if not
     */
    @GET
    @Path("/{key}")
    public String probe(@PathParam("key") String key) {
        ReactiveDistributedLock lock = locks.obtain(key);
        if (!lock.acquireOnce().await().atMost(TIMEOUT)) {
            return "busy";
        }
        lock.release().await().atMost(TIMEOUT);
        return "acquired";
    }

    /**
     * Holds {@code count} locks, {@code <prefix>-00} and on, each with a new handle.
     *
     * @return how many of them this call acquired
     */
    @POST
    @Path("/hold/{prefix}")
    public synchronized int hold(@PathParam("prefix") String prefix, @QueryParam("count") int count) {
        int acquired = 0;
        for (int i = 0; i < count; i++) {
            ReactiveDistributedLock lock = locks.obtain(String.format("%s-%02d", prefix, i)).withMetricsName("batch");
            if (lock.acquireOnce().await().atMost(TIMEOUT)) {
                held.add(lock);
                acquired++;
            }
        }
        return acquired;
    }
}
