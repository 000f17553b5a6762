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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;

/**
 * Listing the held locks ({@link LockStore#listHeld}), as the Dev UI and an administrator see them: each held lock
 * with its owner, token and lease left, from any instance; released and expired locks never; every lock once across
 * bounded pages; and only the locks under the store's key prefix. The same through {@link LockAdmin}, with its own
 * cursors, and its forced release of a lock another instance holds.
 */
public interface LockListingContract extends StoreFixture {

    /** A key prefix no other store of the suite uses, and that neither starts nor ends the suite's own. */
    String OTHER_PREFIX = "elsewhere:";

    /** More pages than any listing of the suite needs: a listing that reads them never ends. */
    int MOST_PAGES = 100_000;

    /**
     * Opens a store on the backend under test as {@link #newStore()} does, but with another key prefix; the caller
     * starts and closes it.
     *
     * @param keyPrefix the store's key prefix
     * @return the store
     */
    LockStore newStoreWithKeyPrefix(String keyPrefix);

    @Test
    default void aHeldLockIsListedFromEveryInstanceWithItsOwnerTokenLeaseLeftAndLine() {
        String leased = newKey("listed-leased");
        String forever = newKey("listed-forever");
        String holder = owner("holder");
        long token = acquire(store(), leased, holder, MINUTE).token();
        long foreverToken = acquire(store(), forever, holder, LockStore.NO_EXPIRY).token();
        String waiter = owner("waiter");
        if (!storeIsLocal()) {
            assertThat(await(otherStore().tryAcquire(leased, waiter, MINUTE, true)).acquired()).isFalse();
        }

        Map<String, HeldLock> listed = listAll(otherStore(), 100);

        assertThat(listed).containsKeys(leased, forever);
        HeldLock lock = listed.get(leased);
        assertThat(lock.owner()).isEqualTo(holder);
        assertThat(lock.token()).isEqualTo(token);
        assertThat(lock.leaseLeftMillis()).isBetween(1L, MINUTE);
        assertThat(lock.heldUntilReleased()).isFalse();
        assertThat(lock.waiters()).as("the store's line").isEqualTo(storeIsLocal() ? HeldLock.NO_LINE : 1);
        assertThat(listed.get(forever).token()).isEqualTo(foreverToken);
        assertThat(listed.get(forever).heldUntilReleased()).isTrue();
        if (!storeIsLocal()) {
            await(otherStore().takeBack(leased, waiter));
        }
        assertThat(await(store().release(leased, holder))).isTrue();
        assertThat(await(store().release(forever, holder))).isTrue();
    }

    @Test
    default void releasedExpiredAndForcedFreeLocksAreNotListed() {
        String released = newKey("unlisted-released");
        String expired = newKey("unlisted-expired");
        String forced = newKey("unlisted-forced");
        String holder = owner("holder");
        acquire(store(), released, holder, MINUTE);
        acquire(store(), expired, holder, SHORT);
        acquire(store(), forced, holder, MINUTE);

        assertThat(await(store().release(released, holder))).isTrue();
        assertThat(await(otherStore().forceRelease(forced))).isTrue();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(listAll(otherStore(), 100)).doesNotContainKeys(released, expired, forced);
    }

    @Test
    default void pagesOfAFewLocksListEveryHeldLockExactlyOnce() {
        String holder = owner("holder");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String key = newKey("paged-" + i);
            acquire(store(), key, holder, MINUTE);
            keys.add(key);
        }

        Map<String, Integer> times = new HashMap<>();
        int pages = 0;
        String cursor = null;
        do {
            LockPage page = await(otherStore().listHeld(cursor, 3));
            assertThat(page.locks()).as("page %d", pages).hasSizeLessThanOrEqualTo(3);
            for (HeldLock lock : page.locks()) {
                times.merge(lock.key(), 1, Integer::sum);
            }
            cursor = page.next();
            pages++;
            assertThat(pages).as("pages read, the listing must end").isLessThan(MOST_PAGES);
        } while (cursor != null);

