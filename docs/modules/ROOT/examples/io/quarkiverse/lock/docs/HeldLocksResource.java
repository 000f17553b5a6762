package io.quarkiverse.lock.docs;

import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockPage;
import io.smallrye.mutiny.Uni;

/**
 * An admin endpoint over {@link LockAdmin}: the locks every instance holds, a page at a time, and a forced release.
 * Guard it as any admin endpoint: a forced release breaks the exclusion its holder relies on.
 */
@Path("/admin/locks")
public class HeldLocksResource {

    @Inject
    LockAdmin admin;

    // tag::admin[]
    /**
     * @param cursor absent for the first page, else the {@code next} of the page before
     * @return up to 100 held locks, and the cursor of the next page ({@code null} on the last)
     */
    @GET
    public Uni<LockPage> held(@QueryParam("cursor") String cursor) {
        return admin.held(cursor, 100);
    }

    /**
     * @param key the lock to free, whoever holds it
     * @return {@code true} if it was held and is now free, {@code false} if it was free already
     */
    @DELETE
    @Path("/{key}")
    public Uni<Boolean> forceRelease(@PathParam("key") String key) {
        return admin.forceRelease(key);
    }
    // end::admin[]
}
