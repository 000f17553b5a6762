package io.quarkiverse.lock.bench;

import java.util.Arrays;
import java.util.function.DoubleFunction;

/**
 * The median of several runs of one measurement, with the lowest and highest run, so that a reader can tell noise from
 * a difference.
 *
 * @param median the median run
 * @param min the lowest run
 * @param max the highest run
 */
record Spread(double median, double min, double max) {

    /**
     * @param runs the runs' values, at least one; NaN values (a run that measured nothing) are left out
     * @return their median and spread, or NaN throughout if no run measured anything
     */
    static Spread of(double... runs) {
        double[] sorted = Arrays.stream(runs).filter(value -> !Double.isNaN(value)).sorted().toArray();
        if (sorted.length == 0) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN);
        }
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[sorted.length - 1]);
    }

    /**
     * @param format how one value is written
     * @return "median (min–max)", or the median alone if the runs agree
     */
    String format(DoubleFunction<String> format) {
        if (Double.isNaN(median)) {
            return "n/a";
        }
        String middle = format.apply(median);
        String low = format.apply(min);
        String high = format.apply(max);
        return low.equals(high) ? middle : middle + " (" + low + "–" + high + ")";
    }
}
