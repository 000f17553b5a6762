package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.runtime.observe.LockObserver;

/**
 * Tells when the lock store is down, whichever store it is: an outage starts at the first failed operation (a failure
 * of the store, or no answer within {@code quarkus.lock.operation-timeout}) after the store last answered, and ends
 * at the next operation that the store answers, among those sent after the outage started (an answer to one sent
 * before tells nothing about the store now). Its start is logged once, as one warning line with the cause, and its end
 * once, at info level, and both are told to the observer (the {@code quarkus.lock.store.outages} meter); every failure
 * is logged at debug level with its stack trace, so an outage does not flood the log whatever the rate of operations.
 */
final class StoreOutage {

    private static final Logger LOG = Logger.getLogger(StoreOutage.class);

    private final String store;
    private final LockObserver observer;
    private final LongSupplier nanoTime;
    /** The outage going on, or {@code null} while the store answers. */
    private final AtomicReference<Outage> current = new AtomicReference<>();

    /**
     * @param store the store's name, for the log
     * @param observer told when an outage starts and ends
     * @param nanoTime the clock that dates operations and outages ({@code System::nanoTime} but in tests)
     */
    StoreOutage(String store, LockObserver observer, LongSupplier nanoTime) {
        this.store = store;
        this.observer = observer;
        this.nanoTime = nanoTime;
    }

    /** @return the time to pass to {@link #answered(long)} when the operation sent now is answered */
    long sending() {
        return nanoTime.getAsLong();
    }

    /**
     * The store answered an operation: ends the outage going on, if the operation was sent after it started.
     *
     * @param sentNanos when the operation was sent, as {@link #sending()} returned
     */
    void answered(long sentNanos) {
        Outage outage = current.get();
        if (outage == null || sentNanos - outage.startNanos < 0 || !current.compareAndSet(outage, null)) {
            return;
        }
        Duration lasted = Duration.ofNanos(nanoTime.getAsLong() - outage.startNanos);
        LOG.infof("The %s lock store answers again, after an outage of %d ms in which %d lock store operations failed",
                store, lasted.toMillis(), outage.failures.sum());
        observer.storeOutageEnded(lasted.toNanos());
    }

    /**
     * An operation failed in the store or had no answer in time: starts an outage unless one is going on.
     *
     * @param operation what failed, as a verb: {@code acquire}, {@code release}, {@code renew}, ...
     * @param failure what it failed with
     */
    void failed(String operation, Throwable failure) {
        LOG.debugf(failure, "A %s operation failed in the %s lock store", operation, store);
        Outage outage = current.get();
        if (outage == null) {
            Outage started = new Outage(nanoTime.getAsLong());
            if (current.compareAndSet(null, started)) {
                started.failures.increment();
                LOG.warnf("The %s lock store is failing (%s: %s); lock operations fail until it answers again. This "
                        + "is logged once per outage, and each failure at debug level (category %s)", store, operation,
                        oneLine(failure), StoreOutage.class.getName());
                observer.storeOutageStarted();
                return;
            }
            outage = current.get();
        }
        if (outage != null) {
            outage.failures.increment();
        }
    }

    private static String oneLine(Throwable failure) {
        String message = failure.getMessage() == null ? failure.getClass().getName() : failure.getMessage();
        return message.replace('\n', ' ').replace('\r', ' ');
    }

    /** An outage: when it started, and how many operations failed in it. */
    private static final class Outage {

        final long startNanos;
        final LongAdder failures = new LongAdder();

        Outage(long startNanos) {
            this.startNanos = startNanos;
        }
    }
}
