package dev.loommcp.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class ServerStateChangeTest {

    @Test
    void aChangeWhoseCauseIsNoProcessExitHasNoExit() {
        assertThat(new ServerStateChange("files", ServerState.READY, ServerState.CLOSED, 0, null).exit()).isEmpty();
        assertThat(new ServerStateChange("files", ServerState.READY, ServerState.FAILED, 0,
                new IOException("connection reset")).exit()).isEmpty();
    }
}
