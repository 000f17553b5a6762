package io.quarkiverse.lock.testsupport.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.MariaDbServer;

/**
 * The fault proxy between MariaDB Connector/J and a private MariaDB server: every packet of a response is paired with
 * the command it answers, the last one says it ends the answer, and an answer dropped whole leaves the client waiting
 * on a connection that stays open although the server applied the command.
 */
class MariaDbFaultProxyTest {

    private final MariaDbServer server = MariaDbServer.shared();
    private final List<Exchange> seen = new CopyOnWriteArrayList<>();
    private FaultProxy proxy;

    @BeforeEach
    void startProxy() {
        proxy = FaultProxy.start("127.0.0.1", server.port(), WireProtocol.MARIADB);
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    private Connection connect(String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxy.port() + "/" + MariaDbServer.DATABASE
                + "?socketTimeout=1000" + options, MariaDbServer.USER, MariaDbServer.PASSWORD);
    }

    private void recordAnd(FaultRule rule) {
        proxy.rule(exchange -> {
            seen.add(exchange);
            return rule.decide(exchange);
        });
    }

    private List<Exchange> answering(String sql) {
        return seen.stream().filter(exchange -> sql.equals(exchange.request())).toList();
    }

    @Test
    void pairsEveryPacketOfAResultSetWithItsQueryAndEndsTheAnswerAtItsLast() throws SQLException {
        String table = "pairs_" + UUID.randomUUID().toString().replace("-", "");
        recordAnd(exchange -> Fault.pass());
        String select = "SELECT id, name FROM " + table + " ORDER BY id";
        try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, name VARCHAR(20))");
            statement.execute("INSERT INTO " + table + " VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            try (ResultSet rows = statement.executeQuery(select)) {
                int count = 0;
                while (rows.next()) {
                    count++;
                }
                assertThat(count).isEqualTo(3);
            }
        }
        assertThat(seen).filteredOn(exchange -> MariaDbCodec.STARTUP.equals(exchange.request()))
                .as("the greeting and the login's OK answer the connection's start").hasSizeGreaterThanOrEqualTo(2)
                .extracting(Exchange::reply).first().isEqualTo("Greeting");
        assertThat(answering(select)).extracting(Exchange::reply)
                .containsSubsequence("ColumnCount", "Row", "Row", "Row").last().isIn("EOF", "OK");
        assertThat(answering(select)).filteredOn(Exchange::endsAnswer).as("one end per answer").singleElement()
                .isSameAs(answering(select).get(answering(select).size() - 1));
        assertThat(answering("INSERT INTO " + table + " VALUES (1, 'one'), (2, 'two'), (3, 'three')"))
                .singleElement().satisfies(exchange -> {
                    assertThat(exchange.reply()).isEqualTo("OK");
                    assertThat(exchange.endsAnswer()).isTrue();
                });
        assertThat(seen).noneMatch(exchange -> "?".equals(exchange.request()) || exchange.push());
    }

    @Test
    void pairsAPreparedStatementsDescriptionAndItsExecutions() throws SQLException {
        recordAnd(exchange -> Fault.pass());
        String sql = "SELECT ? + 1, 'x'";
        try (Connection connection = connect("&useServerPrepStmts=true");
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < 3; i++) {
                statement.setInt(1, i);
                try (ResultSet rows = statement.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(i + 1);
                }
            }
        }
        assertThat(answering(sql)).filteredOn(Exchange::endsAnswer)
                .as("the description and three executions (the first pipelined with it, the later ones without their "
                        + "metadata), each ended once")
                .extracting(Exchange::reply).containsExactly("ColumnDefinition", "EOF", "EOF", "EOF");
        assertThat(answering(sql)).filteredOn(exchange -> "Row".equals(exchange.reply())).hasSize(3);
        assertThat(seen).noneMatch(exchange -> "?".equals(exchange.request()));
    }

    @Test
    void anAnswerDroppedWholeLeavesTheClientWaitingAlthoughTheServerApplied() throws SQLException {
        String table = "dropped_" + UUID.randomUUID().toString().replace("-", "");
        String insert = "INSERT INTO " + table + " VALUES (1)";
        recordAnd(exchange -> insert.equals(exchange.request()) ? Fault.drop() : Fault.pass());
        try (Connection connection = connect(""); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY)");
            assertThatThrownBy(() -> statement.execute(insert)).isInstanceOf(SQLException.class)
                    .hasStackTraceContaining("timed out");
        }
        assertThat(server.sql("SELECT count(*) FROM " + MariaDbServer.DATABASE + "." + table))
                .as("applied by the server").isEqualTo("1");
        assertThat(proxy.counts().drops()).isEqualTo(1);
        try (Connection connection = connect("");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + table)) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt(1)).as("a new connection through the proxy works").isEqualTo(1);
        }
    }
}
