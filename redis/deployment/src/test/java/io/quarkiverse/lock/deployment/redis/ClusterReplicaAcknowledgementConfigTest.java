package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Replica acknowledgement cannot be honoured by the cluster client, so asking for it there fails startup, naming both
 * properties.
 */
class ClusterReplicaAcknowledgementConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.redis.client-type", "cluster")
            .overrideConfigKey("quarkus.redis.max-pool-waiting", "64")
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            .assertException(failure -> StartupFailure.assertMentions(failure,
                    "quarkus.lock.redis.wait-replicas", "quarkus.redis.client-type=cluster"));

    @Test
    void startupFailsNamingBothProperties() {
        Assertions.fail("the application must not start");
    }
}
