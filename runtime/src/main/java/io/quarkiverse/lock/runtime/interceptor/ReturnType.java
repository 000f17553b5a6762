package io.quarkiverse.lock.runtime.interceptor;

import java.util.concurrent.CompletionStage;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The shapes of intercepted methods ({@code @Locked}, {@code @Leading}), which decide when the lock is taken and
 * released, or when leadership is checked and the work cancelled.
 */
public enum ReturnType {
    /** A {@code Uni}: nothing happens before subscription. */
    UNI,
    /** A {@code Multi}: nothing happens before subscription. */
    MULTI,
    /** A {@code CompletionStage}: the work starts when the method is called. */
    COMPLETION_STAGE,
    /** Any other type, {@code void} included: the method blocks its caller. */
    BLOCKING;

    /**
     * @param type a method's return type
     * @return its shape
     */
    public static ReturnType of(Class<?> type) {
        if (Uni.class.isAssignableFrom(type)) {
            return UNI;
        }
        if (Multi.class.isAssignableFrom(type)) {
            return MULTI;
        }
        if (CompletionStage.class.isAssignableFrom(type)) {
            return COMPLETION_STAGE;
        }
        return BLOCKING;
    }
}
