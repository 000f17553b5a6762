package io.quarkiverse.lock.it.mongodb;

import io.quarkiverse.lock.it.LockedMethodsContract;
import io.quarkiverse.lock.testsupport.MongoServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The {@code @Locked} endpoints on the MongoDB store, against an in-process MongoDB server
 * ({@code mongo-java-server}).
 */
@QuarkusTest
@WithTestResource(MongoServerResource.class)
class MongoLockedMethodsTest extends LockedMethodsContract {
}
