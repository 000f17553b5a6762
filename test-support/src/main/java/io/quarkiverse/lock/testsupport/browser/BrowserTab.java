package io.quarkiverse.lock.testsupport.browser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/**
 * A tab of {@link HeadlessChromium}: runs scripts in the page, and waits, bounded, for what a user would see.
 */
public final class BrowserTab {

    private final HeadlessChromium browser;
    private final String sessionId;

    BrowserTab(HeadlessChromium browser, String sessionId) {
        this.browser = browser;
        this.sessionId = sessionId;
    }

    /**
     * @param expression a script expression; a promise is awaited
     * @return its value as JSON gives it back: maps, lists, strings, numbers, booleans or {@code null}
     */
    public Object evaluate(String expression) {
        Map<String, Object> result = browser.call("Runtime.evaluate",
                Map.of("expression", expression, "returnByValue", true, "awaitPromise", true), sessionId);
        if (result.containsKey("exceptionDetails")) {
            throw new IllegalStateException("The script failed: " + Json.write(result.get("exceptionDetails")));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> value = (Map<String, Object>) result.get("result");
        return value.get("value");
    }

    /**
     * Evaluates {@code expression} until it gives something other than {@code null}, {@code undefined} or
     * {@code false}.
     *
     * @param what what the test waits for, for the failure message
     * @param expression the script expression
     * @param timeout how long to wait
     * @return its first such value
     * @throws AssertionError if none came within {@code timeout}
     */
    public Object waitFor(String what, String expression, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Object last = null;
        RuntimeException failure = null;
        while (System.nanoTime() < deadline) {
            try {
                last = evaluate(expression);
                failure = null;
                if (last != null && !Boolean.FALSE.equals(last)) {
                    return last;
                }
            } catch (IllegalStateException e) {
                failure = e; // the page may be loading
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
        String page;
        try {
            page = String.valueOf(evaluate("location.href"));
        } catch (RuntimeException e) {
            page = "unknown: " + e.getMessage();
        }
        AssertionError timedOut = new AssertionError("Not seen within " + timeout + ": " + what + " (last value: "
                + Json.write(last) + ", page: " + page + ")");
        if (failure != null) {
            timedOut.initCause(failure);
        }
        throw timedOut;
    }

    /**
     * @param file where to write a PNG image of what the tab shows
     */
    public void screenshot(Path file) throws IOException {
        Map<String, Object> result = browser.call("Page.captureScreenshot", Map.of("format", "png"), sessionId);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(file, Base64.getDecoder().decode((String) result.get("data")));
    }
}
