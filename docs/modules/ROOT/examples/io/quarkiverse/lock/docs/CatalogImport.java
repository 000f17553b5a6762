package io.quarkiverse.lock.docs;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;

/**
 * A long job that pushes its lease out before each batch, as ShedLock's {@code LockExtender} does.
 */
@ApplicationScoped
public class CatalogImport {

    /** How long one batch may take at most. */
    private static final Duration BATCH_LEASE = Duration.ofMinutes(5);

    @Inject
    LockRegistry locks;

    // tag::extend[]
    /**
     * @param batches the import's batches, run in order on one instance at a time
     * @return how many batches ran: all of them, none if another instance runs the import, or fewer if the lock was
     *         lost before a batch
     */
    public int importAll(List<Runnable> batches) {
        DistributedLock lock = locks.obtainBlocking("catalog-import");
        if (!lock.acquire(Duration.ZERO, BATCH_LEASE)) {
            return 0;
        }
        int ran = 0;
        try {
            for (Runnable batch : batches) {
                if (!lock.extend(BATCH_LEASE)) {
                    return ran; // the lease ran out or the lock was taken over: stop before the next batch
                }
                batch.run();
                ran++;
            }
            return ran;
        } finally {
            lock.release();
        }
    }
    // end::extend[]
}
