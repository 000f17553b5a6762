package io.quarkiverse.lock.it.mongodb;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link MongoApplicationTest} against the packaged application (the jar, or the native executable), with the MongoDB
 * server in the test process.
 */
@QuarkusIntegrationTest
class MongoApplicationIT extends MongoApplicationTest {
}
