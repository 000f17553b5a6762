package io.quarkiverse.lock.deployment.mongodb;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A write concern that is neither {@code majority} nor a number of members fails startup, naming the property.
 */
class MongoWriteConcernConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared()
            .overrideConfigKey("quarkus.lock.mongodb.write-concern", "most")
            .assertException(failure -> StartupFailure.assertMentions(failure,
                    "quarkus.lock.mongodb.write-concern", "majority", "'most'"));

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
