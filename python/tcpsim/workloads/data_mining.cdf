# Data-mining flow sizes: Greenberg et al., "VL2: a scalable and flexible data center network",
# SIGCOMM 2009, Fig. 2 (flow sizes in a data-mining cluster), in the byte form of PIAS's
# generator (Bai et al., NSDI 2015), HKUST-SING/TrafficGenerator conf/VL2_CDF.txt, also used by
# pFabric-style evaluations. pFabric's ns-2 scripts carry a coarser version in packets
# (conf/CDF_vl2.txt there: half the flows one packet, at most 666 667 packets); this is not it.
# Columns: flow size in bytes, cumulative probability. Sampled by inverse transform with linear
# interpolation between points; mean of that distribution 12 658 199 B.
0 0
180 0.1
216 0.2
560 0.3
900 0.4
1100 0.5
1870 0.6
3160 0.7
10000 0.8
400000 0.9
3160000 0.95
100000000 0.98
1000000000 1
