package io.quarkiverse.lock.runtime.observe;

import java.util.function.Supplier;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.LockedSection;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Makes the spans of lock acquisitions and guarded sections. The core knows only this interface, which names no
 * tracing library: the OpenTelemetry implementation is a bean the build registers only when
 * {@code quarkus-opentelemetry} is present, so without it {@link #NONE} is used and no OpenTelemetry class is
 * loaded.
 * <p>
 * {@code name} is the handle's metrics name ({@link LockObserver}); the key is given separately, for an implementation
 * configured to include it. Called on the thread that started or ended the operation (often a Vert.x event loop):
 * implementations must be quick and must not block or throw.
 */
public interface LockTracer {

    /** Makes no spans. */
    LockTracer NONE = new LockTracer() {

        @Override
        public AcquireSpan startAcquire(String name, String key, String store, LockType type, long waitNanos,
                SectionSpan section) {
            return AcquireSpan.NONE;
        }

        @Override
        public SectionSpan startSection(String name, String key, String store, LockType type) {
            return SectionSpan.NONE;
        }
    };

    /**
     * Starts the span of one acquisition, as a child of the section it acquires for, or else of the caller's current
     * span.
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param store the store's name
     * @param type the handle's lock type
     * @param waitNanos how long the acquisition may wait, 0 for one attempt
     * @param section the guarded section this acquisition is for, or {@code null} for a plain acquisition
     * @return the span, to be ended exactly once
     */
    AcquireSpan startAcquire(String name, String key, String store, LockType type, long waitNanos,
            SectionSpan section);

    /**
     * Starts the span of one guarded section ({@code acquireAndExecute}, {@code @Locked}), a child of the caller's
     * current span.
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param store the store's name
     * @param type the handle's lock type
     * @return the span, to be ended once the section released its lock
     */
    SectionSpan startSection(String name, String key, String store, LockType type);

    /**
     * The span of one acquisition. Exactly one of the ending methods is called; {@link #queued} may come before.
     */
    interface AcquireSpan {

        /** A span that records nothing. */
        AcquireSpan NONE = new AcquireSpan() {
        };

        /**
         * The acquisition joined the local line of its key.
         *
         * @param placeInLine its place in that line when it joined: 1 when first
         */
        default void queued(int placeInLine) {
        }

        /**
         * The acquisition got the lock.
         *
         * @param token the hold's fencing token
         * @param waitedNanos how long it took
         */
        default void acquired(long token, long waitedNanos) {
        }

        /**
         * The wait ran out while another owner held the lock.
         *
         * @param waitedNanos how long it waited
         */
        default void notAcquired(long waitedNanos) {
        }

        /**
         * The acquisition failed (the store failed, or did not answer in time).
         *
         * @param failure the failure its caller gets
         * @param waitedNanos how long it had waited
         */
        default void failed(Throwable failure, long waitedNanos) {
        }

        /**
         * The acquisition was cancelled before it ended.
         *
         * @param waitedNanos how long it had waited
         */
        default void cancelled(long waitedNanos) {
        }
    }

    /**
     * The span of one guarded section: the parent of its acquisition's span and of the spans the action makes. Ended
     * once, by {@link #ended} or {@link #cancelled}; a second ending is ignored.
     */
    interface SectionSpan {

        /** A span that records nothing and makes nothing current. */
        SectionSpan NONE = new SectionSpan() {
        };

        /**
         * @param work makes the section's work after its acquisition: the action and the release
         * @return the work, made and subscribed with this span current, which stays current in the caller's Vert.x
         *         duplicated context until the work ends (Mutiny operators, with context propagation, run in the
         *         context they were made in, so the work is made here, not before); its end, with an item or a
         *         failure, ends this span as {@link #ended} does
         */
        default <T> Uni<T> current(Supplier<Uni<T>> work) {
            return work.get();
        }

        /**
         * @param work makes the section's work after its acquisition: the action and the release
         * @return the work, made and subscribed with this span current, as {@link #current(Supplier)}
         */
        default <T> Multi<T> currentMany(Supplier<Multi<T>> work) {
            return work.get();
        }

        /**
         * Runs a blocking section's action on this thread with this span current.
         *
         * @param action the action
         * @return what the action returned
         * @throws E what the action threw
         */
        default <T, E extends Exception> T run(LockedSection<T, E> action) throws E {
            return action.run();
        }

        /**
         * The section ended: its acquisition ended without the lock, or failed; or a blocking section's release was
         * made (or failed).
         *
         * @param failure how it failed, or {@code null} if it ended well
         */
        default void ended(Throwable failure) {
        }

        /** The section's acquisition ended without the lock: another owner held it for the whole wait. */
        default void notAcquired() {
        }

        /** The section was cancelled; its release, if it held the lock, was made. */
        default void cancelled() {
        }
    }
}
