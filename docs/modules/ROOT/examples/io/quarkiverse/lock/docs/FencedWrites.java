package io.quarkiverse.lock.docs;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;

/**
 * Fencing: the store that is written to rejects writes whose token is older than the last one it accepted, so a
 * holder that paused past its lease cannot overwrite the work of the next holder.
 */
@ApplicationScoped
public class FencedWrites {

    @Inject
    LockRegistry locks;

    @Inject
    ReactiveRedisDataSource redis;

    // tag::fenced[]
    /** Sets {@code key} to {@code value} only if {@code token} is not older than the token of the last write. */
    private static final String FENCED_SET = """
            local last = tonumber(redis.call('HGET', KEYS[1], 'token') or '0')
            if tonumber(ARGV[1]) < last then return 0 end
            redis.call('HSET', KEYS[1], 'token', ARGV[1], 'value', ARGV[2])
            return 1""";

    /**
     * @param account the account whose balance is written
     * @param balance the new balance
     * @return {@code true} if written, {@code false} if a newer holder wrote first (this one lost its lock)
     */
    public Uni<Boolean> writeBalance(String account, String balance) {
        ReactiveDistributedLock lock = locks.obtain("account-" + account);
        return lock.acquireAndExecute(Duration.ofSeconds(5), Uni.createFrom().deferred(() -> {
            long token = lock.fencingToken().orElseThrow();
            return redis.execute("EVAL", FENCED_SET, "1", "balance:" + account, Long.toString(token), balance)
                    .map(reply -> reply.toInteger() == 1);
        }));
    }
    // end::fenced[]
}
