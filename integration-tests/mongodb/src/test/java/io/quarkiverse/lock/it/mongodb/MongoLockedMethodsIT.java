package io.quarkiverse.lock.it.mongodb;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link MongoLockedMethodsTest} against the packaged application (the jar, or the native executable), with the MongoDB
 * server in the test process.
 */
@QuarkusIntegrationTest
class MongoLockedMethodsIT extends MongoLockedMethodsTest {
}
