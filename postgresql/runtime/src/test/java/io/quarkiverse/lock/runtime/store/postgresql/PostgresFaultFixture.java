package io.quarkiverse.lock.runtime.store.postgresql;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.faults.ClockSectionLog;
import io.quarkiverse.lock.tck.faults.FaultFixture;
import io.quarkiverse.lock.tck.faults.FaultTimeline;
import io.quarkiverse.lock.tck.faults.ProbeCheck;
import io.quarkiverse.lock.tck.faults.SectionLog;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.Exchange;
import io.quarkiverse.lock.testsupport.proxy.FaultMix;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.ProxiedFaults;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * The PostgreSQL store on a private PostgreSQL server: each instance is a registry over its own
 * {@link PostgresLockStore}, on its own Vert.x and its own reactive pool, connected through its own
 * {@link FaultProxy}. The section log reads the server's {@code clock_timestamp()}, the clock of the store's leases,
 * and asks the lock table whether a key is held under a section's token, both through a pool straight to the server.
 * With {@code -Dfaults.audit=true}, a trigger records every change of the lock table, and the run prints the changes
 * of a violation's key next to it.
 */
final class PostgresFaultFixture implements FaultFixture {

    private static final String TABLE = "quarkus_lock";
    /** Lost answers may begin anywhere but in a connection's start, whose loss no client can tell from a slow one. */
    private static final FaultMix MIX = new FaultMix(FaultMix.Drops.ANSWER, PostgresFaultFixture::droppable, true);
    /**
     * Each instance's pool: one connection per worker (one more is the {@code LISTEN} connection, and an abandoned
     * statement keeps its connection until its server process is gone), as Quarkus's default of 20 would allow.
     */
    private static final int POOL_SIZE = 10;
    private static final String CLOCK = "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint";
    /** Held as the store holds: an owner, and a lease running on the server's clock. */
    private static final String HELD = "owner IS NOT NULL AND held_until > clock_timestamp()";
    private static final String HOLDS = "SELECT EXISTS (SELECT 1 FROM " + TABLE
            + " WHERE lock_key = $1 AND token = $2 AND " + HELD + ")";
    private static final String HOLDS_ROW = "SELECT EXISTS (SELECT 1 FROM " + TABLE
            + " WHERE lock_key = $1 AND token = $2 AND " + HELD + "), (SELECT concat_ws(' ', 'owner', owner, 'token', "
            + "token, 'until', held_until, 'changed', changed_at, 'now', clock_timestamp(), 'line', line) FROM " + TABLE
            + " WHERE lock_key = $1)";
    /**
     * With {@code -Dfaults.audit=true}, a trigger records every change of the lock table, and every violation is
     * printed with the changes of its key: a diagnostic, off by default.
     */
    private static final boolean AUDIT = Boolean.getBoolean("faults.audit");
    private static final String AUDIT_TABLE = "quarkus_lock_audit";
    private static final List<String> AUDIT_DDL = List.of(
            "CREATE TABLE " + AUDIT_TABLE + " (at timestamptz NOT NULL, pid integer NOT NULL, tx bigint NOT NULL, "
                    + "app text NOT NULL, op text NOT NULL, lock_key bytea NOT NULL, old jsonb, new jsonb, "
                    + "query text NOT NULL, query_md5 text NOT NULL)",
            "CREATE INDEX ON " + AUDIT_TABLE + " (lock_key, at)",
            "CREATE FUNCTION " + AUDIT_TABLE + "() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO "
                    + AUDIT_TABLE + " VALUES (clock_timestamp(), pg_backend_pid(), txid_current(), "
                    + "current_setting('application_name'), TG_OP, CASE WHEN TG_OP = 'DELETE' THEN OLD.lock_key "
                    + "ELSE NEW.lock_key END, CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END, "
                    + "CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END, left(current_query(), 200), "
                    + "md5(current_query())); RETURN NULL; END $$",
            "CREATE TRIGGER " + AUDIT_TABLE + " AFTER INSERT OR UPDATE OR DELETE ON " + TABLE
                    + " FOR EACH ROW EXECUTE FUNCTION " + AUDIT_TABLE + "()");
    private static final String CHANGES = "SELECT (extract(epoch FROM at) * 1000000)::bigint AS at, pid, tx, app, op, "
            + "query, query_md5, old->>'owner' AS old_owner, old->>'token' AS old_token, "
            + "old->>'held_until' AS old_until, new->>'owner' AS new_owner, new->>'token' AS new_token, "
            + "new->>'held_until' AS new_until, new->>'line' AS new_line FROM " + AUDIT_TABLE + " WHERE lock_key = $1 "
            + "AND at BETWEEN to_timestamp($2::bigint / 1000000.0) AND to_timestamp($3::bigint / 1000000.0) "
            + "ORDER BY at";
    private static final String LEFT = "SELECT convert_from(lock_key, 'UTF8') AS id, owner, token, held_until::text "
            + "AS held_until FROM " + TABLE + " WHERE " + HELD;

