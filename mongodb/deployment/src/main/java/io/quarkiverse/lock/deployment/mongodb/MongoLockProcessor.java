package io.quarkiverse.lock.deployment.mongodb;

import io.quarkiverse.lock.deployment.LockProvider;
import io.quarkiverse.lock.deployment.LockStoreBuildItem;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockClientConfig;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreProducer;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.mongodb.deployment.MongoClientNameBuildItem;

/**
 * Build steps of the MongoDB store, present whenever {@code quarkus-mongodb-client} is: when the build chose the
 * MongoDB store, registers its producer and tells the MongoDB extension which client it uses.
 */
class MongoLockProcessor {

    @BuildStep
    FeatureBuildItem feature(LockStoreBuildItem store) {
        return store.provider() == LockProvider.MONGODB ? new FeatureBuildItem("lock-mongodb") : null;
    }

    @BuildStep
    void store(LockStoreBuildItem store, MongoLockClientConfig client, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<MongoClientNameBuildItem> clientNames) {
        if (store.provider() != LockProvider.MONGODB) {
            return;
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(MongoLockStoreProducer.class));
        // the MongoDB extension creates a named client only for the names it is told of at build time
        client.clientName().ifPresent(name -> clientNames.produce(new MongoClientNameBuildItem(name)));
    }
}
