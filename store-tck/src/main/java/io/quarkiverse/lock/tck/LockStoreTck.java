package io.quarkiverse.lock.tck;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.SharedLocalState;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.vertx.core.Vertx;

/**
 * The whole contract suite for one store: a store's test class extends this class and returns a new store from
 * {@link #newStore()}, and every contract runs as tests of that class. See the package documentation for an example.
 * <p>
 * The suite runs without a Quarkus application: it builds its registries itself ({@link #instance()}, through the
 * SPI's {@link StandaloneLockRegistry}), on a Vert.x
 * instance of its own ({@link #vertx()}, there from construction on), with the {@link #settings() settings} a store
 * should use too (key prefix, operation timeout). One test instance runs every test of the class, so a binding may
 * open its client in a field; {@link #closeBackend()} closes it after the suite closed its registries and stores.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class LockStoreTck implements LockStoreContract, LockLineContract,
        LockApiContract, LockWaitingContract, LockExecutionContract, LockLeaseContract, LockExtensionContract,
        MigrationContract, LockListingContract, LeadershipContract {

    private static final LockRegistrySettings SETTINGS = new LockRegistrySettings(Duration.ofSeconds(10),
            Duration.ofSeconds(10), Duration.ofSeconds(1), "lock:", false, Duration.ofSeconds(5));

    /** The local lines every instance of a {@link #storeIsLocal() local} store shares, as one application's do. */
    private final SharedLocalState sharedState = new SharedLocalState();
    private final Vertx vertx = Vertx.vertx();
    private StandaloneLockRegistry registry;
    private LockStore store;
    private LockStore otherStore;

    /**
     * Opens a store on the backend under test, as one more application instance would: a store object of its own on
     * the same server (and, for a store whose instances share one JVM, the same store object). Whoever calls it
     * starts and closes the store; closing it need not close the client it uses, which {@link #closeBackend()} can.
     */
    @Override
    public abstract LockStore newStore();

    /**
     * Opens a store as {@link #newStore()} does, with another key prefix: for a store whose every instance is in this
     * JVM, a store object of its own.
     */
    @Override
    public abstract LockStore newStoreWithKeyPrefix(String keyPrefix);

    /**
     * @return {@code false} (this default) for a store reached over a network, which must keep a line of waiters and
     *         notify releases; {@code true} for a store whose every instance is in this JVM
     */
    @Override
    public boolean storeIsLocal() {
        return false;
    }

    /**
     * Waits for the lease and 100 ms more (this default); a store with an injectable clock advances it instead.
     */
    @Override
    public void letLeasesRunOut(Duration lease) {
        TckSupport.sleep(lease.plusMillis(100));
    }

    /**
     * Frees the lock with {@link LockStore#forceRelease(String)} (this default); a binding that can delete the
     * lock's entry on the server directly should do that instead.
     */
    @Override
    public void deleteLock(String key) {
        TckSupport.await(otherStore.forceRelease(key));
    }

    /**
     * Closes what {@link #newStore()} used that closing a store does not close, such as a client; called once the
     * suite closed every registry and store it opened. Does nothing by default.
     */
    protected void closeBackend() {
    }

    /**
     * @return the settings the suite's registries run with; a store should use their key prefix and operation timeout
     */
    protected final LockRegistrySettings settings() {
        return SETTINGS;
    }

    @Override
    public final Vertx vertx() {
        return vertx;
    }

    @Override
    public final LockRegistry registry() {
        return registry;
    }

    @Override
    public final LockStore store() {
        return store;
    }

    @Override
    public final LockStore otherStore() {
        return otherStore;
    }

    @Override
    public final StandaloneLockRegistry.Builder instance() {
        return StandaloneLockRegistry.over(newStore(), vertx).settings(SETTINGS)
                .sharing(storeIsLocal() ? sharedState : null);
    }

    @BeforeAll
    final void startSuite() {
        registry = startInstance();
        store = newStore();
        store.start();
        otherStore = newStore();
        otherStore.start();
    }

    @AfterAll
    final void stopSuite() {
        try {
            if (registry != null) {
                registry.close();
            }
            if (store != null) {
                store.close();
            }
            if (otherStore != null) {
                otherStore.close();
            }
            closeBackend();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).join();
        }
    }
}
