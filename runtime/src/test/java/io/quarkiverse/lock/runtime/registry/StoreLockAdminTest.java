package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.runtime.store.UnreachableStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;

/**
 * The cursors and arguments of {@link StoreLockAdmin}: a cursor it handed out reads the next page, and anything else
 * (blank, made up, cut short, altered, another store's raw cursor) or a limit out of range is refused at once with a
 * message that names what is wrong, before anything reaches the store.
 */
class StoreLockAdminTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void theCursorsItHandsOutReadEveryPageInTurn() {
        InMemoryLockStore store = new InMemoryLockStore(InstantSource.system());
        for (String key : List.of("a", "b", "c")) {
            assertThat(store.tryAcquire(key, "owner-" + key, 60_000, false).await().atMost(TIMEOUT).acquired())
                    .isTrue();
        }
        StoreLockAdmin admin = new StoreLockAdmin(store);

        List<String> keys = new ArrayList<>();
        List<String> cursors = new ArrayList<>();
        String cursor = null;
        do {
            LockPage page = admin.held(cursor, 1).await().atMost(TIMEOUT);
            page.locks().stream().map(HeldLock::key).forEach(keys::add);
            cursor = page.next();
            cursors.add(cursor);
        } while (cursor != null);

        assertThat(keys).containsExactly("a", "b", "c");
        assertThat(cursors.subList(0, cursors.size() - 1)).as("cursors handed out")
                .allSatisfy(handedOut -> assertThat(handedOut).matches("[A-Za-z0-9_-]+").isNotIn("a", "b", "c"));
    }

    @Test
    void aCursorItDidNotHandOutIsRefusedAtOnceNamingIt() {
        UnreachableStore store = new UnreachableStore();
        StoreLockAdmin admin = new StoreLockAdmin(store);
        String handedOut = StoreLockAdmin.wrap("order-17");
        String altered = (handedOut.charAt(0) == 'A' ? "B" : "A") + handedOut.substring(1);

        for (String cursor : List.of("", " ", "order-17", "not a cursor!", handedOut.substring(0, 3), altered,
                "x".repeat(500))) {
            assertThatThrownBy(() -> admin.held(cursor, 10)).as("cursor '%s'", cursor)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cursor '" + cursor.substring(0, Math.min(cursor.length(), 80)))
                    .hasMessageContaining("LockPage.next()");
        }
        assertThat(StoreLockAdmin.unwrap(handedOut)).isEqualTo("order-17");
        assertThat(store.reached()).as("operations that reached the store").isEmpty();
    }

    @Test
    void aLimitOutOfRangeIsRefusedAtOnceNamingIt() {
        UnreachableStore store = new UnreachableStore();
        StoreLockAdmin admin = new StoreLockAdmin(store);

        for (int limit : new int[] { 0, -1, Integer.MIN_VALUE, StoreLockAdmin.MAX_LIMIT + 1 }) {
            assertThatThrownBy(() -> admin.held(null, limit)).as("limit %d", limit)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit")
                    .hasMessageContaining(Integer.toString(limit));
        }
        assertThatThrownBy(() -> admin.forceRelease(" ")).isInstanceOf(InvalidLockKeyException.class);
        assertThat(store.reached()).as("operations that reached the store").isEmpty();
    }
}
