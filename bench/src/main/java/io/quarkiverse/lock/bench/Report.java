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
    static final List<String> PARTS = List.of("redis", "postgresql");

    private static final String HEADER = "= Benchmarks\n\n"
            + "Produced by the benchmark module; see the README for the command. Figures from one run on one "
            + "machine: compare libraries within a table, not across machines.\n\n";

    private final Map<String, StringBuilder> parts = new LinkedHashMap<>();
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

    void row(String... cells) {
        System.out.println(String.join(" | ", cells));
        adoc.append("\n");
        for (String cell : cells) {
            adoc.append("| ").append(cell).append('\n');
        }
    }

    /**
     * Writes the page: the parts this run measured, and the other parts as the file had them.
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

    static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "n/a" : String.format("%,.0f", perSecond);
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

    /**
     * A handoff table: one row per library, measured one after the other on a key of its own.
     *
     * @param title the section's title
     * @param description what the table shows and how it was measured
     * @param handoff the measurement
     * @param libraries the rows
     * @throws InterruptedException if interrupted while the contenders ran
     */
    void handoffTable(String title, String description, Handoff handoff, List<LockLibrary> libraries)
            throws InterruptedException {
        section(title, description, "library", "handoffs", "p50 ms", "p99 ms", "longest wait ms", "give-ups");
        for (LockLibrary library : libraries) {
            Handoff.Result result = handoff.measure(library, "handoff-" + library.name().replaceAll("\\W", ""));
            row(library.name(), Integer.toString(result.handoffs()), millis(result.p50Millis()),
                    millis(result.p99Millis()), millis(result.longestWaitMillis()), Long.toString(result.giveUps()));
        }
    }
}
