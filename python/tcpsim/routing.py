"""The engine's routes, recomputed from a result's link table.

The engine routes every packet on a fewest-hop path; among equal-hop paths the one through
lower-numbered links wins (`net/routing.rs`: a breadth-first search from the destination that
visits each node's neighbours in link order, each node taking the channel to the node that
reached it first). :class:`Routes` runs the same search over the rows of `r.links` (one per link
direction: `link`, `direction`, `src`, `dst`), so a result's paths are known without the
scenario: which link directions a flow's data crosses. These are the routes of `[network]
routing = "shortest"` (the default) only; with ECMP a flow's path depends on its hash or, when
spraying, on each packet, and is not recomputed here; :meth:`Routes.crossing` tells whether a
hop is on every, some or none of the fewest-hop paths, which is what ECMP may take.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping


class Routes:
    """Paths between the nodes of a result's link table, as the engine routed them."""

    def __init__(self, links: Iterable[Mapping[str, object]]) -> None:
        # Per node: (neighbour, link, direction from the neighbour to this node), in link order.
        ends: dict[int, tuple[str, str]] = {}
        for row in links:
            if row["direction"] == "ab":
                ends[int(row["link"])] = (str(row["src"]), str(row["dst"]))  # type: ignore[call-overload]
        self._adjacent: dict[str, list[tuple[str, int, str]]] = {}
        for link in sorted(ends):
            a, b = ends[link]
            self._adjacent.setdefault(a, []).append((b, link, "ba"))
            self._adjacent.setdefault(b, []).append((a, link, "ab"))
        self._towards: dict[str, dict[str, tuple[str, int, str]]] = {}
        self._counted: dict[str, dict[str, tuple[int, int]]] = {}
        self._hop_ends: dict[tuple[int, str], tuple[str, str]] = {}
        for link in sorted(ends):
            a, b = ends[link]
            self._hop_ends[(link, "ab")] = (a, b)
            self._hop_ends[(link, "ba")] = (b, a)

    def _next_hops(self, dst: str) -> dict[str, tuple[str, int, str]]:
        """For each node that reaches `dst`: (next node, link, direction) of its first hop."""
        if dst not in self._towards:
            hops: dict[str, tuple[str, int, str]] = {}
            seen, frontier = {dst}, deque([dst])
            while frontier:
                node = frontier.popleft()
                for neighbour, link, direction in self._adjacent.get(node, []):
                    if neighbour not in seen:
                        seen.add(neighbour)
                        hops[neighbour] = (node, link, direction)
                        frontier.append(neighbour)
            self._towards[dst] = hops
        return self._towards[dst]

    def _host_link(self, node: str) -> tuple[str, int, str] | None:
        """(router, link, direction from the router) if `node` has one link, to a node with
        several: a host. A search from a host first reaches its router, then every other node
        in the order a search from the router does, so routes to and from a host are its
        router's plus that link. Searching once per router rather than once per host keeps a
        result with thousands of hosts linear in its size."""
        adjacent = self._adjacent.get(node, [])
        if len(adjacent) == 1 and len(self._adjacent.get(adjacent[0][0], [])) > 1:
            return adjacent[0]
        return None

    def path(self, src: str, dst: str) -> list[tuple[int, str]]:
        """The (link, direction) pairs data from `src` to `dst` crosses, in order; empty if
        `src` is `dst` or cannot reach it."""
        if src == dst:
            return []
        if (host := self._host_link(dst)) is not None:
            router, link, direction = host
            head = [] if src == router else self.path(src, router)
            return [*head, (link, direction)] if head or src == router else []
        hops = self._next_hops(dst)
        out, node = [], src
        while node != dst and node in hops:
            node, link, direction = hops[node]
            out.append((link, direction))
        return out if node == dst else []

    def crossing(self, src: str, dst: str, hop: tuple[int, str]) -> bool | None:
        """Whether data from `src` to `dst` crosses `hop` (link, direction) when it may take any
        fewest-hop path, as under ECMP (`net/routing.rs`: every node with several next hops on
        such paths may pick any): True if every such path crosses it, False if none does (or
        `dst` is out of reach), None if some do. A path count through the hop's ends decides:
        paths(src→u) · paths(v→dst) of the paths(src→dst) pass through u→v."""
        if hop not in self._hop_ends:
            return False
        u, v = self._hop_ends[hop]
        src_dst, src_u, v_dst = self._count(src, dst), self._count(src, u), self._count(dst, v)
        if src_dst is None or src_u is None or v_dst is None:
            return False
        hops, paths = src_dst
        if src_u[0] + 1 + v_dst[0] != hops:
            return False
        return True if src_u[1] * v_dst[1] == paths else None

    def _count(self, start: str, node: str) -> tuple[int, int] | None:
        """(hops, number of fewest-hop paths) from `start` to `node`, None if out of reach; a
        host's are its router's plus one hop (`_host_link`)."""
        if start == node:
            return (0, 1)
        if (host := self._host_link(start)) is not None:
            router = host[0]
            if node == router:
                return (1, 1)
            through = self._fewest_hops(router).get(node)
            return None if through is None else (through[0] + 1, through[1])
        return self._fewest_hops(start).get(node)

    def _fewest_hops(self, start: str) -> dict[str, tuple[int, int]]:
        """Per node that `start` reaches: (hops, number of fewest-hop paths), a breadth-first
        count (links join both ways, so paths from `start` and to it are the same)."""
        if start not in self._counted:
            counted = {start: (0, 1)}
            frontier = deque([start])
            while frontier:
                node = frontier.popleft()
                hops, paths = counted[node]
                for neighbour, _, _ in self._adjacent.get(node, []):
                    if neighbour not in counted:
                        counted[neighbour] = (hops + 1, paths)
                        frontier.append(neighbour)
                    elif counted[neighbour][0] == hops + 1:
                        counted[neighbour] = (hops + 1, counted[neighbour][1] + paths)
            self._counted[start] = counted
        return self._counted[start]
