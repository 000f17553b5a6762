package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.SHORT_LEASE;
import static io.quarkiverse.lock.tck.TckSupport.acquired;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static io.quarkiverse.lock.tck.TckSupport.sleep;
import static io.quarkiverse.lock.tck.TckSupport.sleepUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;

/**
 * Extending a hold on demand ({@code extend(lease)}): the lease becomes the new one from now while the acquisition
 * holds the lock, an extension of a hold that is over answers {@code false} and changes nothing, a minimum hold still
 * counts from the acquisition, renewal goes on with the new lease (a hold acquired forever is renewed from its
 * extension on when its handle renews), the longest lease holds, and a bad lease is refused at the call.
 */
public interface LockExtensionContract extends StoreFixture {

    /** A lease far longer than the test, so that only an extension explains a lock still held. */
    Duration MINUTE = Duration.ofMinutes(1);
    /** The longest lease an extension may ask for: 100 years. */
    Duration LONGEST = Duration.ofDays(36_500);

    @Test
    default void anExtendedHoldKeepsTheLockPastItsOldLeaseWhileAnotherHandleStaysRefused() {
        String key = newKey("extended");
        ReactiveDistributedLock holder = acquired(registry(), key, SHORT_LEASE);
        ReactiveDistributedLock other = registry().obtain(key);

        assertThat(await(holder.extend(MINUTE))).isTrue();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(other.acquireOnce())).as("past the lease of the acquisition").isFalse();
        assertThat(await(holder.isAcquired())).isTrue();
        assertThat(await(holder.release())).isTrue();
        assertThat(await(other.acquireOnce())).isTrue();
        assertThat(await(other.release())).isTrue();
    }

    @Test
    default void theBlockingViewExtendsTheHoldOfItsHandle() {
        String key = newKey("extended-blocking");
        DistributedLock holder = registry().obtainBlocking(key);
        assertThat(holder.acquire(Duration.ZERO, SHORT_LEASE)).isTrue();

        assertThat(holder.extend(MINUTE)).isTrue();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(registry().obtainBlocking(key).acquireOnce()).as("past the lease of the acquisition").isFalse();
        assertThat(holder.release()).isTrue();
        assertThat(holder.extend(MINUTE)).as("after its release").isFalse();
    }

    @Test
    default void anExtensionOnceTheLeaseRanOutAnswersFalseAndLeavesTheLockFree() {
        String key = newKey("extend-expired");
        ReactiveDistributedLock holder = acquired(registry(), key, SHORT_LEASE);
        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(holder.extend(MINUTE))).isFalse();

        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquire(Duration.ZERO, MINUTE))).as("not held again by the extension").isTrue();
        assertThat(await(holder.extend(SHORT_LEASE))).isFalse();
        assertThatThrownBy(() -> await(holder.release())).isInstanceOf(LockExpiredException.class);
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(next.isAcquired())).as("the next holder's lease is its own").isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    default void anExtensionAfterTheReleaseAnswersFalseAndLeavesTheNextHoldersLeaseAlone() {
        String key = newKey("extend-released");
        // a lease long enough that the release always comes before its end, on a loaded machine too
        ReactiveDistributedLock holder = acquired(registry(), key, MINUTE);
        assertThat(await(holder.release())).isTrue();

        assertThat(await(holder.extend(MINUTE))).isFalse();
        assertThat(holder.fencingToken()).isEmpty();

        ReactiveDistributedLock next = acquired(registry(), key, SHORT_LEASE);
        assertThat(await(holder.extend(MINUTE))).as("another handle holds it").isFalse();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(next.isAcquired())).as("the next holder's lease ran out as it was").isFalse();
        ReactiveDistributedLock last = registry().obtain(key);
        assertThat(await(last.acquireOnce())).isTrue();
        assertThat(await(last.release())).isTrue();
    }

    @Test
    default void anExtensionOfAHoldTakenOverAnswersFalseAndLeavesTheNewHolderAlone() {
        String key = newKey("extend-taken-over");
        ReactiveDistributedLock holder = acquired(registry(), key, MINUTE);
        ReactiveDistributedLock admin = registry().obtain(key, LockType.OVERRIDING);
        assertThat(await(admin.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();

        assertThat(await(holder.extend(MINUTE))).isFalse();

        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(admin.isAcquired())).as("the new holder's lease ran out as it was").isFalse();
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    default void aReentrantHoldIsExtendedAsAWholeWhicheverEntryAsks() {
        String key = newKey("extend-reentrant");
        ReactiveDistributedLock holder = registry().obtain(key, LockType.REENTRANT);
        assertThat(await(holder.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();
        assertThat(await(holder.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();

        assertThat(await(holder.extend(MINUTE))).isTrue();
        assertThat(await(holder.release())).as("the inner entry").isTrue();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(registry().obtain(key).acquireOnce())).as("the outer entry's hold, extended").isFalse();
        assertThat(await(holder.release())).as("the outer entry").isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    default void anExtensionNeverEndsTheHoldBeforeItsMinimumHoldAndAReleaseStillKeepsItUntilThen() {
        String key = newKey("extend-min-hold");
        ReactiveDistributedLock holder = registry().obtain(key).withHoldAtLeast(Duration.ofSeconds(2));
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofSeconds(5)))).isTrue();
        long acquiredAt = System.nanoTime();

        assertThat(await(holder.extend(SHORT_LEASE))).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(registry().obtain(key).acquireOnce())).as("past the short lease, within the minimum hold")
                .isFalse();
        assertThat(await(holder.release())).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("released within the minimum hold").isFalse();

        sleepUntil(acquiredAt + Duration.ofMillis(2500).toNanos());
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).as("after the minimum hold").isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    default void aRenewedHoldExtendedToAShortLeaseStillOutlivesItsHoldersDeathUntilTheMinimumHoldEnds() {
        String key = newKey("extend-min-hold-crash");
        StandaloneLockRegistry dying = startInstance();
        ReactiveDistributedLock holder = dying.obtain(key).withHoldAtLeast(Duration.ofSeconds(2))
                .withLeaseRenewal(true);
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofSeconds(5)))).isTrue();
        long acquiredAt = System.nanoTime();
        assertThat(await(holder.extend(SHORT_LEASE))).isTrue();
        sleep(SHORT_LEASE.multipliedBy(2));

        dying.close();

        sleepUntil(acquiredAt + Duration.ofMillis(1200).toNanos());
        assertThat(await(registry().obtain(key).acquireOnce())).as("its holder died, within the minimum hold")
                .isFalse();
        sleepUntil(acquiredAt + Duration.ofMillis(2500).toNanos());
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).as("after the minimum hold").isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    default void renewalGoesOnWithTheExtendedLease() {
        String key = newKey("extend-renewed");
        Duration extended = Duration.ofSeconds(1);
        StandaloneLockRegistry dying = startInstance();
        ReactiveDistributedLock holder = dying.obtain(key).withLeaseRenewal(true);
        assertThat(await(holder.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();

        assertThat(await(holder.extend(extended))).isTrue();
        sleep(extended.multipliedBy(3).dividedBy(2));
        assertThat(await(registry().obtain(key).acquireOnce())).as("renewed past the extended lease").isFalse();
        assertThat(await(holder.isAcquired())).isTrue();

        dying.close();
        long closedAt = System.nanoTime();
        sleepUntil(closedAt + SHORT_LEASE.multipliedBy(2).toNanos());
        assertThat(await(registry().obtain(key).acquireOnce())).as("its last renewal set the extended lease")
                .isFalse();
        sleepUntil(closedAt + extended.plusMillis(300).toNanos());
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).as("within one extended lease of the last renewal").isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    default void aHoldExtendedToTheLongestLeaseKeepsTheLock() {
        String key = newKey("extend-longest");
        ReactiveDistributedLock holder = acquired(registry(), key, SHORT_LEASE);

        assertThat(await(holder.extend(LONGEST))).isTrue();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(registry().obtain(key).acquireOnce())).as("another handle, under a 100-year lease").isFalse();
        assertThat(await(holder.isAcquired())).isTrue();
        assertThat(await(holder.release())).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("free once released").isTrue();
    }

    @Test
    default void aHoldAcquiredForeverAndExtendedEndsWithItsLeaseUnlessItsHandleRenews() {
        String unrenewed = newKey("extend-forever");
        ReactiveDistributedLock holder = registry().obtain(unrenewed);
        assertThat(await(holder.acquireForever())).isTrue();
        String renewedKey = newKey("extend-forever-renewed");
        ReactiveDistributedLock renewed = registry().obtain(renewedKey).withLeaseRenewal(true);
        assertThat(await(renewed.acquireForever())).isTrue();

        assertThat(await(holder.extend(SHORT_LEASE))).isTrue();
        assertThat(await(renewed.extend(SHORT_LEASE))).isTrue();
        sleep(SHORT_LEASE.multipliedBy(3));

        assertThat(await(holder.isAcquired())).as("without renewal: its new lease ran out").isFalse();
        ReactiveDistributedLock next = registry().obtain(unrenewed);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(await(next.release())).isTrue();
        assertThat(await(renewed.isAcquired())).as("renewed from the extension on").isTrue();
        assertThat(await(registry().obtain(renewedKey).acquireOnce())).as("another handle").isFalse();
        assertThat(await(renewed.release())).isTrue();
        assertThat(await(registry().obtain(renewedKey).acquireOnce())).as("free once released").isTrue();
    }

    @Test
    default void aLeaseThatIsNotPositiveOrTooLongIsRefusedAtTheCallAndTheHoldKeepsItsLease() {
        String key = newKey("extend-refused");
        ReactiveDistributedLock holder = acquired(registry(), key, SHORT_LEASE);

        assertThatThrownBy(() -> holder.extend(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
        assertThatThrownBy(() -> holder.extend(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
        assertThatThrownBy(() -> holder.extend(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
        assertThatThrownBy(() -> holder.extend(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> holder.extend(Duration.ofMillis(Long.MAX_VALUE)))
                .as("a lease that counts in milliseconds, but whose end from now would overflow")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> holder.extend(LONGEST.plusMillis(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease must be at most 36500 days");
        assertThatThrownBy(() -> holder.toBlocking().extend(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");

        letLeasesRunOut(SHORT_LEASE);
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).as("the lease of the acquisition, unchanged").isTrue();
        assertThat(await(next.release())).isTrue();
    }
}
