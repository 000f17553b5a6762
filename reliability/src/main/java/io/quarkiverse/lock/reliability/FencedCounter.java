package io.quarkiverse.lock.reliability;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.RedisDataSource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Response;

/**
 * A downstream resource written under a lock, and a client of it that a pause can catch mid-way: an increment reads
 * the counter (printing {@code READ <token> <value>}), works for a second, and writes the value plus one, on a thread of
 * its own that nothing interrupts, as a blocking client's write goes out once the process runs again. Unfenced, the
 * write is a plain {@code SET}. Fenced, the resource checks the writer's fencing token, as a store that supports
 * fencing does: it refuses a token below the highest it has seen (printing {@code REFUSED <token>}), so a holder whose
 * lock was taken over while it was paused cannot overwrite what the next holder wrote. An accepted write prints
 * {@code WROTE <token> <value>}.
 */
@ApplicationScoped
public class FencedCounter {

    /** Writes {@code ARGV[2]} to {@code KEYS[1]} unless {@code KEYS[2]} has seen a token above {@code ARGV[1]}. */
    private static final String FENCED_SET = "local seen = tonumber(redis.call('GET', KEYS[2]) or '0') "
            + "if tonumber(ARGV[1]) < seen then return 0 end "
            + "redis.call('SET', KEYS[2], ARGV[1]) redis.call('SET', KEYS[1], ARGV[2]) return 1";
    private static final Duration WORK = Duration.ofSeconds(1);

    private final ExecutorService writers = Executors.newCachedThreadPool();
    private volatile CompletableFuture<Boolean> lastWrite;

    @Inject
    RedisDataSource redis;

    /**
     * @param counterKey the counter
     * @param token the writer's fencing token, read when the increment starts
     * @param fenced whether the resource checks tokens
     * @return emits {@code true} if the write was accepted, {@code false} if the resource refused it
     */
    public Uni<Boolean> increment(String counterKey, LongSupplier token, boolean fenced) {
        return Uni.createFrom().completionStage(() -> {
            lastWrite = CompletableFuture.supplyAsync(() -> incrementNow(counterKey, token.getAsLong(), fenced),
                    writers);
            // A cancelled section cancels the copy; the write itself goes on, and awaitLastWrite waits for it.
            return lastWrite.copy();
        });
    }

    /**
     * Waits until the last increment's write went out, even if its section ended before (a lost lock cancels the
     * section, not the write).
     */
    public void awaitLastWrite() throws Exception {
        CompletableFuture<Boolean> write = lastWrite;
        if (write != null) {
            write.get(1, TimeUnit.MINUTES);
        }
    }

    private boolean incrementNow(String counterKey, long token, boolean fenced) {
        String read = redis.value(String.class).get(counterKey);
        long value = read == null ? 0 : Long.parseLong(read);
        System.out.println("READ " + token + " " + value);
        try {
            Thread.sleep(WORK.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long next = value + 1;
        boolean accepted;
        if (fenced) {
            Response reply = redis.execute("EVAL", FENCED_SET, "2", counterKey, counterKey + ":fence",
                    Long.toString(token), Long.toString(next));
            accepted = reply.toLong() == 1;
        } else {
            redis.value(String.class).set(counterKey, Long.toString(next));
            accepted = true;
        }
        System.out.println((accepted ? "WROTE " : "REFUSED ") + token + (accepted ? " " + next : ""));
        return accepted;
    }

    @PreDestroy
    void close() {
        writers.shutdownNow();
    }
}
