package io.quarkiverse.lock.runtime.interceptor;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.observe.LockObserver.SkipReason;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.LockArguments;
import io.quarkus.arc.ArcInvocationContext;
import io.quarkus.runtime.BlockingOperationControl;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Holds the lock of a {@link Locked} method around its call. Runs outside transactions and other platform
 * interceptors, so a transaction commits before the lock is released.
 * <p>
 * For {@code Uni} and {@code Multi} methods the body runs inside the returned pipeline: nothing happens before
 * subscription, and the lock is released on the last signal or on cancellation.
 */
@Locked
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 50)
public class LockedInterceptor {

    private static final Logger LOG = Logger.getLogger(LockedInterceptor.class);

    private final ConcurrentHashMap<Method, LockedMethod> methods = new ConcurrentHashMap<>();

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    /** The registry's observers, told of skipped calls; {@link #registry} may be a test's stub. */
    @Inject
    DefaultLockRegistry locks;

    /**
     * Runs the intercepted call while holding its lock.
     *
     * @param context the call
     * @return the method's result, guarded by the lock
     * @throws Exception the method's own exception, unchanged
     */
    @AroundInvoke
    Object lock(InvocationContext context) throws Exception {
        LockedMethod method = methods.computeIfAbsent(context.getMethod(), m -> LockedMethod.of(m,
                ArcInvocationContext.findIterceptorBinding(context, Locked.class),
                ArcInvocationContext.findIterceptorBinding(context, CompiledLockKey.class), settings));
        String key = method.key(context.getParameters());
        IllegalStateException nested = LockedCallChain.nestedCall(key, method);
        switch (method.returnType) {
            case UNI:
                return nested != null ? Uni.createFrom().failure(nested)
                        : lockUni(method, key, () -> proceedUni(context, key));
            case COMPLETION_STAGE:
                return nested != null ? CompletableFuture.failedStage(nested)
                        : lockUni(method, key, () -> proceedStage(context, key))
                                .subscribeAsCompletionStage();
            case MULTI:
                return nested != null ? Multi.createFrom().failure(nested)
                        : lockMulti(method, key, () -> proceedMulti(context, key));
            default:
                if (nested != null) {
                    throw nested;
                }
                return lockBlocking(context, method, key);
        }
    }

    /**
     * The recovery of a skipped call is attached only to methods that may skip (when busy, or as scheduled jobs when
     * the store fails): each Mutiny operator captures and restores the caller's context (SmallRye Context
     * Propagation), a cost every call would pay for nothing.
     */
    private Uni<Object> lockUni(LockedMethod method, String key, Supplier<Uni<Object>> body) {
        if (!method.maySkip()) {
            return Uni.createFrom().deferred(
                    () -> obtain(method, key).acquireAndExecute(method.wait, method.lease, CalledBody.uni(body)));
        }
        return Uni.createFrom().deferred(() -> {
            BodyStart start = new BodyStart();
            return obtain(method, key).acquireAndExecute(method.wait, method.lease, CalledBody.uni(start.marking(body)))
                    .onFailure(failure -> skips(method, key, failure, start)).recoverWithUni(failure -> {
                        skipped(method, key, failure, start);
                        return Uni.createFrom().nullItem();
                    });
        });
    }

    private Multi<Object> lockMulti(LockedMethod method, String key, Supplier<Multi<Object>> body) {
        if (!method.maySkip()) {
            return Multi.createFrom().deferred(() -> obtain(method, key).acquireAndExecuteMany(method.wait,
                    method.lease, CalledBody.multi(body)));
        }
        return Multi.createFrom().deferred(() -> {
            BodyStart start = new BodyStart();
            return obtain(method, key).acquireAndExecuteMany(method.wait, method.lease,
                    CalledBody.multi(start.markingMany(body)))
                    .onFailure(failure -> skips(method, key, failure, start)).recoverWithMulti(failure -> {
                        skipped(method, key, failure, start);
                        return Multi.createFrom().empty();
                    });
        });
    }

