package io.quarkiverse.lock.runtime.store.mongodb;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import org.bson.Document;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;

import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.faults.ClockSectionLog;
import io.quarkiverse.lock.tck.faults.FaultFixture;
import io.quarkiverse.lock.tck.faults.FaultTimeline;
import io.quarkiverse.lock.tck.faults.ProbeCheck;
import io.quarkiverse.lock.tck.faults.SectionLog;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.proxy.Exchange;
import io.quarkiverse.lock.testsupport.proxy.FaultMix;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.ProxiedFaults;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.quarkus.mongodb.impl.ReactiveMongoClientImpl;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The MongoDB store on the strict in-process MongoDB front the other MongoDB tests use (a replica set of one member):
 * each instance is a registry over its own {@link MongoLockStore}, on its own Vert.x and its own MongoDB client,
 * connected through its own {@link FaultProxy}. The section log reads the server's clock (the server runs in this JVM,
 * on its system clock, which its {@code $$NOW} and {@code $currentDate} read) and asks the server, through a client
 * straight to it, whether a lock document is held under a section's token, with the store's own filter for a held
 * lock.
 */
final class MongoFaultFixture implements FaultFixture {

    private static final String DATABASE = "faults";
    private static final String COLLECTION = "locks";
    /**
     * Replies a drop may hit: not the handshake's, whose loss would leave a connection half open for ever (the driver
     * has no read timeout by default).
     */
    private static final FaultMix MIX = new FaultMix(FaultMix.Drops.REPLY, MongoFaultFixture::droppable, false);

    private final ProxiedFaults faults = new ProxiedFaults(MIX);
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<MongoClient> clients = new ArrayList<>();
    private final List<StandaloneLockRegistry> registries = new ArrayList<>();
    private String keyPrefix;
    private ReactiveMongoCollection<Document> locks;
    private ClockSectionLog log;

    @Override
    public String name() {
        return "mongodb";
    }

    @Override
    public List<StandaloneLockRegistry> start(int instances, LockRegistrySettings settings) {
        keyPrefix = settings.keyPrefix();
        String connection = MongoTestServer.ownedBy(MongoFaultFixture.class);
        String host = new ConnectionString(connection).getHosts().get(0);
        int port = Integer.parseInt(host.substring(host.lastIndexOf(':') + 1));
        locks = new ReactiveMongoClientImpl(client(connection)).getDatabase(DATABASE).getCollection(COLLECTION);
        log = new ClockSectionLog(() -> Uni.createFrom().item(() -> ClockSectionLog.micros(Instant.now())),
                this::holds);
        for (int i = 0; i < instances; i++) {
            FaultProxy proxy = FaultProxy.start("127.0.0.1", port, WireProtocol.MONGODB);
            faults.add(proxy);
            Vertx vertx = Vertx.vertx();
            vertxes.add(vertx);
            MongoLockStore store = new MongoLockStore(vertx,
                    new ReactiveMongoClientImpl(client("mongodb://" + proxy.host() + ":" + proxy.port()))
                            .getDatabase(DATABASE),
                    new MongoLockStoreSettings(COLLECTION, keyPrefix, new Document("w", "majority"), i == 0, true,
                            settings.operationTimeout()));
            registries.add(StandaloneLockRegistry.over(store, vertx).settings(settings).start());
        }
        ProbeCheck.assertTheProbeReadsTheStore(registries.get(0), log, "MongoDB");
        return List.copyOf(registries);
    }

    private MongoClient client(String connection) {
        MongoClient client = MongoClients.create(MongoClientSettings.builder()
                .applyConnectionString(new ConnectionString(connection))
                .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(5, TimeUnit.SECONDS))
                .build());
        clients.add(client);
        return client;
    }

    private static boolean droppable(Exchange exchange) {
        String request = exchange.request();
        return request != null && !request.startsWith("{\"hello\"") && !request.startsWith("{\"isMaster\"")
                && !request.startsWith("{\"ismaster\"");
    }

    /** Whether the server holds the key's lock document under the token now, by the store's filter for a held lock. */
    private Uni<Boolean> holds(String key, long token) {
        return locks.find(MongoLockDocuments.held(keyPrefix + key).append(MongoLockDocuments.TOKEN, token))
                .collect().first().map(Objects::nonNull);
    }

    @Override
    public SectionLog log() {
        return log;
    }

    @Override
    public void startFaults(long seed, FaultTimeline timeline) {
        faults.start(seed, timeline::add);
    }

    @Override
    public void stopFaults() {
        faults.stop();
    }

    @Override
    public Map<String, Long> faultCounts() {
        return faults.counts();
    }

    /**
     * Lists the run's lock documents that the server holds (their owner set and their lease running).
     */
    @Override
    public List<String> leftInStore(List<String> keys) {
        List<String> left = new ArrayList<>();
        for (String key : keys) {
            Document held = locks.find(MongoLockDocuments.held(keyPrefix + key)).collect().first().await()
                    .atMost(TIMEOUT);
            if (held != null) {
                left.add(held.toJson());
            }
        }
        return left;
    }

    @Override
    public void close() {
        try {
            stopFaults();
            for (StandaloneLockRegistry registry : registries) {
                registry.close();
            }
            for (MongoClient client : clients) {
                client.close();
            }
            faults.close();
            for (Vertx vertx : vertxes) {
                vertx.close().toCompletionStage().toCompletableFuture().join();
            }
        } finally {
            MongoTestServer.stopOwnedBy(MongoFaultFixture.class);
        }
    }
}
