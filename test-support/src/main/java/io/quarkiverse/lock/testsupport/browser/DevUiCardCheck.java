package io.quarkiverse.lock.testsupport.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;

import org.assertj.core.api.SoftAssertions;

/**
 * What every Dev UI browser test checks of the Quarkus Lock card of a dev-mode application that holds one lock (named
 * {@code reports}) and took and released three {@code orders} locks: the card's title, its links, the held lock, the
 * {@code orders} statistics and durations shown to a tenth of a millisecond.
 */
public final class DevUiCardCheck {

    private DevUiCardCheck() {
    }

    /** @return a port free now, for the dev-mode application's HTTP server */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Reads the card in a headless Chromium.
     *
     * @param port the application's HTTP port
     * @param heldKey the key of the lock the application holds
     * @param store the store's name
     * @return the card as a user sees it
     * @throws IOException if the browser fails
     */
    public static LockDevUiCardView read(int port, String heldKey, String store) throws IOException {
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            return LockDevUiCardView.read(browser, "http://localhost:" + port + "/q/dev-ui", heldKey, "orders", store);
        }
    }

    /**
     * The checks every card passes, to which a test may add its own before {@link SoftAssertions#assertAll()}.
     *
     * @param card the card read
     * @param title the title expected
     * @param store the store's name
     * @param heldKey the key of the lock the application holds
     * @return the soft assertions, not yet asserted
     */
    public static SoftAssertions commonChecks(LockDevUiCardView card, String title, String store, String heldKey) {
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(card.title()).as("card title").isEqualTo(title);
        softly.assertThat(card.links()).as("card links").contains(LockDevUiCardView.HELD_LOCKS,
                LeadershipView.LEADERSHIP, "Store: " + store);
        softly.assertThat(card.held()).as("held locks").anySatisfy(row -> assertThat(row)
                .containsEntry("Key", heldKey).containsEntry("Name", "reports"));
        softly.assertThat(card.statistics()).as("statistics")
                .anySatisfy(row -> assertThat(row).containsEntry("Name", "orders").containsEntry("Acquired", "3"));
        softly.assertThat(card.durationCells()).as("durations (ms) in the statistics").isNotEmpty()
                .allSatisfy(cell -> assertThat(cell).matches("\\d+(\\.\\d)?"));
        return softly;
    }
}
