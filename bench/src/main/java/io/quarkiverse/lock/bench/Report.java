package io.quarkiverse.lock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tables, printed as they are measured and kept for the AsciiDoc page. The page has one part per store, between
 * {@code // begin <part>} and {@code // end <part>} comment lines, so that a run of one part keeps the other parts as
 * the page had them.
 */
final class Report {

    /** The parts of the page, in their order. */
    static final List<String> PARTS = List.of("redis", "postgresql", "jdbc", "tracing");

    private static final String HEADER = "= Benchmarks\n// GitHub shows the page from its folder; Antora finds the images itself.\n"
            + "ifdef::env-github[:imagesdir: ../images]\n\n"
            + "Produced by the benchmark module; see the README for the command. Figures from one run on one "
            + "machine: compare libraries within a table, not across machines. Each figure is the median of its "
            + "runs, with the lowest and the highest run in brackets.\n\n";

    private final Map<String, StringBuilder> parts = new LinkedHashMap<>();
    private final Map<String, SvgChart> charts = new LinkedHashMap<>();
    private StringBuilder adoc;
    private boolean tableOpen;

    /**
     * Starts a part of the page: what follows replaces that part.
     *
     * @param name one of {@link #PARTS}
     */
    void part(String name) {
        closeTable();
        adoc = new StringBuilder();
        parts.put(name, adoc);
    }

    void line(String text) {
        System.out.println(text);
        adoc.append(text).append("\n\n");
    }

    void section(String title, String description, String... columns) {
        closeTable();
        System.out.println();
        System.out.println("== " + title);
        System.out.println(description);
        System.out.println(String.join(" | ", columns));
        adoc.append("== ").append(title).append("\n\n").append(description).append("\n\n")
                .append("[options=\"header\"]\n|===\n");
        for (String column : columns) {
            adoc.append("| ").append(column).append(' ');
        }
        adoc.append("\n");
        tableOpen = true;
    }

    /**
     * Shows a chart below the table before it: written as {@code <name>.svg} into the page's {@code images} folder
     * (beside its {@code pages} folder, as Antora has it) when the page is written.
     *
     * @param name the image's file name, without {@code .svg}
     * @param alt the image's text where it cannot be shown
     * @param chart the chart
     */
    void chart(String name, String alt, SvgChart chart) {
        closeTable();
        charts.put(name + ".svg", chart);
        adoc.append("image::").append(name).append(".svg[").append(alt.replace("]", "")).append("]\n\n");
    }

    void row(String... cells) {
        System.out.println(String.join(" | ", cells));
        adoc.append("\n");
        for (String cell : cells) {
            adoc.append("| ").append(cell).append('\n');
        }
    }

    /**
     * Writes the page: the parts this run measured, and the other parts as the file had them; and this run's charts
     * into the {@code images} folder beside the page's folder.
     *
     * @param file the page
     * @throws IOException if it could not be read or written
     */
    void write(Path file) throws IOException {
        closeTable();
        String before = Files.exists(file) ? Files.readString(file) : "";
        StringBuilder page = new StringBuilder(HEADER);
        for (String name : PARTS) {
            String text = parts.containsKey(name) ? parts.get(name).toString().strip() : kept(before, name);
            if (!text.isEmpty()) {
                page.append("// begin ").append(name).append("\n\n").append(text).append("\n\n// end ").append(name)
                        .append("\n\n");
            }
        }
        Files.writeString(file, page.toString().stripTrailing() + "\n");
        Path images = file.toAbsolutePath().getParent().resolveSibling("images");
        for (Map.Entry<String, SvgChart> chart : charts.entrySet()) {
            chart.getValue().write(images.resolve(chart.getKey()));
        }
    }

    private static String kept(String page, String name) {
        String begin = "// begin " + name + "\n";
        int from = page.indexOf(begin);
        int to = page.indexOf("// end " + name + "\n");
        return from < 0 || to < from ? "" : page.substring(from + begin.length(), to).strip();
    }

    private void closeTable() {
        if (tableOpen) {
            adoc.append("|===\n\n");
            tableOpen = false;
        }
    }

    /**
     * @return when and on what a part was measured: the date, the cores and the JVM
     */
    static String measured() {
        return "Measured " + LocalDate.now() + " on " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version");
    }

    /**
     * @param name a library's name in the tables
     * @return the name without its version and what follows, for narrow headers ("Redisson" for "Redisson 3.52.0")
     */
    static String shortName(String name) {
        return name.replaceAll(" [0-9][0-9.]*([ ,].*)?$", "");
    }

    static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "n/a" : String.format("%,.0f", perSecond);
    }

    static String rate(Spread perSecond) {
        return perSecond.format(Report::rate);
    }

    static String millis(Spread value) {
        return value.format(Report::millis);
    }

    static String micros(double value) {
        return String.format("%.1f", value);
    }

    static String ratio(double value) {
        return String.format("%.2fx", value);
    }

    static String millis(double value) {
        return Double.isNaN(value) ? "n/a" : String.format("%.2f", value);
    }

    static String megabytes(long bytes) {
        return String.format("%.2f MB", bytes / 1_048_576.0);
    }
}
