package io.quarkiverse.lock.bench;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Handoff tables: each library's handoff at each number of instances, run several times (the median and the spread
 * of each figure), and, where there are several numbers of instances, a chart of the latencies against them.
 *
 * @param report where the tables go
 * @param bench how long and how often each handoff runs
 */
record HandoffTable(Report report, BenchSettings bench) {

    private static final String[] MEASURES = { "p50", "p99", "p99.9", "longest wait" };
    /** The most unmeasured runs before the measured ones at each number of instances. */
    static final int WARM_UP_RUNS = 4;
    /** A run that compiled for less than this long, in ms, ends the warm-up. */
    static final long SETTLED_COMPILING_MILLIS = 25;

    /**
     * @param title the section's title
     * @param description what the table shows, after how it was measured
     * @param instances the numbers of contending instances
     * @param libraries the rows, measured one after the other on keys of their own
     * @param chart the chart's file name, or null for none
     * @throws InterruptedException if interrupted while the contenders ran
     */
    void measure(String title, String description, int[] instances, List<? extends HandoffSubject> libraries, String chart)
            throws InterruptedException {
        report.section(title, bench.handoffMethod() + description, "library", "instances", "handoffs", "p50 ms",
                "p99 ms", "p99.9 ms", "longest wait ms", "give-ups", "JIT ms", "GC ms");
        double[][][] medians = new double[libraries.size()][MEASURES.length][instances.length];
        Handoff.Result[][] largest = new Handoff.Result[libraries.size()][];
        for (int l = 0; l < libraries.size(); l++) {
            HandoffSubject library = libraries.get(l);
            String keys = "handoff-" + library.name().replaceAll("\\W", "") + "-";
            for (int n = 0; n < instances.length; n++) {
                Handoff handoff = bench.handoff(instances[n]);
                Handoff.Result[] runs = new Handoff.Result[bench.rounds()];
                try (Handoff.Instances started = handoff.start(library, keys + instances[n])) {
                    warmUp(library, handoff, started);
                    for (int r = 0; r < runs.length; r++) {
                        runs[r] = handoff.measure(library, started);
                    }
                }
                largest[l] = runs;
                Spread[] spreads = { spread(runs, Handoff.Result::p50Millis), spread(runs, Handoff.Result::p99Millis),
                        spread(runs, Handoff.Result::p999Millis), spread(runs, Handoff.Result::longestWaitMillis) };
                for (int m = 0; m < MEASURES.length; m++) {
                    medians[l][m][n] = spreads[m].median();
                }
                report.row(library.name(), Integer.toString(instances[n]),
                        spread(runs, Handoff.Result::handoffs).format(Report::rate), Report.millis(spreads[0]),
                        Report.millis(spreads[1]), Report.millis(spreads[2]), Report.millis(spreads[3]),
                        Long.toString(Arrays.stream(runs).mapToLong(Handoff.Result::giveUps).sum()),
                        spread(runs, Handoff.Result::compilingMillis).format(Report::rate),
                        spread(runs, Handoff.Result::collectingMillis).format(Report::rate));
            }
        }
        if (chart != null) {
            SvgChart svg = SvgChart.of(title, "contending instances", "milliseconds", true);
            double[] xs = Arrays.stream(instances).asDoubleStream().toArray();
            for (int l = 0; l < libraries.size(); l++) {
                for (int m = 0; m < MEASURES.length; m++) {
                    svg = svg.line(libraries.get(l).name() + " " + MEASURES[m], l, m, xs, medians[l][m]);
                }
            }
            report.chart(chart, title + ": p50, p99, p99.9 and longest wait", svg);
        }
        if (instances.length > 1) {
            breakdown(title, instances[instances.length - 1], libraries, largest);
        }
    }

    /**
     * Passes the lock around unmeasured, at the number of instances about to be measured, until the JIT has settled:
     * until a run compiled for less than {@link #SETTLED_COMPILING_MILLIS}, at most {@link #WARM_UP_RUNS} runs. A
     * handoff at 32 instances calls each method of its path a few thousand times a second, so the JIT's last
     * compilations come only after several seconds; while it compiles, it takes one of two cores from the contenders.
     */
    private void warmUp(HandoffSubject library, Handoff handoff, Handoff.Instances instances)
            throws InterruptedException {
        for (int run = 0; run < WARM_UP_RUNS; run++) {
            if (handoff.measure(library, instances).compilingMillis() < SETTLED_COMPILING_MILLIS) {
                return;
            }
        }
    }

    /**
     * A table of where each run's longest wait went at the largest number of instances: the turns it waited for, how
     * long the lock was held and how long it was being handed over in that time, and the longest of each.
     */
    private void breakdown(String title, int instances, List<? extends HandoffSubject> libraries,
            Handoff.Result[][] runs) {
        report.section(title + ": where the longest waits went", "Each run's longest wait at " + instances
                + " instances, split into the turns it waited for: how long the lock was held in that time "
                + "(from a grant's return to the holder's release call: the 1 ms sleep, its late wake-up and the "
                + "benchmark's own bookkeeping) and how long it was being handed over (from a release call, or from "
                + "the ask if the lock was between holders then, to the next acquisition's return), with the longest "
                + "hold and the longest handoff among them, beside the time this JVM spent compiling and collecting "
                + "garbage in the run. "
                + "In a fair line every wait is " + (instances - 1) + " turns long.", "library", "run",
                "longest wait ms", "turns", "holding ms", "longest hold ms", "handing over ms", "longest handoff ms",
                "JIT ms", "GC ms");
        for (int l = 0; l < libraries.size(); l++) {
            for (int r = 0; r < runs[l].length; r++) {
                Handoff.Result run = runs[l][r];
                Handoff.LongestWait wait = run.longestWait();
                if (wait == null) {
                    continue;
                }
                report.row(libraries.get(l).name(), Integer.toString(r + 1), Report.millis(wait.millis()),
                        Integer.toString(wait.turns()), Report.millis(wait.holdingMillis()),
                        Report.millis(wait.longestHoldMillis()), Report.millis(wait.handingOverMillis()),
                        Report.millis(wait.longestHandoffMillis()), Long.toString(run.compilingMillis()),
                        Long.toString(run.collectingMillis()));
            }
        }
    }

    private static Spread spread(Handoff.Result[] runs, ToDoubleFunction<Handoff.Result> measure) {
        return Spread.of(Arrays.stream(runs).mapToDouble(measure).toArray());
    }
}
