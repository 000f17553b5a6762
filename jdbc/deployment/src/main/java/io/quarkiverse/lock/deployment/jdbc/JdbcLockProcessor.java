package io.quarkiverse.lock.deployment.jdbc;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStoreProducer;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.UnremovableBeanBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;

/**
 * Build steps of the JDBC store, present whenever {@code quarkus-agroal} is. An application usually has a JDBC
 * datasource for its own data, so the store ranks below the stores of a client added for the locks
 * ({@link LockStoreImplementationBuildItem#SHARED_CLIENT}): adding it never changes the store of an application that
 * has one of those. When the build chose it, registers its producer and keeps the datasources, which the producer
 * looks up by name, and keeps for reflection the drivers' types through which the store reads PostgreSQL's
 * notifications and the server's id of a connection's session, those of the drivers that are there.
 */
class JdbcLockProcessor {

    @BuildStep
    LockStoreImplementationBuildItem implementation() {
        return new LockStoreImplementationBuildItem(JdbcLockStore.NAME, "quarkus-agroal",
                LockStoreImplementationBuildItem.SHARED_CLIENT);
    }

    @BuildStep
    void store(LockStoreBuildItem store, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<UnremovableBeanBuildItem> unremovable, BuildProducer<ReflectiveClassBuildItem> reflective) {
        if (store.is(JdbcLockStore.NAME)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(JdbcLockStoreProducer.class));
            unremovable.produce(UnremovableBeanBuildItem.beanTypes(AgroalDataSource.class));
            if (JdbcLockStore.POSTGRESQL_DRIVER_TYPES.stream().allMatch(QuarkusClassLoader::isClassPresentAtRuntime)) {
                reflective.produce(ReflectiveClassBuildItem.builder(
                        JdbcLockStore.POSTGRESQL_DRIVER_TYPES.toArray(String[]::new)).methods().build());
            }
            for (String type : JdbcLockStore.SESSION_DRIVER_TYPES) {
                if (QuarkusClassLoader.isClassPresentAtRuntime(type)) {
                    reflective.produce(ReflectiveClassBuildItem.builder(type).methods().build());
                }
            }
        }
    }
}
