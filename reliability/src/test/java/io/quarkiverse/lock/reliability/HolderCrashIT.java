package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

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
                crashAndTakeOver(holder, waiter, Long.parseLong(holding[2]), Long.parseLong(holding[3]));
            }
        } finally {
            redis.shutdown();
        }
    }

    /**
     * Kills the holder once the waiter waits, and checks when the waiter got the lock. The holder's lease began
     * between {@code asked} and {@code granted} (epoch milliseconds).
     */
    private static void crashAndTakeOver(Processes.Contender holder, Processes.Contender waiter, long asked,
            long granted) throws Exception {
        waiter.awaitLine("WAITING", Duration.ofSeconds(30));
        Process kill = new ProcessBuilder("kill", "-9", Long.toString(holder.pid())).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
        long killedAt = System.currentTimeMillis();
        assertThat(killedAt).as("killed while its lease ran").isLessThan(asked + LEASE_MILLIS);

        String[] acquired = waiter.awaitLine("ACQUIRED", Duration.ofSeconds(30)).split(" ");
        long acquiredAt = Long.parseLong(acquired[2]);
        assertThat(acquiredAt).as("not before the killed holder's lease ended")
                .isGreaterThanOrEqualTo(asked + LEASE_MILLIS);
        assertThat(acquiredAt).as("within lease + 500 ms").isLessThanOrEqualTo(granted + LEASE_MILLIS + 500);
        assertThat(waiter.awaitExit(Duration.ofSeconds(30))).isZero();
        System.out.printf("Holder killed %d ms into its %d ms lease; the lock was taken %d to %d ms after the lease "
                + "ended%n", killedAt - granted, LEASE_MILLIS, acquiredAt - granted - LEASE_MILLIS,
                acquiredAt - asked - LEASE_MILLIS);
    }
}
