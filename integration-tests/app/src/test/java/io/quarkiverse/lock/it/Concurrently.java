package io.quarkiverse.lock.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntSupplier;

/**
 * Sends requests all at once, each from a thread of its own.
 */
final class Concurrently {

    private static final long TIMEOUT_SECONDS = 120;

    private Concurrently() {
    }

    /**
     * @param requests how many
     * @param request sends one request and returns its status code
     * @return the status codes
     */
    static List<Integer> send(int requests, IntSupplier request) {
        ExecutorService threads = Executors.newFixedThreadPool(requests);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                sent.add(threads.submit(request::getAsInt));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> status : sent) {
                statuses.add(status.get(TIMEOUT_SECONDS, TimeUnit.SECONDS));
            }
            return statuses;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("a request failed or did not end within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            threads.shutdownNow();
        }
    }
}
