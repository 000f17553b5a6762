package io.quarkiverse.lock.deployment.postgresql.devui;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.deployment.devui.DevUiLockActivity;
import io.quarkiverse.lock.deployment.devui.DevUiTestApp;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.browser.DevUiCardCheck;
import io.quarkiverse.lock.testsupport.browser.LockDevUiCardView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI card on the PostgreSQL store as a user sees it, in a headless Chromium: the core's card, naming the store
 * on its store page and listing the lock the application holds.
 */
class PostgresDevUiBrowserTest {

    private static final int PORT = DevUiCardCheck.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = DevUiTestApp.on(PORT,
            "quarkus.datasource.reactive.url=" + PostgresServer.shared().url() + "\n"
                    + "quarkus.datasource.username=" + PostgresServer.SUPERUSER + "\n"
                    + "quarkus.datasource.password=" + PostgresServer.SUPERUSER_PASSWORD + "\n"
                    + "quarkus.lock.postgresql.table=dev_ui\n");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theCoresCardNamesTheStoreAndListsTheHeldLock() throws IOException {
        LockDevUiCardView card = DevUiCardCheck.read(PORT, DevUiLockActivity.HELD, "postgresql");
        SoftAssertions softly = DevUiCardCheck.commonChecks(card, "Quarkus Lock", "postgresql",
                DevUiLockActivity.HELD);
        softly.assertAll();
    }

}
