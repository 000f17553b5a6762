package io.quarkiverse.lock.testsupport.browser;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Debian's Chromium, headless, driven over the Chrome DevTools Protocol with the JDK's WebSocket client: the browser
 * tests see a page as its users do (its scripts run, its web components render) without a second toolchain.
 * <p>
 * Every wait is bounded. {@link #close()} ends the browser and all its processes, and a shutdown hook does it if a test
 * never gets there. The binary is {@code chromium} on the {@code PATH}, or the one {@code -Dquarkus-lock.chromium}
 * names; when there is none, {@link #start()} fails (the tests must not pass unseen: CI installs it).
 */
public final class HeadlessChromium implements AutoCloseable {

    /** How long any single browser command may take. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path profile;
    private final Path log;
    private final Thread killer;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private volatile WebSocket socket;

    private HeadlessChromium(Process process, Path profile, Path log) {
        this.process = process;
        this.profile = profile;
        this.log = log;
        this.killer = new Thread(() -> kill(List.of()), "chromium-killer");
    }

    /**
     * @return a headless browser with an empty profile of its own, ready for {@link #open(String)}
     * @throws IllegalStateException if Chromium is not installed, or does not start in time
     */
    public static HeadlessChromium start() throws IOException {
        String binary = binary();
        Path profile = Files.createTempDirectory("quarkus-lock-chromium");
        Path log = profile.resolveSibling(profile.getFileName() + ".log");
        // The flags keep a headless Chromium away from the network, which is closed on CI machines: without them it
        // tries to reach Google's services and may hang.
        List<String> command = List.of(binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions", "--disable-dev-shm-usage",
                "--window-size=1600,1200", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            delete(profile);
            delete(log);
            throw e;
        }
        HeadlessChromium browser = new HeadlessChromium(process, profile, log);
        Runtime.getRuntime().addShutdownHook(browser.killer);
        try {
            browser.socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .connectTimeout(COMMAND_TIMEOUT)
                    .buildAsync(URI.create(browser.devToolsEndpoint()),
                            new DevToolsListener(browser::received, browser::closed))
                    .get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return browser;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            browser.close();
            throw new IllegalStateException("Interrupted while Chromium started", e);
        } catch (IOException | RuntimeException | ExecutionException | TimeoutException e) {
            String tail = browser.tail();
            browser.close();
            throw new IllegalStateException("Chromium did not start: " + e + "\n" + tail, e);
        }
    }

    /**
     * @param url the page to load
     * @return a new tab showing it (the load may still be running: wait for what the test needs to see)
     */
    public BrowserTab open(String url) {
        String targetId = (String) call("Target.createTarget", Map.of("url", url), null).get("targetId");
        String sessionId = (String) call("Target.attachToTarget", Map.of("targetId", targetId, "flatten", true), null)
                .get("sessionId");
        return new BrowserTab(this, sessionId);
    }

    /**
     * Ends the browser and every process it started, and deletes its profile.
     */
    @Override
    public void close() {
        // Its processes, seen while the browser runs: once it has exited, its children are no longer its descendants.
        List<ProcessHandle> started = process.descendants().toList();
        try {
            if (socket != null) {
                socket.sendText(Json.write(Map.of("id", ids.incrementAndGet(), "method", "Browser.close")), true)
                        .get(2, TimeUnit.SECONDS);
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            // killed below
        } finally {
            if (socket != null) {
                socket.abort();
            }
            kill(started);
            try {
                Runtime.getRuntime().removeShutdownHook(killer);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or ran
            }
        }
    }

    Map<String, Object> call(String method, Map<String, Object> params, String sessionId) {
        long id = ids.incrementAndGet();
        CompletableFuture<Map<String, Object>> answer = new CompletableFuture<>();
        pending.put(id, answer);
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("id", id);
        message.put("method", method);
        message.put("params", params);
        if (sessionId != null) {
            message.put("sessionId", sessionId);
        }
        try {
            socket.sendText(Json.write(message), true).get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            Map<String, Object> response = answer.get(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (response.containsKey("error")) {
                throw new IllegalStateException(method + " failed: " + Json.write(response.get("error")));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) response.get("result");
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(method + " interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(method + " got no answer within " + COMMAND_TIMEOUT + ": " + e, e);
        } finally {
            pending.remove(id);
        }
    }

    @SuppressWarnings("unchecked")
    private void received(String message) {
        Map<String, Object> parsed = (Map<String, Object>) Json.parse(message);
        Object id = parsed.get("id");
        if (id != null) {
            CompletableFuture<Map<String, Object>> answer = pending.get(((Number) id).longValue());
            if (answer != null) {
                answer.complete(parsed);
            }
        }
        // events: none is enabled, none is needed
    }

    /** The connection ended (the browser exited or crashed): no command waits for its answer any longer. */
    private void closed(String why) {
        IllegalStateException gone = new IllegalStateException("The connection to Chromium ended: " + why);
        pending.values().forEach(answer -> answer.completeExceptionally(gone));
    }

    private static String binary() {
        String configured = System.getProperty("quarkus-lock.chromium");
        List<Path> candidates = new ArrayList<>();
        if (configured != null) {
            candidates.add(Path.of(configured));
        } else {
            for (String directory : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                candidates.add(Path.of(directory, "chromium"));
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst().map(Path::toString)
                .orElseThrow(() -> new IllegalStateException("Chromium is not installed"
                        + (configured == null ? "" : " at " + configured) + ": this test opens the Dev UI in a "
                        + "headless Chromium. Install Debian's (apt-get install chromium), as .ci/run does, or name a "
                        + "Chromium binary with -Dquarkus-lock.chromium=/path/to/chromium"));
    }

    /** Chromium writes the port it chose, and its browser endpoint's path, to this file of its profile. */
    private String devToolsEndpoint() throws IOException, InterruptedException {
        Path activePort = profile.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Chromium exited with " + process.exitValue());
            }
            if (Files.exists(activePort)) {
                List<String> lines = Files.readAllLines(activePort, StandardCharsets.UTF_8);
                if (lines.size() >= 2) {
                    return "ws://127.0.0.1:" + lines.get(0).trim() + lines.get(1).trim();
                }
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Chromium did not open its DevTools port within " + START_TIMEOUT);
    }

    private String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return "Chromium's output:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no output of Chromium: " + e + ")";
        }
    }

    private void kill(List<ProcessHandle> startedBefore) {
        List<ProcessHandle> all = new ArrayList<>(startedBefore);
        all.addAll(process.descendants().toList());
        all.add(process.toHandle());
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle handle : all) {
            try {
                handle.onExit().get(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException | TimeoutException e) {
                // destroyForcibly sent SIGKILL: nothing more to do
            }
        }
        delete(profile);
        delete(log);
    }

    private static void delete(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        } catch (IOException | RuntimeException e) {
            // a temporary directory: left to the system
        }
    }
}
