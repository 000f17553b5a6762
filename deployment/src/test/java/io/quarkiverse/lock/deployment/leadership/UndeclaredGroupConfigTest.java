package io.quarkiverse.lock.deployment.leadership;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A runtime property of a group that is not declared (a misspelt group) fails startup naming the property that
 * declares it, instead of being ignored.
 */
class UndeclaredGroupConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup()
            .overrideRuntimeConfigKey("quarkus.lock.leadership.order.lease", "5s")
            .assertException(failure -> StartupFailure.assertMentions(failure, "'order'", "not declared",
                    "quarkus.lock.leadership.\"order\".enabled=true"));

    @Test
    void startupFails() {
        Assertions.fail("the application must not start");
    }
}
