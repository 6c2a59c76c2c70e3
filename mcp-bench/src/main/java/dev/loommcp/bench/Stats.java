package dev.loommcp.bench;

import java.util.Arrays;

/** Small statistics over a handful of rounds. */
final class Stats {

    private Stats() {
    }

    /** The median; NaN for no values. */
    static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /**
     * The spread of a handful of values relative to their median, (max - min) / median; NaN for fewer than two
     * values (NaNs are left out) or a median of 0.
     */
    static double spread(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).sorted().toArray();
        double median = median(v);
        if (v.length < 2 || median == 0) {
            return Double.NaN;
        }
        return (v[v.length - 1] - v[0]) / Math.abs(median);
    }
}
