package io.quarkiverse.lock.deployment.devui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusDevModeTest;

/**
 * In dev mode the application starts with the Quarkus Lock card in the Dev UI: its build-time data (the store) and
 * its web components are served.
 */
class LockDevUiCardTest {

    @RegisterExtension
    static final QuarkusDevModeTest DEV = new QuarkusDevModeTest()
            .withEmptyApplication()
            .setBuildSystemProperty("quarkus.devservices.enabled", "false")
            .setBuildSystemProperty("quarkus.lock.provider", "in-memory");

    @Test
    void theCardsWebComponentsAreServed() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> data = client.send(HttpRequest.newBuilder(
                URI.create("http://localhost:8080/q/dev-ui/quarkus-lock-data.js")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(data.statusCode()).isEqualTo(200);
        assertThat(data.body()).as("the card's build-time data names the store").contains("store", "in-memory");
        for (String component : new String[] { "qwc-lock-held.js", "qwc-lock-configuration.js" }) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:8080/q/dev-ui/quarkus-lock/" + component)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(component).isEqualTo(200);
            assertThat(response.body()).contains("customElements.define('" + component.replace(".js", "") + "'");
        }
    }
}
