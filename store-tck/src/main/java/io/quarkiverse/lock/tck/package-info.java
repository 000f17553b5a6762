/**
 * The contract suite every lock store binds: what a {@link io.quarkiverse.lock.spi.LockStore} must do, stated once as
 * JUnit 5 tests, and run by the in-memory, Redis (one server and a cluster) and MongoDB stores alike.
 * <p>
 * The suite is made of one contract per concern, each a test interface whose tests are default methods:
 * <ul>
 * <li>{@link io.quarkiverse.lock.tck.LockStoreContract}: the store SPI called directly, on two store objects as two
 * application instances would (grant and refusal, fencing order, release, renewal, expiry, take-over, forced release,
 * take-back, keys of every shape);</li>
 * <li>{@link io.quarkiverse.lock.tck.LockLineContract}: the line of waiters and the release notifications of a store
 * reached over a network;</li>
 * <li>{@link io.quarkiverse.lock.tck.LockApiContract}, {@link io.quarkiverse.lock.tck.LockWaitingContract},
 * {@link io.quarkiverse.lock.tck.LockExecutionContract}, {@link io.quarkiverse.lock.tck.LockLeaseContract}: the public
 * API ({@code LockRegistry}, {@code ReactiveDistributedLock}, the blocking view) through a registry over the store,
 * with other application instances started on the same store;</li>
 * <li>{@link io.quarkiverse.lock.tck.MigrationContract}: the migrator on the store.</li>
 * </ul>
 * Argument checks do not depend on a store and are not part of the suite: the core tests them once.
 *
 * <h2>Binding a store</h2>
 * Add the suite to the store's tests:
 *
 * <pre>
 * &lt;dependency&gt;
 *     &lt;groupId&gt;io.quarkiverse.lock&lt;/groupId&gt;
 *     &lt;artifactId&gt;quarkus-lock-store-tck&lt;/artifactId&gt;
 *     &lt;scope&gt;test&lt;/scope&gt;
 * &lt;/dependency&gt;
 * </pre>
 *
 * and write one test class that extends {@link io.quarkiverse.lock.tck.LockStoreTck} and opens a store on a server
 * the test can reach. A PostgreSQL store, for example:
 *
 * <pre>
 * class PostgresStoreTckTest extends LockStoreTck {
 *
 *     private final Pool pool = PgBuilder.pool().connectingTo(PostgresTestServer.uri()).using(vertx()).build();
 *
 *     &#64;Override
 *     public LockStore newStore() {
 *         return new PostgresLockStore(vertx(), pool, "quarkus_lock", settings().keyPrefix());
 *     }
 *
 *     &#64;Override
 *     public void deleteLock(String key) { // optional: the row itself, instead of a forced release
 *         pool.preparedQuery("DELETE FROM quarkus_lock WHERE id = $1").execute(Tuple.of(settings().keyPrefix() + key))
 *                 .await().indefinitely();
 *     }
 *
 *     &#64;Override
 *     protected void closeBackend() {
 *         pool.close().await().indefinitely();
 *     }
 * }
 * </pre>
 *
 * That is all: the class runs every contract (its name ends in {@code Test}, so Surefire runs it by default), and each
 * test reports under it. {@code newStore()} is called for every application instance a test starts, so each call
 * returns a new store object on the same server (a store whose instances all live in one JVM, such as the in-memory
 * store, returns the same one and says so with {@link io.quarkiverse.lock.tck.LockStoreTck#storeIsLocal()}). A store
 * with an injectable clock overrides {@link io.quarkiverse.lock.tck.LockStoreTck#letLeasesRunOut} to advance it
 * instead of sleeping. The suite needs no Quarkus application, and every test uses keys of its own, so the server may
 * be shared with other tests.
 * <p>
 * {@link io.quarkiverse.lock.tck.CriticalSectionRace} and {@link io.quarkiverse.lock.tck.StoreRecovery} help a
 * store's own tests beyond the suite: races on an unsafe counter kept in the store, and waiting for a store to come
 * back after an outage.
 */
package io.quarkiverse.lock.tck;
