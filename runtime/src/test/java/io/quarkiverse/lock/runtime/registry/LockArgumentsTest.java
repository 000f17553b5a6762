package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.UnreachableStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Bad input fails fast with an {@link IllegalArgumentException} naming the argument, before anything reaches the
 * store: the checks themselves ({@link LockArguments}), and every entry point of the public API that applies them, on
 * a registry over a store that nothing may reach. No store is involved, so the contract suite leaves this out.
 */
class LockArgumentsTest {

    private static final LockSettings SETTINGS = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(1), "lock:", false, Duration.ofSeconds(5));
    private static final WaitStrategy NEVER_WAITS = (waiter, failedAttempts, holderRemaining, remainingNanos) -> {
        throw new AssertionError("a refused call waited");
    };

    private final UnreachableStore store = new UnreachableStore();
    private final DefaultLockRegistry registry = new DefaultLockRegistry(store, SETTINGS, NEVER_WAITS,
            new LocalLockStates(), null);

    @AfterEach
    void nothingReachedTheStore() {
        assertThat(store.reached()).isEmpty();
    }

    @Test
    void aKeyMustBeNeitherNullNorBlankAndAtMostTheLongestAllowed() {
        String longest = "k".repeat(LockRegistry.MAX_KEY_LENGTH);
        assertThat(LockArguments.requireKey(longest)).isSameAs(longest);
        assertThat(LockArguments.requireKey(" k ")).isEqualTo(" k ");

        assertThatThrownBy(() -> LockArguments.requireKey(null)).isInstanceOf(InvalidLockKeyException.class)
                .hasMessage("key must not be null");
        assertThatThrownBy(() -> LockArguments.requireKey("")).isInstanceOf(InvalidLockKeyException.class)
                .hasMessageContaining("key must not be blank");
        assertThatThrownBy(() -> LockArguments.requireKey(" \t\n")).isInstanceOf(InvalidLockKeyException.class)
                .hasMessageContaining("key must not be blank");
        assertThatThrownBy(() -> LockArguments.requireKey(longest + "k")).isInstanceOf(InvalidLockKeyException.class)
                .hasMessageContaining("at most " + LockRegistry.MAX_KEY_LENGTH)
                .hasMessageContaining("has " + (LockRegistry.MAX_KEY_LENGTH + 1));
        assertThatThrownBy(() -> LockArguments.requireKey(longest + "k", "order-{id}"))
                .isInstanceOfSatisfying(InvalidLockKeyException.class,
                        invalid -> assertThat(invalid.getLockName()).as("the lock's name").isEqualTo("order-{id}"));
    }

    @Test
    void aWaitMustBePresentAndNotNegativeAndAWaitTooLongToCountIsServedAsEndless() {
        assertThat(LockArguments.requireWait(Duration.ZERO)).isZero();
        assertThat(LockArguments.requireWait(Duration.ofMillis(5))).isEqualTo(5_000_000);
        assertThat(LockArguments.requireWait(Duration.ofDays(365_000))).isEqualTo(Long.MAX_VALUE);

        assertThatThrownBy(() -> LockArguments.requireWait(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("wait must not be null");
        assertThatThrownBy(() -> LockArguments.requireWait(Duration.ofNanos(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait must not be negative");
    }

    @Test
    void aLeaseMustBePositiveAndCountInWholeMilliseconds() {
        assertThat(LockArguments.requireLease(Duration.ofMillis(1))).isEqualTo(1);
        assertThat(LockArguments.requireLease(Duration.ofSeconds(30))).isEqualTo(30_000);

        assertThatThrownBy(() -> LockArguments.requireLease(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("lease must not be null");
        assertThatThrownBy(() -> LockArguments.requireLease(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease must be positive");
        assertThatThrownBy(() -> LockArguments.requireLease(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease must be positive");
        assertThatThrownBy(() -> LockArguments.requireLease(Duration.ofNanos(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> LockArguments.requireLease(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease must be at most");
        assertThatThrownBy(() -> LockArguments.requireLease(Duration.ofMillis(Long.MAX_VALUE)))
                .as("a lease that fits in milliseconds but ends, counted from now, in the past")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease must be at most 36500 days");
        assertThat(LockArguments.requireLease(LockArguments.LONGEST)).isEqualTo(LockArguments.LONGEST.toMillis());
        assertThatThrownBy(() -> LockArguments.requireLease(LockArguments.LONGEST.plusMillis(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("acquire for ever");
    }

    @Test
    void aMinimumHoldMustNotBeNegativeIsRoundedUpAndMustFitInTheLease() {
        assertThat(LockArguments.requireHoldAtLeast(Duration.ZERO)).isZero();
        assertThat(LockArguments.requireHoldAtLeast(Duration.ofNanos(1))).as("never rounded down to none")
                .isEqualTo(1);
        assertThat(LockArguments.requireHoldAtLeast(Duration.ofMillis(2))).isEqualTo(2);

        assertThatThrownBy(() -> LockArguments.requireHoldAtLeast(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("holdAtLeast must not be null");
        assertThatThrownBy(() -> LockArguments.requireHoldAtLeast(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast must not be negative");
        assertThatThrownBy(() -> LockArguments.requireHoldAtLeast(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast must be at most");
        assertThatThrownBy(() -> LockArguments.requireHoldAtLeast(Duration.ofMillis(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast must be at most");

        assertThat(LockArguments.requireLeaseCoversHold(2000, 2000)).isEqualTo(2000);
        assertThat(LockArguments.requireLeaseCoversHold(LockStore.NO_EXPIRY, 2000)).as("a lock held until released")
                .isEqualTo(LockStore.NO_EXPIRY);
        assertThatThrownBy(() -> LockArguments.requireLeaseCoversHold(1999, 2000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease must not be shorter")
                .hasMessageContaining("holdAtLeast");
    }

    @Test
    void aTypeAnActionAndAMetricsNameMustBePresent() {
        assertThat(LockArguments.requireType(LockType.REENTRANT)).isEqualTo(LockType.REENTRANT);
        assertThatThrownBy(() -> LockArguments.requireType(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("type must not be null");
        assertThatThrownBy(() -> LockArguments.requireAction(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("action must not be null");
        assertThat(LockArguments.requireMetricsName("payments")).isEqualTo("payments");
        assertThatThrownBy(() -> LockArguments.requireMetricsName(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics name");
        assertThatThrownBy(() -> LockArguments.requireMetricsName(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics name");
    }

    @Test
    void theRegistryRefusesBadKeysAndTypesNamingThem() {
        for (String missing : Arrays.asList(null, "", " \t\n")) {
            assertThatThrownBy(() -> registry.obtain(missing)).as("key %s", missing)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");
        }
        String longest = "k".repeat(LockRegistry.MAX_KEY_LENGTH);
        assertThat(registry.obtain(longest).getLockKey()).isEqualTo(longest);
        assertThatThrownBy(() -> registry.obtain(longest + "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + LockRegistry.MAX_KEY_LENGTH);
        assertThatThrownBy(() -> registry.obtainBlocking(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> registry.obtainBlocking(longest + "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> registry.obtain("typed", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type");
        assertThatThrownBy(() -> registry.obtain(null, LockType.OVERRIDING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");
    }

    @Test
    void aHandleRefusesBadWaitsLeasesAndActionsNamingThem() {
        ReactiveDistributedLock lock = registry.obtain("bad-input");
        Uni<String> action = Uni.createFrom().item("x");

        assertThatThrownBy(() -> lock.acquire(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquire(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofNanos(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofMillis(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquireAndExecute(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("action");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ZERO, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("action");
        assertThatThrownBy(() -> lock.acquireAndExecute(null, action)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ofMillis(-1), action))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ZERO, Duration.ZERO, action))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ZERO, null, Multi.createFrom().item(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.toBlocking().acquireAndExecute(Duration.ZERO, Duration.ofDays(-1), () -> 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("action");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ofMillis(-1), Multi.createFrom().item(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.toBlocking().acquireAndExecute(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("action");
        assertThatThrownBy(() -> lock.toBlocking().acquire(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
        assertThat(lock.fencingToken()).isEmpty();
    }

    @Test
    void aMinimumHoldLongerThanTheLeaseOrNegativeIsRefused() {
        ReactiveDistributedLock lock = registry.obtain("min-hold-refused").withHoldAtLeast(Duration.ofSeconds(2));
        Uni<String> action = Uni.createFrom().item("never");

        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease")
                .hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ZERO, Duration.ofMillis(1999), action))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ZERO, Duration.ofSeconds(1),
                Multi.createFrom().item(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.toBlocking().acquireAndExecute(Duration.ZERO, Duration.ofSeconds(1),
                () -> 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.withHoldAtLeast(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.withHoldAtLeast(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.toBlocking().withHoldAtLeast(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
    }
}
