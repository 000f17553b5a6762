package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A store that lost its data (restarted without persistence, a MongoDB lock collection dropped or rolled back, a
 * counter restored from a backup) issues tokens below those it issued before, against the SPI's "strictly greater
 * than every token issued before". A handle that still has the hold the store lost (a plain acquisition the caller
 * checks with {@code isAcquired()} and acquires again, as a leader loop does) must take the store's new grant, not
 * refuse it as stale for being below that hold's token: else it could not hold the lock again until the store's
 * counter passed the old token, though the lock is free and granted to it each time.
 */
class StoreTokensGoBackTest {

    private final TokenLosingStore store = new TokenLosingStore();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory().decorating((vertx, inMemory) -> store.on(inMemory));

    @Test
    void aHandleWhoseHoldWasLostAcquiresAgainAfterTheStoreLostItsTokens() {
        String key = "tokens-go-back-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();
        long before = lock.fencingToken().orElseThrow();

        store.loseData(key);
        assertThat(await(lock.isAcquired())).as("the store lost the lock").isFalse();
        boolean again = await(lock.acquireOnce());
        assertThat(again).as("the lock is free and granted to the handle again (its hold had token %d, now %s)", before,
                lock.fencingToken()).isTrue();
    }

    /** Tokens above 1000 until {@link #loseData}, then from the in-memory counter again, as after a data loss. */
    private static final class TokenLosingStore {

        private volatile long offset = 1000;
        private volatile InMemoryLockStore inMemory;

        LockStore on(LockStore delegate) {
            inMemory = (InMemoryLockStore) delegate;
            return new ForwardingLockStore(delegate) {

                @Override
                public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
                    return super.tryAcquire(key, owner, leaseMillis, waiting).map(this::shifted);
                }

                @Override
                public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
                    return super.takeOver(key, owner, leaseMillis).map(this::shifted);
                }

                private AcquireResult shifted(AcquireResult result) {
                    return result.acquired() ? AcquireResult.acquired(result.token() + offset) : result;
                }
            };
        }

        void loseData(String key) {
            offset = 0;
            inMemory.remove(key);
        }
    }
}
