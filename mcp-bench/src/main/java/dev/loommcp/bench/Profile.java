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
 * @param scale        whether the 10,000-in-flight scale run follows the rounds
 */
record Profile(String name, int rounds, long warmupMillis, long seqMillis, long flightMillis, long sleepMillis,
               int readyRepeats, boolean scale) {

    static final Profile QUICK = new Profile("quick", 3, 4_000, 1_000, 800, 400, 1, true);
    static final Profile FULL = new Profile("full", 5, 8_000, 4_000, 4_000, 2_000, 5, true);
    static final Profile CHECK = new Profile("check", 1, 300, 200, 200, 150, 1, false);

    static Profile named(String name) {
        return switch (name) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            case "check" -> CHECK;
            default -> throw new IllegalArgumentException("unknown profile " + name);
        };
    }
}
