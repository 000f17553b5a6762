package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongPredicate;

import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * Faults of the next store renewal whose lease matches, before it is sent: its caller blocks until the test lets it
 * go, or it throws; other renewals go at once.
 */
final class RenewalFaults {

    private final AtomicReference<Runnable> next = new AtomicReference<>();
    private volatile LongPredicate leases = lease -> true;

    /**
     * @param reached counted down when the renewal's caller is stopped
     * @param go lets it go on (after at most 10 s)
     */
    void blockNextUntil(CountDownLatch reached, CountDownLatch go) {
        blockNextUntil(reached, go, lease -> true);
    }

    /**
     * @param reached counted down when the renewal's caller is stopped
     * @param go lets it go on (after at most 10 s)
     * @param leasesMillis which renewals' leases the fault is for
     */
    void blockNextUntil(CountDownLatch reached, CountDownLatch go, LongPredicate leasesMillis) {
        leases = leasesMillis;
        next.set(() -> {
            reached.countDown();
            try {
                go.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** @param failure thrown by the next renewal's call, before anything is sent */
    void failNext(RuntimeException failure) {
        leases = lease -> true;
        next.set(() -> {
            throw failure;
        });
    }

    /** @return {@code delegate}, with the faults on its renewals */
    LockStore over(LockStore delegate) {
        return new ForwardingLockStore(delegate) {
            @Override
            public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
                Runnable fault = leases.test(leaseMillis) ? next.getAndSet(null) : null;
                if (fault != null) {
                    fault.run();
                }
                return delegate.renew(key, owner, leaseMillis);
            }
        };
    }
}
