package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.MINUTE;
import static io.quarkiverse.lock.tck.TckSupport.SHORT;
import static io.quarkiverse.lock.tck.TckSupport.SHORT_LEASE;
import static io.quarkiverse.lock.tck.TckSupport.acquire;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static io.quarkiverse.lock.tck.TckSupport.owner;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;

/**
 * The store SPI ({@link LockStore}), called directly on two store objects of the backend, as two application
 * instances would: grants and refusals, fencing order, release, renewal, expiry, take-over, forced release and
 * take-back, keys of every shape. Lines of waiters and release notifications are in {@link LockLineContract}.
 */
public interface LockStoreContract extends StoreFixture {

    @Test
    default void aFreeLockIsGrantedWithAPositiveTokenAndRefusedToEveryOtherOwnerWhileHeld() {
        String key = newKey("grant");
        String holder = owner("holder");
        String another = owner("another");

        AcquireResult granted = acquire(store(), key, holder, MINUTE);
        assertThat(granted.acquired()).isTrue();
        assertThat(granted.token()).isPositive();

        AcquireResult refused = acquire(otherStore(), key, another, MINUTE);
        assertThat(refused.acquired()).isFalse();
        assertThat(refused.token()).isZero();
        assertThat(refused.holderRemainingMillis()).as("unknown (-1), or at most the holder's lease")
                .isBetween(-1L, MINUTE);
        assertThat(await(store().isHeld(key, holder))).isTrue();
        assertThat(await(otherStore().isHeld(key, holder))).as("seen from another instance").isTrue();
        assertThat(await(store().isHeld(key, another))).isFalse();
        assertThat(await(store().release(key, holder))).isTrue();
        assertThat(acquire(otherStore(), key, another, MINUTE).acquired()).as("free again").isTrue();
        assertThat(await(otherStore().release(key, another))).isTrue();
    }

    @Test
    default void aWaitingAttemptOnAFreeLockNobodyWaitsForIsGrantedAtOnce() {
        String key = newKey("waiting-free");
        String waiter = owner("waiter");
        AcquireResult granted = await(store().tryAcquire(key, waiter, MINUTE, true));
        assertThat(granted.acquired()).isTrue();
        assertThat(await(otherStore().isHeld(key, waiter))).isTrue();
        assertThat(await(otherStore().release(key, waiter))).as("released from another instance").isTrue();
        assertThat(await(store().isHeld(key, waiter))).isFalse();
    }

    @Test
    default void onlyTheHolderReleasesTheLockAndOnlyOnce() {
        String key = newKey("release");
        String holder = owner("holder");
        assertThat(acquire(store(), key, holder, MINUTE).acquired()).isTrue();

        assertThat(await(otherStore().release(key, owner("another")))).isFalse();
        assertThat(await(store().isHeld(key, holder))).as("a release by another owner leaves it held").isTrue();
        assertThat(await(otherStore().release(key, holder))).isTrue();
        assertThat(await(store().release(key, holder))).as("nothing left to release").isFalse();
        assertThat(await(store().release(newKey("never-locked"), holder))).isFalse();
        assertThat(acquire(store(), key, owner("next"), MINUTE).acquired()).isTrue();
    }

