package io.quarkiverse.lock.testsupport.browser;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The "Held in the store" table of the Dev UI's "Held locks" page, driven in a real browser as a user would: its rows
 * by column header, its "More" button, and a forced release through a row's button and the confirmation dialog.
 * Screenshots go to {@code target/dev-ui-browser/}.
 */
public final class StoreLocksView {

    /** The rows of the store's table, each the cells' text, after its headers. */
    private static final String ROWS = LockDevUiCardView.gridRows("qwc-lock-held", "vaadin-grid.store");

    private final BrowserTab tab;
    private final Path folder = Path.of("target", "dev-ui-browser");
    private final String screenshots;

    private StoreLocksView(BrowserTab tab, String screenshots) {
        this.tab = tab;
        this.screenshots = screenshots;
    }

    /**
     * Opens the Dev UI's extensions page and follows the lock card's "Held locks" link.
     *
     * @param browser the browser
     * @param devUi the Dev UI's address, such as {@code http://localhost:8080/q/dev-ui}
     * @param screenshots a name for the screenshots
     * @return the page's store table
     */
    public static StoreLocksView open(HeadlessChromium browser, String devUi, String screenshots) {
        BrowserTab tab = browser.open(devUi + "/extensions");
        tab.waitFor("the '" + LockDevUiCardView.HELD_LOCKS + "' link clicked", LockDevUiCardView.CLICK_HELD_LOCKS,
                LockDevUiCardView.PAGE_TIMEOUT);
        return new StoreLocksView(tab, screenshots);
    }

    /**
     * Waits until the table lists {@code key}.
     *
     * @return the rows, each by column header
     */
    public List<Map<String, String>> rowsListing(String key) {
        return rows("the store's table listing " + key, "rows.slice(1).some(r => r.includes(" + Json.write(key) + "))");
    }

    /**
     * Waits until the table, shown, does not list {@code key}.
     *
     * @return the rows, each by column header
     */
    public List<Map<String, String>> rowsWithout(String key) {
        return rows("the store's table without " + key, "!rows.slice(1).some(r => r.includes(" + Json.write(key)
                + "))");
    }

    /**
     * Waits until exactly {@code count} rows are shown.
     *
     * @return the rows, each by column header
     */
    public List<Map<String, String>> rowsCounting(int count) {
        return rows("the store's table of " + count + " rows", "rows.length - 1 === " + count);
    }

    /** @return whether the "More" button is shown, the store having more pages */
    public boolean offersMore() {
        return Boolean.TRUE.equals(tab.evaluate(inPage("return !!page.shadowRoot.querySelector('vaadin-button.more');")));
    }

    /** Clicks "More", which reads the next page of the store. */
    public void more() {
        tab.waitFor("the 'More' button clicked", inPage("""
                const more = page.shadowRoot.querySelector('vaadin-button.more');
                if (!more || more.disabled) { return false; }
                more.click();
                return true;"""), LockDevUiCardView.PAGE_TIMEOUT);
    }

    /**
     * Clicks the release button of the row of {@code key}, waits for the confirmation dialog, and confirms.
     *
     * @return the dialog's header, as the user read it before confirming
     */
    public String forceRelease(String key) {
        tab.waitFor("the release button of " + key + " clicked", inPage("""
                const grid = page.shadowRoot.querySelector('vaadin-grid.store');
                if (!grid) { return false; }
                const row = [...grid.shadowRoot.querySelectorAll('tbody tr')].find(r => [...r.querySelectorAll('td')]
                        .some(c => { const s = c.querySelector('slot'); const e = s && s.assignedElements()[0];
                                     return e && squash(e.textContent) === %s; }));
                if (!row) { return false; }
                const buttons = [...row.querySelectorAll('td')].map(c => c.querySelector('slot'))
                        .map(s => s && s.assignedElements()[0]).map(e => e && e.querySelector('vaadin-button'))
                        .filter(b => b);
                if (buttons.length === 0) { return false; }
                buttons[0].click();
                return true;""".formatted(Json.write(key))), LockDevUiCardView.PAGE_TIMEOUT);
        String header = (String) tab.waitFor("the confirmation dialog open", inPage("""
                const dialog = page.shadowRoot.querySelector('vaadin-confirm-dialog');
                return dialog && dialog.opened ? dialog.header : null;"""), LockDevUiCardView.PAGE_TIMEOUT);
        LockDevUiCardView.screenshot(tab, folder.resolve(screenshots + "-confirm.png"));
        tab.waitFor("the release confirmed", inPage("""
                const dialog = page.shadowRoot.querySelector('vaadin-confirm-dialog');
                const confirm = dialog && dialog.opened && dialog.querySelector('[slot="confirm-button"]');
                if (!confirm) { return false; }
                confirm.click();
                return true;"""), LockDevUiCardView.PAGE_TIMEOUT);
        return header;
    }

    /** @return whether any row offers a forced release */
    public boolean offersForceRelease() {
        return Boolean.TRUE.equals(tab.evaluate(inPage("""
                const grid = page.shadowRoot.querySelector('vaadin-grid.store');
                return !!grid && [...grid.querySelectorAll('vaadin-button')].length > 0;""")));
    }

    private List<Map<String, String>> rows(String what, String condition) {
        String script = "(() => { const rows = " + ROWS + "; return rows && (" + condition + ") ? rows : null; })()";
        List<List<String>> rows;
        try {
            @SuppressWarnings("unchecked")
            List<List<String>> seen = (List<List<String>>) tab.waitFor(what, script, LockDevUiCardView.PAGE_TIMEOUT);
            rows = seen;
        } finally {
            LockDevUiCardView.screenshot(tab, folder.resolve(screenshots + "-store.png"));
        }
        return LockDevUiCardView.byHeader(rows);
    }

    /** A script run with {@code page}, the page's element, once it is shown; {@code false} until then. */
    private static String inPage(String body) {
        return "(() => {" + LockDevUiCardView.HELPERS + """
                const page = everything().find(e => e.localName === 'qwc-lock-held');
                if (!page || !page.shadowRoot) { return false; }
                """ + body + "})()";
    }
}
