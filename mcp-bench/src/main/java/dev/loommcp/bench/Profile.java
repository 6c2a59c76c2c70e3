package dev.loommcp.bench;

/**
 * How long each phase of one client's run lasts, and how many rounds a mode has.
 *
 * @param name         {@code quick}, {@code full} or {@code check}
 * @param rounds       alternating rounds (each client once per round, in a rotated order)
 * @param warmupMillis warm-up before measuring, split over sequential, 512-in-flight echo and sleep
 * @param seqMillis    the sequential echo phase
 * @param flightMillis each in-flight echo phase (64 and 512)
 * @param sleepMillis  each in-flight sleep(10) phase (64 and 512)
 * @param readyRepeats fresh connects after the measured phases, for the warm ready time (median)
 * @param scale        whether the 10,000-in-flight scale run follows the rounds (the stdio set of clients only)
 * @param coldCalls    the cold phase: this many sequential echo calls right after the first connect, before any
 *                     warm-up (the "cold" calls/s)
 * @param threadCalls  the thread check after the measured phases: this many sequential echo calls under a JFR
 *                     recording of thread starts ({@link ThreadStarts}); 0 skips it
 */
record Profile(String name, int rounds, long warmupMillis, long seqMillis, long flightMillis, long sleepMillis,
               int readyRepeats, boolean scale, int coldCalls, int threadCalls) {

    /** About 9 to 11 minutes for the whole matrix (19 clients) on a 2-core machine; 2 minutes for the stdio set. */
    static final Profile QUICK = new Profile("quick", 2, 3_000, 1_000, 800, 400, 1, true, 5_000, 0);
    /** About 25 to 35 minutes for the whole matrix on a 2-core machine. */
    static final Profile FULL = new Profile("full", 3, 6_000, 3_000, 2_500, 1_200, 3, true, 5_000, 0);
    /** The CI pass: correctness only, each phase as short as still exercises it. */
    static final Profile CHECK = new Profile("check", 1, 300, 150, 150, 100, 1, false, 100, 0);
    /**
     * The before/after comparison ({@code --compare-with}, {@link Compare}): 4 rounds so that the order before, after,
     * after, before is balanced, shorter phases than {@link #QUICK}, no sleep phases (the comparison reports echo
     * only), and the thread check. About 13 to 15 minutes for loom-mcp's 7 matrix clients and 5 raw loops on an idle
     * 2-core machine.
     */
    static final Profile COMPARE = new Profile("compare", 4, 2_000, 1_000, 600, 0, 1, false, 1_000, 1_000);
    /** The comparison's short profile ({@code --short}): 2 rounds of tiny phases, to see that it works. */
    static final Profile COMPARE_SHORT = new Profile("compare-short", 2, 300, 200, 150, 0, 1, false, 200, 300);

    static Profile named(String name) {
        return switch (name) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            case "check" -> CHECK;
            case "compare" -> COMPARE;
            case "compare-short" -> COMPARE_SHORT;
            default -> throw new IllegalArgumentException("unknown profile " + name);
        };
    }
}