    private final ProxiedFaults faults = new ProxiedFaults(MIX);
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<Pool> pools = new ArrayList<>();
    private final List<StandaloneLockRegistry> registries = new ArrayList<>();
    private final List<PostgresLockStore> stores = new ArrayList<>();
    private PostgresServer server;
    private String keyPrefix;
    private Pool direct;
    private ClockSectionLog log;

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public List<StandaloneLockRegistry> start(int instances, LockRegistrySettings settings) {
        keyPrefix = settings.keyPrefix();
        server = PostgresServer.start();
        Vertx logVertx = Vertx.vertx();
        vertxes.add(logVertx);
        direct = pool(logVertx, server.port(), 8, "probe");
        log = new ClockSectionLog(() -> direct.query(CLOCK).execute().map(rows -> rows.iterator().next().getLong(0)),
                this::holds);
        for (int i = 0; i < instances; i++) {
            FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port(), WireProtocol.POSTGRESQL);
            faults.add(proxy);
            Vertx vertx = Vertx.vertx();
            vertxes.add(vertx);
            // the first instance creates the table, before the others start
            PostgresLockStore store = new PostgresLockStore(vertx, pool(vertx, proxy.port(), POOL_SIZE, "i" + i),
                    new PostgresLockStoreSettings(PostgresTable.parse(TABLE), keyPrefix, i == 0, true,
                            Duration.ofHours(1), settings.operationTimeout()));
            stores.add(store);
            registries.add(StandaloneLockRegistry.over(store, vertx).settings(settings).start());
            if (i == 0) {
                ProbeCheck.assertTheProbeReadsTheStore(registries.get(0), log, "PostgreSQL");
                if (AUDIT) {
                    for (String ddl : AUDIT_DDL) {
                        direct.query(ddl).execute().await().atMost(TIMEOUT);
                    }
                }
            }
        }
        return List.copyOf(registries);
    }

    /** A pool whose connections name {@code application}, which the audit records. */
    private Pool pool(Vertx vertx, int port, int size, String application) {
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri("postgresql://127.0.0.1:" + port + "/" + PostgresServer.DATABASE)
                        .setUser(PostgresServer.SUPERUSER).setPassword(PostgresServer.SUPERUSER_PASSWORD)
                        .addProperty("application_name", application))
                .with(new PoolOptions().setMaxSize(size))
                .using(io.vertx.mutiny.core.Vertx.newInstance(vertx)).build();
        pools.add(pool);
        return pool;
    }

    private static boolean droppable(Exchange exchange) {
        return !"startup".equals(exchange.request());
    }

    private Uni<Boolean> holds(String key, long token) {
        return direct.preparedQuery(HOLDS_ROW).execute(Tuple.tuple().addBuffer(id(key)).addLong(token))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    boolean held = row.getBoolean(0);
                    if (!held) {
                        System.out.printf("[probe] %s token %d not held: row %s%n", key, token, row.getString(1));
                    }
                    return held;
                });
    }

    /** The key's row id, as the store writes it: the key prefix and the key, in UTF-8. */
    private Buffer id(String key) {
        return Buffer.buffer((keyPrefix + key).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The audited changes of the key's row: when, by which instance's session and transaction, with the store's
     * statement that made each (by name, or the start of an unknown statement), and the row before and after.
     */
    @Override
    public List<FaultTimeline.Event> storeChanges(String key, long from, long to) {
        if (!AUDIT) {
            return List.of();
        }
        Map<String, String> statements = statementNames();
        List<FaultTimeline.Event> changes = new ArrayList<>();
        Tuple span = Tuple.tuple().addBuffer(id(key)).addLong(from).addLong(to);
        for (Row row : direct.preparedQuery(CHANGES).execute(span).await().atMost(TIMEOUT)) {
            String app = row.getString("app");
            int instance = app.matches("i\\d+") ? Integer.parseInt(app.substring(1)) : -1;
            changes.add(new FaultTimeline.Event(row.getLong("at"), instance, String.format(
                    "%s %s pid %d tx %d: owner %s token %s until %s -> owner %s token %s until %s line %s",
                    row.getString("op"), statements.getOrDefault(row.getString("query_md5"), row.getString("query")),
                    row.getInteger("pid"), row.getLong("tx"), row.getString("old_owner"), row.getString("old_token"),
                    row.getString("old_until"), row.getString("new_owner"), row.getString("new_token"),
                    row.getString("new_until"), row.getString("new_line"))));
        }
        return changes;
    }

    private static Map<String, String> statementNames() {
        PostgresStatements sql = new PostgresStatements(PostgresTable.parse(TABLE));
        Map<String, String> names = new HashMap<>();
        names.put(md5(sql.acquire(false)), "try-once");
        names.put(md5(sql.acquire(true)), "try-waiting");
        names.put(md5(sql.takeOver()), "take-over");
        names.put(md5(sql.free()), "free");
        names.put(md5(sql.renew()), "renew");
        names.put(md5(sql.sweep()), "sweep");
        return names;
    }

    private static String md5(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
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
     * Waits until no instance has a statement waiting for its key's earlier ones, for a connection, or for its
     * server process to end: an acquisition may be sent late, and its take-back after it.
     */
    @Override
    public boolean awaitQuiet(Duration atMost) throws InterruptedException {
        return ProxiedFaults.awaitQuiet(atMost, () -> stores.stream().anyMatch(store -> store.busyKeys() > 0));
    }

    /**
     * Lists every row of the lock table that is held (an owner, and a lease running on the server's clock).
     */
    @Override
    public List<String> leftInStore(List<String> keys) {
        List<String> left = new ArrayList<>();
        for (Row row : direct.query(LEFT).execute().await().atMost(TIMEOUT)) {
            left.add(row.getString("id") + " (owner " + row.getString("owner") + ", token " + row.getLong("token")
                    + ", held until " + row.getString("held_until") + ")");
        }
        return left;
    }

    @Override
    public void close() {
        try {
            stopFaults();
            if (AUDIT && direct != null) {
                System.out.printf("[audit] %d changes of the lock table recorded%n", direct
                        .query("SELECT count(*) FROM " + AUDIT_TABLE).execute().await().atMost(TIMEOUT).iterator()
                        .next().getLong(0));
            }
            for (StandaloneLockRegistry registry : registries) {
                registry.close();
            }
            for (Pool pool : pools) {
                pool.close().await().atMost(TIMEOUT);
            }
            faults.close();
            for (Vertx vertx : vertxes) {
                vertx.close().toCompletionStage().toCompletableFuture().join();
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }
}
