package dev.loommcp.bench;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The cost of an interceptor chain or of mcp-opentelemetry on a sequential stdio call (issue 30: at most 5 %), in one
 * JVM: every client connected to its own echo server, warmed, then measured in interleaved batches (rotated order each
 * round), so that the machine's load falls on all of them alike. Prints the median over rounds of wall time and process
 * CPU per call, and each one's ratio to the first client's in the same round (median and quartiles of the per-round
 * ratios). Usage (docs/benchmarks.md):
 * {@code java -cp mcp-bench/target/mcp-bench.jar dev.loommcp.bench.InterceptorCost loom,loom-icpt3,loom-otel ROUNDS
 * BATCH -- SERVER_ARGV...}; process CPU time is read at the operating system's tick (about 10 ms), so a batch should
 * take several hundred milliseconds.
 */
public final class InterceptorCost {
    public static void main(String[] args) throws Exception {
        List<String> names = Arrays.asList(args[0].split(","));
        int rounds = Integer.parseInt(args[1]);
        int batch = Integer.parseInt(args[2]);
        int argv = args.length > 3 && args[3].equals("--") ? 4 : 3;
        List<String> server = Arrays.asList(args).subList(argv, args.length);
        if (server.isEmpty()) {
            throw new IllegalArgumentException("usage: InterceptorCost CLIENTS ROUNDS BATCH -- SERVER_ARGV...");
        }
        List<BenchClient> clients = new ArrayList<>();
        for (String n : names) {
            BenchClient c = Clients.create(n);
            c.start(server);
            clients.add(c);
        }
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int w = 0; w < 4; w++) {
            for (BenchClient c : clients) {
                for (int i = 0; i < 20_000; i++) {
                    c.echo("w");
                }
            }
        }
        int k = clients.size();
        double[][] wall = new double[k][rounds];
        double[][] cpu = new double[k][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int j = 0; j < k; j++) {
                int idx = (j + r) % k;
                BenchClient c = clients.get(idx);
                long c0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int i = 0; i < batch; i++) {
                    c.echo("x");
                }
                long t1 = System.nanoTime();
                long c1 = os.getProcessCpuTime();
                wall[idx][r] = (t1 - t0) / 1e3 / batch;
                cpu[idx][r] = (c1 - c0) / 1e3 / batch;
            }
        }
        System.out.printf("%d rounds of %d sequential echo calls per client, interleaved; medians%n", rounds, batch);
        System.out.println("| client | wall µs per call | ratio to " + names.get(0) + " (median of per-round ratios)"
                + " | process CPU µs per call | ratio |");
        System.out.println("|---|---|---|---|---|");
        for (int j = 0; j < k; j++) {
            double[] rw = new double[rounds];
            double[] rc = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                rw[r] = wall[j][r] / wall[0][r];
                rc[r] = cpu[j][r] / cpu[0][r];
            }
            System.out.printf("| %s | %.1f | %.3f (p25 %.3f, p75 %.3f) | %.1f | %.3f (p25 %.3f, p75 %.3f) |%n",
                    names.get(j), median(wall[j]), median(rw), pct(rw, 25), pct(rw, 75), median(cpu[j]),
                    median(rc), pct(rc, 25), pct(rc, 75));
        }
        for (BenchClient c : clients) {
            c.close();
        }
        System.exit(0);
    }

    static double median(double[] a) {
        return pct(a, 50);
    }

    static double pct(double[] a, int p) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s[Math.min(s.length - 1, (int) Math.round(p / 100.0 * (s.length - 1)))];
    }
}
