package io.quarkiverse.lock.bench;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One key with many waiting acquisitions in one JVM (one client or registry): what the waiting costs Redis, in
 * commands per second from {@code INFO commandstats} while they wait, and how long after the holder's release the last
 * of them got the lock (each waiter releases as soon as it got it).
 *
 * @param report where the table and the chart go
 * @param bench how many waiters, how many runs
 * @param info the server's command counts
 */
record LocalWaiters(Report report, BenchSettings bench, RedisInfo info) {

    /** How long the waiters wait before their commands are counted, so that all have started. */
    private static final long SETTLE_MILLIS = 300;
    /** How long their commands are counted. */
    private static final long WINDOW_MILLIS = 1_000;

    /**
     * @param libraries the rows, each with its waiters' behaviour for the description
     * @param behaviour what each library's waiters do, for the description
     * @throws Exception if a library failed
     */
    void measure(List<LockLibrary> libraries, String behaviour) throws Exception {
        String title = "One key, many waiters in one JVM";
        report.section(title, "One holder takes a key, then that many acquisitions of the same key wait for it in the "
                + "same JVM, through one client or registry; each releases as soon as it got the lock. Redis "
                + "commands per second are counted by INFO commandstats over " + WINDOW_MILLIS + " ms while they wait; "
                + "Redis counts the commands a script runs inside the server as well as the script itself, so the scripts run per "
                + "second are shown too. The time to the last is from the holder's release until the last waiter got the "
                + "lock. "
                + behaviour + " Median of " + bench.rounds() + " runs, lowest and highest in brackets.", "library",
                "waiters", "Redis commands/s while waiting", "of which scripts/s", "ms until the last got the lock");
        int[] counts = bench.waiters();
        double[] xs = Arrays.stream(counts).asDoubleStream().toArray();
        SvgChart commands = SvgChart.of("Redis commands per second while the waiters wait", "waiters on one key",
                "commands per second", false);
        SvgChart drain = SvgChart.of("Time until the last waiter got the lock", "waiters on one key",
                "milliseconds", true);
        for (int l = 0; l < libraries.size(); l++) {
            LockLibrary library = libraries.get(l);
            double[] commandMedians = new double[counts.length];
            double[] drainMedians = new double[counts.length];
            for (int c = 0; c < counts.length; c++) {
                double[] rates = new double[bench.rounds()];
                double[] scripts = new double[bench.rounds()];
                double[] drains = new double[bench.rounds()];
                for (int r = 0; r < rates.length; r++) {
                    double[] run = run(library, "waiters-" + library.name().replaceAll("\\W", "") + "-" + counts[c]
                            + "-" + r, counts[c]);
                    rates[r] = run[0];
                    scripts[r] = run[1];
                    drains[r] = run[2];
                }
                Spread rate = Spread.of(rates);
                Spread last = Spread.of(drains);
                commandMedians[c] = rate.median();
                drainMedians[c] = last.median();
                report.row(library.name(), Integer.toString(counts[c]), Report.rate(rate), Report.rate(Spread.of(scripts)),
                        Report.millis(last));
            }
            commands = commands.line(library.name(), l, 0, xs, commandMedians);
            drain = drain.line(library.name(), l, 0, xs, drainMedians);
        }
        report.chart("waiters-commands", "Redis commands per second while the waiters wait, against waiters",
                commands);
        report.chart("waiters-last", "Time until the last waiter got the lock, against waiters", drain);
    }

    /**
     * @return commands and scripts per second while waiting, and milliseconds until the last got the lock (NaN if it
     *         timed out)
     */
    private double[] run(LockLibrary library, String key, int count) throws Exception {
        try (Waiters waiters = library.waiters(key)) {
            waiters.hold();
            CompletableFuture<Void> all = waiters.queue(count);
            Thread.sleep(SETTLE_MILLIS);
            RedisInfo.Calls before = info.calls();
            long from = System.nanoTime();
            Thread.sleep(WINDOW_MILLIS);
            RedisInfo.Calls after = info.calls();
            long commands = after.commands() - before.commands();
            long scripts = after.scripts() - before.scripts();
            double seconds = (System.nanoTime() - from) / 1e9;
            long releasedAt = System.nanoTime();
            waiters.release();
            try {
                all.get(LockLibrary.WAIT_MILLIS, TimeUnit.MILLISECONDS);
                return new double[] { commands / seconds, scripts / seconds, (System.nanoTime() - releasedAt) / 1e6 };
            } catch (TimeoutException e) {
                return new double[] { commands / seconds, scripts / seconds, Double.NaN };
            }
        }
    }
}
