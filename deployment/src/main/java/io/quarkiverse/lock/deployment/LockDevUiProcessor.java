package io.quarkiverse.lock.deployment;

import io.quarkiverse.lock.deployment.spi.LockDevUiCard;
import io.quarkiverse.lock.deployment.spi.LockProvider;
import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;

/**
 * The Dev UI card of the stores this extension holds, titled with its name ("Quarkus Lock"); a store extension
 * produces its own card (see {@link LockDevUiCard}).
 */
class LockDevUiProcessor {

    @BuildStep(onlyIf = IsDevelopment.class)
    void card(LockStoreBuildItem store, CurateOutcomeBuildItem curateOutcome, BuildProducer<CardPageBuildItem> cards,
            BuildProducer<JsonRPCProvidersBuildItem> rpc) {
        if (store.provider() == LockProvider.IN_MEMORY) {
            LockDevUiCard.produce(new CardPageBuildItem(), store, curateOutcome, cards, rpc);
        }
    }
}
