package io.quarkiverse.lock.testsupport.mongo;

import java.util.List;
import java.util.concurrent.TimeUnit;

import de.bwaldvogel.mongo.bson.Document;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;

/**
 * Makes the {@code getMore} of an open change stream that has no new change wait a little before answering, as a
 * real server waits (up to {@code maxAwaitTimeMS}) on a tailable, awaitData cursor. {@code mongo-java-server} answers
 * at once, so the driver asks again at once: about a thousand {@code getMore} a second per change stream, each
 * scanning the whole oplog, which starves a small test machine.
 * <p>
 * The wait delays the reply on the connection's event loop with a timer; it never blocks the server's threads, so
 * other connections are not held up. A change made during the wait reaches the stream with its next {@code getMore}.
 */
final class AwaitDataEmulation extends ChannelOutboundHandlerAdapter {

    /** How long an empty {@code getMore} of a change stream waits before its reply is sent. */
    static final long WAIT_MILLIS = 20;

    private static final String NAME = "quarkus-lock-await-data";
    private static final AttributeKey<Boolean> DELAY_NEXT_REPLY = AttributeKey.valueOf(NAME);

    /**
     * Delays the reply about to be written on the channel, if it is an empty batch of a cursor that stays open.
     *
     * @param channel the client's connection, on whose event loop this runs
     * @param command the command's name
     * @param reply the command's reply
     */
    static void afterCommand(Channel channel, String command, Document reply) {
        if (!command.equalsIgnoreCase("getMore") || !(reply.get("cursor") instanceof Document cursor)
                || !(cursor.get("nextBatch") instanceof List<?> batch) || !batch.isEmpty()
                || cursor.get("id") instanceof Number id && id.longValue() == 0) {
            return;
        }
        if (channel.pipeline().get(NAME) == null) {
            channel.pipeline().addFirst(NAME, new AwaitDataEmulation());
        }
        channel.attr(DELAY_NEXT_REPLY).set(Boolean.TRUE);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object message, ChannelPromise promise) throws Exception {
        if (Boolean.TRUE.equals(ctx.channel().attr(DELAY_NEXT_REPLY).getAndSet(Boolean.FALSE))) {
            ctx.executor().schedule(() -> ctx.writeAndFlush(message, promise), WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            super.write(ctx, message, promise);
        }
    }
}
