package io.quarkiverse.lock.bench;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.lock.Locked;
import io.smallrye.mutiny.Uni;

/**
 * The method the {@code @Locked} overhead is measured on: an empty critical section.
 */
@ApplicationScoped
public class LockedTarget {

    /**
     * @param id the key suffix: each benchmark loop locks a key of its own, so nothing is contended
     * @return {@code id}
     */
    @Locked(key = "bench-locked-{id}", waitTime = "10s")
    public Uni<Integer> work(int id) {
        return Uni.createFrom().item(id);
    }
}
