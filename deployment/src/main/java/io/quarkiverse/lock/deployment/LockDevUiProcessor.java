package io.quarkiverse.lock.deployment;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.runtime.devui.LockDevUiService;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.BuildSteps;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card: the store in use and its settings, the locks this application holds now, and wait and hold
 * statistics, served by {@link LockDevUiService} over JSON-RPC.
 */
@BuildSteps(onlyIf = IsDevelopment.class)
class LockDevUiProcessor {

    @BuildStep
    CardPageBuildItem card(LockStoreBuildItem store) {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addBuildTimeData("store", store.provider().configName());
        card.addPage(Page.webComponentPageBuilder()
                .title("Held locks")
                .icon("font-awesome-solid:lock")
                .componentLink("qwc-lock-held.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Store: " + store.provider().configName())
                .icon("font-awesome-solid:database")
                .componentLink("qwc-lock-configuration.js"));
        return card;
    }

    @BuildStep
    JsonRPCProvidersBuildItem jsonRpc() {
        return new JsonRPCProvidersBuildItem(LockDevUiService.class);
    }
}
