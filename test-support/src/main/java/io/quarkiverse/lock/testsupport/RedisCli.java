package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code redis-cli} (or another short command of the Redis tools) for the test servers' checks. */
final class RedisCli {

    private RedisCli() {
    }

    /**
     * @param command the command line, such as {@code redis-cli -p 6379 --raw PING}
     * @return what it printed, standard error included
     * @throws IllegalStateException if it could not be run or did not end within 30 s
     */
    static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(command + " did not end");
            }
            return output;
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
