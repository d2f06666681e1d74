package io.github.kcrawler.lab.simulate;

import io.github.kcrawler.lab.ranker.simulate.LinkGraph;

import java.util.Arrays;

/** Strongly connected components of a link graph, for the scheduler experiment's seeds (one page per large SCC). */
final class StronglyConnectedComponents {
    private StronglyConnectedComponents() {
    }

    /** Component id per page (Tarjan's algorithm with an explicit call stack, so deep graphs cannot overflow). */
    static int[] stronglyConnectedComponents(LinkGraph g) {
        int n = g.numNodes();
        int[] off = g.offsets();
        int[] tgt = g.targets();
        int[] index = new int[n];
        int[] low = new int[n];
        int[] comp = new int[n];
        Arrays.fill(index, -1);
        int[] stack = new int[n];
        boolean[] onStack = new boolean[n];
        int sp = 0;
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int counter = 0;
        int comps = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] >= 0) {
                continue;
            }
            int depth = 0;
            callNode[0] = root;
            callEdge[0] = off[root];
            index[root] = low[root] = counter++;
            stack[sp++] = root;
            onStack[root] = true;
            while (depth >= 0) {
                int v = callNode[depth];
                if (callEdge[depth] < off[v + 1]) {
                    int w = tgt[callEdge[depth]++];
                    if (index[w] < 0) {
                        index[w] = low[w] = counter++;
                        stack[sp++] = w;
                        onStack[w] = true;
                        depth++;
                        callNode[depth] = w;
                        callEdge[depth] = off[w];
                    } else if (onStack[w]) {
                        low[v] = Math.min(low[v], index[w]);
                    }
                } else {
                    if (low[v] == index[v]) {
                        int w;
                        do {
                            w = stack[--sp];
                            onStack[w] = false;
                            comp[w] = comps;
                        } while (w != v);
                        comps++;
                    }
                    depth--;
                    if (depth >= 0) {
                        int u = callNode[depth];
                        low[u] = Math.min(low[u], low[v]);
                    }
                }
            }
        }
        return comp;
    }

    /** {sizes, seed pages} of the {@code k} largest SCCs (ties: smaller smallest page id first). */
    static int[][] largestComponentSizes(LinkGraph g, int k) {
        int[] comp = stronglyConnectedComponents(g);
        int comps = 0;
        for (int c : comp) {
            comps = Math.max(comps, c + 1);
        }
        int[] size = new int[comps];
        int[] first = new int[comps];
        Arrays.fill(first, -1);
        for (int v = 0; v < comp.length; v++) {
            size[comp[v]]++;
            if (first[comp[v]] < 0) {
                first[comp[v]] = v;
            }
        }
        Integer[] order = new Integer[comps];
        for (int c = 0; c < comps; c++) {
            order[c] = c;
        }
        Arrays.sort(order, (a, b) -> size[a] != size[b] ? Integer.compare(size[b], size[a])
                : Integer.compare(first[a], first[b]));
        int m = Math.min(k, comps);
        int[] sizes = new int[m];
        int[] seeds = new int[m];
        for (int i = 0; i < m; i++) {
            sizes[i] = size[order[i]];
            seeds[i] = first[order[i]];
        }
        return new int[][] {sizes, seeds};
    }
}
