package io.quarkiverse.lock.deployment.redis.devui;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.deployment.devui.DevUiLockActivity;
import io.quarkiverse.lock.deployment.devui.DevUiTestApp;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkiverse.lock.testsupport.browser.DevUiCardCheck;
import io.quarkiverse.lock.testsupport.browser.LockDevUiCardView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card on the Redis store as a user sees it, in a headless Chromium: the core's card, titled with the
 * extension's name as the guide says (not a card of the Redis extension's own), naming the store on its store page and
 * listing the lock the application holds.
 */
class RedisDevUiBrowserTest {

    private static final int PORT = DevUiCardCheck.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = DevUiTestApp.on(PORT,
            "quarkus.redis.hosts=" + RedisServer.shared().uri() + "\n");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theCoresCardNamesTheStoreAndListsTheHeldLock() throws IOException {
        LockDevUiCardView card = DevUiCardCheck.read(PORT, DevUiLockActivity.HELD, "redis");
        SoftAssertions softly = DevUiCardCheck.commonChecks(card, "Quarkus Lock", "redis", DevUiLockActivity.HELD);
        softly.assertAll();
    }

}
