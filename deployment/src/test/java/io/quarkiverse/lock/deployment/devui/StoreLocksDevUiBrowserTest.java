package io.quarkiverse.lock.deployment.devui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.browser.DevUiCardCheck;
import io.quarkiverse.lock.testsupport.browser.HeadlessChromium;
import io.quarkiverse.lock.testsupport.browser.StoreLocksView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The store's locks on the Dev UI's "Held locks" page, in a headless Chromium, in dev mode: the locks other handles
 * hold are listed with their holder, token, lease left and line, a page of 50 at a time with "More" for the rest, and a
 * forced release, once confirmed, frees the lock for another handle, as the lock API sees it.
 */
class StoreLocksDevUiBrowserTest {

    private static final int PORT = DevUiCardCheck.freePort();
    private static final String BATCH = "batch";

    @RegisterExtension
    static final QuarkusDevModeTest DEV = DevUiTestApp.on(PORT, "quarkus.lock.provider=in-memory\n",
            LockProbeResource.class);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void locksOfOtherHandlesAreListedByPageAndAConfirmedForceReleaseFreesOne() throws IOException {
        String base = "http://localhost:" + PORT;
        assertThat(given().baseUri(base).post("/lock-probe/hold/" + BATCH + "?count=55").asString())
                .as("locks the batch's handles acquired").isEqualTo("55");
        assertThat(given().baseUri(base).get("/lock-probe/" + DevUiLockActivity.HELD).asString())
                .as("the held lock, for another handle, before the forced release").isEqualTo("busy");

        try (HeadlessChromium browser = HeadlessChromium.start()) {
            StoreLocksView store = StoreLocksView.open(browser, base + "/q/dev-ui", "in-memory-store");

            List<Map<String, String>> first = store.rowsCounting(50);
            assertThat(first).as("the first page: the smallest keys")
                    .allSatisfy(row -> assertThat(row.get("Key")).startsWith(BATCH + "-"));
            assertThat(store.offersMore()).as("'More' while pages follow").isTrue();
            assertThat(store.offersForceRelease()).as("a forced release, in dev mode").isTrue();

            store.more();
            List<Map<String, String>> all = store.rowsListing(DevUiLockActivity.HELD);
            assertThat(all).as("both pages").hasSize(55 + 1);
            assertThat(store.offersMore()).as("'More' after the last page").isFalse();
            Map<String, String> held = all.stream().filter(row -> row.get("Key").equals(DevUiLockActivity.HELD))
                    .findFirst().orElseThrow();
            assertThat(held.get("Holder")).isEqualTo("this application (reports)");
            assertThat(held.get("Acquisition (owner id)")).matches("[A-Za-z0-9_-]{22}\\.[0-9a-z]+");
            assertThat(held.get("Fencing token")).matches("[1-9]\\d*");
            assertThat(held.get("Since")).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
            assertThat(held.get("Lease left")).as("of a ten-minute lease").matches("(5\\d\\d|600)\\.\\d s");
            assertThat(held.get("Waiters in line")).isEqualTo("not kept by the store");

            String header = store.forceRelease(DevUiLockActivity.HELD);

            assertThat(header).contains(DevUiLockActivity.HELD);
            assertThat(store.rowsWithout(DevUiLockActivity.HELD)).as("the page read again after the release")
                    .isNotEmpty();
        }
        assertThat(given().baseUri(base).get("/lock-probe/" + DevUiLockActivity.HELD).asString())
                .as("the lock, for another handle, after the forced release").isEqualTo("acquired");
        assertThat(given().baseUri(base).get("/lock-probe/" + BATCH + "-00").asString())
                .as("a lock not released").isEqualTo("busy");
    }
}
