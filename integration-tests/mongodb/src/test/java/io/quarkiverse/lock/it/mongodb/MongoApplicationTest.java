package io.quarkiverse.lock.it.mongodb;

import io.quarkiverse.lock.it.LockApplicationContract;
import io.quarkiverse.lock.testsupport.MongoServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The registry, the startup migration, health and metrics on the MongoDB store, against an in-process MongoDB server
 * ({@code mongo-java-server}).
 */
@QuarkusTest
@WithTestResource(MongoServerResource.class)
class MongoApplicationTest extends LockApplicationContract {

    @Override
    protected String store() {
        return "mongodb";
    }
}