    @Test
    default void aLeaseThatRanOutFreesTheLockWhichItsHolderCanThenNeitherReleaseNorRenew() {
        String key = newKey("expiry");
        String holder = owner("holder");
        assertThat(acquire(store(), key, holder, SHORT).acquired()).isTrue();

        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(store().isHeld(key, holder))).isFalse();
        assertThat(await(store().release(key, holder))).isFalse();
        assertThat(await(store().renew(key, holder, MINUTE))).isFalse();
        String next = owner("next");
        assertThat(acquire(otherStore(), key, next, MINUTE).acquired()).isTrue();
        assertThat(await(store().isHeld(key, holder))).isFalse();
        assertThat(await(otherStore().release(key, next))).isTrue();
    }

    @Test
    default void onlyTheHolderCanRenewItsLeaseAndOnlyWhileItHoldsTheLock() {
        String key = newKey("renew");
        String holder = owner("holder");
        String another = owner("another");
        assertThat(acquire(store(), key, holder, SHORT).acquired()).isTrue();

        assertThat(await(store().renew(key, another, MINUTE))).isFalse();
        assertThat(await(otherStore().renew(key, holder, MINUTE))).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(store().isHeld(key, holder))).as("the renewed lease outlives the first one").isTrue();
        assertThat(acquire(store(), key, another, SHORT).acquired()).isFalse();

        assertThat(await(store().renew(key, holder, SHORT))).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(store().renew(key, holder, MINUTE))).as("a lease that ran out cannot be renewed").isFalse();
        assertThat(await(store().isHeld(key, holder))).isFalse();
        assertThat(acquire(store(), key, another, SHORT).acquired()).isTrue();
    }

    @Test
    default void aLockAcquiredOrRenewedWithoutExpiryOutlivesEveryLeaseUntilReleased() {
        String forever = newKey("forever");
        String holder = owner("holder");
        assertThat(acquire(store(), forever, holder, LockStore.NO_EXPIRY).acquired()).isTrue();
        String renewed = newKey("renewed-forever");
        assertThat(acquire(store(), renewed, holder, SHORT).acquired()).isTrue();
        assertThat(await(store().renew(renewed, holder, LockStore.NO_EXPIRY))).isTrue();

        letLeasesRunOut(SHORT_LEASE);

        for (String key : List.of(forever, renewed)) {
            assertThat(await(otherStore().isHeld(key, holder))).as(key).isTrue();
            assertThat(acquire(otherStore(), key, owner("another"), MINUTE).acquired()).as(key).isFalse();
        }
        assertThat(await(store().renew(renewed, holder, SHORT))).as("a lease again").isTrue();
        assertThat(await(store().release(forever, holder))).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(store().isHeld(renewed, holder))).isFalse();
        assertThat(acquire(otherStore(), forever, owner("next"), MINUTE).acquired()).isTrue();
    }

    @Test
    default void fencingTokensRiseAcrossReleasesExpiriesTakeOversForcedReleasesAndInstances() {
        String key = newKey("fencing");
        List<Long> tokens = new ArrayList<>();
        String first = owner("first");
        tokens.add(acquire(store(), key, first, MINUTE).token());
        assertThat(await(store().release(key, first))).isTrue();
        tokens.add(acquire(otherStore(), key, owner("expiring"), SHORT).token());
        letLeasesRunOut(SHORT_LEASE);
        tokens.add(acquire(store(), key, owner("forever"), LockStore.NO_EXPIRY).token());
        tokens.add(await(otherStore().takeOver(key, owner("admin"), MINUTE)).token());
        assertThat(await(store().forceRelease(key))).isTrue();
        String last = owner("last");
        tokens.add(await(otherStore().tryAcquire(key, last, MINUTE, true)).token());
        assertThat(await(otherStore().release(key, last))).isTrue();

        assertThat(tokens).hasSize(5).allSatisfy(token -> assertThat(token).isPositive())
                .isSorted().doesNotHaveDuplicates();
    }

    @Test
    default void aTakeOverGivesTheLockToItsNewOwnerWhoeverHoldsIt() {
        String key = newKey("take-over");
        String holder = owner("holder");
        long holderToken = acquire(store(), key, holder, LockStore.NO_EXPIRY).token();
        String admin = owner("admin");

        AcquireResult taken = await(otherStore().takeOver(key, admin, MINUTE));

        assertThat(taken.acquired()).isTrue();
        assertThat(taken.token()).isGreaterThan(holderToken);
        assertThat(await(store().isHeld(key, admin))).isTrue();
        assertThat(await(store().isHeld(key, holder))).isFalse();
        assertThat(await(store().renew(key, holder, MINUTE))).as("the previous holder lost it").isFalse();
        assertThat(await(store().release(key, holder))).isFalse();
        assertThat(acquire(store(), key, owner("another"), MINUTE).acquired()).isFalse();
        assertThat(await(otherStore().release(key, admin))).isTrue();

        String free = newKey("take-over-free");
        assertThat(await(store().takeOver(free, admin, SHORT)).acquired()).as("a free lock too").isTrue();
        assertThat(await(otherStore().isHeld(free, admin))).isTrue();
        assertThat(await(store().release(free, admin))).isTrue();
    }

    @Test
    default void aForcedReleaseFreesTheLockWhoeverHoldsItAndReportsWhetherAnyoneDid() {
        String key = newKey("force-release");
        String holder = owner("holder");
        assertThat(acquire(store(), key, holder, LockStore.NO_EXPIRY).acquired()).isTrue();

        assertThat(await(otherStore().forceRelease(key))).isTrue();

        assertThat(await(store().isHeld(key, holder))).isFalse();
        assertThat(await(store().release(key, holder))).isFalse();
        assertThat(await(otherStore().forceRelease(key))).as("nobody holds it now").isFalse();
        assertThat(await(store().forceRelease(newKey("never-locked")))).isFalse();
        String next = owner("next");
        assertThat(acquire(store(), key, next, SHORT).acquired()).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(otherStore().forceRelease(key))).as("a lease that ran out is not held").isFalse();
    }

    @Test
    default void aTakeBackReleasesAHoldWhoseCallerNeverSawItAndIsIdempotent() {
        String key = newKey("take-back");
        String unaware = owner("unaware");
        assertThat(acquire(store(), key, unaware, MINUTE).acquired()).isTrue();

        assertThat(await(otherStore().takeBack(key, unaware))).isTrue();

        assertThat(await(store().isHeld(key, unaware))).isFalse();
        assertThat(await(store().takeBack(key, unaware))).as("already taken back").isFalse();
        String next = owner("next");
        assertThat(acquire(otherStore(), key, next, MINUTE).acquired()).isTrue();
        assertThat(await(otherStore().release(key, next))).isTrue();
    }

    @Test
    default void aTakeBackNeverFreesTheHoldOfAnotherAcquisition() {
        String key = newKey("take-back-other");
        String holder = owner("holder");
        assertThat(acquire(store(), key, holder, MINUTE).acquired()).isTrue();

        assertThat(await(otherStore().takeBack(key, owner("never-seen")))).isFalse();
        assertThat(await(store().takeBack(newKey("never-locked"), holder))).isFalse();

        assertThat(await(otherStore().isHeld(key, holder))).isTrue();
        assertThat(await(store().release(key, holder))).isTrue();
    }

    @Test
    default void expiredLocksAreFreeAndLiveOnesKept() {
        String live = newKey("evict-live");
        String expired = newKey("evict-expired");
        String holder = owner("holder");
        assertThat(acquire(store(), live, holder, MINUTE).acquired()).isTrue();
        long expiredToken = acquire(store(), expired, holder, SHORT).token();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(otherStore().isHeld(live, holder))).isTrue();
        assertThat(await(store().isHeld(expired, holder))).isFalse();
        assertThat(acquire(otherStore(), expired, owner("next"), MINUTE).token()).isGreaterThan(expiredToken);
        assertThat(await(store().release(live, holder))).isTrue();
    }

    @Test
    default void theStoreNamesItselfAndAnswersItsPing() {
        assertThat(store().name()).isNotBlank();
        await(store().ping());
        await(otherStore().ping());
    }

    @Test
    default void theLongestKeyAllowedLocksLikeAnyOtherAndDiffersFromItsNeighbours() {
        String longest = UUID.randomUUID() + "x".repeat(LockRegistry.MAX_KEY_LENGTH - 37);
        assertThat(longest + "a").hasSize(LockRegistry.MAX_KEY_LENGTH);
        assertKeyLocksAlone(longest + "a", longest + "b");
        assertKeyLocksAlone("}" + longest, "{" + longest);
    }

    @ParameterizedTest
    @ValueSource(strings = { "unicode-日本語-🔒", "{braces}", "}leading", "trailing{", "a}b{c", "{}", "lua'\"\\--[[x]]",
            "KEYS[1]", "$dollar", "$where", "dotted.name.key", ".leading-dot", "key with spaces", "line\nbreak",
            "tab\tkey", "%s%d%n", "*?[glob]", "lock:released", "🔒" })
    default void hostileButValidKeysLockExactlyLikeAnyOther(String hostile) {
        String key = hostile + "-" + UUID.randomUUID();
        assertKeyLocksAlone(key, hostile + "-neighbour-" + UUID.randomUUID());
        assertKeyLocksAlone(hostile, hostile + "x");
    }

    /** A lock on {@code key} is one lock whichever instance asks, and another key's lock is another lock. */
    private void assertKeyLocksAlone(String key, String neighbour) {
        String holder = owner("holder");
        String another = owner("another");
        await(store().forceRelease(key));
        await(store().forceRelease(neighbour));

        long token = acquire(store(), key, holder, MINUTE).token();
        assertThat(token).as("acquired").isPositive();
        assertThat(acquire(otherStore(), key, another, MINUTE).acquired()).isFalse();
        assertThat(acquire(otherStore(), neighbour, another, MINUTE).acquired())
                .as("a different key is a different lock").isTrue();
        assertThat(await(otherStore().isHeld(key, holder))).isTrue();
        assertThat(await(otherStore().renew(key, holder, MINUTE))).isTrue();
        assertThat(await(otherStore().release(key, holder))).isTrue();
        assertThat(await(store().isHeld(neighbour, another))).as("its neighbour is still held").isTrue();
        assertThat(acquire(store(), key, another, MINUTE).token()).isGreaterThan(token);
        assertThat(await(store().forceRelease(key))).isTrue();
        assertThat(await(store().release(neighbour, another))).isTrue();
    }
}
