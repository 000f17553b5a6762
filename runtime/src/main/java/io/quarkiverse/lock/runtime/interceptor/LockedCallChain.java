package io.quarkiverse.lock.runtime.interceptor;

import java.util.HashSet;
import java.util.Set;

import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Which {@code @Locked} keys the current call chain holds, so that a nested call on one of them fails at once instead
 * of waiting for itself. The chain is the current thread while a locked method body runs on it, and, for reactive
 * methods, the Vert.x duplicated context (one per request or message) for the whole time the lock is held.
 */
final class LockedCallChain {

    private static final ThreadLocal<Set<String>> ON_THREAD = ThreadLocal.withInitial(HashSet::new);
    private static final String CONTEXT_KEY = LockedCallChain.class.getName();

    private LockedCallChain() {
    }

    static void requireNotHeld(String key, LockedMethod method) {
        if (ON_THREAD.get().contains(key) || heldOnContext(key)) {
            throw new IllegalStateException("@Locked method " + method.name + " was called for key '" + key
                    + "' by a call chain that already holds that lock. The locks are not reentrant, so the call would "
                    + "wait for itself: call it outside the locked section, or lock a different key.");
        }
    }

    /** Marks the key held on this thread; {@link #leaveThread(String)} must follow in a finally block. */
    static void enterThread(String key) {
        ON_THREAD.get().add(key);
    }

    static void leaveThread(String key) {
        ON_THREAD.get().remove(key);
    }

    /**
     * Marks the key held on the current duplicated context, if the caller runs on one.
     *
     * @return the context to pass to {@link #leaveContext(Context, String)}, or {@code null}
     */
    static Context enterContext(String key) {
        Context context = Vertx.currentContext();
        if (context == null || !VertxContext.isDuplicatedContext(context)) {
            return null;
        }
        Set<String> keys = context.getLocal(CONTEXT_KEY);
        if (keys == null) {
            keys = new HashSet<>();
            context.putLocal(CONTEXT_KEY, keys);
        }
        synchronized (keys) {
            keys.add(key);
        }
        return context;
    }

    static void leaveContext(Context context, String key) {
        if (context == null) {
            return;
        }
        Set<String> keys = context.getLocal(CONTEXT_KEY);
        if (keys != null) {
            synchronized (keys) {
                keys.remove(key);
            }
        }
    }

    private static boolean heldOnContext(String key) {
        Context context = Vertx.currentContext();
        if (context == null || !VertxContext.isDuplicatedContext(context)) {
            return false;
        }
        Set<String> keys = context.getLocal(CONTEXT_KEY);
        if (keys == null) {
            return false;
        }
        synchronized (keys) {
            return keys.contains(key);
        }
    }
}
