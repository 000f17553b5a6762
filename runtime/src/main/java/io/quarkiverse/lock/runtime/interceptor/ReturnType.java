package io.quarkiverse.lock.runtime.interceptor;

import java.util.concurrent.CompletionStage;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The shapes of {@code @Locked} methods, which decide when the lock is taken and released.
 */
enum ReturnType {
    UNI,
    MULTI,
    COMPLETION_STAGE,
    BLOCKING;

    static ReturnType of(Class<?> type) {
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
