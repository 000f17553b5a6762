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
        for (int l = 0; l < libraries.size(); l++) {
            HandoffSubject library = libraries.get(l);
            for (int n = 0; n < instances.length; n++) {
                bench.handoff(instances[n]).measure(library,
                        "handoff-" + library.name().replaceAll("\\W", "") + "-" + instances[n] + "-warm-up");
            }
            for (int n = 0; n < instances.length; n++) {
                Handoff.Result[] runs = new Handoff.Result[bench.rounds()];
                for (int r = 0; r < runs.length; r++) {
                    runs[r] = bench.handoff(instances[n]).measure(library,
                            "handoff-" + library.name().replaceAll("\\W", "") + "-" + instances[n] + "-" + r);
                }
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
    }

    private static Spread spread(Handoff.Result[] runs, ToDoubleFunction<Handoff.Result> measure) {
        return Spread.of(Arrays.stream(runs).mapToDouble(measure).toArray());
    }
}
