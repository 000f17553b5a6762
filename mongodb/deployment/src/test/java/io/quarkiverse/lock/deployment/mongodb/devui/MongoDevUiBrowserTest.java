package io.quarkiverse.lock.deployment.mongodb.devui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.browser.HeadlessChromium;
import io.quarkiverse.lock.testsupport.browser.LockDevUiCardView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The MongoDB store's own Dev UI card as a user sees it, in a headless Chromium: titled with the store extension's
 * name, calling that extension's JSON-RPC service, listing the lock the application holds.
 */
class MongoDevUiBrowserTest {

    private static final int PORT = freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = new QuarkusDevModeTest()
            .withApplicationRoot(root -> root.addClass(DevUiLockActivity.class)
                    .addAsResource(new StringAsset("quarkus.http.port=" + PORT + "\n"
                            + "quarkus.devservices.enabled=false\n"
                            + "quarkus.mongodb.connection-string=" + MongoTestServer.sharedConnectionString() + "\n"
                            + "quarkus.log.category.\"de.bwaldvogel\".level=OFF\n"
                            + "quarkus.lock.expire-after=10m\n"), "application.properties"));

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theStoreExtensionNamesItsCard() throws IOException {
        LockDevUiCardView card;
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            card = LockDevUiCardView.read(browser, "http://localhost:" + PORT + "/q/dev-ui", DevUiLockActivity.HELD,
                    "orders", "mongodb");
        }
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(card.title()).as("card title").isEqualTo("Quarkus Lock - MongoDB");
        softly.assertThat(card.links()).as("card links").contains(LockDevUiCardView.HELD_LOCKS, "Store: mongodb");
        softly.assertThat(card.held()).as("held locks").anySatisfy(row -> assertThat(row)
                .containsEntry("Key", DevUiLockActivity.HELD).containsEntry("Name", "reports"));
        softly.assertThat(card.statistics()).as("statistics")
                .anySatisfy(row -> assertThat(row).containsEntry("Name", "orders").containsEntry("Acquired", "3"));
        softly.assertThat(card.durationCells()).as("durations (ms) in the statistics").isNotEmpty()
                .allSatisfy(cell -> assertThat(cell).matches("\\d+(\\.\\d)?"));
        softly.assertAll();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
