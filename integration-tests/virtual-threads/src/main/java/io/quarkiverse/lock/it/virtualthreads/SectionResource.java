package io.quarkiverse.lock.it.virtualthreads;

import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

import io.quarkiverse.lock.Locked;
import io.smallrye.common.annotation.RunOnVirtualThread;

/**
 * A REST endpoint that runs on a virtual thread and holds a lock while it runs: the blocking {@code @Locked} method
 * waits for the lock on that virtual thread.
 */
@Path("/sections")
public class SectionResource {

    @Inject
    GuardedSections sections;

    /**
     * Runs one section of {@code slot} under the lock {@code vt-<slot>}.
     *
     * @param slot which slot, from 0 to {@link GuardedSections#SLOTS} - 1
     * @return the name of the thread it ran on, for the test to check it was a virtual thread
     */
    @POST
    @Path("{slot}")
    @RunOnVirtualThread
    @Locked(key = "vt-{slot}", waitTime = "60s")
    public String section(@PathParam("slot") int slot) {
        sections.tally().section(slot);
        return Thread.currentThread().isVirtual() ? "virtual" : Thread.currentThread().getName();
    }
}