        assertThat(pages).as("pages of at most 3 locks").isGreaterThan(2);
        for (String key : keys) {
            assertThat(times.get(key)).as("times %s was listed", key).isEqualTo(1);
            assertThat(await(store().release(key, holder))).isTrue();
        }
    }

    @Test
    default void onlyTheLocksUnderTheStoresKeyPrefixAreListed() {
        String ours = newKey("prefix-ours");
        String theirs = newKey("prefix-theirs");
        String holder = owner("holder");
        LockStore elsewhere = newStoreWithKeyPrefix(OTHER_PREFIX);
        elsewhere.start();
        try {
            acquire(store(), ours, holder, MINUTE);
            acquire(elsewhere, theirs, holder, MINUTE);

            assertThat(listAll(otherStore(), 100)).containsKey(ours).doesNotContainKey(theirs)
                    .allSatisfy((key, lock) -> assertThat(key).doesNotStartWith(OTHER_PREFIX));
            assertThat(listAll(elsewhere, 100)).containsKey(theirs).doesNotContainKey(ours);

            assertThat(await(elsewhere.release(theirs, holder))).isTrue();
            assertThat(await(store().release(ours, holder))).isTrue();
        } finally {
            elsewhere.close();
        }
    }

    @Test
    default void anAdministratorPagesThroughEveryInstancesLocksWithItsOwnCursors() {
        List<ReactiveDistributedLock> holders = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ReactiveDistributedLock lock = registry().obtain(newKey("admin-paged-" + i));
            assertThat(await(lock.acquireOnce())).isTrue();
            holders.add(lock);
        }
        try (StandaloneLockRegistry administrator = startInstance()) {
            Map<String, HeldLock> listed = new HashMap<>();
            int pages = 0;
            String cursor = null;
            do {
                LockPage page = await(administrator.admin().held(cursor, 2));
                assertThat(page.locks()).as("page %d", pages).hasSizeLessThanOrEqualTo(2);
                for (HeldLock lock : page.locks()) {
                    assertThat(listed.put(lock.key(), lock)).as("%s listed once", lock.key()).isNull();
                }
                cursor = page.next();
                assertThat(++pages).as("pages read, the listing must end").isLessThan(MOST_PAGES);
            } while (cursor != null);

            for (ReactiveDistributedLock lock : holders) {
                assertThat(listed).containsKey(lock.getLockKey());
                assertThat(listed.get(lock.getLockKey()).token()).isEqualTo(lock.fencingToken().getAsLong());
            }
        } finally {
            for (ReactiveDistributedLock lock : holders) {
                assertThat(await(lock.release())).isTrue();
            }
        }
    }

    @Test
    default void anAdministratorForcesFreeALockAnotherInstanceHolds() {
        String key = newKey("admin-forced");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
        try (StandaloneLockRegistry administrator = startInstance()) {
            LockAdmin admin = administrator.admin();

            assertThat(await(admin.forceRelease(key))).as("forced free while held").isTrue();
            assertThat(await(admin.forceRelease(key))).as("forced free when free already").isFalse();

            assertThat(await(holder.isAcquired())).as("held by its former holder").isFalse();
            assertThat(listAll(otherStore(), 100)).doesNotContainKey(key);
            ReactiveDistributedLock next = administrator.obtain(key);
            assertThat(await(next.acquireOnce())).as("acquired by another instance after").isTrue();
            assertThat(await(next.release())).isTrue();
        }
    }

    /**
     * Follows the cursors of {@code store} from the first page to the last.
     *
     * @return every listed lock by its key; fails if a key is listed twice
     */
    private static Map<String, HeldLock> listAll(LockStore store, int limit) {
        Map<String, HeldLock> listed = new HashMap<>();
        String cursor = null;
        int pages = 0;
        do {
            LockPage page = await(store.listHeld(cursor, limit));
            assertThat(++pages).as("pages read, the listing must end").isLessThan(MOST_PAGES);
            for (HeldLock lock : page.locks()) {
                assertThat(listed.put(lock.key(), lock)).as("%s listed once", lock.key()).isNull();
            }
            cursor = page.next();
        } while (cursor != null);
        return listed;
    }
}
