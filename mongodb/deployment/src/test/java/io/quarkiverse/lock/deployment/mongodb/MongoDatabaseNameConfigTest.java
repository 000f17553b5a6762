package io.quarkiverse.lock.deployment.mongodb;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A database name MongoDB would refuse fails startup, naming the property, before anything reaches the server.
 */
class MongoDatabaseNameConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared()
            .overrideConfigKey("quarkus.lock.mongodb.database", "locks.$prod")
            .assertException(failure -> StartupFailure.assertMentions(failure,
                    "quarkus.lock.mongodb.database", "locks.$prod"));

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
