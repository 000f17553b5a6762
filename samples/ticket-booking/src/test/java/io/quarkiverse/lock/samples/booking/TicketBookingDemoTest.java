package io.quarkiverse.lock.samples.booking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.main.Launch;
import io.quarkus.test.junit.main.LaunchResult;
import io.quarkus.test.junit.main.QuarkusMainTest;

/**
 * The demo runs on the embedded default store and shows no double booking once the seats are locked.
 */
@QuarkusMainTest
class TicketBookingDemoTest {

    @Test
    @Launch
    void withTheLockEverySeatIsSoldOnce(LaunchResult result) {
        assertThat(result.exitCode()).isZero();
        assertThat(result.getOutput())
                .contains("with a lock per seat    " + TicketBookingDemo.SEATS + " tickets sold for "
                        + TicketBookingDemo.SEATS + " seats:   0 double bookings")
                .contains("With the lock every seat was sold exactly once.");
        assertThat(result.getErrorOutput() + result.getOutput()).contains("locks are local to this JVM");
    }
}
