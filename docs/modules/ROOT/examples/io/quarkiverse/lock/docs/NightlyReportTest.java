package io.quarkiverse.lock.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testing.LockRegistryStub;
import io.smallrye.mutiny.Uni;

/**
 * A unit test of code that uses locks, with the stub registry.
 */
public class NightlyReportTest {

    /** The code under test: runs the nightly report unless another instance runs it. */
    static final class NightlyReport {

        private final LockRegistry locks;

        NightlyReport(LockRegistry locks) {
            this.locks = locks;
        }

        Uni<String> run() {
            return locks.obtain("nightly-report")
                    .acquireAndExecute(Duration.ZERO, Uni.createFrom().item("report"))
                    .onFailure(CannotAcquireLockException.class).recoverWithItem("skipped");
        }
    }

    // tag::stub[]
    @Test
    void theReportIsSkippedWhileAnotherInstanceRunsIt() {
        LockRegistryStub locks = LockRegistryStub.alwaysHeld(); // or alwaysFree(), answering(false, true, ...)

        String outcome = new NightlyReport(locks).run().await().indefinitely();

        assertThat(outcome).isEqualTo("skipped");
        assertThat(locks.wasAcquireRejected()).isTrue();
        assertThat(locks.wasReleaseInvoked()).isFalse();
    }
    // end::stub[]
}
