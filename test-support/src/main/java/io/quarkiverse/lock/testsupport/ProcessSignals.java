package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends signals to a test server's processes, as {@code kill} does: {@code -STOP} makes a server hang (it keeps its
 * connections and answers nothing), {@code -CONT} lets it go on.
 */
final class ProcessSignals {

    private ProcessSignals() {
    }

    /**
     * @param signal the signal, such as {@code -STOP}
     * @param pids the processes
     * @throws IllegalStateException if {@code kill} fails or a process id is unknown
     */
    static void send(String signal, List<Long> pids) {
        List<String> command = new ArrayList<>(List.of("kill", signal));
        for (long pid : pids) {
            if (pid <= 0) {
                throw new IllegalStateException("Unknown process id " + pid + ": cannot send " + signal);
            }
            command.add(Long.toString(pid));
        }
        try {
            int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Could not run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + String.join(" ", command), e);
        }
    }
}
