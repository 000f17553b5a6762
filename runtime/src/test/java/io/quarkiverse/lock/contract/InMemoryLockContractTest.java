package io.quarkiverse.lock.contract;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.local.LocalLockStates;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.wait.BackoffWaitStrategy;
import io.vertx.core.Vertx;

/**
 * The whole contract on the in-memory store, with a settable clock so expiry needs no sleep.
 */
class InMemoryLockContractTest extends LockContract {

    static final ManualClock CLOCK = new ManualClock();
    static Vertx vertx;
    static InMemoryLockStore store;
    static LockRegistry registry;

    @BeforeAll
    static void createRegistry() {
        vertx = Vertx.vertx();
        store = new InMemoryLockStore(CLOCK);
        registry = new DefaultLockRegistry(store, TestSettings.DEFAULTS, new BackoffWaitStrategy(vertx),
                new LocalLockStates());
    }

    @AfterAll
    static void closeVertx() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Override
    protected LockRegistry registry() {
        return registry;
    }

    @Override
    protected void letLeasesRunOut(Duration lease) {
        CLOCK.advance(lease.plusMillis(1));
    }

    @Override
    protected long storeSize() {
        return store.size();
    }

    /** A clock that moves only when told to. */
    static final class ManualClock implements InstantSource {

        private final AtomicLong millis = new AtomicLong(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());

        void advance(Duration duration) {
            millis.addAndGet(duration.toMillis());
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }

        @Override
        public long millis() {
            return millis.get();
        }
    }

    /** The settings the defaults of the configuration give. */
    static final class TestSettings {

        static final LockSettings DEFAULTS = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(10),
                Duration.ofSeconds(1), "lock:");

        private TestSettings() {
        }
    }
}
