package io.quarkiverse.lock.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

import io.smallrye.mutiny.Uni;

/**
 * Uncontended acquire+release pairs per second against concurrency, for several libraries (the first one ours): a table
 * with the median and the spread of each, our ratio to each peer, and further columns such as a server's ceiling; and
 * a chart of the medians.
 *
 * @param report where the table and the chart go
 * @param bench the concurrencies and how long each is measured
 */
record UncontendedCurve(Report report, BenchSettings bench) {

    /**
     * A further column, measured at each concurrency and drawn dashed.
     *
     * @param name the column's and the line's name
     * @param measure its value at a concurrency
     */
    record Column(String name, IntFunction<Spread> measure) {
    }

    /**
     * @param title the section's and the chart's title
     * @param description what the table shows, after how it was measured
     * @param chart the chart's file name
     * @param concurrency the concurrencies
     * @param libraries ours first, then its peers, each loop on a key of its own
     * @param columns further columns
     */
    void measure(String title, String description, String chart, int[] concurrency, List<LockLibrary> libraries,
            List<Column> columns) {
        List<String> header = new ArrayList<>(List.of("concurrency"));
        libraries.forEach(library -> header.add(library.name()));
        libraries.stream().skip(1).forEach(library -> header.add("ours / " + Report.shortName(library.name())));
        columns.forEach(column -> header.add(column.name()));
        report.section(title, "Each loop locks a key of its own, so nothing is contended: the cost of a lock. "
                + bench.throughputMethod() + " The libraries run in turns, round by round, each going first in turn."
                + description, header.toArray(new String[0]));
        Throughput throughput = bench.throughput();
        int lines = libraries.size() + columns.size();
        double[][] medians = new double[lines][concurrency.length];
        for (int c = 0; c < concurrency.length; c++) {
            int loops = concurrency[c];
            String[] row = new String[1 + lines + libraries.size() - 1];
            row[0] = Integer.toString(loops);
            List<IntFunction<Uni<?>>> pairs = new ArrayList<>();
            for (LockLibrary library : libraries) {
                String prefix = "u-" + library.name().replaceAll("\\W", "") + "-";
                pairs.add(i -> library.acquireAndRelease(prefix + i));
            }
            double[][] rounds = throughput.inTurns(loops, pairs);
            for (int l = 0; l < lines; l++) {
                Spread spread = l < libraries.size() ? Spread.of(rounds[l])
                        : columns.get(l - libraries.size()).measure().apply(loops);
                medians[l][c] = spread.median();
                row[l < libraries.size() ? 1 + l : libraries.size() + l] = Report.rate(spread);
            }
            for (int l = 1; l < libraries.size(); l++) {
                row[libraries.size() + l] = Report.ratio(medians[0][c] / medians[l][c]);
            }
            report.row(row);
        }
        double[] xs = Arrays.stream(concurrency).asDoubleStream().toArray();
        SvgChart svg = SvgChart.of(title, "concurrency (loops, each on a key of its own)", "pairs per second", true);
        for (int l = 0; l < lines; l++) {
            boolean library = l < libraries.size();
            svg = svg.line(library ? libraries.get(l).name() : columns.get(l - libraries.size()).name(),
                    library ? l : 6, library ? 0 : 1 + l - libraries.size(), xs, medians[l]);
        }
        report.chart(chart, title + " against concurrency", svg);
    }
}
