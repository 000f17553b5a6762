package io.quarkiverse.lock.reliability;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * A process killed with {@code kill -9} while it holds a lock never releases it: another process gets the lock once
 * the lease ends, not before, and within lease + 500 ms.
 */
class HolderCrashIT {

    private static final long LEASE_MILLIS = 4_000;

    @Test
    void anotherProcessGetsTheLockOfAKilledHolderRightAfterItsLeaseEnds() throws Exception {
        RedisServer redis = RedisServer.start();
        try (Processes.Contender holder = Processes.start(redis.uri(), "hold", "crash", Long.toString(LEASE_MILLIS))) {
            String[] holding = holder.awaitLine("HOLDING", Duration.ofSeconds(30)).split(" ");
            try (Processes.Contender waiter = Processes.start(redis.uri(), "await", "crash",
                    Long.toString(LEASE_MILLIS))) {
                HolderCrash.crashAndTakeOver("Holder", holder, waiter, redis.port(), "crash", LEASE_MILLIS,
                        Long.parseLong(holding[2]),
                        Long.parseLong(holding[3]));
            }
        } finally {
            redis.shutdown();
        }
    }
}
