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
 */
record Profile(String name, int rounds, long warmupMillis, long seqMillis, long flightMillis, long sleepMillis,
               int readyRepeats, boolean scale, int coldCalls) {

    /** About 9 to 11 minutes for the whole matrix (19 clients) on a 2-core machine; 2 minutes for the stdio set. */
    static final Profile QUICK = new Profile("quick", 2, 3_000, 1_000, 800, 400, 1, true, 5_000);
    /** About 25 to 35 minutes for the whole matrix on a 2-core machine. */
    static final Profile FULL = new Profile("full", 3, 6_000, 3_000, 2_500, 1_200, 3, true, 5_000);
    /** The CI pass: correctness only, each phase as short as still exercises it. */
    static final Profile CHECK = new Profile("check", 1, 300, 150, 150, 100, 1, false, 100);

    static Profile named(String name) {
        return switch (name) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            case "check" -> CHECK;
            default -> throw new IllegalArgumentException("unknown profile " + name);
        };
    }
}
