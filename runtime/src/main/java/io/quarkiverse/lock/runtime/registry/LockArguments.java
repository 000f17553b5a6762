package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;

import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.spi.LockStore;

/**
 * Checks the arguments of the public API before anything reaches the store. Each check throws an
 * {@link IllegalArgumentException} naming the argument and saying what was wrong with it. The checks that do not
 * depend on the configuration are public: the test stub ({@code io.quarkiverse.lock.testing}) makes them too, so a
 * user's test refuses what production refuses.
 */
public final class LockArguments {

    private LockArguments() {
    }

    /**
     * @param key a lock key
     * @return the key
     * @throws InvalidLockKeyException if it is {@code null}, blank, or longer than
     *         {@link LockRegistry#MAX_KEY_LENGTH} characters
     */
    public static String requireKey(String key) {
        return requireKey(key, null);
    }

    /**
     * @param key a lock key
     * @param lockName the lock's name, for the exception; {@code null} if not known
     * @return the key
     * @throws InvalidLockKeyException if it is {@code null}, blank, or longer than
     *         {@link LockRegistry#MAX_KEY_LENGTH} characters
     */
    public static String requireKey(String key, String lockName) {
        if (key == null) {
            throw new InvalidLockKeyException(lockName, "key must not be null");
        }
        if (key.isBlank()) {
            throw new InvalidLockKeyException(lockName, "key must not be blank, but is '" + key + "'");
        }
        if (key.length() > LockRegistry.MAX_KEY_LENGTH) {
            throw new InvalidLockKeyException(lockName, "key must be at most " + LockRegistry.MAX_KEY_LENGTH
                    + " characters long, but has " + key.length());
        }
        return key;
    }

    /**
     * @param name a handle's metrics name
     * @return the name
     * @throws IllegalArgumentException if it is {@code null} or blank
     */
    public static String requireMetricsName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("metrics name must not be null or blank, but is '" + name + "'");
        }
        return name;
    }

    /**
     * @param type a lock type
     * @return the type
     * @throws IllegalArgumentException if it is {@code null}
     */
    public static LockType requireType(LockType type) {
        if (type == null) {
            throw new IllegalArgumentException("type must not be null");
        }
        return type;
    }

    /**
     * @param wait how long an acquisition may wait
     * @return the wait in nanoseconds, {@link Long#MAX_VALUE} for a wait too long to count in nanoseconds
     * @throws IllegalArgumentException if it is {@code null} or negative
     */
    public static long requireWait(Duration wait) {
        requireNotNegative("wait", wait);
        try {
            return wait.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The longest lease and minimum hold: 100 years. Longer ones would overflow the stores' and the renewal's
     * arithmetic (a lease of {@code Long.MAX_VALUE} ms ends, counted from now, in the past); a lock that must stay held
     * until released is acquired for ever.
     */
    public static final Duration LONGEST = Duration.ofDays(36_500);

    /**
     * @param lease the lease of an acquisition
     * @return the lease in milliseconds
     * @throws IllegalArgumentException if it is {@code null}, not positive, shorter than a millisecond, or longer than
     *         {@link #LONGEST}
     */
    public static long requireLease(Duration lease) {
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null");
        }
        if (lease.isNegative() || lease.isZero()) {
            throw new IllegalArgumentException("lease must be positive, but is " + lease);
        }
        if (lease.compareTo(LONGEST) > 0) {
            throw tooLong("lease", lease);
        }
        long millis = lease.toMillis();
        if (millis == 0) {
            throw new IllegalArgumentException("lease must be at least 1 ms, but is " + lease);
        }
        return millis;
    }

    /**
     * @param holdAtLeast how long after its acquisition a lock stays held
     * @return it in milliseconds, rounded up, so that a positive value never becomes zero
     * @throws IllegalArgumentException if it is {@code null}, negative, or longer than {@link #LONGEST}
     */
    public static long requireHoldAtLeast(Duration holdAtLeast) {
        requireNotNegative("holdAtLeast", holdAtLeast);
        if (holdAtLeast.compareTo(LONGEST) > 0) {
            throw tooLong("holdAtLeast", holdAtLeast);
        }
        long millis = holdAtLeast.toMillis();
        return holdAtLeast.minusMillis(millis).isZero() ? millis : millis + 1;
    }

    /** Refuses, with an {@link IllegalArgumentException}, an argument {@code name} that is null or negative. */
    private static void requireNotNegative(String name, Duration duration) {
        if (duration == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, but is " + duration);
        }
    }

    /** The refusal of an argument {@code name} too long to count in milliseconds. */
    private static IllegalArgumentException tooLong(String name, Duration duration) {
        return new IllegalArgumentException(name + " must be at most " + LONGEST.toDays() + " days (" + LONGEST
                + "; acquire for ever to hold until released), but is " + duration);
    }

    /**
     * @param leaseMillis the lease of an acquisition, or {@link LockStore#NO_EXPIRY}
     * @param holdAtLeastMillis how long after its acquisition the lock must stay held
     * @return the lease
     * @throws IllegalArgumentException if the lease would end before the minimum hold
     */
    static long requireLeaseCoversHold(long leaseMillis, long holdAtLeastMillis) {
        if (leaseMillis != LockStore.NO_EXPIRY && holdAtLeastMillis > leaseMillis) {
            throw new IllegalArgumentException("lease must not be shorter than the handle's holdAtLeast ("
                    + Duration.ofMillis(holdAtLeastMillis) + "), but is " + Duration.ofMillis(leaseMillis));
        }
        return leaseMillis;
    }

    /**
     * @param action the action of a guarded execution
     * @return the action
     * @throws IllegalArgumentException if it is {@code null}
     */
    public static <T> T requireAction(T action) {
        if (action == null) {
            throw new IllegalArgumentException("action must not be null");
        }
        return action;
    }
}
