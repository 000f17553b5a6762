package io.quarkiverse.lock.deployment.devui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.browser.DevUiCardCheck;
import io.quarkiverse.lock.testsupport.browser.LockDevUiCardView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card of the in-memory store as a user sees it, in a headless Chromium: titled with the core extension's
 * name, naming the store, listing the lock the application holds, and showing durations to a tenth of a millisecond.
 */
class LockDevUiBrowserTest {

    private static final int PORT = DevUiCardCheck.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = DevUiTestApp.on(PORT,
            "quarkus.lock.provider=in-memory\n");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theCardNamesTheStoreListsTheHeldLockAndRoundsDurations() throws IOException {
        LockDevUiCardView card = DevUiCardCheck.read(PORT, DevUiLockActivity.HELD, "in-memory");
        SoftAssertions softly = DevUiCardCheck.commonChecks(card, "Quarkus Lock", "in-memory", DevUiLockActivity.HELD);
        softly.assertThat(card.statistics()).as("statistics")
                .anySatisfy(row -> assertThat(row).containsEntry("Name", "reports").containsEntry("Not acquired", "1"));
        softly.assertAll();
    }

}
