package io.quarkiverse.lock.deployment.devui;

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
import io.quarkiverse.lock.testsupport.browser.LeadershipView;
import io.quarkus.test.QuarkusDevModeTest;

/**
 * The Dev UI's "Leadership" page, in a headless Chromium, in dev mode: a group this application joined at startup
 * shows it leading, with its term, since when, and the store naming this instance as the leader under the same term;
 * a declared group it has not joined shows nobody leading.
 */
class LeadershipDevUiBrowserTest {

    private static final int PORT = DevUiCardCheck.freePort();

    @RegisterExtension
    static final QuarkusDevModeTest DEV = DevUiTestApp.on(PORT, """
            quarkus.lock.provider=in-memory
            quarkus.lock.leadership.orders.enabled=true
            quarkus.lock.leadership.reports.enabled=true
            quarkus.lock.leadership.reports.join-at-startup=false
            """);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void theGroupsAreShownWithWhoLeadsEach() throws IOException {
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            LeadershipView page = LeadershipView.open(browser, "http://localhost:" + PORT + "/q/dev-ui", "leadership");

            List<Map<String, String>> rows = page.rowsShowing("orders", "yes");

            assertThat(rows).extracting(row -> row.get("Group")).containsExactly("orders", "reports");
            Map<String, String> orders = rows.get(0);
            assertThat(orders.get("Takes part")).isEqualTo("yes");
            assertThat(orders.get("Leads")).isEqualTo("yes");
            assertThat(orders.get("Term")).matches("[1-9]\\d*");
            assertThat(orders.get("Leading since")).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
            assertThat(orders.get("Leader, as the store says")).isEqualTo("this instance, term " + orders.get("Term"));
            Map<String, String> reports = rows.get(1);
            assertThat(reports.get("Takes part")).isEqualTo("no");
            assertThat(reports.get("Leads")).isEqualTo("no");
            assertThat(reports.get("Term")).isEmpty();
            assertThat(reports.get("Leader, as the store says")).isEqualTo("nobody");
        }
    }
}
