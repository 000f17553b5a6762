package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.InvalidLockKeyException;
import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The {@link LockAdmin} bean an application injects: it lists every held lock with its holder's token across pages,
 * frees a lock whoever holds it, and refuses bad arguments at once with a message that names them.
 */
class LockAdminTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory();

    @Inject
    LockAdmin admin;

    @Inject
    LockRegistry registry;

    @Test
    void everyHeldLockIsListedOnceAcrossPagesWithItsHoldersToken() {
        Map<String, ReactiveDistributedLock> holders = new HashMap<>();
        for (int i = 0; i < 5; i++) {
            ReactiveDistributedLock lock = registry.obtain("admin-listed-" + i);
            assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
            holders.put(lock.getLockKey(), lock);
        }
        ReactiveDistributedLock released = registry.obtain("admin-released");
        assertThat(released.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(released.release().await().atMost(TIMEOUT)).isTrue();

        Map<String, HeldLock> listed = new HashMap<>();
        int pages = 0;
        String cursor = null;
        do {
            LockPage page = admin.held(cursor, 2).await().atMost(TIMEOUT);
            assertThat(page.locks()).hasSizeLessThanOrEqualTo(2);
            page.locks().forEach(lock -> assertThat(listed.put(lock.key(), lock)).as("listed once").isNull());
            cursor = page.next();
            pages++;
        } while (cursor != null);

        assertThat(pages).isGreaterThanOrEqualTo(3);
        assertThat(listed).doesNotContainKey("admin-released");
        holders.forEach((key, lock) -> {
            assertThat(listed).containsKey(key);
            assertThat(listed.get(key).token()).isEqualTo(lock.fencingToken().getAsLong());
            assertThat(listed.get(key).leaseLeftMillis()).isBetween(1L, Duration.ofSeconds(10).toMillis());
            assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        });
    }

    @Test
    void aForcedReleaseFreesTheLockForAnotherHandleAndSaysWhetherItWasHeld() {
        ReactiveDistributedLock holder = registry.obtain("admin-forced");
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThat(admin.forceRelease("admin-forced").await().atMost(TIMEOUT)).isTrue();
        assertThat(admin.forceRelease("admin-forced").await().atMost(TIMEOUT)).as("free already").isFalse();

        assertThat(holder.isAcquired().await().atMost(TIMEOUT)).isFalse();
        assertThat(registry.obtain("admin-forced").acquireOnce().await().atMost(TIMEOUT)).isTrue();
    }

    @Test
    void badArgumentsAreRefusedAtOnceNamingWhatIsWrong() {
        assertThatThrownBy(() -> admin.held(null, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit").hasMessageContaining("0");
        assertThatThrownBy(() -> admin.held(null, LockAdmin.MAX_LIMIT + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1001");
        assertThatThrownBy(() -> admin.held(" ", 10)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cursor");
        assertThatThrownBy(() -> admin.forceRelease(" ")).isInstanceOf(InvalidLockKeyException.class);
        assertThatThrownBy(() -> admin.forceRelease(null)).isInstanceOf(InvalidLockKeyException.class);
    }
}
