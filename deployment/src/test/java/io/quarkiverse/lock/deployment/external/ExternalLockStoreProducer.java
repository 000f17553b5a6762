package io.quarkiverse.lock.deployment.external;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.spi.LockStore;

/**
 * The external store's bean, registered by {@link ExternalStoreExtension} only when the build chose that store.
 */
@Singleton
public class ExternalLockStoreProducer {

    @Produces
    @Singleton
    LockStore externalLockStore() {
        return ExternalLockStore.create();
    }
}
