package io.quarkiverse.lock.deployment.spi;

import io.quarkiverse.lock.runtime.devui.LockJsonRPCService;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.pkg.builditem.CurateOutcomeBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;

/**
 * The Dev UI card of the store in use: the locks this application holds, their statistics, and the store's settings,
 * served by {@link LockJsonRPCService} over JSON-RPC. The extension that holds the store produces it, in dev mode: the
 * core for its in-memory store, each store extension for its own store, in one line:
 *
 * <pre>
 * &#64;BuildStep(onlyIf = IsDevelopment.class)
 * void devUiCard(LockStoreBuildItem store, CurateOutcomeBuildItem curateOutcome,
 *         BuildProducer&lt;CardPageBuildItem&gt; cards, BuildProducer&lt;JsonRPCProvidersBuildItem&gt; rpc) {
 *     if (store.provider() == LockProvider.MONGODB) {
 *         LockDevUiCard.produce(new CardPageBuildItem(), store, curateOutcome, cards, rpc);
 *     }
 * }
 * </pre>
 * <p>
 * Dev UI titles a card with the name of the extension whose deployment class creates the {@code CardPageBuildItem}
 * (it walks the stack to that class), and its pages call the JSON-RPC methods of that extension. So the store's own
 * build step creates the item, and this class fills it and registers the JSON-RPC service under the same extension.
 * Dev UI serves the card's web components from that extension's deployment jar ({@code dev-ui/}): a store extension's
 * deployment module packages the core's (see {@code mongodb/deployment/pom.xml}).
 */
public final class LockDevUiCard {

    private LockDevUiCard() {
    }

    /**
     * @param card a card created by the calling build step of the extension that holds the store
     * @param store the store in use
     * @param curateOutcome the application model, in which Dev UI finds the card's extension
     * @param cards where the card goes
     * @param rpc where its JSON-RPC service goes
     */
    public static void produce(CardPageBuildItem card, LockStoreBuildItem store, CurateOutcomeBuildItem curateOutcome,
            BuildProducer<CardPageBuildItem> cards, BuildProducer<JsonRPCProvidersBuildItem> rpc) {
        card.addPage(Page.webComponentPageBuilder()
                .title("Held locks")
                .icon("font-awesome-solid:lock")
                .componentLink("qwc-lock-held.js"));
        card.addPage(Page.webComponentPageBuilder()
                .title("Store: " + store.provider().configName())
                .icon("font-awesome-solid:database")
                .componentLink("qwc-lock-configuration.js"));
        cards.produce(card);
        rpc.produce(new JsonRPCProvidersBuildItem(card.getExtensionPathName(curateOutcome), LockJsonRPCService.class));
    }
}
