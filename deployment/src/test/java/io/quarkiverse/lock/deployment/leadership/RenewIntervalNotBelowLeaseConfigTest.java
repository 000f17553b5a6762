package io.quarkiverse.lock.deployment.leadership;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A renew interval that is not shorter than the lease minus the safety margin fails startup naming the property: the
 * leader would stop believing it leads before its first renewal.
 */
class RenewIntervalNotBelowLeaseConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup()
            .overrideConfigKey("quarkus.lock.leadership.orders.renew-interval", "450ms")
            .assertException(failure -> StartupFailure.assertMentions(failure,
                    "quarkus.lock.leadership.\"orders\".renew-interval", "lease minus the safety margin"));

    @Test
    void startupFails() {
        Assertions.fail("the application must not start");
    }
}
