package io.quarkiverse.lock.tck.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records lock operations as they are invoked and complete, from any thread, for {@link HistoryChecker}. An operation
 * is recorded when it is invoked ({@link #invoked}) and completed once ({@link Pending#completed}); one that never
 * completes stays in the history with an {@link LockOperation.Outcome#UNKNOWN} outcome.
 */
public final class OperationHistory {

    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, LockOperation> operations = new ConcurrentHashMap<>();

    /**
     * Records an operation as invoked.
     *
     * @param name what ran it
     * @param kind an acquisition or a release
     * @param key the lock key
     * @param handle the handle's id
     * @param reentrant whether the handle is reentrant
     * @param overriding whether the handle is overriding
     * @param leaseMillis the lease an acquisition asks for (0: none)
     * @param token for a release, the token of the hold it is asked to end (-1: none); -1 for an acquisition
     * @param invoked when it was invoked, read before it reached the store
     * @return the operation, to complete
     */
    public Pending invoked(String name, LockOperation.Kind kind, String key, String handle, boolean reentrant,
            boolean overriding, long leaseMillis, long token, long invoked) {
        long id = ids.incrementAndGet();
        operations.put(id, new LockOperation(id, name, kind, key, handle, reentrant, overriding, leaseMillis,
                invoked, -1, LockOperation.Outcome.UNKNOWN, token));
        return new Pending(id);
    }

    /**
     * @return every operation recorded, in the order they were invoked
     */
    public List<LockOperation> operations() {
        List<LockOperation> all = new ArrayList<>(operations.values());
        all.sort((a, b) -> Long.compare(a.id(), b.id()));
        return all;
    }

    /** An operation recorded as invoked, to complete once. */
    public final class Pending {

        private final long id;

        private Pending(long id) {
            this.id = id;
        }

        /**
         * @return the operation as recorded so far
         */
        public LockOperation operation() {
            return operations.get(id);
        }

        /**
         * Records how the operation ended; only the first completion counts.
         *
         * @param outcome how it ended
         * @param token for an acquisition that took effect, the token it reported; else ignored
         * @param time when it completed, read after its answer reached the caller
         * @return {@code true} if this was its first completion, {@code false} if it had completed already
         */
        public boolean completed(LockOperation.Outcome outcome, long token, long time) {
            boolean[] first = new boolean[1];
            operations.computeIfPresent(id, (k, op) -> {
                if (op.didComplete()) {
                    return op;
                }
                first[0] = true;
                long reported = op.kind() == LockOperation.Kind.ACQUIRE
                        ? (outcome == LockOperation.Outcome.OK ? token : -1)
                        : op.token();
                return new LockOperation(op.id(), op.name(), op.kind(), op.key(), op.handle(), op.reentrant(),
                        op.overriding(), op.leaseMillis(), op.invoked(), time, outcome, reported);
            });
            return first[0];
        }
    }
}
