package io.github.kcrawler.fetcher.warc;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/**
 * One complete HTTP exchange to archive: the request as sent and the response as received. The body is the
 * decoded payload (after gzip/deflate), so {@link WarcArchive} rewrites the framing headers accordingly.
 *
 * @param target          the URL fetched (WARC-Target-URI)
 * @param ip              the server address (WARC-IP-Address), or null
 * @param dateMillis      when the request was sent (WARC-Date)
 * @param requestTarget   path and query as sent on the request line
 * @param requestHeaders  request headers in the order sent
 * @param responseHeaders response headers in the order received
 * @param body            payload bytes; only the first {@code bodyLength} are used
 */
public record WarcExchange(String target, InetAddress ip, long dateMillis, String requestTarget,
                           List<Map.Entry<String, String>> requestHeaders, int status, String reason,
                           List<Map.Entry<String, String>> responseHeaders, byte[] body, int bodyLength) {
}
