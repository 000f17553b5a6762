package io.quarkiverse.lock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart written as SVG, small enough to need no charting library: a logarithmic x axis ticked at the measured
 * points, a logarithmic or linear y axis, labelled axes, and a legend. Each series is a line with a marker at each
 * point; a colour per library and a dash pattern per measure tell the series apart. Immutable: {@link #line} returns
 * the chart with one more line.
 *
 * @param title the chart's title
 * @param xLabel what the x axis counts
 * @param yLabel what the y axis measures, with its unit
 * @param logY whether the y axis is logarithmic
 * @param series the lines
 */
record SvgChart(String title, String xLabel, String yLabel, boolean logY, List<Series> series) {

    private static final String[] COLOURS = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
            "#7f7f7f", "#17becf" };
    private static final String[] DASHES = { "", "6,3", "2,3", "8,3,2,3" };
    private static final int WIDTH = 880, HEIGHT = 400;
    private static final int LEFT = 80, RIGHT = 350, TOP = 40, BOTTOM = 60;

    /**
     * @param title the chart's title
     * @param xLabel what the x axis counts
     * @param yLabel what the y axis measures, with its unit
     * @param logY whether the y axis is logarithmic
     * @return a chart without lines
     */
    static SvgChart of(String title, String xLabel, String yLabel, boolean logY) {
        return new SvgChart(title, xLabel, yLabel, logY, List.of());
    }

    /**
     * Adds a line; points whose y is NaN or (on a logarithmic axis) not positive are left out.
     *
     * @param name the legend's text
     * @param colour which colour (a library)
     * @param dash which dash pattern (a measure)
     * @param xs the x values, positive
     * @param ys the y values
     * @return the chart with that line
     */
    SvgChart line(String name, int colour, int dash, double[] xs, double[] ys) {
        List<double[]> points = new ArrayList<>();
        for (int i = 0; i < xs.length; i++) {
            if (!Double.isNaN(ys[i]) && (!logY || ys[i] > 0)) {
                points.add(new double[] { xs[i], ys[i] });
            }
        }
        List<Series> lines = new ArrayList<>(series);
        lines.add(new Series(name, COLOURS[colour % COLOURS.length], DASHES[dash % DASHES.length], points));
        return new SvgChart(title, xLabel, yLabel, logY, List.copyOf(lines));
    }

    /**
     * @param file where to write the SVG; its folder is made if missing
     * @throws IOException if it could not be written
     */
    void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, svg());
    }

    String svg() {
        double[] x = range(series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).toArray(), true);
        double[] y = range(series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).toArray(), logY);
        Axis xAxis = Axis.of(x[0], x[1], true, LEFT, WIDTH - RIGHT);
        Axis yAxis = Axis.of(y[0], y[1], logY, HEIGHT - BOTTOM, TOP);
        StringBuilder svg = new StringBuilder();
        svg.append(format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(format("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, HEIGHT));
        svg.append(text(WIDTH / 2.0, 22, "middle", 15, escape(title)));
        for (double tick : series.stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[0]).distinct()
                .sorted().toArray()) {
            double px = xAxis.at(tick);
            svg.append(format("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>\n", px, TOP, px,
                    HEIGHT - BOTTOM));
            svg.append(text(px, HEIGHT - BOTTOM + 16, "middle", 12, label(tick)));
        }
        for (double tick : yAxis.ticks()) {
            double py = yAxis.at(tick);
            svg.append(format("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", LEFT, py,
                    WIDTH - RIGHT, py));
            svg.append(text(LEFT - 6, py + 4, "end", 12, label(tick)));
        }
        svg.append(format("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n", LEFT,
                TOP, WIDTH - RIGHT - LEFT, HEIGHT - BOTTOM - TOP));
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 20, "middle", 13, escape(xLabel)
                + " (log scale)"));
        svg.append(format("<text transform=\"translate(18,%.1f) rotate(-90)\" text-anchor=\"middle\" "
                + "font-size=\"13\">%s</text>\n", (TOP + HEIGHT - BOTTOM) / 2.0,
                escape(yLabel)
                        + (logY ? " (log scale)" : "")));
        for (int i = 0; i < series.size(); i++) {
            Series line = series.get(i);
            String dash = line.dash().isEmpty() ? "" : " stroke-dasharray=\"" + line.dash() + "\"";
            StringBuilder path = new StringBuilder();
            for (double[] point : line.points()) {
                double px = xAxis.at(point[0]);
                double py = yAxis.at(point[1]);
                path.append(path.isEmpty() ? "M" : " L").append(format("%.1f %.1f", px, py));
                svg.append(format("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", px, py, line.colour()));
            }
            svg.append(format("<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", path,
                    line.colour(), dash));
            double ly = TOP + 8 + i * 18;
            svg.append(format("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
                    WIDTH - RIGHT + 12, ly, WIDTH - RIGHT + 40, ly, line.colour(), dash));
            svg.append(text(WIDTH - RIGHT + 46, ly + 4, "start", 11, escape(line.name())));
        }
        return svg.append("</svg>\n").toString();
    }

    private static double[] range(double[] values, boolean log) {
        double min = java.util.Arrays.stream(values).min().orElse(1);
        double max = java.util.Arrays.stream(values).max().orElse(10);
        if (!log) {
            min = Math.min(0, min);
        }
        if (max <= min) {
            max = log ? min * 10 : min + 1;
        }
        return new double[] { min, max };
    }

    private static String text(double x, double y, String anchor, int size, String text) {
        return format("<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>\n", x, y, anchor,
                size, text);
    }

    private static String label(double value) {
        if (value >= 1_000_000 && value % 1_000_000 == 0) {
            return format("%.0fM", value / 1_000_000);
        }
        if (value >= 1_000 && value % 1_000 == 0) {
            return format("%.0fk", value / 1_000);
        }
        return value == Math.rint(value) ? format("%.0f", value) : format("%s", (float) value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** One line of the chart. */
    record Series(String name, String colour, String dash, List<double[]> points) {
    }

    /**
     * Maps values to pixels: a logarithmic axis spans the values with a margin, a linear one starts at zero.
     */
    private record Axis(boolean log, double low, double high, double from, double to) {

        static Axis of(double min, double max, boolean log, double from, double to) {
            if (!log) {
                return new Axis(false, 0, step(max) * Math.ceil(max / step(max)), from, to);
            }
            double pad = Math.max(0.05, (Math.log10(max) - Math.log10(min)) * 0.05);
            return new Axis(true, Math.log10(min) - pad, Math.log10(max) + pad, from, to);
        }

        double at(double value) {
            double v = log ? Math.log10(value) : value;
            return from + (v - low) / (high - low) * (to - from);
        }

        /** @return 1, 2 and 5 times the powers of ten within a logarithmic axis, or about five steps of a linear one */
        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (log) {
                for (int decade = (int) Math.floor(low); decade <= Math.ceil(high); decade++) {
                    for (int m : high - low > 3 ? new int[] { 1 } : new int[] { 1, 2, 5 }) {
                        double tick = m * Math.pow(10, decade);
                        double at = Math.log10(tick);
                        if (at >= low && at <= high) {
                            ticks.add(tick);
                        }
                    }
                }
            } else {
                for (double tick = 0; tick <= high + 1e-9; tick += step(high)) {
                    ticks.add(tick);
                }
            }
            return ticks;
        }

        private static double step(double max) {
            double raw = max / 5;
            double power = Math.pow(10, Math.floor(Math.log10(raw)));
            for (double m : new double[] { 1, 2, 5 }) {
                if (m * power >= raw) {
                    return m * power;
                }
            }
            return 10 * power;
        }
    }
}
