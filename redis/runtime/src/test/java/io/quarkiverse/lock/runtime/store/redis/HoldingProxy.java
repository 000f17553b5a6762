package io.quarkiverse.lock.runtime.store.redis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Break-test helper: a TCP proxy that models what the shared {@code FaultProxy} cannot, a request delayed in the
 * network. {@link #holdOpenConnections()} makes the connections open at that moment keep what the client sends
 * (as TCP segments stuck in a lossy path, retransmitted later); the client may time out and close its socket
 * meanwhile. {@link #deliverHeld()} then delivers those bytes to the server, as the kernel's retransmission of data
 * sent before the close does once the path heals, and only then ends the server side. Connections opened later pass.
 */
final class HoldingProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Conn> connections = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    HoldingProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "holding-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String redisUri() {
        return "redis://127.0.0.1:" + listener.getLocalPort();
    }

    void holdOpenConnections() {
        for (Conn conn : connections) {
            conn.hold();
        }
    }

    /** @return how many bytes were delivered late */
    int deliverHeld() {
        int delivered = 0;
        for (Conn conn : connections) {
            delivered += conn.deliverHeld();
        }
        return delivered;
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress("127.0.0.1", targetPort), 5_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                Conn conn = new Conn(client, server);
                connections.add(conn);
                conn.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException ignored) {
        }
        for (Conn conn : connections) {
            conn.close();
        }
    }

    private final class Conn {

        final Socket client;
        final Socket server;
        final ByteArrayOutputStream held = new ByteArrayOutputStream();
        boolean holding;
        boolean clientGone;

        Conn(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        synchronized void hold() {
            holding = true;
        }

        synchronized int deliverHeld() {
            if (!holding) {
                return 0;
            }
            int size = held.size();
            try {
                server.getOutputStream().write(held.toByteArray());
                server.getOutputStream().flush();
            } catch (IOException ignored) {
            }
            held.reset();
            holding = false;
            if (clientGone) {
                Thread closer = new Thread(() -> {
                    try {
                        Thread.sleep(500);
                    } catch (InterruptedException ignored) {
                    }
                    close();
                });
                closer.setDaemon(true);
                closer.start();
            }
            return size;
        }

        void start() {
            Thread up = new Thread(this::pumpUp, "holding-proxy-up");
            up.setDaemon(true);
            up.start();
            Thread down = new Thread(this::pumpDown, "holding-proxy-down");
            down.setDaemon(true);
            down.start();
        }

        private void pumpUp() {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = client.getInputStream();
                OutputStream out = server.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    synchronized (this) {
                        if (holding) {
                            held.write(buffer, 0, n);
                        } else {
                            out.write(buffer, 0, n);
                            out.flush();
                        }
                    }
                }
            } catch (IOException ignored) {
            }
            synchronized (this) {
                clientGone = true;
                if (!holding) {
                    close();
                }
            }
        }

        private void pumpDown() {
            byte[] buffer = new byte[16384];
            try {
                InputStream in = server.getInputStream();
                OutputStream out = client.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    try {
                        out.write(buffer, 0, n);
                        out.flush();
                    } catch (IOException clientClosed) {
                        // the client gave up; the server's replies go nowhere
                    }
                }
            } catch (IOException ignored) {
            }
        }

        void close() {
            connections.remove(this);
            try {
                client.close();
            } catch (IOException ignored) {
            }
            try {
                server.close();
            } catch (IOException ignored) {
            }
        }
    }
}
