package io.quarkiverse.lock.deployment.postgresql;

import io.quarkiverse.lock.deployment.spi.LockDevUiCard;
import io.quarkiverse.lock.deployment.spi.LockProvider;
import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreProducer;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;

/**
 * Build steps of the PostgreSQL store, present whenever {@code quarkus-reactive-pg-client} is: when the build chose
 * the PostgreSQL store, registers its producer. The reactive PostgreSQL extension creates a pool for each configured
 * PostgreSQL datasource; the producer picks the one {@code quarkus.lock.postgresql.datasource} names.
 */
class PostgresLockProcessor {

    @BuildStep
    FeatureBuildItem feature(LockStoreBuildItem store) {
        return store.provider() == LockProvider.POSTGRESQL ? new FeatureBuildItem("lock-postgresql") : null;
    }

    @BuildStep
    AdditionalBeanBuildItem store(LockStoreBuildItem store) {
        return store.provider() == LockProvider.POSTGRESQL
                ? AdditionalBeanBuildItem.unremovableOf(PostgresLockStoreProducer.class)
                : null;
    }

    /** The Dev UI card, titled with this extension's name ("Quarkus Lock - PostgreSQL"). */
    @BuildStep(onlyIf = IsDevelopment.class)
    void devUiCard(LockStoreBuildItem store, CurateOutcomeBuildItem curateOutcome,
            BuildProducer<CardPageBuildItem> cards, BuildProducer<JsonRPCProvidersBuildItem> rpc) {
        if (store.provider() == LockProvider.POSTGRESQL) {
            LockDevUiCard.produce(new CardPageBuildItem(), store, curateOutcome, cards, rpc);
        }
    }
}
