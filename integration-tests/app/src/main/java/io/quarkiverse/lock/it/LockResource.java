package io.quarkiverse.lock.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response.Status;

import org.jboss.resteasy.reactive.RestResponse;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The registry over HTTP: a lock acquired by one request is held by this application until a later request releases
 * it, and a race runs many critical sections through {@code acquireAndExecute}.
 */
@Path("/locks/{key}")
public class LockResource {

    private static final Duration RACE_WAIT = Duration.ofSeconds(30);

    private final ConcurrentHashMap<String, ReactiveDistributedLock> held = new ConcurrentHashMap<>();

    @Inject
    LockRegistry locks;

    @Inject
    Sections sections;

    /**
     * One attempt to acquire the lock with a new handle, kept until {@link #release(String)}.
     *
     * @param key the lock key
     * @return the fencing token of the hold, or 409 if another owner holds the lock
     */
    @POST
    public Uni<RestResponse<Long>> acquire(@PathParam("key") String key) {
        ReactiveDistributedLock lock = locks.obtain(key);
        return lock.acquireOnce().map(acquired -> {
            if (!acquired) {
                return RestResponse.status(Status.CONFLICT);
            }
            held.put(key, lock);
            return RestResponse.ok(lock.fencingToken().getAsLong());
        });
    }

    /**
     * @param key the lock key
     * @return whether the handle kept for the key holds the lock in the store, or 404 if none is kept
     */
    @GET
    public Uni<RestResponse<Boolean>> isHeld(@PathParam("key") String key) {
        ReactiveDistributedLock lock = held.get(key);
        return lock == null ? Uni.createFrom().item(RestResponse.notFound())
                : lock.isAcquired().map(RestResponse::ok);
    }

    /**
     * @param key the lock key
     * @return whether the handle kept for the key released the lock, or 404 if none is kept
     */
    @DELETE
    public Uni<RestResponse<Boolean>> release(@PathParam("key") String key) {
        ReactiveDistributedLock lock = held.remove(key);
        return lock == null ? Uni.createFrom().item(RestResponse.notFound())
                : lock.release().map(RestResponse::ok);
    }

    /**
     * Workers that each run critical sections one after the other, all on the lock of the key and on the counter of
     * the same name, through {@code acquireAndExecute} with a new handle per section.
     *
     * @param key the lock key, and the counter
     * @param workers how many workers run at once
     * @param sectionsPerWorker how many sections each runs
     * @return what the race showed
     */
    @POST
    @Path("/race")
    public Uni<Race> race(@PathParam("key") String key, @QueryParam("workers") int workers,
            @QueryParam("sections") int sectionsPerWorker) {
        List<Long> tokens = new ArrayList<>();
        return Multi.createFrom().range(0, workers)
                .onItem().transformToUni(worker -> Multi.createFrom().range(0, sectionsPerWorker)
                        .onItem().transformToUniAndConcatenate(section -> {
                            ReactiveDistributedLock lock = locks.obtain(key);
                            return lock.acquireAndExecute(RACE_WAIT, Uni.createFrom().deferred(() -> {
                                OptionalLong token = lock.fencingToken();
                                synchronized (tokens) {
                                    tokens.add(token.orElse(-1));
                                }
                                return sections.increment(key);
                            }));
                        })
                        .collect().last())
                .merge(workers)
                .collect().last()
                .map(last -> {
                    synchronized (tokens) {
                        return Race.of(tokens, sections.overlaps(key));
                    }
                });
    }

    /**
     * What a race showed.
     *
     * @param sections how many sections ran
     * @param overlaps how many started while another was running: 0 unless the lock failed
     * @param tokensRising whether every section's fencing token was above the one before
     */
    public record Race(int sections, int overlaps, boolean tokensRising) {

        static Race of(List<Long> tokens, int overlaps) {
            boolean rising = true;
            for (int i = 1; i < tokens.size(); i++) {
                rising &= tokens.get(i) > tokens.get(i - 1);
            }
            return new Race(tokens.size(), overlaps, rising);
        }
    }
}
