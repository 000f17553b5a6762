package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.regex.Pattern;

import io.quarkiverse.lock.spi.HandOverAnnouncement;

/**
 * The SQL the PostgreSQL store sends, in one place: the lock table's DDL and one statement per operation.
 * <p>
 * One row per lock key, kept after release so that its fencing counter survives:
 *
 * <pre>
 * lock_key   bytea        -- key prefix + lock key, UTF-8: any key, NUL included, verbatim
 * owner      text         -- the holding acquisition's owner id; NULL when released
 * token      bigint       -- the last fencing token issued for the key
 * held_until timestamptz  -- when the lease ends ('infinity': held until released); NULL when released
 * line       jsonb        -- waiting instances, in arrival order: [{"owner": id, "until": ms, "lease": ms}, ...]
 * changed_at timestamptz  -- database time of the last statement that changed the row
 * </pre>
 *
 * A lock is held when {@code owner} is set and {@code held_until} is ahead of {@code clock_timestamp()}; every time
 * is the database's, taken once per statement (after the row is locked), so no client clock ever decides a lease or a
 * place. A waiter's place lapses at {@code until} (epoch milliseconds of the database clock) unless it asks again; a
 * free lock goes to the first waiter whose place has not lapsed, or to anyone when there is none. Each statement
 * changes one row, which PostgreSQL locks for it, and decides from the latest version of that row: the statements on
 * one key are atomic and serialized by the database.
 * <p>
 * A new fencing token is {@code greatest(token + 1, database time in microseconds)}: strictly above the row's last
 * token, and above every token issued before the row was deleted (by the sweep, or by hand), unless the database clock
 * stepped back by more than the time the row was gone.
 * <p>
 * Every value is a bind parameter, with an explicit type; the table's name, checked by {@link PostgresTable}, is the
 * only text put into the SQL, quoted.
 */
final class PostgresStatements {

    /**
     * The longest statement the reactive client keeps prepared: its cache takes only SQL shorter than this
     * ({@code SqlConnectOptions.DEFAULT_PREPARED_STATEMENT_CACHE_SQL_LIMIT}, which Quarkus does not configure), and
     * parses and plans a longer one again on every execution, which costs more than running it.
     */
    static final int CACHED_SQL_LIMIT = 2048;

    /** The database time of this statement, taken once: in the SET of an upsert it runs after the row is locked. */
    private static final String NOW = """
            (SELECT t AS now, (extract(epoch FROM t) * 1000000)::bigint AS micros FROM clock_timestamp() c(t)) n""";

    /** What {@link #compact} makes one space. */
    private static final Pattern WHITE_SPACE = Pattern.compile("\\s+");

    /**
     * When a lease of {@code $3} milliseconds granted at this statement's time ends: {@code 'infinity'} for a lease of 0
     * (held until released).
     */
    private static final String LEASE_END = leaseEnd("n.now");

    /**
     * The head of an upsert that makes {@code $2} the holder of the key {@code $1} for a lease of {@code $3}: the row it
     * inserts when the key has none, and the start of what it sets on the existing row, which the statement completes.
     * Placeholders: the table, {@link #NOW}.
     */
    private static final String INSERT_HOLDER = """
            INSERT INTO %1$s AS l (lock_key, owner, token, held_until, line, changed_at)
            SELECT $1::bytea, $2::text, n.micros, """ + LEASE_END + """
            , '[]'::jsonb, n.now
            FROM %2$s
            ON CONFLICT (lock_key) DO UPDATE SET (owner, token, held_until, line, changed_at) = (
            """;

    private final String table;
    private final String createTable;
    private final String tryOnce;
    private final String tryWaiting;
    private final String grantIfAlone;
    private final String releaseIfAlone;
    private final String takeOver;
    private final String free;
    private final String renew;
    private final String isHeld;
    private final String ping;
    private final String sweep;
    private final String listHeld;

