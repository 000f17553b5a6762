package io.quarkiverse.lock.docs;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;

/**
 * The lock types: a reentrant handle for nested sections, an overriding one for administration.
 */
@ApplicationScoped
public class AdminLocks {

    @Inject
    LockRegistry locks;

    // tag::reentrant[]
    /**
     * @param catalog the catalog to rebuild
     * @return completes when rebuilt; the nested section runs inside the outer one on the same reentrant handle
     */
    public Uni<Void> rebuild(String catalog) {
        ReactiveDistributedLock lock = locks.obtain("catalog-" + catalog, LockType.REENTRANT);
        Uni<Void> reindex = lock.acquireAndExecute(Duration.ZERO, Uni.createFrom().voidItem());
        return lock.acquireAndExecute(Duration.ofSeconds(5), reindex);
    }
    // end::reentrant[]

    // tag::overriding[]
    /**
     * @param job the job whose lock a crashed run left behind
     * @return {@code true} if someone held it and it is now free
     */
    public Uni<Boolean> clearStaleJobLock(String job) {
        return locks.obtain("job-" + job, LockType.OVERRIDING).release();
    }
    // end::overriding[]
}
