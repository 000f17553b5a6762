package io.quarkiverse.lock.deployment.mongodb;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.DotName;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockBuildTimeConfig;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreProducer;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.mongodb.MongoClientName;
import io.quarkus.mongodb.deployment.MongoClientNameBuildItem;
import io.quarkus.mongodb.deployment.MongoUnremovableClientsBuildItem;

/**
 * Build steps of the MongoDB store, present whenever {@code quarkus-mongodb-client} is: when the build chose the
 * MongoDB store, registers its producer and makes the MongoDB extension create the client it uses.
 */
class MongoLockProcessor {

    private static final DotName CLIENT_NAME = DotName.createSimple(MongoClientName.class);

    @BuildStep
    LockStoreImplementationBuildItem implementation() {
        return new LockStoreImplementationBuildItem(MongoLockStore.NAME, "quarkus-mongodb-client",
                LockStoreImplementationBuildItem.DEDICATED_CLIENT);
    }

    /**
     * The MongoDB extension creates the default client only when something injects it or asks for it, and a named
     * client only for the names it finds on {@code @MongoClientName} or is told of, once each.
     */
    @BuildStep
    void store(LockStoreBuildItem store, MongoLockBuildTimeConfig client, CombinedIndexBuildItem index,
            BuildProducer<AdditionalBeanBuildItem> beans, BuildProducer<MongoClientNameBuildItem> clientNames,
            BuildProducer<MongoUnremovableClientsBuildItem> defaultClients) {
        if (!store.is(MongoLockStore.NAME)) {
            return;
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(MongoLockStoreProducer.class));
        if (client.clientName().isEmpty()) {
            defaultClients.produce(new MongoUnremovableClientsBuildItem());
            return;
        }
        String name = client.clientName().get();
        boolean namedInTheApplication = index.getIndex().getAnnotations(CLIENT_NAME).stream()
                .map(AnnotationInstance::value)
                .anyMatch(value -> value != null && name.equals(value.asString()));
        if (!namedInTheApplication) {
            clientNames.produce(new MongoClientNameBuildItem(name));
        }
    }
}
