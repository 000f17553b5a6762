package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.devui.LockJsonRPCService;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * What the readiness check and the Dev UI's JSON-RPC service tell of a leadership group: while this instance leads
 * it, its term, since when, and the store naming this instance the leader under that term; once it left, that it takes
 * no part and nobody leads.
 */
class LeadershipStatusTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup();

    @Inject
    Leadership leadership;

    @Inject
    LockJsonRPCService devUi;

    @Inject
    @Readiness
    AsyncHealthCheck readiness;

    @Test
    void theLeaderAndItsTermAreShownUntilTheInstanceLeaves() {
        LeadershipGroup group = leadership.group(GROUP);
        eventually("elected at startup", group::isLeader);
        long term = group.term().getAsLong();

        assertThat(health()).containsEntry("leadership." + GROUP, "leads, term " + term);
        assertThat(devUi.getLeadership().await().atMost(TIMEOUT)).singleElement().satisfies(row -> {
            assertThat(row.group()).isEqualTo(GROUP);
            assertThat(row.joined()).isTrue();
            assertThat(row.leading()).isTrue();
            assertThat(row.term()).isEqualTo(term);
            assertThat(row.since()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
            assertThat(row.leader()).isEqualTo("this instance, term " + term);
        });

        group.leave().await().atMost(TIMEOUT);

        assertThat(health()).doesNotContainKey("leadership." + GROUP).containsEntry("store", "in-memory");
        assertThat(devUi.getLeadership().await().atMost(TIMEOUT)).singleElement().satisfies(row -> {
            assertThat(row.joined()).isFalse();
            assertThat(row.leading()).isFalse();
            assertThat(row.term()).isZero();
            assertThat(row.since()).isNull();
            assertThat(row.leader()).isEqualTo("nobody");
        });
    }

    private Map<String, Object> health() {
        HealthCheckResponse response = readiness.call().await().atMost(TIMEOUT);
        assertThat(response.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        return response.getData().orElseThrow();
    }
}
