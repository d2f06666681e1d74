/**
 * websim: a simulated web on loopback for testing and demonstrating the crawler without the internet.
 *
 * <p>A {@link io.github.kcrawler.websim.WebGraphSource} (a real BVGraph such as cnr-2000, or a generated graph)
 * provides pages and links; a {@link io.github.kcrawler.websim.SiteLayout} turns page ids into hosts, loopback IP
 * addresses, URLs and robots.txt rules; {@link io.github.kcrawler.websim.WebSimServer} serves the pages over HTTP/1.1
 * on every simulated address; and {@link io.github.kcrawler.websim.AccessRecorder} keeps the server's own record of
 * every access, so politeness and duplicate fetches can be checked from outside the crawler.
 * {@link io.github.kcrawler.websim.WebSim} wires these together from one
 * {@link io.github.kcrawler.websim.WebSimConfig}; {@link io.github.kcrawler.websim.WebSimMain} is the command line.
 */
package io.github.kcrawler.websim;
