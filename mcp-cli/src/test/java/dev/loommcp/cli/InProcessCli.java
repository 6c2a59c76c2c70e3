package dev.loommcp.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.function.Function;

/** Runs the command line in the test's JVM ({@link Main#run}) with captured output. */
final class InProcessCli {

    /** What one run printed and its exit code. */
    record Run(int code, String out, String err) {
    }

    private InProcessCli() {
    }

    /**
     * Runs the CLI.
     *
     * @param environment the environment it sees
     * @param args        the arguments
     * @return what it printed and its exit code
     */
    static Run run(Function<String, String> environment, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), environment, args);
        return new Run(code, out.toString(), err.toString());
    }
}
