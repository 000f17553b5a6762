package io.quarkiverse.lock.tck.faults;

/**
 * One lock operation of a history ({@link OperationHistory}): an acquisition or a release by one handle, when it was
 * invoked and when it completed on the store's clock (microseconds), how it ended, and the fencing token it reported.
 * <p>
 * The invocation time is read before the operation reached the store, and the completion time after its answer
 * reached the caller, so the operation took effect, if it did, between the two.
 *
 * @param id the operation's id, unique in the history
 * @param name what ran it (a random operation such as {@code ACQUIRE_RELEASE}), for the verdict
 * @param kind an acquisition or a release
 * @param key the lock key
 * @param handle the id of the handle, unique in the history
 * @param reentrant whether the handle is reentrant (its acquisitions may enter one hold again)
 * @param overriding whether the handle is overriding (it takes the lock, and frees it, whoever holds it)
 * @param leaseMillis the lease an acquisition asked for; 0 for a lock held until released, and for a release
 * @param invoked when it was invoked
 * @param completed when it completed; -1 if it never did (the history ended first)
 * @param outcome how it ended
 * @param token the fencing token: of the hold an acquisition reported, or of the hold a release was asked to end;
 *        -1 if there was none
 */
public record LockOperation(long id, String name, Kind kind, String key, String handle, boolean reentrant,
        boolean overriding, long leaseMillis, long invoked, long completed, Outcome outcome, long token) {

    /** What an operation asked for. */
    public enum Kind {
        /** An acquisition: one try, a wait, or an {@code acquireAndExecute}'s acquisition. */
        ACQUIRE,
        /** A release: {@code release()}, or the one that ends an {@code acquireAndExecute}. */
        RELEASE
    }

    /** How an operation ended, as its caller saw it. */
    public enum Outcome {
        /** It took effect: the lock was acquired (with {@link #token()}), or released. */
        OK,
        /** It did not take effect: the lock was not acquired, or the handle held nothing for the release to end. */
        FAIL,
        /**
         * It may have taken effect or not: it timed out, its connection was cut, it was cancelled or interrupted, or
         * it never completed.
         */
        UNKNOWN
    }

    /**
     * @return whether it completed (an operation still running when the history ended did not)
     */
    public boolean didComplete() {
        return completed >= 0;
    }

    /**
     * @return the hold it is about: its handle and token, as {@code handle/token}
     */
    public String hold() {
        return handle + "/" + token;
    }

    /**
     * @return the operation in one line, as a process that cannot use this class writes it: {@code name|kind|key|
     *         handle|reentrant|overriding|leaseMillis|invoked|completed|outcome|token}, flags as {@code 1} or
     *         {@code 0}, kind and outcome by name; its id is not in the line
     */
    public String line() {
        return String.join("|", name, kind.name(), key, handle, reentrant ? "1" : "0", overriding ? "1" : "0",
                Long.toString(leaseMillis), Long.toString(invoked), Long.toString(completed), outcome.name(),
                Long.toString(token));
    }

    /**
     * @param id the id it gets in the history
     * @param line a line as {@link #line()} writes it
     * @return the operation
     * @throws IllegalArgumentException if the line does not have an operation's fields
     */
    public static LockOperation parse(long id, String line) {
        String[] f = line.split("\\|", -1);
        if (f.length != 11) {
            throw new IllegalArgumentException("Not a lock operation: " + line);
        }
        return new LockOperation(id, f[0], Kind.valueOf(f[1]), f[2], f[3], "1".equals(f[4]), "1".equals(f[5]),
                Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), Outcome.valueOf(f[9]),
                Long.parseLong(f[10]));
    }

    /**
     * @param origin the history's start, on the store's clock
     * @return a readable description, with times in milliseconds since {@code origin}
     */
    public String describe(long origin) {
        return String.format("[op%d %s %s %s %s token %d, %s%s, %.1f..%s ms%s]", id, name, kind, outcome, key, token,
                handle, reentrant ? " reentrant" : overriding ? " overriding" : "", (invoked - origin) / 1000.0,
                didComplete() ? String.format("%.1f", (completed - origin) / 1000.0) : "(never completed)",
                kind == Kind.ACQUIRE ? ", lease " + (leaseMillis == 0 ? "none" : leaseMillis + " ms") : "");
    }
}
