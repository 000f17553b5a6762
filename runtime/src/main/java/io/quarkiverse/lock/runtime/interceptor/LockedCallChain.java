package io.quarkiverse.lock.runtime.interceptor;

import java.util.HashSet;
import java.util.Set;

/**
 * The {@code @Locked} keys whose method body runs on the current thread right now, so that a body calling another
 * {@code @Locked} method on the same key fails at once instead of waiting for itself.
 * <p>
 * A thread is the one chain that can be told apart from its siblings without false alarms: two concurrent calls on
 * one key made in the same request (a merge, a join) must wait for each other, not fail. A nested call that a reactive
 * pipeline makes later, on another thread, is not seen here; it waits like any contender and fails with
 * {@code CannotAcquireLockException} when its wait runs out.
 */
final class LockedCallChain {

    private static final ThreadLocal<Set<String>> RUNNING = ThreadLocal.withInitial(HashSet::new);

    private LockedCallChain() {
    }

    /**
     * @return the failure of a nested call on a key whose body runs on this thread, or {@code null} if there is none
     */
    static IllegalStateException nestedCall(String key, LockedMethod method) {
        if (!RUNNING.get().contains(key)) {
            return null;
        }
        return new IllegalStateException("@Locked method " + method.name + " was called for key '" + key
                + "' from the body of a @Locked method that holds that lock. The locks are not reentrant, so the call "
                + "would wait for itself: call it outside the locked section, or lock a different key.");
    }

    /** Marks the key's body as running on this thread; {@link #leave(String)} must follow in a finally block. */
    static void enter(String key) {
        RUNNING.get().add(key);
    }

    static void leave(String key) {
        RUNNING.get().remove(key);
    }
}
