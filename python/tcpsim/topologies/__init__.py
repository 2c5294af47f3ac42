"""Generators of user-format scenarios for topologies with many hosts.

A TOML file is the right tool for a handful of links; a dumbbell with hundreds of flows of
different RTTs is better generated. The generators return plain scenario dicts, so they can
be edited, saved as TOML, swept and run like any file:

- :func:`dumbbell`: one bottleneck, forward and reverse flows with their own RTTs;
- :func:`parking_lot`: k bottlenecks in a row, a pool of flows crossing all of them, one
  crossing each, and a reverse pool (`podlesny` Sec. IV-H, Fig. 11);
- :func:`chain`: `macura`'s multi-hop chain, one connection across N hops against one-hop
  NewReno cross traffic (`macura` Sec. 5.3, Fig. 3);
- :func:`fat_tree`: Al-Fares et al.'s k-ary fat tree (SIGCOMM 2008), and :func:`leaf_spine`:
  a two-tier leaf–spine fabric, with many equal-cost paths that ECMP spreads flows over;
- :func:`incast`: workers answering an aggregator through one switch port in
  barrier-synchronised rounds (DCTCP, SIGCOMM 2010, Sec. 4.2.1).

In the first three, hosts are leaves and routers a line, so the engine's fewest-hop routing has
one path per flow.
"""

from tcpsim.topologies.chain import chain
from tcpsim.topologies.datacenter import fat_tree, leaf_spine
from tcpsim.topologies.dumbbell import dumbbell
from tcpsim.topologies.incast import incast
from tcpsim.topologies.parking_lot import parking_lot

__all__ = ["chain", "dumbbell", "fat_tree", "incast", "leaf_spine", "parking_lot"]
