package io.quarkiverse.lock.deployment.leadership;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.Leading;
import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A {@code @Leading} method naming a group that is not declared fails the build, naming the method, the group and the
 * property that declares it.
 */
class UnknownLeadingGroupTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup(Bean.class)
            .assertException(failure -> StartupFailure.assertMentions(failure, "@Leading method",
                    "UnknownLeadingGroupTest$Bean#consume()", "'order'", "quarkus.lock.leadership.\"order\".enabled",
                    "declared groups: orders"));

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {

        @Leading("order")
        Uni<Void> consume() {
            return Uni.createFrom().voidItem();
        }
    }
}