    PostgresStatements(PostgresTable table) {
        String t = table.sql();
        this.table = t;
        this.createTable = createTable(t);
        this.tryOnce = compact(acquire(t, false));
        this.tryWaiting = compact(acquire(t, true));
        this.grantIfAlone = compact((INSERT_HOLDER + """
                  SELECT $2::text, greatest(l.token + 1, n.micros), %3$s, l.line, n.now
                  FROM %2$s)
                WHERE l.line = '[]'::jsonb AND (l.owner IS NULL OR l.held_until <= clock_timestamp())
                RETURNING true, token, -1::bigint
                """).formatted(t, NOW, LEASE_END));
        this.releaseIfAlone = compact("""
                UPDATE %s SET owner = NULL, held_until = NULL, changed_at = clock_timestamp()
                WHERE lock_key = $1::bytea AND owner = $2::text AND held_until > clock_timestamp()
                  AND line = '[]'::jsonb
                RETURNING true
                """.formatted(t));
        this.takeOver = compact((INSERT_HOLDER + """
                  SELECT $2::text, greatest(l.token + 1, n.micros), %3$s,
                         coalesce((SELECT jsonb_agg(e.w ORDER BY e.i)
                                   FROM jsonb_array_elements(l.line) WITH ORDINALITY AS e(w, i)
                                   WHERE e.w->>'owner' <> $2::text AND (e.w->>'until')::bigint > n.micros / 1000),
                                  '[]'::jsonb),
                         n.now
                  FROM %2$s)
                RETURNING token
                """).formatted(t, NOW, LEASE_END));
        this.free = compact("""
                WITH old AS (
                  SELECT lock_key,
                         coalesce(owner = coalesce($2::text, owner) AND held_until > clock_timestamp(), false) AS held
                  FROM %1$s WHERE lock_key = $1::bytea FOR UPDATE
                ), done AS (
                  UPDATE %1$s AS l SET (owner, token, held_until, line, changed_at) = (
                    SELECT CASE WHEN old.held THEN h.owner ELSE l.owner END,
                           CASE WHEN old.held AND h.owner IS NOT NULL THEN greatest(l.token + 1, n.micros)
                                ELSE l.token END,
                           CASE WHEN NOT old.held THEN l.held_until
                                WHEN h.owner IS NULL THEN NULL
                                WHEN h.lease = 0 THEN 'infinity'::timestamptz
                                ELSE n.now + h.lease * interval '1 millisecond' END,
                           CASE WHEN old.held THEN h.rest ELSE h.live END,
                           n.now
                    FROM %2$s
                    CROSS JOIN LATERAL (
                      SELECT max(q.o) FILTER (WHERE q.r = 1) AS owner,
                             max(q.lease) FILTER (WHERE q.r = 1) AS lease,
                             coalesce(jsonb_agg(q.w ORDER BY q.r) FILTER (WHERE q.r > 1), '[]'::jsonb) AS rest,
                             coalesce(jsonb_agg(q.w ORDER BY q.r), '[]'::jsonb) AS live
                      FROM (SELECT e.w, e.w->>'owner' AS o, (e.w->>'lease')::bigint AS lease,
                                   row_number() OVER (ORDER BY e.i) AS r
                            FROM jsonb_array_elements(l.line) WITH ORDINALITY AS e(w, i)
                            WHERE (e.w->>'until')::bigint > n.micros / 1000
                              AND e.w->>'owner' IS DISTINCT FROM $2::text) q) h)
                  FROM old
                  WHERE l.lock_key = old.lock_key
                    AND (old.held OR l.line @> jsonb_build_array(jsonb_build_object('owner', $2::text)))
                  RETURNING old.held, l.lock_key, l.owner, l.token
                )
                SELECT held,
                       CASE WHEN held AND owner IS NOT NULL AND $3::text IS NOT NULL
                                 AND octet_length(lock_key) <= %3$d
                            THEN pg_notify($3::text, 'G ' || owner || ' ' || token || ' ' || encode(lock_key, 'hex'))::text
                       END
                FROM done
                """.formatted(t, NOW, HandOverAnnouncement.LONGEST_KEY_BYTES));
        this.renew = compact("""
                UPDATE %s SET held_until = %s, changed_at = clock_timestamp()
                WHERE lock_key = $1::bytea AND owner = $2::text AND held_until > clock_timestamp()
                """.formatted(t, leaseEnd("clock_timestamp()")));
        this.isHeld = compact("""
                SELECT EXISTS (SELECT 1 FROM %s
                               WHERE lock_key = $1::bytea AND owner = $2::text AND held_until > clock_timestamp())
                """.formatted(t));
        this.ping = "SELECT NULL FROM " + t + " WHERE false";
        this.listHeld = compact("""
                SELECT r.lock_key, r.owner, r.token,
                       CASE WHEN r.owner IS NULL OR r.held_until <= n.now THEN 0
                            WHEN r.held_until = 'infinity' THEN -1
                            ELSE ceil(extract(epoch FROM r.held_until - n.now) * 1000)::bigint END,
                       (SELECT count(*)::integer FROM jsonb_array_elements(r.line) AS e(w)
                        WHERE (e.w->>'until')::bigint > n.micros / 1000)
                FROM (SELECT lock_key, owner, token, held_until, line FROM %1$s
                      WHERE lock_key > $1::bytea AND ($2::bytea IS NULL OR lock_key < $2::bytea)
                      ORDER BY lock_key LIMIT $3::integer) r
                CROSS JOIN %2$s
                ORDER BY r.lock_key
                """.formatted(t, NOW));
        this.sweep = compact("""
                DELETE FROM %1$s WHERE lock_key IN (
                  SELECT lock_key FROM %1$s
                  WHERE changed_at < clock_timestamp() - $1::bigint * interval '1 millisecond'
                    AND (owner IS NULL OR held_until < clock_timestamp() - $1::bigint * interval '1 millisecond')
                  LIMIT $2::integer
                  FOR UPDATE SKIP LOCKED)
                """.formatted(t));
    }

