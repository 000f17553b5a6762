package io.quarkiverse.lock.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import io.restassured.path.json.JsonPath;

/**
 * The registry, the startup migration, health, metrics and leadership, over HTTP, on the store the application was built with.
 * A store module binds it twice: {@code @QuarkusTest}, and a {@code @QuarkusIntegrationTest} subclass for the
 * packaged application.
 */
public abstract class LockApplicationContract {

    private static final String HEALTH_CHECK = "Quarkus Lock store";

    /**
     * @return the name of the store the application was built with, as the health check and the metrics say it
     */
    protected abstract String store();

    @Test
    void onlyTheHolderReleasesAndEachHoldGetsAHigherFencingToken() {
        String key = "held-" + UUID.randomUUID();
        long first = Long.parseLong(given().post("/locks/{key}", key).then().statusCode(200).extract().asString());
        given().post("/locks/{key}", key).then().statusCode(409);
        given().get("/locks/{key}", key).then().statusCode(200).body(is("true"));

        given().delete("/locks/{key}", key).then().statusCode(200).body(is("true"));
        long second = Long.parseLong(given().post("/locks/{key}", key).then().statusCode(200).extract().asString());
        given().delete("/locks/{key}", key).then().statusCode(200).body(is("true"));

        assertThat(second).isGreaterThan(first);
        given().get("/locks/{key}", key).then().statusCode(404);
    }

    @Test
    void racingWorkersRunTheirSectionsOneAtATimeWithRisingTokens() {
        String key = "race-" + UUID.randomUUID();

        JsonPath race = given().queryParam("workers", 4).queryParam("sections", 50)
                .post("/locks/{key}/race", key).then().statusCode(200).extract().jsonPath();

        assertThat(race.getInt("sections")).isEqualTo(200);
        assertThat(race.getInt("overlaps")).isZero();
        assertThat(race.getBoolean("tokensRising")).isTrue();
        given().get("/locked/{counter}", key).then().body(is("200"));
    }

    @Test
    void theStartupMigrationRanEachChangeSetOnceInOrder() {
        JsonPath report = given().get("/migration").then().statusCode(200).extract().jsonPath();
        List<String> recorded = new ArrayList<>(report.getList("alreadyApplied", String.class));
        recorded.addAll(report.getList("applied", String.class));

        assertThat(recorded).containsExactly("001-seed", "002-double");
        given().get("/locked/{counter}", CounterMigration.SEEDED).then().body(is("200"));
    }

    @Test
    void theReadinessCheckSaysTheStoreAnswers() {
        JsonPath health = given().get("/q/health/ready").then().statusCode(200).extract().jsonPath();

        assertThat(health.getString("checks.find { it.name == '" + HEALTH_CHECK + "' }.status")).isEqualTo("UP");
        assertThat(health.getString("checks.find { it.name == '" + HEALTH_CHECK + "' }.data.store"))
                .isEqualTo(store());
    }

    @Test
    void theMetricsCountAcquisitionsPerKeyTemplateAndStore() {
        given().post("/locked/uni/{counter}", UUID.randomUUID().toString()).then().statusCode(200);

        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();

        assertThat(metrics.lines())
                .anyMatch(line -> line.startsWith("quarkus_lock_acquired_total{")
                        && line.contains("lock=\"uni-{counter}\"") && line.contains("store=\"" + store() + "\""));
    }

    @Test
    void theApplicationLeadsItsGroupRunsTheLeadersWorkAndYieldsToANewTerm() throws InterruptedException {
        JsonPath leading = awaitLeadership(status -> status.getBoolean("leading"));
        long term = leading.getLong("term");
        assertThat(term).isPositive();
        assertThat(leading.getLong("storeTerm")).as("the store's leader").isEqualTo(term);
        assertThat(leading.getBoolean("thisInstance")).isTrue();
        assertThat(leading.getInt("elections")).as("elections told by the CDI event").isPositive();
        given().get("/leadership/work").then().statusCode(200).body(is(Long.toString(term)));

        given().post("/leadership/yield").then().statusCode(200).body(is("true"));

        JsonPath next = awaitLeadership(status -> status.getBoolean("leading") && status.getLong("term") > term);
        assertThat(next.getLong("storeTerm")).isEqualTo(next.getLong("term"));
        given().get("/leadership/work").then().statusCode(200).body(is(Long.toString(next.getLong("term"))));
    }

    private static JsonPath awaitLeadership(Predicate<JsonPath> condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        JsonPath status = given().get("/leadership").then().statusCode(200).extract().jsonPath();
        while (!condition.test(status)) {
            assertThat(System.nanoTime() - deadline).as("leadership now: %s", status.prettify()).isNegative();
            Thread.sleep(50);
            status = given().get("/leadership").then().statusCode(200).extract().jsonPath();
        }
        return status;
    }
}
