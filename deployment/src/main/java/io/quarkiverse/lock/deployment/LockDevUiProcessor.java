package io.quarkiverse.lock.deployment;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.runtime.devui.LockJsonRPCService;
import io.quarkus.deployment.IsDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card, whichever store the locks use: the locks this application holds, their statistics, the leadership
 * groups and who leads each, and the chosen store's settings, served by {@link LockJsonRPCService}.
 */
class LockDevUiProcessor {

    @BuildStep(onlyIf = IsDevelopment.class)
    CardPageBuildItem card(LockStoreBuildItem store) {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addPage(Page.webComponentPageBuilder()
                .title("Held locks")
                .icon("font-awesome-solid:lock")
                .componentLink("qwc-lock-held.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Leadership")
                .icon("font-awesome-solid:crown")
                .componentLink("qwc-lock-leadership.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Store: " + store.name())
                .icon("font-awesome-solid:database")
                .componentLink("qwc-lock-configuration.js"));
        return card;
    }

    @BuildStep(onlyIf = IsDevelopment.class)
    JsonRPCProvidersBuildItem jsonRpc() {
        return new JsonRPCProvidersBuildItem(LockJsonRPCService.class);
    }
}
