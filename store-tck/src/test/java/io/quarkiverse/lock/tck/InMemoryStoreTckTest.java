package io.quarkiverse.lock.tck;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.spi.LockStore;

/**
 * The whole suite on the in-memory store: every instance is in this JVM, so they share one store object. Its clock
 * follows real time plus an offset the tests move, so expiry needs no sleep while renewal still runs in real time.
 */
class InMemoryStoreTckTest extends LockStoreTck {

    private final SkippableClock clock = new SkippableClock();
    private final InMemoryLockStore store = new InMemoryLockStore(clock);

    @Override
    public LockStore newStore() {
        return store;
    }

    @Override
    public LockStore newStoreWithKeyPrefix(String keyPrefix) {
        return new InMemoryLockStore(clock);
    }

    @Override
    public boolean storeIsLocal() {
        return true;
    }

    @Override
    public void letLeasesRunOut(Duration lease) {
        clock.skip(lease.plusMillis(1));
    }

    @Override
    public void deleteLock(String key) {
        store.remove(key);
    }

    /** Real time, plus whatever the tests skipped ahead. */
    static final class SkippableClock implements InstantSource {

        private final AtomicLong skippedMillis = new AtomicLong();

        void skip(Duration duration) {
            skippedMillis.addAndGet(duration.toMillis());
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + skippedMillis.get();
        }
    }
}
