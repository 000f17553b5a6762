package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The application most users of the JDBC store come from: Hibernate ORM on a JDBC datasource (H2 here) for its own
 * data, and a Redis client for its locks. Adding the JDBC store changes nothing for it: with no provider set, the locks
 * stay in Redis, and the entities in the datasource.
 */
class HibernateOrmBesideRedisTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.h2("orm_beside_redis", Booking.class, Bookings.class)
            .setForcedDependencies(List.of(
                    Dependency.of("io.quarkus", "quarkus-hibernate-orm", Version.getVersion()),
                    JdbcTestApp.REDIS_CLIENT.get(0)))
            .overrideConfigKey("quarkus.hibernate-orm.schema-management.strategy", "drop-and-create")
            .overrideConfigKey("quarkus.redis.hosts", RedisServer.shared().uri());

    @Inject
    DefaultLockRegistry registry;

    @Inject
    LockRegistry locks;

    @Inject
    Bookings bookings;

    @Test
    void theLocksStayInRedisAndTheEntitiesInTheDatasource() throws Exception {
        assertThat(registry.store().name()).isEqualTo("redis");
        DistributedLock lock = locks.obtainBlocking("orm-beside-redis");
        assertThat(lock.acquire(Duration.ZERO)).isTrue();
        assertThat(RedisServer.shared().send("EXISTS lock:{orm-beside-redis}"))
                .as("the lock's key in Redis").isEqualTo(":1");
        bookings.book("seat 12");
        assertThat(bookings.count()).as("bookings in the datasource").isEqualTo(1);
        assertThat(lock.release()).isTrue();
        assertThat(RedisServer.shared().send("EXISTS lock:{orm-beside-redis}")).isEqualTo(":0");
    }

    /** An entity of the application's own. */
    @Entity
    public static class Booking {

        @Id
        @GeneratedValue
        public Long id;

        public String seat;
    }

    /** The application's own data access. */
    @ApplicationScoped
    public static class Bookings {

        @Inject
        EntityManager entities;

        @Transactional
        void book(String seat) {
            Booking booking = new Booking();
            booking.seat = seat;
            entities.persist(booking);
        }

        @Transactional
        long count() {
            return entities.createQuery("SELECT COUNT(b) FROM " + Booking.class.getName() + " b", Long.class)
                    .getSingleResult();
        }
    }
}
