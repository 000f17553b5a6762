package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.quarkiverse.lock.deployment.spi.LockProvider;
import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * How the store is chosen from {@code quarkus.lock.provider} and the client extensions present: each row gives the
 * configured provider and which of the Redis, MongoDB and PostgreSQL clients are present.
 */
class LockStoreSelectionTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            auto picks Redis when its client is present                  | AUTO       | true  | false | false | REDIS      | false
            auto picks MongoDB when its client is present                | AUTO       | false | true  | false | MONGODB    | false
            auto picks PostgreSQL when its client is present             | AUTO       | false | false | true  | POSTGRESQL | false
            auto falls back to in-memory and says so when no client is present | AUTO | false | false | false | IN_MEMORY | true
            an explicit in-memory store is kept even with Redis present  | IN_MEMORY  | true  | true  | false | IN_MEMORY  | false
            an explicit Redis choice wins when both clients are present  | REDIS      | true  | true  | false | REDIS      | false
            an explicit MongoDB choice wins when both clients are present | MONGODB   | true  | true  | false | MONGODB    | false
            an explicit PostgreSQL choice wins when other clients are present | POSTGRESQL | true | true | true | POSTGRESQL | false
            """)
    void selects(String rule, LockProvider configured, boolean redis, boolean mongo, boolean postgres,
            LockProvider expected, boolean chosenByDefault) {
        LockStoreBuildItem store = LockStoreSelection.select(configured, redis, mongo, postgres);
        assertThat(store.provider()).isEqualTo(expected);
        assertThat(store.chosenByDefault()).isEqualTo(chosenByDefault);
    }

    /** The last column lists, split by {@code ;}, what the message must name besides the property. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Redis without its client fails naming the missing dependency      | REDIS      | false | true  | false | quarkus-redis-client
            MongoDB without its client fails naming the missing dependency    | MONGODB    | true  | false | false | quarkus-mongodb-client
            PostgreSQL without its client fails naming the missing dependency | POSTGRESQL | true  | true  | false | quarkus-reactive-pg-client
            auto with both Redis and MongoDB fails asking for a choice        | AUTO       | true  | true  | false | redis;mongodb
            auto with PostgreSQL and another client fails asking for a choice | AUTO       | false | true  | true  | quarkus-mongodb-client and quarkus-reactive-pg-client;mongodb or postgresql
            auto with the three clients fails asking for a choice             | AUTO       | true  | true  | true  | redis or mongodb or postgresql
            """)
    void failsNaming(String rule, LockProvider configured, boolean redis, boolean mongo, boolean postgres,
            String named) {
        assertThatThrownBy(() -> LockStoreSelection.select(configured, redis, mongo, postgres))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContainingAll(named.split(";"));
    }

    @Test
    void configNamesAreKebabCase() {
        assertThat(LockProvider.POSTGRESQL.configName()).isEqualTo("postgresql");
        assertThat(LockProvider.IN_MEMORY.configName()).isEqualTo("in-memory");
        assertThat(LockProvider.REDIS.configName()).isEqualTo("redis");
        assertThat(LockProvider.MONGODB.configName()).isEqualTo("mongodb");
    }
}
