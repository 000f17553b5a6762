package io.quarkiverse.lock.deployment.mongodb.devui;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.deployment.devui.DevUiLockActivity;
import io.quarkiverse.lock.deployment.devui.DevUiTestApp;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.browser.DevUiCardCheck;
import io.quarkiverse.lock.testsupport.browser.LockDevUiCardView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card on the MongoDB store as a user sees it, in a headless Chromium: the core's card, naming the store
 * on its store page and listing the lock the application holds.
 */
class MongoDevUiBrowserTest {

    private static final int PORT = DevUiCardCheck.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = DevUiTestApp.on(PORT,
            "quarkus.mongodb.connection-string=" + MongoTestServer.sharedConnectionString() + "\n"
                    + "quarkus.log.category.\"de.bwaldvogel\".level=OFF\n");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theCoresCardNamesTheStoreAndListsTheHeldLock() throws IOException {
        LockDevUiCardView card = DevUiCardCheck.read(PORT, DevUiLockActivity.HELD, "mongodb");
        SoftAssertions softly = DevUiCardCheck.commonChecks(card, "Quarkus Lock", "mongodb", DevUiLockActivity.HELD);
        softly.assertAll();
    }

}