    /**
     * @return {@code true} if the call ends without failing on this failure: its acquisition failed so that it skips,
     *         or it is a scheduled job whose method did its work and whose release the store failed (the release is
     *         tried again in the background, or the lease ends it; the outage is logged once by the registry)
     */
    private static boolean skips(LockedMethod method, String key, Throwable failure, BodyStart start) {
        if (start.finished()) {
            return method.scheduled && method.skipReason(failure, key) == SkipReason.STORE_FAILURE;
        }
        return !start.started() && method.skipReason(failure, key) != null;
    }

    /** The key is checked here, where the method and its template are known, so that a refused key names them. */
    private ReactiveDistributedLock obtain(LockedMethod method, String key) {
        try {
            LockArguments.requireKey(key, method.metricsName);
        } catch (InvalidLockKeyException refused) {
            throw new InvalidLockKeyException(method.metricsName, "@Locked method " + method.name
                    + " (key template '" + method.metricsName + "'): " + refused.getMessage());
        }
        return registry.obtain(key).withLeaseRenewal(method.renewLease)
                .withMetricsName(method.metricsName)
                .withHoldAtLeast(method.holdAtLeast);
    }

    /**
     * Tells the log and the metrics that a call skipped its method because of this failure of its lock, one for which
     * {@link LockedMethod#skipReason} is not {@code null}. A store failure is not logged above debug level here: the
     * registry logs the store's outage once, however many scheduled firings it skips.
     */
    private void skipped(LockedMethod method, String key, Throwable failure, BodyStart start) {
        if (start.finished()) {
            LOG.debugf("Scheduled @Locked method %s ran, but the lock store failed to release lock '%s': %s",
                    method.name, key, failure.getMessage());
            return;
        }
        SkipReason reason = method.skipReason(failure, key);
        if (reason == SkipReason.BUSY) {
            LOG.debugf("Skipped @Locked method %s: lock '%s' is held by another owner", method.name, key);
        } else {
            LOG.debugf("Skipped scheduled @Locked method %s: the lock store failed on lock '%s': %s", method.name, key,
                    failure.getMessage());
        }
        locks.observer().skipped(method.metricsName, key, reason);
    }

    private Object lockBlocking(InvocationContext context, LockedMethod method, String key) throws Exception {
        if (!BlockingOperationControl.isBlockingAllowed()) {
            throw new IllegalStateException("@Locked method " + method.name + " blocks while it waits for the lock, "
                    + "so it must not be called on an event-loop thread: make it return Uni, or run it on a worker "
                    + "thread (@Blocking, @RunOnVirtualThread)");
        }
        BodyStart start = method.maySkip() ? new BodyStart() : null;
        try {
            return obtain(method, key).toBlocking().acquireAndExecute(method.wait, method.lease, () -> {
                if (start != null) {
                    start.mark();
                }
                LockedCallChain.enter(key);
                try {
                    Object result = context.proceed();
                    if (start != null) {
                        start.finish();
                    }
                    return result;
                } finally {
                    LockedCallChain.leave(key);
                }
            });
        } catch (CannotAcquireLockException | LockException failure) {
            if (start != null && skips(method, key, failure, start)) {
                skipped(method, key, failure, start);
                return null;
            }
            throw failure;
        }
    }

    @SuppressWarnings("unchecked")
    private static Uni<Object> proceedUni(InvocationContext context, String key) {
        return proceedInChain(context, key, result -> (Uni<Object>) result, Uni.createFrom()::failure);
    }

    @SuppressWarnings("unchecked")
    private static Uni<Object> proceedStage(InvocationContext context, String key) {
        return proceedInChain(context, key,
                result -> Uni.createFrom().completionStage((CompletionStage<Object>) result),
                Uni.createFrom()::failure);
    }

    @SuppressWarnings("unchecked")
    private static Multi<Object> proceedMulti(InvocationContext context, String key) {
        return proceedInChain(context, key, result -> (Multi<Object>) result, Multi.createFrom()::failure);
    }

    /**
     * Calls the method while its key is on this thread's chain of held keys, and turns what it returned (or threw)
     * into the method's reactive type.
     */
    private static <T> T proceedInChain(InvocationContext context, String key, Function<Object, T> returned,
            Function<Throwable, T> thrown) {
        LockedCallChain.enter(key);
        try {
            return returned.apply(context.proceed());
        } catch (Exception e) {
            return thrown.apply(e);
        } finally {
            LockedCallChain.leave(key);
        }
    }
}
