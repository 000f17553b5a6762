package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.deployment.spi.LockProvider;
import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * How the store is chosen from {@code quarkus.lock.provider} and the client extensions present.
 */
class LockStoreSelectionTest {

    @Test
    void autoPicksRedisWhenItsClientIsPresent() {
        LockStoreBuildItem store = LockStoreSelection.select(LockProvider.AUTO, true, false, false);
        assertThat(store.provider()).isEqualTo(LockProvider.REDIS);
        assertThat(store.chosenByDefault()).isFalse();
    }

    @Test
    void autoFallsBackToInMemoryAndSaysSoWhenNoClientIsPresent() {
        LockStoreBuildItem store = LockStoreSelection.select(LockProvider.AUTO, false, false, false);
        assertThat(store.provider()).isEqualTo(LockProvider.IN_MEMORY);
        assertThat(store.chosenByDefault()).isTrue();
    }

    @Test
    void anExplicitInMemoryStoreIsKeptEvenWithRedisPresent() {
        LockStoreBuildItem store = LockStoreSelection.select(LockProvider.IN_MEMORY, true, true, false);
        assertThat(store.provider()).isEqualTo(LockProvider.IN_MEMORY);
        assertThat(store.chosenByDefault()).isFalse();
    }

    @Test
    void redisWithoutItsClientFailsNamingTheMissingDependency() {
        assertThatThrownBy(() -> LockStoreSelection.select(LockProvider.REDIS, false, true, false))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContaining("quarkus-redis-client");
    }

    @Test
    void autoPicksMongoDbWhenItsClientIsPresent() {
        LockStoreBuildItem store = LockStoreSelection.select(LockProvider.AUTO, false, true, false);
        assertThat(store.provider()).isEqualTo(LockProvider.MONGODB);
        assertThat(store.chosenByDefault()).isFalse();
    }

    @Test
    void autoWithBothClientsFailsAskingForAChoice() {
        assertThatThrownBy(() -> LockStoreSelection.select(LockProvider.AUTO, true, true, false))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContaining("redis")
                .hasMessageContaining("mongodb");
    }

    @Test
    void anExplicitChoiceWinsWhenBothClientsArePresent() {
        assertThat(LockStoreSelection.select(LockProvider.REDIS, true, true, false).provider()).isEqualTo(LockProvider.REDIS);
        assertThat(LockStoreSelection.select(LockProvider.MONGODB, true, true, false).provider())
                .isEqualTo(LockProvider.MONGODB);
    }

    @Test
    void mongoDbWithoutItsClientFailsNamingTheMissingDependency() {
        assertThatThrownBy(() -> LockStoreSelection.select(LockProvider.MONGODB, true, false, false))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContaining("quarkus-mongodb-client");
    }

    @Test
    void autoPicksPostgreSqlWhenItsClientIsPresent() {
        LockStoreBuildItem store = LockStoreSelection.select(LockProvider.AUTO, false, false, true);
        assertThat(store.provider()).isEqualTo(LockProvider.POSTGRESQL);
        assertThat(store.chosenByDefault()).isFalse();
    }

    @Test
    void autoWithPostgreSqlAndAnotherClientFailsAskingForAChoice() {
        assertThatThrownBy(() -> LockStoreSelection.select(LockProvider.AUTO, false, true, true))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContaining("quarkus-mongodb-client and quarkus-reactive-pg-client")
                .hasMessageContaining("mongodb or postgresql");
        assertThatThrownBy(() -> LockStoreSelection.select(LockProvider.AUTO, true, true, true))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("redis or mongodb or postgresql");
    }

    @Test
    void anExplicitPostgreSqlChoiceWinsWhenOtherClientsArePresent() {
        assertThat(LockStoreSelection.select(LockProvider.POSTGRESQL, true, true, true).provider())
                .isEqualTo(LockProvider.POSTGRESQL);
    }

    @Test
    void postgreSqlWithoutItsClientFailsNamingTheMissingDependency() {
        assertThatThrownBy(() -> LockStoreSelection.select(LockProvider.POSTGRESQL, true, true, false))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("quarkus.lock.provider")
                .hasMessageContaining("quarkus-reactive-pg-client");
    }

    @Test
    void configNamesAreKebabCase() {
        assertThat(LockProvider.POSTGRESQL.configName()).isEqualTo("postgresql");
        assertThat(LockProvider.IN_MEMORY.configName()).isEqualTo("in-memory");
        assertThat(LockProvider.REDIS.configName()).isEqualTo("redis");
        assertThat(LockProvider.MONGODB.configName()).isEqualTo("mongodb");
    }
}