    /**
     * @param table the lock table, as SQL
     * @return the DDL of the lock table, idempotent
     */
    static String createTable(String table) {
        return """
                CREATE TABLE IF NOT EXISTS %s (
                    lock_key   bytea       NOT NULL PRIMARY KEY,
                    owner      text,
                    token      bigint      NOT NULL,
                    held_until timestamptz,
                    line       jsonb       NOT NULL DEFAULT '[]',
                    changed_at timestamptz NOT NULL
                )""".formatted(table);
    }

    /** The lock table, as SQL. */
    String table() {
        return table;
    }

    /** The lock table's DDL. */
    String createTable() {
        return createTable;
    }

    /**
     * A row of (acquired, token: the new one, or when refused the last one issued for the key, how long until the
     * lock may be free for this owner in ms or -1), or none when a one-try attempt found the lock held. Grants the
     * lock to the owner if it is free and nobody whose place is live came earlier; when the owner waits, keeps (or
     * takes) its place.
     *
     * @param waiting whether the owner waits: parameters key, owner, lease (0: until released), place in milliseconds;
     *        otherwise key, owner, lease
     */
    String acquire(boolean waiting) {
        return waiting ? tryWaiting : tryOnce;
    }

    /**
     * The acquisition's fast path, which reads no waiting line: grants the lock when the key has no row, or its lock
     * is free and nobody is in line (the line is empty, lapsed places included), and then answers as
     * {@link #acquire(boolean)} does; otherwise it changes nothing and answers no row, and {@link #acquire(boolean)}
     * decides. Where it grants, it does exactly what {@link #acquire(boolean)} would (an empty line has no head and
     * stays empty). Parameters: key, owner, lease.
     */
    String grantIfAlone() {
        return grantIfAlone;
    }

    /**
     * The release's fast path, which reads no waiting line: a row of (released) when the owner holds the lock with a
     * running lease and nobody is in line, which it then frees, as {@link #free()} would (nobody to hand it to, so
     * nothing to announce); otherwise it changes nothing and answers no row, and {@link #free()} decides. Parameters:
     * key, owner.
     */
    String releaseIfAlone() {
        return releaseIfAlone;
    }

    /** A row with the new token; the lock is the owner's whoever held it. Parameters: key, owner, lease. */
    String takeOver() {
        return takeOver;
    }

    /**
     * A row of (released) when the lock was held by the owner or the owner was in line; none otherwise. Parameters:
     * key, owner ({@code NULL}: whoever holds it), channel ({@code NULL}: no announcement). Takes the owner out of the
     * line and, if it holds the lock (anyone, for {@code NULL}), releases it, handing it to the first waiter whose
     * place is live and announcing that hand-over.
     */
    String free() {
        return free;
    }

    /** Updates one row when the owner holds the lock and its lease runs. Parameters: key, owner, lease. */
    String renew() {
        return renew;
    }

    /** A row of (held now by owner). Parameters: key, owner. */
    String isHeld() {
        return isHeld;
    }

    /**
     * Rows of (key, owner, token, lease left in ms: 0 when not held, -1 when held until released; live places in
     * line) for at most {@code $3} rows in key order after {@code $1}, below {@code $2} ({@code NULL}: no bound): a
     * keyset page on the primary key, whose rows the caller filters to the held ones. Parameters: after, below, most
     * rows.
     */
    String listHeld() {
        return listHeld;
    }

