package io.quarkiverse.lock.testsupport.browser;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The Dev UI's "Leadership" page of the lock card, read in a real browser as a user would: the table of leadership
 * groups, by column header. Screenshots go to {@code target/dev-ui-browser/}.
 */
public final class LeadershipView {

    /** The card link this view follows, and the page it opens. */
    public static final String LEADERSHIP = "Leadership";

    private static final String ROWS = LockDevUiCardView.gridRows("qwc-lock-leadership", "vaadin-grid");

    private final BrowserTab tab;
    private final String screenshots;

    private LeadershipView(BrowserTab tab, String screenshots) {
        this.tab = tab;
        this.screenshots = screenshots;
    }

    /**
     * Opens the Dev UI's extensions page and follows the lock card's "Leadership" link.
     *
     * @param browser the browser
     * @param devUi the Dev UI's address, such as {@code http://localhost:8080/q/dev-ui}
     * @param screenshots a name for the screenshots
     * @return the page
     */
    public static LeadershipView open(HeadlessChromium browser, String devUi, String screenshots) {
        BrowserTab tab = browser.open(devUi + "/extensions");
        tab.waitFor("the '" + LEADERSHIP + "' link clicked", LockDevUiCardView.clickLink(LEADERSHIP),
                LockDevUiCardView.PAGE_TIMEOUT);
        return new LeadershipView(tab, screenshots);
    }

    /**
     * Waits until the table shows a row whose cells include all of {@code cells} (the page refreshes every two
     * seconds).
     *
     * @return the rows, each by column header
     */
    @SuppressWarnings("unchecked")
    public List<Map<String, String>> rowsShowing(String... cells) {
        StringBuilder condition = new StringBuilder("rows.slice(1).some(r => true");
        for (String cell : cells) {
            condition.append(" && r.includes(").append(Json.write(cell)).append(')');
        }
        condition.append(')');
        String script = "(() => { const rows = " + ROWS + "; return rows && (" + condition + ") ? rows : null; })()";
        try {
            return LockDevUiCardView.byHeader((List<List<String>>) tab.waitFor("the leadership table showing "
                    + String.join(", ", cells), script, LockDevUiCardView.PAGE_TIMEOUT));
        } finally {
            LockDevUiCardView.screenshot(tab, Path.of("target", "dev-ui-browser", screenshots + "-leadership.png"));
        }
    }
}
