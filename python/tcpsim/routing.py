"""The engine's routes, recomputed from a result's link table.

The engine routes every packet on a fewest-hop path; among equal-hop paths the one through
lower-numbered links wins (`net/routing.rs`: a breadth-first search from the destination that
visits each node's neighbours in link order, each node taking the channel to the node that
reached it first). :class:`Routes` runs the same search over the rows of `r.links` (one per link
direction: `link`, `direction`, `src`, `dst`), so a result's paths are known without the
scenario: which link directions a flow's data crosses. These are the routes of `[network]
routing = "shortest"` (the default) only; with ECMP a flow's path depends on its hash or, when
spraying, on each packet, and is not recomputed here.
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

    def path(self, src: str, dst: str) -> list[tuple[int, str]]:
        """The (link, direction) pairs data from `src` to `dst` crosses, in order; empty if
        `src` is `dst` or cannot reach it."""
        hops = self._next_hops(dst)
        out, node = [], src
        while node != dst and node in hops:
            node, link, direction = hops[node]
            out.append((link, direction))
        return out if node == dst else []
