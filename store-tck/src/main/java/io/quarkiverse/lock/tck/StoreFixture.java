package io.quarkiverse.lock.tck;

import java.time.Duration;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.vertx.core.Vertx;

/**
 * The store under test, as every contract sees it. {@link LockStoreTck} implements it: a binding provides only the
 * first methods ({@link #newStore()}, and where it applies {@link #storeIsLocal()}, {@link #letLeasesRunOut} and
 * {@link #deleteLock}); the suite provides the rest.
 */
public interface StoreFixture {

    /**
     * @return a new store object on the backend under test, as one more application instance would open it; the
     *         caller starts and closes it
     */
    LockStore newStore();

    /**
     * @return {@code true} if every instance of the store lives in this JVM and shares its memory (the in-memory
     *         store): it keeps no line of waiters and sends no release notifications, since the registries of one JVM
     *         share their local lines; the contract of lines and notifications is then skipped
     */
    boolean storeIsLocal();

    /**
     * Makes every lease of at most {@code lease}, granted before this call, run out: waits for it on a real server,
     * or advances an injectable clock.
     *
     * @param lease the longest lease to let run out
     */
    void letLeasesRunOut(Duration lease);

    /**
     * Deletes a lock behind its holder's back, as an administrator (or a server losing a key) would.
     *
     * @param key the lock key
     */
    void deleteLock(String key);

    /**
     * @return the Vert.x instance the registries and stores run on
     */
    Vertx vertx();

    /**
     * @return the registry of the suite's own application instance, shared by the tests
     */
    LockRegistry registry();

    /**
     * @return the store of the suite's own application instance, for the contracts of the store SPI
     */
    LockStore store();

    /**
     * @return a store of another application instance on the same backend
     */
    LockStore otherStore();

    /**
     * Prepares another application instance on the store: a registry with a {@link #newStore() new store}, the
     * suite's settings and local state of its own (unless the store {@link #storeIsLocal() is local}), so that only the
     * store connects it with the others. A contract may change its pace of waiting before it starts it; the caller
     * closes it.
     *
     * @return the instance's registry builder, not started yet
     */
    StandaloneLockRegistry.Builder instance();

    /**
     * @return another application instance, started, whose waiting acquisitions poll as in production; the caller
     *         closes it
     */
    default StandaloneLockRegistry startInstance() {
        return instance().start();
    }
}
