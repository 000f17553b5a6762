package io.quarkiverse.lock.tck.faults;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockExpiredException;

/** How the operations of a run ended: counted as {@code OPERATION outcome}, failures named by what they mean. */
final class OperationOutcomes {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    /**
     * @param operation the operation's name
     * @param outcome how it ended
     */
    void count(String operation, String outcome) {
        counts.computeIfAbsent(operation + " " + outcome, k -> new LongAdder()).increment();
    }

    /**
     * @return how many operations ended each way, sorted
     */
    Map<String, Long> counts() {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted;
    }

    /**
     * @param failure how an operation failed
     * @return the outcome it stands for; {@code hung}, {@code harness failure: ...} and {@code unexpected ...} make the
     *         run fail
     */
    static String classify(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof CannotAcquireLockException) {
            return "not acquired";
        }
        if (cause instanceof LockExpiredException) {
            return "lease expired";
        }
        if (cause instanceof LockException) {
            return "store failure";
        }
        if (cause instanceof InterruptedException) {
            return "interrupted";
        }
        if (cause instanceof CancellationException) {
            return "cancelled";
        }
        if (cause instanceof TimeoutException || cause instanceof io.smallrye.mutiny.TimeoutException) {
            return "hung";
        }
        if (cause instanceof HarnessFailure) {
            return "harness failure: " + cause.getMessage();
        }
        return "unexpected " + cause.getClass().getSimpleName();
    }
}
