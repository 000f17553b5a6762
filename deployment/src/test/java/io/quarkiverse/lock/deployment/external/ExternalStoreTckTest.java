package io.quarkiverse.lock.deployment.external;

import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.LockStoreTck;

/**
 * The whole contract suite on the store the core has never heard of; its instances share one JVM, as the in-memory
 * store's do.
 */
class ExternalStoreTckTest extends LockStoreTck {

    private final ExternalLockStore store = ExternalLockStore.create();

    @Override
    public boolean storeIsLocal() {
        return true;
    }

    @Override
    public LockStore newStore() {
        return store;
    }

    @Override
    public LockStore newStoreWithKeyPrefix(String keyPrefix) {
        return ExternalLockStore.create();
    }
}
