package io.quarkiverse.lock.runtime.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The hold of a reentrant handle: entered once per acquisition, ended at the last release.
 */
final class ReentrantHold extends Hold {

    private static final VarHandle ENTRIES;

    static {
        try {
            ENTRIES = MethodHandles.lookup().findVarHandle(ReentrantHold.class, "entries", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int entries = 1;
    private volatile boolean enteredAgain;

    ReentrantHold(String owner, long token, long leaseMillis, long holdAtLeastMillis, LockHandle handle,
            boolean renewed) {
        super(owner, token, leaseMillis, holdAtLeastMillis, handle, renewed);
    }

    @Override
    boolean enter() {
        int current;
        do {
            current = entries;
            if (current <= 0) {
                return false;
            }
        } while (!ENTRIES.compareAndSet(this, current, current + 1));
        enteredAgain = true;
        return true;
    }

    @Override
    boolean wasEnteredAgain() {
        return enteredAgain;
    }

    @Override
    boolean leaveOneEntry() {
        return (int) ENTRIES.getAndAdd(this, -1) > 1;
    }
}
