package io.quarkiverse.lock.testsupport.browser;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a user of the Dev UI sees of the Quarkus Lock card, read in a real browser: on the extensions page, the card's
 * title and its links; then, after a click on "Held locks", the rows of that page's two tables, as the grid shows its
 * cells. Screenshots of both pages go to {@code target/dev-ui-browser/}.
 *
 * @param title the card's title
 * @param links the text of the card's links
 * @param held the rows of the "Held now" table, each by column header
 * @param statistics the rows of the "Statistics since startup" table, each by column header
 */
public record LockDevUiCardView(String title, List<String> links, List<Map<String, String>> held,
        List<Map<String, String>> statistics) {

    /** The card link this view follows, and the page it opens. */
    public static final String HELD_LOCKS = "Held locks";

    static final Duration PAGE_TIMEOUT = Duration.ofSeconds(45);

    /** Finds elements through open shadow roots, and the text a user reads in an element and its shadow tree. */
    static final String HELPERS = """
            const squash = s => (s || '').replace(/\\s+/g, ' ').trim();
            const everything = () => {
                const found = [];
                const walk = root => root.querySelectorAll('*').forEach(e => {
                    found.push(e);
                    if (e.shadowRoot) { walk(e.shadowRoot); }
                });
                walk(document);
                return found;
            };
            const text = node => {
                if (node.nodeType === Node.TEXT_NODE) { return node.textContent; }
                if (node.localName === 'style' || node.localName === 'script') { return ''; }
                let seen = node.shadowRoot ? text(node.shadowRoot) : '';
                node.childNodes.forEach(child => { seen += ' ' + text(child); });
                return seen;
            };
            const heldLocksLink = () => everything().filter(e => e.localName === 'qwc-extension-link')
                    .find(link => squash(text(link)).startsWith('Held locks'));
            """;

    private static final String LOCK_CARD = "(() => {" + HELPERS + """
                const link = heldLocksLink();
                const card = link && link.closest('qwc-extension');
                const header = card && card.shadowRoot && card.shadowRoot.querySelector('.card-header > div');
                if (!header) { return null; }
                return {
                    title: squash(header.textContent),
                    links: [...card.querySelectorAll('qwc-extension-link')].map(l => squash(text(l)))
                };
            })()""";

    static final String CLICK_HELD_LOCKS = clickLink(HELD_LOCKS);

    /** The tables of the page, by the grid's own rows and cells (a cell shows the content slotted into it). */
    private static final String HELD_LOCKS_PAGE = "(() => {" + HELPERS + """
                const page = everything().find(e => e.localName === 'qwc-lock-held');
                if (!page || !page.shadowRoot) { return null; }
                const cell = c => {
                    const slot = c.querySelector('slot');
                    const content = slot && slot.assignedElements()[0];
                    return squash(content ? content.textContent : c.textContent);
                };
                const visible = row => !row.hidden && getComputedStyle(row).display !== 'none';
                return [...page.shadowRoot.querySelectorAll('vaadin-grid')].map(grid => ({
                    headers: [...grid.shadowRoot.querySelectorAll('thead tr')].filter(visible)
                            .flatMap(row => [...row.querySelectorAll('th')].map(cell)).filter(h => h),
                    rows: [...grid.shadowRoot.querySelectorAll('tbody tr')].filter(visible)
                            .map(row => [...row.querySelectorAll('td')].map(cell)).filter(r => r.some(c => c))
                }));
            })()""";

    /**
     * Opens the Dev UI's extensions page, reads the lock card, follows its "Held locks" link, and reads that page
     * once it shows {@code heldKey} held and statistics for {@code statisticsName}.
     *
     * @param browser the browser
     * @param devUi the Dev UI's address, such as {@code http://localhost:8080/q/dev-ui}
     * @param heldKey a key the application holds
     * @param statisticsName a lock name the application has statistics for
     * @param screenshots a name for the screenshots
     * @return what the card shows
     */
    @SuppressWarnings("unchecked")
    public static LockDevUiCardView read(HeadlessChromium browser, String devUi, String heldKey, String statisticsName,
            String screenshots) {
        Path folder = Path.of("target", "dev-ui-browser");
        BrowserTab tab = browser.open(devUi + "/extensions");
        Map<String, Object> card;
        try {
            card = (Map<String, Object>) tab.waitFor("the extensions page showing a card with a '" + HELD_LOCKS
                    + "' link", LOCK_CARD, PAGE_TIMEOUT);
        } finally {
            screenshot(tab, folder.resolve(screenshots + "-extensions.png"));
        }
        tab.waitFor("the '" + HELD_LOCKS + "' link clicked", CLICK_HELD_LOCKS, PAGE_TIMEOUT);
        String shown = "(() => { const grids = " + HELD_LOCKS_PAGE + "; const seen = JSON.stringify(grids);"
                + " return grids && seen.includes(" + Json.write(heldKey) + ") && seen.includes("
                + Json.write(statisticsName) + ") ? grids : null; })()";
        List<Map<String, Object>> grids;
        try {
            grids = (List<Map<String, Object>>) tab.waitFor("the '" + HELD_LOCKS + "' page listing " + heldKey
                    + " and statistics of " + statisticsName, shown, PAGE_TIMEOUT);
        } finally {
            screenshot(tab, folder.resolve(screenshots + "-held-locks.png"));
        }
        return new LockDevUiCardView((String) card.get("title"), (List<String>) card.get("links"),
                table(grids, "Key"), table(grids, "Acquired"));
    }

    /**
     * @param component the page's web component, such as {@code qwc-lock-held}
     * @param grid the grid's selector in the page's shadow root
     * @return a script giving the grid's rows as a user reads them, each the cells' text, after a first row of its
     *         headers; {@code null} while the grid is not shown
     */
    static String gridRows(String component, String grid) {
        return "(() => {" + HELPERS + """
                    const page = everything().find(e => e.localName === %s);
                    const grid = page && page.shadowRoot && page.shadowRoot.querySelector(%s);
                    if (!grid || !grid.shadowRoot) { return null; }
                    const cell = c => {
                        const slot = c.querySelector('slot');
                        const content = slot && slot.assignedElements()[0];
                        return squash(content ? content.textContent : c.textContent);
                    };
                    const visible = row => !row.hidden && getComputedStyle(row).display !== 'none';
                    return [[...grid.shadowRoot.querySelectorAll('thead tr')].filter(visible)
                                .flatMap(row => [...row.querySelectorAll('th')].map(cell)).filter(h => h)]
                            .concat([...grid.shadowRoot.querySelectorAll('tbody tr')].filter(visible)
                                .map(row => [...row.querySelectorAll('td')].map(cell)).filter(r => r.some(c => c)));
                })()""".formatted(Json.write(component), Json.write(grid));
    }

    /**
     * @param rows a first row of headers, then the rows of cells, as {@link #gridRows} gives them
     * @return the rows, each by header
     */
    static List<Map<String, String>> byHeader(List<List<String>> rows) {
        List<String> headers = rows.get(0);
        List<Map<String, String>> byHeader = new ArrayList<>();
        for (List<String> cells : rows.subList(1, rows.size())) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(headers.size(), cells.size()); i++) {
                row.put(headers.get(i), cells.get(i));
            }
            byHeader.add(row);
        }
        return byHeader;
    }

    /**
     * @param title the start of the link's text, such as {@code Held locks}
     * @return a script that clicks the card's link, {@code true} once clicked
     */
    static String clickLink(String title) {
        return "(() => {" + HELPERS + """
                    const link = everything().filter(e => e.localName === 'qwc-extension-link')
                            .find(l => squash(text(l)).startsWith(%s));
                    const anchor = link && link.shadowRoot && link.shadowRoot.querySelector('a');
                    if (!anchor) { return false; }
                    anchor.click();
                    return true;
                })()""".formatted(Json.write(title));
    }

    /** A picture for whoever reads a failure; taking it never hides the failure. */
    static void screenshot(BrowserTab tab, Path file) {
        try {
            tab.screenshot(file);
        } catch (IOException | RuntimeException e) {
            System.err.println("No screenshot " + file + ": " + e);
        }
    }

    /**
     * @return the cells of the statistics table whose column is a duration in milliseconds
     */
    public List<String> durationCells() {
        List<String> cells = new ArrayList<>();
        for (Map<String, String> row : statistics) {
            row.forEach((header, cell) -> {
                if (header.contains("(ms)")) {
                    cells.add(cell);
                }
            });
        }
        return cells;
    }

    /** The rows of the grid that has a column {@code header}, each by header. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, String>> table(List<Map<String, Object>> grids, String header) {
        for (Map<String, Object> grid : grids) {
            List<String> headers = (List<String>) grid.get("headers");
            if (!headers.contains(header)) {
                continue;
            }
            List<Map<String, String>> rows = new ArrayList<>();
            for (List<String> cells : (List<List<String>>) grid.get("rows")) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < Math.min(headers.size(), cells.size()); i++) {
                    row.put(headers.get(i), cells.get(i));
                }
                rows.add(row);
            }
            return rows;
        }
        return List.of();
    }
}
