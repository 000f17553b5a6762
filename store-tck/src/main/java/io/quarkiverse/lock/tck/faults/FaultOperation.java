package io.quarkiverse.lock.tck.faults;

/**
 * The random operations of a fault run, each with its weight: how often a worker picks it against the others.
 */
public enum FaultOperation {
    /** {@code acquireAndExecute} with a wait. */
    EXECUTE_WAITING(20),
    /** {@code acquireAndExecute} with one attempt. */
    EXECUTE_ONE_TRY(10),
    /** {@code acquire}, a section, then {@code release}. */
    ACQUIRE_RELEASE(12),
    /** {@code acquireOnce}, a section, then {@code release}. */
    ACQUIRE_ONCE(8),
    /** {@code acquireForever}, a short section, then {@code release}. */
    ACQUIRE_FOREVER(1),
    /** {@code acquireAndExecute} cancelled at a random moment. */
    CANCEL_EXECUTE(10),
    /** {@code acquire} cancelled at a random moment. */
    CANCEL_ACQUIRE(5),
    /** A blocking acquisition or execution, interrupted at a random moment more often than not. */
    BLOCKING_INTERRUPTED(8),
    /** A reentrant handle entering its hold again from inside its section, up to four levels deep. */
    REENTRANT_NESTED(12),
    /** An overriding take-over, a section, and a release whoever holds the lock. */
    OVERRIDING(2),
    /** Two or three acquisitions on one handle at once. */
    CONCURRENT_ON_ONE_HANDLE(8);

    private final int weight;

    FaultOperation(int weight) {
        this.weight = weight;
    }

    /**
     * @return how often a worker picks it, against the sum of every operation's weight
     */
    public int weight() {
        return weight;
    }
}
