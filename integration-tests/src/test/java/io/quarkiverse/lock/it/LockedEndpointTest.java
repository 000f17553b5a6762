package io.quarkiverse.lock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.test.RedisServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * A REST endpoint guarded by {@code @Locked}, hit by concurrent requests on a real Redis: every increment counts and
 * no two executions overlap.
 */
@QuarkusTest
@WithTestResource(RedisServerResource.class)
class LockedEndpointTest {

    private static final int REQUESTS = 200;

    @TestHTTPResource("/counters")
    URL counters;

    @Test
    void concurrentRequestsNeverOverlapAndNoIncrementIsLost() throws Exception {
        String counter = counters + "/" + UUID.randomUUID();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            responses.add(client.sendAsync(HttpRequest.newBuilder(URI.create(counter))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture.allOf(responses.toArray(new CompletableFuture[0])).get(2, TimeUnit.MINUTES);
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            assertThat(response.get().statusCode()).isEqualTo(200);
        }

        assertThat(get(client, counter)).isEqualTo(String.valueOf(REQUESTS));
        assertThat(get(client, counter + "/overlaps")).isEqualTo("0");
    }

    private static String get(HttpClient client, String url) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
