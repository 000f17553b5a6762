package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.StaticStateAudit;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every class of the core whose static state holds randomness, threads, sockets, clock readings or connections is
 * registered for run-time initialization, so a native image neither refuses it (GraalVM rejects a {@code Random} in
 * the image heap) nor ships the build's values (the same owner ids in every process).
 */
class StaticStateInitializationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.lock.provider", "in-memory")
            .addBuildChainCustomizer(StaticStateAudit.of(LockRegistry.class));

    @Test
    void classesWithRandomnessThreadsSocketsClocksOrConnectionsInStaticStateAreInitializedAtRunTime() {
        StaticStateAudit.Result audit = StaticStateAudit.result(LockRegistry.class);

        assertThat(audit.found()).as("the audit finds the owner ids' SecureRandom")
                .containsKey("io.quarkiverse.lock.runtime.registry.OwnerIds");
        assertThat(audit.initializedAtBuildTime())
                .as("classes a native image would initialize at build time, with what their static state holds")
                .isEmpty();
        assertThat(audit.unknownRegistrations()).as("run-time initialization of classes that do not exist")
                .isEmpty();
    }
}
