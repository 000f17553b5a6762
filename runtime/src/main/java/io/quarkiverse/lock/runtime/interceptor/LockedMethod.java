package io.quarkiverse.lock.runtime.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.runtime.config.LockSettings;

/**
 * What the interceptor needs to know about one {@code @Locked} method, resolved on its first call: how to build the
 * key, the wait, lease and minimum hold, what to do when busy, and the method's shape.
 */
final class LockedMethod {

    final String name;
    final ReturnType returnType;
    final Duration wait;
    final Duration lease;
    /** How long after its acquisition the lock stays held; zero for no minimum. */
    final Duration holdAtLeast;
    final boolean skipWhenBusy;
    final boolean renewLease;
    /** The metrics name of this method's locks: its key template, or the method when the key is built otherwise. */
    final String metricsName;
    private final String[] literals;
    private final short[] positions;

    private LockedMethod(String name, ReturnType returnType, Duration wait, Duration lease, Duration holdAtLeast,
            boolean skipWhenBusy, boolean renewLease, String metricsName, String[] literals, short[] positions) {
        this.name = name;
        this.metricsName = metricsName;
        this.returnType = returnType;
        this.wait = wait;
        this.lease = lease;
        this.holdAtLeast = holdAtLeast;
        this.skipWhenBusy = skipWhenBusy;
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
                locked.whenBusy() == Locked.WhenBusy.SKIP,
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

    /**
     * @return {@code true} if the failure says this call's lock was busy and the method skips in that case
     */
    boolean skips(Throwable failure, String key) {
        return skipWhenBusy && failure instanceof CannotAcquireLockException busy && key.equals(busy.getLockKey());
    }
}
