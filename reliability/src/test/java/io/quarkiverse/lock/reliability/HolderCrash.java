package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

/**
 * What the crash tests of every store check once a holder process holds the lock and a waiter process waits for it:
 * after {@code kill -9} of the holder, the waiter gets the lock once the holder's lease ends, not before, and within
 * lease + 500 ms; and the history of both processes' acquisitions and releases fits a fenced mutex.
 */
final class HolderCrash {

    private HolderCrash() {
    }

    /**
     * Kills the holder once the waiter waits, and checks when the waiter got the lock. The holder's lease began
     * between {@code asked} and {@code granted} (epoch milliseconds).
     *
     * @param who how the report line names the holder, such as {@code "Holder"}
     * @param logPort the port of the redis-server where both processes write their history
     * @param key the lock's key
     * @param leaseMillis the holder's lease
     */
    static void crashAndTakeOver(String who, Processes.Contender holder, Processes.Contender waiter, int logPort,
            String key, long leaseMillis, long asked, long granted) throws Exception {
        waiter.awaitLine("WAITING", Duration.ofSeconds(30));
        Process kill = new ProcessBuilder("kill", "-9", Long.toString(holder.pid())).inheritIO().start();
        assertThat(kill.waitFor()).isZero();
        long killedAt = System.currentTimeMillis();
        assertThat(killedAt).as("killed while its lease ran").isLessThan(asked + leaseMillis);

        String[] acquired = waiter.awaitLine("ACQUIRED", Duration.ofSeconds(30)).split(" ");
        long acquiredAt = Long.parseLong(acquired[2]);
        assertThat(acquiredAt).as("not before the killed holder's lease ended")
                .isGreaterThanOrEqualTo(asked + leaseMillis);
        assertThat(acquiredAt).as("within lease + 500 ms").isLessThanOrEqualTo(granted + leaseMillis + 500);
        assertThat(waiter.awaitExit(Duration.ofSeconds(30))).isZero();
        System.out.printf("%s killed %d ms into its %d ms lease; the lock was taken %d to %d ms after the lease "
                + "ended%n", who, killedAt - granted, leaseMillis, acquiredAt - granted - leaseMillis,
                acquiredAt - asked - leaseMillis);
        RecordedHistory.recordDeathOfHolders(logPort, key);
        RecordedHistory.check(logPort, key, 2);
    }
}