    /** A query that answers when the table exists and may be read. */
    String ping() {
        return ping;
    }

    /**
     * Deletes rows free, and unasked for, for longer than the retention. Parameters: retention in milliseconds, most
     * rows.
     */
    String sweep() {
        return sweep;
    }

    /**
     * The acquisition of {@link #acquire(boolean)}. A waiting owner's own place ({@code m.me}) is kept where it was
     * ({@code kept}, which differs from {@code others} exactly when the owner was in line), or taken at the end; a
     * one-try attempt only ever drops the owner's old places and the lapsed ones, and changes nothing while the lock is
     * held.
     *
     * @param t the lock table, as SQL
     * @param waiting whether the statement is the waiting owner's
     * @return the statement, laid out to be read
     */
    private static String acquire(String t, boolean waiting) {
        String line = waiting ? """
                CASE WHEN g.granted OR l.owner = $2::text AND l.held_until > n.now THEN v.others
                     WHEN v.kept <> v.others THEN v.kept
                     ELSE v.kept || m.me END""" : "v.others";
        String me = waiting ? """
                , LATERAL (SELECT jsonb_build_object('owner', $2::text, 'until', n.micros / 1000 + $4::bigint,
                                                     'lease', $3::bigint) AS me) m""" : "";
        String kept = waiting ? """
                coalesce(jsonb_agg(CASE WHEN e.w->>'owner' = $2::text THEN m.me ELSE e.w END ORDER BY e.i),
                         '[]'::jsonb) AS kept,""" : "";
        String onlyFree = waiting ? "" : "WHERE l.owner IS NULL OR l.held_until <= clock_timestamp()";
        return (INSERT_HOLDER + """
                  SELECT CASE WHEN g.granted THEN $2::text ELSE l.owner END,
                         CASE WHEN g.granted THEN greatest(l.token + 1, n.micros) ELSE l.token END,
                         CASE WHEN g.granted THEN %3$s ELSE l.held_until END,
                         %4$s,
                         n.now
                  FROM %2$s%5$s, LATERAL (
                    SELECT coalesce(jsonb_agg(e.w ORDER BY e.i) FILTER (WHERE e.w->>'owner' <> $2::text),
                                    '[]'::jsonb) AS others, %6$s
                           (array_agg(e.w->>'owner' ORDER BY e.i))[1] AS head
                    FROM jsonb_array_elements(l.line) WITH ORDINALITY AS e(w, i)
                    WHERE (e.w->>'until')::bigint > n.micros / 1000) v, LATERAL (
                    SELECT coalesce((l.owner IS NULL OR l.held_until <= n.now)
                                    AND (v.head IS NULL OR v.head = $2::text), false) AS granted) g)
                %7$s
                RETURNING coalesce(owner = $2::text, false), token,
                  CASE WHEN owner IS NOT NULL AND held_until > changed_at THEN
                         coalesce(ceil(extract(epoch FROM nullif(held_until, 'infinity') - changed_at) * 1000)::bigint,
                                  2147483647)
                       WHEN line <> '[]' THEN
                         greatest(1, (line->0->>'until')::bigint
                                     - floor(extract(epoch FROM changed_at) * 1000)::bigint)
                       ELSE -1 END
                """).formatted(t, NOW, LEASE_END, line, me, kept, onlyFree);
    }

    /**
     * @param sql a statement as written here, laid out to be read
     * @return the statement with every run of white space made one space, and none inside parentheses, so that it
     *         stays shorter than {@link #CACHED_SQL_LIMIT}: no literal or identifier of the statements has a line
     *         break, two spaces in a row, or a space next to a parenthesis
     */
    private static String compact(String sql) {
        return WHITE_SPACE.matcher(sql.strip()).replaceAll(" ").replace("( ", "(").replace(" )", ")");
    }

    /**
     * @param now the SQL of the time the lease starts
     * @return the SQL of when a lease of {@code $3} milliseconds starting at {@code now} ends: {@code 'infinity'} for a
     *         lease of 0 (held until released)
     */
    private static String leaseEnd(String now) {
        return "CASE WHEN $3::bigint = 0 THEN 'infinity' ELSE " + now
                + " + $3::bigint * interval '1 millisecond' END";
    }
}
