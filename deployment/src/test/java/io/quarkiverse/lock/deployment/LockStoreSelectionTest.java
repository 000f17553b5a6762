package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * How the store is chosen from {@code quarkus.lock.provider} and the stores present: each row gives the configured
 * provider and the stores present besides the in-memory one, split by {@code ;}, each as {@code name:priority}.
 */
class LockStoreSelectionTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            auto picks the one store of its own client                         | auto       | redis:100                    | redis      | false
            auto picks any store it has never heard of                         | auto       | etcd:100                     | etcd       | false
            auto falls back to in-memory and says so when no store is present  | auto       |                              | in-memory  | true
            auto prefers a store of its own client to one on a shared client   | auto       | jdbc:50;redis:100            | redis      | false
            auto takes a store on a shared client when it is the only one      | auto       | jdbc:50                      | jdbc       | false
            an explicit in-memory store is kept with other stores present      | in-memory  | redis:100;mongodb:100        | in-memory  | false
            an explicit choice wins when several stores are present            | mongodb    | redis:100;mongodb:100        | mongodb    | false
            an explicit choice of a shared-client store wins over a dedicated  | jdbc       | jdbc:50;postgresql:100       | jdbc       | false
            """)
    void selects(String rule, String configured, String others, String expected, boolean chosenByDefault) {
        LockStoreBuildItem store = LockStoreSelection.select(configured, present(others));
        assertThat(store.name()).isEqualTo(expected);
        assertThat(store.is(expected)).isTrue();
        assertThat(store.chosenByDefault()).isEqualTo(chosenByDefault);
    }

    /** The last column lists, split by {@code ;}, what the message must name besides the property. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a store of this project not present names the client that brings it | redis | mongodb:100     | redis', but its client extension is missing;add the io.quarkus:quarkus-redis-client dependency;present: in-memory, mongodb
            the JDBC store not present names the datasource and a driver       | jdbc  |                     | jdbc';io.quarkus:quarkus-agroal;quarkus-jdbc-mariadb
            a store nobody ships fails naming it and the present ones          | etcd  | mongodb:100         | etcd', but no lock store of that name;present: in-memory, mongodb;client extension
            auto with two stores of their own clients fails asking for a choice | auto | redis:100;mongodb:100 | quarkus-mongodb-client and quarkus-redis-client;mongodb or redis
            auto with three such stores fails asking for a choice              | auto  | redis:100;mongodb:100;postgresql:100 | mongodb or postgresql or redis
            auto with two stores on shared clients and none of its own fails   | auto  | jdbc:50;other:50    | jdbc or other
            """)
    void failsNaming(String rule, String configured, String others, String named) {
        assertThatThrownBy(() -> LockStoreSelection.select(configured, present(others)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContainingAll(named.split(";"));
    }

    private static List<LockStoreImplementationBuildItem> present(String others) {
        List<LockStoreImplementationBuildItem> present = new ArrayList<>();
        present.add(new LockStoreImplementationBuildItem("in-memory", "no client",
                LockStoreImplementationBuildItem.LOCAL_ONLY));
        if (others != null) {
            Arrays.stream(others.split(";")).map(store -> store.split(":"))
                    .map(store -> new LockStoreImplementationBuildItem(store[0], client(store[0]),
                            Integer.parseInt(store[1])))
                    .forEach(present::add);
        }
        return present;
    }

    private static String client(String store) {
        switch (store) {
            case "redis":
                return "quarkus-redis-client";
            case "mongodb":
                return "quarkus-mongodb-client";
            case "postgresql":
                return "quarkus-reactive-pg-client";
            default:
                return "quarkus-" + store + "-client";
        }
    }
}
