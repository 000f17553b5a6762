package io.quarkiverse.lock.deployment.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;

/**
 * REST methods locked on a key built from the request: one try each, so a lock held elsewhere fails them at once.
 */
@Path("/items")
public class ItemResource {

    /** The lock name of every method here, which the answers must carry instead of the key. */
    static final String LOCK_NAME = "item-{id}";

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    /**
     * Holds the lock of an item with a handle of the test's own while {@code requests} run, then releases it.
     *
     * @param locks the application's registry
     * @param id the item, part of the key
     * @param requests what the test sends while the lock is held elsewhere
     * @throws AssertionError if the lock could not be acquired, or as {@code requests} throws it
     */
    static void whileLockedElsewhere(LockRegistry locks, String id, Runnable requests) {
        ReactiveDistributedLock holder = locks.obtain("item-" + id);
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        try {
            requests.run();
        } finally {
            holder.release().await().atMost(TIMEOUT);
        }
    }

    /**
     * @param id part of the key
     * @return the id, once the lock is held
     */
    @POST
    @Path("/{id}")
    @Locked(key = LOCK_NAME, waitTime = "0s")
    public Uni<String> update(@PathParam("id") String id) {
        return Uni.createFrom().item(id);
    }

    /**
     * The blocking view's path: runs on a worker thread.
     *
     * @param id part of the key
     * @return the id, once the lock is held
     */
    @POST
    @Path("/blocking/{id}")
    @Locked(key = LOCK_NAME, waitTime = "0s")
    public String updateBlocking(@PathParam("id") String id) {
        return id;
    }

    /**
     * @param id part of the key; {@code null} when the request lacks it
     * @return the id, once the lock is held
     */
    @POST
    @Locked(key = LOCK_NAME, waitTime = "0s")
    public Uni<String> updateByQuery(@QueryParam("id") String id) {
        return Uni.createFrom().item(id);
    }

    /**
     * Fails with an argument error that is not about a lock key.
     *
     * @return never
     */
    @GET
    @Path("/unrelated-argument-error")
    public String unrelatedArgumentError() {
        throw new IllegalArgumentException("not a lock key");
    }
}
