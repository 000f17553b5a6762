package io.quarkiverse.lock.deployment.postgresql;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreProducer;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;

/**
 * Build steps of the PostgreSQL store, present whenever {@code quarkus-reactive-pg-client} is: when the build chose
 * the PostgreSQL store, registers its producer. The reactive PostgreSQL extension creates a pool for each configured
 * PostgreSQL datasource; the producer picks the one {@code quarkus.lock.postgresql.datasource} names.
 */
class PostgresLockProcessor {

    @BuildStep
    LockStoreImplementationBuildItem implementation() {
        return new LockStoreImplementationBuildItem(PostgresLockStore.NAME, "quarkus-reactive-pg-client",
                LockStoreImplementationBuildItem.DEDICATED_CLIENT);
    }

    @BuildStep
    AdditionalBeanBuildItem store(LockStoreBuildItem store) {
        return store.is(PostgresLockStore.NAME)
                ? AdditionalBeanBuildItem.unremovableOf(PostgresLockStoreProducer.class)
                : null;
    }
}
