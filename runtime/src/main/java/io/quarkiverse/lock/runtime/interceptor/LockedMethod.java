package io.quarkiverse.lock.runtime.interceptor;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.observe.LockObserver.SkipReason;

/**
 * What the interceptor needs to know about one {@code @Locked} method, resolved on its first call: how to build the
 * key, the wait, lease and minimum hold, what to do when busy, and the method's shape.
 */
final class LockedMethod {

    /** {@code @Scheduled}, and its container when it is repeated; by name, since the scheduler may be absent. */
    private static final Set<String> SCHEDULED = Set.of("io.quarkus.scheduler.Scheduled",
            "io.quarkus.scheduler.Scheduled$Schedules");

    final String name;
    final ReturnType returnType;
    final Duration wait;
    final Duration lease;
    /** How long after its acquisition the lock stays held; zero for no minimum. */
    final Duration holdAtLeast;
    final boolean skipWhenBusy;
    /** A scheduled job: a firing whose acquisition the store failed is skipped, not failed. */
    final boolean scheduled;
    final boolean renewLease;
    /** The metrics name of this method's locks: its key template, or the method when the key is built otherwise. */
    final String metricsName;
    private final String[] literals;
    private final short[] positions;

    private LockedMethod(String name, ReturnType returnType, Duration wait, Duration lease, Duration holdAtLeast,
            boolean skipWhenBusy, boolean scheduled, boolean renewLease, String metricsName, String[] literals,
            short[] positions) {
        this.name = name;
        this.metricsName = metricsName;
        this.returnType = returnType;
        this.wait = wait;
        this.lease = lease;
        this.holdAtLeast = holdAtLeast;
        this.skipWhenBusy = skipWhenBusy;
        this.scheduled = scheduled;
        this.renewLease = renewLease;
        this.literals = literals;
        this.positions = positions;
    }

    static LockedMethod of(Method method, Locked locked, CompiledLockKey key, LockSettings settings) {
        String name = method.getDeclaringClass().getName() + "#" + method.getName();
        Duration lease = LockedDurations.resolve(locked.expireAfter(), settings.defaultLease(),
                "@Locked(expireAfter) of " + name, false);
        return new LockedMethod(name, ReturnType.of(method.getReturnType()),
                LockedDurations.resolve(locked.waitTime(), settings.defaultWait(), "@Locked(waitTime) of " + name,
                        true),
                lease,
                LockedDurations.resolveHoldAtLeast(locked.holdAtLeast(), lease, locked.expireAfter(),
                        "@Locked(holdAtLeast) of " + name),
                locked.whenBusy() == Locked.WhenBusy.SKIP, isScheduled(method),
                locked.leaseRenewal() == Locked.LeaseRenewal.CONFIGURED ? settings.renewLease()
                        : locked.leaseRenewal() == Locked.LeaseRenewal.ON,
                locked.key().isBlank() ? name : locked.key(), key.literals(), key.positions());
    }

    /**
     * @param arguments the call's arguments
     * @return the lock key of this call
     * @throws InvalidLockKeyException if an argument that is part of the key is {@code null}
     */
    String key(Object[] arguments) {
        if (positions.length == 0) {
            return literals[0];
        }
        StringBuilder key = new StringBuilder(literals[0]);
        for (int i = 0; i < positions.length; i++) {
            Object argument = arguments[positions[i]];
            if (argument == null) {
                throw new InvalidLockKeyException(metricsName, "The argument at position " + positions[i]
                        + " is part of the lock key of @Locked method " + name + ", and must not be null");
            }
            key.append(argument).append(literals[i + 1]);
        }
        return key.toString();
    }

    private static boolean isScheduled(Method method) {
        for (Annotation annotation : method.getDeclaredAnnotations()) {
            if (SCHEDULED.contains(annotation.annotationType().getName())) {
                return true;
            }
        }
        return false;
    }

    /** @return {@code true} if some failures of this method's acquisitions skip the call instead of failing it */
    boolean maySkip() {
        return skipWhenBusy || scheduled;
    }

    /**
     * @return why this call skips its method on this failure of its lock: {@link SkipReason#BUSY} if the lock was busy
     *         and the method skips in that case, {@link SkipReason#STORE_FAILURE} if the store failed on this call's
     *         lock and the method is a scheduled job; {@code null} if the call fails with it
     */
    SkipReason skipReason(Throwable failure, String key) {
        if (skipWhenBusy && failure instanceof CannotAcquireLockException busy && key.equals(busy.getLockKey())) {
            return SkipReason.BUSY;
        }
        if (scheduled && failure instanceof LockException storeFailure && key.equals(storeFailure.getLockKey())) {
            return SkipReason.STORE_FAILURE;
        }
        return null;
    }
}
