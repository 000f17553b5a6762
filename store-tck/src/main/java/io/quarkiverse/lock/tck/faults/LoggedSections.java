package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.quarkiverse.lock.LockType;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * The critical sections of a run's operations, as they go to the {@link SectionLog}: request times read from the
 * store's clock, and sections stamped at both ends.
 */
final class LoggedSections {

    /** How long one operation may take before the run counts it as hung. */
    static final Duration OPERATION_TIMEOUT = FaultFixture.TIMEOUT;

    private final SectionLog log;
    private final AtomicLong sectionIds = new AtomicLong();

    LoggedSections(SectionLog log) {
        this.log = log;
    }

    /** Asks the store's clock, then runs the acquisition with that time as its request time. */
    <T> Uni<T> attempted(Function<Long, Uni<T>> acquisition) {
        return log.now().onFailure().transform(HarnessFailure::new).flatMap(acquisition::apply);
    }

    /**
     * @return the store's clock now, in microseconds
     * @throws HarnessFailure if the log cannot tell
     */
    long now() {
        try {
            return log.now().await().atMost(OPERATION_TIMEOUT);
        } catch (RuntimeException e) {
            throw new HarnessFailure(e);
        }
    }

    /**
     * @param window an overriding take-over's window, logged apart from the sections
     */
    void overriding(OverrideWindow window) {
        log.overriding(window);
    }

    /**
     * A critical section: stamped at its start (after the lock was reported acquired) and at its end (before the
     * release is asked for), with the work, and the nested sections, between the stamps. A section cancelled before
     * its end stamp answered is kept as unfinished, even if the stamp reaches the log: the stamp, on another
     * connection, may land after the release that the cancellation triggers.
     */
    Uni<Void> section(TrackedHandle handle, String parent, long attempt, long leaseMillis, Duration work,
            Function<String, Uni<Void>> inner) {
        return section(handle, parent, attempt, leaseMillis, work, inner, false);
    }

    /**
     * @param cancellable whether the section's execution may be cancelled by a timer while it runs (its own level's,
     *        or an enclosing level's): Mutiny does not stop code that already runs, so such a section may end after
     *        its cancellation released the lock; it is kept as ended only if its handle still holds its hold once the
     *        end stamp answered, else as unfinished (which wins over the ended record)
     */
    Uni<Void> section(TrackedHandle handle, String parent, long attempt, long leaseMillis, Duration work,
            Function<String, Uni<Void>> inner, boolean cancellable) {
        return Uni.createFrom().deferred(() -> {
            String id = "s" + sectionIds.incrementAndGet();
            long token = handle.lock().fencingToken().orElse(-1);
            AtomicReference<Section> startedSection = new AtomicReference<>();
            AtomicBoolean ended = new AtomicBoolean();
            return log.start(handle.key(), token)
                    .onFailure().transform(HarnessFailure::new)
                    .flatMap(stamp -> {
                        Section section = new Section(id, handle.operation(), handle.type() == LockType.OVERRIDING,
                                handle.key(), token, handle.id(), handle.instance(), handle.reentrant(), parent,
                                attempt, leaseMillis, stamp.time(), -1, stamp.held(), Section.UNKNOWN);
                        startedSection.set(section);
                        Uni<Void> body = work.isZero() ? Uni.createFrom().voidItem()
                                : Uni.createFrom().voidItem().onItem().delayIt().by(work);
                        if (inner != null) {
                            body = body.flatMap(ignored -> inner.apply(id));
                        }
                        // A cancellable section counts as ended only if its handle still holds its hold once the
                        // end stamp answered (so it held it at the stamp: a token never comes back); checked before
                        // the stamp, the cancellation could release the lock between the check and the stamp.
                        return body.flatMap(ignored -> log.end(section).onFailure().transform(HarnessFailure::new)
                                .invoke(() -> ended.set(!cancellable
                                        || handle.lock().fencingToken().orElse(-1) == token))
                                .replaceWithVoid());
                    })
                    .onTermination().invoke(() -> {
                        Section section = startedSection.get();
                        if (section != null && !ended.get()) {
                            log.unfinished(section);
                        }
                    })
                    .replaceWithVoid();
        });
    }

    /**
     * @return the operation's outcome, or how it failed
     */
    static String await(Uni<String> operation) {
        try {
            return operation.await().atMost(OPERATION_TIMEOUT);
        } catch (RuntimeException e) {
            return OperationOutcomes.classify(e);
        }
    }

    /**
     * Awaits a section on a thread that may be interrupted: an interrupt cancels the section (Mutiny's own await
     * would leave it running) and fails with the interruption.
     */
    static void awaitSection(Uni<Void> section) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Cancellable subscription = section.subscribe().with(done::complete, done::completeExceptionally);
        try {
            done.get(OPERATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            subscription.cancel();
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        } catch (TimeoutException e) {
            subscription.cancel();
            throw new CompletionException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new CompletionException(e.getCause());
        }
    }

    /**
     * Sleeps; an interrupt ends the sleep and stays set.
     */
    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
